// The canonical job trace (reader, writer), the importers and `tcosim trace`: hand-written
// rows to the documented schemas of each public trace, and the openb / DLRM files in
// ../shared/data, whose row counts are published (docs/des.md, data README §3).
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "core/error.hpp"
#include "models/workload/trace_csv.hpp"
#include "models/importers/jobs/trace_import.hpp"
#include "models/workload/trace_stats.hpp"
#include "scenario_builder.hpp"

namespace tco {

namespace {

std::string write_text(const std::filesystem::path& dir, const std::string& name, const std::string& text) {
  const auto path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

long dropped(const ImportCounts& c, const std::string& reason) {
  for (const auto& [name, count] : c.dropped)
    if (name == reason) return count;
  return -1;
}

std::string input_error_where(const std::string& path) {
  try {
    read_trace(path);
  } catch (const InputError& e) {
    return e.where();
  }
  return "no error";
}

}  // namespace

TEST_CASE("canonical trace: written jobs read back exactly, with defaults for empty fields") {
  const auto dir = test::scratch_dir("trace-roundtrip");
  Job a;
  a.submit_h = 0.1;  // not exact in binary: the shortest round-trip text must bring it back
  a.gpus = 16;
  a.duration_h = 12.345678901234;
  a.preemptible = true;
  a.checkpoint_h = 1.5;
  a.deadline_h = 48.0;
  a.job_class = "train";
  Job b;
  b.submit_h = 2.0;
  b.duration_h = 0.25;
  b.max_wait_h = 0.0;
  b.deferrable = true;
  b.gpu_type = "H100";
  const std::string path = (dir / "t.csv").string();
  TraceWriter writer(path);
  writer.write(a);
  writer.write(b);
  writer.close();
  const auto jobs = read_trace(path);
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[0].submit_h == a.submit_h);
  CHECK(jobs[0].gpus == 16);
  CHECK(jobs[0].duration_h == a.duration_h);
  CHECK(jobs[0].preemptible);
  CHECK(jobs[0].checkpoint_h == 1.5);
  CHECK(jobs[0].deadline_h == 48.0);
  CHECK_FALSE(jobs[0].has_max_wait());
  CHECK(jobs[0].job_class == "train");
  CHECK(jobs[1].max_wait_h == 0.0);
  CHECK(jobs[1].deferrable);
  CHECK_FALSE(jobs[1].has_deadline());
  CHECK(jobs[1].gpu_type == "H100");

  // A minimal trace: only the three required columns, in another order.
  const auto minimal = write_text(dir, "m.csv", "gpus,submit_h,duration_h\n8,0,1\n\n1,0.5,2\n");
  const auto m = read_trace(minimal);
  REQUIRE(m.size() == 2);
  CHECK(m[1].gpus == 1);
  CHECK(m[1].submit_h == 0.5);
  CHECK_FALSE(m[1].preemptible);
}

TEST_CASE("canonical trace: a malformed line is an error naming its line and column") {
  const auto dir = test::scratch_dir("trace-errors");
  const std::string header = "submit_h,gpus,duration_h,preemptible\n";
  CHECK(input_error_where(write_text(dir, "a.csv", header + "0,8,1,0\n1,eight,1,0\n")) == "line 3, column 2");
  CHECK(input_error_where(write_text(dir, "b.csv", header + "0,8,1,0\n1,0,1,0\n")) == "line 3, column 2");
  CHECK(input_error_where(write_text(dir, "c.csv", header + "0,8,-1,0\n")) == "line 2, column 3");
  CHECK(input_error_where(write_text(dir, "d.csv", header + "5,8,1,0\n4,8,1,0\n")) == "line 3, column 1");
  CHECK(input_error_where(write_text(dir, "e.csv", header + "0,8,1\n")) == "line 2, column 4");
  CHECK(input_error_where(write_text(dir, "f.csv", header + "0,8,1,maybe\n")) == "line 2, column 4");
  CHECK(input_error_where(write_text(dir, "g.csv", "submit_h,gpus,walltime\n")) == "line 1, column 3");
  CHECK(input_error_where(write_text(dir, "h.csv", "submit_h,gpus\n0,1\n")) == "line 1");
  // A job's hours beyond 100,000 (about 11 years: the scenario's limits::kHours, as a job source's
  // max_duration_h), or a submit time beyond 1,000,000, are unit slips; 1e308 h would make GPU-hours
  // infinite.
  CHECK(input_error_where(write_text(dir, "j.csv", header + "0,8,1e308,0\n")) == "line 2, column 3");
  CHECK(input_error_where(write_text(dir, "k.csv", header + "2e6,8,1,0\n")) == "line 2, column 1");
  CHECK(input_error_where(write_text(dir, "k2.csv", header + "2e5,8,1,0\n")) == "no error");  // a clock from an epoch
  CHECK(input_error_where(write_text(dir, "l.csv", header + "0,8,100000,0\n")) == "no error");
  CHECK(input_error_where(write_text(dir, "m.csv", header + "0,8,100001,0\n")) == "line 2, column 3");
  // Issue 43: 50 jobs of 10^6 GPUs (the most a scenario's job may ask for) for 10^6 hours ran to an
  // NPV of 1.35e14 with exit 0; the first job's duration is refused, and one GPU more is too.
  std::string huge = header;
  for (int i = 0; i < 50; ++i) huge += std::to_string(i) + ",1000000,1000000,0\n";
  CHECK(input_error_where(write_text(dir, "n.csv", huge)) == "line 2, column 3");
  CHECK(input_error_where(write_text(dir, "o.csv", header + "0,1000001,1,0\n")) == "line 2, column 2");
  CHECK(input_error_where(write_text(dir, "p.csv", header + "0,1000000,100000,0\n")) == "no error");
  try {
    read_trace(write_text(dir, "i.csv", header + "0,8,1,0\n1,eight,1,0\n"));
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("gpus: expected an integer number of GPUs") != std::string::npos);
    CHECK(std::string(e.what()).find("found \"eight\"") != std::string::npos);
  }
}

