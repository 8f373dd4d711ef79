// The request-level serving replay (issue 47, engine/des/serving/): a hand-traced case of three
// requests with every rate written out, the queueing closed forms (M/M/c: Erlang C; M/M/1
// processor sharing: E[S] / (1 - rho), the same with lognormal lengths), drops past max_wait_s,
// the latency histogram's buckets, and determinism.
#include <cmath>
#include <limits>
#include <vector>

#include <doctest/doctest.h>

#include "core/error.hpp"
#include "core/random/random.hpp"
#include "engine/des/serving/keyed_heaps.hpp"
#include "engine/des/serving/least_loaded.hpp"
#include "models/serving/profile_rates.hpp"
#include "engine/des/serving/request_replay.hpp"

using namespace tco::serving;

namespace {

struct PathMeans {
  double mean = 0.0, stderr_ = 0.0;
};

// The mean over paths of a per-path figure, with its standard error.
template <class Figure>
PathMeans over_paths(const RequestReplayConfig& c, int paths, Figure figure) {
  double sum = 0.0, sum_sq = 0.0;
  for (int p = 0; p < paths; ++p) {
    const double x = figure(replay_requests(c, static_cast<std::uint32_t>(p)));
    sum += x;
    sum_sq += x * x;
  }
  const double mean = sum / paths;
  return {mean, std::sqrt((sum_sq / paths - mean * mean) / (paths - 1))};
}

TokenLength fixed(double tokens) { return {TokenLength::Kind::fixed, tokens, 0.0, {}}; }

}  // namespace

TEST_CASE("request replay: three requests on one replica, every rate and time written out") {
  // max_concurrency 2; each decoding request gains r(1) = 10 or r(2) = 6 tokens/s; prefill takes
  // p(1) = 0.001 or p(2) = 0.002 s per input token, n counted once the request is admitted.
  // A (t 0, 100 in, 20 out), B (t 0.5, 50 in, 10 out), C (t 1.0, 10 in, 5 out). A(t) is the
  // replica's attained service.
  //   0.0    A admitted, prefill 100 x 0.001 = 0.1 s
  //   0.1    A decodes; A(0.1) = 10 x 0.1 = 1, so A finishes at A = 21
  //   0.5    A = 1 + 10 x 0.4 = 5; B admitted (n = 2, rate 6), prefill 50 x 0.002 = 0.1 s
  //   0.6    A = 5.6; B decodes, finishes at A = 15.6
  //   1.0    C arrives: both slots taken, it waits
  //   2.2667 B done: A = 15.6 at 0.6 + 10 / 6; C admitted (wait 1.2667), prefill 10 x 0.002 = 0.02
  //   2.2867 A = 15.72; C decodes, finishes at A = 20.72
  //   3.12   C done: 2.28667 + 5 / 6; A alone at rate 10 has 21 - 20.72 = 0.28 tokens left
  //   3.148  A done: 3.12 + 0.028
  RequestReplayConfig c;
  c.rates.decode_tokens_per_s_by_active = {10.0, 6.0};
  c.rates.prefill_s_per_input_token_by_active = {0.001, 0.002};
  c.trace = {{0.0, 100.0, 20.0}, {0.5, 50.0, 10.0}, {1.0, 10.0, 5.0}};
  std::vector<RequestRecord> r;
  const RequestReplayStats s = replay_requests(c, 0, &r);
  REQUIRE(r.size() == 3);
  const double b_done = 0.6 + 10.0 / 6.0, c_first = b_done + 0.02, c_done = c_first + 5.0 / 6.0;
  CHECK(r[0].admitted_s == 0.0);
  CHECK(r[0].first_token_s == doctest::Approx(0.1).epsilon(1e-12));
  CHECK(r[0].finished_s == doctest::Approx(3.148).epsilon(1e-12));
  CHECK(r[1].admitted_s == 0.5);
  CHECK(r[1].first_token_s == doctest::Approx(0.6).epsilon(1e-12));
  CHECK(r[1].finished_s == doctest::Approx(b_done).epsilon(1e-12));
  CHECK(r[2].admitted_s == doctest::Approx(b_done).epsilon(1e-12));
  CHECK(r[2].first_token_s == doctest::Approx(c_first).epsilon(1e-12));
  CHECK(c_done == doctest::Approx(3.12).epsilon(1e-12));
  CHECK(r[2].finished_s == doctest::Approx(3.12).epsilon(1e-12));
  CHECK(s.served == 3);
  CHECK(s.waited == 1);
  CHECK(s.wait_s_sum == doctest::Approx(b_done - 1.0).epsilon(1e-12));
  // TTFT = wait + prefill: 0.1 + 0.1 + (1.26667 + 0.02).
  CHECK(s.ttft_s_sum == doctest::Approx(0.1 + 0.1 + (c_first - 1.0)).epsilon(1e-12));
  CHECK(s.e2e_s_sum == doctest::Approx(3.148 + (b_done - 0.5) + (3.12 - 1.0)).epsilon(1e-12));
  CHECK(s.busy_replica_s == doctest::Approx(3.148).epsilon(1e-12));
  CHECK(s.output_tokens_served == 35.0);
  CHECK(s.input_tokens_served == 160.0);
}

