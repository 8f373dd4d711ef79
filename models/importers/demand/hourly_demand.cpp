#include "models/importers/demand/hourly_demand.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/time/time_zone.hpp"

namespace tco {

GapFill parse_gap_fill(const std::string& text, const std::string& where) {
  if (text == "error") return GapFill::error;
  if (text == "zero") return GapFill::zero;
  if (text == "hold") return GapFill::hold;
  throw InputError("", where, fmt::format("expected error, zero or hold, found \"{}\"", text));
}

void HourlyBins::add(std::int64_t utc_s, double gpus) {
  const std::int64_t hour = utc_s >= 0 ? utc_s / 3600 : (utc_s - 3599) / 3600;
  Bin& bin = bins_[hour];
  bin.sum += gpus;
  ++bin.count;
  ++samples_;
}

HourlyDemand HourlyBins::finish(GapFill fill, const std::string& file, const std::string& where) const {
  if (bins_.empty()) throw InputError(file, where, "expected at least one sample, found none");
  HourlyDemand out;
  const std::int64_t first = bins_.begin()->first;
  out.start_utc_s = first * 3600;
  out.samples = samples_;
  for (const auto& [hour, bin] : bins_) {
    while (first + static_cast<std::int64_t>(out.gpus_by_hour.size()) < hour) {
      const std::int64_t gap = first + static_cast<std::int64_t>(out.gpus_by_hour.size());
      if (fill == GapFill::error)
        throw InputError(file, where,
                         fmt::format("no sample in hour {} ({} to the next hour); an hour is never filled silently: "
                                     "choose --fill zero or --fill hold",
                                     gap - first, format_time_with_offset(gap * 3600, 0)));
      out.gpus_by_hour.push_back(fill == GapFill::zero ? 0.0 : out.gpus_by_hour.back());
      ++out.filled_hours;
    }
    const double gpus = bin.sum / static_cast<double>(bin.count);
    // The series reader's bound (models/workload/workload.cpp): beyond it a figure is a unit slip.
    if (!(gpus <= kMaxSeriesGpus))
      throw InputError(file, where,
                       fmt::format("expected at most {:.0e} GPUs in an hour, found {} in hour {} ({})", kMaxSeriesGpus,
                                   gpus, hour - first, format_time_with_offset(hour * 3600, 0)));
    out.gpus_by_hour.push_back(gpus);
  }
  return out;
}

}  // namespace tco
