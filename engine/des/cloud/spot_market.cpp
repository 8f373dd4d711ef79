#include "engine/des/cloud/spot_market.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/io/json_reader.hpp"
#include "core/random/random.hpp"

namespace tco::des {

SpotTrace load_spot_trace(const std::string& path) {
  const Json doc = read_json_file(path);
  SpotTrace t;
  t.path = path;
  if (!doc.is_object() || !doc.contains("metadata") || !doc.contains("data"))
    throw InputError(path, "", "expected {\"metadata\": {\"gap_seconds\": G}, \"data\": [...]}, found " + describe_json(doc));
  const Json& gap = doc.at("metadata").is_object() && doc.at("metadata").contains("gap_seconds")
                        ? doc.at("metadata").at("gap_seconds") : Json();
  if (!gap.is_number() || gap.get<double>() <= 0.0)
    throw InputError(path, "/metadata/gap_seconds", "expected a number of seconds > 0, found " + describe_json(gap));
  t.gap_h = gap.get<double>() / 3600.0;
  const Json& data = doc.at("data");
  if (!data.is_array() || data.size() < 2)
    throw InputError(path, "/data", "expected an array of at least 2 instance counts, found " + describe_json(data));
  for (std::size_t i = 0; i < data.size(); ++i) {
    if (!data[i].is_number_integer() || data[i].get<long>() < 0)
      throw InputError(path, "/data/" + std::to_string(i), "expected a count >= 0, found " + describe_json(data[i]));
    t.counts.push_back(data[i].get<int>());
    t.max_count = std::max(t.max_count, t.counts.back());
  }
  if (t.max_count == 0) throw InputError(path, "/data", "expected some capacity in the trace, found only zeros");
  const std::size_t n = t.counts.size();
  double dropped = 0.0, up = 0.0;
  long available = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const int before = t.counts[(i + n - 1) % n];
    if (t.counts[i] < before) {
      t.drops.push_back(static_cast<std::uint32_t>(i));
      dropped += before - t.counts[i];
    }
    up += t.counts[i];
    available += t.counts[i] > 0 ? 1 : 0;
  }
  t.span_h = static_cast<double>(n) * t.gap_h;
  t.preemptions_per_instance_hour = dropped / (up * t.gap_h);
  t.availability = static_cast<double>(available) / static_cast<double>(n);
  return t;
}

SpotMarket::SpotMarket(const SpotSpec& spec, const SpotTrace* trace, std::uint64_t seed, std::uint32_t path)
    : spec_(spec), trace_(trace), seed_(seed), path_(path) {
  if (trace_) offset_h_ = uniform(seed, path, RandomSource::trace_offset, 0, 0) * trace_->span_h;
}

// The tick holding t. The nudge puts t = (tick x gap - offset), a drop's own time computed
// below, in that tick despite rounding, so a job preempted by a drop sees the drop's count.
long SpotMarket::tick_at(double t_h) const {
  return static_cast<long>(std::floor((offset_h_ + t_h) / trace_->gap_h + 1e-9));
}

bool SpotMarket::available(double t_h, int instances, std::uint32_t entity, std::uint32_t try_index) const {
  if (!trace_) {
    if (spec_.availability >= 1.0) return true;
    return uniform(seed_, path_, RandomSource::spot_availability, entity, try_index) < spec_.availability;
  }
  const long n = static_cast<long>(trace_->counts.size());
  return trace_->counts[tick_at(t_h) % n] >= std::min(instances, trace_->max_count);
}

double SpotMarket::preemption_time(double t_from_h, double t_until_h, int instances, std::uint32_t entity,
                                   std::uint32_t attempt) const {
  constexpr double kNever = std::numeric_limits<double>::infinity();
  if (!trace_) {
    const double rate = spec_.preemptions_per_instance_hour * instances;
    if (rate <= 0.0) return kNever;
    const double t = t_from_h + exponential_quantile(uniform(seed_, path_, RandomSource::preemption, entity, attempt), rate);
    return t < t_until_h ? t : kNever;
  }
  const auto& drops = trace_->drops;
  if (drops.empty()) return kNever;
  const long n = static_cast<long>(trace_->counts.size());
  long tick = tick_at(t_from_h);
  for (std::uint32_t k = 0;; ++k) {
    // The next drop tick strictly after `tick`, unwrapped.
    const long base = tick - (tick % n + n) % n;
    const long position = tick - base;
    auto it = std::upper_bound(drops.begin(), drops.end(), static_cast<std::uint32_t>(position));
    const long next = it == drops.end() ? base + n + drops.front() : base + *it;
    const double t = std::max(t_from_h, next * trace_->gap_h - offset_h_);
    if (t >= t_until_h) return kNever;
    const int before = trace_->counts[(next - 1 + n) % n];
    const int after = trace_->counts[next % n];
    const double survive = std::pow(static_cast<double>(after) / before, instances);
    const double u = uniform(seed_, path_, RandomSource::preemption, entity, (attempt << 16) | std::min<std::uint32_t>(k, 65535));
    if (u >= survive) return t;
    tick = next;
  }
}

double SpotMarket::rate_per_instance_hour() const {
  return trace_ ? trace_->preemptions_per_instance_hour : spec_.preemptions_per_instance_hour;
}

}  // namespace tco::des
