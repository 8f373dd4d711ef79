// A scenario: the workload, the cloud offer, the on-prem fleet's costs, and the plans to
// compare (docs/scenario.md documents every field; schema/scenario.schema.json is the JSON
// Schema). Loading resolves catalog references, applies each plan's overrides, and checks
// everything strictly; afterwards a Scenario is valid by construction.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/calendar.hpp"
#include "core/io/json_reader.hpp"
#include "models/api/api_spec.hpp"
#include "models/site/ambient.hpp"
#include "models/site/carbon.hpp"
#include "models/finance/depreciation.hpp"
#include "models/finance/procurement.hpp"
#include "models/finance/resale_price_path.hpp"
#include "models/price_path/price_process_spec.hpp"
#include "models/price_path/price_schedule.hpp"
#include "models/finding.hpp"
#include "models/next_generation/generation_step.hpp"
#include "models/next_generation/next_generation_spec.hpp"
#include "models/next_generation/refresh.hpp"
#include "models/workload/job_workload.hpp"
#include "models/site/power.hpp"
#include "models/site/site_capacity.hpp"
#include "models/site/spares.hpp"
#include "models/catalog/records.hpp"
#include "models/commitment/commitment.hpp"
#include "models/uncertain.hpp"
#include "models/venues/cloud_venue.hpp"
#include "models/cloud/cloud_spec.hpp"
#include "models/onprem/onprem_spec.hpp"
#include "models/workload/workload.hpp"

namespace tco {

struct Plan {
  enum class Kind { cloud, onprem, hybrid, api };
  std::string name;
  Kind kind = Kind::cloud;
  int onprem_nodes = 0;
  int reserved_instances = 0;
  // The reserved term in months: reserved_term_years x 12 (12 or 36), or reserved_term_months, any
  // term the offer prices (models/catalog/records.hpp). Billed hours: months x 730.
  int reserved_term_months = 12;
  double spot_share = 0.0;  // share of the cloud overflow (after reserved) that runs on spot
  std::vector<Commitment> commitments;  // capacity blocks, savings plan, take-or-pay (models/commitment/)
  SchedulingSpec scheduling;  // the discrete-event replay's queue settings (docs/des.md)
  std::optional<OnPremSpec> onprem;  // present when onprem_nodes > 0 or the kind is not cloud
  std::optional<CloudSpec> cloud;    // present unless the kind is onprem
  // Sell the owned nodes and buy the next generation's (models/next_generation/refresh.hpp).
  std::optional<PlanRefresh> refresh;
  // Where the overflow after reserved goes, in order (models/venues/cloud_venue.hpp); empty =
  // the cloud offer's on-demand with spot_share on spot, as before venues existed. In a plan that
  // buys tokens (uses_api), where the tokens above the API's rate limit go (api_next_venue).
  std::vector<CloudVenue> venues;
  // A plan that buys tokens: the venue (the first of `venues`) the tokens above the API's rate
  // limit burst to (engine/ledger/api_booking.hpp); empty: they are unserved.
  std::string api_next_venue;
  // Its own serving profile's token demand (models/serving/plan_serving.hpp); null: the scenario's.
  std::shared_ptr<const TokenDemand> serving;
  // The API the plan buys tokens from (models/api/api_spec.hpp): all of them (kind api), or what its
  // base fleet leaves unserved (a hybrid plan with "overflow_to": "api"); absent otherwise.
  std::optional<ApiSpec> api;
  Json resolved;                     // every resolved value, for the report

  bool bursts() const { return kind != Kind::onprem; }
  bool uses_api() const { return api.has_value(); }
  // Its venues take the API's rate-limited tokens, not the fleet's overflow.
  bool api_bursts_to_venues() const { return api.has_value() && !venues.empty(); }
  // Its venues take the fleet's overflow (docs/model.md §3b).
  bool fleet_bursts_to_venues() const { return !api.has_value() && !venues.empty(); }
  double reserved_usd_per_instance_hour() const;
  long reserved_term_hours() const { return static_cast<long>(reserved_term_months) * kHoursPerMonth; }
};

// Monte Carlo settings; the command line may override both. paths = 1 with no uncertainty
// is the deterministic run.
struct MonteCarloSpec {
  long paths = 1;
  std::uint64_t seed = 0;
  double demand_growth_sigma_per_year = 0.0;  // per-path growth rate ~ growth + sigma z
};

struct Scenario {
  std::string file;
  std::string dir;
  std::string name;
  std::string description;
  Date start;
  Calendar calendar;
  int horizon_months = 36;
  double discount_rate_per_year = 0.0;
  double waiting_usd_per_gpu_hour = 0.0;
  // The top-level cloud section's spot.checkpoint_write_h (else the default): the replay's
  // checkpoint write time for plans without a cloud (docs/des.md).
  double checkpoint_write_h = SpotSpec{}.checkpoint_write_h;
  WorkloadSpec workload;          // hourly demand (empty when only "jobs" is given)
  std::optional<JobsSpec> jobs;   // jobs for the discrete-event replay (docs/des.md)
  MonteCarloSpec monte_carlo;
  std::optional<UncertainSpec> uncertain;  // inputs for sensitivity and breakevens (docs/decisions.md)
  std::optional<NextGenerationSpec> next_generation;  // a successor GPU's arrival (models/next_generation/)
  std::vector<Plan> plans;
  int baseline_index = 0;
  std::string catalog_dir;
  std::string catalog_digest_sha256;
  std::string scenario_digest_sha256;
  std::vector<Provenance> records_used;  // every catalog or inline record, sorted, unique
  std::vector<Finding> warnings;

  long horizon_hours() const { return static_cast<long>(horizon_months) * kHoursPerMonth; }
};

std::string to_string(Plan::Kind kind);

// The nodes a plan buys: its on-prem nodes and, when it has any, its hot spares.
inline int owned_nodes(const Plan& p) {
  return p.onprem && p.onprem_nodes > 0 ? p.onprem_nodes + p.onprem->spare_nodes() : 0;
}

// Loads and checks a scenario. `catalog_dir_override` (when not empty) replaces the
// scenario's "catalog_dir". Throws InputError / ModelError.
Scenario load_scenario(const std::string& path, const std::string& catalog_dir_override = "");

// The same from a JSON value (tests, sweeps); `file` and `dir` are used in messages and to
// resolve relative paths.
Scenario load_scenario_json(const Json& doc, const std::string& file, const std::string& dir,
                            const std::string& catalog_dir_override = "");

// `tcosim validate` on a scenario file: an error finding for what load_scenario rejects (with
// `catalog_dir_override` as `run --catalog` gives it), plus the scenario's warnings.
std::vector<Finding> validate_scenario_file(const std::string& path, const std::string& catalog_dir_override = "");

}  // namespace tco
