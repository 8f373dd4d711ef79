#include "reports/svg/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "reports/html/html_escape.hpp"
#include "reports/svg/label_spread.hpp"
#include "reports/svg/svg_axis.hpp"
#include "reports/svg/svg_palette.hpp"

namespace tco::svg {

namespace {

constexpr double kFontPx = 11.0;
constexpr double kLineGapPx = 14.0;  // between the baselines of stacked labels
constexpr const char* kText = "#222";

std::string open_svg(int width, double height, const std::string& title) {
  const int h = static_cast<int>(std::ceil(height));
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" "
      "style=\"display:block;width:100%;height:auto\" font-family=\"sans-serif\" font-size=\"{2}\" fill=\"{3}\">"
      "<title>{4}</title>\n",
      width, h, kFontPx, kText, html_escape(title));
}

std::string text(double x, double y, const std::string& content, const char* anchor = "start") {
  return fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"{}\">{}</text>", x, y, anchor, html_escape(content));
}

std::string line(double x1, double y1, double x2, double y2, const char* stroke, double stroke_width = 1.0) {
  return fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"{}\"/>",
                     x1, y1, x2, y2, stroke, stroke_width);
}

double widest(const std::vector<std::string>& labels) {
  double w = 0.0;
  for (const auto& s : labels) w = std::max(w, text_width_px(s, kFontPx));
  return w;
}

// The y axis's ticks and labels for a plot from pixel y.pixel_hi (top) to y.pixel_lo (bottom).
struct YTicks {
  std::vector<double> values;
  std::vector<std::string> labels;
};
YTicks y_ticks(const Axis& y) {
  const int target = std::clamp(static_cast<int>((y.pixel_lo - y.pixel_hi) / 45.0), 2, 7);
  YTicks t{y.ticks(target), {}};
  t.labels = tick_labels(t.values, y.tick_step(target));
  return t;
}

std::string y_grid(const Axis& y, const YTicks& t, double x0, double x1) {
  std::string out;
  for (std::size_t i = 0; i < t.values.size(); ++i)
    out += line(x0, y.map(t.values[i]), x1, y.map(t.values[i]), "#ddd") +
           text(x0 - 5, y.map(t.values[i]) + 4, t.labels[i], "end") + "\n";
  return out;
}

// x ticks as dense as their labels allow (at least 24 px between labels); whole numbers only
// when `whole` (months, nodes).
std::string x_grid(const Axis& x, double top, double bottom, bool grid_lines, bool whole) {
  const double plot_px = std::fabs(x.pixel_hi - x.pixel_lo);
  std::vector<double> values;
  std::vector<std::string> labels;
  for (int target = 10; target >= 2; --target) {
    double step = x.tick_step(target);
    values = x.ticks(target);
    if (whole && step < 1.0) {
      step = 1.0;
      values.clear();
      for (double v = std::ceil(x.lo); v <= x.hi; v += 1.0) values.push_back(v);
    }
    labels = tick_labels(values, step);
    if (values.size() < 2 || (widest(labels) + 24.0) * static_cast<double>(values.size()) <= plot_px) break;
  }
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (grid_lines) out += line(x.map(values[i]), top, x.map(values[i]), bottom, "#eee");
    out += text(x.map(values[i]), bottom + 14, labels[i], "middle") + "\n";
  }
  return out;
}

std::string axis_titles(double left, double right, double top, double bottom, const std::string& x_title,
                        const std::string& y_title) {
  std::string out = text((left + right) / 2, bottom + 30, x_title, "middle");
  if (!y_title.empty())
    out += fmt::format("<text transform=\"translate(13,{:.1f}) rotate(-90)\" text-anchor=\"middle\">{}</text>\n",
                       (top + bottom) / 2, html_escape(y_title));
  return out;
}

// Left margin for a y axis: the rotated title, the widest tick label, a gap.
double y_axis_margin(const YTicks& t) { return 24.0 + widest(t.labels) + 8.0; }