TEST_CASE("trace stats: hand-computed GPU-hours, histogram, percentiles and peak concurrency") {
  const auto dir = test::scratch_dir("trace-stats");
  // Jobs: (0 h, 8 GPUs, 2 h), (1 h, 4, 2 h), (2 h, 8, 1 h), (10 h, 1, 4 h).
  // GPU-hours 16 + 8 + 8 + 4 = 36. Concurrency: [0,1) 8, [1,2) 12, [2,3) 4 + 8 = 12 (the
  // first job leaves at 2 before the third arrives), [10,14) 1: peak 12, first reached at 1 h.
  // Durations sorted {1, 2, 2, 4}: P50 = 2, P90 at position 2.7 = 2 + 0.7 x 2 = 3.4, mean 2.25.
  const auto path = write_text(dir, "s.csv", "submit_h,gpus,duration_h\n0,8,2\n1,4,2\n2,8,1\n10,1,4\n");
  const TraceStats s = trace_stats(path);
  CHECK(s.jobs == 4);
  CHECK(s.gpu_hours == doctest::Approx(36.0).epsilon(1e-12));
  CHECK(s.jobs_by_gpus.at(8) == 2);
  CHECK(s.jobs_by_gpus.at(4) == 1);
  CHECK(s.jobs_by_gpus.at(1) == 1);
  CHECK(s.duration_p50_h == doctest::Approx(2.0).epsilon(1e-12));
  CHECK(s.duration_p90_h == doctest::Approx(3.4).epsilon(1e-12));
  CHECK(s.duration_mean_h == doctest::Approx(2.25).epsilon(1e-12));
  CHECK(s.duration_max_h == 4.0);
  CHECK(s.peak_concurrent_gpus == 12);
  CHECK(s.peak_at_h == 1.0);

  const test::CliResult json = test::run_cli({"trace", "stats", path, "--json"});
  REQUIRE(json.exit_code == 0);
  const Json j = Json::parse(json.out);
  CHECK(j.at("peak_concurrent_gpus") == 12);
  CHECK(j.at("jobs_by_gpus").size() == 3);
  const test::CliResult text = test::run_cli({"trace", "stats", path});
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("peak concurrent GPUs 12") != std::string::npos);
  CHECK(text.out.find("hour 0") == std::string::npos);  // no start line, none printed
  CHECK(!j.contains("start"));

  // An imported trace's start line is printed and in the JSON.
  const auto dated = write_text(dir, "dated.csv",
                                "# start: 2024-03-10T01:30:00-05:00 America/New_York\nsubmit_h,gpus,duration_h\n0,8,2\n");
  const test::CliResult dated_text = test::run_cli({"trace", "stats", dated});
  REQUIRE(dated_text.exit_code == 0);
  CHECK(dated_text.out.find("hour 0               2024-03-10T01:30:00-05:00 (America/New_York)") != std::string::npos);
  const Json dated_json = Json::parse(test::run_cli({"trace", "stats", dated, "--json"}).out);
  CHECK(dated_json.at("start").at("local_time") == "2024-03-10T01:30:00-05:00");
  // 2024-03-10T06:30:00Z = 19,792 days x 86,400 + 6.5 x 3,600 = 1,710,052,200 s.
  CHECK(dated_json.at("start").at("utc_s") == 1710052200);
}

