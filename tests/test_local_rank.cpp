// One GPU per rank (core/parallel/local_rank.hpp): the launcher's local rank from its
// environment variable, and the device it maps to.
#include <doctest/doctest.h>

#include <cstdlib>

#include "core/parallel/local_rank.hpp"

namespace tco {

namespace {

const char* const kLocalRankVariables[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "MV2_COMM_WORLD_LOCAL_RANK",
                                           "SLURM_LOCALID"};

void clear_local_rank_variables() {
  for (const char* name : kLocalRankVariables) unsetenv(name);
}

}  // namespace

TEST_CASE("local rank: the launcher's variable picks the device, round robin over the node's GPUs") {
  clear_local_rank_variables();
  CHECK_FALSE(launcher_local_rank().has_value());
  CHECK(device_for_local_rank(launcher_local_rank(), 4) == 0);  // one process: device 0
  setenv("SLURM_LOCALID", "5", 1);
  REQUIRE(launcher_local_rank() == 5);
  CHECK(device_for_local_rank(5, 4) == 1);  // 5 mod 4
  // Open MPI's variable comes first; a value that is not a whole number >= 0 is passed over.
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "2", 1);
  CHECK(launcher_local_rank() == 2);
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "-1", 1);
  CHECK(launcher_local_rank() == 5);
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "x3", 1);
  setenv("MPI_LOCALRANKID", "", 1);
  CHECK(launcher_local_rank() == 5);
  CHECK(device_for_local_rank(7, 8) == 7);
  CHECK(device_for_local_rank(8, 8) == 0);
  CHECK(device_for_local_rank(3, 0) == 0);  // no device: the caller refuses before asking
  clear_local_rank_variables();
}

}  // namespace tco
