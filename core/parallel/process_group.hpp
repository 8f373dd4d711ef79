// The processes of one job started by mpirun, srun or the MPI Operator (docs/cluster.md), or
// this one process: without MPI in the build, or started without a launcher, every function is
// a one-process no-op (rank 0 of 1), so the engine and the commands never test for MPI.
// Rank 0 (the root) reads the inputs and writes the outputs; every rank computes its block of
// the work, and the root gathers the per-item values in rank order, which is item order, so it
// reduces them exactly as one process does.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tco {

// Started once in main() (MPI_Init), ended when main returns (MPI_Finalize).
class ProcessGroupScope {
 public:
  ProcessGroupScope(int& argc, char**& argv);
  ~ProcessGroupScope();
  ProcessGroupScope(const ProcessGroupScope&) = delete;
  ProcessGroupScope& operator=(const ProcessGroupScope&) = delete;

  // Empty, or why this process cannot run: a launcher started K > 1 copies of a build without
  // MPI (each would compute and write everything).
  const std::string& launch_problem() const { return launch_problem_; }

 private:
  std::string launch_problem_;
  bool initialized_ = false;
};

// True when this build has MPI (TCO_MPI found it).
bool process_group_built();
// Under index shards (core/parallel/index_shards.hpp), the rank and count of the job a shard or a
// merge stands for: a shard is never the root, a merge always is (its rank is past the last, so
// its block of every split is empty).
int process_rank();
int process_count();
bool is_root_process();
// True when the work splits into blocks with gathers: more than one MPI process, or index shards.
bool processes_split();
// The processes a launcher says it started (OMPI_COMM_WORLD_SIZE, PMI_SIZE; 1 when none).
int launcher_process_count();
// True when mpirun, srun or the MPI Operator started this process (their environment variables);
// otherwise MPI is never initialised and the program is one process.
bool started_by_launcher();

// The root's value, on every rank (a collective: every rank calls it at the same point).
int broadcast_int(int value);
// Returns once every rank has called it (one process: at once).
void wait_for_every_process();
// The root's bytes, on every rank.
void broadcast_bytes(std::string& bytes);
// Every rank's bytes, concatenated in rank order, on the root; empty on the others.
// `sizes` (may be null) receives each rank's size on the root.
std::string gather_bytes(const std::string& mine, std::vector<std::size_t>* sizes = nullptr);
// Every rank's doubles in rank order, on the root; empty on the others.
std::vector<double> gather_doubles(const std::vector<double>& mine);
// Ends every process of the job with `exit_code` (one process: std::exit).
[[noreturn]] void abort_process_group(int exit_code);

// Rank `rank`'s contiguous share of [0, n) out of `count` ranks: the first n % count ranks take
// one item more. Example: n = 10, count = 4: [0,3) [3,6) [6,8) [8,10). A rank >= count: [n, n).
struct IndexBlock {
  long begin = 0;
  long end = 0;
  long size() const { return end - begin; }
};
IndexBlock index_block(long n, int rank, int count);

}  // namespace tco
