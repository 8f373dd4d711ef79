// Hourly demand profiles for the fluid model (SPEC §3, §9): GPUs demanded in each hour of
// the horizon, in reference-GPU units. Profiles add up; growth multiplies the sum:
//   D(h) = (1 + growth_per_year)^(h / 8760) x sum_p profile_p(h)
// steady:    gpus x shape(h), shape = 1 + diurnal_amplitude x cos(2 pi (hour - peak_hour) / 24),
//            times weekend_factor on Saturdays and Sundays.
// campaigns: gpus during [first_day + k every_days, + duration_days) days, k = 0, 1, ...
// series:    a measured series (per minute or per hour) averaged into hours; it repeats
//            over a horizon longer than itself when `repeat` is true (else demand is 0 after).
//            A csv series with a "# start:" line begins at hour o = round(trace_clock_offset_h)
//            (its weekday and clock time in the scenario's first week): hour h takes row h - o;
//            the o hours before are 0, or the series' last rows when it repeats.
// Example: steady 48 GPUs, diurnal_amplitude 0.25, peak_hour 14: 60 GPUs at 14:00, 36 at 02:00.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/calendar.hpp"
#include "core/io/json_reader.hpp"
#include "models/workload/trace_start.hpp"

namespace tco {

struct SteadyProfile {
  double gpus = 0.0;
  double diurnal_amplitude = 0.0;  // fraction, 0..1
  int peak_hour = 14;              // hour of day of the diurnal peak
  double weekend_factor = 1.0;     // multiplier on Saturdays and Sundays
};

struct CampaignProfile {
  double gpus = 0.0;
  double every_days = 91.0;
  double duration_days = 14.0;
  double first_day = 0.0;  // days from the scenario start to the first campaign
};

// A measured demand series. Formats:
//   "csv":          header "time_h,gpus" (hours from the series start, ascending)
//   "helios_vc":    HeliosArtifact per-minute VC sequence; demand = running_gpu_num + pending_gpu_num
//   "philly_nodes": HeliosArtifact philly_node_sequence.csv; demand = active x gpus_per_node
//   "token_input", "token_output": the input_tokens or output_tokens column of an hourly token
//                   demand (time_h,requests,input_tokens,output_tokens; models/serving/token_demand.hpp
//                   reads them, a scenario's profiles cannot name them)
struct SeriesProfile {
  std::string file;          // as written in the scenario
  std::string resolved_path; // relative paths resolve against the scenario's folder
  std::string format = "csv";
  double gpus_per_node = 8.0;  // philly_nodes only
  double scale = 1.0;          // multiplies the series
  bool repeat = true;
  // A csv series' "# start:" line (written by `demand import --format prometheus|opencost`):
  // hour 0 as an absolute time. The series is then shifted like an imported trace
  // (models/workload/trace_clock.hpp) so its hours meet the scenario's weekdays and clock.
  std::optional<TraceStart> start;
};

using DemandProfile = std::variant<SteadyProfile, CampaignProfile, SeriesProfile>;

// Work that may wait for cheaper hours (docs/model.md §5.2): a share of every hour's demand
// may run up to max_delay_h hours later, for the plans with scheduling.time_shift.
struct DeferrableDemand {
  double share = 0.0;
  double max_delay_h = 0.0;
};

struct TokenDemand;      // models/serving/token_demand.hpp
struct RequestWorkload;  // models/serving/request_workload.hpp

struct WorkloadSpec {
  std::vector<DemandProfile> profiles;
  // Token demand served with a serving profile (docs/tokens.md): its GPUs are added to the
  // profiles' in every hour, after their growth (the tokens grow with their own).
  std::shared_ptr<const TokenDemand> tokens;
  // Requests replayed one by one beside the tokens (docs/des.md "Requests in a scenario"): each
  // plan's latency; the hourly model above does not read them.
  std::shared_ptr<const RequestWorkload> requests;
  double growth_per_year = 0.0;
  std::optional<DeferrableDemand> deferrable;
  std::string file;      // where it was read (for errors in the demand it yields)
  std::string pointer;   // its JSON pointer there ("/workload")
};

// Demand above this many GPUs in an hour is refused as bad input: no fleet is that large, so
// it is a unit slip (a series in GPU-seconds, a scale typed too large), and the money it would
// yield overflows the solvers.
inline constexpr double kMaxDemandGpus = 1e7;

// Parses the scenario's "workload" object: {"profiles": [{"type": "steady", ...}, ...],
// "growth_per_year": 0.1}; "profiles" may be left out beside "tokens" (read by the scenario with
// the catalog: models/serving/token_demand.hpp). `scenario_dir` resolves relative series paths.
WorkloadSpec parse_workload(JsonObjectReader& r, const std::string& scenario_dir);

// Demand in GPUs for each of `hours` hours. Reads series files (InputError naming the file
// and line on a malformed row).
std::vector<double> demand_gpus_by_hour(const WorkloadSpec& spec, long hours, const Calendar& calendar);

// One hourly series read from a file in one of the formats above (exposed for tests and
// `tcosim demand import`).
std::vector<double> read_hourly_series(const SeriesProfile& series);

// The resolved profile, as the report records it.
Json to_json(const WorkloadSpec& spec);

}  // namespace tco
