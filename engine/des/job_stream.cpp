#include "engine/des/job_stream.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "engine/des/batch_draws.hpp"
#include "core/error.hpp"
#include "core/random/random.hpp"
#include "models/importers/jobs/trace_import.hpp"
#include "models/workload/trace_clock.hpp"

namespace tco::des {

namespace {

constexpr double kHoursPerWeek = 168.0;
constexpr int kWeekHours = 168;
constexpr int kDrawBatch = 64;  // Poisson candidates drawn at a time

constexpr double kPi = 3.14159265358979323846;
// Entity spaces of the generators, so that two generators never share draws.
constexpr std::uint32_t kPoissonEntity = 1u << 16;
constexpr std::uint32_t kCampaignEntity = 2u << 16;
constexpr std::uint32_t kSteadyEntity = 3u << 16;

// class_id: the catalog's id of t.job_class, looked up once per source (not once per job).
void apply_traits(const JobTraits& t, std::uint16_t class_id, double u_preemptible, SimJob& job) {
  job.preemptible = u_preemptible < t.preemptible_fraction;
  job.checkpoint_h = t.checkpoint_h;
  job.max_wait_h = t.max_wait_h.value_or(-1.0);
  if (t.deadline_factor) job.deadline_h = *t.deadline_factor * job.duration_h;
  job.deferrable = t.deferrable;
  job.job_class = class_id;
}

}  // namespace

std::uint16_t JobCatalog::intern(const std::string& name) {
  const std::string key = name.empty() ? "default" : name;
  const auto it = class_ids.find(key);
  if (it != class_ids.end()) return it->second;
  if (class_names.size() >= 65535) throw ModelError("more than 65,535 job classes");
  const auto id = static_cast<std::uint16_t>(class_names.size());
  class_names.push_back(key);
  class_ids.emplace(key, id);
  class_jobs.push_back(0);
  class_gpus_sum.push_back(0.0);
  class_preemptible_jobs.push_back(0);
  return id;
}

double upper_jobs_per_path(const JobsSpec& spec, const JobCatalog& catalog, double horizon_h,
                           double growth_per_year) {
  double jobs = 0.0;
  for (const auto& p : spec.poisson)
    jobs += p.jobs_per_hour * (1.0 + p.diurnal_amplitude) * std::max(1.0, p.weekend_factor) * horizon_h;
  for (const auto& p : spec.campaigns) jobs += std::floor(horizon_h / (p.every_days * 24.0)) + 1.0;
  for (const auto& p : spec.steady)
    jobs += std::ceil(static_cast<double>(p.gpus) / p.gpus_per_job) * std::ceil(horizon_h / p.job_duration_h);
  if (catalog.trace_jobs > 0)
    jobs += static_cast<double>(catalog.trace_jobs) *
            (spec.tile ? std::ceil(horizon_h / catalog.trace_period_h) : 1.0);
  const double growth = growth_per_year > 0.0 ? std::pow(1.0 + growth_per_year, horizon_h / kHoursPerYear) : 1.0;
  return jobs * growth;
}

SimJob trace_sim_job(const JobCatalog& catalog, std::size_t i) {
  const TraceColumns& t = catalog.trace.columns();
  SimJob s;
  s.submit_h = t.submit_h[i];
  s.duration_h = t.duration_h[i];
  s.checkpoint_h = t.checkpoint_h[i];
  s.max_wait_h = t.max_wait_h[i];
  s.deadline_h = t.deadline_h[i];
  s.gpus = t.gpus[i];
  s.preemptible = (t.flags[i] & kTraceFlagPreemptible) != 0;
  s.deferrable = (t.flags[i] & kTraceFlagDeferrable) != 0;
  s.job_class = catalog.class_of_string[t.job_class[i]];
  return s;
}

JobCatalog build_job_catalog(const JobsSpec& spec) { return build_job_catalog(spec, trace_cache_options_from_environment()); }

JobCatalog build_job_catalog(const JobsSpec& spec, const TraceCacheOptions& cache) {
  JobCatalog c;
  for (const auto& p : spec.poisson) c.intern(p.traits.job_class);
  for (const auto& p : spec.campaigns) c.intern(p.traits.job_class);
  for (const auto& p : spec.steady) c.intern(p.traits.job_class);
  if (spec.trace_file.empty()) return c;

  c.trace_path = spec.trace_resolved_path;
  if (spec.trace_format != "canonical") {
    // A public trace read in place: imported once, kept in memory.
    const ImportResult imported = import_trace(spec.trace_format, c.trace_path);
    TraceTableBuilder builder;
    for (const Job& job : imported.jobs) builder.add(job);
    c.trace = builder.finish(imported.start);
  } else {
    LoadedTrace loaded = load_trace(c.trace_path, cache);
    c.trace = std::move(loaded.table);
    c.trace_origin = loaded.origin;
    c.trace_notes = std::move(loaded.notes);
  }
  c.trace_start = c.trace.start();
  // Classes are registered in the order of their first job, as the CSV lists them.
  const TraceColumns& t = c.trace.columns();
  constexpr std::uint32_t kUnseen = 0x10000;
  std::vector<std::uint32_t> class_of_string(c.trace.strings().size(), kUnseen);
  for (std::size_t i = 0; i < t.rows; ++i) {
    std::uint32_t& id = class_of_string[t.job_class[i]];
    if (id == kUnseen) id = c.intern(c.trace.strings()[t.job_class[i]]);
    ++c.class_jobs[id];
    c.class_gpus_sum[id] += t.gpus[i];
    if ((t.flags[i] & kTraceFlagPreemptible) != 0) ++c.class_preemptible_jobs[id];
    c.trace_gpu_hours += t.gpus[i] * t.duration_h[i];
  }
  c.class_of_string.assign(class_of_string.begin(), class_of_string.end());
  c.trace_jobs = static_cast<long>(t.rows);
  const double last_submit_h = t.rows > 0 ? t.submit_h[t.rows - 1] : 0.0;
  if (c.trace_jobs == 0) throw InputError(c.trace_path, "line 2", "the trace has no jobs");
  // Whole weeks keep the trace's weekly and daily rhythm where the tiles meet.
  const double auto_period_h = std::max(1.0, std::ceil((last_submit_h + 1e-9) / kHoursPerWeek)) * kHoursPerWeek;
  c.trace_period_h = spec.period_h > 0.0 ? spec.period_h : auto_period_h;
  if (c.trace_period_h <= last_submit_h)
    throw InputError(c.trace_path, "", fmt::format("jobs.period_h {} must exceed the trace's last submit_h {}",
                                                   c.trace_period_h, last_submit_h));
  if (spec.weekly_bootstrap) {
    const auto weeks = static_cast<std::size_t>(std::ceil(c.trace_period_h / kHoursPerWeek - 1e-9));
    c.week_starts.assign(weeks + 1, t.rows);
    std::size_t i = 0;
    for (std::size_t w = 0; w < weeks; ++w) {
      while (i < t.rows && t.submit_h[i] < w * kHoursPerWeek) ++i;
      c.week_starts[w] = i;
    }
  }
  return c;
}

// ---------------------------------------------------------------------------------------------
// Sources: each yields jobs in submission order (entity ids are assigned after the merge).

class JobStream::Source {
 public:
  virtual ~Source() = default;
  virtual bool next(SimJob& job) = 0;
};

namespace {

class TableTrace final : public JobStream::Source {
 public:
  TableTrace(const JobCatalog& c, bool tile, double clock_offset_h) : c_(c), tile_(tile), offset_h_(clock_offset_h) {}
  bool next(SimJob& job) override {
    if (i_ == c_.trace.rows()) {
      if (!tile_) return false;
      i_ = 0;
      offset_h_ += c_.trace_period_h;
    }
    job = trace_sim_job(c_, i_++);
    job.submit_h += offset_h_;
    return true;
  }