TEST_CASE("request replay: a request waiting past max_wait_s is dropped when it would have waited longer") {
  // One slot at 1 token/s. R0 (t 0, 10 tokens) holds it until t 10; R1 (t 1) would wait 9 s > 5:
  // dropped at t 6; R2 (t 8) starts at t 10 (wait 2) and ends at t 13.
  RequestReplayConfig c;
  c.rates.decode_tokens_per_s_by_active = {1.0};
  c.trace = {{0.0, 1.0, 10.0}, {1.0, 1.0, 10.0}, {8.0, 1.0, 3.0}};
  c.max_wait_s = 5.0;
  std::vector<RequestRecord> r;
  const RequestReplayStats s = replay_requests(c, 0, &r);
  CHECK(s.served == 2);
  CHECK(s.dropped == 1);
  CHECK(r[1].dropped);
  CHECK(r[1].finished_s == 6.0);
  CHECK(r[2].admitted_s == 10.0);
  CHECK(r[2].finished_s == 13.0);
  CHECK(s.wait_s_sum == 2.0);
}

TEST_CASE("request replay: constant interactivity with c slots and exponential lengths is M/M/c (Erlang C)") {
  // c = 4 slots, r(n) = 10 tokens/s for every n, output Exp(mean 10 tokens): service Exp(1 s),
  // mu = 1; lambda = 3/s, a = 3 Erlangs. Erlang B by recursion: B1 = 0.75, B2 = 0.529412,
  // B3 = 0.346154, B4 = 0.206107; C = c B / (c - a (1 - B)) = 0.824427 / 1.618321 = 0.509434 =
  // P(wait); mean wait W = C / (c mu - lambda) = 0.509434 s. 12 paths of 30,000 s after a 1,000 s
  // warm-up (about 90,000 requests each).
  const int slots = 4;
  const double lambda = 3.0, mu = 1.0, a = lambda / mu;
  double b = 1.0;
  for (int k = 1; k <= slots; ++k) b = a * b / (k + a * b);
  const double erlang_c = slots * b / (slots - a * (1.0 - b));
  CHECK(erlang_c == doctest::Approx(0.509434).epsilon(1e-5));
  RequestReplayConfig c;
  c.rates.decode_tokens_per_s_by_active.assign(slots, 10.0);
  c.requests_per_s_by_step = {lambda};
  c.step_s = 31000.0;
  c.warmup_s = 1000.0;
  c.input_tokens = fixed(1.0);
  c.output_tokens = {TokenLength::Kind::exponential, 10.0, 0.0, {}};
  c.seed = 47;
  const PathMeans wait = over_paths(c, 12, [](const RequestReplayStats& s) { return s.wait_s_sum / s.served; });
  const PathMeans p_wait = over_paths(c, 12, [](const RequestReplayStats& s) { return double(s.waited) / s.served; });
  const double expected_wait_s = erlang_c / (slots * mu - lambda);
  MESSAGE("mean wait " << wait.mean << " +- " << wait.stderr_ << " s (Erlang C " << expected_wait_s << "), P(wait) "
                       << p_wait.mean << " +- " << p_wait.stderr_ << " (" << erlang_c << ")");
  CHECK(std::fabs(wait.mean - expected_wait_s) <= 4.0 * wait.stderr_);
  CHECK(std::fabs(p_wait.mean - erlang_c) <= 4.0 * p_wait.stderr_);
  CHECK(wait.stderr_ < 0.02 * expected_wait_s);  // the test can tell a 10% error
}

