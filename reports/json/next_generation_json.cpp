#include "reports/json/next_generation_json.hpp"

#include <algorithm>
#include <vector>

#include "core/stats/statistics.hpp"
#include "engine/decisions/next_generation_effect.hpp"

namespace tco {

namespace {

// The event as read; with a drawn arrival month, the median's month (the deterministic run's) and
// the distribution as written.
Json event_json(const NextGenerationSpec& g) {
  Json out = g.as_written;
  if (g.arrival_draw.drawn) {
    out["arrival_month_drawn"] = out["arrival_month"];
    out["arrival_month"] = g.arrival_month;
  }
  return out;
}

}  // namespace

Json next_generation_json(const Scenario& s) {
  const auto effects = next_generation_effects(s);
  if (!effects) return Json();
  Json plans = Json::array();
  for (const NextGenerationPlanEffect& e : *effects)
    plans.push_back({{"plan", e.plan},
                     {"npv_usd", e.npv_usd},
                     {"npv_without_event_usd", e.npv_without_event_usd},
                     {"npv_effect_usd", e.npv_effect_usd},
                     {"residual_npv_effect_usd", e.residual_effect_usd}});
  Json out = event_json(*s.next_generation);
  out["plans"] = plans;
  return out;
}

void add_arrival_over_paths(Json& report, const Scenario& s, long paths, std::uint64_t seed) {
  if (!s.next_generation || !s.next_generation->arrival_draw.drawn) return;
  // The replay's report has no effect table (it needs the hourly model): the event alone.
  if (!report.contains("next_generation")) {
    report["next_generation"] = event_json(*s.next_generation);
    report["next_generation"]["plans"] = Json::array();
  }
  std::vector<double> months(static_cast<std::size_t>(paths));
  for (long p = 0; p < paths; ++p)
    months[p] = arrival_month_on_path(s.next_generation->arrival_draw, seed, static_cast<std::uint32_t>(p));
  const auto inside = std::count_if(months.begin(), months.end(), [&s](double m) { return m < s.horizon_months; });
  const Summary summary = summarize(months);
  report["next_generation"]["arrival_month_over_paths"] = {
      {"paths", paths},          {"mean", summary.mean}, {"p5", summary.p5}, {"p50", summary.p50},
      {"p95", summary.p95},      {"share_inside_horizon", static_cast<double>(inside) / static_cast<double>(paths)}};
}

}  // namespace tco
