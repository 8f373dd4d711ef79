// The input files a command read, by path, so that under mpirun rank 0 alone reads them (issue
// #26, docs/cluster.md). Every reader of a scenario, a catalog folder, a grid or an hourly series
// goes through read_input_file and list_input_folder. On rank 0
// the command's checks run first while an InputRecording keeps what they read; rank 0 then
// broadcasts the recording (core/parallel/shared_inputs.hpp) and every rank installs it: from
// then on a read of a recorded path returns the recorded bytes, on every rank alike, and the other
// ranks never open those files. A path not recorded (a job trace, which streams and is
// memory-mapped on every rank) is read from the disk. One process: nothing is installed, every
// read goes to the disk, and nothing changes.
// Example: `mpirun -n 4 tcosim run s.json` reads s.json and the catalog's 12 files on rank 0
// only, broadcasts about 200 kB once, and ranks 1-3 load the scenario from memory.
#pragma once

#include <cstddef>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tco {

struct InputSnapshot {
  std::map<std::string, std::string> files;                 // path -> bytes
  std::map<std::string, std::vector<std::string>> folders;  // path -> its regular files' paths

  bool empty() const { return files.empty() && folders.empty(); }
  std::string encode() const;
  // Throws std::runtime_error when `bytes` is not an encode()d snapshot.
  static InputSnapshot decode(std::string_view bytes);
};

// The file's bytes (at most max_bytes + 1 of them, so that a caller can say it is too large), or
// nothing when it cannot be opened or read.
std::optional<std::string> read_input_file(const std::string& path,
                                           std::size_t max_bytes = std::numeric_limits<std::size_t>::max() - 1);
// The paths of the folder's regular files, in the order the file system lists them, or nothing
// when `path` is not a folder. Throws InputError when the folder cannot be listed.
std::optional<std::vector<std::string>> list_input_folder(const std::string& path);

// While one exists, every file read and folder listed above is recorded (the first answer per
// path). One at a time: a command records its checks once.
class InputRecording {
 public:
  InputRecording();
  ~InputRecording();
  InputRecording(const InputRecording&) = delete;
  InputRecording& operator=(const InputRecording&) = delete;

  InputSnapshot take();  // what was recorded; stops recording
};

// From now on reads of the snapshot's paths are answered from it (added to any snapshot installed
// before; a path already installed keeps its first bytes).
void install_input_snapshot(InputSnapshot snapshot);
// Forgets the installed snapshot (tests).
void clear_input_snapshot();

}  // namespace tco