 private:
  const JobCatalog& c_;
  bool tile_;
  std::size_t i_ = 0;
  double offset_h_;
};

// Week w of the horizon replays trace week b_w, b_w uniform over the trace's weeks (per path).
class WeeklyBootstrap final : public JobStream::Source {
 public:
  WeeklyBootstrap(const JobCatalog& c, std::uint64_t seed, std::uint32_t path, double clock_offset_h)
      : c_(c), seed_(seed), path_(path), clock_offset_h_(clock_offset_h) {
    start_week();
  }
  bool next(SimJob& job) override {
    while (i_ == end_) {
      ++week_;
      start_week();
    }
    job = trace_sim_job(c_, i_++);
    job.submit_h += shift_h_ + clock_offset_h_;
    return true;
  }

 private:
  void start_week() {
    const std::size_t weeks = c_.week_starts.size() - 1;
    const double u = uniform(seed_, path_, RandomSource::bootstrap, week_, 0);
    const auto b = std::min(weeks - 1, static_cast<std::size_t>(u * static_cast<double>(weeks)));
    i_ = c_.week_starts[b];
    end_ = c_.week_starts[b + 1];
    shift_h_ = (static_cast<double>(week_) - static_cast<double>(b)) * kHoursPerWeek;
  }
  const JobCatalog& c_;
  std::uint64_t seed_;
  std::uint32_t path_;
  double clock_offset_h_;
  std::uint32_t week_ = 0;
  std::size_t i_ = 0, end_ = 0;
  double shift_h_ = 0.0;
};

class PoissonSource final : public JobStream::Source {
 public:
  PoissonSource(const PoissonJobs& p, const JobCatalog& c, const Calendar& cal, std::uint64_t seed, std::uint32_t path,
                std::uint32_t index)
      : p_(p), class_id_(c.class_ids.at(p.traits.job_class)), seed_(seed), path_(path),
        entity_(kPoissonEntity | index) {
    peak_rate_ = p.jobs_per_hour * (1.0 + p.diurnal_amplitude) * std::max(1.0, p.weekend_factor);
    // Hour w of the week as the calendar counts it from the start: (24 x start weekday + t) mod 168.
    week_offset_h_ = 24L * cal.start_weekday;
    for (int w = 0; w < kWeekHours; ++w) {
      const int hour = w % 24;
      const bool weekend = w / 24 >= 5;
      shape_[w] = (1.0 + p.diurnal_amplitude * std::cos(2.0 * kPi * (hour - p.peak_hour) / 24.0)) *
                  (weekend ? p.weekend_factor : 1.0);
    }
    double cumulative = 0.0;
    for (const auto& [gpus, w] : p.gpus_weights) cumulative_.push_back(cumulative += w);
  }
  bool next(SimJob& job) override {
    while (next_ == ready_) {
      if (exhausted_) return false;
      draw_batch();
    }
    job = jobs_[next_++];
    return true;
  }

