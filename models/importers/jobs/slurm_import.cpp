#include "models/importers/jobs/slurm_import.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/block_lines.hpp"
#include "core/io/csv_lines.hpp"
#include "core/io/utf8_text.hpp"
#include "core/time/time_zone.hpp"
#include "models/importers/import_time.hpp"
#include "models/workload/trace_csv.hpp"

namespace tco {

namespace {

enum Column { job_id, submit, start, end, elapsed, alloc_tres, partition, qos, account, kColumns };
constexpr const char* kNames[kColumns] = {"JobID", "Submit", "Start", "End", "Elapsed", "AllocTRES",
                                          "Partition", "QOS", "Account"};
// A job's run, as the trace reader holds it (kMaxTraceJobHours: about 11 years).
constexpr std::int64_t kMaxElapsedS = static_cast<std::int64_t>(kMaxTraceJobHours) * 3600;

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

void split_bars(std::string_view line, std::vector<std::string_view>& out) {
  out.clear();
  std::size_t from = 0;
  for (std::size_t bar = line.find('|'); bar != std::string_view::npos; bar = line.find('|', from)) {
    out.push_back(line.substr(from, bar - from));
    from = bar + 1;
  }
  out.push_back(line.substr(from));
}

// "[D-]HH:MM:SS" in seconds; nullopt when malformed.
std::optional<std::int64_t> elapsed_seconds(std::string_view text) {
  std::int64_t days = 0;
  const std::size_t dash = text.find('-');
  if (dash != std::string_view::npos) {
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + dash, days);
    if (ec != std::errc() || ptr != text.data() + dash || dash == 0 || days < 0 || days > 36500) return std::nullopt;
    text.remove_prefix(dash + 1);
  }
  if (text.size() != 8 || text[2] != ':' || text[5] != ':') return std::nullopt;
  int parts[3] = {0, 0, 0};
  for (std::size_t i = 0; i < 3; ++i) {
    const char tens = text[3 * i], ones = text[3 * i + 1];
    if (!std::isdigit(static_cast<unsigned char>(tens)) || !std::isdigit(static_cast<unsigned char>(ones)))
      return std::nullopt;
    parts[i] = (tens - '0') * 10 + (ones - '0');
  }
  if (parts[1] > 59 || parts[2] > 59 || (dash != std::string_view::npos && parts[0] > 23)) return std::nullopt;
  return days * 86400 + parts[0] * 3600 + parts[1] * 60 + parts[2];
}

struct Gpus {
  long count = 0;
  std::string type;  // '|'-joined TYPEs of gres/gpu:TYPE=N
};

// The het job of 123+0, 123+1: its components' figures, merged as they are read.
struct HetJob {
  long rows = 0;
  bool never_scheduled = false, unfinished = false;
  long gpus = 0;
  std::string gpu_type;
  std::int64_t submit_s = 0, start_s = 0, elapsed_s = 0;
  Job job;  // class and preemptible of the first component
};

void add_type(std::string& types, std::string_view type) {
  std::size_t from = 0;
  while (from <= types.size()) {
    const std::size_t bar = std::min(types.find('|', from), types.size());
    if (std::string_view(types).substr(from, bar - from) == type) return;
    from = bar + 1;
  }
  if (!types.empty()) types += '|';
  types += type;
}

class SacctRows {
 public:
  SacctRows(const std::string& path, const SlurmImportOptions& options) : path_(path), in_(path) {
    if (!in_.is_open()) throw InputError(path, "", "cannot open the input file");
    index_.fill(-1);
    std::vector<std::string> names = options.columns;
    if (names.empty()) {
      if (!read_line()) throw InputError(path, "line 1", "the file is empty (expected a sacct header line)");
      if (line_.substr(0, 3) == "\xEF\xBB\xBF") line_.remove_prefix(3), split_bars(line_, fields_);
      for (std::string_view f : fields_) names.emplace_back(f);
      header_line_ = true;
    }
    width_ = names.size();
    for (int c = 0; c < kColumns; ++c)
      for (std::size_t f = 0; f < names.size(); ++f)
        if (same_name(names[f], kNames[c])) index_[c] = static_cast<int>(f);
    std::vector<int> required = {job_id, submit, start, end, elapsed, alloc_tres, class_column(options)};
    if (!options.preemptible_qos.empty()) required.push_back(qos);
    if (!options.preemptible_partitions.empty()) required.push_back(partition);
    for (int c : required) {
      if (index_[c] >= 0) continue;
      const std::string how =
          "export with sacct --allusers --duplicates --parsable2 --format=JobID,JobIDRaw,State,Submit,Start,End,"
          "Elapsed,NNodes,AllocTRES,ReqTRES,Partition,QOS,Account (or, for --noheader output, name its fields in "
          "order with --columns)";
      if (header_line_)
        throw InputError(path, "line 1",
                         fmt::format("expected a column \"{}\" in the sacct header, found \"{}\"; {}", kNames[c],
                                     line_, how));
      throw InputError(path, "--columns", fmt::format("expected the field \"{}\" among the columns; {}", kNames[c], how));
    }
  }

