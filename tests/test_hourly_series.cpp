// Hourly series inputs (SPEC §5): an hourly price series tariff and an hourly ambient
// temperature series, checked against hand-computed energy, PUE and throttling, against the
// tariff and formula they can stand in for (identical results), in the sweep and the
// discrete-event Monte Carlo, and for every kind of bad file.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "des_support.hpp"
#include "core/calendar.hpp"
#include "core/error.hpp"
#include "engine/ledger/plan_evaluator.hpp"
#include "core/io/sha256.hpp"
#include "models/site/ambient.hpp"
#include "models/site/hourly_series.hpp"
#include "test_sweep_support.hpp"
#include "test_support.hpp"

using namespace tco;
using namespace tco::test;

namespace {

namespace fs = std::filesystem;

using tco::test::kEps;

std::string series_fixture(const std::string& name) { return source_path("tests/fixtures/series/" + name); }

// prices_alternating_week.csv: 168 rows, $0.10 at even hours and $0.20 at odd hours.
const std::string kAlternating = "prices_alternating_week.csv";
// temps_hot_hour_week.csv: 168 rows, 20 °C every hour but hour 30 (Tuesday 06:00), 35 °C.
const std::string kHotHour = "temps_hot_hour_week.csv";

using tco::test::write_text;

// The time-of-use tariff with the alternating series' rates: $0.10 at even hours of the day,
// $0.20 at odd ones (24 is even, so hour-of-day parity is hour parity), weekends the same.
Json alternating_time_of_use() {
  Json rates = Json::array();
  for (int h = 0; h < 24; ++h) rates.push_back(h % 2 == 0 ? 0.10 : 0.20);
  return {{"type", "time_of_use"}, {"weekday_usd_per_kwh", rates}};
}

Json alternating_series_tariff(const std::string& file) {
  return {{"type", "hourly_series"}, {"file", file}, {"repeat", "week"}};
}

// An ambient formula that crosses 30 °C on summer afternoons, and the same temperatures as an
// hourly file of one model year (8760 h): the formula repeats every 365 days x 24 h exactly, so
// the file with "series_repeat": "year" gives the formula's value at every hour. Values are
// written shortest-round-trip, so they read back as the same doubles.
Json formula_ambient() {
  return {{"mean_c", 20},      {"seasonal_amp_c", 10},    {"hottest_day", 200},       {"diurnal_amp_c", 6},
          {"hottest_hour", 15}, {"throttle_above_c", 30}, {"throttle_fraction", 0.2}};
}

std::string write_formula_series(const fs::path& path, const Json& formula, const Calendar& calendar) {
  AmbientSpec a;
  a.mean_c = formula.at("mean_c").get<double>();
  a.seasonal_amp_c = formula.at("seasonal_amp_c").get<double>();
  a.hottest_day = formula.at("hottest_day").get<double>();
  a.diurnal_amp_c = formula.at("diurnal_amp_c").get<double>();
  a.hottest_hour = formula.at("hottest_hour").get<double>();
  std::string text = "hour,temperature_c\n";
  for (long h = 0; h < kHoursPerYear; ++h)
    text += fmt::format("{},{}\n", h, ambient_c(a, calendar.day_of_year_at(h), calendar.hour_of_day(h)));
  return write_text(path, text);
}

Json series_ambient(const std::string& file) {
  Json a = formula_ambient();
  for (const char* key : {"mean_c", "seasonal_amp_c", "hottest_day", "diurnal_amp_c", "hottest_hour"}) a.erase(key);
  a["series_file"] = file;
  a["series_repeat"] = "year";
  return a;
}

Json ambient_pue_cooling() {
  return {{"id", "test-air"}, {"pue_model", "ambient"}, {"pue", nullptr},
          {"pue_min", 1.1},   {"pue_slope_per_c", 0.02}, {"free_cooling_c", 18}};
}

// The report without what names the inputs (the resolved tariff and ambient differ by design).
std::string results_of(const Json& report) {
  Json r = report;
  r.erase("inputs");
  r.erase("scenario");
  r.erase("run");
  return r.dump(2);
}

// Loads a scenario whose hourly series file is bad; returns the InputError.
InputError series_load_error(const Json& doc) {
  try {
    load_scenario_json(doc, "bad-series.json", source_path("tests"));
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError");
  return InputError("", "", "");
}

Json scenario_with_price_file(const std::string& file) {
  Json doc = base_scenario_json();
  doc["onprem"]["power"] = {{"region", "test-region"}, {"tariff", {{"type", "hourly_series"}, {"file", file}}}};
  return doc;
}

}  // namespace

TEST_CASE("hourly series: an alternating 0.10/0.20 price series costs what the same time-of-use tariff costs") {
  // Loaded from its file: the series path "../series/..." is relative to the scenario's folder.
  const ScenarioOutcome o = run_fixture("hourly_series.json");
  const PlanResult& series = o.plan("series");
  const PlanResult& tou = o.plan("tou");
  // 1 node, 4 of 8 GPUs busy: IT 2 + (10 - 2) x 4 / 8 = 6 kW; x PUE 1.5 = 9 kW facility.
  // 3 months = 2,190 h: 1,095 even hours at $0.10 and 1,095 odd hours at $0.20:
  //   9 x (1,095 x 0.10 + 1,095 x 0.20) = 9 x 328.5 = $2,956.50
  CHECK(series.ledger.category_total_usd(Category::energy) == doctest::Approx(2956.5).epsilon(kEps));
  // The same rates hour by hour, summed in the same order: the same bits.
  CHECK(series.ledger.category_total_usd(Category::energy) == tou.ledger.category_total_usd(Category::energy));
  CHECK(series.total_usd == tou.total_usd);
  CHECK(series.facility_energy_kwh == doctest::Approx(9.0 * 2190.0).epsilon(kEps));

  // The resolved inputs name the file as given, its digest, its rows and the repeat rule.
  const Json report = o.report();
  const Json& tariff = report.at("inputs").at("plans").at(0).at("onprem").at("power").at("tariff");
  CHECK(tariff.at("type") == "hourly_series");
  CHECK(tariff.at("file") == "../series/prices_alternating_week.csv");
  CHECK(tariff.at("rows") == 168);
  CHECK(tariff.at("repeat") == "week");
  CHECK(tariff.at("sha256") == sha256_hex(read_text_file(series_fixture(kAlternating))));
}

TEST_CASE("hourly series: escalation compounds on top of the series' prices") {
  Json doc = base_scenario_json();
  doc["horizon_months"] = 1;
  doc["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", 4}}}}};
  doc["onprem"]["power"]["tariff"] = alternating_series_tariff(series_fixture(kAlternating));
  doc["onprem"]["power"]["escalation_per_year"] = 0.10;
  doc["plans"] = {{{"name", "own-1"}, {"kind", "onprem"}, {"onprem_nodes", 1}}};
  doc.erase("baseline");
  const ScenarioOutcome o = run_scenario_json(doc);
  const OnPremSpec& onprem = *o.scenario.plans[0].onprem;
  const std::vector<SiteHour> site = site_hours(onprem, o.scenario.calendar, 8762);
  // Hour 0: $0.10 x 1.1^0 = $0.10. Hour 1: $0.20 x 1.1^(1/8760).
  CHECK(site[0].usd_per_kwh == doctest::Approx(0.10).epsilon(kEps));
  CHECK(site[1].usd_per_kwh == doctest::Approx(0.20 * std::pow(1.1, 1.0 / 8760.0)).epsilon(kEps));
  // Hour 8,760 is row 8,760 mod 168 = 24 of the repeated week (even: $0.10), a year on: x 1.1.
  CHECK(site[8760].usd_per_kwh == doctest::Approx(0.11).epsilon(kEps));
  CHECK(site[8761].usd_per_kwh == doctest::Approx(0.22 * std::pow(1.1, 1.0 / 8760.0)).epsilon(kEps));
  // The month's energy: 9 kW facility x sum over its 730 hours of price(h) x 1.1^(h / 8760).
  double usd = 0.0;
  for (int h = 0; h < 730; ++h) usd += 9.0 * (h % 2 == 0 ? 0.10 : 0.20) * std::pow(1.1, h / 8760.0);
  CHECK(o.plan("own-1").ledger.category_total_usd(Category::energy) == doctest::Approx(usd).epsilon(1e-12));
  // Without escalation it would be 9 x 365 x (0.10 + 0.20) = $985.50: escalation adds a little.
  CHECK(usd > 985.5);
  CHECK(usd < 985.5 * std::pow(1.1, 730.0 / 8760.0));
}

