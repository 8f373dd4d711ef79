#include "core/io/output_set.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tco {

namespace fs = std::filesystem;

namespace {

// Two paths name the same file: the same inode when both exist, else the same path once symbolic
// links and ".." are resolved (a path that does not exist yet can only equal another such path).
bool same_file(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec) && !ec;
  const fs::path ca = fs::weakly_canonical(a, ec);
  if (ec) return a == b;
  const fs::path cb = fs::weakly_canonical(b, ec);
  return !ec && ca == cb;
}

// What kind of thing `p` is, for the messages; empty when it does not exist.
// Follows symbolic links: a link to /dev/full is a device.
std::string existing_kind(const fs::path& p, const std::string& option) {
  std::error_code ec;
  const fs::file_status s = fs::status(p, ec);
  if (ec && s.type() != fs::file_type::not_found)
    throw InputError(option, "", fmt::format("cannot inspect {}: {}", p.string(), ec.message()));
  switch (s.type()) {
    case fs::file_type::not_found: return "";
    case fs::file_type::regular: return "file";
    case fs::file_type::directory: return "folder";
    case fs::file_type::fifo: return "FIFO";
    case fs::file_type::socket: return "socket";
    case fs::file_type::block:
    case fs::file_type::character: return "device";
    default: return "special file";
  }
}

void write_all(const fs::path& temporary, const std::string& contents, const fs::path& target) {
  struct stat old {};
  const bool replaces = ::stat(target.c_str(), &old) == 0;
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) {
    const int error = errno;
    throw InputError(target.string(), "", std::string("cannot write beside the file: ") + std::strerror(error));
  }
  int error = 0;
  // A replaced file keeps its permissions; a new one gets 0666 less the umask.
  if (replaces && ::fchmod(fd, old.st_mode & 07777) != 0 && errno != EPERM) error = errno;
  for (std::size_t done = 0; error == 0 && done < contents.size();) {
    const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) error = errno;
    else done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) {
    ::unlink(temporary.c_str());
    throw InputError(target.string(), "", std::string("writing failed: ") + std::strerror(error));
  }
}

}  // namespace

OutputSet::~OutputSet() {
  if (!committed_) discard();
}

void OutputSet::add_input(const std::string& what, const std::string& path) {
  if (path.empty()) return;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return;
  inputs_.push_back({what, path});
  for (const Output& o : outputs_) check_against_inputs(o);
}

void OutputSet::add_input_folder(const std::string& what, const std::string& folder) {
  if (folder.empty()) return;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
    add_input(what, it->path().string());
}

void OutputSet::add_file(const std::string& option, const std::string& path, bool stdout_allowed) {
  if (path.empty()) return;
  Output o{option, path, {}, false, false, {}, {}, {}};
  if (is_stdout(path)) {
    if (!stdout_allowed || stdout_ == nullptr)
      throw InputError(option, "", "\"-\" (the standard output) is accepted by --out only; name a file");
    o.to_stdout = true;
    declare(std::move(o));
    return;
  }
  o.target = fs::absolute(path).lexically_normal();
  const std::string kind = existing_kind(o.target, option);
  if (!kind.empty() && kind != "file")
    throw InputError(option, "", fmt::format("{} is a {}, not a file: name a file to write", path, kind));
  const fs::path folder = o.target.parent_path();
  const std::string folder_kind = existing_kind(folder, option);
  if (folder_kind.empty())
    throw InputError(option, "", fmt::format("the folder {} does not exist", folder.string()));
  if (folder_kind != "folder") throw InputError(option, "", fmt::format("{} is not a folder", folder.string()));
  declare(std::move(o));
}

void OutputSet::add_folder(const std::string& option, const std::string& path) {
  if (path.empty()) return;
  Output o{option, path, fs::absolute(path).lexically_normal(), false, true, {}, {}, {}};
  const std::string kind = existing_kind(o.target, option);
  if (!kind.empty() && kind != "folder")
    throw InputError(option, "", fmt::format("{} is a {}, not a folder", path, kind));
  declare(std::move(o));
}

void OutputSet::declare(Output output) {
  check_against_inputs(output);
  check_against_outputs(output);
  if (!output.to_stdout) remove_abandoned_staging_files_once(output.is_folder ? output.target : output.target.parent_path());
  outputs_.push_back(std::move(output));
}

