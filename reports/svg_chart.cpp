#include "reports/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "reports/html_escape.hpp"

namespace tco::svg {

namespace {

constexpr const char* kPalette[] = {"#1b6ca8", "#d1495b", "#2e933c", "#edae49", "#6a4c93", "#00798c", "#8d6a9f",
                                    "#c44536"};
const char* color(std::size_t i) { return kPalette[i % (sizeof(kPalette) / sizeof(kPalette[0]))]; }


// A linear map from data to pixels with "nice" tick values.
struct Axis {
  double lo = 0.0, hi = 1.0;
  double pixel_lo = 0.0, pixel_hi = 1.0;

  double map(double v) const { return pixel_lo + (v - lo) / (hi - lo) * (pixel_hi - pixel_lo); }

  std::vector<double> ticks(int target = 5) const {
    const double span = hi - lo;
    const double raw = span / target;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude;
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
      step = m * magnitude;
      if (span / step <= target) break;
    }
    std::vector<double> out;
    for (double t = std::ceil(lo / step) * step; t <= hi + 1e-9 * span; t += step) out.push_back(t);
    return out;
  }
};

Axis axis_for(double lo, double hi, double pixel_lo, double pixel_hi) {
  if (!(hi > lo)) {
    const double pad = std::max(1.0, std::fabs(lo) * 0.05);
    lo -= pad;
    hi += pad;
  } else {
    const double pad = (hi - lo) * 0.05;
    lo -= pad;
    hi += pad;
  }
  return {lo, hi, pixel_lo, pixel_hi};
}

std::string open_svg(int width, int height, const std::string& title) {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" "
      "font-family=\"sans-serif\" font-size=\"11\"><title>{}</title>\n",
      width, height, width, height, html_escape(title));
}

std::string y_grid(const Axis& y, double x0, double x1) {
  std::string out;
  for (double t : y.ticks()) {
    out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#ddd\"/>", x0, y.map(t), x1,
                       y.map(t));
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", x0 - 4, y.map(t) + 4,
                       short_number(t));
  }
  return out;
}

std::string x_grid(const Axis& x, double y0, double y1, bool lines) {
  std::string out;
  for (double t : x.ticks(8)) {
    if (lines)
      out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#eee\"/>", x.map(t), y0,
                         x.map(t), y1);
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", x.map(t), y1 + 14,
                       short_number(t));
  }
  return out;
}

}  // namespace

std::string short_number(double v) {
  const double a = std::fabs(v);
  if (a >= 1e9) return fmt::format("{:.3g}B", v / 1e9);
  if (a >= 1e6) return fmt::format("{:.3g}M", v / 1e6);
  if (a >= 1e3) return fmt::format("{:.3g}k", v / 1e3);
  return fmt::format("{:.3g}", v);
}

std::string line_chart(const std::vector<Series>& series, const std::vector<Marker>& markers,
                       const std::string& x_label, const std::string& y_label, int width, int height) {
  const double left = 70, right = width - 160.0, top = 12, bottom = height - 36.0;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  std::size_t n = 1;
  for (const auto& s : series) {
    n = std::max(n, s.y.size());
    for (double v : s.y) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  if (!std::isfinite(lo)) lo = hi = 0.0;
  const Axis x = {0.0, std::max(1.0, static_cast<double>(n - 1)), left, right};
  const Axis y = axis_for(std::min(lo, 0.0), hi, bottom, top);
  std::string out = open_svg(width, height, y_label + " by " + x_label);
  out += y_grid(y, left, right) + x_grid(x, top, bottom, false);
  for (std::size_t i = 0; i < series.size(); ++i) {
    std::string points;
    for (std::size_t k = 0; k < series[i].y.size(); ++k)
      points += fmt::format("{:.1f},{:.1f} ", x.map(static_cast<double>(k)), y.map(series[i].y[k]));
    out += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n", color(i), points);
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\">{}</text>\n", right + 8, top + 14 + 14.0 * i,
                       color(i), html_escape(series[i].name));
  }
  for (const auto& m : markers) {
    if (m.series < 0 || m.series >= static_cast<int>(series.size()) || m.x < 0 ||
        m.x >= static_cast<int>(series[m.series].y.size()))
      continue;
    const double px = x.map(m.x), py = y.map(series[m.series].y[m.x]);
    out += fmt::format(
        "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\" fill=\"white\" stroke=\"{}\" stroke-width=\"2\"/>"
        "<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\">{}</text>\n",
        px, py, color(m.series), px + 7, py - 7, color(m.series), html_escape(m.label));
  }
  out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>", (left + right) / 2, height - 4,
                     html_escape(x_label));
  out += fmt::format("<text transform=\"translate(12,{:.1f}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
                     (top + bottom) / 2, html_escape(y_label));
  return out + "</svg>\n";
}