TEST_CASE("import openb: 8,152 pods, drop counts that add up (../shared/data)") {
  TCO_REQUIRE_SHARED_DATA();
  const std::string in = test::shared_data_path("alibaba-gpu-v2023/openb_pod_list_default.csv");
  const ImportResult r = import_trace("openb", in);
  // Data README §3.1: 8,152 pods, 1,088 with num_gpu 0; 897 Pending pods were never
  // scheduled, 36 of which also ask for 0 GPUs (counted once, as zero_gpus).
  CHECK(r.counts.rows == 8152);
  CHECK(dropped(r.counts, "zero_gpus") == 1088);
  CHECK(dropped(r.counts, "never_scheduled") == 861);
  CHECK(r.counts.jobs + r.counts.dropped_total() == r.counts.rows);
  CHECK(r.counts.jobs == static_cast<long>(r.jobs.size()));
  for (std::size_t i = 1; i < r.jobs.size(); ++i) REQUIRE(r.jobs[i - 1].submit_h <= r.jobs[i].submit_h);

  const auto dir = test::scratch_dir("import-openb");
  const std::string out = (dir / "openb.csv").string();
  const test::CliResult cli = test::run_cli({"trace", "import", "--format", "openb", in, "-o", out});
  REQUIRE(cli.exit_code == 0);
  CHECK(cli.out.find("read 8152 rows") != std::string::npos);
  CHECK(cli.out.find("zero_gpus        1088") != std::string::npos);
  CHECK(read_trace(out).size() == r.jobs.size());
}

TEST_CASE("import dlrm: 23,871 instances, the 16,485 CPU nodes dropped for zero GPUs (../shared/data)") {
  TCO_REQUIRE_SHARED_DATA();
  const ImportResult r =
      import_trace("dlrm", test::shared_data_path("alibaba-gpu-v2025/disaggregated_DLRM_trace.csv"));
  CHECK(r.counts.rows == 23871);
  CHECK(dropped(r.counts, "zero_gpus") == 16485);
  CHECK(r.counts.jobs + r.counts.dropped_total() == r.counts.rows);
  // Every GPU instance was scheduled (or ran from before the start); 16 were deleted the
  // second they were scheduled (zero duration).
  CHECK(dropped(r.counts, "never_scheduled") == 0);
  CHECK(dropped(r.counts, "zero_duration") == 16);
  CHECK(r.counts.jobs == 7386 - 16);
  // Instances alive before the trace start are submitted at 0; the end fills in as the file's end.
  CHECK(r.jobs.front().submit_h == 0.0);
  CHECK(r.jobs.front().job_class.rfind("app_", 0) == 0);
}

