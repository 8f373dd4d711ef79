// Which GPU a rank takes (docs/cluster.md "One GPU per rank"): the launcher tells each process
// its rank among the processes of its node in an environment variable, and rank r of a node
// with D visible devices uses device r mod D, so K ranks per node spread over its GPUs. Header-
// only: the CUDA backend's static library uses it without linking the core library.
// Read in order: OMPI_COMM_WORLD_LOCAL_RANK (Open MPI's mpirun), MPI_LOCALRANKID (MPICH, Intel
// MPI), MV2_COMM_WORLD_LOCAL_RANK (MVAPICH2), SLURM_LOCALID (srun); the first that holds a
// whole number >= 0 counts. Without one (a single process, or an unknown launcher): device 0.
// Example: mpirun -n 8 on two nodes of 4 GPUs: local ranks 0-3 on each node, devices 0-3.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace tco {

inline std::optional<int> launcher_local_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "MV2_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID"}) {
    const char* value = std::getenv(name);
    if (!value || !*value) continue;
    const std::string text(value);
    if (text.size() > 6 || text.find_first_not_of("0123456789") != std::string::npos) continue;
    return std::stoi(text);
  }
  return std::nullopt;
}

inline int device_for_local_rank(std::optional<int> local_rank, int device_count) {
  return device_count > 0 ? local_rank.value_or(0) % device_count : 0;
}

}  // namespace tco
