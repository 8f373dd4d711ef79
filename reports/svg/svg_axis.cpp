#include "reports/svg/svg_axis.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace tco::svg {

double Axis::tick_step(int target) const {
  const double span = hi - lo;
  const double magnitude = std::pow(10.0, std::floor(std::log10(span / std::max(1, target))));
  for (double m : {1.0, 2.0, 2.5, 5.0})
    if (span / (m * magnitude) <= target) return m * magnitude;
  return 10.0 * magnitude;
}

std::vector<double> Axis::ticks(int target) const {
  const double step = tick_step(target);
  std::vector<double> out;
  const auto first = static_cast<long>(std::ceil(lo / step - 1e-9));
  const auto last = static_cast<long>(std::floor(hi / step + 1e-9));
  for (long i = first; i <= last; ++i) out.push_back(i == 0 ? 0.0 : static_cast<double>(i) * step);
  return out;
}

Axis padded_axis(double lo, double hi, double pixel_lo, double pixel_hi) {
  const double pad = hi > lo ? (hi - lo) * 0.05 : std::max(1.0, std::fabs(lo) * 0.05);
  return {lo - pad, hi + pad, pixel_lo, pixel_hi};
}

namespace {

struct Unit {
  double scale;
  const char* suffix;
};

Unit unit_for(double largest_abs) {
  if (largest_abs >= 1e9) return {1e9, "B"};
  if (largest_abs >= 1e6) return {1e6, "M"};
  if (largest_abs >= 1e3) return {1e3, "k"};
  return {1.0, ""};
}

// value / unit rounded to `decimals`, with a negative zero made positive.
std::string scaled(double value, Unit unit, int decimals) {
  const double factor = std::pow(10.0, decimals);
  const double rounded = std::round(value / unit.scale * factor) / factor;
  if (rounded == 0.0) return "0";
  return fmt::format("{:.{}f}{}", rounded, decimals, unit.suffix);
}

}  // namespace

std::vector<std::string> tick_labels(const std::vector<double>& ticks, double step) {
  double largest = 0.0;
  for (double t : ticks) largest = std::max(largest, std::fabs(t));
  // The unit of the largest tick, unless the step is under a thousandth of it (2,500,000,200 ..
  // 2,500,001,200 in steps of 200 cannot be told apart in B).
  const Unit unit = unit_for(std::min(largest, 1000.0 * step));
  // The fewest decimals that write the step exactly (2.5M steps need one: "22.5M").
  int decimals = 0;
  for (double scaled_step = step / unit.scale; decimals < 6; ++decimals, scaled_step *= 10.0)
    if (std::fabs(scaled_step - std::round(scaled_step)) < 1e-6 * std::max(1.0, scaled_step)) break;
  std::vector<std::string> out;
  for (double t : ticks) out.push_back(scaled(t, unit, decimals));
  return out;
}

std::string short_number(double value) {
  const Unit unit = unit_for(std::fabs(value));
  const double x = value / unit.scale;
  // Three significant figures, as "{:.3g}" would, without its exponent form at 999.95k.
  const int decimals = std::fabs(x) >= 100 ? 0 : std::fabs(x) >= 10 ? 1 : 2;
  std::string s = scaled(value, unit, decimals);
  if (s.find('.') != std::string::npos) {  // "1.50M" -> "1.5M", "2.00" -> "2"
    const std::size_t end = s.find_first_not_of("0123456789.-");
    std::string number = s.substr(0, end), suffix = end == std::string::npos ? "" : s.substr(end);
    while (number.back() == '0') number.pop_back();
    if (number.back() == '.') number.pop_back();
    s = number + suffix;
  }
  return s;
}

namespace {

// One character's width in em, counted at its first byte (UTF-8 continuation bytes add nothing).
double em_of(unsigned char c) {
  if ((c & 0xC0) == 0x80) return 0.0;
  return (c >= '0' && c <= '9') ? 0.64 : (c >= 'A' && c <= 'Z') ? 0.72 : (c == ' ' || c == '.' || c == ',') ? 0.34 : 0.62;
}

}  // namespace

double text_width_px(const std::string& text, double font_px) {
  double em = 0.0;
  for (unsigned char c : text) em += em_of(c);
  return em * font_px;
}

// One pass over the prefix widths (a label of 200,000 characters once took 37 s here, when each
// character dropped from the end re-measured the whole rest): the longest prefix that ends before
// a whole character and fits with its ellipsis.
std::string fit_text(const std::string& text, double max_px, double font_px) {
  if (text_width_px(text, font_px) <= max_px) return text;
  const auto fits_with_ellipsis = [&](double prefix_em) {
    double em = prefix_em;
    for (int dot = 0; dot < 3; ++dot) em += em_of('.');
    return em * font_px <= max_px;
  };
  std::size_t cut = 0;  // the end of the longest prefix found to fit
  double prefix_em = 0.0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) != 0x80 && i > 0) {  // text[0, i) holds whole characters
      if (!fits_with_ellipsis(prefix_em)) break;
      cut = i;
    }
    prefix_em += em_of(c);
  }
  return text.substr(0, cut) + "...";
}

}  // namespace tco::svg
