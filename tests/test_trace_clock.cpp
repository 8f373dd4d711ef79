// A trace's "# start:" on the scenario's calendar (models/workload/trace_clock.hpp) and in the
// replay's job stream.
#include <fstream>

#include <doctest/doctest.h>

#include "des_support.hpp"
#include "engine/des/job_stream.hpp"
#include "core/calendar.hpp"
#include "models/workload/trace_clock.hpp"

namespace tco {

TEST_CASE("trace clock: hour 0 moves to the same weekday and time of day of the scenario's calendar") {
  TraceStart start;
  start.local_time = "2024-03-09T22:00:00-05:00";  // a Saturday, 22:00 in New York
  start.time_zone = "America/New_York";
  // 2026-01-01 is a Thursday (weekday 3), Saturday is 5: 24 x 2 + 22 = 70 h.
  CHECK(trace_clock_offset_h(start, weekday(Date{2026, 1, 1})) == 70.0);
  // A scenario starting on a Sunday (2026-01-04, weekday 6): 24 x ((5 - 6) mod 7 = 6) + 22 = 166 h.
  CHECK(trace_clock_offset_h(start, weekday(Date{2026, 1, 4})) == 166.0);
  // The same weekday: the time of day alone, with its minutes (09:30 = 9.5 h).
  start.local_time = "2024-03-07T09:30:00+00:00";  // a Thursday
  CHECK(trace_clock_offset_h(start, weekday(Date{2026, 1, 1})) == 9.5);
}

TEST_CASE("trace clock: the replay shifts a trace with a # start: line, tiles by whole weeks after it") {
  const auto dir = test::scratch_dir("trace-clock-stream");
  std::ofstream(dir / "t.csv") << "# start: 2024-03-09T22:00:00-05:00 America/New_York\n"
                                  "submit_h,gpus,duration_h\n0,8,2\n100,1,1\n";
  Json doc = test::des_scenario_json({{"trace", (dir / "t.csv").string()}, {"tile", true}});
  doc["start"] = "2026-01-01";
  const Scenario s = test::load_des_scenario(doc);
  const des::JobCatalog catalog = des::build_job_catalog(*s.jobs);
  REQUIRE(catalog.trace_start.has_value());
  CHECK(catalog.trace_start->local_time == "2024-03-09T22:00:00-05:00");
  des::JobStream stream(*s.jobs, catalog, s.calendar, 1, 0, 400.0, 0.0);
  std::vector<double> submits;
  des::SimJob j;
  while (stream.next(j)) submits.push_back(j.submit_h);
  // 70 + {0, 100}, then the next week's tile 70 + 168 + {0, 100}; 408 + 70 is past 400 h.
  CHECK(submits == std::vector<double>{70, 170, 238, 338});
}

}  // namespace tco
