// The output files of one command, written all or nothing. Each output is checked when it is
// declared (before the command computes anything), staged in a temporary file beside its target
// once its text is ready, and every staged file is renamed into place by commit(). Until then no
// target is touched; an OutputSet destroyed without commit() removes its temporary files and the
// folders it created, so a failed command leaves no new or changed file.
//
// Rules (each an InputError naming the option, e.g. "--html: is the same file as --out (r.json)"):
//   an output may not be an input of the command, nor the same file as another output;
//   it must be a regular file or a path that does not exist yet, in an existing folder (never a
//   folder, a device such as /dev/full, a FIFO or a socket: those are never replaced);
//   "-" writes to the standard output, for the options that allow it.
// Staging files are named ".NAME.tcosim-PID-N.tmp"; a signal that stops the command removes them,
// and declaring an output removes those its folder holds of processes that no longer exist
// (core/io/staging_files.hpp).
#pragma once

#include <filesystem>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "core/io/staging_files.hpp"

namespace tco {

class OutputSet {
 public:
  // Without a stream, no output may be "-"; with one, it receives the outputs named "-".
  OutputSet() = default;
  explicit OutputSet(std::ostream& standard_output) : stdout_(&standard_output) {}
  ~OutputSet();
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  // A file the command reads (`what`: "the scenario", "a shard"...); no output may be it.
  // Folders and paths that do not exist are ignored.
  void add_input(const std::string& what, const std::string& path);
  // Every regular file directly in `folder` (a catalog folder) as an input.
  void add_input_folder(const std::string& what, const std::string& folder);
  // An output file named by `option`. An empty path declares nothing.
  void add_file(const std::string& option, const std::string& path, bool stdout_allowed = false);
  // An output folder named by `option` (created at staging when missing); its files are staged
  // with stage_in_folder. An empty path declares nothing.
  void add_folder(const std::string& option, const std::string& path);

  // True when `path` was declared as "-".
  static bool is_stdout(const std::string& path) { return path == "-"; }

  // Writes the text of a declared output (by its path as declared) to its temporary file.
  void stage(const std::string& path, const std::string& contents);
  // The same for a file `name` inside the declared folder `folder`.
  void stage_in_folder(const std::string& folder, const std::string& name, const std::string& contents);
  // For a writer that streams: the temporary path to write a declared output's text to; the
  // file found there at commit() is renamed over the target.
  std::string staging_path(const std::string& path);

  // Renames every staged file into place, and prints the "-" outputs. Outputs declared but never
  // staged are left alone.
  void commit();
  // After commit(): the files written, as given on the command line, in the order they were
  // declared (a folder's files as FOLDER/NAME); the standard output is not a file.
  std::vector<std::string> written_files() const { return written_; }

 private:
  struct Output {
    std::string option;
    std::string path;              // as given
    std::filesystem::path target;  // absolute, lexically normal
    bool to_stdout = false;
    bool is_folder = false;
    std::filesystem::path temporary;  // empty until staged
    std::string stdout_text;
    std::unique_ptr<StagedPath> staged;  // `temporary` in the signal handler's table
  };
  struct Input {
    std::string what;
    std::string path;
  };

  Output& declared(const std::string& path);
  void check_against_inputs(const Output& output) const;
  void check_against_outputs(const Output& output) const;
  void declare(Output output);
  std::filesystem::path new_temporary(Output& output);
  void remove_abandoned_staging_files_once(const std::filesystem::path& folder);
  void discard() noexcept;

  std::ostream* stdout_ = nullptr;
  std::vector<Output> outputs_;
  std::vector<Input> inputs_;
  std::vector<std::filesystem::path> created_folders_;
  std::set<std::filesystem::path> swept_folders_;
  long temporaries_made_ = 0;
  bool committed_ = false;
  std::vector<std::string> written_;
};

}  // namespace tco