TEST_CASE("request replay: a fixed replica throughput shared by all is M/M/1 processor sharing, insensitive to the length law") {
  // r(n) = 100 / n tokens/s (the replica's 100 tokens/s shared), no slot limit within reach
  // (2,000 slots; P(n >= 2,000) = 0.6^2000). Output mean 50 tokens: E[S] = 0.5 s; lambda = 1.2/s,
  // rho = 0.6: mean time in system = E[S] / (1 - rho) = 0.5 / 0.4 = 1.25 s, for exponential
  // lengths and for lognormal ones of the same mean (median 50 / e^0.5 = 30.327, sigma 1).
  RequestReplayConfig c;
  for (int n = 1; n <= 2000; ++n) c.rates.decode_tokens_per_s_by_active.push_back(100.0 / n);
  c.requests_per_s_by_step = {1.2};
  c.step_s = 41000.0;
  c.warmup_s = 1000.0;
  c.input_tokens = fixed(1.0);
  c.seed = 2026;
  const double expected_s = 0.5 / (1.0 - 0.6);
  const auto mean_e2e = [](const RequestReplayStats& s) { return s.e2e_s_sum / s.served; };
  c.output_tokens = {TokenLength::Kind::exponential, 50.0, 0.0, {}};
  const PathMeans exponential = over_paths(c, 12, mean_e2e);
  c.output_tokens = {TokenLength::Kind::lognormal, 50.0 / std::exp(0.5), 1.0, {}};
  CHECK(c.output_tokens.mean() == doctest::Approx(50.0).epsilon(1e-12));
  const PathMeans lognormal = over_paths(c, 12, mean_e2e);
  MESSAGE("mean time in system: exponential " << exponential.mean << " +- " << exponential.stderr_ << ", lognormal "
                                              << lognormal.mean << " +- " << lognormal.stderr_ << " (" << expected_s << ")");
  CHECK(std::fabs(exponential.mean - expected_s) <= 4.0 * exponential.stderr_);
  CHECK(std::fabs(lognormal.mean - expected_s) <= 4.0 * lognormal.stderr_);
  CHECK(exponential.stderr_ < 0.02 * expected_s);
  CHECK(lognormal.stderr_ < 0.03 * expected_s);
}

TEST_CASE("request replay: the same path gives the same figures, another path others, and the router spreads the load") {
  RequestReplayConfig c;
  c.replicas = 3;
  c.rates.decode_tokens_per_s_by_active = {30.0, 25.0, 20.0, 16.0};
  c.rates.prefill_s_per_input_token_by_active = {0.0002, 0.0003, 0.0004, 0.0005};
  c.requests_per_s_by_step = {2.0, 6.0, 1.0};
  c.step_s = 600.0;
  c.input_tokens = {TokenLength::Kind::lognormal, 1000.0, 0.8, {}};
  c.output_tokens = {TokenLength::Kind::lognormal, 60.0, 0.5, {}};
  c.seed = 9;
  const RequestReplayStats a = replay_requests(c, 4), b = replay_requests(c, 4), other = replay_requests(c, 5);
  CHECK(a.arrived == b.arrived);
  CHECK(a.e2e_s_sum == b.e2e_s_sum);
  CHECK(a.ttft_s.percentile(0.99) == b.ttft_s.percentile(0.99));
  CHECK(a.e2e_s_sum != other.e2e_s_sum);
  // About (2 + 6 + 1) x 600 = 5,400 arrivals.
  CHECK(a.arrived > 5000);
  CHECK(a.arrived < 5800);
  CHECK(a.served + a.dropped == a.arrived);
  std::vector<RequestRecord> records;
  replay_requests(c, 4, &records);
  std::vector<int> per_replica(3, 0);
  for (const RequestRecord& r : records) ++per_replica.at(static_cast<std::size_t>(r.replica));
  for (int n : per_replica) CHECK(n > 1000);
  c.router = Router::round_robin;
  records.clear();
  replay_requests(c, 4, &records);
  for (std::size_t k = 0; k < records.size(); ++k) CHECK(records[k].replica == static_cast<int>(k % 3));
}

