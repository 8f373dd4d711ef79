#include "models/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "core/io/integer_fields.hpp"
#include "core/io/input_snapshot.hpp"
#include "core/io/sha256.hpp"
#include "core/io/utf8_text.hpp"
#include "models/catalog/catalog.hpp"
#include "models/catalog/catalog_source.hpp"
#include "models/catalog/catalog_validation.hpp"
#include "models/catalog/record_json.hpp"
#include "models/catalog/record_resolver.hpp"
#include "models/cloud/cloud_reader.hpp"
#include "models/commitment/savings_plan_venues.hpp"
#include "models/input_limits.hpp"
#include "models/next_generation/next_generation.hpp"
#include "models/onprem/onprem_reader.hpp"
#include "models/onprem/refresh_reader.hpp"
#include "models/price_path/price_indices.hpp"
#include "models/scenario_warnings.hpp"
#include "models/site/cooling.hpp"
#include "models/venues/venues_reader.hpp"
#include "models/serving/plan_serving.hpp"
#include "models/serving/token_demand.hpp"
#include "models/serving/request_workload.hpp"

namespace tco {

namespace fs = std::filesystem;

std::string to_string(Plan::Kind kind) {
  switch (kind) {
    case Plan::Kind::cloud: return "cloud";
    case Plan::Kind::onprem: return "onprem";
    case Plan::Kind::hybrid: return "hybrid";
    case Plan::Kind::api: return "api";
  }
  return "?";
}

double Plan::reserved_usd_per_instance_hour() const {
  if (!cloud || reserved_instances == 0) return 0.0;
  const auto& offer = cloud->offer;
  return offer.reserved_usd_per_hour(reserved_term_months).value_or(0.0);
}

namespace {

std::string file_digest(const std::string& path) { return sha256_hex(read_input_file(path).value_or(std::string())); }

// A plan's section is the scenario's section with the plan's patch applied. An error in it
// points into the plan when the plan wrote that field, or an object around it that stands alone
// in the merge (the scenario has none there: the plan's `"server": {...}` in place of the
// scenario's catalog id), else into the scenario's own section.
InputError attribute_section_error(const InputError& e, const std::string& plan_section, const std::string& base_section,
                                   const Json& patch, const Json& base) {
  if (e.where().rfind(plan_section, 0) != 0) return e;
  const std::string suffix = e.where().substr(plan_section.size());
  const std::string field = suffix.substr(0, suffix.find(' '));
  if (field.empty() || !patch.is_object()) return field.empty() ? e : InputError(e.file(), base_section + suffix, e.message());
  const auto holds = [](const Json& doc, const std::string& pointer) {
    try {
      return doc.contains(Json::json_pointer(pointer));
    } catch (const Json::exception&) {
      return false;
    }
  };
  if (holds(patch, field)) return e;
  for (std::size_t cut = field.rfind('/'); cut != std::string::npos && cut > 0; cut = field.rfind('/', cut - 1)) {
    const std::string around = field.substr(0, cut);
    if (holds(patch, around) && patch.at(Json::json_pointer(around)).is_object() &&
        !(holds(base, around) && base.at(Json::json_pointer(around)).is_object()))
      return e;
  }
  return InputError(e.file(), base_section + suffix, e.message());
}

// The site feeds the plan's IT load from its energization on (models/site/site_capacity.hpp). The
// earliest delivery is the planned one less what a drawn slip can take off (a triangular's low,
// a lognormal's zero).
void check_site_capacity(const OnPremSpec& o, const Plan& p, const std::string& onprem_pointer, const std::string& file) {
  const SiteCapacity& site = o.site;
  const int installed = owned_nodes(p);  // hot spares are racked and powered too
  const double it_kw = installed * o.server.peak_kw;
  if (site.power_cap_mw && it_kw > *site.power_cap_mw * 1000.0)
    throw InputError(file, onprem_pointer + "/site/power_cap_mw",
                     fmt::format("plan \"{}\" installs {} nodes x {} kW = {:.1f} kW of IT load; the site feeds "
                                 "{} MW = {:.1f} kW: at most {} nodes fit (fewer nodes, or a larger site)",
                                 p.name, installed, o.server.peak_kw, it_kw, *site.power_cap_mw,
                                 *site.power_cap_mw * 1000.0,
                                 static_cast<long>(std::floor(*site.power_cap_mw * 1000.0 / o.server.peak_kw))));
  if (p.onprem_nodes == 0) return;
  int earliest = o.purchase_month;
  if (o.procurement && !o.procurement->slip_drawn) earliest = o.planned_delivery_month();
  if (o.delivery_drawn() && o.procurement->slip.type == UncertainDistribution::Type::triangular)
    earliest += whole_slip_months(o.procurement->slip.low);
  if (earliest < site.energized_month)
    throw InputError(file, onprem_pointer + "/purchase_month",
                     fmt::format("plan \"{}\" has its hardware delivered as early as month {}, before the site is "
                                 "energized in month {}: move purchase_month (or the site's energized_month)",
                                 p.name, earliest, site.energized_month));
}

// The discrete-event replay moves a refreshing plan's jobs to the successor fleet at the cutover
// (engine/des/fleet_events.cpp), runs jobs on take-or-pay contracts and capacity blocks
// (engine/des/cloud/committed_pool.hpp) and applies a savings plan's dollars to its on-demand hours
// (engine/des/cloud/savings_plan_meter.hpp; docs/des.md). Time shifting plans its holds on one fleet.
void check_replay_plans(const Scenario& s) {
  if (!s.jobs) return;
  for (std::size_t i = 0; i < s.plans.size(); ++i) {
    if (s.plans[i].refresh && s.plans[i].scheduling.time_shift)
      throw InputError(s.file, "/plans/" + std::to_string(i) + "/refresh",
                       fmt::format("plan \"{}\" shifts time and refreshes its fleet: not modelled together yet (the "
                                   "shift is planned on one fleet); remove one of the two",
                                   s.plans[i].name));
    const std::vector<Commitment>& commitments = s.plans[i].commitments;
    // Without a trace every job class is a generator's: a commitment kept for another would
    // stay idle, paid for nothing (a typo, or the generator's default class misremembered).
    std::vector<std::string> classes;
    for (const auto& g : s.jobs->poisson) classes.push_back(g.traits.job_class);
    for (const auto& g : s.jobs->campaigns) classes.push_back(g.traits.job_class);
    for (const auto& g : s.jobs->steady) classes.push_back(g.traits.job_class);
    for (std::size_t k = 0; k < commitments.size(); ++k)
      if (s.jobs->trace_file.empty() && !commitments[k].job_class.empty() &&
          std::find(classes.begin(), classes.end(), commitments[k].job_class) == classes.end())
        throw InputError(s.file, "/plans/" + std::to_string(i) + "/commitments/" + std::to_string(k) + "/job_class",
                         fmt::format("expected the class of some job (the jobs' classes: {}), found \"{}\": the "
                                     "commitment would run nothing",
                                     fmt::join(classes, ", "), commitments[k].job_class));
  }
}

// Time shifting in the hourly model (engine/ledger/hourly_time_shift.hpp) moves the workload's
// deferrable share on one fleet, planned once: a plan that shifts needs that share, and does not
// refresh (its fleet would change under the plan, at a month that moves per path).
void check_hourly_time_shifts(const Scenario& s) {
  if (s.jobs) return;
  for (std::size_t i = 0; i < s.plans.size(); ++i) {
    const Plan& p = s.plans[i];
    if (!p.scheduling.time_shift) continue;
    const std::string pointer = "/plans/" + std::to_string(i);
    if (!s.workload.deferrable)
      throw InputError(s.file, pointer + "/scheduling/time_shift",
                       fmt::format("plan \"{}\" shifts time, but the workload says no work may wait: give "
                                   "workload.deferrable {{\"share\", \"max_delay_h\"}} (the share of each hour's "
                                   "demand that may run up to max_delay_h hours later)",
                                   p.name));
    if (p.refresh)
      throw InputError(s.file, pointer + "/refresh",
                       fmt::format("plan \"{}\" shifts time and refreshes its fleet: not modelled together yet (the "
                                   "shift is planned on one fleet); remove one of the two",
                                   p.name));
  }
}

// A scenario of jobs alone draws its uncertain inputs in the discrete-event replay: an input the
// replay never reads would draw a spread that moves nothing, and a drawn horizon would give the
// paths ledgers of different lengths to average.
void check_replayed_uncertain(const UncertainSpec& spec, const std::string& file) {
  for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
    const std::string& pointer = spec.inputs[i].pointer;
    const std::string field = pointer.substr(pointer.rfind('/') + 1);
    const std::string where = fmt::format("/uncertain/inputs/{}/pointer", i);
    if (field == "spot_overhead_factor" || field == "packing_efficiency")
      throw InputError(file, where,
                       fmt::format("\"{}\" is read only by the hourly fluid model; a scenario of jobs draws its "
                                   "uncertain inputs in the discrete-event replay, which bills each job's own "
                                   "instances and ignores it: leave it out of the section, or give an hourly "
                                   "\"workload\"",
                                   pointer));
    if (pointer == "/horizon_months")
      throw InputError(file, where,
                       "\"/horizon_months\" cannot be drawn in a scenario of jobs: the discrete-event replay's "
                       "paths share one horizon");
  }
}

// What the hourly fluid model's paths (`run --paths` without jobs, `uncertain`, sweeps) cannot do:
// draw a delivery slip per path (docs/model.md "Procurement"), or keep a carbon price out of the
// monthly power price shocks (docs/model.md "Carbon").
void check_drawn_deliveries(const Scenario& s, const Json& plans, bool has_workload) {
  for (std::size_t i = 0; i < s.plans.size(); ++i) {
    const Plan& p = s.plans[i];
    const bool hourly_paths = !s.jobs || (s.uncertain && has_workload);
    if (p.onprem && p.onprem_nodes > 0 && hourly_paths && p.onprem->carbon.usd_per_tonne > 0.0 &&
        p.onprem->power.monthly_price_sigma > 0.0)
      throw InputError(s.file, "/onprem/carbon/usd_per_tonne",
                       fmt::format("plan \"{}\" prices its CO2 and draws monthly power price shocks; the hourly "
                                   "model's paths would shock the carbon price too: use one of the two, or a \"jobs\" "
                                   "section (the discrete-event Monte Carlo)",
                                   p.name));
    if (!p.onprem || !p.onprem->delivery_drawn() || !hourly_paths) continue;
    const Json& plan_json = plans[i];
    const bool in_plan = plan_json.contains("onprem") && plan_json["onprem"].is_object() &&
                         plan_json["onprem"].contains("procurement");
    const std::string where = (in_plan ? "/plans/" + std::to_string(i) : std::string()) +
                              "/onprem/procurement/delivery_slip_months";
    throw InputError(s.file, where,
                     fmt::format("plan \"{}\" draws its delivery slip per path, which only the discrete-event Monte "
                                 "Carlo does: the scenario needs a \"jobs\" section{}; or give a fixed slip in months",
                                 p.name, s.uncertain ? " and no \"uncertain\" section (evaluated with the hourly model)" : ""));
  }
}

// Gives each refreshing plan its successor and refresh month, and checks the successor fleet fits
// the site (power cap, racks) as the old one must.
void fill_refreshes(Scenario& s) {
  for (std::size_t i = 0; i < s.plans.size(); ++i) {
    Plan& p = s.plans[i];
    if (!p.refresh) continue;
    const std::string pointer = "/plans/" + std::to_string(i) + "/refresh";
    if (!s.next_generation || !s.next_generation->successor_server)
      throw InputError(s.file, s.next_generation ? "/next_generation" : pointer,
                       fmt::format("plan \"{}\" refreshes its fleet with the next generation's server: expected "
                                   "next_generation.successor_server (a catalog server id){}",
                                   p.name, s.next_generation ? "" : ", and the scenario has no next_generation"));
    const NextGenerationSpec& g = *s.next_generation;
    const OnPremSpec& o = *p.onprem;
    if (o.server.gpu_model != g.predecessor_gpu)
      throw InputError(s.file, pointer,
                       fmt::format("plan \"{}\" owns {} GPUs, not the predecessor \"{}\" the next generation "
                                   "replaces: only a predecessor fleet is refreshed",
                                   p.name, o.server.gpu_model, g.predecessor_gpu));
    PlanRefresh& f = *p.refresh;
    f.server = *g.successor_server;
    f.gpu = g.successor_gpu;
    f.month = f.month_for(g.arrival_month, o.planned_delivery_month());
    const double it_kw = f.nodes * f.server.peak_kw;
    if (o.site.power_cap_mw && it_kw > *o.site.power_cap_mw * 1000.0)
      throw InputError(s.file, pointer + (f.nodes_as_written ? "/nodes" : ""),
                       fmt::format("plan \"{}\" refreshes to {} nodes x {} kW = {:.1f} kW of IT load; the site "
                                   "feeds {} MW: at most {} successor nodes fit",
                                   p.name, f.nodes, f.server.peak_kw, it_kw, *o.site.power_cap_mw,
                                   static_cast<long>(std::floor(*o.site.power_cap_mw * 1000.0 / f.server.peak_kw))));
    try {
      nodes_per_rack(o.cooling.rack_limit_kw, f.server.peak_kw);
    } catch (const ModelError& e) {
      throw InputError(s.file, pointer, fmt::format("the successor server: {}", e.what()));
    }
    p.resolved["refresh"] = {{"months_after_arrival", f.months_after_arrival},
                             {"nodes", f.nodes},
                             {"month", f.month},
                             {"server", to_json(f.server)},
                             {"gpu", to_json(f.gpu)}};
  }
}

// residual.follows_cloud_price: the resale value follows the plan's rental price of the GPU it
// owns (models/finance/resale_price_path.hpp).
void tie_resale_to_cloud_price(JsonObjectReader& r, Plan& p) {
  const bool in_plan = r.has("onprem") && r.value("onprem").contains("residual");
  const std::string pointer = (in_plan ? r.pointer_of("onprem") : std::string("/onprem")) + "/residual/follows_cloud_price";
  if (!p.cloud)
    throw InputError(r.file(), pointer,
                     fmt::format("plan \"{}\" rents nothing: its resale value has no rental price to follow (a "
                                 "hybrid plan with the GPU's cloud offer has one)",
                                 p.name));
  if (p.cloud->offer.gpu_model != p.onprem->server.gpu_model)
    throw InputError(r.file(), pointer,
                     fmt::format("plan \"{}\" owns {} GPUs but rents {}: its resale value follows the rental price "
                                 "of the GPU it owns",
                                 p.name, p.onprem->server.gpu_model, p.cloud->offer.gpu_model));
  p.onprem->resale_price_path = ResalePricePath{p.cloud->price_schedules.on_demand, p.cloud->price_change_per_year};
}

// A resale value that follows a price process (models/finance/resale_price_path.hpp) is drawn per
// path by the hourly model's kernels alone, on one fixed residual: not with the discrete-event
// replay, nor with a drawn arrival month (whose residual moves per path too).
void check_resale_ties(const Scenario& s) {
  for (std::size_t i = 0; i < s.plans.size(); ++i) {
    const Plan& p = s.plans[i];
    if (!p.onprem || !p.onprem->resale_price_path || !p.cloud->price_processes.on_demand) continue;
    const bool drawn_arrival = s.next_generation && s.next_generation->arrival_draw.drawn;
    if (!s.jobs && !drawn_arrival) continue;
    throw InputError(s.file, "/plans/" + std::to_string(i),
                     fmt::format("plan \"{}\" ties its resale value to the cloud price (residual.follows_cloud_price) "
                                 "and draws an on-demand price process: not modelled together with {} yet; drop "
                                 "one of them",
                                 p.name, s.jobs ? "the discrete-event replay (\"jobs\")" : "a drawn arrival month"));
  }
}

// "12, 36 months" (the terms an offer has a reserved price for), or "none".
std::string reserved_terms_priced(const CloudOffer& o) {
  std::vector<int> months;
  for (int m = 1; m <= limits::kMaxCommitmentTermMonths; ++m)
    if (o.reserved_usd_per_hour(m)) months.push_back(m);
  return months.empty() ? std::string("none") : fmt::format("{} months", fmt::join(months, ", "));
}

// "api_next_venue": the venue the tokens above the plan's API rate limit burst to. It must be the
// first of the plan's venues (the tokens go down the list from it, so a venue before it would take
// nothing), and the API must have a rate limit (without one nothing is left above it).
void parse_api_next_venue(JsonObjectReader& r, Plan& p) {
  const std::string name = r.string("api_next_venue");
  if (!p.uses_api())
    r.fail("api_next_venue", "no \"api_next_venue\" in a plan that buys no tokens (kind \"api\", or \"overflow_to\": \"api\")",
           &r.value("api_next_venue"));
  if (!p.api->rate_limit_tokens_per_minute)
    r.fail("api_next_venue",
           "an API with a rate_limit_tokens_per_minute (only tokens above the limit go to the next venue)",
           &r.value("api_next_venue"));
  if (p.venues.empty())
    r.fail("api_next_venue", "a plan with \"venues\", one of which it names", &r.value("api_next_venue"));
  std::vector<std::string> names;
  for (const CloudVenue& v : p.venues) names.push_back("\"" + v.name + "\"");
  const auto at = std::find_if(p.venues.begin(), p.venues.end(), [&](const CloudVenue& v) { return v.name == name; });
  if (at == p.venues.end())
    r.fail("api_next_venue", fmt::format("the name of one of the plan's venues ({})", fmt::join(names, ", ")),
           &r.value("api_next_venue"));
  if (at != p.venues.begin())
    r.fail("api_next_venue",
           fmt::format("the plan's first venue ({}): the API's overflow goes down the list from the venue named, so "
                       "a venue before it would take nothing",
                       names.front()),
           &r.value("api_next_venue"));
  p.api_next_venue = name;
}

Plan parse_plan(JsonObjectReader& r, const Json& base_onprem, const Json& base_cloud, const Json& base_api,
                RecordResolver& resolver, const Date& start, int horizon_months, const std::string& dir) {
  Plan p;
  p.name = r.string("name");
  // Every report, diff and baseline names a plan by this string: an empty one reads as a blank row.
  if (p.name.empty()) r.fail("name", "a plan name that is not empty", &r.value("name"));
  const std::string kind = r.choice("kind", {"cloud", "onprem", "hybrid", "api"});
  p.kind = kind == "cloud"    ? Plan::Kind::cloud
           : kind == "onprem" ? Plan::Kind::onprem
           : kind == "api"    ? Plan::Kind::api
                              : Plan::Kind::hybrid;
  p.onprem_nodes = static_cast<int>(r.integer_or("onprem_nodes", 0, 0, limits::kMaxNodes));
  p.reserved_instances = static_cast<int>(r.integer_or("reserved_instances", 0, 0, 100000));
  const int term_years = static_cast<int>(r.integer_or("reserved_term_years", 1, 1, 3));
  if (term_years == 2) r.fail("reserved_term_years", "1 or 3", &r.value("reserved_term_years"));
  if (r.has("reserved_term_months") && r.has("reserved_term_years"))
    r.fail("reserved_term_months", "no reserved_term_months beside reserved_term_years (give one of the two)",
           &r.value("reserved_term_months"));
  p.reserved_term_months = static_cast<int>(
      r.integer_or("reserved_term_months", term_years * 12, 1, limits::kMaxCommitmentTermMonths));
  p.spot_share = r.number_or("spot_share", 0.0, Bounds::fraction());
  if (r.has("scheduling")) {
    JsonObjectReader sr = r.object("scheduling");
    p.scheduling = parse_scheduling(sr);
  }
  r.allow("scheduling");
  if (p.kind == Plan::Kind::cloud && p.onprem_nodes != 0)
    r.fail("onprem_nodes", "0 for a cloud plan (use kind \"hybrid\" to own nodes and burst)", &r.value("onprem_nodes"));
  if (p.kind == Plan::Kind::onprem && p.onprem_nodes < 1)
    r.fail("onprem_nodes", "at least 1 node for an onprem plan", r.has("onprem_nodes") ? &r.value("onprem_nodes") : nullptr);
  if (p.kind == Plan::Kind::onprem && (p.reserved_instances > 0 || p.spot_share > 0.0))
    r.fail(p.reserved_instances > 0 ? "reserved_instances" : "spot_share",
           "no cloud capacity in an onprem plan (use kind \"hybrid\")",
           &r.value(p.reserved_instances > 0 ? "reserved_instances" : "spot_share"));
  const bool api_overflow = r.has("overflow_to") && r.choice("overflow_to", {"cloud", "api"}) == "api";
  r.allow("overflow_to");
  if (r.has("overflow_to") && p.kind != Plan::Kind::hybrid)
    r.fail("overflow_to", "no \"overflow_to\" outside a hybrid plan (a plan of kind \"api\" buys all its tokens)",
           &r.value("overflow_to"));
  const bool buys_tokens = p.kind == Plan::Kind::api || api_overflow;
  // A plan that buys tokens may list venues only as where the API's rate-limited tokens go.
  const bool api_venues = buys_tokens && r.has("api_next_venue");
  if (buys_tokens)
    for (const char* key : {"onprem_nodes", "reserved_instances", "spot_share", "venues", "commitments", "refresh"}) {
      const bool owns_or_rents = std::string(key) == "onprem_nodes" || std::string(key) == "reserved_instances" ||
                                 std::string(key) == "refresh";
      if (!r.has(key) || (api_overflow && owns_or_rents) || (api_venues && std::string(key) == "venues")) continue;
      if (std::string(key) == "venues")
        r.fail(key,
               "no venues in a plan that buys tokens unless \"api_next_venue\" names the first of them (where the "
               "tokens above the API's rate limit go)",
               &r.value(key));
      r.fail(key,
             api_overflow ? "no spot, venues or commitments in a plan whose overflow goes to the API (its base fleet "
                            "is owned nodes and reserved instances)"
                          : "no fleet in a plan of kind \"api\" (a hybrid plan with \"overflow_to\": \"api\" owns or "
                            "rents a base fleet)",
             &r.value(key));
    }
  if (api_overflow && p.onprem_nodes == 0 && p.reserved_instances == 0)
    r.fail("overflow_to", "a base fleet (onprem_nodes or reserved_instances) in a plan whose overflow goes to the API "
                          "(without one, use kind \"api\")", &r.value("overflow_to"));

  // Plan-level "onprem" / "cloud" objects are JSON merge patches (RFC 7386) of the
  // scenario's sections: a plan changes only what it names.
  // A plan without a patch reads the scenario's section in place (no copy of a long list);
  // `storage` holds a merged copy only where the plan patches it.
  static const Json kEmptySection = Json::object();
  auto merged_section = [&](const char* key, const Json& base, Json& storage) -> const Json& {
    r.allow(key);
    if (!r.has(key)) return base.is_null() ? kEmptySection : base;
    const Json& patch = r.value(key);
    if (!patch.is_object()) r.fail(key, "an object (a merge patch of the scenario's section)", &patch);
    storage = base.is_null() ? Json::object() : base;
    storage.merge_patch(patch);
    return storage;
  };
  Json onprem_storage, cloud_storage, api_storage;
  const Json& onprem_json = merged_section("onprem", base_onprem, onprem_storage);
  const Json& cloud_json = merged_section("cloud", base_cloud, cloud_storage);
  const Json& api_json = merged_section("api", base_api, api_storage);
  if (buys_tokens) {
    if (api_json.empty())
      r.fail("api", "an \"api\" section (here or at the scenario's top level) for a plan that buys tokens from an API",
             nullptr);
    JsonObjectReader ar(api_json, r.file(), r.pointer_of("api"));
    try {
      p.api = parse_api(ar, start);
    } catch (const InputError& e) {
      throw attribute_section_error(e, r.pointer_of("api"), "/api", r.has("api") ? r.value("api") : Json(), base_api);
    }
    resolver.note_inline(p.api->provenance);
  } else if (r.has("api")) {
    r.fail("api", "no \"api\" section in a plan that buys no tokens (kind \"api\", or \"overflow_to\": \"api\")",
           &r.value("api"));
  }

  const bool owns = p.kind == Plan::Kind::onprem || p.kind == Plan::Kind::hybrid;
  // A plan that buys tokens and bursts them to venues reads the cloud section for its venues'
  // price_change_per_year, packing_efficiency and spot_overhead_factor, as any plan with venues.
  const bool rents = p.kind == Plan::Kind::cloud ||
                     (p.kind == Plan::Kind::hybrid && (!api_overflow || p.reserved_instances > 0)) || api_venues;
  if (owns) {
    if (onprem_json.empty())
      r.fail("onprem", "an \"onprem\" section (here or at the scenario's top level) for a plan that owns nodes", nullptr);
    JsonObjectReader or_(onprem_json, r.file(), r.pointer_of("onprem"));
    try {
      p.onprem = parse_onprem(or_, resolver, horizon_months, dir);
      if (p.onprem->tax_depreciation) p.onprem->tax_depreciation->start = start;
    } catch (const InputError& e) {
      throw attribute_section_error(e, r.pointer_of("onprem"), "/onprem", r.has("onprem") ? r.value("onprem") : Json(),
                                    base_onprem);
    }
    try {
      check_site_capacity(*p.onprem, p, r.pointer_of("onprem"), r.file());
    } catch (const InputError& e) {
      throw attribute_section_error(e, r.pointer_of("onprem"), "/onprem", r.has("onprem") ? r.value("onprem") : Json(),
                                    base_onprem);
    }
    // A node that fits no rack is an error now, not in the middle of a run.
    try {
      nodes_per_rack(p.onprem->cooling.rack_limit_kw, p.onprem->server.peak_kw);
    } catch (const ModelError& e) {
      throw InputError(r.file(), r.pointer_of("onprem") + "/cooling", e.what());
    }
  }
  if (rents) {
    if (cloud_json.empty())
      r.fail("cloud", "a \"cloud\" section (here or at the scenario's top level) for a plan that rents", nullptr);
    JsonObjectReader cr(cloud_json, r.file(), r.pointer_of("cloud"));
    try {
      p.cloud = parse_cloud(cr, resolver, dir, start);
    } catch (const InputError& e) {
      throw attribute_section_error(e, r.pointer_of("cloud"), "/cloud", r.has("cloud") ? r.value("cloud") : Json(),
                                    base_cloud);
    }
    const auto& o = p.cloud->offer;
    if (p.spot_share > 0.0 && !o.spot_usd_per_hour)
      r.fail("spot_share", "0: the offer \"" + o.provenance.id + "\" has no spot price", &r.value("spot_share"));
    if (p.reserved_instances > 0 && !o.reserved_usd_per_hour(p.reserved_term_months)) {
      const char* term_key = r.has("reserved_term_months") ? "reserved_term_months" : "reserved_term_years";
      r.fail(term_key,
             fmt::format("a term the offer \"{}\" has a reserved price for (reserved_instances > 0; it prices {})",
                         o.provenance.id, reserved_terms_priced(o)),
             r.has(term_key) ? &r.value(term_key) : nullptr);
    }
    if (r.has("commitments"))
      p.commitments = parse_commitments(
          r, {o.provenance.id, o.gpus_per_instance, o.on_demand_usd_per_hour, o.capacity_block_usd_per_hour, o.provider},
          horizon_months);
  }
  if (p.onprem && p.onprem->resale_follows_cloud_price) tie_resale_to_cloud_price(r, p);
  if (r.has("venues")) {
    if (p.kind == Plan::Kind::onprem) r.fail("venues", "no cloud venues in an onprem plan (use kind \"hybrid\")", &r.value("venues"));
    if (p.spot_share > 0.0)
      r.fail("spot_share", "0 in a plan with \"venues\" (a spot venue in the list takes its place)", &r.value("spot_share"));
    p.venues = parse_venues(r, resolver);
    if (p.cloud->price_schedules.on_demand || p.cloud->price_schedules.spot)
      r.fail("venues", "no on-demand or spot price_schedule in the plan's cloud section (with venues its offer prices "
                       "only reserved capacity; venues follow price_change_per_year)", &r.value("venues"));
  }
  r.allow("venues");
  if (r.has("api_next_venue")) parse_api_next_venue(r, p);
  if (p.kind == Plan::Kind::onprem && r.has("commitments"))
    r.fail("commitments", "no cloud commitments in an onprem plan (use kind \"hybrid\")", &r.value("commitments"));
  check_savings_plan_venue(p.commitments, p.venues, r.file(), r.pointer_of("commitments"));
  if (r.has("refresh")) p.refresh = parse_refresh(r, p.name, p.onprem_nodes, p.onprem ? &*p.onprem : nullptr);
  r.allow("serving_profile");  // read with the catalog's serving profiles (models/serving/plan_serving.hpp)
  r.finish();

  const bool year_term = p.reserved_term_months == 12 || p.reserved_term_months == 36;
  p.resolved = {{"name", p.name},
                {"kind", to_string(p.kind)},
                {"onprem_nodes", p.onprem_nodes},
                {"reserved_instances", p.reserved_instances},
                {"reserved_term_years", year_term ? Json(p.reserved_term_months / 12) : Json(nullptr)},
                {"spot_share", p.spot_share},
                {"onprem", p.onprem ? to_json(*p.onprem) : Json(nullptr)},
                {"cloud", p.cloud ? to_json(*p.cloud) : Json(nullptr)}};
  // Only a term other than 1 or 3 years is echoed in months, so every other report keeps its bytes.
  if (!year_term) p.resolved["reserved_term_months"] = p.reserved_term_months;
  // Only a plan that buys tokens echoes its API, so every other report keeps its bytes.
  if (p.api) {
    p.resolved["api"] = to_json(*p.api);
    if (api_overflow) p.resolved["overflow_to"] = "api";
  }
  if (!p.api_next_venue.empty()) p.resolved["api_next_venue"] = p.api_next_venue;
  // Only a plan that opts in echoes its venues, so every other report keeps its bytes.
  if (!p.venues.empty()) {
    Json venues = Json::array();
    for (const CloudVenue& v : p.venues) venues.push_back(venue_json(v, to_json(v.offer)));
    p.resolved["venues"] = std::move(venues);
  }
  // Only for a plan with commitments, so other reports keep their bytes.
  if (!p.commitments.empty()) {
    Json commitments = Json::array();
    for (const Commitment& c : p.commitments) commitments.push_back(to_json(c));
    p.resolved["commitments"] = commitments;
  }
  return p;
}

// A plan that buys tokens needs them (workload.tokens), and the API bill follows the hourly fluid
// model's token series: no GPU profiles beside the tokens (their work would be mistaken for tokens),
// no time shift (it moves GPU demand, not tokens) and no discrete-event replay.
void check_api_plans(const Scenario& s, bool has_jobs) {
  for (std::size_t i = 0; i < s.plans.size(); ++i) {
    const Plan& p = s.plans[i];
    if (!p.uses_api()) continue;
    const std::string pointer = "/plans/" + std::to_string(i);
    if (!s.workload.tokens)
      throw InputError(s.file, "/workload/tokens",
                       fmt::format("plan \"{}\" buys tokens from the API \"{}\": expected token demand in "
                                   "workload.tokens (requests_per_second, tokens per request, slo, serving_profile; "
                                   "docs/tokens.md)",
                                   p.name, p.api->name));
    if (!s.workload.profiles.empty())
      throw InputError(s.file, "/workload/profiles",
                       fmt::format("plan \"{}\" buys tokens from the API: the workload's GPU profiles would be "
                                   "billed as tokens; give its demand as workload.tokens alone",
                                   p.name));
    if (has_jobs)
      throw InputError(s.file, pointer + "/kind",
                       fmt::format("plan \"{}\" buys tokens from the API, which the discrete-event replay (\"jobs\") "
                                   "does not model: drop the \"jobs\" section",
                                   p.name));
    if (p.scheduling.time_shift)
      throw InputError(s.file, pointer + "/scheduling/time_shift",
                       fmt::format("plan \"{}\" buys tokens from the API and shifts time: not modelled together (the "
                                   "shift moves GPU demand, the API bills tokens)",
                                   p.name));
  }
}

}  // namespace