TEST_CASE("import philly: rows written to the documented cluster_job_log schema") {
  const auto dir = test::scratch_dir("import-philly");
  // Job 1: two attempts, last on 2 machines x 4 GPUs: 8 GPUs from 10:00:00 to 12:30:00 = 2.5 h,
  //        submitted 09:00:00 (the earliest submission: hour 0).
  // Job 2: never scheduled (no attempts).  Job 3: still running ("None" end).
  // Job 4: 1 GPU, 10:00:00 to 10:30:00, submitted 09:45:00 -> 0.75 h after job 1.
  const std::string json = R"([
    {"status": "Pass", "vc": "vc1", "jobid": "a1", "user": "u", "submitted_time": "2017-10-03 09:00:00",
     "attempts": [{"start_time": "2017-10-03 10:00:00", "end_time": "2017-10-03 10:10:00",
                   "detail": [{"ip": "m1", "gpus": ["gpu0"]}]},
                  {"start_time": "2017-10-03 11:00:00", "end_time": "2017-10-03 12:30:00",
                   "detail": [{"ip": "m1", "gpus": ["gpu0", "gpu1", "gpu2", "gpu3"]},
                              {"ip": "m2", "gpus": ["gpu0", "gpu1", "gpu2", "gpu3"]}]}]},
    {"status": "Killed", "vc": "vc2", "jobid": "a2", "user": "u", "submitted_time": "2017-10-03 09:10:00", "attempts": []},
    {"status": "Running", "vc": "vc2", "jobid": "a3", "user": "u", "submitted_time": "2017-10-03 09:20:00",
     "attempts": [{"start_time": "2017-10-03 09:30:00", "end_time": "None", "detail": [{"ip": "m3", "gpus": ["gpu0"]}]}]},
    {"status": "Pass", "vc": "vc3", "jobid": "a4", "user": "u", "submitted_time": "2017-10-03 09:45:00",
     "attempts": [{"start_time": "2017-10-03 10:00:00", "end_time": "2017-10-03 10:30:00",
                   "detail": [{"ip": "m4", "gpus": ["gpu7"]}]}]}
  ])";
  const ImportResult r = import_trace("philly", write_text(dir, "log.json", json));
  CHECK(r.counts.rows == 4);
  CHECK(dropped(r.counts, "never_scheduled") == 1);
  CHECK(dropped(r.counts, "no_end_time") == 1);
  REQUIRE(r.jobs.size() == 2);
  CHECK(r.jobs[0].submit_h == 0.0);
  CHECK(r.jobs[0].gpus == 8);
  CHECK(r.jobs[0].duration_h == doctest::Approx(2.5).epsilon(1e-12));
  CHECK(r.jobs[0].job_class == "vc1");
  CHECK(r.jobs[1].submit_h == doctest::Approx(0.75).epsilon(1e-12));
  CHECK(r.jobs[1].duration_h == doctest::Approx(0.5).epsilon(1e-12));

  // End before start is an error naming the JSON pointer.
  const std::string bad = R"([{"vc": "v", "submitted_time": "2017-10-03 09:00:00",
    "attempts": [{"start_time": "2017-10-03 10:00:00", "end_time": "2017-10-03 09:59:00", "detail": [{"ip": "m", "gpus": ["g"]}]}]}])";
  const test::CliResult cli = test::run_cli({"trace", "import", "--format", "philly", write_text(dir, "bad.json", bad), "-o",
                                (dir / "o.csv").string()});
  CHECK(cli.exit_code == 2);
  CHECK(cli.err.find("/0/attempts/0/end_time") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "o.csv"));
}

TEST_CASE("import philly: a run longer than a trace job may be is exit 2 at its end_time (the fuzzer's reproducer)") {
  // libFuzzer (trace-philly, session 27): an attempt from 2017-10-03 11:00 to 2034-10-03 12:30 was
  // imported as duration_h 149,018.5, which `trace stats` then refused (a job's own hours are at
  // most limits::kHours, 100,000 h). 2017-10-03 to 2034-10-03 is 17 years with 4 leap days
  // (2020, 2024, 2028, 2032): (17 x 365 + 4) x 24 = 149,016 h, + 1.5 h = 149,017.5 h from the
  // last attempt's start; from the first attempt's start (10:00) one more: 149,018.5 h.
  const auto dir = test::scratch_dir("import-philly-long");
  const std::string long_run = R"([{"vc": "v", "submitted_time": "2017-10-03 09:00:00",
    "attempts": [{"start_time": "2017-10-03 10:00:00", "end_time": "2017-10-03 10:10:00", "detail": [{"ip": "m", "gpus": ["g"]}]},
                 {"start_time": "2017-10-03 11:00:00", "end_time": "2034-10-03 12:30:00", "detail": [{"ip": "m", "gpus": ["g"]}]}]}])";
  const test::CliResult cli = test::run_cli({"trace", "import", "--format", "philly",
                                             write_text(dir, "long.json", long_run), "-o", (dir / "o.csv").string()});
  CHECK(cli.exit_code == 2);
  CHECK(cli.err.find("/0/attempts/1/end_time") != std::string::npos);
  CHECK(cli.err.find("expected a run of at most 100000 hours, found 14901") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "o.csv"));
  // 100,000 h exactly is a run the reader takes: 100,000 h = 4,166 days and 16 h; 10:00 + 16 h is
  // 02:00 of the next day, so 4,167 days after 2017-10-03 (3 leap days on the way): 2029-03-01 02:00.
  const std::string longest = R"([{"vc": "v", "submitted_time": "2017-10-03 09:00:00",
    "attempts": [{"start_time": "2017-10-03 10:00:00", "end_time": "2029-03-01 02:00:00", "detail": [{"ip": "m", "gpus": ["g"]}]}]}])";
  const ImportResult r = import_trace("philly", write_text(dir, "longest.json", longest));
  REQUIRE(r.jobs.size() == 1);
  CHECK(r.jobs[0].duration_h == 100000.0);
}