TEST_CASE("latency histogram: buckets of 1/128 an octave, percentiles at bucket midpoints, zeros their own") {
  // 0.1 s = 1.6 x 2^-4: bucket (-4 + 24) x 128 + floor(0.6 x 128) = 2560 + 76 = 2636, spanning
  // [1.59375 / 16, 1.6015625 / 16) = [0.099609375, 0.10009765625).
  CHECK(LatencyHistogram::bucket_of(0.1) == 2636);
  CHECK(LatencyHistogram::lower_bound(2636) == 0.099609375);
  CHECK(LatencyHistogram::lower_bound(2637) == 0.10009765625);
  CHECK(LatencyHistogram::bucket_of(1.0) == 24 * 128);
  CHECK(LatencyHistogram::bucket_of(1e-30) == 0);
  CHECK(LatencyHistogram::bucket_of(1e30) == LatencyHistogram::kBuckets - 1);
  LatencyHistogram h;
  for (double x : {0.0, 0.0, 0.1, 2.0}) h.add(x);
  CHECK(h.percentile(0.5) == 0.0);                           // rank 2 of 4: a zero
  CHECK(h.percentile(0.75) == 0.5 * (0.099609375 + 0.10009765625));  // rank 3: 0.1's bucket
  CHECK(h.percentile(1.0) == 0.5 * (2.0 + 2.0 * (1.0 + 1.0 / 128)));  // 2.0 = 1.0 x 2^1, step 0
  LatencyHistogram empty;
  CHECK(empty.percentile(0.99) == 0.0);
}

TEST_CASE("request replay: a serving profile's points as rates, linear between them, never extrapolated") {
  // Points (16, TPOT 25 ms, TTFT 400 ms) and (32, 40 ms, 700 ms), input length 1,000:
  // r(24) = 40 + (25 - 40) x 8 / 16 = 32.5 tokens/s; p(24) = (400 + 300 x 0.5) / 1e3 / 1e3 = 0.00055 s/token.
  // Below 16: the first point's, r = 40, p = 0.0004.
  tco::ServingProfile profile;
  profile.input_tokens_per_request = 1000.0;
  tco::ServingPoint a, b;
  a.concurrency = 16;
  a.median_tpot_ms = 25.0;
  a.median_ttft_ms = 400.0;
  b.concurrency = 32;
  b.median_tpot_ms = 40.0;
  b.median_ttft_ms = 700.0;
  profile.points = {b, a};  // any order
  const ReplicaRates r = replica_rates(profile, 32, "p");
  REQUIRE(r.max_concurrency() == 32);
  CHECK(r.decode_tokens_per_s_by_active[23] == doctest::Approx(32.5).epsilon(1e-12));
  CHECK(r.prefill_s_per_input_token_by_active[23] == doctest::Approx(0.00055).epsilon(1e-12));
  CHECK(r.decode_tokens_per_s_by_active[0] == 40.0);
  CHECK(r.prefill_s_per_input_token_by_active[0] == doctest::Approx(0.0004).epsilon(1e-12));
  CHECK(r.decode_tokens_per_s_by_active[31] == 25.0);
  CHECK_THROWS_WITH_AS(replica_rates(profile, 33, "p"),
                       doctest::Contains("max_concurrency 33 is outside its measured concurrencies 16 to 32"),
                       tco::ModelError);
}

