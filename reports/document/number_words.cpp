#include "reports/document/number_words.hpp"

#include <cmath>

#include <fmt/format.h>

namespace tco {

namespace {

// The digits of |x| rounded to whole units, grouped in thousands. Any double below
// kMaxGroupedUsd rounds to an integer that "{:.0f}" prints exactly.
std::string group_thousands(const std::string& digits) {
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

std::string format_usd(double x) {
  if (!std::isfinite(x)) return "n/a";
  if (std::fabs(x) >= kMaxGroupedUsd) return fmt::format("{}${:.3e}", x < 0 ? "-" : "", std::fabs(x));
  const double whole = std::round(std::fabs(x));
  return (x < 0 && whole != 0 ? "-$" : "$") + group_thousands(fmt::format("{:.0f}", whole));
}

std::string format_usd(const Json& value) {
  return value.is_number() ? format_usd(value.get<double>()) : std::string("n/a");
}

std::string format_months(int months) { return fmt::format("{} month{}", months, months == 1 ? "" : "s"); }

std::string format_grouped(double x, int decimals) {
  if (!std::isfinite(x)) return "n/a";
  if (std::fabs(x) >= kMaxGroupedUsd) return fmt::format("{:.3e}", x);
  const std::string fixed = fmt::format("{:.{}f}", std::fabs(x), decimals);
  const std::size_t point = fixed.find('.');
  const std::string whole = fixed.substr(0, point);
  const std::string rest = point == std::string::npos ? "" : fixed.substr(point);
  const bool zero = fixed.find_first_not_of("0.") == std::string::npos;
  return (x < 0 && !zero ? "-" : "") + group_thousands(whole) + rest;
}

std::string format_percent(double fraction, int decimals, bool sign) {
  if (!std::isfinite(fraction)) return "n/a";
  const double percent = 100.0 * fraction;
  std::string text = format_grouped(percent, decimals);
  if (sign && text.front() != '-') text = "+" + text;
  text += "%";
  if (std::fabs(percent) > kMeaningfulPercentLimit) text += kOutsideMeaningfulRange;
  return text;
}

}  // namespace tco