 private:
  // Candidate k arrives Exp(peak) after candidate k - 1 (draw k of source arrival, first
  // uniform) and is kept with probability shape(t) / peak (its second uniform); a kept one
  // takes its GPU count, preemptibility and duration from draw k of sources gpu_count and
  // duration. kDrawBatch candidates at a time, so that their Philox blocks run in vector loops.
  // The passes are split so that the logarithms do not wait on the running sum, nor the sum on
  // the coin tosses of thinning (kept or not, without a branch); the same sums in the same order.
  void draw_batch() {
    std::uint32_t draw[kDrawBatch], kept[kDrawBatch];
    double a[kDrawBatch], b[kDrawBatch], t_h[kDrawBatch], kept_h[kDrawBatch];
    for (int i = 0; i < kDrawBatch; ++i) draw[i] = k_ + static_cast<std::uint32_t>(i);
    uniform_pairs_by_draw(seed_, path_, RandomSource::arrival, entity_, draw, kDrawBatch, a, b);
    for (int i = 0; i < kDrawBatch; ++i) t_h[i] = exponential_quantile(a[i], peak_rate_);
    int candidates = kDrawBatch;
    for (int i = 0; i < kDrawBatch; ++i) {
      t_h_ += t_h[i];
      t_h[i] = t_h_;
      if (t_h_ > 1e9) {
        exhausted_ = true;
        candidates = i;
        break;
      }
    }
    int n = 0;
    for (int i = 0; i < candidates; ++i) {
      kept[n] = draw[i];
      kept_h[n] = t_h[i];
      n += b[i] * peak_rate_ < p_.jobs_per_hour * shape(t_h[i]) ? 1 : 0;
    }
    k_ += kDrawBatch;
    uniform_pairs_by_draw(seed_, path_, RandomSource::gpu_count, entity_, kept, n, a, b);
    double d[kDrawBatch], unused[kDrawBatch];
    uniform_pairs_by_draw(seed_, path_, RandomSource::duration, entity_, kept, n, d, unused);
    for (int j = 0; j < n; ++j)
      d[j] = std::min(p_.max_duration_h, lognormal_quantile(d[j], p_.duration_median_h, p_.duration_sigma));
    for (int j = 0; j < n; ++j) {
      SimJob& job = jobs_[j];
      job = SimJob{};
      job.submit_h = kept_h[j];
      // The first weight bin whose cumulative weight reaches a[j] (the bins ascend, so that is
      // the count of bins below it), without a branch per bin.
      std::size_t i = 0;
      for (std::size_t k = 0; k + 1 < cumulative_.size(); ++k) i += a[j] > cumulative_[k] ? 1 : 0;
      job.gpus = p_.gpus_weights[i].first;
      job.duration_h = d[j];
      apply_traits(p_.traits, class_id_, b[j], job);
    }
    next_ = 0;
    ready_ = n;
  }

