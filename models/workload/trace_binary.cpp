#include "models/workload/trace_binary.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <type_traits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/mapped_file.hpp"
#include "models/input_limits.hpp"
#include "models/workload/trace_csv.hpp"

namespace tco {



namespace {

constexpr char kMagic[8] = {'T', 'C', 'O', 'T', 'R', 'A', 'C', 'E'};
constexpr std::uint32_t kByteOrder = 0x01020304;
constexpr int kColumns = 9;
constexpr std::array<std::size_t, kColumns> kWidths = {8, 8, 8, 8, 8, 4, 4, 4, 1};
constexpr std::size_t kAlign = 64;

struct Header {
  char magic[8];
  std::uint32_t byte_order;
  std::uint32_t schema_version;
  std::uint64_t file_bytes;
  std::uint64_t rows;
  std::uint64_t strings_offset;
  std::uint64_t strings_bytes;
  std::uint64_t column_offset[kColumns];
  std::uint32_t string_count;
  std::uint32_t reserved0;
  char source_sha256[64];
  unsigned char reserved[64];
};
static_assert(sizeof(Header) == 256 && std::is_trivially_copyable_v<Header>);

std::size_t aligned(std::size_t offset) { return (offset + kAlign - 1) / kAlign * kAlign; }

const void* column_data(const TraceColumns& c, int k) {
  const void* columns[kColumns] = {c.submit_h, c.duration_h, c.checkpoint_h, c.max_wait_h, c.deadline_h,
                                   c.gpus,     c.gpu_type,   c.job_class,    c.flags};
  return columns[k];
}

void append_u32(std::string& out, std::uint32_t x) { out.append(reinterpret_cast<const char*>(&x), sizeof x); }

void append_text(std::string& out, std::string_view text) {
  append_u32(out, static_cast<std::uint32_t>(text.size()));
  out.append(text);
}

// Reads a length-prefixed text from [p, end); false when it runs past the end.
bool read_text(const unsigned char*& p, const unsigned char* end, std::string& out) {
  std::uint32_t n = 0;
  if (end - p < 4) return false;
  std::memcpy(&n, p, 4);
  p += 4;
  if (static_cast<std::size_t>(end - p) < n) return false;
  out.assign(reinterpret_cast<const char*>(p), n);
  p += n;
  return true;
}

// Every value within what the CSV reader accepts; "" when all are, else the first offence.
std::string value_error(const TraceColumns& c, std::size_t strings) {
  const double max_h = kMaxTraceHours;
  double last_submit_h = 0.0;
  for (std::size_t i = 0; i < c.rows; ++i) {
    const double submit_h = c.submit_h[i], duration_h = c.duration_h[i], checkpoint_h = c.checkpoint_h[i];
    const double max_wait_h = c.max_wait_h[i], deadline_h = c.deadline_h[i];
    const double job_h = kMaxTraceJobHours;
    const bool ok = submit_h >= last_submit_h && submit_h <= max_h && duration_h > 0.0 && duration_h <= job_h &&
                    checkpoint_h >= 0.0 && checkpoint_h <= job_h &&
                    (max_wait_h == -1.0 || (max_wait_h >= 0.0 && max_wait_h <= job_h)) &&
                    (deadline_h == std::numeric_limits<double>::infinity() || (deadline_h > 0.0 && deadline_h <= job_h)) &&
                    c.gpus[i] >= 1 && c.gpus[i] <= kMaxTraceGpus && c.gpu_type[i] < strings &&
                    c.job_class[i] < strings && c.flags[i] <= (kTraceFlagPreemptible | kTraceFlagDeferrable);
    if (!ok) return fmt::format("job {} holds a value the CSV reader rejects", i + 1);
    last_submit_h = submit_h;
  }
  return "";
}

}  // namespace

std::string_view describe(TraceBinaryStatus status) {
  switch (status) {
    case TraceBinaryStatus::ok: return "ok";
    case TraceBinaryStatus::missing: return "missing";
    case TraceBinaryStatus::truncated: return "truncated";
    case TraceBinaryStatus::other_version: return "another schema version";
    case TraceBinaryStatus::other_source: return "written from another CSV (its digest differs)";
    case TraceBinaryStatus::corrupt: return "corrupt";
  }
  return "corrupt";
}

void write_trace_binary(const std::string& path, const TraceTable& table, const std::string& source_sha256) {
  if (source_sha256.size() != 64) throw std::invalid_argument("write_trace_binary: a SHA-256 is 64 hex digits");
  const TraceColumns& c = table.columns();
  std::string strings;
  append_text(strings, table.start() ? trace_start_line(*table.start()) : std::string());
  for (const std::string& s : table.strings()) append_text(strings, s);

  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.byte_order = kByteOrder;
  h.schema_version = kTraceBinaryVersion;
  h.rows = c.rows;
  h.strings_offset = sizeof(Header);
  h.strings_bytes = strings.size();
  std::size_t offset = aligned(sizeof(Header) + strings.size());
  for (int k = 0; k < kColumns; ++k) {
    h.column_offset[k] = offset;
    offset = aligned(offset + kWidths[k] * c.rows);
  }
  h.file_bytes = offset;
  h.string_count = static_cast<std::uint32_t>(table.strings().size());
  std::memcpy(h.source_sha256, source_sha256.data(), 64);

  // Unique per process and call (O_EXCL), and created with the umask's permissions, as the CSV is.
  static std::atomic<unsigned> counter{0};
  const std::string temporary = fmt::format("{}.tmp-{}-{}", path, ::getpid(), counter++);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) throw InputError(path, "", "cannot write the binary trace file");
  std::FILE* out = ::fdopen(fd, "wb");
  if (out == nullptr) {
    ::close(fd);
    std::remove(temporary.c_str());
    throw InputError(path, "", "cannot write the binary trace file");
  }
  static const char zeros[kAlign] = {};
  std::size_t written = 0;
  bool ok = true;
  auto put = [&](const void* data, std::size_t bytes) {
    ok = ok && (bytes == 0 || std::fwrite(data, 1, bytes, out) == bytes);
    written += bytes;
  };
  put(&h, sizeof h);
  put(strings.data(), strings.size());
  for (int k = 0; k < kColumns; ++k) {
    put(zeros, h.column_offset[k] - written);
    put(column_data(c, k), kWidths[k] * c.rows);
  }
  put(zeros, h.file_bytes - written);
  ok = (std::fclose(out) == 0) && ok;
  std::error_code error;
  if (ok) std::filesystem::rename(temporary, path, error);
  if (!ok || error) {
    std::remove(temporary.c_str());
    throw InputError(path, "", "cannot write the binary trace file");
  }
}

