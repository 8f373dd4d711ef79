// An hourly grid intensity (`onprem.power.g_co2_per_kwh_series`, issue #25, docs/model.md
// "Carbon"): a flat series gives today's CO2 and carbon price in the hourly model, the replay
// and the sweep kernel; a day/night series by hand; bad input names the file and the line.
// The fixture catalog (tests/scenario_builder.hpp): test-node-8 idle 2 kW, peak 10 kW; test-air
// PUE 1.5; test-region 400 g CO2/kWh.
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include <doctest/doctest.h>

#include "core/error.hpp"
#include "des_support.hpp"
#include "engine/montecarlo/fluid_monte_carlo.hpp"
#include "load_error.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace tco::test {

namespace {

constexpr double kHourlySumEps = 1e-9;  // 8,760 hourly additions in another order

// "hour,g_co2_per_kwh" with `rows` rows of g(h).
std::string intensity_file(const std::string& name, long rows, const std::function<double(long)>& g) {
  const fs::path path = scratch_dir("grid-intensity-" + fs::path(name).stem().string()) / name;
  std::ofstream out(path);
  out << "hour,g_co2_per_kwh\n";
  for (long h = 0; h < rows; ++h) out << h << ',' << g(h) << '\n';
  return path.string();
}

// The base scenario (12 months, 16 GPUs steady; buy-2 owns 2 test-node-8, all busy) with 2,500 kg
// of embodied CO2 per server and a carbon price of $80 a tonne.
Json priced(Json doc = base_scenario_json()) {
  doc["onprem"]["carbon"] = {{"embodied_kg_co2_per_server", 2500}, {"usd_per_tonne", 80}};
  return doc;
}

Json with_series(Json doc, const std::string& file, const std::string& repeat) {
  doc["onprem"]["power"]["g_co2_per_kwh_series"] = {{"file", file}, {"repeat", repeat}};
  return doc;
}

// "FILE: WHERE: MESSAGE" of the error loading `doc`, FILE the file's name (an hourly series
// error names the CSV, not the scenario).
std::string file_error(const Json& doc) {
  try {
    load_scenario_json(doc, "t.json", source_path("tests"));
  } catch (const InputError& e) {
    return fs::path(e.file()).filename().string() + ": " + e.where() + ": " + e.message();
  }
  return "(accepted)";
}

const std::string& flat_400() {
  static const std::string file = intensity_file("flat-400.csv", 8760, [](long) { return 400.0; });
  return file;
}

}  // namespace

TEST_CASE("grid intensity: a flat series equals the flat figure in the hourly model and the sweep kernel") {
  const ScenarioOutcome flat = run_scenario_json(priced());
  const ScenarioOutcome series = run_scenario_json(with_series(priced(), flat_400(), "year"));
  const PlanResult &a = flat.plan("buy-2"), &b = series.plan("buy-2");
  CHECK(a.co2_onprem_kg == doctest::Approx(105120.0).epsilon(kHourlySumEps));  // 30 kW x 8,760 h x 0.4 kg
  CHECK(b.co2_onprem_kg == doctest::Approx(a.co2_onprem_kg).epsilon(1e-12));
  CHECK(b.ledger.category_total_usd(Category::carbon) ==
        doctest::Approx(a.ledger.category_total_usd(Category::carbon)).epsilon(1e-12));
  CHECK(b.npv_usd == doctest::Approx(a.npv_usd).epsilon(1e-12));
  CHECK(b.ledger.category_total_usd(Category::energy) == a.ledger.category_total_usd(Category::energy));

  // The sweep kernel: the carbon price per facility kWh is g(h) x price / 10^6, hour by hour.
  const Scenario s = load_scenario_json(with_series(priced(), flat_400(), "year"), "t.json", source_path("tests"));
  const FluidMonteCarloRun fluid = run_fluid_monte_carlo(s, 2, 1, 1, nullptr);
  for (int k = 0; k < 2; ++k) CHECK(fluid.npv_by_path[1][k] == doctest::Approx(a.npv_usd).epsilon(1e-9));
}