void OutputSet::remove_abandoned_staging_files_once(const fs::path& folder) {
  if (swept_folders_.insert(folder).second) remove_abandoned_staging_files(folder);
}

void OutputSet::check_against_inputs(const Output& o) const {
  if (o.to_stdout || o.is_folder) return;
  for (const Input& in : inputs_)
    if (same_file(o.target, in.path))
      throw InputError(o.option, "", fmt::format("is the same file as {} ({}): it would be overwritten", in.what, in.path));
}

void OutputSet::check_against_outputs(const Output& o) const {
  for (const Output& other : outputs_) {
    const bool same = o.to_stdout || other.to_stdout ? o.to_stdout && other.to_stdout : same_file(o.target, other.target);
    if (same)
      throw InputError(o.option, "",
                       other.option == o.option
                           ? fmt::format("{} is named twice", o.path)
                           : fmt::format("is the same file as {} ({})", other.option, other.path));
  }
}

OutputSet::Output& OutputSet::declared(const std::string& path) {
  const auto it = std::find_if(outputs_.begin(), outputs_.end(),
                               [&](const Output& o) { return !o.is_folder && o.path == path; });
  if (it == outputs_.end()) throw std::logic_error("OutputSet: " + path + " was not declared");
  return *it;
}

fs::path OutputSet::new_temporary(Output& o) {
  if (!o.temporary.empty()) throw std::logic_error("OutputSet: " + o.path + " staged twice");
  const fs::path temporary =
      o.target.parent_path() / staging_file_name(o.target.filename().string(), ::getpid(), temporaries_made_++);
  o.staged = std::make_unique<StagedPath>(temporary.string());  // before the file exists
  return temporary;
}

void OutputSet::stage(const std::string& path, const std::string& contents) {
  Output& o = declared(path);
  if (o.to_stdout) {
    o.stdout_text = contents;
    return;
  }
  const fs::path temporary = new_temporary(o);
  write_all(temporary, contents, o.target);
  o.temporary = temporary;
}

void OutputSet::stage_in_folder(const std::string& folder, const std::string& name, const std::string& contents) {
  const auto it = std::find_if(outputs_.begin(), outputs_.end(),
                               [&](const Output& o) { return o.is_folder && o.path == folder; });
  if (it == outputs_.end()) throw std::logic_error("OutputSet: folder " + folder + " was not declared");
  const std::string option = it->option;
  const fs::path dir = it->target;
  // Create the folder (and its missing parents) now, remembering them to remove on failure.
  std::vector<fs::path> missing;
  for (fs::path p = dir; !p.empty() && existing_kind(p, option).empty(); p = p.parent_path()) missing.push_back(p);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError(option, "", fmt::format("cannot create the folder {}: {}", folder, ec.message()));
  created_folders_.insert(created_folders_.end(), missing.begin(), missing.end());
  const std::string path = (fs::path(folder) / name).string();
  add_file(option, path);
  stage(path, contents);
}

std::string OutputSet::staging_path(const std::string& path) {
  Output& o = declared(path);
  if (o.to_stdout) throw std::logic_error("OutputSet: " + path + " is the standard output");
  o.temporary = new_temporary(o);
  return o.temporary.string();
}

void OutputSet::commit() {
  for (Output& o : outputs_) {
    if (o.temporary.empty()) continue;
    std::error_code ec;
    fs::rename(o.temporary, o.target, ec);
    if (ec) throw InputError(o.path, "", "cannot replace the file: " + ec.message());
    o.temporary.clear();
    o.staged.reset();
    written_.push_back(o.path);
  }
  committed_ = true;
  for (const Output& o : outputs_)
    if (o.to_stdout) *stdout_ << o.stdout_text << std::flush;
}

void OutputSet::discard() noexcept {
  std::error_code ec;
  for (Output& o : outputs_) {
    if (!o.temporary.empty()) fs::remove(o.temporary, ec);
    o.staged.reset();
  }
  // Deepest first; a folder that holds anything else is left alone.
  for (const fs::path& folder : created_folders_) fs::remove(folder, ec);
}

}  // namespace tco