TEST_CASE("hourly series: one hot hour a week throttles that hour and raises its PUE") {
  Json doc = base_scenario_json();
  doc["horizon_months"] = 1;
  doc["workload"] = {{"profiles", {{{"type", "steady"}, {"gpus", 4}}}}};
  doc["onprem"]["cooling"] = ambient_pue_cooling();
  doc["onprem"]["ambient"] = {{"series_file", series_fixture(kHotHour)}, {"series_repeat", "week"},
                              {"throttle_above_c", 30}, {"throttle_fraction", 0.2}};
  doc["plans"] = {{{"name", "own-1"}, {"kind", "onprem"}, {"onprem_nodes", 1}}};
  doc.erase("baseline");
  const ScenarioOutcome o = run_scenario_json(doc);
  const std::vector<SiteHour> site = site_hours(*o.scenario.plans[0].onprem, o.scenario.calendar, 730);
  // Hour 30: 35 °C > 30: PUE 1.1 + 0.02 x (35 - 18) = 1.44, work rate 1 - 0.2 = 0.8.
  CHECK(site[30].pue == doctest::Approx(1.44).epsilon(kEps));
  CHECK(site[30].work_rate == doctest::Approx(0.8).epsilon(kEps));
  // Hour 31: 20 °C: PUE 1.1 + 0.02 x 2 = 1.14, full speed.
  CHECK(site[31].pue == doctest::Approx(1.14).epsilon(kEps));
  CHECK(site[31].work_rate == 1.0);
  // The week repeats: hours 30, 198, 366, 534 and 702 of the 730 are hot.
  CHECK(site[198].pue == doctest::Approx(1.44).epsilon(kEps));
  const PlanResult& r = o.plan("own-1");
  CHECK(r.throttled_hours == 5);
  // A hot hour does 4 GPUs of work on 4 / 0.8 = 5 busy GPUs: IT 2 + 8 x 5 / 8 = 7 kW.
  // IT: 725 x 6 + 5 x 7 = 4,385 kWh; facility: 725 x 6 x 1.14 + 5 x 7 x 1.44 = 4,959 + 50.4 = 5,009.4 kWh;
  // at the region's $0.10: $500.94.
  CHECK(r.it_energy_kwh == doctest::Approx(4385.0).epsilon(kEps));
  CHECK(r.facility_energy_kwh == doctest::Approx(5009.4).epsilon(kEps));
  CHECK(r.ledger.category_total_usd(Category::energy) == doctest::Approx(500.94).epsilon(kEps));
  CHECK(o.has_warning("thermal-throttling", "/plans/0/onprem/ambient"));
  // The resolved ambient shows the file, not formula fields that were not used.
  const Json ambient = o.report().at("inputs").at("plans").at(0).at("onprem").at("ambient");
  CHECK(ambient.at("series").at("rows") == 168);
  CHECK(ambient.at("series").at("repeat") == "week");
  CHECK_FALSE(ambient.contains("mean_c"));
  CHECK(ambient.at("throttle_above_c") == 30);
}

