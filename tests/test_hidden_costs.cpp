// The hidden costs of renting (models/catalog/hidden_costs.hpp, engine/ledger/hidden_cost_booking.hpp),
// each category by hand on the one-offer fixture: 16 GPUs steady for 12 months on
// test/gpu8/region-a ($16 per 8-GPU instance-hour) = 2 instances x $16 x 730 h = $23,360 a month of
// on-demand, $280,320 over the year; discount rate 0.
#include <doctest/doctest.h>

#include "engine/ledger/hidden_cost_booking.hpp"
#include "load_error.hpp"
#include "scenario_builder.hpp"

namespace tco::test {
namespace {

constexpr double kOnDemandYearUsd = 2 * 16.0 * 730 * 12;  // 280,320

Json hidden_cost_scenario(const Json& hidden_costs) {
  Json doc = base_scenario_json();
  doc["cloud"]["hidden_costs"] = hidden_costs;
  doc["plans"] = Json::parse(R"([{"name": "cloud", "kind": "cloud"},
                                  {"name": "buy-2", "kind": "hybrid", "onprem_nodes": 2},
                                  {"name": "own-2", "kind": "onprem", "onprem_nodes": 2}])");
  return doc;
}

double category_usd(const ScenarioOutcome& o, const std::string& plan, Category c) {
  return o.plan(plan).ledger.category_total_usd(c);
}

}  // namespace

