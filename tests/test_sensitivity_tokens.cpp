// The tornado ranks a serving scenario's token inputs beside the others (issue 46 item 6): request
// rate, input and output tokens per request, the API's yearly price change and the throughput per
// GPU (workload.tokens.throughput_factor), on tests/fixtures/scenarios/api.json (864M tokens an hour,
// $0.6875 per million blended; buy-82-api owns 656 GPUs serving 660,000 tokens a GPU-hour and
// sends the rest to the API) against its api plan. Each bar's savings equal a re-run of the
// scenario with the input at its low and high value; three are also computed by hand.
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "engine/decisions/sensitivity.hpp"
#include "engine/montecarlo/uncertain_paths.hpp"
#include "engine/scenario_run.hpp"
#include "cli_test_support.hpp"
#include "test_support.hpp"

using namespace tco;
using namespace tco::test;

namespace {

Json tornado_input(const std::string& name, const std::string& pointer, double low, double high) {
  return {{"name", name},
          {"pointer", pointer},
          {"distribution", {{"type", "uniform"}, {"low", low}, {"high", high}}},
          {"low", low},
          {"high", high}};
}

Json token_tornado_scenario() {
  Json doc = read_json_file(source_path("tests/fixtures/scenarios/api.json"));
  doc["baseline"] = "api";
  doc["api"]["price_change_per_year"] = -0.3;
  doc["workload"]["tokens"]["throughput_factor"] = 1.0;
  doc["monte_carlo"] = {{"paths", 4}, {"seed", 5}};
  doc["uncertain"] = {
      {"inputs",
       {tornado_input("request rate", "/workload/tokens/requests_per_second/profiles/0/requests_per_second", 80, 120),
        tornado_input("input tokens per request", "/workload/tokens/input_tokens_per_request", 1500, 2500),
        tornado_input("output tokens per request", "/workload/tokens/output_tokens_per_request", 300, 500),
        tornado_input("API price change a year", "/api/price_change_per_year", -0.5, 0.0),
        tornado_input("throughput per GPU", "/workload/tokens/throughput_factor", 0.8, 1.2),
        tornado_input("maintenance", "/onprem/maintenance_per_year", 0.03, 0.09)}}};
  return doc;
}

const std::string kDir = "tests/fixtures/scenarios";

// NPV(api) - NPV(buy-82-api) of the document with `pointer` set to `value`, run as `tcosim run` does.
double rerun_saving_usd(Json doc, const std::string& pointer, double value) {
  doc.at(Json::json_pointer(pointer)) = value;
  doc.erase("uncertain");
  const Scenario s = load_scenario_json(doc, "api.json", source_path(kDir), source_path("tests/fixtures/catalog"));
  const ScenarioRun run = run_deterministic(s);
  return run.plans[2].npv_usd - run.plans[3].npv_usd;  // plans: cloud, buy-164, api, buy-82-api
}

}  // namespace

