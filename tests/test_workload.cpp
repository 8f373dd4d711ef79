// Hourly demand profiles (models/workload/workload.hpp): hand-computed values with the arithmetic
// beside them, the series reader on small files written here, and every error class.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <variant>

#include <doctest/doctest.h>

#include "core/error.hpp"
#include "models/workload/workload.hpp"
#include "test_support.hpp"

using namespace tco;

namespace {

using tco::test::kEps;

// 2026-01-01 is a Thursday: hours 48..95 are Saturday and Sunday (days 2 and 3).
Calendar thursday_start() {
  Date start;
  REQUIRE(parse_date("2026-01-01", start));
  return Calendar::from_start(start);
}

WorkloadSpec parse(const std::string& json_text, const std::string& scenario_dir = "") {
  const Json json = Json::parse(json_text);
  JsonObjectReader r(json, "scenario.json", "/workload");
  return parse_workload(r, scenario_dir);
}

// Parses `json_text` expecting an InputError; returns it for the caller to inspect.
InputError parse_error(const std::string& json_text, const std::string& scenario_dir = "") {
  try {
    parse(json_text, scenario_dir);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError for " << json_text);
  return InputError("", "", "");
}

std::string write_file(const std::filesystem::path& dir, const std::string& name, const std::string& text) {
  const auto path = dir / name;
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

InputError series_error(const std::string& path, const std::string& format) {
  SeriesProfile s;
  s.file = path;
  s.format = format;
  try {
    read_hourly_series(s);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError reading " << path);
  return InputError("", "", "");
}

}  // namespace

TEST_CASE("workload: steady profile with diurnal shape and weekend factor") {
  const WorkloadSpec spec = parse(R"({"profiles": [{"type": "steady", "gpus": 48,
      "diurnal_amplitude": 0.25, "peak_hour": 14, "weekend_factor": 0.5}]})");
  const std::vector<double> d = demand_gpus_by_hour(spec, 24 * 7, thursday_start());
  REQUIRE(d.size() == 168);
  // Thursday 14:00: 48 x (1 + 0.25 cos 0) = 60.
  CHECK(d[14] == doctest::Approx(60.0).epsilon(kEps));
  // Thursday 02:00: 48 x (1 + 0.25 cos(2 pi (2 - 14) / 24)) = 48 x (1 - 0.25) = 36.
  CHECK(d[2] == doctest::Approx(36.0).epsilon(kEps));
  // Thursday 06:00: cos(2 pi (-8) / 24) = cos(-2 pi / 3) = -0.5: 48 x (1 - 0.125) = 42.
  CHECK(d[6] == doctest::Approx(42.0).epsilon(kEps));
  // Friday 23:00 (hour 47) is a weekday; Saturday 00:00 (hour 48) is the weekend.
  // 23:00: cos(2 pi 9 / 24) = cos(3 pi / 4) = -sqrt(2)/2: 48 x (1 - 0.25 x 0.70710678) = 39.5147186.
  CHECK(d[47] == doctest::Approx(48.0 * (1.0 - 0.25 * std::sqrt(0.5))).epsilon(kEps));
  // Saturday 14:00 = hour 62: 60 x 0.5 = 30; Sunday 02:00 = hour 74: 36 x 0.5 = 18.
  CHECK(d[62] == doctest::Approx(30.0).epsilon(kEps));
  CHECK(d[74] == doctest::Approx(18.0).epsilon(kEps));
  // Monday 14:00 = hour 4 x 24 + 14 = 110: back to 60.
  CHECK(d[110] == doctest::Approx(60.0).epsilon(kEps));
}

