#include "reports/json/decisions_json.hpp"
#include "core/stats/summary_json.hpp"

#include <algorithm>
#include <cmath>

// As in json_report.cpp, each section spells out its struct field by field (alike in shape only).
namespace tco {

namespace {

// A refresh's months after the arrival, or null for "never" (no refresh inside the horizon).
Json refresh_months_json(const SizingPoint& p) {
  return p.refresh_months_after_arrival ? Json(*p.refresh_months_after_arrival) : Json(nullptr);
}

// One flat row per point, so the CSV writer can table it; `commitment_size` and
// `refresh_months_after_arrival` only when sized.
Json point_json(const SizingPoint& p, bool with_commitment, bool with_refresh) {
  // The replay has no deterministic figure (its NPV is the jobs' replay, drawn per path).
  Json out = {{"nodes", p.nodes},
          {"reserved_instances", p.reserved_instances},
          {"deterministic_npv_usd", p.service ? Json(nullptr) : Json(p.deterministic_npv_usd)},
          {"npv_mean_usd", p.npv_usd.mean},
          {"npv_stderr_usd", p.npv_usd.stderr_},
          {"npv_p10_usd", p.npv_usd.p10},
          {"npv_p50_usd", p.npv_usd.p50},
          {"npv_p90_usd", p.npv_usd.p90},
          {"npv_cvar95_usd", p.npv_usd.cvar95},
          {"saving_mean_usd", p.saving_usd.mean},
          {"saving_stderr_usd", p.saving_usd.stderr_},
          {"saving_p10_usd", p.saving_usd.p10},
          {"saving_p50_usd", p.saving_usd.p50},
          {"saving_p90_usd", p.saving_usd.p90},
          {"probability_saving", p.probability_saving},
          {"minus_best_mean_usd", p.minus_best_mean_usd.mean},
          {"minus_best_stderr_usd", p.minus_best_mean_usd.stderr_}};
  if (with_commitment) out["commitment_size"] = p.commitment_size;
  if (p.tokens) {  // a serving scenario: the point's replicas and $/M tokens (deterministic)
    out["owned_replicas"] = p.tokens->owned_replicas;
    out["gpus_per_replica"] = p.tokens->gpus_per_replica;
    out["tokens_served"] = p.tokens->tokens_served;
    out["tokens_unserved"] = p.tokens->tokens_unserved;
    out["reservation_usd_per_million_tokens"] = optional_json(p.tokens->reservation_usd_per_million_tokens);
    out["usage_usd_per_million_tokens"] = optional_json(p.tokens->usage_usd_per_million_tokens);
    // The reservation basis over the paths (engine/decisions/sizing_tokens.hpp), as the NPV's.
    const std::optional<Summary>& paths = p.tokens->reservation_usd_per_million_tokens_paths;
    out["usd_per_million_tokens_mean"] = paths ? Json(paths->mean) : Json(nullptr);
    out["usd_per_million_tokens_stderr"] = paths ? Json(paths->stderr_) : Json(nullptr);
    out["usd_per_million_tokens_p10"] = paths ? Json(paths->p10) : Json(nullptr);
    out["usd_per_million_tokens_p50"] = paths ? Json(paths->p50) : Json(nullptr);
    out["usd_per_million_tokens_p90"] = paths ? Json(paths->p90) : Json(nullptr);
  }
  if (with_refresh) out["refresh_months_after_arrival"] = refresh_months_json(p);
  if (p.service) {
    out["waited_gpu_hours"] = p.service->waited_gpu_hours;
    out["mean_first_wait_h"] = p.service->mean_first_wait_h;
    out["unserved_gpu_hours"] = p.service->unserved_gpu_hours;
    out["deadline_misses"] = p.service->deadline_misses;
    out["bursts"] = p.service->bursts;
    if (p.service->deadline_misses_added_by_shifting) {  // the plan shifts time
      out["deadline_misses_without_shifting"] = *p.service->deadline_misses_without_shifting;
      out["deadline_misses_added_by_shifting"] = *p.service->deadline_misses_added_by_shifting;
    }
    out["meets_limits"] = p.service->meets_limits;
    out["minus_previous_mean_usd"] = p.minus_previous_usd ? Json(p.minus_previous_usd->mean) : Json(nullptr);
    out["minus_previous_stderr_usd"] = p.minus_previous_usd ? Json(p.minus_previous_usd->stderr_) : Json(nullptr);
  }
  return out;
}

}  // namespace

Json sizing_json(const SizingResult& r) {
  const bool with_commitment = !r.commitment.empty();
  const bool with_refresh = !r.refresh_values.empty();
  const bool joint = !r.reserved_values.empty() || with_commitment || with_refresh;
  const SizingPoint& recommended = r.points[r.best_for(r.risk).point];
  Json curve = Json::array();
  Json points = Json::array();
  for (const auto& p : r.points) {
    points.push_back(point_json(p, with_commitment, with_refresh));
    // With reserved, commitment or refresh sizes, the curve over N is taken at the recommended ones.
    if (p.reserved_instances == recommended.reserved_instances && p.commitment_size == recommended.commitment_size &&
        p.refresh_months_after_arrival == recommended.refresh_months_after_arrival)
      curve.push_back(point_json(p, with_commitment, with_refresh));
  }
  Json best = Json::object();
  for (const auto& b : r.best) {
    const SizingPoint& p = r.points[b.point];
    Json nodes = Json::array();
    Json within = Json::array();
    long lo = p.nodes, hi = p.nodes;
    for (std::size_t i : b.within_1pct) {
      const SizingPoint& q = r.points[i];
      if (std::find(nodes.begin(), nodes.end(), Json(q.nodes)) == nodes.end()) nodes.push_back(q.nodes);
      within.push_back({{"nodes", q.nodes}, {"reserved_instances", q.reserved_instances}});
      lo = std::min(lo, q.nodes);
      hi = std::max(hi, q.nodes);
    }
    best[b.measure] = {{"nodes", p.nodes},
                       {"reserved_instances", p.reserved_instances},
                       {"commitment_size", with_commitment ? Json(p.commitment_size) : Json(nullptr)},
                       {"refresh_months_after_arrival", refresh_months_json(p)},
                       {"value_usd", b.value_usd},
                       {"npv_mean_usd", p.npv_usd.mean},
                       {"saving_mean_usd", p.saving_usd.mean},
                       {"within_1pct_nodes", nodes},
                       {"within_1pct_min_nodes", lo},
                       {"within_1pct_max_nodes", hi},
                       {"within_1pct_points", within}};
  }
  const bool replay = r.model == "monte_carlo_discrete_event";
  Json search = nullptr, limits = nullptr;
  if (replay) {
    search = {{"method", r.search},
              {"rounds", r.search_rounds},
              {"node_counts_in_range", r.node_values.size()},
              {"points_evaluated", r.points.size()},
              {"evaluated_nodes_in_order", r.evaluated_order}};
    limits = {{"max_wait_h", r.max_wait_h},
              {"baseline_deadline_misses", r.baseline_deadline_misses},
              {"max_deadline_misses_added_by_shifting", r.weighs_misses_added_by_shifting ? Json(0.0) : Json(nullptr)},
              {"met_by_none", r.limits_met_by_none},
              {"best_chosen_among", r.best_chosen_among}};
  }
  Json frontier = Json::array();
  for (std::size_t i : r.frontier) {
    const SizingPoint& p = r.points[i];
    frontier.push_back({{"nodes", p.nodes},
                        {"reserved_instances", p.reserved_instances},
                        {"npv_mean_usd", p.npv_usd.mean},
                        {"npv_p90_usd", p.npv_usd.p90},
                        {"npv_cvar95_usd", p.npv_usd.cvar95}});
  }
  const SizingPoint& by_mean = r.points[r.best_for("mean").point];
  const SizingPoint& by_p90 = r.points[r.best_for("p90").point];
  Json answer = {{"mean_nodes", by_mean.nodes},
                 {"mean_npv_usd", by_mean.npv_usd.mean},
                 {"mean_p90_usd", by_mean.npv_usd.p90},
                 {"p90_nodes", by_p90.nodes},
                 {"p90_npv_usd", by_p90.npv_usd.mean},
                 {"p90_usd", by_p90.npv_usd.p90}};
  if (by_mean.tokens && by_p90.tokens) {  // a serving plan: the answer in replicas too, with $/M tokens
    answer["gpus_per_replica"] = by_mean.tokens->gpus_per_replica;
    answer["mean_replicas"] = by_mean.tokens->owned_replicas;
    answer["mean_usd_per_million_tokens"] = optional_json(by_mean.tokens->reservation_usd_per_million_tokens);
    answer["p90_replicas"] = by_p90.tokens->owned_replicas;
    answer["p90_usd_per_million_tokens"] = optional_json(by_p90.tokens->reservation_usd_per_million_tokens);
  }
  return {{"plan", r.plan},
          {"baseline", r.baseline},
          {"model", r.model},
          {"answer", answer},
          {"frontier", frontier},
          {"randomness", r.randomness},
          {"search", search},
          {"service_limits", limits},
          {"risk", r.risk},
          {"paths", r.paths},
          {"seed", r.seed},
          {"grid",
           {{"pointer_nodes", "/plans/" + std::to_string(r.plan_index) + "/onprem_nodes"},
            {"nodes", r.node_values},
            {"replicas", r.replica_values.empty() ? Json(nullptr) : Json(r.replica_values)},
            {"site_cap_max_nodes", r.site_cap_max_nodes ? Json(*r.site_cap_max_nodes) : Json(nullptr)},
            {"pointer_reserved_instances", r.reserved_values.empty()
                                               ? Json(nullptr)
                                               : Json("/plans/" + std::to_string(r.plan_index) + "/reserved_instances")},
            {"reserved_instances", r.reserved_values.empty() ? Json(nullptr) : Json(r.reserved_values)},
            {"commitment", with_commitment ? Json(r.commitment) : Json(nullptr)},
            {"pointer_commitment", with_commitment ? Json(r.commitment_pointer) : Json(nullptr)},
            {"commitment_sizes", with_commitment ? Json(r.commitment_values) : Json(nullptr)},
            {"pointer_refresh_months_after_arrival", with_refresh ? Json(r.refresh_pointer) : Json(nullptr)},
            {"refresh_months_after_arrival", with_refresh ? Json(r.refresh_values) : Json(nullptr)}}},
          {"curve", curve},
          {"points", joint ? points : Json(nullptr)},
          {"best", best},
          {"recommended",
           {{"risk", r.risk},
            {"nodes", recommended.nodes},
            {"reserved_instances", recommended.reserved_instances},
            {"commitment_size", with_commitment ? Json(recommended.commitment_size) : Json(nullptr)},
            {"refresh_months_after_arrival", refresh_months_json(recommended)}}},
          {"baseline_npv_usd", summary_json(r.baseline_npv_usd)}};
}

Json latency_sizing_json(const LatencySizingResult& r) {
  Json points = Json::array();
  for (const auto& p : r.points)
    points.push_back({{"replicas_asked", p.replicas_asked},
                      {"nodes", p.nodes},
                      {"owned_replicas", p.owned_replicas},
                      {"wait_threshold_s", optional_json(p.wait_threshold_s)},
                      {"npv_usd", p.npv_usd},
                      {"replay_usd_per_path", p.replay_usd_per_path},
                      {"min_share_within_slo", optional_json(p.min_share_within_slo)},
                      {"mean_share_within_slo", optional_json(p.mean_share_within_slo)},
                      {"paths_meeting_share", p.paths_meeting_share},
                      {"meets", p.meets}});
  Json chosen = nullptr;
  if (r.chosen) chosen = points.at(*r.chosen);
  return {{"plan", r.plan},       {"model", "request_replay"}, {"slo_share", r.slo_share},
          {"probability", r.probability}, {"paths", r.paths},  {"hours", r.hours},
          {"points", points},     {"chosen", chosen}};
}

Json spares_sizing_json(const SparesSizingResult& r) {
  Json curve = Json::array();
  for (const auto& p : r.points)
    curve.push_back({{"spares", p.spares},
                     {"npv_mean_usd", p.npv_usd.mean},
                     {"npv_stderr_usd", p.npv_usd.stderr_},
                     {"npv_p90_usd", p.npv_usd.p90},
                     {"npv_cvar95_usd", p.npv_usd.cvar95},
                     {"saving_mean_usd", p.saving_usd.mean},
                     {"saving_stderr_usd", p.saving_usd.stderr_},
                     {"probability_saving", p.probability_saving},
                     {"goodput_mean", p.goodput ? Json(p.goodput->mean) : Json(nullptr)},
                     {"unserved_gpu_hours", p.unserved_gpu_hours}});
  Json best = Json::object();
  for (const auto& b : r.best) {
    Json within = Json::array();
    for (std::size_t i : b.within_1pct) within.push_back(r.points[i].spares);
    best[b.measure] = {{"spares", r.points[b.point].spares}, {"value_usd", b.value_usd}, {"within_1pct_spares", within}};
  }
  long recommended = 0;
  for (const auto& b : r.best)
    if (b.measure == r.risk) recommended = r.points[b.point].spares;
  return {{"plan", r.plan},
          {"baseline", r.baseline},
          {"model", "monte_carlo_discrete_event"},
          {"risk", r.risk},
          {"nodes", r.nodes},
          {"waiting_priced", r.waiting_priced},
          {"paths", r.paths},
          {"seed", r.seed},
          {"curve", curve},
          {"best", best},
          {"recommended", {{"risk", r.risk}, {"spares", recommended}}}};
}

Json sensitivity_json(const UncertaintyAnalysis& a) {
  Json bars = Json::array();
  for (const auto& b : a.tornado.bars)
    bars.push_back({{"input", b.input},
                    {"pointer", b.pointer},
                    {"base", b.base},
                    {"low", b.low},
                    {"high", b.high},
                    {"saving_at_low_usd", b.saving_at_low_usd},
                    {"saving_at_high_usd", b.saving_at_high_usd},
                    {"swing_usd", b.swing_usd}});
  // Coefficients sorted by |SRC|, largest first; inputs that did not vary (null) last.
  std::vector<std::size_t> order(a.spec.inputs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    const auto& sx = a.src.src[x];
    const auto& sy = a.src.src[y];
    if (sx.has_value() != sy.has_value()) return sx.has_value();
    return sx && std::fabs(*sx) > std::fabs(*sy);
  });
  Json src = Json::array();
  for (std::size_t i : order)
    src.push_back({{"input", a.spec.inputs[i].name}, {"pointer", a.spec.inputs[i].pointer}, {"src", optional_json(a.src.src[i])}});
  return {{"plan", a.plan_name},
          {"baseline", a.baseline},
          {"response", "npv_saving_usd"},
          {"paths", a.paths},
          {"seed", a.seed},
          {"tornado",
           {{"plan", a.tornado.plan},
            {"baseline", a.tornado.baseline},
            {"base_saving_usd", a.tornado.base_saving_usd},
            {"inputs", bars}}},
          {"src",
           {{"n", a.src.n},
            {"r_squared", optional_json(a.src.r_squared)},
            {"noise_level", a.src.n > 0 ? Json(2.0 / std::sqrt(static_cast<double>(a.src.n))) : Json(nullptr)},
            {"inputs", src}}},
          {"saving_usd", summary_json(a.saving_usd)},
          {"probability_saving", a.probability_saving}};
}