TEST_CASE("request replay: the least-loaded choice and the indexed heap against a scan") {
  // Counts moved at random by +-1 (never below 0) on 7 replicas: the choice has the lowest
  // count, and among equals the replica that has held it longest (tracked here by a clock).
  LeastLoaded loaded(7);
  IndexedHeap clock(7, 1e9);
  std::vector<std::uint32_t> count(7, 0);
  std::vector<long> since(7, 0);
  std::vector<double> key(7, 1e9);
  long tick = 0;
  std::uint64_t state = 12345;
  for (int step = 0; step < 5000; ++step) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const std::uint32_t item = static_cast<std::uint32_t>((state >> 33) % 7);
    const bool up = ((state >> 20) & 1) || count[item] == 0;
    count[item] = up ? count[item] + 1 : count[item] - 1;
    since[item] = ++tick;
    loaded.set(item, count[item]);
    std::uint32_t best = 0;
    for (std::uint32_t k = 1; k < 7; ++k)
      if (count[k] < count[best] || (count[k] == count[best] && since[k] < since[best])) best = k;
    REQUIRE(loaded.choose() == best);
    key[item] = static_cast<double>((state >> 40) % 1000);
    clock.set(item, key[item]);
    std::uint32_t first = 0;
    for (std::uint32_t k = 1; k < 7; ++k)
      if (key[k] < key[first]) first = k;
    REQUIRE(clock.top() == first);
    REQUIRE(clock.top_key() == key[first]);
  }
}

TEST_CASE("request replay: a rented replica launched while a request waits takes the oldest waiting, removed when idle, and overflow to the API") {
  // One owned replica of 1 slot, r(1) = 10 tokens/s, no prefill; up to 1 rented replica launched
  // when an arrival finds the oldest request waiting more than 0.5 s, running 2 s after its launch,
  // removed 3 s after it last had nothing to do.
  //   t 0   A (100 out) on replica 0, done at 10
  //   t 1   B (50 out) waits at replica 0 (the rented one is off); B has waited 0: no launch
  //   t 2   C (20 out) waits behind B; B has waited 1 > 0.5: replica 1 launched (2 waiting, none starting)
  //   t 4   replica 1 runs and takes the oldest waiting request, B (its start = the ready time 4),
  //         done at 4 + 50 / 10 = 9
  //   t 5   D (10 out): replica 0 has 1 active + 1 waiting, replica 1 has 1 active: D waits there
  //   t 9   B done; D admitted, done at 9 + 10 / 10 = 10
  //   t 10  A done (replica 0 first: the lower index at equal times); C admitted, done at 12;
  //         D done, replica 1 idle: removed at 13, billed 13 - 2 = 11 s
  // Tokens (5 input tokens each): owned A 105 + C 25 = 130, rented B 55 + D 15 = 70.
  RequestReplayConfig c;
  c.rates.decode_tokens_per_s_by_active = {10.0};
  c.replicas = 1;
  c.owned_replicas = 1;
  c.scaling = {1, 0.5, 2.0, 3.0};
  c.trace = {{0.0, 5.0, 100.0}, {1.0, 5.0, 50.0}, {2.0, 5.0, 20.0}, {5.0, 5.0, 10.0}};
  std::vector<RequestRecord> r;
  const RequestReplayStats s = replay_requests(c, 0, &r);
  REQUIRE(r.size() == 4);
  CHECK(r[1].replica == 1);
  CHECK(r[1].admitted_s == 4.0);
  CHECK(r[1].finished_s == doctest::Approx(9.0).epsilon(1e-12));
  CHECK(r[3].replica == 1);
  CHECK(r[3].admitted_s == doctest::Approx(9.0).epsilon(1e-12));
  CHECK(r[3].finished_s == doctest::Approx(10.0).epsilon(1e-12));
  CHECK(r[2].replica == 0);
  CHECK(r[2].admitted_s == doctest::Approx(10.0).epsilon(1e-12));
  CHECK(r[2].finished_s == doctest::Approx(12.0).epsilon(1e-12));
  CHECK(s.rented_launched == 1);
  CHECK(s.max_rented_running == 1);
  CHECK(s.rented_billed_replica_s == doctest::Approx(11.0).epsilon(1e-12));
  CHECK(s.rented_tokens_served == 70.0);
  CHECK(s.input_tokens_served + s.output_tokens_served - s.rented_tokens_served == 130.0);
  CHECK(s.to_api == 0);
  CHECK(s.wait_s_sum == doctest::Approx((4.0 - 1.0) + (10.0 - 2.0) + (9.0 - 5.0)).epsilon(1e-12));

  // No scaling, max_wait_s 8 with overflow to the API: at 10, B has waited 9 > 8 and goes to the
  // API; C (8, not more) is admitted at 10, done at 12. Without overflow B is dropped instead.
  c.scaling = {};
  c.max_wait_s = 8.0;
  c.overflow_to_api = true;
  r.clear();
  const RequestReplayStats api = replay_requests(c, 0, &r);
  CHECK(api.to_api == 1);
  CHECK(api.dropped == 0);
  CHECK(api.api_input_tokens == 5.0);
  CHECK(api.api_output_tokens == 50.0);
  CHECK(r[1].to_api);
  CHECK(r[2].finished_s == doctest::Approx(12.0).epsilon(1e-12));
  c.overflow_to_api = false;
  const RequestReplayStats dropped = replay_requests(c, 0);
  CHECK(dropped.to_api == 0);
  CHECK(dropped.dropped == 1);
  CHECK(dropped.api_output_tokens == 0.0);
}