TEST_CASE("workload: defaults are recorded by to_json") {
  const WorkloadSpec spec = parse(R"({"profiles": [{"type": "steady", "gpus": 8},
                                                    {"type": "campaigns", "gpus": 64}]})");
  const Json j = to_json(spec);
  CHECK(j["growth_per_year"] == 0.0);
  CHECK(j["profiles"][0] == Json::parse(R"({"type": "steady", "gpus": 8.0, "diurnal_amplitude": 0.0,
                                            "peak_hour": 14, "weekend_factor": 1.0})"));
  CHECK(j["profiles"][1] == Json::parse(R"({"type": "campaigns", "gpus": 64.0, "every_days": 91.0,
                                            "duration_days": 14.0, "first_day": 0.0})"));
  // A flat steady profile: 8 GPUs every hour, weekends included.
  const std::vector<double> d = demand_gpus_by_hour(spec, 3, thursday_start());
  CHECK(d[0] == doctest::Approx(8.0 + 64.0).epsilon(kEps));
}

TEST_CASE("workload: campaigns switch on and off at hour starts") {
  // first_day 1.5 -> hour 36; duration 2 days -> 48 h, so hours 36..83; every 7 days -> +168 h.
  const WorkloadSpec spec = parse(R"({"profiles": [{"type": "campaigns", "gpus": 100,
      "every_days": 7, "duration_days": 2, "first_day": 1.5}]})");
  const std::vector<double> d = demand_gpus_by_hour(spec, 400, thursday_start());
  CHECK(d[35] == 0.0);
  CHECK(d[36] == 100.0);
  CHECK(d[83] == 100.0);
  CHECK(d[84] == 0.0);
  CHECK(d[203] == 0.0);  // 36 + 168 = 204 is the second start
  CHECK(d[204] == 100.0);
  CHECK(d[251] == 100.0);
  CHECK(d[252] == 0.0);

  // A start inside an hour: first_day 0.3 -> 7.2 h. Hour 7 starts before it (off), hour 8 is on;
  // the end 7.2 + 24 = 31.2 h: hour 31 starts inside (on), hour 32 off.
  const std::vector<double> e = demand_gpus_by_hour(
      parse(R"({"profiles": [{"type": "campaigns", "gpus": 5, "every_days": 10,
                               "duration_days": 1, "first_day": 0.3}]})"),
      40, thursday_start());
  CHECK(e[7] == 0.0);
  CHECK(e[8] == 5.0);
  CHECK(e[31] == 5.0);
  CHECK(e[32] == 0.0);

  // every_days 7.3 x 24 = 175.2 h; the 5th repeat starts at exactly 876 h despite rounding.
  const std::vector<double> f = demand_gpus_by_hour(
      parse(R"({"profiles": [{"type": "campaigns", "gpus": 1, "every_days": 7.3,
                               "duration_days": 0.5}]})"),
      900, thursday_start());
  CHECK(f[875] == 0.0);
  CHECK(f[876] == 1.0);
  CHECK(f[887] == 1.0);  // 876 + 12 = 888 is the end
  CHECK(f[888] == 0.0);

  // duration = every_days: always on.
  const std::vector<double> g = demand_gpus_by_hour(
      parse(R"({"profiles": [{"type": "campaigns", "gpus": 2, "every_days": 1, "duration_days": 1}]})"),
      100, thursday_start());
  for (double x : g) CHECK(x == 2.0);
}

TEST_CASE("workload: profiles add up and growth multiplies the sum") {
  const WorkloadSpec spec = parse(R"({"growth_per_year": 0.1, "profiles": [
      {"type": "steady", "gpus": 10},
      {"type": "campaigns", "gpus": 5, "every_days": 365, "duration_days": 1}]})");
  const std::vector<double> d = demand_gpus_by_hour(spec, 8761, thursday_start());
  // Hour 0: (10 + 5) x 1.1^0 = 15.
  CHECK(d[0] == doctest::Approx(15.0).epsilon(kEps));
  // Hour 24: the campaign is over: 10 x 1.1^(24/8760).
  CHECK(d[24] == doctest::Approx(10.0 * std::pow(1.1, 24.0 / 8760.0)).epsilon(kEps));
  // Hour 4380 (half a year): 10 x sqrt(1.1) = 10.48808848.
  CHECK(d[4380] == doctest::Approx(10.48808848170152).epsilon(kEps));
  // Hour 8760: a campaign starts again (365 days = 8760 h): (10 + 5) x 1.1 = 16.5 exactly.
  CHECK(d[8760] == doctest::Approx(16.5).epsilon(kEps));
}