namespace {

// The tornado evaluates every uncertain input at its low and high on every run, so each of those
// values must give a scenario that loads; checked here, `validate` sees what the analysis runs.
// (A path's draw far in an unbounded tail, P < 1e-9, is not checked: it is checked when drawn.)
void check_uncertain_tornado_values(const Json& doc, const std::string& file, const std::string& dir,
                                    const std::string& catalog_dir_override, const UncertainSpec& spec) {
  Json plain = doc;
  plain.erase("uncertain");
  for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
    const UncertainInput& in = spec.inputs[i];
    UncertainSpec alone;
    alone.inputs = {in};
    for (const auto& end_value : {std::pair{"low", in.low}, std::pair{"high", in.high}}) {
      // Named copies, not a structured binding: clang 14 (the sanitizer build) cannot capture one.
      const char* const end = end_value.first;
      const double value = end_value.second;
      const std::string where = "/uncertain/inputs/" + std::to_string(i);
      auto fail = [&](const std::string& why) {
        return InputError(file, where,
                          fmt::format("input \"{}\" at its {} {} makes {} invalid: {}", in.name, end, value,
                                      in.pointer, why));
      };
      if (in.integer && !(std::fabs(value) < 9007199254740992.0)) throw fail("not an integer a scenario can hold");
      try {
        load_scenario_json(document_with_values(plain, alone, {value}), file, dir, catalog_dir_override);
      } catch (const InputError& e) {
        throw fail(e.message());
      } catch (const ModelError& e) {
        throw fail(e.what());
      }
    }
  }
}

}  // namespace