OpenedTraceBinary open_trace_binary(const std::string& path, const std::string& expected_sha256) {
  OpenedTraceBinary result;
  auto file = std::make_shared<MappedFile>(path);
  if (!file->is_open()) return result;
  auto fail = [&](TraceBinaryStatus status, std::string detail) {
    result.status = status;
    result.detail = std::move(detail);
    return result;
  };
  Header h{};
  if (file->size() < sizeof h) return fail(TraceBinaryStatus::truncated, "shorter than its header");
  std::memcpy(&h, file->data(), sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) return fail(TraceBinaryStatus::corrupt, "not a binary trace");
  if (h.byte_order != kByteOrder || h.schema_version != kTraceBinaryVersion)
    return fail(TraceBinaryStatus::other_version,
                fmt::format("schema version {} (this tcosim reads {})", h.schema_version, kTraceBinaryVersion));
  if (h.file_bytes != file->size())
    return fail(TraceBinaryStatus::truncated, fmt::format("{} bytes, the header says {}", file->size(), h.file_bytes));
  const std::string source(h.source_sha256, 64);
  if (!expected_sha256.empty() && source != expected_sha256)
    return fail(TraceBinaryStatus::other_source, fmt::format("written from a CSV of SHA-256 {}", source));
  // Every section inside the file, the columns after the strings and in order.
  // Each string takes at least its length prefix, so a count above the table's bytes is corrupt
  // (and is never allocated).
  if (h.rows > h.file_bytes || h.strings_offset != sizeof h || h.strings_bytes > h.file_bytes - sizeof h ||
      h.string_count > h.strings_bytes)
    return fail(TraceBinaryStatus::corrupt, "its sections do not fit the file");
  std::uint64_t end = h.strings_offset + h.strings_bytes;
  for (int k = 0; k < kColumns; ++k) {
    if (h.column_offset[k] % kAlign != 0 || h.column_offset[k] < end || h.column_offset[k] > h.file_bytes ||
        h.column_offset[k] + kWidths[k] * h.rows > h.file_bytes)
      return fail(TraceBinaryStatus::corrupt, "its sections do not fit the file");
    end = h.column_offset[k] + kWidths[k] * h.rows;
  }
  const unsigned char* p = file->data() + h.strings_offset;
  const unsigned char* strings_end = p + h.strings_bytes;
  std::string start_line;
  std::vector<std::string> strings(h.string_count);
  bool strings_ok = read_text(p, strings_end, start_line);
  for (std::string& s : strings) strings_ok = strings_ok && read_text(p, strings_end, s);
  std::optional<TraceStart> start;
  if (strings_ok && !start_line.empty()) {
    TraceStart parsed;
    strings_ok = parse_trace_start_line(start_line, parsed);
    start = parsed;
  }
  if (!strings_ok || p != strings_end || strings.empty() || !strings[0].empty())
    return fail(TraceBinaryStatus::corrupt, "its string table is malformed");

  const unsigned char* base = file->data();
  TraceColumns c;
  c.rows = h.rows;
  c.submit_h = reinterpret_cast<const double*>(base + h.column_offset[0]);
  c.duration_h = reinterpret_cast<const double*>(base + h.column_offset[1]);
  c.checkpoint_h = reinterpret_cast<const double*>(base + h.column_offset[2]);
  c.max_wait_h = reinterpret_cast<const double*>(base + h.column_offset[3]);
  c.deadline_h = reinterpret_cast<const double*>(base + h.column_offset[4]);
  c.gpus = reinterpret_cast<const std::int32_t*>(base + h.column_offset[5]);
  c.gpu_type = reinterpret_cast<const std::uint32_t*>(base + h.column_offset[6]);
  c.job_class = reinterpret_cast<const std::uint32_t*>(base + h.column_offset[7]);
  c.flags = base + h.column_offset[8];
  std::string bad = value_error(c, strings.size());
  if (!bad.empty()) return fail(TraceBinaryStatus::corrupt, std::move(bad));
  result.status = TraceBinaryStatus::ok;
  result.table = TraceTable(std::move(file), c, std::move(strings), std::move(start));
  return result;
}

}  // namespace tco