TEST_CASE("grid intensity: a flat series equals the flat figure in the discrete-event replay") {
  const Json jobs = {{"steady", {{"gpus", 16}, {"gpus_per_job", 8}, {"job_duration_h", 24}}}};
  MonteCarloOptions opt;
  opt.paths = 2;
  opt.threads = 1;
  const MonteCarloRun flat = run_monte_carlo(load_des_scenario(priced(des_scenario_json(jobs))), opt);
  const MonteCarloRun series =
      run_monte_carlo(load_des_scenario(with_series(priced(des_scenario_json(jobs)), flat_400(), "year")), opt);
  const PlanResult &a = flat.run.plans[1], &b = series.run.plans[1];
  REQUIRE(a.co2_onprem_kg > 0.0);
  // The replay integrates PUE x g between events instead of multiplying the facility kWh by g.
  CHECK(b.co2_onprem_kg == doctest::Approx(a.co2_onprem_kg).epsilon(1e-12));
  CHECK(b.ledger.category_total_usd(Category::carbon) ==
        doctest::Approx(a.ledger.category_total_usd(Category::carbon)).epsilon(1e-12));
  CHECK(b.facility_energy_kwh == a.facility_energy_kwh);  // the replay itself is the same
  CHECK(b.npv_usd == doctest::Approx(a.npv_usd).epsilon(1e-12));
}

TEST_CASE("grid intensity: a day-night series by hand, and the replay between its bounds") {
  // 100 g/kWh in hours 0-11 of each day, 500 g/kWh in hours 12-23, a week of rows repeated.
  const std::string file = intensity_file("day-night.csv", 168, [](long h) { return h % 24 < 12 ? 100.0 : 500.0; });
  const PlanResult buy = run_scenario_json(with_series(priced(), file, "week")).plan("buy-2");
  // 30 kW every hour; 8,760 h = 365 days of 12 h at 100 g and 12 h at 500 g:
  // 30 x 4,380 x (100 + 500) g = 78,840,000 g = 78,840 kg.
  CHECK(buy.co2_onprem_kg == doctest::Approx(78840.0).epsilon(kHourlySumEps));
  // Month 0 is hours 0-729: 30 whole days (30 x 7,200 g per kW) and hours 0-9 of day 31 (10 x 100):
  // 217,000 g per kW x 30 kW = 6,510 kg, + 83.33 kg embodied, x $80 / 1,000 = $527.47.
  CHECK(buy.ledger.month_category_usd(0, Category::carbon) ==
        doctest::Approx((6510.0 + 5000.0 / 60.0) * 80.0 / 1000.0).epsilon(kHourlySumEps));
  // The year: (78,840 + 1,000) kg x $80 / 1,000 = $6,387.20.
  CHECK(buy.ledger.category_total_usd(Category::carbon) == doctest::Approx(6387.2).epsilon(kHourlySumEps));

  // The replay: its grid CO2 lies between 100 and 500 g for every facility kWh it drew.
  const Json jobs = {{"steady", {{"gpus", 12}, {"gpus_per_job", 4}, {"job_duration_h", 5}}}};
  MonteCarloOptions opt;
  opt.paths = 2;
  opt.threads = 1;
  const MonteCarloRun mc = run_monte_carlo(load_des_scenario(with_series(priced(des_scenario_json(jobs)), file, "week")), opt);
  const PlanResult& replay = mc.run.plans[1];
  CHECK(replay.co2_onprem_kg > replay.facility_energy_kwh * 0.1);
  CHECK(replay.co2_onprem_kg < replay.facility_energy_kwh * 0.5);
  CHECK(replay.ledger.category_total_usd(Category::carbon) ==
        doctest::Approx((replay.co2_onprem_kg + 1000.0) * 80.0 / 1000.0).epsilon(kHourlySumEps));
}

TEST_CASE("grid intensity: the report echoes the series, bad input names the pointer or the file's line") {
  const Json report = run_scenario_json(with_series(priced(), flat_400(), "year")).report();
  const Json& power = report.at("inputs").at("plans").at(1).at("onprem").at("power");  // buy-2
  CHECK_FALSE(power.contains("g_co2_per_kwh"));
  CHECK(power.at("g_co2_per_kwh_series").at("rows") == 8760);
  CHECK(power.at("g_co2_per_kwh_series").at("repeat") == "year");

  Json both = with_series(priced(), flat_400(), "year");
  both["onprem"]["power"]["g_co2_per_kwh"] = 400;
  CHECK(load_error(both).find("/onprem/power/g_co2_per_kwh: expected no flat intensity beside") == 0);
  // A year of rows that does not repeat is shorter than the 5-year server life the breakeven reads.
  CHECK(file_error(with_series(priced(), flat_400(), "none")).find("flat-400.csv: line 8761: ") == 0);
  const std::string dear = intensity_file("dear.csv", 168, [](long h) { return h == 7 ? 2e4 : 300.0; });
  CHECK(file_error(with_series(priced(), dear, "week")).find("dear.csv: line 9, column 2: g_co2_per_kwh: expected") == 0);
  CHECK(load_error(with_series(priced(), "no-such.csv", "week")).find("/onprem/power/g_co2_per_kwh_series/file") == 0);
}

}  // namespace tco::test
