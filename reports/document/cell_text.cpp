#include "reports/document/cell_text.hpp"

#include <cmath>

#include <fmt/format.h>

#include "reports/document/number_words.hpp"

namespace tco {

std::string cell_text(const Cell& cell) {
  if (!cell.shown_as.empty()) return cell.shown_as;
  const Json& raw = cell.raw;
  if (raw.is_string()) return raw.get<std::string>();
  if (!raw.is_number()) return is_words(cell.kind) ? "-" : "n/a";
  const double x = raw.get<double>();
  switch (cell.kind) {
    case CellKind::usd: return format_usd(x);
    case CellKind::usd_price: {
      const std::string digits = format_grouped(x, cell.decimals);
      return digits.front() == '-' ? "-$" + digits.substr(1) : "$" + digits;
    }
    case CellKind::percent: return format_percent(x, cell.decimals);
    case CellKind::signed_percent: return format_percent(x, cell.decimals, true);
    case CellKind::count:
    case CellKind::gpu_hours: return format_grouped(x, cell.decimals);
    case CellKind::signed_count: {
      const std::string digits = format_grouped(x, cell.decimals);
      return digits.front() == '-' ? digits : "+" + digits;
    }
    case CellKind::month: return fmt::format("{:.0f}", x);
    case CellKind::hours: return fmt::format("{:g} h", x);
    case CellKind::co2_kg: return format_grouped(x / 1000.0, cell.decimals) + " t";
    case CellKind::text:
    case CellKind::prose:
    case CellKind::date: return raw.dump();
  }
  return raw.dump();
}

double cell_shown_number(const Cell& cell) {
  const double x = cell.number();
  switch (cell.kind) {
    case CellKind::percent:
    case CellKind::signed_percent: return 100.0 * x;
    case CellKind::co2_kg: return x / 1000.0;
    default: return x;
  }
}

double cell_rounding(const Cell& cell) {
  const int decimals = cell.kind == CellKind::usd || cell.kind == CellKind::month || cell.kind == CellKind::gpu_hours
                           ? 0
                           : cell.decimals;
  if (cell.kind == CellKind::hours) return 1e-6 * std::max(1.0, std::fabs(cell.number()));
  return 0.5 * std::pow(10.0, -decimals) + 1e-9 * std::fabs(cell_shown_number(cell));
}

}  // namespace tco