TEST_CASE("request replay: the clock heap against a scan on 100 items with ties and infinite keys") {
  // 100 items: an 8-ary heap of 1 + 8 + 64 + 27 places, the last parent's children part padding.
  // Keys from 0 to 9 (many ties, broken by the lower item) or +inf (no event), moved up, down
  // and to the same value: the top is always the least (key, item) of a scan.
  constexpr std::uint32_t n = 100;
  IndexedHeap clock(n, std::numeric_limits<double>::infinity());
  std::vector<double> key(n, std::numeric_limits<double>::infinity());
  std::uint64_t state = 777;
  for (int step = 0; step < 20000; ++step) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const std::uint32_t item = static_cast<std::uint32_t>((state >> 33) % n);
    const std::uint64_t k = (state >> 45) % 11;
    key[item] = k == 10 ? std::numeric_limits<double>::infinity() : static_cast<double>(k);
    clock.set(item, key[item]);
    std::uint32_t first = 0;
    for (std::uint32_t j = 1; j < n; ++j)
      if (key[j] < key[first]) first = j;
    REQUIRE(clock.top() == first);
    REQUIRE(clock.top_key() == key[first]);
  }
}

TEST_CASE("request replay: arrivals drawn in blocks are the draws of uniform_pair request by request") {
  // Request k's gap is -ln(u1) / rate, its input tokens 1000 exp(0.8 Phi^-1(u2)) with (u1, u2) =
  // uniform_pair(seed, path, request_arrival, 0, k), its output tokens 60 exp(0.5 Phi^-1(u3)),
  // u3 = uniform(seed, path, request_tokens, 0, k): 300 requests span several blocks of 64.
  RequestReplayConfig c;
  c.replicas = 2;
  c.rates.decode_tokens_per_s_by_active = {30.0, 25.0};
  c.requests_per_s_by_step = {5.0};
  c.step_s = 60.0;  // about 300 requests
  c.input_tokens = {TokenLength::Kind::lognormal, 1000.0, 0.8, {}};
  c.output_tokens = {TokenLength::Kind::lognormal, 60.0, 0.5, {}};
  c.seed = 31;
  std::vector<RequestRecord> records;
  replay_requests(c, 3, &records);
  REQUIRE(records.size() > 200);
  double t = 0.0;
  for (std::size_t k = 0; k < records.size(); ++k) {
    const auto draw = static_cast<std::uint32_t>(k);
    const tco::UniformPair u = tco::uniform_pair(31, 3, tco::RandomSource::request_arrival, 0, draw);
    t += -std::log(u.first) / 5.0;
    CHECK(records[k].arrival_s == doctest::Approx(t).epsilon(1e-12));
    CHECK(records[k].input_tokens == 1000.0 * std::exp(0.8 * tco::normal_quantile(u.second)));
    CHECK(records[k].output_tokens ==
          60.0 * std::exp(0.5 * tco::normal_quantile(tco::uniform(31, 3, tco::RandomSource::request_tokens, 0, draw))));
  }
}