TEST_CASE("workload: csv series are averaged into hours, gaps carry the last sample") {
  const auto dir = tco::test::scratch_dir("workload-series");
  // Hour 0: (10 + 20) / 2 = 15. Hour 1: (30 + 40) / 2 = 35. Hour 2: no samples: carries the
  // last sample, 40. Hour 3: (50 + 70) / 2 = 60.
  write_file(dir, "demand.csv", "time_h,gpus\n0,10\n0.5,20\n1.25,30\n1.75,40\n3,50\n3.5,70\n");

  const WorkloadSpec spec = parse(
      R"({"profiles": [{"type": "series", "file": "demand.csv"}]})", dir.string());
  const auto& series = std::get<SeriesProfile>(spec.profiles[0]);
  CHECK(series.resolved_path == (dir / "demand.csv").string());
  const std::vector<double> hourly = read_hourly_series(series);
  REQUIRE(hourly.size() == 4);
  CHECK(hourly[0] == doctest::Approx(15.0).epsilon(kEps));
  CHECK(hourly[1] == doctest::Approx(35.0).epsilon(kEps));
  CHECK(hourly[2] == doctest::Approx(40.0).epsilon(kEps));
  CHECK(hourly[3] == doctest::Approx(60.0).epsilon(kEps));

  // repeat (the default): hour 5 = hour 5 mod 4 = hour 1 = 35; hour 9 = hour 1 again.
  const std::vector<double> repeated = demand_gpus_by_hour(spec, 10, thursday_start());
  CHECK(repeated[4] == doctest::Approx(15.0).epsilon(kEps));
  CHECK(repeated[5] == doctest::Approx(35.0).epsilon(kEps));
  CHECK(repeated[9] == doctest::Approx(35.0).epsilon(kEps));

  // No repeat, scale 2: hours 0..3 doubled, 0 after the end.
  const std::vector<double> once = demand_gpus_by_hour(
      parse(R"({"profiles": [{"type": "series", "file": "demand.csv", "repeat": false, "scale": 2}]})",
            dir.string()),
      10, thursday_start());
  CHECK(once[3] == doctest::Approx(120.0).epsilon(kEps));
  CHECK(once[4] == 0.0);
  CHECK(once[9] == 0.0);

  // An absolute path is used as written, whatever the scenario folder.
  const std::string absolute = (dir / "demand.csv").string();
  const WorkloadSpec abs_spec =
      parse(R"({"profiles": [{"type": "series", "file": ")" + absolute + R"("}]})", "/nowhere");
  CHECK(std::get<SeriesProfile>(abs_spec.profiles[0]).resolved_path == absolute);
  CHECK(to_json(abs_spec)["profiles"][0] ==
        Json{{"type", "series"}, {"file", absolute}, {"resolved_path", absolute},
             {"format", "csv"},  {"scale", 1.0},     {"repeat", true}});
}