  double shape(double t_h) const { return shape_[(week_offset_h_ + static_cast<long>(t_h)) % kWeekHours]; }
  const PoissonJobs& p_;
  std::uint16_t class_id_;
  std::uint64_t seed_;
  std::uint32_t path_;
  std::uint32_t entity_;
  std::uint32_t k_ = 0;
  double t_h_ = 0.0;
  double peak_rate_ = 0.0;
  long week_offset_h_ = 0;
  double shape_[kWeekHours] = {};  // by hour of the week, Monday 00:00 first
  std::vector<double> cumulative_;
  SimJob jobs_[kDrawBatch];  // the batch's kept candidates, jobs_[next_ .. ready_) still to hand out
  int next_ = 0;
  int ready_ = 0;
  bool exhausted_ = false;  // past t = 1e9 h
};

class CampaignSource final : public JobStream::Source {
 public:
  CampaignSource(const CampaignJobs& p, const JobCatalog& c, std::uint64_t seed, std::uint32_t path, std::uint32_t index)
      : p_(p), class_id_(c.class_ids.at(p.traits.job_class)), seed_(seed), path_(path), entity_(kCampaignEntity | index) {}
  bool next(SimJob& job) override {
    const std::uint32_t k = k_++;
    const UniformPair u = uniform_pair(seed_, path_, RandomSource::start_jitter, entity_, k);
    job = SimJob{};
    job.submit_h = 24.0 * (p_.first_day + k * p_.every_days + u.first * p_.jitter_days);
    job.gpus = p_.gpus;
    job.duration_h = 24.0 * p_.duration_days;
    apply_traits(p_.traits, class_id_, u.second, job);
    return job.submit_h < 1e9;
  }

 private:
  const CampaignJobs& p_;
  std::uint16_t class_id_;
  std::uint64_t seed_;
  std::uint32_t path_;
  std::uint32_t entity_;
  std::uint32_t k_ = 0;
};

// Each source is its own arrival rule on the same draw-and-fill pattern (alike in shape only).
// gpus GPUs around the clock: every job_duration_h, ceil(gpus / gpus_per_job) jobs start
// (the last one with the remainder).
class SteadySource final : public JobStream::Source {
 public:
  SteadySource(const SteadyJobs& p, const JobCatalog& c, std::uint64_t seed, std::uint32_t path, std::uint32_t index)
      : p_(p), class_id_(c.class_ids.at(p.traits.job_class)), seed_(seed), path_(path), entity_(kSteadyEntity | index),
        per_round_((p.gpus + p.gpus_per_job - 1) / p.gpus_per_job) {}
  bool next(SimJob& job) override {
    const int in_round = static_cast<int>(k_ % per_round_);
    const long round = static_cast<long>(k_ / per_round_);
    const double u = uniform(seed_, path_, RandomSource::gpu_count, entity_, k_);
    ++k_;
    job = SimJob{};
    job.submit_h = round * p_.job_duration_h;
    job.gpus = in_round + 1 < per_round_ ? p_.gpus_per_job : p_.gpus - (per_round_ - 1) * p_.gpus_per_job;
    job.duration_h = p_.job_duration_h;
    apply_traits(p_.traits, class_id_, u, job);
    return job.submit_h < 1e9;
  }

