#include "reports/json/time_shift_json.hpp"

#include <cstddef>
#include <optional>

namespace tco {

namespace {

// The plan's scheduling with time_shift off: what its twin's scheduling must equal.
Json unshifted(Json scheduling) {
  scheduling["time_shift"] = false;
  return scheduling;
}

Json without_name(Json plan_inputs) {
  plan_inputs.erase("name");
  return plan_inputs;
}

// The index of the first other plan with the same inputs and the same scheduling but shifting.
std::optional<std::size_t> twin_of(const Json& report, std::size_t shifted) {
  const Json& inputs = report.at("inputs").at("plans");
  const Json& mc = report.at("monte_carlo").at("plans");
  const Json want_inputs = without_name(inputs.at(shifted));
  const Json want_scheduling = unshifted(mc.at(shifted).at("scheduling"));
  for (std::size_t k = 0; k < mc.size(); ++k) {
    if (k == shifted || !mc.at(k).contains("scheduling")) continue;
    if (mc.at(k).at("scheduling") == want_scheduling && without_name(inputs.at(k)) == want_inputs) return k;
  }
  return std::nullopt;
}

// The nominal energy cost of the report's plan of that name (its mean over the paths).
double energy_usd(const Json& report, const Json& name) {
  for (const Json& p : report.at("plans"))
    if (p.at("name") == name) return p.at("breakdown_nominal_usd").value("energy", 0.0);
  return 0.0;
}

}  // namespace

const std::vector<std::string>& time_shift_columns() {
  static const std::vector<std::string> columns = {
      "plan", "holds_per_path", "hours_held_per_path", "energy_saved_at_hold_usd_per_path",
      "deadline_misses_per_path", "energy_nominal_usd", "without_shifting", "energy_nominal_usd_without_shifting",
      "npv_change_usd", "deadline_misses_per_path_without_shifting", "deadline_misses_added_per_path"};
  return columns;
}

std::vector<Json> time_shift_rows(const Json& report) {
  std::vector<Json> rows;
  if (!report.contains("monte_carlo") || !report.at("monte_carlo").contains("plans") || !report.contains("inputs"))
    return rows;
  const Json& mc = report.at("monte_carlo").at("plans");
  for (std::size_t k = 0; k < mc.size(); ++k) {
    const Json& m = mc.at(k);
    if (!m.contains("scheduling") || !m.at("scheduling").value("time_shift", false)) continue;
    const Json& jobs = m.at("jobs_mean_per_path");
    Json row = Json::array({m.at("name"), jobs.at("deferred"), jobs.at("deferred_h"),
                            jobs.at("shift_energy_saved_usd"), jobs.at("deadline_misses"), energy_usd(report, m.at("name"))});
    if (const auto twin = twin_of(report, k)) {
      const Json& t = mc.at(*twin);
      row.push_back(t.at("name"));
      row.push_back(energy_usd(report, t.at("name")));
      row.push_back(m.at("npv_usd").at("mean").get<double>() - t.at("npv_usd").at("mean").get<double>());
      row.push_back(t.at("jobs_mean_per_path").at("deadline_misses"));
      // The misses shifting added on the same random numbers (issue #42 item 5: the policy may
      // hold a job into a crowd that then misses); > 0 is flagged beside the saving.
      row.push_back(jobs.at("deadline_misses").get<double>() - t.at("jobs_mean_per_path").at("deadline_misses").get<double>());
    } else {
      for (int c = 0; c < 5; ++c) row.push_back(nullptr);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace tco
