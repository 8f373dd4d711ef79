#include "reports/document/report_cell.hpp"

#include <utility>

namespace tco {

namespace {

Cell make(CellKind kind, const Json& raw, int decimals = 0) {
  Cell cell;
  cell.kind = kind;
  cell.raw = raw;
  cell.decimals = decimals;
  return cell;
}

}  // namespace

Cell text_cell(const Json& text_or_null) { return make(CellKind::text, text_or_null); }
Cell prose_cell(const Json& text_or_null) { return make(CellKind::prose, text_or_null); }
Cell usd_cell(const Json& usd) { return make(CellKind::usd, usd); }
Cell usd_price_cell(const Json& usd, int decimals) { return make(CellKind::usd_price, usd, decimals); }
Cell percent_cell(const Json& fraction, int decimals) { return make(CellKind::percent, fraction, decimals); }
Cell signed_percent_cell(const Json& fraction, int decimals) {
  return make(CellKind::signed_percent, fraction, decimals);
}
Cell count_cell(const Json& count, int decimals) { return make(CellKind::count, count, decimals); }
Cell signed_count_cell(const Json& count, int decimals) { return make(CellKind::signed_count, count, decimals); }
Cell gpu_hours_cell(const Json& gpu_hours) { return make(CellKind::gpu_hours, gpu_hours); }
Cell month_cell(const Json& month) { return make(CellKind::month, month); }
Cell hours_cell(const Json& hours) { return make(CellKind::hours, hours); }
Cell co2_kg_cell(const Json& kg) { return make(CellKind::co2_kg, kg, 1); }
Cell date_cell(const std::string& date) { return make(CellKind::date, Json(date)); }

Cell shown_as(Cell cell, std::string words) {
  cell.shown_as = std::move(words);
  return cell;
}

}  // namespace tco
