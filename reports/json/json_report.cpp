#include "reports/json/json_report.hpp"
#include "core/stats/summary_json.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

#include "core/io/finite_figures.hpp"
#include "core/io/utf8_text.hpp"
#include "models/catalog/figure_age.hpp"
#include "core/io/abridged_echo.hpp"
#include "engine/ledger/hidden_cost_booking.hpp"
#include "reports/json/api/api_json.hpp"
#include "reports/json/figure_ages_json.hpp"
#include "reports/json/commitments_json.hpp"
#include "reports/json/depreciation_json.hpp"
#include "reports/json/goodput_json.hpp"
#include "reports/json/procurement_json.hpp"
#include "reports/json/hourly_time_shift_json.hpp"
#include "reports/json/refresh_json.hpp"
#include "reports/json/venues_json.hpp"
#include "reports/json/implied_forward_json.hpp"
#include "reports/json/next_generation_json.hpp"

// Each section spells out its struct field by field, as reports/report.schema.json names them:
// alike in shape, but each list is its own part of the report's format.
namespace tco {

namespace {

// The `repair` category is in the report only when a plan of the scenario opts in with
// `onprem.spares`, `api` only when a plan buys tokens (the reports of every other scenario stay as
// they were).
struct OptionalCategories {
  bool repair = false;
  bool api = false;
  bool hidden = false;  // the hidden costs of renting, when a plan's cloud has some
};
bool shown(Category c, OptionalCategories with) {
  const bool is_hidden = std::find(std::begin(kHiddenCostCategories), std::end(kHiddenCostCategories), c) !=
                         std::end(kHiddenCostCategories);
  return (c != Category::repair || with.repair) && (c != Category::api || with.api) && (!is_hidden || with.hidden);
}

Json breakdown(const Ledger& ledger, double rate, bool discounted, OptionalCategories optional_categories) {
  Json out = Json::object();
  for (int c = 0; c < kCategoryCount; ++c) {
    const Category cat = category_at(c);
    if (!shown(cat, optional_categories)) continue;
    out[std::string(category_name(cat))] = discounted ? ledger.category_npv_usd(cat, rate) : ledger.category_total_usd(cat);
  }
  return out;
}

Json monthly_table(const PlanResult& r, double rate, OptionalCategories optional_categories) {
  Json columns = Json::array({"month"});
  for (int c = 0; c < kCategoryCount; ++c)
    if (shown(category_at(c), optional_categories)) columns.push_back(std::string(category_name(category_at(c))));
  for (const char* extra : {"total_usd", "cumulative_discounted_usd", "depreciation_usd", "peak_facility_kw",
                            "start_of_month_usd"})
    columns.push_back(extra);
  const auto cumulative = r.ledger.cumulative_discounted_usd(rate);
  Json rows = Json::array();
  for (int m = 0; m < r.ledger.months(); ++m) {
    Json row = Json::array({m});
    for (int c = 0; c < kCategoryCount; ++c)
      if (shown(category_at(c), optional_categories)) row.push_back(r.ledger.month_category_usd(m, category_at(c)));
    row.push_back(r.ledger.month_total_usd(m));
    row.push_back(cumulative[m]);
    row.push_back(r.depreciation_usd_by_month[m]);
    row.push_back(r.peak_facility_kw_by_month[m]);
    row.push_back(r.ledger.month_start_usd(m));  // discounted (1+r)^(-m/12); the rest (1+r)^(-(m+1)/12)
    rows.push_back(std::move(row));
  }
  return {{"columns", columns}, {"rows", rows}};
}

// The plan's GPU-hours and facility kWh month by month (the fluid model's; docs/report.md
// `plans[].quantities_by_month`): what the FOCUS export's quantities are.
Json quantities_by_month_table(const PlanResult& r) {
  Json rows = Json::array();
  for (std::size_t m = 0; m < r.gpu_hours_by_month.size(); ++m) {
    const GpuHours& g = r.gpu_hours_by_month[m];
    rows.push_back(Json::array({static_cast<int>(m), g.on_demand_billed, g.spot_billed, g.reserved_paid,
                                g.reserved_used, g.onprem_capacity, g.onprem_busy, g.useful,
                                m < r.facility_energy_kwh_by_month.size() ? r.facility_energy_kwh_by_month[m] : 0.0}));
  }
  return {{"columns", Json::array({"month", "on_demand_billed_gpu_hours", "spot_billed_gpu_hours",
                                   "reserved_paid_gpu_hours", "reserved_used_gpu_hours", "onprem_capacity_gpu_hours",
                                   "onprem_busy_gpu_hours", "useful_gpu_hours", "facility_kwh"})},
          {"rows", rows}};
}

// $ per million tokens on one basis; null figures when nothing was served.
Json usd_per_million_json(const std::optional<UsdPerMillionTokens>& p) {
  if (!p) return {{"blended", nullptr}, {"input", nullptr}, {"output", nullptr}};
  return {{"blended", p->blended}, {"input", p->input}, {"output", p->output}};
}

// A plan's token figures (engine/ledger/plan_tokens.hpp; docs/report.md `plans[].tokens`), only for a
// scenario whose workload has tokens.
Json plan_tokens_json(const PlanTokens& t) {
  const PlanTokenFigures& f = t.figures;
  return {{"demanded", f.tokens_demanded},
          {"served", f.tokens_served},
          {"unserved", f.tokens_unserved},
          {"input_served", f.input_tokens_served},
          {"output_served", f.output_tokens_served},
          {"cost_usd", f.cost_usd},
          {"busy_cost_usd", f.busy_cost_usd},
          {"output_token_cost_weight", f.output_cost_weight},
          {"usd_per_million_tokens",
           {{"reservation_basis", usd_per_million_json(f.reservation)}, {"usage_basis", usd_per_million_json(f.usage)}}},
          {"serving_profile", t.serving_profile},
          {"gpus_per_replica", t.gpus_per_replica},
          {"replicas_at_peak", t.replicas_at_peak},
          {"per_facility_mwh", optional_json(t.tokens_per_facility_mwh)},
          {"per_s_per_peak_facility_mw", optional_json(t.tokens_per_s_per_peak_facility_mw)}};
}

// Percentiles of a latency (seconds), with the exact mean where it is kept; null without a request.
Json latency_json(const serving::LatencyHistogram& h, std::optional<double> sum_s) {
  const bool any = h.count() > 0;
  Json out = Json::object();
  if (sum_s) out["mean"] = any ? Json(*sum_s / static_cast<double>(h.count())) : Json(nullptr);
  for (auto [key, p] : {std::pair{"p50", 0.5}, std::pair{"p90", 0.9}, std::pair{"p99", 0.99}})
    out[key] = any ? Json(h.percentile(p)) : Json(nullptr);
  return out;
}

// Each per-path figure's Monte Carlo statistics, as costs have them (summary_json); null for a
// figure some path has no value of (a percentile of a path with no request served). The share
// within the slo is worst when low, every other figure when high (its CVaR95).
Json latency_across_paths_json(const PlanLatency& l) {
  Json out = Json::object();
  for (const LatencyPathFigure& f : l.across_paths) {
    const bool whole = !f.values.empty() && static_cast<long>(f.values.size()) == l.paths;
    const WorstTail worst = std::string(f.key) == "share_within_slo" ? WorstTail::low : WorstTail::high;
    out[f.key] = whole ? summary_json(summarize(f.values, worst)) : Json(nullptr);
  }
  return out;
}

// TTFT against load: the served requests of each load bin that has any (engine/des/serving/request_replay.hpp
// LoadBin), its mean requests/s and TTFT percentiles, lightest first.
Json latency_by_load_json(const serving::RequestReplayStats& st) {
  Json out = Json::array();
  for (const serving::LoadBin& b : st.by_load) {
    if (b.served == 0) continue;
    out.push_back({{"requests_per_s", b.requests_per_s_sum / static_cast<double>(b.served)},
                   {"served", b.served},
                   {"ttft_s", latency_json(b.ttft_s, std::nullopt)}});
  }
  return out;
}

// The overflow venues' figures a path (tokens they served, requests, replica-hours, $); [] without.
Json latency_venues_json(const PlanLatency& l) {
  Json out = Json::array();
  const double paths = static_cast<double>(l.paths);
  for (std::size_t v = 0; v < l.venues.size(); ++v) {
    const VenueLatency& venue = l.venues[v];
    const serving::VenueStats& st = l.stats.venues[v];
    out.push_back({{"name", venue.name},
                   {"max_replicas", venue.max_replicas},
                   {"max_wait_s", venue.max_wait_s},
                   {"startup_s", venue.startup_s},
                   {"usd_per_replica_hour", venue.usd_per_replica_hour},
                   {"entered_per_path", static_cast<double>(st.entered) / paths},
                   {"served_per_path", static_cast<double>(st.served) / paths},
                   {"tokens_per_path", st.tokens_served / paths},
                   {"launched_per_path", static_cast<double>(st.launched) / paths},
                   {"billed_replica_hours_per_path", venue.billed_replica_hours},
                   {"usd_per_path", venue.usd}});
  }
  return out;
}

// A plan's latency under its requests (engine/des/serving/plan_latency.hpp; docs/report.md
// `plans[].latency`), only for a scenario whose workload has requests; null for a plan of kind api.
Json plan_latency_json(const std::optional<PlanLatency>& l) {
  if (!l) return nullptr;
  const serving::RequestReplayStats& st = l->stats;
  const bool served = st.served > 0;
  const double paths = static_cast<double>(l->paths);
  const double rented_tokens = st.rented_tokens_served / paths;
  Json scaling = nullptr;
  if (l->max_scaled_replicas > 0)
    scaling = {{"max_replicas", l->max_scaled_replicas},
               {"launched_per_path", static_cast<double>(st.rented_launched) / paths},
               {"most_at_once", st.max_rented_running}};
  return {{"replicas", l->replicas},
          {"owned_replicas", l->owned_replicas},
          {"rented_scaling", std::move(scaling)},
          {"gpus_per_replica", l->gpus_per_replica},
          {"max_concurrency", l->max_concurrency},
          {"hours", l->hours},
          {"paths", l->paths},
          {"requests",
           {{"arrived", st.arrived}, {"served", st.served}, {"dropped", st.dropped}, {"waited", st.waited},
            {"within_slo", st.within_slo}, {"to_api", st.to_api}}},
          {"share_within_slo", st.arrived > 0 ? Json(static_cast<double>(st.within_slo) / st.arrived) : Json(nullptr)},
          {"wait_s", latency_json(st.wait_s, st.wait_s_sum)},
          {"ttft_s", latency_json(st.ttft_s, st.ttft_s_sum)},
          {"tpot_s", latency_json(st.tpot_s, std::nullopt)},
          {"e2e_s", latency_json(st.e2e_s, st.e2e_s_sum)},
          {"max_queue", st.max_queue},
          {"input_tokens_served", st.input_tokens_served},
          {"output_tokens_served", st.output_tokens_served},
          {"hourly_model_tokens", l->hourly_model_tokens},
          {"tokens_served_per_path",
           {{"owned", (st.input_tokens_served + st.output_tokens_served) / paths - rented_tokens},
            {"rented", rented_tokens},
            {"api", (st.api_input_tokens + st.api_output_tokens) / paths}}},
          {"rented_replica_hours_per_path", l->rented_replica_hours},
          {"rented_usd_per_path", l->rented_usd},
          {"api_overflow_usd_per_path", l->api_usd},
          {"usd_basis", kReplayUsdBasis},
          {"venues", latency_venues_json(*l)},
          {"busy_gpu_hours", served ? Json(st.busy_replica_s * l->gpus_per_replica / 3600.0) : Json(0.0)},
          {"across_paths", latency_across_paths_json(*l)},
          {"by_load", latency_by_load_json(st)}};
}

Json plan_json(const Plan& plan, const PlanResult& r, double rate, OptionalCategories optional_categories) {
  const auto& g = r.gpu_hours;
  Json out = {{"name", plan.name},
              {"kind", to_string(plan.kind)},
              {"onprem_nodes", plan.onprem_nodes},
              {"total_nominal_usd", r.total_usd},
              {"npv_usd", r.npv_usd},
              {"usd_per_useful_gpu_hour", optional_json(r.usd_per_useful_gpu_hour)},
              {"breakdown_nominal_usd", breakdown(r.ledger, rate, false, optional_categories)},
              {"breakdown_npv_usd", breakdown(r.ledger, rate, true, optional_categories)},
              {"onprem_utilization", optional_json(r.onprem_utilization)},
              {"gpu_hours",
               {{"useful", g.useful},
                {"onprem_busy", g.onprem_busy},
                {"onprem_capacity", g.onprem_capacity},
                {"reserved_used", g.reserved_used},
                {"reserved_paid", g.reserved_paid},
                {"spot_billed", g.spot_billed},
                {"on_demand_billed", g.on_demand_billed},
                {"cloud_work", g.cloud_work},
                {"waited", g.waited},
                {"unserved", g.unserved}}},
              {"energy",
               {{"it_kwh", r.it_energy_kwh},
                {"facility_kwh", r.facility_energy_kwh},
                {"peak_facility_kw", r.peak_facility_kw},
                {"throttled_hours", r.throttled_hours}}},
              {"facility",
               {{"nodes_per_rack", r.facility.nodes_per_rack},
                {"racks", r.facility.racks},
                {"rack_peak_kw", r.facility.rack_peak_kw},
                {"airflow_cfm_per_rack", r.facility.airflow_cfm_per_rack},
                {"provisioned_it_kw", r.facility.provisioned_it_kw}}},
              {"co2_kg", {{"onprem", r.co2_onprem_kg}, {"cloud", optional_json(r.co2_cloud_kg)}, {"embodied", r.co2_embodied_kg}}},
              {"depreciation_total_usd", r.depreciation_total_usd},
              {"monthly", monthly_table(r, rate, optional_categories)}};
  // Only for a scenario that opts in to a depreciation view, so other reports keep their bytes.
  if (plan.onprem && r.depreciation_views) out["depreciation_views"] = depreciation_views_json(plan, *r.depreciation_views);
  if (r.procurement) out["procurement"] = procurement_json(*r.procurement);
  if (r.goodput) out["goodput"] = goodput_json(*r.goodput, plan.onprem->spare_nodes());
  if (!r.gpu_hours_by_month.empty()) out["quantities_by_month"] = quantities_by_month_table(r);
  if (!r.venues.empty()) out["venues"] = venues_json(r);
  if (!r.commitments.empty()) out["commitments"] = commitments_json(r.commitments);
  if (r.refresh) out["refresh"] = refresh_json(*r.refresh, plan.refresh->months_after_arrival);
  if (r.time_shift) out["hourly_time_shift"] = hourly_time_shift_json(*r.time_shift);
  if (r.api) out["api"] = api_figures_json(*r.api);
  return out;
}

// The path the breakeven priced the cloud on: today's price, its change a year (and a schedule when
// the scenario has one), and where it stands at the end of the horizon and of the node's life.
Json price_path_json(const UtilizationBreakeven& b) {
  return {{"start_usd_per_gpu_hour", b.start_usd_per_gpu_hour},
          {"change_per_year", b.price_change_per_year},
          {"scheduled", b.price_scheduled},
          {"horizon_end_usd_per_gpu_hour", b.over_horizon.end_usd_per_gpu_hour},
          {"life_end_usd_per_gpu_hour", b.life_end_usd_per_gpu_hour}};
}

Json verdict_json(const Scenario& s, const ScenarioRun& run) {
  const Recommendation& r = run.recommendation;
  const PlanResult& chosen = run.plans[r.plan];
  const std::string& name = s.plans[r.plan].name;
  Json saving = nullptr;
  for (const auto& c : run.comparisons)
    if (c.plan == name) saving = c.npv_saving_usd;
  Json passed_over = nullptr;
  if (r.passed_over)
    passed_over = {{"plan", s.plans[*r.passed_over].name},
                   {"npv_usd", run.plans[*r.passed_over].npv_usd},
                   {"unserved_gpu_hours", run.plans[*r.passed_over].gpu_hours.unserved}};
  // A token workload names its unserved tokens beside the GPU-hours (only there: other reports keep their bytes).
  if (r.passed_over && !run.tokens.empty())
    passed_over["unserved_tokens"] = run.tokens[*r.passed_over].figures.tokens_unserved;
  Json breakeven = nullptr;
  if (r.breakeven) {
    const UtilizationBreakeven& b = run.utilization_breakevens[*r.breakeven];
    breakeven = {{"server", b.server_id},
                 {"fleet_nodes", b.fleet_nodes},
                 {"offer", b.offer_id},
                 {"price_basis", b.price_basis},
                 {"cloud_usd_per_gpu_hour", b.cloud_usd_per_gpu_hour},
                 {"price_path", price_path_json(b)},
                 {"life_months", b.life_months},
                 {"utilization", optional_json(b.utilization)},
                 {"gpu_hours_per_month_per_node", optional_json(b.gpu_hours_per_month)},
                 {"horizon_months", b.over_horizon.months},
                 {"resale_at_end", b.resale_at_end},
                 {"utilization_over_horizon", optional_json(b.over_horizon.utilization)},
                 {"gpu_hours_per_month_per_node_over_horizon", optional_json(b.over_horizon.gpu_hours_per_month)}};
  }
  Json lowest_nominal = nullptr;
  if (r.lowest_nominal) {
    const PlanResult& low = run.plans[*r.lowest_nominal];
    // How far the cheaper-in-dollars plan's spending runs ahead of the recommended plan's: the
    // largest cumulative nominal excess, and the month it is reached.
    double excess_usd = 0.0, peak_usd = 0.0;
    int peak_month = 0;
    for (int m = 0; m < low.ledger.months(); ++m) {
      excess_usd += low.ledger.month_total_usd(m) - chosen.ledger.month_total_usd(m);
      if (excess_usd > peak_usd) {
        peak_usd = excess_usd;
        peak_month = m;
      }
    }
    lowest_nominal = {{"plan", s.plans[*r.lowest_nominal].name},
                      {"total_nominal_usd", low.total_usd},
                      {"npv_usd", low.npv_usd},
                      {"unserved_gpu_hours", low.gpu_hours.unserved},
                      {"peak_extra_spending_usd", peak_usd},
                      {"peak_extra_spending_month", peak_month}};
  }
  Json tax = {{"basis", "before_tax"}, {"rate", nullptr}};
  for (const Plan& p : s.plans)
    if (p.onprem && p.onprem_nodes > 0 && p.onprem->tax_shield_enabled && p.onprem->tax_rate > 0.0)
      tax = {{"basis", "tax_shield_on_owned_hardware"}, {"rate", p.onprem->tax_rate}};
  Json verdict = {{"plan", name},
                  {"baseline", s.plans[s.baseline_index].name},
                  {"npv_usd", chosen.npv_usd},
                  {"npv_saving_usd", saving},
                  {"unserved_gpu_hours", chosen.gpu_hours.unserved},
                  {"waiting_priced", r.waiting_priced},
                  {"passed_over", passed_over},
                  {"lowest_nominal", lowest_nominal},
                  {"tax", tax},
                  {"breakeven", breakeven}};
  if (!run.tokens.empty()) verdict["unserved_tokens"] = run.tokens[r.plan].figures.tokens_unserved;
  return verdict;
}

Json over_months_json(const BreakevenOverMonths& b) {
  return {{"months", b.months},
          {"pv_fixed_usd", b.pv_fixed_usd},
          {"pv_dynamic_energy_per_u_usd", b.pv_dynamic_energy_per_u_usd},
          {"pv_cloud_per_u_usd", b.pv_cloud_per_u_usd},
          {"end_usd_per_gpu_hour", b.end_usd_per_gpu_hour},
          {"utilization", optional_json(b.utilization)},
          {"gpu_hours_per_month", optional_json(b.gpu_hours_per_month)}};
}

Json comparison_json(const Comparison& c) {
  return {{"plan", c.plan},
          {"baseline", c.baseline},
          {"npv_saving_usd", c.npv_saving_usd},
          {"nominal_saving_usd", c.nominal_saving_usd},
          {"payback_month", optional_json(c.payback_month)},
          {"irr_per_year", optional_json(c.irr_per_year)},
          {"starts_with_investment", c.starts_with_investment}};
}

Json finding_json(const Finding& f) {
  return {{"severity", f.severity == Finding::Severity::error ? "error" : "warning"},
          {"code", f.code},
          {"where", escaped_text(f.where)},
          {"message", escaped_text(f.message, LineBreaks::keep)}};
}

}  // namespace

Json report_json(const Scenario& s, const ScenarioRun& run, const RunMetadata& meta) {
  const double rate = s.discount_rate_per_year;
  Json report;
  report["schema_version"] = kReportSchemaVersion;
  report["tool"] = {{"name", "tcosim"}, {"version", TCO_VERSION}};
  report["run"] = {{"command", meta.command}, {"threads", meta.threads}};
  if (meta.ranks > 1) report["run"]["ranks"] = meta.ranks;
  if (meta.gathered_bytes > 0) {
    report["run"]["gathered_bytes"] = meta.gathered_bytes;
    report["run"]["root_wait_for_ranks_s"] = meta.root_wait_for_ranks_s;
    report["run"]["root_gather_and_statistics_s"] = meta.root_gather_and_statistics_s;
  }
  Json records = pricing_records_json(s.records_used);
  const std::string oldest = oldest_figure_as_of(s.records_used);
  report["scenario"] = {{"name", s.name},
                        {"description", s.description},
                        {"file", escaped_text(s.file)},  // a file name need not be UTF-8; JSON text must
                        {"digest_sha256", s.scenario_digest_sha256},
                        {"start", format_date(s.start)},
                        {"horizon_months", s.horizon_months},
                        {"discount_rate_per_year", rate},
                        {"waiting_usd_per_gpu_hour", s.waiting_usd_per_gpu_hour},
                        {"baseline", s.plans[s.baseline_index].name}};
  report["pricing"] = {{"catalog_digest_sha256", s.catalog_digest_sha256},
                       {"oldest_as_of", oldest.empty() ? Json(nullptr) : Json(oldest)},
                       {"records", std::move(records)}};
  // Only offers with a 1-year / 3-year pair have one, so other reports keep their bytes.
  if (Json forwards = implied_forwards_json(s); !forwards.empty())
    report["pricing"]["implied_forwards"] = std::move(forwards);
  report["monte_carlo"] = {{"seed", nullptr}, {"paths", 1}, {"mode", "deterministic"}};
  Json plans_in = Json::array();
  for (const auto& p : s.plans) plans_in.push_back(abridged_echo(p.resolved));
  report["inputs"] = {{"workload", abridged_echo(to_json(s.workload))}, {"plans", std::move(plans_in)}};
  if (s.next_generation) report["inputs"]["next_generation"] = abridged_echo(s.next_generation->as_written);
  if (Json next_generation = next_generation_json(s); !next_generation.is_null())
    report["next_generation"] = std::move(next_generation);
  report["demand"] = {{"gpu_hours", run.demand.gpu_hours},
                      {"mean_gpus", run.demand.mean_gpus},
                      {"peak_gpus", run.demand.peak_gpus}};

  Json plans = Json::array();
  OptionalCategories optional_categories;
  optional_categories.repair = std::any_of(s.plans.begin(), s.plans.end(), [](const Plan& p) { return p.onprem && p.onprem->spares; });
  optional_categories.api = std::any_of(s.plans.begin(), s.plans.end(), [](const Plan& p) { return p.uses_api(); });
  optional_categories.hidden =
      std::any_of(s.plans.begin(), s.plans.end(), [](const Plan& p) { return rented_hidden_costs(p) != nullptr; });
  for (std::size_t i = 0; i < s.plans.size(); ++i) {
    plans.push_back(plan_json(s.plans[i], run.plans[i], rate, optional_categories));
    if (!run.tokens.empty()) plans.back()["tokens"] = plan_tokens_json(run.tokens[i]);
    if (!run.latency.empty()) plans.back()["latency"] = plan_latency_json(run.latency[i]);
  }
  report["plans"] = std::move(plans);  // moved, not copied: the largest part of a report

  Json comparisons = Json::array();
  for (const auto& c : run.comparisons) comparisons.push_back(comparison_json(c));
  report["comparisons"] = std::move(comparisons);
  Json recommended = Json::array();
  for (const auto& c : run.recommended_comparisons) recommended.push_back(comparison_json(c));
  report["recommended_comparisons"] = std::move(recommended);

  Json utilization = Json::array();
  const auto& deciding = run.recommendation.deciding_breakevens;
  for (std::size_t i = 0; i < run.utilization_breakevens.size(); ++i) {
    const UtilizationBreakeven& b = run.utilization_breakevens[i];
    utilization.push_back({{"server", b.server_id},
                           {"decides", std::binary_search(deciding.begin(), deciding.end(), i)},
                           {"price_path", price_path_json(b)},
                           {"over_horizon", over_months_json(b.over_horizon)},
                           {"offer", b.offer_id},
                           {"plan", b.plan},
                           {"fleet_nodes", b.fleet_nodes},
                           {"price_basis", b.price_basis},
                           {"cloud_usd_per_gpu_hour", b.cloud_usd_per_gpu_hour},
                           {"life_months", b.life_months},
                           {"pv_fixed_usd", b.pv_fixed_usd},
                           {"pv_dynamic_energy_per_u_usd", b.pv_dynamic_energy_per_u_usd},
                           {"pv_cloud_per_u_usd", b.pv_cloud_per_u_usd},
                           {"utilization", optional_json(b.utilization)},
                           {"gpu_hours_per_month", optional_json(b.gpu_hours_per_month)}});
  }
  Json price = Json::array();
  for (const auto& b : run.price_breakevens) {
    const bool against_baseline = b.baseline == s.plans[s.baseline_index].name;
    price.push_back({{"plan", b.plan}, {"baseline", b.baseline}, {"prices", "on_demand+spot+reserved"},
                     {"cloud_price_multiplier", optional_json(b.cloud_price_multiplier)},
                     {"reference", against_baseline ? "baseline" : "recommended"}});
  }
  report["breakevens"] = {{"utilization", std::move(utilization)}, {"cloud_price_multiplier", std::move(price)}};
  // Only beside a plan of kind api, so other reports keep their bytes.
  if (!run.api_breakevens.empty()) report["breakevens"]["self_host_vs_api"] = api_breakevens_json(run.api_breakevens);
  report["verdict"] = verdict_json(s, run);

  Json warnings = Json::array();
  for (const auto& w : run.warnings) warnings.push_back(finding_json(w));
  report["warnings"] = std::move(warnings);
  if (!meta.today.empty()) add_figure_ages(report, s.records_used, meta.today, meta.max_age_days);
  return report;
}

std::string report_text(const Json& report) {
  const Json* file = report.contains("scenario") ? &report.at("scenario") : nullptr;
  require_finite_figures(report, file && file->contains("file") ? file->at("file").get<std::string>() : "");
  return report.dump(2) + "\n";
}

namespace {

Json comparisons_json(const std::vector<McComparisonStats>& comparisons) {
  Json out = Json::array();
  for (const McComparisonStats& c : comparisons)
    out.push_back({{"plan", c.plan},
                   {"baseline", c.baseline},
                   {"npv_difference_usd", summary_json(c.npv_difference_usd)},
                   {"nominal_difference_usd", summary_json(c.nominal_difference_usd)},
                   {"p_cheaper", c.p_cheaper}});
  return out;
}

}  // namespace

void add_fluid_monte_carlo(Json& report, const FluidMonteCarloRun& mc) {
  Json plans = Json::array();
  for (const McPlanStats& p : mc.plans)
    plans.push_back({{"name", p.name},
                     {"npv_usd", summary_json(p.npv_usd)},
                     {"total_nominal_usd", summary_json(p.total_nominal_usd)}});
  report["monte_carlo"] = {{"mode", "fluid"},
                           {"model", "hourly_fluid_per_path"},
                           {"seed", mc.seed},
                           {"paths", mc.paths},
                           {"plans", plans},
                           {"comparisons", comparisons_json(mc.comparisons)}};
}

Json report_json(const Scenario& s, const MonteCarloRun& mc, const RunMetadata& meta) {
  Json report = report_json(s, mc.run, meta);
  Json plans = Json::array();
  for (std::size_t k = 0; k < mc.plans.size(); ++k) {
    const McPlanStats& p = mc.plans[k];
    Json jobs = Json::object();
    for (std::size_t i = 0; i < p.job_means.size(); ++i) jobs[job_counter_names()[i]] = p.job_means[i];
    plans.push_back({{"name", p.name},
                     {"npv_usd", summary_json(p.npv_usd)},
                     {"total_nominal_usd", summary_json(p.total_nominal_usd)},
                     {"jobs_mean_per_path", std::move(jobs)},
                     {"events_per_path", p.events_per_path},
                     {"scheduling", to_json(s.plans[k].scheduling)}});
    if (p.goodput) plans.back()["goodput"] = summary_json(*p.goodput);
  }
  Json advice = Json::array();
  for (const CheckpointAdvice& a : mc.checkpoint_advice) {
    advice.push_back({{"plan", a.plan},
                      {"class", a.job_class},
                      {"mean_gpus", a.mean_gpus},
                      {"instances", a.instances},
                      {"preemptions_per_hour", a.preemptions_per_hour},
                      {"checkpoint_write_h", a.checkpoint_write_h},
                      {"young_interval_h", a.young_interval_h}});
  }
  report["monte_carlo"] = {{"mode", "discrete_event"},
                           {"seed", mc.seed},
                           {"paths", mc.paths},
                           {"batch_paths", mc.batch_paths},
                           {"target_ci_usd", mc.target_ci_usd ? Json(*mc.target_ci_usd) : Json(nullptr)},
                           {"max_comparison_ci95_half_width_usd", mc.paths >= 2 ? Json(mc.max_comparison_half_width_usd)
                                                                               : Json(nullptr)},
                           {"jobs_path0", mc.jobs_per_path},
                           {"jobs", to_json(*s.jobs)},
                           {"plans", std::move(plans)},
                           {"comparisons", comparisons_json(mc.comparisons)},
                           {"checkpoint_advice", std::move(advice)}};
  return report;
}

}  // namespace tco
