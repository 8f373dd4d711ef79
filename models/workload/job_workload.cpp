#include "models/workload/job_workload.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "models/input_limits.hpp"

namespace tco {

namespace {

void parse_traits(JsonObjectReader& r, JobTraits& t, const char* default_class) {
  t.preemptible_fraction = r.number_or("preemptible_fraction", 0.0, Bounds::fraction());
  t.checkpoint_h = r.number_or("checkpoint_h", 0.0, limits::kHours);
  t.max_wait_h = r.optional_number("max_wait_h", limits::kHours);
  t.deadline_factor = r.optional_number("deadline_factor", limits::kDeadlineFactor);
  t.deferrable = r.boolean_or("deferrable", false);
  t.job_class = r.string_or("class", default_class);
  if (t.job_class.find_first_of(",\"\r\n") != std::string::npos)
    r.fail("class", "a class name without commas, quotes or line breaks", &r.value("class"));
}

Json traits_json(const JobTraits& t) {
  return {{"preemptible_fraction", t.preemptible_fraction},
          {"checkpoint_h", t.checkpoint_h},
          {"max_wait_h", t.max_wait_h ? Json(*t.max_wait_h) : Json(nullptr)},
          {"deadline_factor", t.deadline_factor ? Json(*t.deadline_factor) : Json(nullptr)},
          {"deferrable", t.deferrable},
          {"class", t.job_class}};
}

// An object or an array of objects under `key`, each parsed by `parse`.
template <typename T, typename Parse>
std::vector<T> one_or_many(JsonObjectReader& r, const char* key, Parse parse) {
  std::vector<T> out;
  if (!r.has(key)) return out;
  const Json& value = r.value(key);
  if (value.is_object()) {
    JsonObjectReader item(value, r.file(), r.pointer_of(key));
    out.push_back(parse(item));
  } else if (value.is_array() && !value.empty()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      JsonObjectReader item(value[i], r.file(), pointer_join(r.pointer_of(key), std::to_string(i)));
      out.push_back(parse(item));
    }
  } else {
    r.fail(key, "an object or a non-empty array of objects", &value);
  }
  return out;
}

PoissonJobs parse_poisson(JsonObjectReader& r) {
  PoissonJobs p;
  p.jobs_per_hour = r.number("jobs_per_hour", limits::kJobsPerHour);
  p.diurnal_amplitude = r.number_or("diurnal_amplitude", 0.0, Bounds::fraction());
  p.peak_hour = static_cast<int>(r.integer_or("peak_hour", 14, 0, 23));
  p.weekend_factor = r.number_or("weekend_factor", 1.0, limits::kWeekendFactor);
  JsonObjectReader g = r.object("gpus");  // {"1": 0.6, "8": 0.4}
  double total = 0.0;
  for (const auto& [key, value] : r.value("gpus").items()) {
    int gpus = 0;
    try {
      std::size_t used = 0;
      gpus = std::stoi(key, &used);
      if (used != key.size() || gpus < 1) throw std::invalid_argument(key);
    } catch (const std::exception&) {
      throw InputError(r.file(), g.pointer_of(key), "expected a GPU count >= 1 as the key, found \"" + key + "\"");
    }
    const double w = g.number(key, limits::kMixWeight);
    p.gpus_weights.emplace_back(gpus, w);
    total += w;
  }
  g.finish();
  if (p.gpus_weights.empty() || total <= 0.0)
    r.fail("gpus", "a non-empty object of GPU count -> weight with a positive total", &r.value("gpus"));
  std::sort(p.gpus_weights.begin(), p.gpus_weights.end());
  for (auto& [gpus, w] : p.gpus_weights) w /= total;
  p.duration_median_h = r.number("duration_median_h", limits::kPositiveHours);
  p.duration_sigma = r.number_or("duration_sigma", 1.0, Bounds::between(0.0, 5.0));
  p.max_duration_h = r.number_or("max_duration_h", p.max_duration_h, limits::kPositiveHours);
  parse_traits(r, p.traits, "poisson");
  r.finish();
  return p;
}

// Each job kind reads its own fields (alike in shape only: strict reading, field by field).
CampaignJobs parse_campaign(JsonObjectReader& r) {
  CampaignJobs c;
  c.gpus = static_cast<int>(r.integer("gpus", 1, limits::kMaxGpusPerJob));
  c.every_days = r.number_or("every_days", c.every_days, limits::kPositiveDays);
  c.duration_days = r.number_or("duration_days", c.duration_days, limits::kPositiveDays);
  c.first_day = r.number_or("first_day", 0.0, limits::kDays);
  c.jitter_days = r.number_or("jitter_days", 0.0, limits::kDays);
  if (c.jitter_days >= c.every_days)
    r.fail("jitter_days", "less than every_days (campaigns keep their order)", &r.value("jitter_days"));
  parse_traits(r, c.traits, "campaign");
  r.finish();
  return c;
}

SteadyJobs parse_steady(JsonObjectReader& r) {
  SteadyJobs s;
  s.gpus = static_cast<int>(r.integer("gpus", 1, limits::kMaxGpusPerJob));
  s.gpus_per_job = static_cast<int>(r.integer_or("gpus_per_job", std::min(8, s.gpus), 1, s.gpus));
  s.job_duration_h = r.number_or("job_duration_h", s.job_duration_h, limits::kPositiveHours);
  parse_traits(r, s.traits, "steady");
  r.finish();
  return s;
}

}  // namespace

