#include "core/parallel/process_group.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "core/parallel/index_shards.hpp"

#if defined(TCO_HAVE_MPI)
#include <mpi.h>
#endif

namespace tco {

namespace {

long env_long(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return 0;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  return *end == '\0' ? n : 0;
}

#if defined(TCO_HAVE_MPI)
bool mpi_running() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized != 0 && finalized == 0;
}

int checked_count(std::size_t n) {
  if (n > static_cast<std::size_t>(INT_MAX))
    throw std::length_error(fmt::format("an MPI message of {} bytes is over the 2 GiB a message may hold", n));
  return static_cast<int>(n);
}
#endif

}  // namespace

bool process_group_built() {
#if defined(TCO_HAVE_MPI)
  return true;
#else
  return false;
#endif
}

int launcher_process_count() {
  return static_cast<int>(std::max({1L, env_long("OMPI_COMM_WORLD_SIZE"), env_long("PMI_SIZE")}));
}

bool started_by_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

ProcessGroupScope::ProcessGroupScope(int& argc, char**& argv) {
#if defined(TCO_HAVE_MPI)
  // Started without a launcher, the program is one process and skips MPI_Init: Open MPI's
  // singleton start costs about 1.5 s (measured on the project's VM), on every command.
  if (!started_by_launcher()) return;
  // Threads call no MPI function: OpenMP runs inside a rank's share, between the collectives.
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  initialized_ = true;
#else
  (void)argc;
  (void)argv;
  if (const int k = launcher_process_count(); k > 1)
    launch_problem_ = fmt::format(
        "started as one of {} processes (mpirun or srun), but this tcosim was built without MPI: rebuild with "
        "-DTCO_MPI=ON (Debian: libopenmpi-dev), or run one process",
        k);
#endif
}

ProcessGroupScope::~ProcessGroupScope() {
#if defined(TCO_HAVE_MPI)
  if (initialized_ && mpi_running()) MPI_Finalize();
#endif
}

int process_rank() {
  if (shard_role() == ShardRole::shard) return shard_job_rank();
  if (shard_role() == ShardRole::merge) return shard_job_count();
#if defined(TCO_HAVE_MPI)
  if (mpi_running()) {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
  }
#endif
  return 0;
}

int process_count() {
  if (shard_role() != ShardRole::none) return shard_job_count();
#if defined(TCO_HAVE_MPI)
  if (mpi_running()) {
    int n = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    return n;
  }
#endif
  return 1;
}

bool is_root_process() {
  if (shard_role() != ShardRole::none) return shard_role() == ShardRole::merge;
  return process_rank() == 0;
}

bool processes_split() { return shard_role() != ShardRole::none || process_count() > 1; }

int broadcast_int(int value) {
  if (shard_role() == ShardRole::shard) refuse_root_decision_in_shard();
  if (shard_role() == ShardRole::merge) return value;
#if defined(TCO_HAVE_MPI)
  if (process_count() > 1) MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
#endif
  return value;
}

void wait_for_every_process() {
  if (shard_role() != ShardRole::none) return;
#if defined(TCO_HAVE_MPI)
  if (process_count() > 1) MPI_Barrier(MPI_COMM_WORLD);
#endif
}

void broadcast_bytes(std::string& bytes) {
  if (shard_role() == ShardRole::shard) refuse_root_decision_in_shard();
  if (shard_role() == ShardRole::merge) return;
#if defined(TCO_HAVE_MPI)
  if (process_count() == 1) return;
  unsigned long long size = bytes.size();
  MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  bytes.resize(size);
  MPI_Bcast(bytes.data(), checked_count(size), MPI_CHAR, 0, MPI_COMM_WORLD);
#else
  (void)bytes;
#endif
}

std::string gather_bytes(const std::string& mine, std::vector<std::size_t>* sizes) {
  if (shard_role() != ShardRole::none) return shard_gather(mine, sizes);
  const int count = process_count();
  if (count == 1) {
    if (sizes) *sizes = {mine.size()};
    return mine;
  }
#if defined(TCO_HAVE_MPI)
  const int root = process_rank() == 0;
  const int my_size = checked_count(mine.size());
  std::vector<int> counts(root ? count : 0), displacements(root ? count : 0);
  MPI_Gather(&my_size, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::size_t total = 0;
  for (int r = 0; r < static_cast<int>(counts.size()); ++r) {
    displacements[r] = checked_count(total);
    total += static_cast<std::size_t>(counts[r]);
  }
  std::string all(total, '\0');
  MPI_Gatherv(mine.data(), my_size, MPI_CHAR, all.data(), counts.data(), displacements.data(), MPI_CHAR, 0,
              MPI_COMM_WORLD);
  if (sizes) sizes->assign(counts.begin(), counts.end());
  return all;
#else
  return mine;
#endif
}

std::vector<double> gather_doubles(const std::vector<double>& mine) {
  std::string bytes(mine.size() * sizeof(double), '\0');
  if (!mine.empty()) std::memcpy(bytes.data(), mine.data(), bytes.size());
  const std::string all = gather_bytes(bytes);
  std::vector<double> out(all.size() / sizeof(double));
  if (!out.empty()) std::memcpy(out.data(), all.data(), all.size());
  return out;
}

void abort_process_group(int exit_code) {
#if defined(TCO_HAVE_MPI)
  if (mpi_running() && process_count() > 1) MPI_Abort(MPI_COMM_WORLD, exit_code);
#endif
  std::exit(exit_code);
}

IndexBlock index_block(long n, int rank, int count) {
  if (rank >= count) return {n, n};
  const long base = n / count, extra = n % count;
  const long begin = rank * base + std::min<long>(rank, extra);
  return {begin, begin + base + (rank < extra ? 1 : 0)};
}

}  // namespace tco
