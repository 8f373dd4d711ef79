// Big traces, parse once and map everywhere (issue 26): the block line reader, the binary
// column file of a canonical trace (the same jobs as its CSV, never trusted when truncated, of
// another version, written from other bytes or corrupt), the trace cache (used on the second
// load, rebuilt when bad, skipped when it cannot be written), `trace import --binary`, and the
// same report bytes from the CSV and from the mapped file, with 1 and 2 threads.
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "cli_test_support.hpp"
#include "core/error.hpp"
#include "core/io/block_lines.hpp"
#include "core/io/sha256.hpp"
#include "des_support.hpp"
#include "engine/des/job_stream.hpp"
#include "models/workload/trace_binary.hpp"
#include "models/workload/trace_cache.hpp"
#include "models/workload/trace_csv.hpp"
#include "models/workload/trace_table.hpp"
#include "test_support.hpp"

namespace tco {

namespace {

namespace fs = std::filesystem;

// Every field in use: a start line, gpu types and classes (a type equal to a class name), empty
// optional fields, deadlines, waits, flags, a '\r\n' line and a blank line.
constexpr const char* kTrace =
    "# start: 2024-03-09T22:00:00-05:00 America/New_York\n"
    "submit_h,gpus,duration_h,gpu_type,preemptible,checkpoint_h,max_wait_h,deadline_h,deferrable,class\n"
    "0,8,12.5,h100,1,1,,,0,train\n"
    "0.1,1,0.25,,0,,0,48,1,\r\n"
    "\n"
    "2.5,16,100,train,1,0.5,2,,1,notebook\n"
    "2.5,3,0.1,a100,0,,,,0,train\n";

using tco::test::write_text;

void check_same_jobs(const std::vector<Job>& a, const std::vector<Job>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CAPTURE(i);
    CHECK(a[i].submit_h == b[i].submit_h);
    CHECK(a[i].gpus == b[i].gpus);
    CHECK(a[i].duration_h == b[i].duration_h);
    CHECK(a[i].gpu_type == b[i].gpu_type);
    CHECK(a[i].preemptible == b[i].preemptible);
    CHECK(a[i].checkpoint_h == b[i].checkpoint_h);
    CHECK(a[i].max_wait_h == b[i].max_wait_h);
    CHECK(a[i].deadline_h == b[i].deadline_h);
    CHECK(a[i].deferrable == b[i].deferrable);
    CHECK(a[i].job_class == b[i].job_class);
  }
}

// Overwrites `bytes` at `offset` of a file.
void patch(const std::string& path, std::size_t offset, const std::string& bytes) {
  std::fstream f(path, std::ios::binary | std::ios::in | std::ios::out);
  f.seekp(static_cast<std::streamoff>(offset));
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

TEST_CASE("block line reader: line breaks, '\\r', a last line without a break, a line longer than a block") {
  const auto dir = test::scratch_dir("block-lines");
  const std::string long_line(3'000'000, 'x');  // three 1 MiB blocks
  const std::string path = write_text(dir / "t.txt", "a,b\r\n\nc\n" + long_line + "\nlast\r");
  BlockLineReader reader(path);
  REQUIRE(reader.is_open());
  std::vector<std::string> lines;
  std::string_view line;
  while (reader.next(line)) lines.emplace_back(line);
  CHECK(!reader.read_failed());
  CHECK(lines == std::vector<std::string>{"a,b", "", "c", long_line, "last"});
  CHECK(!BlockLineReader((dir / "absent.txt").string()).is_open());
}

TEST_CASE("binary trace: the same jobs and start as the CSV, every field") {
  const auto dir = test::scratch_dir("trace-binary-roundtrip");
  const std::string csv = write_text(dir / "t.csv", kTrace);
  const std::string bin = (dir / "t.tcotrace").string();
  const std::string digest = sha256_file_hex(csv);
  write_trace_binary(bin, read_trace_table(csv), digest);
  const OpenedTraceBinary opened = open_trace_binary(bin, digest);
  REQUIRE(opened.status == TraceBinaryStatus::ok);
  CHECK(opened.table.rows() == 4);
  // "" first, then in order of appearance: h100, train, a100 (the gpu type "train" shares its id)
  CHECK(opened.table.strings() == std::vector<std::string>{"", "h100", "train", "notebook", "a100"});
  REQUIRE(opened.table.start().has_value());
  CHECK(opened.table.start()->local_time == "2024-03-09T22:00:00-05:00");
  CHECK(opened.table.start()->time_zone == "America/New_York");
  const std::vector<Job> from_csv = read_trace(csv);
  check_same_jobs(trace_table_jobs(opened.table), from_csv);
  CHECK(from_csv[1].deadline_h == 48.0);
  CHECK(from_csv[1].max_wait_h == 0.0);
  CHECK(from_csv[0].max_wait_h == -1.0);
  // 256-byte header, strings, then nine columns of 4 rows, each 64-byte aligned: 6 x 64 + 64 + 3 x 64.
  CHECK(fs::file_size(bin) % 64 == 0);
  CHECK(fs::file_size(bin) == 256 + 128 + 9 * 64);
}

TEST_CASE("binary trace: truncated, another version, another source or a bad value is never used") {
  const auto dir = test::scratch_dir("trace-binary-bad");
  const std::string csv = write_text(dir / "t.csv", kTrace);
  const std::string digest = sha256_file_hex(csv);
  const TraceTable table = read_trace_table(csv);
  const std::string bin = (dir / "t.tcotrace").string();
  auto fresh = [&] { write_trace_binary(bin, table, digest); };

  fresh();
  fs::resize_file(bin, fs::file_size(bin) - 1);
  CHECK(open_trace_binary(bin, digest).status == TraceBinaryStatus::truncated);
  fs::resize_file(bin, 100);
  CHECK(open_trace_binary(bin, digest).status == TraceBinaryStatus::truncated);

  fresh();
  patch(bin, 12, std::string("\x02\x00\x00\x00", 4));  // schema version 2
  const OpenedTraceBinary v2 = open_trace_binary(bin, digest);
  CHECK(v2.status == TraceBinaryStatus::other_version);
  CHECK(v2.detail == "schema version 2 (this tcosim reads 1)");

  fresh();
  CHECK(open_trace_binary(bin, std::string(64, '0')).status == TraceBinaryStatus::other_source);
  CHECK(open_trace_binary(bin, "").status == TraceBinaryStatus::ok);  // any source

  fresh();
  patch(bin, 0, "X");  // the magic
  CHECK(open_trace_binary(bin, digest).status == TraceBinaryStatus::corrupt);

  // string_count (header offset 8 + 4 + 4 + 4 x 8 + 9 columns x 8 = 120) of 2^32 - 1: more strings
  // than the table has bytes. The trace-canonical fuzz run found the reader allocating 32 GiB.
  fresh();
  patch(bin, 120, std::string("\xff\xff\xff\xff", 4));
  const OpenedTraceBinary many_strings = open_trace_binary(bin, digest);
  CHECK(many_strings.status == TraceBinaryStatus::corrupt);
  CHECK(many_strings.detail == "its sections do not fit the file");

  // gpus of job 1 set to 0: the gpus column is the sixth, after the strings and five float columns.
  fresh();
  patch(bin, 256 + 128 + 5 * 64, std::string(4, '\0'));
  const OpenedTraceBinary zero_gpus = open_trace_binary(bin, digest);
  CHECK(zero_gpus.status == TraceBinaryStatus::corrupt);
  CHECK(zero_gpus.detail == "job 1 holds a value the CSV reader rejects");

  CHECK(open_trace_binary((dir / "absent").string(), digest).status == TraceBinaryStatus::missing);
}

TEST_CASE("trace cache: parsed once, mapped on the next load, rebuilt when bad, skipped when unwritable") {
  const auto dir = test::scratch_dir("trace-cache");
  const std::string csv = write_text(dir / "t.csv", kTrace);
  TraceCacheOptions o;
  o.cache_dir = (dir / "cache").string();
  o.min_cache_bytes = 0;
  const std::string cached = (dir / "cache" / "traces" / (sha256_file_hex(csv) + ".tcotrace")).string();

  const LoadedTrace first = load_trace(csv, o);
  CHECK(first.origin == TraceOrigin::csv);
  CHECK(first.binary_path == cached);
  CHECK(fs::exists(cached));
  const LoadedTrace second = load_trace(csv, o);
  CHECK(second.origin == TraceOrigin::cache);
  check_same_jobs(trace_table_jobs(second.table), read_trace(csv));

  fs::resize_file(cached, 200);  // truncated: not used, parsed again and rewritten
  const LoadedTrace third = load_trace(csv, o);
  CHECK(third.origin == TraceOrigin::csv);
  REQUIRE(third.notes.size() == 1);
  CHECK(third.notes[0] == cached + ": not used, truncated (shorter than its header)");
  CHECK(load_trace(csv, o).origin == TraceOrigin::cache);

  // The CSV changes: the cached file of the old bytes is not found, the new one is written.
  write_text(dir / "t.csv", std::string(kTrace) + "3,1,1,,0,,,,0,train\n");
  const LoadedTrace changed = load_trace(csv, o);
  CHECK(changed.origin == TraceOrigin::csv);
  CHECK(changed.table.rows() == 5);

  // A cache folder that cannot be created (under a regular file): the load goes on, with a note.
  TraceCacheOptions blocked = o;
  blocked.cache_dir = (dir / "t.csv" / "cache").string();
  const LoadedTrace unwritable = load_trace(csv, blocked);
  CHECK(unwritable.origin == TraceOrigin::csv);
  CHECK(unwritable.table.rows() == 5);
  REQUIRE(unwritable.notes.size() == 1);
  CHECK(unwritable.notes[0].find("the trace cache was not written") != std::string::npos);

  // Below min_cache_bytes nothing is written.
  TraceCacheOptions small = o;
  small.cache_dir = (dir / "cache-small").string();
  small.min_cache_bytes = 1u << 20;
  CHECK(load_trace(csv, small).binary_path.empty());
  CHECK(!fs::exists(dir / "cache-small"));
}

TEST_CASE("trace cache: a binary beside the CSV is used only when written from its bytes") {
  const auto dir = test::scratch_dir("trace-beside");
  const std::string csv = write_text(dir / "t.csv", kTrace);
  const TraceCacheOptions no_cache;
  write_trace_binary(binary_trace_beside(csv), read_trace_table(csv), sha256_file_hex(csv));
  CHECK(load_trace(csv, no_cache).origin == TraceOrigin::binary_beside);
  write_text(dir / "t.csv", std::string(kTrace) + "3,1,1,,0,,,,0,train\n");  // edited after the import
  const LoadedTrace edited = load_trace(csv, no_cache);
  CHECK(edited.origin == TraceOrigin::csv);
  CHECK(edited.table.rows() == 5);
  REQUIRE(edited.notes.size() == 1);
  CHECK(edited.notes[0].find("not used, written from another CSV") != std::string::npos);
}

TEST_CASE("trace import --binary writes the CSV and its columns, all or nothing") {
  const auto dir = test::scratch_dir("trace-import-binary");
  const std::string sacct = write_text(
      dir / "sacct.txt",
      "JobID|State|Submit|Start|End|Elapsed|AllocTRES|Partition\n"
      "1|COMPLETED|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T02:00:00|02:00:00|gres/gpu=8|gpu\n"
      "2|COMPLETED|2024-01-01T01:00:00|2024-01-01T01:00:00|2024-01-01T01:30:00|00:30:00|gres/gpu:h100=2|gpu\n");
  const std::string out = (dir / "jobs.csv").string();
  const test::CliResult r = test::run_cli({"trace", "import", "--format", "slurm", sacct, "-o", out, "--binary"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(r.out.find("wrote its binary columns to " + out + ".tcotrace") != std::string::npos);
  const OpenedTraceBinary opened = open_trace_binary(out + ".tcotrace", sha256_file_hex(out));
  REQUIRE(opened.status == TraceBinaryStatus::ok);
  check_same_jobs(trace_table_jobs(opened.table), read_trace(out));
  CHECK(opened.table.rows() == 2);
  CHECK(opened.table.start().has_value());

  // A bad input: exit 2, neither file.
  const std::string bad = write_text(dir / "bad.txt", "JobID|State|Submit|Start|End|Elapsed|AllocTRES|Partition\n"
                                                      "1|COMPLETED|yesterday|x|y|02:00:00|gres/gpu=8|gpu\n");
  const std::string out2 = (dir / "jobs2.csv").string();
  CHECK(test::run_cli({"trace", "import", "--format", "slurm", bad, "-o", out2, "--binary"}).exit_code == 2);
  CHECK(!fs::exists(out2));
  CHECK(!fs::exists(out2 + ".tcotrace"));
}

TEST_CASE("replay: the same report bytes from the CSV and from its mapped binary, 1 and 2 threads") {
  const auto dir = test::scratch_dir("trace-binary-report");
  // 300 jobs over two weeks, tiled over the year: two classes, some preemptible with checkpoints.
  std::string text = "submit_h,gpus,duration_h,gpu_type,preemptible,checkpoint_h,max_wait_h,deadline_h,deferrable,class\n";
  for (int k = 0; k < 300; ++k)
    text += fmt::format("{},{},{},,{},{},,,0,{}\n", k * 1.1, 1 + k % 8, 0.5 + (k * 7 % 13) * 0.75, k % 3 == 0 ? 1 : 0,
                        k % 3 == 0 ? "0.5" : "", k % 2 == 0 ? "train" : "eval");
  const std::string csv = write_text(dir / "t.csv", text);
  Json doc = test::des_scenario_json({{"trace", csv}, {"tile", true}});
  const std::string scenario = test::write_json_file(dir / "s.json", doc);
  auto run = [&](const std::string& name, const std::string& threads) {
    const std::string report = (dir / name).string();
    const test::CliResult r =
        test::run_cli({"run", scenario, "--out", report, "--paths", "6", "--threads", threads, "--quiet"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    return test::read_text_file(report);
  };
  const std::string from_csv = run("csv.json", "1");
  write_trace_binary(binary_trace_beside(csv), read_trace_table(csv), sha256_file_hex(csv));
  const Scenario s = test::load_des_scenario(doc);
  CHECK(des::build_job_catalog(*s.jobs, TraceCacheOptions{}).trace_origin == TraceOrigin::binary_beside);
  CHECK(run("binary.json", "1") == from_csv);
  CHECK(test::report_without_run(run("binary-2.json", "2")) == test::report_without_run(from_csv));
}

}  // namespace tco

namespace tco {

TEST_CASE("binary trace: the fuzz seed is the binary file of its CSV seed") {
  const std::string csv = test::source_path("fuzz/seeds/canonical/jobs.csv");
  const OpenedTraceBinary opened = open_trace_binary(test::source_path("fuzz/seeds/canonical/jobs.tcotrace"),
                                                     sha256_file_hex(csv));
  REQUIRE_MESSAGE(opened.status == TraceBinaryStatus::ok, opened.detail);
  check_same_jobs(trace_table_jobs(opened.table), read_trace(csv));
}

}  // namespace tco
