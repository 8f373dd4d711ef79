// Small inline-SVG charts for the HTML report: no JavaScript, no network, readable when
// printed. Each function returns one <svg> element whose viewBox is `width` pixels wide (the
// page's content width by default) and which scales to the width of the page. Every text label
// has its own room: line-end labels are moved apart (reports/svg/label_spread.hpp), payback points
// are listed in rows under the plot, and margins are sized from the labels they hold;
// tests/check_html_layout.py measures the rendered boxes in Chromium.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tco::svg {

inline constexpr int kContentWidthPx = 1000;  // the HTML page's body max-width

struct Series {
  std::string name;
  std::vector<double> y;  // one value per x index
};

struct Marker {
  int series = 0;
  int x = 0;  // index into the series
  std::string label;
};

// A dashed vertical line at x with its label under the axis, ending at the line (e.g. the month
// a resale is booked, where the lines step down).
struct XNote {
  int x = 0;
  std::string label;
};

// Lines over x = 0..n-1 (e.g. months), each named at its end, and marked points (e.g. payback)
// drawn as rings and listed under the plot as "series: label", one row each.
std::string line_chart(const std::vector<Series>& series, const std::vector<Marker>& markers,
                       const std::string& x_label, const std::string& y_label, int width = kContentWidthPx,
                       int plot_height = 320, const std::optional<XNote>& note = std::nullopt);

// Points (x, y) joined by a line, with low/high whiskers per point and one highlighted x. A point
// with a label is named beside it (the highlighted one by its label instead of "best: x"): a
// frontier's points are node counts that its axes, two costs, do not show.
struct CurvePoint {
  double x = 0.0;
  double y = 0.0;
  double low = 0.0;
  double high = 0.0;
  std::string label;
};
std::string curve_chart(const std::vector<CurvePoint>& points, double highlight_x, const std::string& x_label,
                        const std::string& y_label, int width = kContentWidthPx, int height = 320);

// Horizontal ranges around a base value (a tornado): each bar spans [low, high].
struct Bar {
  std::string label;
  double low = 0.0;
  double high = 0.0;
};
std::string tornado_chart(const std::vector<Bar>& bars, double base, const std::string& x_label,
                          int width = kContentWidthPx);

// Horizontal box-and-whisker rows: whiskers P5..P95, box P10..P90 (left out when the report has
// no P10/P90), median line, mean dot; `note` is written at the row's right end (e.g.
// "P(cheaper) 73%"). With a reference value (e.g. 0 for differences) a vertical line marks it.
struct Box {
  std::string label;
  double p5 = 0.0, p50 = 0.0, p95 = 0.0, mean = 0.0;
  std::optional<double> p10, p90;
  std::string note;
  int colour = -1;  // index into the palette (e.g. the plan's, to match the other charts); -1: the row's
};
std::string box_chart(const std::vector<Box>& boxes, const std::string& x_label, std::optional<double> reference,
                      int width = kContentWidthPx);

}  // namespace tco::svg
