// A chart axis: a linear map from data values to pixels, "nice" tick steps (1, 2, 2.5, 5 x 10^k)
// at integer multiples of the step, and tick labels that share one unit suffix and one number
// of decimals, so an axis never reads "-0", "1e+03k" or two equal labels.
// Example: values -2.1M .. 0.4M padded 5% (-2.225M .. 0.525M), about 7 ticks: step 500k, labels
// "-2.0M", "-1.5M", "-1.0M", "-0.5M", "0", "0.5M"; about 5 ticks: step 1M, "-2M", "-1M", "0".
#pragma once

#include <string>
#include <vector>

namespace tco::svg {

struct Axis {
  double lo = 0.0, hi = 1.0;
  double pixel_lo = 0.0, pixel_hi = 1.0;

  double map(double value) const { return pixel_lo + (value - lo) / (hi - lo) * (pixel_hi - pixel_lo); }
  // The step for about `target` ticks over [lo, hi], and the ticks themselves (i x step).
  double tick_step(int target) const;
  std::vector<double> ticks(int target) const;
};

// [lo, hi] widened by 5% on each side (or by max(1, 5% of |lo|) when lo == hi).
Axis padded_axis(double lo, double hi, double pixel_lo, double pixel_hi);

// Labels for ticks spaced `step` apart: one suffix (k, M, B) chosen from the largest tick (or
// from 1000 x step, when smaller), the fewest decimals that write the step exactly, and "0" (never "-0") for zero.
std::vector<std::string> tick_labels(const std::vector<double>& ticks, double step);

// "1.2M", "350k", "12" for single figures on a chart; never "-0".
std::string short_number(double value);

// A generous estimate of the width in pixels of `text` at `font_px` in the page's sans-serif
// font (DejaVu Sans is the widest common one: about 0.62 em per character on average, digits
// 0.64 em). Charts size their margins with it; the layout test measures the real boxes.
double text_width_px(const std::string& text, double font_px);

// `text` shortened with an ellipsis to fit about `max_px` at `font_px`.
std::string fit_text(const std::string& text, double max_px, double font_px);

}  // namespace tco::svg
