// From tokens to GPUs (models/serving/replica_capacity.hpp): the capacity of one replica at a
// latency target between two measured points, worked out by hand; exact at measured points; an
// error naming the profile and its range when no measured point meets the target; and, over
// generated profiles, a stricter target never needs fewer GPUs.
#include <cstdint>
#include <string>

#include <doctest/doctest.h>

#include "core/error.hpp"
#include "models/serving/replica_capacity.hpp"

namespace tco::test {

namespace {

ServingPoint point(double concurrency, double tokens_per_s_per_gpu, double interactivity, double p90_ttft_ms) {
  ServingPoint p;
  p.concurrency = concurrency;
  p.tokens_per_s_per_gpu = tokens_per_s_per_gpu;
  p.interactivity_tokens_per_s_per_user = interactivity;
  p.p90_ttft_ms = p90_ttft_ms;
  return p;
}

// 8 GPUs a replica; (concurrency, tokens/s per GPU, tokens/s per user, p90 TTFT ms).
ServingProfile three_points() {
  ServingProfile s;
  s.gpus_per_replica = 8;
  s.points = {point(32, 200, 25, 900), point(8, 100, 50, 300), point(16, 150, 40, 500)};  // any order
  return s;
}

}  // namespace

TEST_CASE("replica capacity: a target between two measured points, interpolated in concurrency") {
  const ServingProfile s = three_points();
  // 30 tokens/s per user lies between concurrency 16 (40) and 32 (25):
  //   t  = (40 - 30) / (40 - 25) = 2/3;  c* = 16 + 16 x 2/3 = 26.6667
  //   tokens/s per GPU = 150 + (200 - 150) x 2/3 = 183.3333; a replica of 8: 1,466.667
  const ReplicaCapacity c = replica_capacity(s, {30.0, std::nullopt}, "p");
  CHECK(c.concurrency == doctest::Approx(16.0 + 16.0 * 2.0 / 3.0).epsilon(1e-12));
  CHECK(c.tokens_per_s_per_gpu == doctest::Approx(150.0 + 50.0 * 2.0 / 3.0).epsilon(1e-12));
  CHECK(c.replica_tokens_per_s() == doctest::Approx(8.0 * (150.0 + 50.0 * 2.0 / 3.0)).epsilon(1e-12));
  // 1e7 tokens in an hour: 3,600 x 1,466.667 = 5,280,000 tokens a replica-hour; 1e7 / 5.28e6 =
  // 1.89 -> 2 replicas = 16 GPUs. 5.28e6 exactly: 1 replica; one token more: 2.
  CHECK(gpus_for_hour_tokens(1e7, c) == 16.0);
  CHECK(gpus_for_hour_tokens(5.28e6 * (1 - 1e-12), c) == 8.0);
  CHECK(gpus_for_hour_tokens(5.28e6 * (1 + 1e-9), c) == 16.0);
  CHECK(gpus_for_hour_tokens(0.0, c) == 0.0);

  // A TTFT target binds first: p90 TTFT <= 700 ms between 16 (500) and 32 (900): t = 200 / 400
  // = 0.5 < 2/3, so c* = 24 and 150 + 50 x 0.5 = 175 tokens/s per GPU.
  const ReplicaCapacity ttft = replica_capacity(s, {30.0, 700.0}, "p");
  CHECK(ttft.concurrency == doctest::Approx(24.0).epsilon(1e-12));
  CHECK(ttft.tokens_per_s_per_gpu == doctest::Approx(175.0).epsilon(1e-12));
}

TEST_CASE("replica capacity: exact at measured points, and the largest measured point when all meet the target") {
  const ServingProfile s = three_points();
  const ReplicaCapacity at16 = replica_capacity(s, {40.0, std::nullopt}, "p");
  CHECK(at16.concurrency == 16.0);
  CHECK(at16.tokens_per_s_per_gpu == 150.0);
  const ReplicaCapacity loose = replica_capacity(s, {10.0, std::nullopt}, "p");
  CHECK(loose.concurrency == 32.0);
  CHECK(loose.tokens_per_s_per_gpu == 200.0);
}

TEST_CASE("replica capacity: a target no measured point meets is an error naming the profile and its range") {
  const ServingProfile s = three_points();
  try {
    replica_capacity(s, {60.0, std::nullopt}, "inferencex/dsr1/h200/x");
    FAIL("expected a ModelError");
  } catch (const ModelError& e) {
    const std::string m = e.what();
    CHECK(m.find("inferencex/dsr1/h200/x") != std::string::npos);
    CHECK(m.find("concurrency 8 to 32") != std::string::npos);
    CHECK(m.find("no extrapolation") != std::string::npos);
  }
  CHECK_THROWS_AS(replica_capacity(s, {30.0, 200.0}, "p"), ModelError);  // p90 TTFT 300 ms at the lowest point
  ServingProfile no_ttft = s;
  no_ttft.points[0].p90_ttft_ms.reset();
  CHECK_THROWS_WITH_AS(replica_capacity(no_ttft, {30.0, 700.0}, "q"),
                       doctest::Contains("has no p90 TTFT at concurrency 32"), ModelError);
}

TEST_CASE("replica capacity property: a stricter target never needs fewer GPUs (generated profiles)") {
  std::uint64_t state = 46;
  auto next = [&state] {  // splitmix64 -> [0, 1)
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
  };
  int compared = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    // A measured curve as benchmarks give it: concurrency doubling, throughput rising,
    // interactivity falling, TTFT rising.
    ServingProfile s;
    s.gpus_per_replica = 1 + static_cast<int>(next() * 16);
    double c = 1 + static_cast<int>(next() * 4), tput = 50 + 500 * next(), inter = 50 + 150 * next(),
           ttft = 50 + 200 * next();
    const int n = 2 + static_cast<int>(next() * 6);
    for (int i = 0; i < n; ++i) {
      s.points.push_back(point(c, tput, inter, ttft));
      c *= 2;
      tput *= 1.05 + next();
      inter *= 0.5 + 0.45 * next();
      ttft *= 1.05 + next();
    }
    const double tokens = 1e6 + 1e10 * next();
    const ServingSlo loose{inter * (1 + 3 * next()), 100 + 2000 * next()};
    const ServingSlo strict{loose.min_interactivity_tokens_per_s_per_user * (1 + next()),
                            *loose.max_p90_ttft_ms * (0.5 + 0.5 * next())};
    double loose_gpus = 0, strict_gpus = 0;
    try {
      strict_gpus = gpus_for_hour_tokens(tokens, replica_capacity(s, strict, "g"));
    } catch (const ModelError&) {
      continue;  // the stricter target is out of the measured range: nothing to compare
    }
    loose_gpus = gpus_for_hour_tokens(tokens, replica_capacity(s, loose, "g"));  // meetable when strict is
    INFO("trial " << trial);
    CHECK(strict_gpus >= loose_gpus);
    ++compared;
  }
  CHECK(compared > 500);
}

}  // namespace tco::test

#include "models/serving/token_cost.hpp"

namespace tco::test {

TEST_CASE("$ per million tokens: a GPU-hour price over the tokens a GPU serves in the hour") {
  // $2.50 per GPU-hour at 1,000 tokens/s per GPU: 3,600 x 1,000 = 3.6e6 tokens a GPU-hour;
  // 2.5 / 3.6e6 x 1e6 = 0.69444... $ per million tokens.
  CHECK(usd_per_million_tokens_at(2.5, 1000.0) == doctest::Approx(2.5 / 3.6).epsilon(1e-12));
  // The replica of the hand-computed target above: 183.333 tokens/s per GPU at $3.20 per GPU-hour:
  // 3.2 x 1e6 / (183.333 x 3,600) = 3.2 / 0.66 = 4.848484... $ per million tokens.
  CHECK(usd_per_million_tokens_at(3.2, 150.0 + 50.0 * 2.0 / 3.0) == doctest::Approx(3.2 / 0.66).epsilon(1e-12));
  // A plan's cost over what it served: $1.2M for 3e11 tokens = $4 per million.
  CHECK(usd_per_million_tokens(1.2e6, 3e11) == doctest::Approx(4.0).epsilon(1e-12));
}

}  // namespace tco::test