TEST_CASE("tornado on a serving scenario: the token inputs' bars equal re-runs at their low and high values") {
  const Json doc = token_tornado_scenario();
  const UncertaintyInputs in = make_uncertainty_inputs(doc, "api.json", source_path(kDir),
                                                       source_path("tests/fixtures/catalog"), std::nullopt, std::nullopt);
  const ScenarioOutcomes base = evaluate_outcomes(in.base);
  const int plan = sensitivity_plan_index(in.base, base, "buy-82-api");
  const Tornado t = tornado(in, in.base.uncertain->inputs, plan, base, 1);
  REQUIRE(t.bars.size() == 6);
  CHECK(t.baseline == "api");
  for (const TornadoBar& b : t.bars) {
    CAPTURE(b.input);
    CHECK(b.saving_at_low_usd == doctest::Approx(rerun_saving_usd(doc, b.pointer, b.low)).epsilon(1e-12));
    CHECK(b.saving_at_high_usd == doctest::Approx(rerun_saving_usd(doc, b.pointer, b.high)).epsilon(1e-12));
  }
  const auto bar = [&](const std::string& name) -> const TornadoBar& {
    for (const auto& b : t.bars)
      if (b.input == name) return b;
    FAIL("no bar for " << name);
    return t.bars.front();
  };
  // Throughput per GPU, by hand: the 656 owned GPUs are busy every hour at either end (demand
  // ceil(864M / (5.28M x f)) replicas x 8 >= 1,048 GPUs), and serve 656 x 660,000 f tokens an hour
  // the API does not bill. 0.4 more of f takes 173.184M tokens an hour off the API: at the
  // blended $0.6875 per million, x the price change's factor (1 - 0.3)^(h / 8,760) summed over
  // the 8,760 hours at a 0 % discount rate.
  double price_factor_hours = 0.0;
  for (int h = 0; h < 8760; ++h) price_factor_hours += std::pow(0.7, h / 8760.0);
  const TornadoBar& throughput = bar("throughput per GPU");
  CHECK(throughput.saving_at_high_usd - throughput.saving_at_low_usd ==
        doctest::Approx(656 * 660000.0 * 0.4 / 1e6 * 0.6875 * price_factor_hours).epsilon(1e-9));
  // Request rate: at 80 and at 120 requests/s the fleet is full, so it saves the API bill of the
  // same 432.96M tokens an hour at either end: a zero bar.
  CHECK(bar("request rate").swing_usd == doctest::Approx(0.0).epsilon(1e-9));
  // API price change: the saving is the fleet's 432.96M tokens x $0.6875 = $297.66 an hour
  // (less the fleet's cost, the same at both ends) times the hours' price factors.
  double flat_hours = 8760.0, half_hours = 0.0;
  for (int h = 0; h < 8760; ++h) half_hours += std::pow(0.5, h / 8760.0);
  const TornadoBar& decline = bar("API price change a year");
  CHECK(decline.saving_at_high_usd - decline.saving_at_low_usd ==
        doctest::Approx(297.66 * (flat_hours - half_hours)).epsilon(1e-9));
  // Beside them, maintenance from 3 % to 9 % of capex a year on 82 nodes x $200,000: 0.06 x
  // 16.4M = $984,000 over the year, the largest bar; the throughput's $877,288 the next.
  CHECK(bar("maintenance").swing_usd == doctest::Approx(984000.0).epsilon(1e-9));
  for (std::size_t i = 1; i < t.bars.size(); ++i) CHECK(t.bars[i - 1].swing_usd >= t.bars[i].swing_usd);
  CHECK(t.bars.at(0).input == "maintenance");
  CHECK(t.bars.at(1).input == "throughput per GPU");
}

TEST_CASE("sensitivity on a serving scenario with an API: the simulated utilization breakeven is not computed") {
  // It replaces the workload with a steady GPU demand, which an API's bill (tokens x price) cannot
  // follow: it evaluated the API with no token demand and crashed (session 32, on
  // llm-serving-own-rent-or-api with an uncertain section). Now its status says why it is absent.
  Json doc = token_tornado_scenario();
  doc["catalog_dir"] = source_path("tests/fixtures/catalog");
  const std::filesystem::path dir = scratch_dir("sensitivity-tokens");
  const std::string file = (dir / "scenario.json").string();
  write_text(file, doc.dump(2));
  const std::string out = (dir / "report.json").string();
  const CliResult r = run_cli({"sensitivity", file, "--plan", "buy-82-api", "--paths", "4", "--threads", "1",
                               "--out", out, "--quiet"});
  REQUIRE(r.exit_code == 0);
  const Json report = read_json_file(out);
  CHECK(report.at("uncertainty").at("utilization").at("status") == "buys_tokens");
  CHECK(report.at("sensitivity").at("tornado").at("inputs").size() == 6);
  std::filesystem::remove_all(dir);
}