Scenario load_scenario_json(const Json& doc, const std::string& file, const std::string& dir,
                            const std::string& catalog_dir_override) {
  require_finite_numbers(doc, file, "");
  require_printable_text(doc, file, "");
  IntegerFieldRecorder integer_fields(file);  // parse_uncertain asks it which fields are integers
  JsonObjectReader r(doc, file, "");
  if (r.has("$schema")) r.string("$schema");  // an editor's link to the schema: any string, as the schema says
  Scenario s;
  s.file = file;
  s.dir = dir;
  s.name = r.string("name");
  s.description = r.string_or("description", "");
  const std::string start = r.string("start");
  if (!parse_date(start, s.start)) r.fail("start", "a date as YYYY-MM-DD", &r.value("start"));
  s.calendar = Calendar::from_start(s.start);
  s.horizon_months = static_cast<int>(r.integer("horizon_months", 1, 600));
  s.discount_rate_per_year = r.number("discount_rate_per_year", Bounds::between(-0.5, 1.0));
  s.waiting_usd_per_gpu_hour = r.number_or("waiting_usd_per_gpu_hour", 0.0, limits::kUsdPerGpuHour);

  std::string catalog_dir = r.string_or("catalog_dir", "../pricing-data");
  // "" would be the scenario's own folder, the scenario read as one of its catalog's files.
  if (catalog_dir.empty())
    r.fail("catalog_dir", "a folder of catalog files (leave catalog_dir out for ../pricing-data, or write \".\" for the "
                          "scenario's own folder)", &r.value("catalog_dir"));
  if (!catalog_dir_override.empty()) catalog_dir = catalog_dir_override;
  else if (fs::path(catalog_dir).is_relative()) catalog_dir = (fs::path(dir) / catalog_dir).lexically_normal().string();
  if (!list_input_folder(catalog_dir))
    throw InputError(file, "/catalog_dir", "expected a folder of catalog files, found no folder at \"" + catalog_dir + "\"");
  // Read once: the catalog loaded is the catalog checked below, byte for byte.
  const CatalogSource catalog_source = read_catalog_source(catalog_dir);
  const std::shared_ptr<const Catalog> shared_catalog = Catalog::load_shared(catalog_source);
  const Catalog& catalog = *shared_catalog;
  s.catalog_dir = catalog_dir;
  s.catalog_digest_sha256 = catalog.digest_sha256();
  RecordResolver resolver(catalog, file);

  // A scenario of jobs (the discrete-event replay) may leave the hourly workload out.
  if (r.has("workload") || !r.has("jobs")) {
    JsonObjectReader wr = r.object("workload");
    s.workload = parse_workload(wr, dir);
    read_token_demand(s.workload, r.value("workload"), file, catalog, dir);
    read_request_workload(s.workload, r.value("workload"), file, s.horizon_hours(), dir);
  }
  if (r.has("jobs")) {
    JsonObjectReader jr = r.object("jobs");
    s.jobs = parse_jobs(jr, dir);
  }
  r.allow("jobs");
  if (r.has("monte_carlo")) {
    JsonObjectReader mr = r.object("monte_carlo");
    s.monte_carlo.paths = mr.integer_or("paths", 1, 1, 100000000);
    s.monte_carlo.seed = static_cast<std::uint64_t>(mr.integer_or("seed", 0, 0, std::numeric_limits<std::int64_t>::max()));
    s.monte_carlo.demand_growth_sigma_per_year =
        mr.number_or("demand_growth_sigma_per_year", 0.0, Bounds::between(0.0, 2.0));
    mr.finish();
  }
  r.allow("monte_carlo");
  // References, not copies: a section may hold a long list (a price schedule of daily points).
  static const Json kNone(nullptr);
  const Json& base_onprem = r.has("onprem") ? r.value("onprem") : kNone;
  const Json& base_cloud = r.has("cloud") ? r.value("cloud") : kNone;
  const Json& base_api = r.has("api") ? r.value("api") : kNone;
  r.allow("onprem");
  r.allow("cloud");
  r.allow("api");
  if (!base_api.is_null() && !base_api.is_object()) r.fail("api", "an object", &base_api);
  if (!base_onprem.is_null() && !base_onprem.is_object()) r.fail("onprem", "an object", &base_onprem);
  if (!base_cloud.is_null() && !base_cloud.is_object()) r.fail("cloud", "an object", &base_cloud);
  // Read here with its bounds as well: every cloud plan may patch its own, and an onprem plan
  // still uses this one. The rest of the section is checked where it is parsed whole.
  if (base_cloud.is_object() && base_cloud.contains("spot") && base_cloud["spot"].is_object()) {
    JsonObjectReader spot(base_cloud["spot"], file, "/cloud/spot");
    s.checkpoint_write_h = spot.number_or("checkpoint_write_h", s.checkpoint_write_h, limits::kHours);
  }

  // Named price indices a plan may rent at (models/price_path/price_indices.hpp).
  PriceIndices indices;
  if (r.has("price_indices")) indices = parse_price_indices(r.value("price_indices"), file, s.start);
  r.allow("price_indices");

  const Json& plans = r.value("plans");
  if (!plans.is_array() || plans.empty()) r.fail("plans", "a non-empty array of plans", &plans);
  std::set<std::string> names;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const std::string pointer = "/plans/" + std::to_string(i);
    const bool indexed = plans[i].is_object() && plans[i].contains("price_index");
    const Json indexed_plan = indexed ? plan_at_price_index(plans[i], indices, file, pointer) : Json();
    JsonObjectReader pr(indexed ? indexed_plan : plans[i], file, pointer);
    Plan plan = parse_plan(pr, base_onprem, base_cloud, base_api, resolver, s.start, s.horizon_months, dir);
    // Only a plan that names an index echoes it, so every other report keeps its bytes.
    if (indexed) plan.resolved["price_index"] = plans[i].at("price_index");
    plan.serving = apply_plan_serving_profile(plan, plans[i], s.workload.tokens.get(), catalog, file, pointer);
    if (plan.serving && s.workload.requests)
      check_replay_rates(*s.workload.requests, *plan.serving, file, pointer + "/serving_profile");
    if (!names.insert(plan.name).second)
      throw InputError(file, pointer + "/name", "expected a unique plan name, found \"" + plan.name + "\" twice");
    add_plan_warnings(s, plan, pointer);
    s.plans.push_back(std::move(plan));
  }
  add_implied_forward_warnings(s);
  // A section that no plan uses must still be valid: a typo there is a wrong number waiting
  // for the day a plan starts to use it.
  const bool onprem_used = std::any_of(s.plans.begin(), s.plans.end(), [](const Plan& p) { return p.onprem.has_value(); });
  const bool cloud_used = std::any_of(s.plans.begin(), s.plans.end(), [](const Plan& p) { return p.cloud.has_value(); });
  if (!base_onprem.is_null() && !onprem_used) {
    JsonObjectReader unused(base_onprem, file, "/onprem");
    parse_onprem(unused, resolver, s.horizon_months, dir);
  }
  if (!base_cloud.is_null() && !cloud_used) {
    JsonObjectReader unused(base_cloud, file, "/cloud");
    parse_cloud(unused, resolver, dir, s.start);
  }
  const bool api_used = std::any_of(s.plans.begin(), s.plans.end(), [](const Plan& p) { return p.uses_api(); });
  if (!base_api.is_null() && !api_used) {
    JsonObjectReader unused(base_api, file, "/api");
    parse_api(unused, s.start);
  }
  check_api_plans(s, s.jobs.has_value());
  if (s.workload.requests && s.workload.requests->overflow_to_api && !api_used)
    throw InputError(file, pointer_join(pointer_join(s.workload.pointer, "requests"), "overflow"),
                     "expected a plan that buys tokens from an API (kind \"api\", or \"overflow_to\": \"api\"): its "
                     "price is what an overflowing request costs");
  if (s.workload.requests)  // a venue the replay names must be one of a plan's
    for (const RequestVenueSpec& v : s.workload.requests->venues) {
      const bool known = std::any_of(s.plans.begin(), s.plans.end(), [&v](const Plan& p) {
        return std::any_of(p.venues.begin(), p.venues.end(), [&v](const CloudVenue& c) { return c.name == v.name; });
      });
      if (!known)
        throw InputError(file, v.pointer,
                         fmt::format("expected the name of a venue of a plan (plans[].venues[].name), found \"{}\"",
                                     v.name));
    }
  if (r.has("next_generation")) {
    JsonObjectReader nr = r.object("next_generation");
    s.next_generation = parse_next_generation(nr);
    apply_next_generation(*s.next_generation, file, s.plans);
    if (!s.next_generation->successor_server_ref.is_null()) {
      JsonObjectReader sr(r.value("next_generation"), file, "/next_generation");
      resolve_successor(*s.next_generation, sr, resolver);
    }
  }
  r.allow("next_generation");
  fill_refreshes(s);
  check_resale_ties(s);
  check_hourly_time_shifts(s);
  const std::string baseline = r.string_or("baseline", s.plans.front().name);
  const auto it = std::find_if(s.plans.begin(), s.plans.end(), [&](const Plan& p) { return p.name == baseline; });
  if (it == s.plans.end())
    r.fail("baseline", "the name of one of the plans", &r.value("baseline"));
  s.baseline_index = static_cast<int>(it - s.plans.begin());
  if (r.has("uncertain")) {
    // Beside an hourly workload the inputs are evaluated path by path with the hourly fluid model;
    // in a scenario of jobs alone, drawn per path in the discrete-event replay (docs/decisions.md).
    s.uncertain = parse_uncertain(r.value("uncertain"), file, doc);
    if (!r.has("workload")) check_replayed_uncertain(*s.uncertain, file);
  }
  r.allow("uncertain");
  r.finish();
  check_drawn_deliveries(s, plans, r.has("workload"));
  check_replay_plans(s);
  // The whole catalog, also the records this scenario does not use, as `validate` checks it.
  require_valid_catalog(catalog_source);

  s.records_used = resolver.used();
  drop_unused_figures(s);
  add_provenance_warnings(s);
  s.scenario_digest_sha256 = sha256_hex(doc.dump());
  return s;
}

Scenario load_scenario(const std::string& path, const std::string& catalog_dir_override) {
  const Json doc = read_json_file(path);
  const std::string dir = fs::path(path).parent_path().string();
  Scenario s = load_scenario_json(doc, path, dir.empty() ? "." : dir, catalog_dir_override);
  if (s.uncertain) check_uncertain_tornado_values(doc, path, dir.empty() ? "." : dir, catalog_dir_override, *s.uncertain);
  s.scenario_digest_sha256 = file_digest(path);
  return s;
}

std::vector<Finding> validate_scenario_file(const std::string& path, const std::string& catalog_dir_override) {
  try {
    return load_scenario(path, catalog_dir_override).warnings;
  } catch (const InputError& e) {
    return {{Finding::Severity::error, "invalid-scenario", e.file(), e.where(), e.what()}};
  } catch (const ModelError& e) {
    return {{Finding::Severity::error, "invalid-scenario", path, "", e.what()}};
  }
}

}  // namespace tco