TEST_CASE("hidden costs: each category by hand on one offer") {
  const ScenarioOutcome o = run_scenario_json(hidden_cost_scenario(Json::parse(R"({
    "storage_gib": 1000, "storage_usd_per_gib_month": 0.05,
    "network_usd_per_month": 2000,
    "cpu_vms": 3, "cpu_vm_usd_per_hour": 0.40,
    "support_share_of_bill": 0.10,
    "setup_usd": 12000,
    "debugging_engineer_h_per_month": 10, "debugging_usd_per_engineer_h": 150})")));
  const double eps = 1e-9;
  CHECK(category_usd(o, "cloud", Category::cloud_on_demand) == doctest::Approx(kOnDemandYearUsd).epsilon(eps));
  // storage: 1,000 GiB x $0.05 = $50 a month, $600 a year
  CHECK(category_usd(o, "cloud", Category::storage) == doctest::Approx(600.0).epsilon(eps));
  // network: $2,000 a month, $24,000
  CHECK(category_usd(o, "cloud", Category::network) == doctest::Approx(24000.0).epsilon(eps));
  // CPU VMs: 3 x $0.40 x 730 h = $876 a month, $10,512
  CHECK(category_usd(o, "cloud", Category::cpu_vms) == doctest::Approx(10512.0).epsilon(eps));
  // support: 10% of the provider's bill, 0.1 x (280,320 + 600 + 24,000 + 10,512) = 0.1 x 315,432 = $31,543.20
  CHECK(category_usd(o, "cloud", Category::support) == doctest::Approx(31543.2).epsilon(eps));
  // setup amortised: $12,000 / 12 months = $1,000 in each month
  CHECK(o.plan("cloud").ledger.month_category_usd(0, Category::setup) == doctest::Approx(1000.0).epsilon(eps));
  CHECK(o.plan("cloud").ledger.month_category_usd(11, Category::setup) == doctest::Approx(1000.0).epsilon(eps));
  // debugging: 10 h x $150 = $1,500 a month, $18,000
  CHECK(category_usd(o, "cloud", Category::debugging) == doctest::Approx(18000.0).epsilon(eps));
  CHECK(category_usd(o, "cloud", Category::lost_work) == 0.0);  // goodput 1
  // total: 280,320 + 600 + 24,000 + 10,512 + 31,543.20 + 12,000 + 18,000 = 376,975.20
  CHECK(o.plan("cloud").total_usd == doctest::Approx(376975.2).epsilon(eps));

  // The hybrid plan rents too: its 2 nodes serve all 16 GPUs, so its GPU bill is 0; it pays the
  // fixed ones and support on them, 0.1 x (600 + 24,000 + 10,512) = $3,511.20; the owned plan pays none.
  CHECK(category_usd(o, "buy-2", Category::cloud_on_demand) == 0.0);
  CHECK(category_usd(o, "buy-2", Category::support) == doctest::Approx(3511.2).epsilon(eps));
  CHECK(category_usd(o, "buy-2", Category::network) == doctest::Approx(24000.0).epsilon(eps));
  for (Category c : kHiddenCostCategories) CHECK(category_usd(o, "own-2", c) == 0.0);

  // Every format reads the JSON report's breakdown: the categories are there, with the same figures.
  const Json report = o.report();
  const Json& breakdown = report_plan(report, "cloud").at("breakdown_nominal_usd");
  CHECK(breakdown.at("storage").get<double>() == doctest::Approx(600.0).epsilon(eps));
  CHECK(breakdown.at("setup").get<double>() == doctest::Approx(12000.0).epsilon(eps));
  CHECK(breakdown.at("lost_work").get<double>() == 0.0);
}

TEST_CASE("hidden costs: a goodput of 0.8 makes the work cost 1.25 times the GPU-hours") {
  const ScenarioOutcome o = run_scenario_json(hidden_cost_scenario(Json::parse(R"({"goodput": 0.8})")));
  // lost work: (1 / 0.8 - 1) x 280,320 = 0.25 x 280,320 = $70,080; the GPU-hours' bill 1.25 x.
  CHECK(category_usd(o, "cloud", Category::lost_work) == doctest::Approx(70080.0).epsilon(1e-9));
  CHECK(o.plan("cloud").total_usd == doctest::Approx(1.25 * kOnDemandYearUsd).epsilon(1e-9));
  // Owned capacity keeps its own goodput: the owned plan's total is the one without hidden costs.
  const ScenarioOutcome plain = run_scenario_json(hidden_cost_scenario(Json::object()));
  CHECK(o.plan("own-2").total_usd == plain.plan("own-2").total_usd);

  // Support is a share of the provider's bill, which has no lost work on it: 0.1 x 280,320 = $28,032.
  const ScenarioOutcome both =
      run_scenario_json(hidden_cost_scenario(Json::parse(R"({"goodput": 0.8, "support_share_of_bill": 0.1})")));
  CHECK(category_usd(both, "cloud", Category::support) == doctest::Approx(28032.0).epsilon(1e-9));

  // A scenario without hidden costs reports none of the categories (its report keeps its bytes).
  CHECK_FALSE(report_plan(plain.report(), "cloud").at("breakdown_nominal_usd").contains("lost_work"));
}

TEST_CASE("hidden costs: setup paid at the start, discounted from month 0's start") {
  Json doc = hidden_cost_scenario(Json::parse(R"({"setup_usd": 12000, "setup_paid": "at_start"})"));
  doc["discount_rate_per_year"] = 0.10;
  const ScenarioOutcome o = run_scenario_json(doc);
  const Ledger& ledger = o.plan("cloud").ledger;
  CHECK(ledger.month_category_usd(0, Category::setup) == 12000.0);
  CHECK(ledger.month_category_usd(1, Category::setup) == 0.0);
  // At the start of month 0 the discount factor is (1.1)^0 = 1: its NPV is the full $12,000.
  CHECK(ledger.category_npv_usd(Category::setup, 0.10) == doctest::Approx(12000.0).epsilon(1e-12));
}

TEST_CASE("hidden costs: the offer's fields, overridden field by field by the scenario") {
  Json doc = hidden_cost_scenario(Json::parse(R"({"network_usd_per_month": 500})"));
  doc["cloud"]["offer"] = Json::parse(R"({"id": "test/gpu8/region-a",
                                          "hidden_costs": {"network_usd_per_month": 2000, "goodput": 0.8}})");
  const ScenarioOutcome o = run_scenario_json(doc);
  // network: the scenario's $500 a month over the offer's $2,000: $6,000; goodput: the offer's 0.8.
  CHECK(category_usd(o, "cloud", Category::network) == doctest::Approx(6000.0).epsilon(1e-12));
  CHECK(category_usd(o, "cloud", Category::lost_work) == doctest::Approx(70080.0).epsilon(1e-9));
}