TEST_CASE("import pai: headerless task-table rows, GPU shares rounded up, drops counted") {
  const auto dir = test::scratch_dir("import-pai");
  // job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem,plan_gpu,gpu_type
  const std::string rows =
      "j1,worker,2,Terminated,1000,8200,600,29.3,100,V100\n"   // 2 GPUs, 2 h, hour 0
      "j2,ps,1,Terminated,1500,2000,100,10,,\n"                 // no GPU: dropped
      "j3,tensorflow,1,Terminated,4600,6400,600,29.3,50,T4\n"   // 0.5 GPU -> 1 GPU, 0.5 h, hour 1
      "j4,worker,4,Waiting,,,600,29.3,100,V100\n"               // never scheduled
      "j5,worker,1,Running,4600,,600,29.3,100,P100\n";          // no end time
  const ImportResult r = import_trace("pai", write_text(dir, "task.csv", rows));
  CHECK(r.counts.rows == 5);
  CHECK(dropped(r.counts, "zero_gpus") == 1);
  CHECK(dropped(r.counts, "never_scheduled") == 1);
  CHECK(dropped(r.counts, "no_end_time") == 1);
  CHECK(r.counts.fractional_gpu_rounded_up == 1);
  REQUIRE(r.jobs.size() == 2);
  CHECK(r.jobs[0].gpus == 2);
  CHECK(r.jobs[0].duration_h == doctest::Approx(2.0).epsilon(1e-12));
  CHECK(r.jobs[0].gpu_type == "V100");
  CHECK(r.jobs[1].gpus == 1);
  CHECK(r.jobs[1].submit_h == doctest::Approx(1.0).epsilon(1e-12));

  // A missing column names the line and the first missing column.
  const test::CliResult cli = test::run_cli({"trace", "import", "--format", "pai",
                                write_text(dir, "short.csv", "j1,worker,2,Terminated,1000,8200,600,29.3\n"), "-o",
                                (dir / "o.csv").string()});
  CHECK(cli.exit_code == 2);
  CHECK(cli.err.find("line 1, column 9") != std::string::npos);

  // An extra field (a comma inside a value) would shift the columns after it: an error at the
  // first field past the header's 10, not a row read with its values in the wrong columns.
  const test::CliResult extra = test::run_cli({"trace", "import", "--format", "pai",
                                 write_text(dir, "long.csv", "j1,worker,2,Terminated,1000,8200,600,29.3,100,V1,00\n"),
                                 "-o", (dir / "o2.csv").string()});
  CHECK(extra.exit_code == 2);
  CHECK(extra.err.find("line 1, column 11") != std::string::npos);
  CHECK(extra.err.find("expected 10 fields, found 11 (an extra field") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "o2.csv"));
}

TEST_CASE("import: a quote or carriage return inside a class or GPU type becomes '|', exit 0 (fuzz finding)") {
  // The trace-pai fuzz run of CI found "tcosim trace import" failing with an internal error
  // (exit 3): the canonical CSV does not quote, so its writer refuses such text. Every importer
  // hands its jobs to ImportCollector::keep_run, which now writes '|' in their place.
  const auto dir = test::scratch_dir("import-pai-quote");
  const std::string rows = "j1,wor\"ker,1,Terminated,0,3600,600,29.3,100,V1\r00\n";
  const ImportResult r = import_trace("pai", write_text(dir, "task.csv", rows));
  REQUIRE(r.jobs.size() == 1);
  CHECK(r.jobs[0].job_class == "wor|ker");
  CHECK(r.jobs[0].gpu_type == "V1|00");
  const test::CliResult cli = test::run_cli(
      {"trace", "import", "--format", "pai", (dir / "task.csv").string(), "-o", (dir / "out.csv").string()});
  CHECK(cli.exit_code == 0);
  const std::vector<Job> written = read_trace((dir / "out.csv").string());
  REQUIRE(written.size() == 1);
  CHECK(written[0].gpu_type == "V1|00");
}