  static int class_column(const SlurmImportOptions& o) {
    if (o.class_column == "qos") return qos;
    if (o.class_column == "account") return account;
    if (o.class_column == "partition") return partition;
    throw InputError("", "--class", fmt::format("expected partition, qos or account, found \"{}\"", o.class_column));
  }

  bool next() {
    while (read_line()) {
      if (line_.empty()) continue;
      if (fields_.size() < width_)
        throw InputError(path_, csv_position(line_number_, fields_.size() + 1),
                         fmt::format("expected {} '|'-separated fields, found {} (a missing column)", width_,
                                     fields_.size()));
      return true;
    }
    if (in_.read_failed()) throw InputError(path_, fmt::format("line {}", line_number_ + 1), "read error");
    return false;
  }

  bool has(int c) const { return index_[c] >= 0; }
  std::string_view text(int c) const { return fields_[index_[c]]; }
  long line_number() const { return line_number_; }

  // A field copied into the trace is UTF-8 without control bytes (the trace reader refuses
  // anything else), or an error at its position.
  void require_text(int c) const {
    const std::size_t bad = first_unprintable_byte(text(c));
    if (bad != std::string_view::npos)
      fail(c, fmt::format("UTF-8 text without control characters (byte {} of the field is \\x{:02X})", bad + 1,
                          static_cast<unsigned char>(text(c)[bad])));
  }

  [[noreturn]] void fail(int c, const std::string& expected) const {
    throw InputError(path_, csv_position(line_number_, index_[c] + 1),
                     fmt::format("{}: expected {}, found \"{}\"", kNames[c], expected, text(c)));
  }

 private:
  bool read_line() {
    if (!in_.next(line_)) return false;
    ++line_number_;
    split_bars(line_, fields_);
    return true;
  }

  std::string path_;
  BlockLineReader in_;
  std::string_view line_;
  long line_number_ = 0;
  bool header_line_ = false;
  std::vector<std::string_view> fields_;
  std::array<int, kColumns> index_{};
  std::size_t width_ = 0;
};

class SlurmImporter {
 public:
  SlurmImporter(const std::string& path, const SlurmImportOptions& o)
      : o_(o), zone_(TimeZone::load(o.time_zone, "--timezone")), rows_(path, o), class_(SacctRows::class_column(o)) {}

  ImportResult run() {
    long n = 0;
    while (rows_.next()) {
      ++n;
      row();
    }
    for (auto& [id, het] : hets_) finish_het(het);
    return c_.finish_absolute(n, zone_);
  }

 private:
  void row() {
    const std::string_view id = rows_.text(job_id);
    if (id.empty()) rows_.fail(job_id, "a job id");
    if (id.find('.') != std::string_view::npos) return c_.drop("step");
    const std::size_t plus = id.find('+');
    HetJob* het = plus == std::string_view::npos ? nullptr : &hets_[std::string(id.substr(0, plus))];
    if (het && het->rows++ > 0) c_.drop("het_component");
    const auto submit_time = wall_time(submit);
    if (!submit_time) rows_.fail(submit, "a submission time as YYYY-MM-DDTHH:MM:SS");
    const std::int64_t submit_s = *submit_time;
    const auto start_s = wall_time(start);
    const auto end_s = wall_time(end);
    const auto elapsed_s = elapsed_seconds(rows_.text(elapsed));
    if (!elapsed_s) rows_.fail(elapsed, "an elapsed time as [D-]HH:MM:SS");
    if (*elapsed_s > kMaxElapsedS) rows_.fail(elapsed, fmt::format("an elapsed time of at most {:.0f} hours", kMaxTraceJobHours));
    const Gpus gpus = allocated_gpus();
    const bool never_scheduled = !start_s || id.find("_[") != std::string_view::npos;
    const bool unfinished = !end_s;
    Job job;
    rows_.require_text(class_);
    job.job_class = std::string(rows_.text(class_));
    job.preemptible = listed(qos, o_.preemptible_qos) || listed(partition, o_.preemptible_partitions);
    if (het) {
      if (het->rows == 1) {
        het->job = std::move(job);
        het->submit_s = submit_s;
        het->start_s = start_s.value_or(submit_s);
      }
      het->never_scheduled |= never_scheduled;
      het->unfinished |= unfinished;
      het->gpus += gpus.count;
      if (!gpus.type.empty()) add_type(het->gpu_type, gpus.type);
      het->submit_s = std::min(het->submit_s, submit_s);
      if (start_s) het->start_s = std::min(het->start_s, *start_s);
      het->elapsed_s = std::max(het->elapsed_s, *elapsed_s);
      return;
    }
    job.gpu_type = gpus.type;
    keep_or_drop(std::move(job), never_scheduled, unfinished, gpus.count, submit_s, start_s.value_or(0), *elapsed_s);
  }