TEST_CASE("workload: a csv series with a # start: line meets the scenario's weekdays and clock") {
  const auto dir = tco::test::scratch_dir("workload-series-start");
  // Hour 0 of the series is Saturday 2024-03-09 22:00 UTC; the scenario starts Thursday
  // 2026-01-01 (weekday 3; Saturday is 5): offset = 24 x ((5 - 3) mod 7) + 22 = 70 h.
  write_file(dir, "demand.csv", "# start: 2024-03-09T22:00:00+00:00 UTC\ntime_h,gpus\n0,1\n1,2\n2,3\n");
  const WorkloadSpec once = parse(R"({"profiles": [{"type": "series", "file": "demand.csv", "repeat": false}]})",
                                  dir.string());
  REQUIRE(std::get<SeriesProfile>(once.profiles[0]).start);
  CHECK(to_json(once)["profiles"][0]["start"] == "2024-03-09T22:00:00+00:00 UTC");
  // No repeat: rows 0, 1, 2 at hours 70, 71, 72; every other hour 0 (the same 6 GPU-hours).
  const std::vector<double> d = demand_gpus_by_hour(once, 100, thursday_start());
  CHECK(d[69] == 0.0);
  CHECK(d[70] == 1.0);
  CHECK(d[71] == 2.0);
  CHECK(d[72] == 3.0);
  CHECK(d[73] == 0.0);
  double total = 0.0;
  for (double gpus : d) total += gpus;
  CHECK(total == 6.0);
  // Repeating: hour h takes row (h - 70) mod 3: hour 0 -> (-70 mod 3) = 2 -> 3 GPUs; hour 1 -> row 0.
  const std::vector<double> r = demand_gpus_by_hour(
      parse(R"({"profiles": [{"type": "series", "file": "demand.csv"}]})", dir.string()), 100, thursday_start());
  CHECK(r[0] == 3.0);
  CHECK(r[1] == 1.0);
  CHECK(r[70] == 1.0);
  CHECK(r[99] == 3.0);  // (99 - 70) mod 3 = 2

  // A malformed start line names the file and line 1, at load.
  write_file(dir, "bad.csv", "# start: yesterday\ntime_h,gpus\n0,1\n");
  const InputError e = parse_error(R"({"profiles": [{"type": "series", "file": "bad.csv"}]})", dir.string());
  CHECK(std::string(e.what()).find("bad.csv") != std::string::npos);
  CHECK(std::string(e.what()).find("line 1") != std::string::npos);
}

TEST_CASE("workload: clock series (helios_vc, philly_nodes) use clock hours from the first row") {
  const auto dir = tco::test::scratch_dir("workload-clock");
  SeriesProfile helios;
  // The first row is at 23:30, so hour 0 is 23:00-24:00 and hour 1 starts at midnight of the
  // next day: hour 0 = ((3 + 1) + (5 + 0)) / 2 = 4.5; hour 1 = 10 + 2 = 12; hour 2 is
  // empty (carries 12); hour 3 = 7.
  helios.file = write_file(dir, "vc.csv",
                           "time,total_gpu_num,running_gpu_num,pending_gpu_num\r\n"
                           "2020-05-31 23:30:00,64,3,1\r\n"
                           "2020-05-31 23:59:00,64,5,0\r\n"
                           "2020-06-01 00:00:00,64,10,2\r\n"
                           "2020-06-01 02:10:00,64,7,0\r\n\r\n");
  helios.format = "helios_vc";
  const std::vector<double> h = read_hourly_series(helios);
  REQUIRE(h.size() == 4);
  CHECK(h[0] == doctest::Approx(4.5).epsilon(kEps));
  CHECK(h[1] == doctest::Approx(12.0).epsilon(kEps));
  CHECK(h[2] == doctest::Approx(12.0).epsilon(kEps));
  CHECK(h[3] == doctest::Approx(7.0).epsilon(kEps));

  // philly_nodes: (300 + 310) / 2 = 305 nodes x 4 GPUs = 1220 GPUs in hour 0.
  SeriesProfile philly;
  philly.file = write_file(dir, "nodes.csv", "time,active,total\n2017-10-03 00:00:00,300,420\n"
                                             "2017-10-03 00:01:00,310,420\n");
  philly.format = "philly_nodes";
  philly.gpus_per_node = 4;
  const std::vector<double> p = read_hourly_series(philly);
  REQUIRE(p.size() == 1);
  CHECK(p[0] == doctest::Approx(1220.0).epsilon(kEps));
}

