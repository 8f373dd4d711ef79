// The ClusterMAX cluster TCO calculator's 4,096-GPU example (clustermax.ai/tco, SemiAnalysis,
// "How much do GPU clusters really cost?", 2026-04-20) reproduced by scenarios/clustermax-4096-gpus.json:
// the page's monthly line items and its three 36-month totals (docs/decisions.md §18).
#include <cmath>

#include <doctest/doctest.h>

#include "scenario_builder.hpp"

namespace tco::test {
namespace {

// A line of the page's table: USD a month, gold-tier / hyperscaler / silver-tier.
struct PageLine {
  Category category;
  double gold_usd, hyperscaler_usd, silver_usd;
};

}  // namespace

TEST_CASE("clustermax: the 4,096-GPU example's monthly lines and 36-month totals") {
  ScenarioOutcome o{load_scenario(source_path("scenarios/clustermax-4096-gpus.json")), {}};
  o.run = run_deterministic(o.scenario);
  // The page's monthly lines. Setup is one-time, amortised over 36 months as the page does:
  // $3,278,258 / 36 = $91,062.72 and $3,015,787 / 36 = $83,771.86; debugging $200,000 / 12.
  const PageLine lines[] = {{Category::cloud_on_demand, 5426381, 6423183, 5898240},
                            {Category::storage, 1408, 1856, 0},
                            {Category::network, 0, 82, 0},
                            {Category::cpu_vms, 0, 3318, 0},
                            {Category::support, 0, 321422, 0},
                            {Category::lost_work, 111349, 131804, 202015},
                            {Category::setup, 0, 3278258.0 / 36, 3015787.0 / 36},
                            {Category::debugging, 0, 16667, 16667}};
  for (const PageLine& line : lines) {
    CAPTURE(category_name(line.category));
    // Within a dollar a month: the page rounds each cell to the dollar.
    CHECK(std::abs(o.plan("gold-tier").ledger.month_category_usd(0, line.category) - line.gold_usd) <= 1.0);
    CHECK(std::abs(o.plan("hyperscaler").ledger.month_category_usd(0, line.category) - line.hyperscaler_usd) <= 1.0);
    CHECK(std::abs(o.plan("silver-tier").ledger.month_category_usd(0, line.category) - line.silver_usd) <= 1.0);
  }
  // The monthly (amortised) subtotals: $5,539,138, $6,989,395, $6,200,693 (within a dollar).
  CHECK(std::abs(o.plan("gold-tier").ledger.month_total_usd(17) - 5539138) <= 1.0);
  CHECK(std::abs(o.plan("hyperscaler").ledger.month_total_usd(17) - 6989395) <= 1.0);
  CHECK(std::abs(o.plan("silver-tier").ledger.month_total_usd(17) - 6200693) <= 1.0);
  // The 36-month totals within 1% (the bar); they agree to 1e-6: 36 x the monthly lines
  // rounded to the dollar (gold $199,408,960.80 against the page's $199,408,973).
  const double gold = o.plan("gold-tier").total_usd;
  const double hyperscaler = o.plan("hyperscaler").total_usd;
  const double silver = o.plan("silver-tier").total_usd;
  CHECK(gold == doctest::Approx(199408973.0).epsilon(1e-6));
  CHECK(hyperscaler == doctest::Approx(251618208.0).epsilon(1e-6));
  CHECK(silver == doctest::Approx(223224957.0).epsilon(1e-6));
  // Relative to gold-tier: 1.26x and 1.12x.
  CHECK(hyperscaler / gold == doctest::Approx(1.26).epsilon(0.005));
  CHECK(silver / gold == doctest::Approx(1.12).epsilon(0.005));
}

}  // namespace tco::test