// A series line on a thin grey outline, so that the pale colours stay visible on white.
std::string series_line(const std::string& points, std::size_t i) {
  return fmt::format(
      "<polyline fill=\"none\" stroke=\"#666\" stroke-opacity=\"0.45\" stroke-width=\"3.4\" points=\"{0}\"/>"
      "<polyline fill=\"none\" stroke=\"{1}\" stroke-width=\"2\" points=\"{0}\"/>\n",
      points, series_color(i));
}

// A row label column's width: the widest label, at most 35% of the chart.
double label_column_px(const std::vector<std::string>& labels, int width) {
  return std::min(0.35 * width, widest(labels) + 4.0);
}

}  // namespace

std::string line_chart(const std::vector<Series>& series, const std::vector<Marker>& markers,
                       const std::string& x_label, const std::string& y_label, int width, int plot_height,
                       const std::optional<XNote>& note) {
  double lo = 0.0, hi = -std::numeric_limits<double>::infinity();
  std::size_t n = 1;
  std::vector<std::string> names;
  for (const auto& s : series) {
    n = std::max(n, s.y.size());
    names.push_back(s.name);
    for (double v : s.y) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  if (!std::isfinite(hi)) hi = 0.0;
  const double name_px = label_column_px(names, width);
  for (auto& name : names) name = fit_text(name, name_px, kFontPx);
  // Room for every end label, kLineGapPx apart, even when all lines end at one value.
  const double top = 10.0;
  const double bottom = top + std::max(static_cast<double>(plot_height), kLineGapPx * (series.size() + 1));
  const Axis y = padded_axis(lo, hi, bottom, top);
  const YTicks yt = y_ticks(y);
  const double left = y_axis_margin(yt), right = width - name_px - 22.0;
  const Axis x = {0.0, std::max(1.0, static_cast<double>(n - 1)), left, right};

  std::vector<const Marker*> shown;
  for (const auto& m : markers)
    if (m.series >= 0 && m.series < static_cast<int>(series.size()) && m.x >= 0 &&
        m.x < static_cast<int>(series[m.series].y.size()))
      shown.push_back(&m);
  std::stable_sort(shown.begin(), shown.end(), [](const Marker* a, const Marker* b) { return a->x < b->x; });
  const double rows_top = bottom + 52.0;
  const double height = shown.empty() ? bottom + 38.0 : rows_top + kLineGapPx * static_cast<double>(shown.size());

  std::string out = open_svg(width, height, y_label + " by " + x_label);
  out += y_grid(y, yt, left, right) + x_grid(x, top, bottom, false, true);
  std::vector<double> end_y;
  for (std::size_t i = 0; i < series.size(); ++i) {
    std::string points;
    for (std::size_t k = 0; k < series[i].y.size(); ++k)
      points += fmt::format("{:.1f},{:.1f} ", x.map(static_cast<double>(k)), y.map(series[i].y[k]));
    out += series_line(points, i);
    if (series[i].y.size() == 1)  // a one-month horizon: a line of one point draws nothing
      out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" fill=\"{}\"/>", x.map(0.0),
                         y.map(series[i].y[0]), series_color(i));
    end_y.push_back(series[i].y.empty() ? bottom : y.map(series[i].y.back()));
  }
  // End labels: baselines 4 px under the line's end, moved apart where they collide.
  std::vector<double> wanted;
  for (double e : end_y) wanted.push_back(e + 4.0);
  const std::vector<double> placed = spread_labels(wanted, kLineGapPx, top + 9.0, bottom + 3.0);
  for (std::size_t i = 0; i < series.size(); ++i) {
    out += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}\"/>",
                       series_color(i), right + 1.0, end_y[i], right + 8.0, end_y[i], right + 16.0, placed[i] - 4.0);
    out += text(right + 19.0, placed[i], names[i]) + "\n";
  }
  for (std::size_t r = 0; r < shown.size(); ++r) {
    const Marker& m = *shown[r];
    const double px = x.map(m.x), py = y.map(series[m.series].y[m.x]);
    const char* c = series_color(static_cast<std::size_t>(m.series));
    const double row_y = rows_top + kLineGapPx * static_cast<double>(r);
    out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\" fill=\"white\" stroke=\"{}\" stroke-width=\"2.5\"/>", px,
                       py, c);
    out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" fill=\"white\" stroke=\"{}\" stroke-width=\"2.5\"/>",
                       left + 5.0, row_y - 4.0, c);
    // A long plan or baseline name is shortened to the canvas; the plans table names both in full.
    out += text(left + 15.0, row_y, fit_text(series[m.series].name + ": " + m.label, width - left - 19.0, kFontPx)) + "\n";
  }
  if (note && note->x >= 0 && static_cast<std::size_t>(note->x) < n) {
    // Under the axis title's baseline, right-aligned to the dashed line, clear of the centred title.
    const double nx = x.map(static_cast<double>(note->x));
    out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#888\" "
                       "stroke-dasharray=\"4 3\"/>",
                       nx, top, bottom + 20.0);
    out += text(nx, bottom + 30.0, note->label, "end") + "\n";
  }
  out += axis_titles(left, right, top, bottom, x_label, y_label);
  return out + "</svg>\n";
}