TEST_CASE("workload: scenario errors name the JSON pointer") {
  const auto check = [](const std::string& json, const std::string& pointer, const std::string& words) {
    const InputError e = parse_error(json);
    CHECK(e.file() == "scenario.json");
    CHECK(e.where() == pointer);
    CHECK(std::string(e.what()).find(words) != std::string::npos);
  };
  check(R"({"profiles": []})", "/workload/profiles", "non-empty array");
  check(R"({"profiles": {}})", "/workload/profiles", "non-empty array");
  check(R"({})", "/workload/profiles", "required");
  check(R"({"profiles": [{"type": "steady", "gpus": 1}], "growth": 0.1})", "/workload/growth", "unknown key");
  check(R"({"profiles": [{"type": "steady", "gpus": 1}], "growth_per_year": -1})",
        "/workload/growth_per_year", "(-1, 10]");
  check(R"({"profiles": [{"type": "steady", "gpus": 1}, {"type": "steady", "gpu": 1}]})",
        "/workload/profiles/1/gpus", "required");
  check(R"({"profiles": [{"type": "steady", "gpus": 1, "gpu": 1}]})", "/workload/profiles/0/gpu", "unknown key");
  check(R"({"profiles": [{"type": "poisson", "gpus": 1}]})", "/workload/profiles/0/type", "\"campaigns\"");
  check(R"({"profiles": [3]})", "/workload/profiles/0", "expected an object");
  check(R"({"profiles": [{"type": "steady", "gpus": -1}]})", "/workload/profiles/0/gpus", "[0, 10000000]");
  check(R"({"profiles": [{"type": "steady", "gpus": 1, "diurnal_amplitude": 1.5}]})",
        "/workload/profiles/0/diurnal_amplitude", "[0, 1]");
  check(R"({"profiles": [{"type": "steady", "gpus": 1, "peak_hour": 24}]})",
        "/workload/profiles/0/peak_hour", "[0, 23]");
  check(R"({"profiles": [{"type": "steady", "gpus": 1, "peak_hour": 2.5}]})",
        "/workload/profiles/0/peak_hour", "integer");
  check(R"({"profiles": [{"type": "steady", "gpus": 1, "weekend_factor": -0.1}]})",
        "/workload/profiles/0/weekend_factor", "[0, 100]");
  check(R"({"profiles": [{"type": "campaigns", "gpus": 1, "every_days": 0}]})",
        "/workload/profiles/0/every_days", "(0, 36500]");
  check(R"({"profiles": [{"type": "campaigns", "gpus": 1, "every_days": 7, "duration_days": 8}]})",
        "/workload/profiles/0/duration_days", "<= every_days (7)");
  check(R"({"profiles": [{"type": "campaigns", "gpus": 1, "first_day": -1}]})",
        "/workload/profiles/0/first_day", "[0, 36500]");
}

TEST_CASE("workload: series profile errors name the pointer and the path") {
  const auto dir = tco::test::scratch_dir("workload-series-errors");
  write_file(dir, "ok.csv", "time_h,gpus\n0,1\n");
  const auto check = [&](const std::string& profile, const std::string& pointer, const std::string& words) {
    const InputError e = parse_error(R"({"profiles": [{"type": "steady", "gpus": 1}, )" + profile + "]}",
                                     dir.string());
    CHECK(e.where() == pointer);
    CHECK(std::string(e.what()).find(words) != std::string::npos);
  };
  check(R"({"type": "series", "file": "missing.csv"})", "/workload/profiles/1/file",
        (dir / "missing.csv").string());
  check(R"({"type": "series", "file": ""})", "/workload/profiles/1/file", "a path");
  check(R"({"type": "series", "file": "ok.csv", "format": "tsv"})", "/workload/profiles/1/format",
        "\"helios_vc\"");
  check(R"({"type": "series", "file": "ok.csv", "gpus_per_node": 8})", "/workload/profiles/1/gpus_per_node",
        "only to format \"philly_nodes\"");
  check(R"({"type": "series", "file": "ok.csv", "format": "philly_nodes", "gpus_per_node": 0})",
        "/workload/profiles/1/gpus_per_node", "(0, 10000]");
  check(R"({"type": "series", "file": "ok.csv", "scale": -2})", "/workload/profiles/1/scale", "[0, 1000000]");
  check(R"({"type": "series", "file": "ok.csv", "repeat": "yes"})", "/workload/profiles/1/repeat",
        "true or false");
  // gpus_per_node is welcome where it means something, and recorded.
  const WorkloadSpec spec = parse(
      R"({"profiles": [{"type": "series", "file": "ok.csv", "format": "philly_nodes", "gpus_per_node": 4}]})",
      dir.string());
  CHECK(to_json(spec)["profiles"][0]["gpus_per_node"] == 4.0);
}