TEST_CASE("import helios: rows written to the documented cluster_log.csv schema") {
  const auto dir = test::scratch_dir("import-helios");
  const std::string header = "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue\n";
  const std::string rows =
      "1425511,uXBbc,vcJkd,1,1,1,COMPLETED,2020-06-09 18:41:01,2020-06-09 18:41:01,2020-06-10 04:55:09,36848,0\n"
      "1425512,uVMrF,vchbv,4,16,1,FAILED,2020-06-09 18:41:27,2020-06-09 18:41:27,2020-06-09 18:45:36,249,0\n"
      "1425513,uzqls,vcpDC,0,1,1,COMPLETED,2020-06-09 18:41:28,2020-06-09 18:41:28,2020-06-17 14:15:21,675233,0\n"
      "1425514,uzqls,vcpDC,8,1,1,CANCELLED,2020-06-09 18:42:00,,,0,0\n";
  const ImportResult r = import_trace("helios", write_text(dir, "cluster_log.csv", header + rows));
  CHECK(r.counts.rows == 4);
  CHECK(dropped(r.counts, "zero_gpus") == 1);
  CHECK(dropped(r.counts, "never_scheduled") == 1);
  REQUIRE(r.jobs.size() == 2);
  CHECK(r.jobs[0].duration_h == doctest::Approx(36848.0 / 3600.0).epsilon(1e-12));
  CHECK(r.jobs[1].gpus == 4);
  CHECK(r.jobs[1].submit_h == doctest::Approx(26.0 / 3600.0).epsilon(1e-12));
  CHECK(r.jobs[1].job_class == "vchbv");

  // Bad rows: a non-numeric GPU count, an end before the start.
  const test::CliResult gpus = test::run_cli({"trace", "import", "--format", "helios",
                                 write_text(dir, "g.csv", header + "1,u,vc,four,1,1,COMPLETED,2020-06-09 18:41:01,"
                                                                   "2020-06-09 18:41:01,2020-06-10 04:55:09,1,0\n"),
                                 "-o", (dir / "o.csv").string()});
  CHECK(gpus.exit_code == 2);
  CHECK(gpus.err.find("line 2, column 4") != std::string::npos);
  const test::CliResult order = test::run_cli({"trace", "import", "--format", "helios",
                                  write_text(dir, "e.csv", header + "1,u,vc,4,1,1,COMPLETED,2020-06-09 18:41:01,"
                                                                    "2020-06-09 18:41:01,2020-06-09 18:00:00,1,0\n"),
                                  "-o", (dir / "o.csv").string()});
  CHECK(order.exit_code == 2);
  CHECK(order.err.find("line 2, column 10") != std::string::npos);
}

TEST_CASE("import openb: bad rows name the line and column and exit 2") {
  const auto dir = test::scratch_dir("import-openb-bad");
  const std::string header =
      "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n";
  const auto run = [&](const std::string& row) {
    return test::run_cli({"trace", "import", "--format", "openb", write_text(dir, "p.csv", header + row), "-o",
                   (dir / "o.csv").string()});
  };
  const test::CliResult gpus = run("p0,1000,100,one,1000,,LS,Running,0,100,0\n");
  CHECK(gpus.exit_code == 2);
  CHECK(gpus.err.find("line 2, column 4") != std::string::npos);
  const test::CliResult order = run("p0,1000,100,1,1000,,LS,Running,0,100,200\n");
  CHECK(order.exit_code == 2);
  CHECK(order.err.find("line 2, column 10") != std::string::npos);
  const test::CliResult missing = run("p0,1000,100,1,1000,,LS,Running,0\n");
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("line 2, column 10") != std::string::npos);
  const test::CliResult format = test::run_cli({"trace", "import", "--format", "slurm", "x", "-o", "y"});
  CHECK(format.exit_code == 2);
}

}  // namespace tco