std::string curve_chart(const std::vector<CurvePoint>& points, double highlight_x, const std::string& x_label,
                        const std::string& y_label, int width, int height) {
  const double left = 70, right = width - 20.0, top = 12, bottom = height - 36.0;
  double xlo = 0, xhi = 1, lo = 0, hi = 1;
  if (!points.empty()) {
    xlo = points.front().x;
    xhi = points.back().x;
    lo = points.front().low;
    hi = points.front().high;
    for (const auto& p : points) {
      lo = std::min({lo, p.low, p.y});
      hi = std::max({hi, p.high, p.y});
    }
  }
  const Axis x = axis_for(xlo, xhi, left, right);
  const Axis y = axis_for(lo, hi, bottom, top);
  std::string out = open_svg(width, height, y_label + " by " + x_label);
  out += y_grid(y, left, right) + x_grid(x, top, bottom, false);
  std::string line;
  for (const auto& p : points) {
    out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#9bbbd4\"/>", x.map(p.x),
                       y.map(p.low), y.map(p.high));
    line += fmt::format("{:.1f},{:.1f} ", x.map(p.x), y.map(p.y));
  }
  out += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n", color(0), line);
  for (const auto& p : points) {
    if (p.x != highlight_x) continue;
    out += fmt::format(
        "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"6\" fill=\"{}\"/><text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\">best: "
        "{}</text>\n",
        x.map(p.x), y.map(p.y), color(1), x.map(p.x) + 8, y.map(p.y) + 16, color(1), short_number(p.x));
  }
  out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>", (left + right) / 2, height - 4,
                     html_escape(x_label));
  out += fmt::format("<text transform=\"translate(12,{:.1f}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
                     (top + bottom) / 2, html_escape(y_label));
  return out + "</svg>\n";
}

std::string tornado_chart(const std::vector<Bar>& bars, double base, const std::string& x_label, int width) {
  const double row = 24, left = 220, right = width - 20.0, top = 10;
  const double height = top + row * bars.size() + 40;
  double lo = base, hi = base;
  for (const auto& b : bars) {
    lo = std::min({lo, b.low, b.high});
    hi = std::max({hi, b.low, b.high});
  }
  const Axis x = axis_for(lo, hi, left, right);
  std::string out = open_svg(width, static_cast<int>(height), "tornado: " + x_label);
  out += x_grid(x, top, top + row * bars.size(), true);
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const double yy = top + row * i;
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>", left - 6, yy + 15,
                       html_escape(bars[i].label));
    // The low input's end in one colour, the high input's in another.
    out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"16\" fill=\"{}\"/>",
                       std::min(x.map(base), x.map(bars[i].low)), yy + 4, std::fabs(x.map(bars[i].low) - x.map(base)),
                       color(0));
    out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"16\" fill=\"{}\"/>\n",
                       std::min(x.map(base), x.map(bars[i].high)), yy + 4,
                       std::fabs(x.map(bars[i].high) - x.map(base)), color(1));
  }
  out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#333\"/>", x.map(base),
                     top, top + row * bars.size());
  out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{} (blue: input at its low value, red: at its high value)</text>",
                     (left + right) / 2, height - 6, html_escape(x_label));
  return out + "</svg>\n";
}

std::string box_chart(const std::vector<Box>& boxes, const std::string& x_label, int width) {
  const double row = 30, left = 220, right = width - 20.0, top = 10;
  const double height = top + row * boxes.size() + 40;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& b : boxes) {
    lo = std::min(lo, b.p5);
    hi = std::max(hi, b.p95);
  }
  if (!std::isfinite(lo)) lo = hi = 0.0;
  const Axis x = axis_for(lo, hi, left, right);
  std::string out = open_svg(width, static_cast<int>(height), "distribution: " + x_label);
  out += x_grid(x, top, top + row * boxes.size(), true);
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const auto& b = boxes[i];
    const double mid = top + row * i + row / 2;
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>", left - 6, mid + 4,
                       html_escape(b.label));
    out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#555\"/>", x.map(b.p5), mid,
                       x.map(b.p95), mid);
    out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"16\" fill=\"{}\" fill-opacity=\"0.5\" stroke=\"{}\"/>",
                       x.map(b.p_low), mid - 8, std::max(1.0, x.map(b.p_high) - x.map(b.p_low)), color(i), color(i));
    out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#000\" stroke-width=\"2\"/>",
                       x.map(b.p50), mid - 8, mid + 8);
    out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"#000\"/>\n", x.map(b.mean), mid);
  }
  out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{} (whiskers P5-P95, box P10-P90, line P50, dot mean)</text>",
                     (left + right) / 2, height - 6, html_escape(x_label));
  return out + "</svg>\n";
}

}  // namespace tco::svg
