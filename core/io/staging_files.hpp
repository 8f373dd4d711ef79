// The temporary files a command stages its outputs in (".NAME.tcosim-PID-N.tmp", beside their
// targets: core/io/output_set.hpp) are never left behind:
//  - while a file is staged its path is in a fixed table, and a SIGTERM, SIGINT or SIGHUP removes
//    every path of the table (unlink only: async-signal-safe) before the signal ends the process
//    as it would have;
//  - a process ended by SIGKILL cannot, so before a command writes into a folder it removes the
//    staging files there whose process no longer exists (kill(PID, 0) fails with ESRCH).
#pragma once

#include <filesystem>
#include <string>

namespace tco {

// A staged path in the signal handler's table, for as long as the object lives. Each one installs
// the handlers where they are missing (the disposition found there is what the signal does after). Past the table's 256 paths a path is not registered (the folder's
// next writer removes it once this process is gone).
class StagedPath {
 public:
  explicit StagedPath(const std::string& path);
  ~StagedPath();
  StagedPath(const StagedPath&) = delete;
  StagedPath& operator=(const StagedPath&) = delete;

 private:
  int slot_ = -1;
};

// The staging file name of a process: ".NAME.tcosim-PID-N.tmp".
std::string staging_file_name(const std::string& target_name, long pid, long n);

// Removes the files of `folder` named as staging files of a process that no longer exists (on
// this machine: a PID is local to it); returns how many. The folder's other files, and those of
// running processes, are left alone.
int remove_abandoned_staging_files(const std::filesystem::path& folder);

}  // namespace tco
