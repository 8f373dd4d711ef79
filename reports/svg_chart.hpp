// Small inline-SVG charts for the HTML report: no JavaScript, no network, readable when
// printed. Each function returns one <svg> element sized width x height pixels.
#pragma once

#include <string>
#include <vector>

namespace tco::svg {

struct Series {
  std::string name;
  std::vector<double> y;  // one value per x index
};

struct Marker {
  int series = 0;
  int x = 0;  // index into the series
  std::string label;
};

// Lines over x = 0..n-1 (e.g. months), with labelled markers (e.g. payback points).
std::string line_chart(const std::vector<Series>& series, const std::vector<Marker>& markers,
                       const std::string& x_label, const std::string& y_label, int width = 760, int height = 320);

// Points (x, y) joined by a line, with low/high whiskers per point and one highlighted x.
struct CurvePoint {
  double x = 0.0;
  double y = 0.0;
  double low = 0.0;
  double high = 0.0;
};
std::string curve_chart(const std::vector<CurvePoint>& points, double highlight_x, const std::string& x_label,
                        const std::string& y_label, int width = 760, int height = 320);

// Horizontal ranges around a base value (a tornado): each bar spans [low, high].
struct Bar {
  std::string label;
  double low = 0.0;
  double high = 0.0;
};
std::string tornado_chart(const std::vector<Bar>& bars, double base, const std::string& x_label, int width = 760);

// Horizontal box-and-whisker rows: whiskers P5..P95, box P25..P75 (or P10..P90), median line, mean dot.
struct Box {
  std::string label;
  double p5 = 0.0, p_low = 0.0, p50 = 0.0, p_high = 0.0, p95 = 0.0, mean = 0.0;
};
std::string box_chart(const std::vector<Box>& boxes, const std::string& x_label, int width = 760);

// "1.2M", "350k", "12" for axis ticks.
std::string short_number(double value);

}  // namespace tco::svg
