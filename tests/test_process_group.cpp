// The pieces an MPI run is built of (core/parallel/process_group.hpp, docs/cluster.md), in one
// process: the contiguous blocks the ranks take, the one-process collectives, a replay path's
// outcome through the gather's bytes, and a block of the fluid model's paths computed alone.
// The K-process runs themselves are the ctest tests mpi_run_* (tests/check_mpi.py).
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "core/parallel/process_group.hpp"
#include "engine/montecarlo/path_outcome_codec.hpp"
#include "engine/sweep/sweep_backend.hpp"
#include "test_sweep_support.hpp"

namespace tco::test {

TEST_CASE("index_block: contiguous shares, the first n mod K ranks one item more, empty past n") {
  // 10 paths over 4 ranks: 10 = 3 + 3 + 2 + 2.
  const long expected[4][2] = {{0, 3}, {3, 6}, {6, 8}, {8, 10}};
  for (int r = 0; r < 4; ++r) {
    CHECK(index_block(10, r, 4).begin == expected[r][0]);
    CHECK(index_block(10, r, 4).end == expected[r][1]);
  }
  // 3 paths over 4 ranks: rank 3 has none.
  CHECK(index_block(3, 2, 4).begin == 2);
  CHECK(index_block(3, 2, 4).end == 3);
  CHECK(index_block(3, 3, 4).size() == 0);
  CHECK(index_block(7, 0, 1).size() == 7);
}

TEST_CASE("process group: one process is rank 0 of 1 and its collectives return its own values") {
  CHECK(process_rank() == 0);
  CHECK(process_count() == 1);
  CHECK(broadcast_int(42) == 42);
  std::string bytes = "abc";
  broadcast_bytes(bytes);
  CHECK(bytes == "abc");
  const std::vector<double> mine = {1.5, -2.25, 1e300};
  CHECK(gather_doubles(mine) == mine);
}

TEST_CASE("path outcome codec: an outcome comes back bit for bit; truncated bytes are an error") {
  des::PathOutcome o;
  o.cost_by_month.assign(3, des::CostRow{});
  o.cost_by_month[2][5] = 1234.5678;
  o.cost_by_month[0][0] = -0.1;
  o.peak_facility_kw_by_month = {10.0, 20.5, 0.0};
  o.gpu_hours.useful = 77.25;
  o.it_energy_kwh = 3.0e6;
  o.facility_energy_kwh = 4.2e6;
  o.throttled_hours = 17;
  o.jobs.submitted = 123456789;
  o.jobs.first_wait_h_sum = 0.1 + 0.2;
  o.events = 9876543210L;
  std::string bytes;
  append_path_outcome(bytes, o);
  append_path_outcome(bytes, o);
  // 8 x (2 + 3 x (14 + 1) + 13) + 4 + 192 bytes each.
  CHECK(bytes.size() == 2 * (8 * (2 + 3 * 15 + 13) + 4 + 192));
  std::size_t offset = 0;
  for (int copy = 0; copy < 2; ++copy) {
    const des::PathOutcome back = read_path_outcome(bytes, offset);
    CHECK(back.cost_by_month == o.cost_by_month);
    CHECK(back.peak_facility_kw_by_month == o.peak_facility_kw_by_month);
    CHECK(back.gpu_hours == o.gpu_hours);
    CHECK(back.it_energy_kwh == o.it_energy_kwh);
    CHECK(back.facility_energy_kwh == o.facility_energy_kwh);
    CHECK(back.throttled_hours == 17);
    CHECK(back.jobs == o.jobs);
    CHECK(back.events == 9876543210L);
  }
  CHECK(offset == bytes.size());
  std::size_t short_offset = 0;
  CHECK_THROWS(read_path_outcome(std::string_view(bytes).substr(0, 100), short_offset));
}

TEST_CASE("run_sweep_cpu: a rank's block of paths (first_path) gives those paths' values of the whole run") {
  const Scenario s = load_sweep_scenario(random_sweep_json());
  const SweepChunk chunk = make_sweep_chunk({prepare_sweep_point(s, 7)});
  const SweepPathValues all = run_sweep_cpu(chunk, 9, 1);
  const SweepPathValues block = run_sweep_cpu(chunk, 4, 2, nullptr, 3);  // paths 3, 4, 5, 6
  const SweepPointHeader& point = chunk.points.front();
  for (long k = 0; k < 4; ++k)
    for (int j = 0; j < point.plan_count; ++j) {
      CHECK(block.npv_usd[block.index(point, k, j)] == all.npv_usd[all.index(point, 3 + k, j)]);
      CHECK(block.total_usd[block.index(point, k, j)] == all.total_usd[all.index(point, 3 + k, j)]);
    }
  CHECK(run_sweep_cpu(chunk, 0, 1, nullptr, 5).npv_usd.empty());  // a rank with no path
}

}  // namespace tco::test