std::string curve_chart(const std::vector<CurvePoint>& points, double highlight_x, const std::string& x_label,
                        const std::string& y_label, int width, int height) {
  const double top = 12.0, bottom = height - 40.0, right = width - 20.0;
  double xlo = 0, xhi = 1, lo = 0, hi = 1;
  if (!points.empty()) {
    xlo = points.front().x;
    xhi = points.back().x;
    lo = hi = points.front().y;
    for (const auto& p : points) {
      lo = std::min({lo, p.low, p.y});
      hi = std::max({hi, p.high, p.y});
    }
  }
  const Axis y = padded_axis(lo, hi, bottom, top);
  const YTicks yt = y_ticks(y);
  const double left = y_axis_margin(yt);
  const Axis x = padded_axis(xlo, xhi, left, right);
  std::string out = open_svg(width, height, y_label + " by " + x_label);
  out += y_grid(y, yt, left, right) + x_grid(x, top, bottom, false, true);
  std::string polyline;
  for (const auto& p : points) {
    out += line(x.map(p.x), y.map(p.low), x.map(p.x), y.map(p.high), "#9bbbd4");
    polyline += fmt::format("{:.1f},{:.1f} ", x.map(p.x), y.map(p.y));
  }
  out += series_line(polyline, 0);
  // The highlighted point's label below it, every other labelled point's above it (below it too
  // when it must end left of the point, over the line that comes in), spread apart vertically so
  // that no two meet.
  auto label_of = [&](const CurvePoint& p) { return p.label.empty() ? "best: " + short_number(p.x) : p.label; };
  auto flipped = [&](const CurvePoint& p) { return x.map(p.x) + 8.0 + text_width_px(label_of(p), kFontPx) > right; };
  std::vector<const CurvePoint*> named;
  std::vector<double> wanted;
  for (const auto& p : points) {
    if (p.x != highlight_x && p.label.empty()) continue;
    named.push_back(&p);
    wanted.push_back(y.map(p.y) + (p.x == highlight_x || flipped(p) ? 16.0 : -8.0));
  }
  const std::vector<double> label_y = spread_labels(wanted, kLineGapPx, top + kFontPx, bottom - 4.0);
  for (std::size_t i = 0; i < named.size(); ++i) {
    const CurvePoint& p = *named[i];
    const bool highlighted = p.x == highlight_x;
    const std::string label = label_of(p);
    const bool flip = flipped(p);
    out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{}\" fill=\"{}\"/>", x.map(p.x), y.map(p.y),
                       highlighted ? 6 : 3.5, series_color(highlighted ? 1 : 0));
    out += text(x.map(p.x) + (flip ? -8.0 : 8.0), label_y[i], label, flip ? "end" : "start") + "\n";
  }
  out += axis_titles(left, right, top, bottom, x_label, y_label);
  return out + "</svg>\n";
}

