#include "core/io/input_snapshot.hpp"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <stdexcept>

#include "core/error.hpp"
#include "core/parallel/byte_codec.hpp"
#include "core/parallel/process_group.hpp"

namespace tco {

namespace fs = std::filesystem;

namespace {

std::mutex g_mutex;
InputSnapshot g_installed;
std::optional<InputSnapshot> g_recording;  // while an InputRecording exists

// A test hook (tests/CMakeLists.txt, label mpi): with TCO_TEST_ROOT_READS_INPUTS=1 a rank other
// than 0 may not read an input from the disk, so a test proves that it reads them all from rank
// 0's broadcast.
void check_disk_read_allowed(const std::string& path) {
  const char* v = std::getenv("TCO_TEST_ROOT_READS_INPUTS");
  if (v != nullptr && std::string(v) == "1" && process_rank() != 0)
    throw InputError(path, "", "this rank may not read inputs from the disk (TCO_TEST_ROOT_READS_INPUTS)");
}

std::optional<std::string> read_from_disk(const std::string& path, std::size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string bytes;
  char chunk[1 << 16];
  while (bytes.size() <= max_bytes && (in.read(chunk, sizeof chunk) || in.gcount() > 0))
    bytes.append(chunk, static_cast<std::size_t>(in.gcount()));
  if (in.bad()) return std::nullopt;
  if (bytes.size() > max_bytes + 1) bytes.resize(max_bytes + 1);
  return bytes;
}

std::optional<std::vector<std::string>> list_on_disk(const std::string& path) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return std::nullopt;
  std::vector<std::string> files;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code file_ec;
    if (it->is_regular_file(file_ec)) files.push_back(it->path().string());
  }
  if (ec) throw InputError(path, "", "cannot list the folder: " + ec.message());
  return files;
}

void put_text(std::string& bytes, const std::string& text) {
  put_value(bytes, static_cast<std::uint64_t>(text.size()));
  bytes += text;
}

std::string get_text(std::string_view bytes, std::size_t& offset) {
  std::uint64_t n = 0;
  get_value(bytes, offset, n, "input snapshot");
  if (n > bytes.size() - offset) throw std::runtime_error("input snapshot ends early");
  std::string text(bytes.substr(offset, static_cast<std::size_t>(n)));
  offset += static_cast<std::size_t>(n);
  return text;
}

}  // namespace

std::string InputSnapshot::encode() const {
  std::string bytes;
  put_value(bytes, static_cast<std::uint64_t>(files.size()));
  for (const auto& [path, content] : files) {
    put_text(bytes, path);
    put_text(bytes, content);
  }
  put_value(bytes, static_cast<std::uint64_t>(folders.size()));
  for (const auto& [path, entries] : folders) {
    put_text(bytes, path);
    put_value(bytes, static_cast<std::uint64_t>(entries.size()));
    for (const std::string& e : entries) put_text(bytes, e);
  }
  return bytes;
}

InputSnapshot InputSnapshot::decode(std::string_view bytes) {
  InputSnapshot s;
  std::size_t offset = 0;
  std::uint64_t n = 0;
  get_value(bytes, offset, n, "input snapshot files");
  for (std::uint64_t i = 0; i < n; ++i) {
    std::string path = get_text(bytes, offset);
    s.files[std::move(path)] = get_text(bytes, offset);
  }
  get_value(bytes, offset, n, "input snapshot folders");
  for (std::uint64_t i = 0; i < n; ++i) {
    std::string path = get_text(bytes, offset);
    std::uint64_t entries = 0;
    get_value(bytes, offset, entries, "input snapshot folder");
    std::vector<std::string>& list = s.folders[std::move(path)];
    for (std::uint64_t k = 0; k < entries; ++k) list.push_back(get_text(bytes, offset));
  }
  if (offset != bytes.size()) throw std::runtime_error("input snapshot has bytes after its end");
  return s;
}

std::optional<std::string> read_input_file(const std::string& path, std::size_t max_bytes) {
  {
    const std::lock_guard<std::mutex> lock(g_mutex);
    const auto it = g_installed.files.find(path);
    if (it != g_installed.files.end()) return it->second.substr(0, max_bytes + 1);
  }
  check_disk_read_allowed(path);
  std::optional<std::string> bytes = read_from_disk(path, max_bytes);
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (bytes && g_recording) g_recording->files.emplace(path, *bytes);
  return bytes;
}

std::optional<std::vector<std::string>> list_input_folder(const std::string& path) {
  {
    const std::lock_guard<std::mutex> lock(g_mutex);
    const auto it = g_installed.folders.find(path);
    if (it != g_installed.folders.end()) return it->second;
  }
  check_disk_read_allowed(path);
  std::optional<std::vector<std::string>> files = list_on_disk(path);
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (files && g_recording) g_recording->folders.emplace(path, *files);
  return files;
}

InputRecording::InputRecording() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  g_recording.emplace();
}

InputRecording::~InputRecording() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  g_recording.reset();
}

InputSnapshot InputRecording::take() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  InputSnapshot s = g_recording ? std::move(*g_recording) : InputSnapshot{};
  g_recording.reset();
  return s;
}

void install_input_snapshot(InputSnapshot snapshot) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  g_installed.files.merge(snapshot.files);
  g_installed.folders.merge(snapshot.folders);
}

void clear_input_snapshot() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  g_installed = InputSnapshot{};
}

}  // namespace tco