Json uncertainty_json(const UncertaintyAnalysis& a) {
  Json spec = to_json(a.spec);
  for (std::size_t i = 0; i < a.inputs.size(); ++i) {
    const Summary& v = a.inputs[i].values;
    spec["inputs"][i]["drawn"] = {{"mean", v.mean}, {"p10", v.p10}, {"p50", v.p50}, {"p90", v.p90},
                                  {"min", v.min},   {"max", v.max}};
  }
  Json payback = Json::array();
  for (const auto& d : a.breakevens.payback)
    payback.push_back({{"plan", d.plan},
                       {"baseline", d.baseline},
                       {"paths", d.paths},
                       {"never_paths", d.never_paths},
                       {"probability_within_horizon", d.probability_within_horizon},
                       {"p10_month", optional_json(d.p10_month)},
                       {"p50_month", optional_json(d.p50_month)},
                       {"p90_month", optional_json(d.p90_month)},
                       {"base_payback_month", optional_json(d.base_payback_month)}});
  Json price = Json::array();
  for (const auto& b : a.breakevens.price)
    price.push_back({{"plan", b.plan},
                     {"baseline", b.baseline},
                     {"prices", "on_demand+spot+reserved"},
                     {"crn_mean_multiplier", optional_json(b.crn_mean_multiplier)},
                     {"probability_cheaper_at_1", b.probability_cheaper_at_1}});
  Json plans = Json::array();
  Json comparisons = Json::array();
  for (const UncertainPlanStats& p : a.plans) {
    plans.push_back({{"name", p.name}, {"npv_usd", summary_json(p.npv_usd)}});
    if (p.npv_difference_usd)
      comparisons.push_back({{"plan", p.name},
                             {"baseline", a.baseline},
                             {"npv_difference_usd", summary_json(*p.npv_difference_usd)},
                             {"p_cheaper", p.p_cheaper}});
  }
  const auto& u = a.breakevens.utilization;
  return {{"paths", a.paths},
          {"seed", a.seed},
          {"model", "deterministic_hourly_fluid_per_path"},
          {"correlation_method", a.spec.rank_correlation.empty() ? "independent" : "iman_conover"},
          {"inputs", spec["inputs"]},
          {"rank_correlation", spec["rank_correlation"]},
          {"achieved_rank_correlation", a.achieved_rank_correlation},
          {"plans", plans},
          {"comparisons", comparisons},
          {"plan", a.plan_name},
          {"baseline", a.baseline},
          {"payback", payback},
          {"cloud_price_multiplier", price},
          {"utilization",
           {{"plan", u.plan},
            {"baseline", u.baseline},
            {"status", u.status},
            {"capacity_gpus", u.capacity_gpus},
            {"steady_demand_gpus", optional_json(u.steady_demand_gpus)},
            {"simulated_utilization", optional_json(u.utilization)},
            {"closed_form_utilization", optional_json(u.closed_form_utilization)},
            {"paths", u.paths}}}};
}

void add_uncertainty_sections(Json& report, const UncertaintyAnalysis& a) {
  report["sensitivity"] = sensitivity_json(a);
  report["uncertainty"] = uncertainty_json(a);
}

}  // namespace tco
