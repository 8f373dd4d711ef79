// The canonical trace CSV parsed in parts on several threads (models/workload/trace_table.cpp's
// read_trace_table, issue 26): the same table for 1, 2 and 3 threads as the streaming reader,
// and the same error for the same first bad line, wherever the cut between parts falls, a bad
// order across the cut included.
#include <cstring>
#include <functional>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "test_support.hpp"
#include "core/error.hpp"
#include "models/workload/trace_csv.hpp"
#include "models/workload/trace_table.hpp"

namespace tco {

namespace {

namespace fs = std::filesystem;

// 12 MiB of rows (three 4 MiB parts at most): submit_h "SSSSSS.5" of one width (so that a value
// can be patched in place), classes and GPU types that repeat, a '\r\n' line and blank lines.
std::string write_big_trace(const fs::path& path, long& rows) {
  std::string text = "submit_h,gpus,duration_h,gpu_type,preemptible,checkpoint_h,max_wait_h,deadline_h,deferrable,class\n";
  rows = 0;
  for (long i = 0; text.size() < (12u << 20) + 4096; ++i, ++rows) {
    text += fmt::format("{:06d}.5,{},{},{},{},,,{},0,{}", 100000 + i / 4, 1 << (i % 4), 0.25 + (i % 7),
                        i % 3 == 0 ? "h100" : "", i % 2, i % 5 == 0 ? "48" : "", i % 11 == 0 ? "train" : "eval");
    text += i % 1000 == 0 ? "\r\n" : "\n";
    if (i % 5000 == 0) text += "\n";
  }
  std::ofstream(path, std::ios::binary) << text;
  return text;
}

std::string error_of(const std::function<void()>& read) {
  try {
    read();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// The byte offset of the first row of part `k` of `parts` (read_trace_table's cut).
std::size_t cut_offset(const std::string& text, int k, int parts) {
  const std::size_t body = text.find('\n') + 1;
  const std::size_t at = body + (text.size() - body) * static_cast<std::size_t>(k) / static_cast<std::size_t>(parts);
  return text.find('\n', at) + 1;
}

}  // namespace

TEST_CASE("trace parts: 1, 2 and 3 threads give the streaming reader's table") {
  const fs::path dir = test::scratch_dir("trace-parts");
  long rows = 0;
  write_big_trace(dir / "big.csv", rows);
  const std::string csv = (dir / "big.csv").string();
  const std::vector<Job> streamed = read_trace(csv);
  REQUIRE(static_cast<long>(streamed.size()) == rows);
  for (int threads : {1, 2, 3}) {
    CAPTURE(threads);
    const TraceTable t = read_trace_table(csv, threads);
    REQUIRE(t.rows() == streamed.size());
    // Strings in the order of their first row, as the streaming reader meets them.
    CHECK(t.strings() == std::vector<std::string>{"", "h100", "train", "eval"});
    for (std::size_t i = 0; i < t.rows(); i += 997) {
      const Job j = t.job(i);
      CHECK(j.submit_h == streamed[i].submit_h);
      CHECK(j.gpus == streamed[i].gpus);
      CHECK(j.duration_h == streamed[i].duration_h);
      CHECK(j.gpu_type == streamed[i].gpu_type);
      CHECK(j.job_class == streamed[i].job_class);
      CHECK(j.preemptible == streamed[i].preemptible);
      CHECK(j.deadline_h == streamed[i].deadline_h);
    }
    const TraceColumns& c = t.columns();
    CHECK(std::memcmp(c.submit_h, read_trace_table(csv, 1).columns().submit_h, t.rows() * sizeof(double)) == 0);
  }
}

TEST_CASE("trace parts: the first bad line's error, whatever the thread count and wherever the cut") {
  const fs::path dir = test::scratch_dir("trace-parts-bad");
  long rows = 0;
  const std::string text = write_big_trace(dir / "good.csv", rows);
  const auto check_same_error = [&](const std::string& name, std::string patched, const std::string& expected) {
    CAPTURE(name);
    const std::string csv = (dir / (name + ".csv")).string();
    std::ofstream(csv, std::ios::binary) << patched;
    const std::string streamed = error_of([&] { read_trace(csv); });
    CHECK(streamed.find(expected) != std::string::npos);
    for (int threads : {1, 2, 3}) {
      CAPTURE(threads);
      CHECK(error_of([&] { read_trace_table(csv, threads); }) == streamed);
    }
  };
  // The first row of the second of three parts goes back in time: the order breaks across the cut
  // (as the streaming reader sees it: the line before holds a later submit_h).
  std::string across = text;
  across.replace(cut_offset(text, 1, 3), 6, "000001");
  check_same_error("order-across-cut-of-3", across, "the trace must be sorted by submit_h");
  across = text;
  across.replace(cut_offset(text, 1, 2), 6, "000001");
  check_same_error("order-across-cut-of-2", across, "the trace must be sorted by submit_h");
  // A bad number in the third part and a short line in the second: the second part's comes first.
  std::string two = text;
  two.replace(cut_offset(text, 2, 3) + 9, 1, "x");
  const std::size_t short_at = cut_offset(text, 1, 3) + 200;
  const std::size_t line_start = two.rfind('\n', short_at) + 1;
  const std::size_t line_end = two.find('\n', short_at);
  two.replace(line_start, line_end - line_start, "100000.5,8");
  check_same_error("two-errors", two, "expected 10 fields as in the header, found 2");
  // A bad GPU count on the last line.
  std::string last = text;
  const std::size_t last_line = last.rfind('\n', last.find_last_not_of("\r\n")) + 1;
  last.replace(last_line + 9, 1, "0");
  check_same_error("last-line", last, "an integer number of GPUs");
}

}  // namespace tco
