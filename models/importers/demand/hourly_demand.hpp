// Demand samples (UTC seconds, GPUs) bucketed into clock hours for `tcosim demand import`
// (docs/own-history.md). Hour h is [h, h + 1) counted in whole UTC hours from the hour of the
// first sample; its demand is the mean of the samples inside it. An hour with no sample is never
// filled silently: GapFill::error throws naming the first such hour, zero writes 0, hold repeats
// the hour before. An hour of more than kMaxSeriesGpus is an error (a unit slip).
// Example: samples 2 at 03:00Z, 4 at 03:30Z, 6 at 05:10Z give hours [3, nothing, 6]: hour 1 is a
// gap (error, or 0, or 3 held).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tco {

// The most GPUs an hour may hold: what the hourly series reader accepts.
inline constexpr double kMaxSeriesGpus = 1e9;

enum class GapFill { error, zero, hold };
// "error" | "zero" | "hold"; throws InputError(where) otherwise.
GapFill parse_gap_fill(const std::string& text, const std::string& where);

struct HourlyDemand {
  std::vector<double> gpus_by_hour;
  std::int64_t start_utc_s = 0;  // hour 0
  long samples = 0;
  long filled_hours = 0;         // hours without a sample, filled by --fill zero|hold
};

class HourlyBins {
 public:
  void add(std::int64_t utc_s, double gpus);
  // `file` and `where` name the input in the error for an empty series or a gap.
  HourlyDemand finish(GapFill fill, const std::string& file, const std::string& where) const;

 private:
  struct Bin {
    double sum = 0.0;
    long count = 0;
  };
  std::map<std::int64_t, Bin> bins_;  // by UTC hour since 1970
  long samples_ = 0;
};

}  // namespace tco
