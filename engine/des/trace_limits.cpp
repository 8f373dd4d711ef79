#include "engine/des/trace_limits.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/utf8_text.hpp"
#include "models/workload/trace_csv.hpp"
#include "models/workload/workload.hpp"

namespace tco::des {

namespace {

// Where row `row` of the trace is, for a message: "line N" of a canonical CSV (read again, on
// error only), or "job N" of a trace read in another format.
std::string place_of_row(const Scenario& s, const JobCatalog& c, std::size_t row) {
  if (s.jobs->trace_format == "canonical") {
    TraceReader reader(c.trace_path);
    Job job;
    for (std::size_t i = 0; reader.next(job); ++i)
      if (i == row) return fmt::format("line {}", reader.line_number());
  }
  return fmt::format("job {}", row + 1);
}

// The most GPUs any plan can hold at once; infinity when a plan rents (the cloud has no cap).
double largest_fleet_gpus(const Scenario& s) {
  double most = 0.0;
  for (const Plan& p : s.plans) {
    if (p.bursts()) return std::numeric_limits<double>::infinity();
    if (p.onprem) most = std::max(most, static_cast<double>(p.onprem_nodes) * p.onprem->server.gpus);
  }
  return most;
}

}  // namespace

void check_trace_limits(const Scenario& s, const JobCatalog& c) {
  if (!s.jobs || c.trace_jobs == 0) return;
  const TraceColumns& t = c.trace.columns();
  const double horizon_h = static_cast<double>(s.horizon_hours());
  const double fleet_gpus = largest_fleet_gpus(s);
  double gpu_hours = 0.0, first_submit_h = t.submit_h[0], last_end_h = 0.0;
  for (std::size_t i = 0; i < t.rows; ++i) {
    if (t.duration_h[i] > horizon_h)
      throw InputError(c.trace_path, place_of_row(s, c, i),
                       fmt::format("expected a job of at most the horizon's {:.0f} hours ({} months of {}), found "
                                   "duration_h {:g}: check the units (hours), or give a service that runs all along "
                                   "as a \"steady\" source",
                                   horizon_h, s.horizon_months, escaped_text(s.file), t.duration_h[i]));
    if (t.gpus[i] > fleet_gpus)
      throw InputError(c.trace_path, place_of_row(s, c, i),
                       fmt::format("expected a job of at most {:.0f} GPUs (the largest plan's onprem_nodes x GPUs per "
                                   "node in {}, where no plan rents), found {}: the job could never start",
                                   fleet_gpus, escaped_text(s.file), t.gpus[i]));
    gpu_hours += static_cast<double>(t.gpus[i]) * t.duration_h[i];
    last_end_h = std::max(last_end_h, t.submit_h[i] + t.duration_h[i]);
  }
  const double mean_gpus = gpu_hours / std::max(1.0, last_end_h - first_submit_h);
  if (mean_gpus > kMaxDemandGpus) {
    std::size_t largest = 0;
    for (std::size_t i = 1; i < t.rows; ++i)
      if (static_cast<double>(t.gpus[i]) * t.duration_h[i] > static_cast<double>(t.gpus[largest]) * t.duration_h[largest])
        largest = i;
    throw InputError(c.trace_path, place_of_row(s, c, largest),
                     fmt::format("the trace keeps {:.3g} GPUs busy on average over its {:.0f} hours ({:.3g} GPU-hours; "
                                 "this line's job is the largest, {} GPUs for {:g} h); more than {:.0f} million GPUs is "
                                 "no fleet: check the units",
                                 mean_gpus, last_end_h - first_submit_h, gpu_hours, t.gpus[largest],
                                 t.duration_h[largest], kMaxDemandGpus / 1e6));
  }
}

std::vector<Finding> validate_scenario_and_trace(const std::string& path, const std::string& catalog_dir_override) {
  try {
    const Scenario s = load_scenario(path, catalog_dir_override);
    if (s.jobs) check_trace_limits(s, build_job_catalog(*s.jobs));
    return s.warnings;
  } catch (const InputError& e) {
    const bool in_trace = e.file() != path;
    return {{Finding::Severity::error, in_trace ? "invalid-trace" : "invalid-scenario", e.file(), e.where(), e.what()}};
  } catch (const ModelError& e) {
    return {{Finding::Severity::error, "invalid-scenario", path, "", e.what()}};
  }
}

}  // namespace tco::des
