// A trace's hour 0 on the scenario's calendar. An imported trace knows the absolute time of its
// hour 0 ("# start:", models/workload/trace_csv.hpp); the scenario counts hours from 00:00 of its
// `start`. The replay shifts the trace to the first hour, from the scenario's start on, with the
// same day of the week and time of day as the trace's start on its own wall clock, so that a
// time-of-use tariff, the diurnal profile and weekends meet the jobs at the hours they really ran:
//   offset_h = 24 x ((weekday(trace start) - weekday(scenario start)) mod 7) + hours into its day
// Example: a trace starting Saturday 2024-03-09 22:00 (-05:00) in a scenario starting Thursday
// 2026-01-01: 24 x ((5 - 3) mod 7) + 22 = 70 h, Saturday 22:00 of the scenario's first week.
#pragma once

#include "models/workload/trace_start.hpp"

namespace tco {

// scenario_start_weekday: Monday = 0 (core/calendar.hpp's Calendar::start_weekday).
double trace_clock_offset_h(const TraceStart& start, int scenario_start_weekday);

}  // namespace tco