  void finish_het(HetJob& het) {
    het.job.gpu_type = het.gpu_type;
    keep_or_drop(std::move(het.job), het.never_scheduled, het.unfinished, het.gpus, het.submit_s, het.start_s,
                 het.elapsed_s);
  }

  void keep_or_drop(Job job, bool never_scheduled, bool unfinished, long gpus, std::int64_t submit_s,
                    std::int64_t start_s, std::int64_t elapsed_s) {
    if (c_.drop_first({{never_scheduled, "never_scheduled"}, {gpus == 0, "zero_gpus"}})) return;
    if (unfinished) {
      c_.unfinished_gpu_hours(static_cast<double>(gpus) * static_cast<double>(elapsed_s) / 3600.0);
      return c_.drop("no_end_time");
    }
    job.gpus = static_cast<int>(gpus);
    c_.keep_run(std::move(job), static_cast<double>(submit_s), static_cast<double>(start_s),
                static_cast<double>(start_s + elapsed_s));
  }

  // A wall time in the zone as UTC seconds; nullopt for Unknown/None (and an empty field).
  std::optional<std::int64_t> wall_time(int c) const {
    const std::string_view t = rows_.text(c);
    if (t.empty() || t == "Unknown" || t == "None") return std::nullopt;
    std::int64_t civil_s = 0;
    if (!parse_civil_time(t, civil_s) || !within_import_years(civil_s))
      rows_.fail(c, "a time as YYYY-MM-DDTHH:MM:SS between 2000 and 2099, Unknown or None");
    return zone_.utc_from_local(civil_s);
  }

  Gpus allocated_gpus() const {
    std::optional<long> total;
    Gpus typed;
    rows_.require_text(alloc_tres);  // its GPU types become the trace's gpu_type
    std::string_view tres = rows_.text(alloc_tres);
    while (!tres.empty()) {
      const std::size_t comma = std::min(tres.find(','), tres.size());
      const std::string_view item = tres.substr(0, comma);
      tres.remove_prefix(std::min(comma + 1, tres.size()));
      if (item.rfind("gres/gpu", 0) != 0) continue;
      const std::size_t equals = item.find('=');
      const std::string_view key = item.substr(0, equals);
      if (key != "gres/gpu" && key.rfind("gres/gpu:", 0) != 0) continue;  // gres/gpumem, gres/gpuutil
      long count = -1;
      const std::string_view value = equals == std::string_view::npos ? "" : item.substr(equals + 1);
      const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), count);
      if (value.empty() || ec != std::errc() || ptr != value.data() + value.size() || count < 0 ||
          count > kMaxTraceGpus)
        rows_.fail(alloc_tres, fmt::format("a whole GPU count in [0, {}] in \"{}\"", kMaxTraceGpus, item));
      if (key == "gres/gpu") {
        total = count;
      } else {
        typed.count += count;
        add_type(typed.type, key.substr(9));
      }
    }
    if (total) typed.count = *total;
    if (typed.count > kMaxTraceGpus) rows_.fail(alloc_tres, fmt::format("at most {} GPUs", kMaxTraceGpus));
    return typed;
  }

  bool listed(int c, const std::vector<std::string>& names) const {
    return rows_.has(c) && std::find(names.begin(), names.end(), rows_.text(c)) != names.end();
  }

  const SlurmImportOptions& o_;
  TimeZone zone_;
  SacctRows rows_;
  int class_;
  ImportCollector c_{{"step", "het_component"}};
  std::map<std::string, HetJob> hets_;
};

}  // namespace

ImportResult import_slurm(const std::string& path, const SlurmImportOptions& options) {
  return SlurmImporter(path, options).run();
}

}  // namespace tco