TEST_CASE("workload: malformed series files name the file, line and column") {
  const auto dir = tco::test::scratch_dir("workload-file-errors");
  const auto check = [&](const std::string& text, const std::string& format, const std::string& where,
                         const std::string& words) {
    const std::string path = write_file(dir, "series.csv", text);
    const InputError e = series_error(path, format);
    CHECK(e.file() == path);
    CHECK(e.where() == where);
    CHECK(std::string(e.what()).find(words) != std::string::npos);
  };
  check("time_h,gpus\n0,1\n0.5,abc\n", "csv", "line 3, column 2", "expected a number (gpus), found \"abc\"");
  check("time_h,gpus\n0,1\n0.5,\n", "csv", "line 3, column 2", "found \"\"");
  check("time_h,gpus\n0,1\n0.5,-4\n", "csv", "line 3, column 2", ">= 0");
  check("time_h,gpus\n0,1\n2,1\n1.5,1\n", "csv", "line 4, column 1", "time goes backwards: \"1.5\" comes after \"2\" (line 3)");
  check("time_h,gpus\n2,1\n", "csv", "line 2, column 1", "first sample in hour 0");
  check("time_h,gpus\n0,1\n1e9,1\n", "csv", "line 3, column 1", "within 1000000 hours");
  check("time_h,gpus\n0,1,3\n", "csv", "line 2", "expected 2 fields");
  check("time_h,gpus\n", "csv", "line 2", "no data rows");
  check("", "csv", "line 1", "empty");
  check("time_h,gpus\n0,1\n\n1,2\n", "csv", "line 3", "blank line");
  check("time,gpus\n0,1\n", "csv", "line 1", "missing column \"time_h\"");
  check("time,running_gpu_num\n2020-05-01 00:00:00,3\n", "helios_vc", "line 1",
        "missing column \"pending_gpu_num\"");
  check("time,running_gpu_num,pending_gpu_num\n2020-05-01 00:00:00,3,0\n2020-05-01 24:00:00,3,0\n",
        "helios_vc", "line 3, column 1", "expected a time YYYY-MM-DD HH:MM:SS");
  check("time,running_gpu_num,pending_gpu_num\n2020-05-01 00:05:00,3,0\n2020-05-01 00:04:00,3,0\n",
        "helios_vc", "line 3, column 1", "time goes backwards");
  check("time,active,total\n2017-10-03 00:00:00,3x,420\n", "philly_nodes", "line 2, column 2",
        "expected a number (active), found \"3x\"");

  // A file that vanished after the scenario was read.
  CHECK(std::string(series_error((dir / "absent.csv").string(), "csv").what()).find("cannot open") !=
        std::string::npos);
}

TEST_CASE("workload: a demand above 10 million GPUs in any hour is bad input at /workload") {
  // 6 million GPUs growing 100% a year: 6e6 x 2^(8,759 / 8,760) = 1.2e7 in the year's last hour.
  const Calendar calendar = thursday_start();
  const WorkloadSpec growing = parse(R"({"profiles": [{"type": "steady", "gpus": 6000000}], "growth_per_year": 1.0})");
  CHECK(demand_gpus_by_hour(growing, 4380, calendar).back() < kMaxDemandGpus);  // 8.5e6 at mid-year
  try {
    demand_gpus_by_hour(growing, 8760, calendar);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.file() == "scenario.json");
    CHECK(e.where() == "/workload");
    CHECK(std::string(e.what()).find("check the units") != std::string::npos);
  }
}
