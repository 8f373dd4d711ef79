// Percentiles of a latency without keeping the latencies (issue 47: memory that does not grow
// with the requests served). A positive value x = m 2^e (1 <= m < 2) falls in the bucket of its
// exponent e and the top 7 bits of m: 128 buckets an octave, each 1/128 = 0.78% of its lower
// bound wide, from 2^-24 s (60 ns) to 2^24 s (194 days); outside that the first or last bucket.
// Exact zeros (a request that did not wait) have their own count. A percentile is the midpoint
// of the bucket holding its rank, so within 0.4% of the latency the sorted list would give.
// Example: 0.1 s = 1.6 x 2^-4; m - 1 = 0.6 = 76.8/128, so bucket (-4 + 24) x 128 + 76 = 2636,
// [1.59375 / 16, 1.6015625 / 16) = [0.099609375, 0.10009765625), midpoint 0.099853515625.
#pragma once

#include <array>
#include <cstdint>
#include <cmath>
#include <cstring>

namespace tco::serving {

class LatencyHistogram {
 public:
  static constexpr int kMinExponent = -24;
  static constexpr int kOctaves = 48;
  static constexpr int kBucketsPerOctave = 128;
  static constexpr int kBuckets = kOctaves * kBucketsPerOctave;

  void add(double seconds) {
    ++count_;
    if (!(seconds > 0.0)) {
      ++zeros_;
      return;
    }
    ++buckets_[bucket_of(seconds)];
  }

  void merge(const LatencyHistogram& other) {
    count_ += other.count_;
    zeros_ += other.zeros_;
    for (int i = 0; i < kBuckets; ++i) buckets_[i] += other.buckets_[i];
  }

  std::uint64_t count() const { return count_; }

  // The value at rank ceil(p x count) (p in (0, 1]): 0 for a rank among the zeros, else its
  // bucket's midpoint. 0 for an empty histogram.
  double percentile(double p) const {
    if (count_ == 0) return 0.0;
    std::uint64_t rank = static_cast<std::uint64_t>(p * static_cast<double>(count_));
    if (static_cast<double>(rank) < p * static_cast<double>(count_)) ++rank;
    if (rank < 1) rank = 1;
    if (rank <= zeros_) return 0.0;
    std::uint64_t seen = zeros_;
    for (int i = 0; i < kBuckets; ++i) {
      seen += buckets_[i];
      if (seen >= rank) return 0.5 * (lower_bound(i) + lower_bound(i + 1));
    }
    return lower_bound(kBuckets);
  }

  // [lower_bound(i), lower_bound(i + 1)) is bucket i.
  static double lower_bound(int bucket) {
    const int octave = bucket / kBucketsPerOctave, step = bucket % kBucketsPerOctave;
    return std::ldexp(1.0 + static_cast<double>(step) / kBucketsPerOctave, octave + kMinExponent);
  }

  static int bucket_of(double seconds) {
    std::uint64_t bits;
    std::memcpy(&bits, &seconds, sizeof bits);
    const int exponent = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
    const int step = static_cast<int>((bits >> 45) & 0x7f);
    const int bucket = (exponent - kMinExponent) * kBucketsPerOctave + step;
    return bucket < 0 ? 0 : bucket >= kBuckets ? kBuckets - 1 : bucket;
  }

 private:
  std::uint64_t count_ = 0, zeros_ = 0;
  std::array<std::uint64_t, kBuckets> buckets_{};
};

}  // namespace tco::serving