TEST_CASE("hidden costs: the utilization breakeven prices the cloud with 1 / goodput + support") {
  const ScenarioOutcome plain = run_scenario_json(hidden_cost_scenario(Json::object()));
  const ScenarioOutcome o =
      run_scenario_json(hidden_cost_scenario(Json::parse(R"({"goodput": 0.5, "support_share_of_bill": 0.1})")));
  REQUIRE(!plain.run.utilization_breakevens.empty());
  REQUIRE(o.run.utilization_breakevens.size() == plain.run.utilization_breakevens.size());
  // 1 / 0.5 + 0.1 = 2.1 x the cloud's PV per unit of utilization, on every price basis.
  for (std::size_t i = 0; i < o.run.utilization_breakevens.size(); ++i)
    CHECK(o.run.utilization_breakevens[i].pv_cloud_per_u_usd ==
          doctest::Approx(2.1 * plain.run.utilization_breakevens[i].pv_cloud_per_u_usd).epsilon(1e-9));
}

TEST_CASE("hidden costs: bad input names the field's pointer") {
  const auto error_of = [](const Json& hidden) { return load_error(hidden_cost_scenario(hidden)); };
  CHECK(error_of(Json::parse(R"({"goodput": 0})")).find("/cloud/hidden_costs/goodput") != std::string::npos);
  CHECK(error_of(Json::parse(R"({"goodput": 1.2})")).find("/cloud/hidden_costs/goodput") != std::string::npos);
  CHECK(error_of(Json::parse(R"({"storage_gib": -1})")).find("/cloud/hidden_costs/storage_gib") != std::string::npos);
  CHECK(error_of(Json::parse(R"({"cpu_vms": 1.5})")).find("/cloud/hidden_costs/cpu_vms") != std::string::npos);
  CHECK(error_of(Json::parse(R"({"support_share_of_bill": 2})")).find("/cloud/hidden_costs/support_share_of_bill") !=
        std::string::npos);
  CHECK(error_of(Json::parse(R"({"setup_paid": "later"})")).find("/cloud/hidden_costs/setup_paid") != std::string::npos);
  CHECK(error_of(Json::parse(R"({"storage_tb": 1})")).find("/cloud/hidden_costs/storage_tb") != std::string::npos);
  CHECK(error_of(Json::parse(R"({"network_usd_per_month": "2000"})")).find("/cloud/hidden_costs/network_usd_per_month") !=
        std::string::npos);
  Json doc = hidden_cost_scenario(Json::object());
  doc["cloud"]["offer"] = Json::parse(R"({"id": "test/gpu8/region-a", "hidden_costs": {"goodput": 0.001}})");
  CHECK(load_error(doc).find("/cloud/offer/hidden_costs/goodput") != std::string::npos);

  // The command line: exit 2, the file and the pointer in the message.
  const std::string file =
      write_json_file(scratch_dir("hidden-costs-bad") / "scenario.json", hidden_cost_scenario(Json::parse(R"({"goodput": 0})")));
  const CliResult validate = run_cli({"validate", file});
  CHECK(validate.exit_code == 2);
  CHECK(contains(validate.out + validate.err, "scenario.json"));
  CHECK(contains(validate.out + validate.err, "/cloud/hidden_costs/goodput"));
}

TEST_CASE("hidden costs: the fixture the fuzz scenario corpus starts from, by hand") {
  // tests/fixtures/scenarios/hidden_costs.json: the offer's network $2,000 and goodput 0.8, the
  // scenario's storage, CPU VMs, support 10% and setup $12,000 at the start; discount 5% a year.
  const ScenarioOutcome o = run_fixture("hidden_costs.json");
  const PlanResult& cloud = o.plan("cloud");
  // Month 0: GPU bill 2 x $16 x 730 = $23,360; lost work 0.25 x 23,360 = $5,840; storage $50;
  // network $2,000; CPU VMs $876; support 0.1 x (23,360 + 50 + 2,000 + 876) = $2,628.60;
  // setup $12,000; debugging $1,500: $48,254.60.
  CHECK(cloud.ledger.month_total_usd(0) == doctest::Approx(48254.6).epsilon(1e-12));
  // Month 1 has no setup: $36,254.60.
  CHECK(cloud.ledger.month_total_usd(1) == doctest::Approx(36254.6).epsilon(1e-12));
}

}  // namespace tco::test