JobsSpec parse_jobs(JsonObjectReader& r, const std::string& scenario_dir) {
  JobsSpec s;
  if (r.has("trace")) {
    s.trace_file = r.string("trace");
    std::filesystem::path p(s.trace_file);
    s.trace_resolved_path = p.is_relative() ? (std::filesystem::path(scenario_dir) / p).lexically_normal().string()
                                            : s.trace_file;
    if (!std::filesystem::is_regular_file(s.trace_resolved_path))
      r.fail("trace", "a job trace file (tcosim trace import writes the canonical CSV); no file at \"" +
                          s.trace_resolved_path + "\"",
             &r.value("trace"));
  }
  s.trace_format = r.choice_or("trace_format", {"canonical", "openb", "dlrm", "philly", "pai", "helios", "slurm", "k8s-pods"}, "canonical");
  if (s.trace_format != "canonical" && s.trace_file.empty())
    r.fail("trace_format", "no trace_format without a \"trace\"", &r.value("trace_format"));
  s.tile = r.boolean_or("tile", true);
  s.period_h = r.number_or("period_h", 0.0, limits::kHours);
  s.growth_per_year = r.number_or("growth_per_year", 0.0, limits::kGrowthPerYear);
  s.weekly_bootstrap = r.boolean_or("weekly_bootstrap", false);
  if (s.weekly_bootstrap && s.trace_file.empty())
    r.fail("weekly_bootstrap", "false without a \"trace\" (the bootstrap resamples the trace's weeks)",
           &r.value("weekly_bootstrap"));
  s.poisson = one_or_many<PoissonJobs>(r, "poisson", parse_poisson);
  s.campaigns = one_or_many<CampaignJobs>(r, "campaigns", parse_campaign);
  s.steady = one_or_many<SteadyJobs>(r, "steady", parse_steady);
  if (s.trace_file.empty() && s.poisson.empty() && s.campaigns.empty() && s.steady.empty())
    throw InputError(r.file(), r.pointer(),
                     "expected at least one job source: \"trace\", \"poisson\", \"campaigns\" or \"steady\"");
  r.finish();
  return s;
}

SchedulingSpec parse_scheduling(JsonObjectReader& r) {
  SchedulingSpec s;
  s.max_wait_h = r.number_or("max_wait_h", s.max_wait_h, limits::kHours);
  s.backfill_first_fit = r.choice_or("backfill", {"none", "first_fit"}, "none") == "first_fit";
  if (r.has("multi_node_efficiency")) {
    JsonObjectReader m = r.object("multi_node_efficiency");
    s.onprem_multi_node_efficiency = m.number_or("onprem", 1.0, Bounds{0.0, 1.0, true});
    s.cloud_multi_node_efficiency = m.number_or("cloud", 1.0, Bounds{0.0, 1.0, true});
    m.finish();
  }
  r.allow("multi_node_efficiency");
  s.time_shift = r.boolean_or("time_shift", false);
  s.restart_h = r.number_or("restart_h", s.restart_h, limits::kHours);
  r.finish();
  return s;
}

Json to_json(const JobsSpec& s) {
  Json poisson = Json::array();
  for (const auto& p : s.poisson) {
    Json gpus = Json::object();
    for (const auto& [g, w] : p.gpus_weights) gpus[std::to_string(g)] = w;
    Json j = {{"jobs_per_hour", p.jobs_per_hour}, {"diurnal_amplitude", p.diurnal_amplitude},
              {"peak_hour", p.peak_hour},         {"weekend_factor", p.weekend_factor},
              {"gpus", gpus},                     {"duration_median_h", p.duration_median_h},
              {"duration_sigma", p.duration_sigma}, {"max_duration_h", p.max_duration_h}};
    j.update(traits_json(p.traits));
    poisson.push_back(j);
  }
  Json campaigns = Json::array();
  for (const auto& c : s.campaigns) {
    Json j = {{"gpus", c.gpus}, {"every_days", c.every_days}, {"duration_days", c.duration_days},
              {"first_day", c.first_day}, {"jitter_days", c.jitter_days}};
    j.update(traits_json(c.traits));
    campaigns.push_back(j);
  }
  Json steady = Json::array();
  for (const auto& st : s.steady) {
    Json j = {{"gpus", st.gpus}, {"gpus_per_job", st.gpus_per_job}, {"job_duration_h", st.job_duration_h}};
    j.update(traits_json(st.traits));
    steady.push_back(j);
  }
  return {{"trace", s.trace_file.empty() ? Json(nullptr) : Json(s.trace_file)},
          {"trace_format", s.trace_format},
          {"tile", s.tile},
          {"period_h", s.period_h},
          {"growth_per_year", s.growth_per_year},
          {"weekly_bootstrap", s.weekly_bootstrap},
          {"poisson", poisson},
          {"campaigns", campaigns},
          {"steady", steady}};
}

Json to_json(const SchedulingSpec& s) {
  return {{"max_wait_h", s.max_wait_h},
          {"backfill", s.backfill_first_fit ? "first_fit" : "none"},
          {"multi_node_efficiency",
           {{"onprem", s.onprem_multi_node_efficiency}, {"cloud", s.cloud_multi_node_efficiency}}},
          {"time_shift", s.time_shift},
          {"restart_h", s.restart_h}};
}

}  // namespace tco