std::string tornado_chart(const std::vector<Bar>& bars, double base, const std::string& x_label, int width) {
  const double row = 24.0, top = 10.0, right = width - 20.0;
  std::vector<std::string> labels;
  for (const auto& b : bars) labels.push_back(b.label);
  const double left = label_column_px(labels, width) + 12.0;
  const double bottom = top + row * static_cast<double>(bars.size());
  const double height = bottom + 40.0;
  double lo = base, hi = base;
  for (const auto& b : bars) {
    lo = std::min({lo, b.low, b.high});
    hi = std::max({hi, b.low, b.high});
  }
  const Axis x = padded_axis(lo, hi, left, right);
  std::string out = open_svg(width, height, "tornado: " + x_label);
  out += x_grid(x, top, bottom, true, false);
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const double yy = top + row * static_cast<double>(i);
    out += text(left - 6.0, yy + 16.0, fit_text(bars[i].label, left - 12.0, kFontPx), "end");
    // The low input's end in one colour, the high input's in another.
    for (const auto& [value, colour] : {std::pair{bars[i].low, series_color(0)}, std::pair{bars[i].high, series_color(1)}})
      out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"16\" fill=\"{}\"/>",
                         std::min(x.map(base), x.map(value)), yy + 4.0, std::fabs(x.map(value) - x.map(base)), colour);
    out += "\n";
  }
  out += line(x.map(base), top, x.map(base), bottom, "#333");
  out += text((left + right) / 2, height - 6.0, x_label + " (blue: input at its low value, red: at its high value)", "middle");
  return out + "</svg>\n";
}

std::string box_chart(const std::vector<Box>& boxes, const std::string& x_label, std::optional<double> reference,
                      int width) {
  const double row = 30.0, top = 10.0;
  std::vector<std::string> labels, notes;
  bool all_have_boxes = true;
  double lo = reference.value_or(std::numeric_limits<double>::infinity());
  double hi = reference.value_or(-std::numeric_limits<double>::infinity());
  for (const auto& b : boxes) {
    labels.push_back(b.label);
    if (!b.note.empty()) notes.push_back(b.note);
    all_have_boxes = all_have_boxes && b.p10 && b.p90;
    lo = std::min({lo, b.p5, b.p50, b.mean, b.p10.value_or(b.p5)});
    hi = std::max({hi, b.p95, b.p50, b.mean, b.p90.value_or(b.p95)});
  }
  if (!std::isfinite(lo)) lo = hi = 0.0;
  const double left = label_column_px(labels, width) + 12.0;
  const double right = width - 20.0 - (notes.empty() ? 0.0 : widest(notes) + 12.0);
  const double bottom = top + row * static_cast<double>(boxes.size());
  const double height = bottom + 40.0;
  const Axis x = padded_axis(lo, hi, left, right);
  std::string out = open_svg(width, height, "distribution: " + x_label);
  out += x_grid(x, top, bottom, true, false);
  if (reference) out += line(x.map(*reference), top, x.map(*reference), bottom, "#333", 1.5);
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const Box& b = boxes[i];
    const double mid = top + row * static_cast<double>(i) + row / 2;
    out += text(left - 6.0, mid + 4.0, fit_text(b.label, left - 12.0, kFontPx), "end");
    out += line(x.map(b.p5), mid, x.map(b.p95), mid, "#555");
    if (b.p10 && b.p90)
      out += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"16\" fill=\"{}\" fill-opacity=\"0.45\" stroke=\"#555\"/>",
          x.map(*b.p10), mid - 8.0, std::max(1.0, x.map(*b.p90) - x.map(*b.p10)),
          series_color(b.colour >= 0 ? static_cast<std::size_t>(b.colour) : i));
    out += line(x.map(b.p50), mid - 8.0, x.map(b.p50), mid + 8.0, "#000", 2.0);
    out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"#000\"/>", x.map(b.mean), mid);
    if (!b.note.empty()) out += text(right + 12.0, mid + 4.0, b.note);
    out += "\n";
  }
  const std::string legend = all_have_boxes ? "whiskers P5-P95, box P10-P90, line P50, dot mean"
                                            : "whiskers P5-P95, line P50, dot mean; no P10-P90 box: the report has none";
  out += text((left + right) / 2, height - 6.0, x_label + " (" + legend + ")", "middle");
  return out + "</svg>\n";
}

}  // namespace tco::svg
