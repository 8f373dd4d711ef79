#include "models/workload/trace_clock.hpp"

#include <stdexcept>

#include "core/time/time_zone.hpp"

namespace tco {

double trace_clock_offset_h(const TraceStart& start, int scenario_start_weekday) {
  std::int64_t wall_s = 0;  // the trace start on its own wall clock, as civil seconds
  if (!parse_civil_time(std::string_view(start.local_time).substr(0, 19), wall_s))
    throw std::invalid_argument("trace start without a wall time: " + start.local_time);
  std::int64_t days = wall_s / 86400;
  std::int64_t second_of_day = wall_s % 86400;
  if (second_of_day < 0) second_of_day += 86400, --days;
  const int wall_weekday = static_cast<int>(((days + 3) % 7 + 7) % 7);  // 1970-01-01 was a Thursday (3)
  const int days_ahead = ((wall_weekday - scenario_start_weekday) % 7 + 7) % 7;
  return 24.0 * days_ahead + static_cast<double>(second_of_day) / 3600.0;
}

}  // namespace tco