TEST_CASE("hourly series: a temperature file holding the formula's values gives the formula's report") {
  const fs::path dir = scratch_dir("series-formula");
  Json formula = base_scenario_json();
  formula["onprem"]["cooling"] = ambient_pue_cooling();
  formula["onprem"]["ambient"] = formula_ambient();
  const Scenario formula_scenario = load_scenario_json(formula, "formula.json", dir.string());
  write_formula_series(dir / "temps.csv", formula_ambient(), formula_scenario.calendar);
  Json series = formula;
  series["onprem"]["ambient"] = series_ambient("temps.csv");  // relative to the scenario's folder

  ScenarioOutcome a{formula_scenario, {}};
  a.run = run_deterministic(a.scenario);
  ScenarioOutcome b{load_scenario_json(series, "series.json", dir.string()), {}};
  b.run = run_deterministic(b.scenario);
  // Summer afternoons throttle (20 + 10 + 6 = 36 °C at the peak): the temperature matters.
  CHECK(a.plan("buy-2").throttled_hours > 0);
  CHECK(results_of(a.report()) == results_of(b.report()));
}

TEST_CASE("hourly series: the sweep reads the price and temperature series") {
  // The rich sweep fixture with every random input on (monthly price shocks and ambient noise
  // included), once with a time-of-use tariff and the ambient formula, once with the same
  // prices and temperatures as series files beside the scenario: the same sweep document.
  const fs::path dir = scratch_dir("series-sweep");
  Json formula = random_sweep_json();
  formula["onprem"]["power"]["tariff"] = alternating_time_of_use();
  formula["onprem"]["ambient"] = formula_ambient();
  formula["onprem"]["ambient"]["noise_sigma_c"] = 2.0;
  const Scenario loaded = load_scenario_json(formula, "formula.json", dir.string());
  write_formula_series(dir / "temps.csv", formula_ambient(), loaded.calendar);
  fs::copy_file(series_fixture(kAlternating), dir / "prices.csv");
  Json series = formula;
  series["onprem"]["power"]["tariff"] = alternating_series_tariff("prices.csv");
  series["onprem"]["ambient"] = series_ambient("temps.csv");
  series["onprem"]["ambient"]["noise_sigma_c"] = 2.0;
  const Json grid = {{"fields", {{{"pointer", "/plans/1/onprem_nodes"}, {"values", {1, 3}}}}}};
  const std::string grid_file = write_json_file(dir / "grid.json", grid);

  auto sweep = [&](const std::string& name, const Json& scenario) {
    const std::string file = write_json_file(dir / (name + ".json"), scenario);
    const std::string out = (dir / (name + ".out.json")).string();
    const CliResult r = run_cli({"sweep", file, "--grid", grid_file, "--paths", "4", "--backend", "cpu", "--out", out,
                                 "--quiet"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    return Json::parse(read_text_file(out)).at("points");
  };
  const Json with_formula = sweep("formula", formula);
  const Json with_series = sweep("series", series);
  CHECK(with_formula.dump() == with_series.dump());
  // And the inputs matter: the fixture's flat $0.10 and its own ambient formula give other costs.
  CHECK(sweep("flat", random_sweep_json()).dump() != with_series.dump());
}

TEST_CASE("hourly series: the discrete-event Monte Carlo reads the price and temperature series") {
  const fs::path dir = scratch_dir("series-des");
  const Json jobs = Json::parse(R"({"poisson": {"jobs_per_hour": 0.5, "gpus": {"8": 1.0}, "duration_median_h": 6,
                                               "duration_sigma": 0.5, "max_duration_h": 48}})");
  Json formula = des_scenario_json(jobs);
  formula["start"] = "2026-06-01";  // a summer: the formula crosses 30 °C and its PUE rises
  formula["horizon_months"] = 3;
  formula["monte_carlo"] = {{"paths", 4}, {"seed", 11}};
  formula["onprem"]["cooling"] = ambient_pue_cooling();
  formula["onprem"]["ambient"] = formula_ambient();
  formula["onprem"]["ambient"]["noise_sigma_c"] = 2.0;  // the replay's noisy site: ambient_c + noise
  formula["onprem"]["power"]["tariff"] = alternating_time_of_use();
  formula["onprem"]["power"]["monthly_price_sigma"] = 0.1;
  const Scenario a = load_scenario_json(formula, "formula.json", dir.string());
  write_formula_series(dir / "temps.csv", formula_ambient(), a.calendar);
  Json series = formula;
  series["onprem"]["power"]["tariff"] = alternating_series_tariff(series_fixture(kAlternating));
  series["onprem"]["ambient"] = series_ambient("temps.csv");
  series["onprem"]["ambient"]["noise_sigma_c"] = 2.0;
  const Scenario b = load_scenario_json(series, "series.json", dir.string());

  const MonteCarloRun ra = run_monte_carlo(a, {});
  const MonteCarloRun rb = run_monte_carlo(b, {});
  REQUIRE(ra.npv_by_path.size() == rb.npv_by_path.size());
  CHECK(ra.npv_by_path == rb.npv_by_path);
  const PlanResult& buy_a = ra.run.plans[1];
  const PlanResult& buy_b = rb.run.plans[1];
  CHECK(buy_a.facility_energy_kwh == buy_b.facility_energy_kwh);
  CHECK(buy_a.ledger.category_total_usd(Category::energy) == buy_b.ledger.category_total_usd(Category::energy));
  CHECK(buy_a.ledger.category_total_usd(Category::energy) > 0.0);

  // A cooler file (the formula minus 10 °C every hour) gives another energy bill: the replay
  // does read the file.
  std::string cooler = "hour,temperature_c\n";
  for (long h = 0; h < kHoursPerYear; ++h) cooler += fmt::format("{},{}\n", h, 5.0 + 3.0 * std::cos(h * 0.26));
  write_text(dir / "cool.csv", cooler);
  series["onprem"]["ambient"]["series_file"] = "cool.csv";
  const MonteCarloRun rc = run_monte_carlo(load_scenario_json(series, "cool.json", dir.string()), {});
  CHECK(rc.run.plans[1].facility_energy_kwh < buy_b.facility_energy_kwh);
}