 private:
  const SteadyJobs& p_;
  std::uint16_t class_id_;
  std::uint64_t seed_;
  std::uint32_t path_;
  std::uint32_t entity_;
  std::uint32_t k_ = 0;
  int per_round_;
};

}  // namespace

JobStream::JobStream(const JobsSpec& spec, const JobCatalog& catalog, const Calendar& calendar, std::uint64_t seed,
                     std::uint32_t path, double horizon_h, double growth_per_year)
    : seed_(seed), path_(path), horizon_h_(horizon_h), growth_per_year_(growth_per_year),
      growth_per_h_(std::log1p(growth_per_year) / kHoursPerYear) {
  if (!spec.trace_file.empty()) {
    const double clock_offset_h =
        catalog.trace_start ? trace_clock_offset_h(*catalog.trace_start, calendar.start_weekday) : 0.0;
    if (spec.weekly_bootstrap)
      sources_.push_back(std::make_unique<WeeklyBootstrap>(catalog, seed, path, clock_offset_h));
    else sources_.push_back(std::make_unique<TableTrace>(catalog, spec.tile, clock_offset_h));
  }
  for (std::size_t i = 0; i < spec.poisson.size(); ++i)
    sources_.push_back(std::make_unique<PoissonSource>(spec.poisson[i], catalog, calendar, seed, path, static_cast<std::uint32_t>(i)));
  for (std::size_t i = 0; i < spec.campaigns.size(); ++i)
    sources_.push_back(std::make_unique<CampaignSource>(spec.campaigns[i], catalog, seed, path, static_cast<std::uint32_t>(i)));
  for (std::size_t i = 0; i < spec.steady.size(); ++i)
    sources_.push_back(std::make_unique<SteadySource>(spec.steady[i], catalog, seed, path, static_cast<std::uint32_t>(i)));
  heads_.resize(sources_.size());
  for (std::size_t i = 0; i < sources_.size(); ++i) pull_head(i);
}

// A source with no more jobs keeps a head that never comes first: submit_h = infinity.
void JobStream::pull_head(std::size_t source) {
  if (!sources_[source]->next(heads_[source])) heads_[source].submit_h = std::numeric_limits<double>::infinity();
}

JobStream::~JobStream() = default;

// The earliest head among the sources (ties: the source listed first).
bool JobStream::next_base(SimJob& job) {
  if (sources_.empty()) return false;
  std::size_t best = 0;
  for (std::size_t i = 1; i < sources_.size(); ++i)
    if (heads_[i].submit_h < heads_[best].submit_h) best = i;
  if (!(heads_[best].submit_h < horizon_h_)) return false;
  job = heads_[best];
  pull_head(best);
  return true;
}

// uniform(seed, path, growth_clone, base, 0), kCloneBatch bases at a time (bases come in order).
double JobStream::clone_uniform(std::uint32_t base) {
  if (base - clone_first_ >= kCloneBatch || !clone_ready_) {
    clone_first_ = base;
    clone_ready_ = true;
    double unused[kCloneBatch];
    uniform_pairs_by_entity(seed_, path_, RandomSource::growth_clone, base, kCloneBatch, clone_u_, unused);
  }
  return clone_u_[base - clone_first_];
}

bool JobStream::next(SimJob& job) {
  while (pending_copies_ == 0) {
    if (!next_base(pending_)) return false;
    const std::uint32_t base = base_index_++;
    if (growth_per_year_ == 0.0) {
      pending_copies_ = 1;
    } else {
      const double m = std::exp(growth_per_h_ * pending_.submit_h);
      const double whole = std::floor(m);
      const double u = clone_uniform(base);
      pending_copies_ = static_cast<int>(whole) + (u < m - whole ? 1 : 0);
    }
  }
  --pending_copies_;
  job = pending_;
  job.entity = static_cast<std::uint32_t>(emitted_++);
  return true;
}

}  // namespace tco::des