TEST_CASE("hourly series: each bad file is an InputError naming the file and the line") {
  const fs::path dir = scratch_dir("series-errors");
  auto price_file = [&](const std::string& name, const std::string& text) { return write_text(dir / name, text); };

  SUBCASE("missing file: the scenario's pointer and the path looked for") {
    const InputError e = series_load_error(scenario_with_price_file((dir / "nowhere.csv").string()));
    CHECK(e.file() == "bad-series.json");
    CHECK(e.where() == "/onprem/power/tariff/file");
    CHECK(e.message().find("nowhere.csv") != std::string::npos);
  }
  SUBCASE("wrong header") {
    const std::string f = price_file("header.csv", "hour,price\n0,0.1\n");
    const InputError e = series_load_error(scenario_with_price_file(f));
    CHECK(e.file() == f);
    CHECK(e.where() == "line 1");
    CHECK(e.message().find("hour,usd_per_kwh") != std::string::npos);
  }
  SUBCASE("a bad number") {
    const std::string f = price_file("number.csv", "hour,usd_per_kwh\n0,0.1\n1,0.1x\n");
    const InputError e = series_load_error(scenario_with_price_file(f));
    CHECK(e.file() == f);
    CHECK(e.where() == "line 3, column 2");
    CHECK(e.message().find("\"0.1x\"") != std::string::npos);
  }
  SUBCASE("a hour that skips one") {
    const std::string f = price_file("gap.csv", "hour,usd_per_kwh\n0,0.1\n1,0.1\n3,0.1\n");
    const InputError e = series_load_error(scenario_with_price_file(f));
    CHECK(e.file() == f);
    CHECK(e.where() == "line 4, column 1");
    CHECK(e.message().find("expected 2") != std::string::npos);
  }
  SUBCASE("a hour that is not a whole number") {
    const std::string f = price_file("fraction.csv", "hour,usd_per_kwh\n0,0.1\n1.5,0.1\n");
    const InputError e = series_load_error(scenario_with_price_file(f));
    CHECK(e.where() == "line 3, column 1");
  }
  SUBCASE("a negative price") {
    const std::string f = price_file("negative.csv", "hour,usd_per_kwh\n0,0.1\n1,-0.05\n");
    const InputError e = series_load_error(scenario_with_price_file(f));
    CHECK(e.file() == f);
    CHECK(e.where() == "line 3, column 2");
    CHECK(e.message().find("within [0, 10]") != std::string::npos);
  }
  SUBCASE("a row with three fields") {
    const std::string f = price_file("fields.csv", "hour,usd_per_kwh\n0,0.1,7\n");
    const InputError e = series_load_error(scenario_with_price_file(f));
    CHECK(e.where() == "line 2, column 3");
  }
  SUBCASE("no rows") {
    const std::string f = price_file("empty.csv", "hour,usd_per_kwh\n");
    const InputError e = series_load_error(scenario_with_price_file(f));
    CHECK(e.where() == "line 2");
  }
  SUBCASE("too short for the horizon and the server's life, without repeat") {
    // 3 rows; the 12-month horizon needs 8,760 h, the utilization breakeven over the 5-year
    // life 60 x 730 = 43,800 h.
    const std::string f = price_file("short.csv", "hour,usd_per_kwh\n0,0.1\n1,0.1\n2,0.1\n");
    const InputError e = series_load_error(scenario_with_price_file(f));
    CHECK(e.file() == f);
    CHECK(e.where() == "line 4");
    CHECK(e.message().find("0..43799") != std::string::npos);
    CHECK(e.message().find("/onprem/power/tariff") != std::string::npos);
    CHECK(e.message().find("found 3 rows") != std::string::npos);
  }
  SUBCASE("repeat by the week needs whole weeks") {
    std::string text = "hour,usd_per_kwh\n";
    for (int h = 0; h < 100; ++h) text += fmt::format("{},0.1\n", h);
    Json doc = scenario_with_price_file(price_file("weeks.csv", text));
    doc["onprem"]["power"]["tariff"]["repeat"] = "week";
    const InputError e = series_load_error(doc);
    CHECK(e.where() == "line 101");
    CHECK(e.message().find("168 h") != std::string::npos);
  }
  SUBCASE("a temperature in kelvin") {
    const std::string f = price_file("kelvin.csv", "hour,temperature_c\n0,293.15\n");
    Json doc = base_scenario_json();
    doc["onprem"]["ambient"] = {{"series_file", f}, {"series_repeat", "none"}};
    const InputError e = series_load_error(doc);
    CHECK(e.file() == f);
    CHECK(e.where() == "line 2, column 2");
  }
  SUBCASE("a formula field beside a temperature file") {
    Json doc = base_scenario_json();
    doc["onprem"]["ambient"] = {{"series_file", series_fixture(kHotHour)}, {"series_repeat", "week"}, {"mean_c", 15}};
    const InputError e = series_load_error(doc);
    CHECK(e.where() == "/onprem/ambient/mean_c");
  }
  SUBCASE("an unknown key in the series tariff") {
    Json doc = scenario_with_price_file(series_fixture(kAlternating));
    doc["onprem"]["power"]["tariff"]["repeat"] = "week";
    doc["onprem"]["power"]["tariff"]["usd_per_kwh"] = 0.1;
    const InputError e = series_load_error(doc);
    CHECK(e.where() == "/onprem/power/tariff/usd_per_kwh");
  }
}

TEST_CASE("hourly series: tcosim run on a bad series file exits 2 and names the file and line") {
  const fs::path dir = scratch_dir("series-cli");
  write_text(dir / "prices.csv", "hour,usd_per_kwh\n0,0.1\n1,abc\n");
  Json doc = scenario_with_price_file("prices.csv");
  const std::string scenario = write_json_file(dir / "scenario.json", doc);
  const CliResult r = run_cli({"run", scenario, "--out", (dir / "report.json").string()});
  CHECK(r.exit_code == 2);
  CHECK_MESSAGE(r.err.find((dir / "prices.csv").string() + ": line 3, column 2") != std::string::npos, r.err);
  CHECK_FALSE(fs::exists(dir / "report.json"));
}
