// `tcosim trace import --format k8s-pods`: the hand-written `kubectl get pods -o json` fixture of
// tests/fixtures/own-history covers every rule of docs/own-history.md; malformed lists.
#include <doctest/doctest.h>

#include "cli_test_support.hpp"
#include "models/importers/jobs/k8s_pods_import.hpp"
#include "import_test_support.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"

namespace tco {


TEST_CASE("k8s-pods import: the fixture's 7 pods give 3 jobs and 4 counted drops") {
  const auto dir = test::scratch_dir("k8s-fixture");
  const std::string out = (dir / "jobs.csv").string();
  const std::string fixture = test::source_path("tests/fixtures/own-history/pods.json");
  const test::CliResult cli = test::run_cli({"trace", "import", "--format", "k8s-pods", fixture, "-o", out});
  REQUIRE(cli.exit_code == 0);
  // train-a (vision, created 03:00Z): max(containers 4 + 0, init 2) = 4 GPUs; run from the init
  //   container's start 03:02Z to the latest finish 05:05Z = 123 min = 2.05 h.
  // eval-b (nlp, 03:30Z -> 0.5): containers 1 (a request, no limit) + 1 (amd.com/gpu) = 2, init 8
  //   -> 8 GPUs; 04:00Z to 04:30Z = 0.5 h.
  // serve-c (nlp, 03:45Z -> 0.75): limit 1 nvidia.com/gpu (its request of 1 not counted again);
  //   restarted: lastState started 04:00Z, state finished 06:00Z = 2 h; gpu_type from nodeSelector.
  CHECK(test::read_text_file(out) ==
        "# start: 2024-03-10T03:00:00+00:00 UTC\n"
        "submit_h,gpus,duration_h,gpu_type,preemptible,checkpoint_h,max_wait_h,deadline_h,deferrable,class\n"
        "0,4,2.05,,0,,,,0,vision\n"
        "0.5,8,0.5,,0,,,,0,nlp\n"
        "0.75,1,2,NVIDIA-H100-80GB-HBM3,0,,,,0,nlp\n");
  // Drops: queued-d Pending (never_scheduled), etl-f no GPU (zero_gpus), running-e Running
  // (no_end_time), crash-g started and finished 05:11Z (zero_duration). 3 + 4 = 7.
  const ImportResult r = import_k8s_pods(fixture, {});
  CHECK(r.counts.rows == 7);
  CHECK(r.counts.jobs == 3);
  CHECK(test::drop_count(r.counts, "never_scheduled") == 1);
  CHECK(test::drop_count(r.counts, "zero_gpus") == 1);
  CHECK(test::drop_count(r.counts, "no_end_time") == 1);
  CHECK(test::drop_count(r.counts, "zero_duration") == 1);
  CHECK(r.counts.jobs + r.counts.dropped_total() == r.counts.rows);

  // --gpu-resource, --class-label, --preemptible-priority-class.
  K8sPodsImportOptions o;
  o.gpu_resources = {"example.com/gpu"};
  o.class_label = "team";
  o.preemptible_priority_classes = {"spot-batch"};
  const ImportResult with = import_k8s_pods(fixture, o);
  REQUIRE(with.jobs.size() == 3);
  CHECK(with.jobs[0].job_class == "perception");
  CHECK(with.jobs[1].job_class == "research");
  CHECK(with.jobs[1].preemptible);
  CHECK(!with.jobs[0].preemptible);
  CHECK(with.jobs[2].gpus == 3);          // 1 nvidia.com/gpu + 2 example.com/gpu
  CHECK(with.jobs[2].job_class.empty());  // serve-c has no "team" label
}

TEST_CASE("k8s-pods import: malformed lists exit 2 with the JSON pointer or line, and write nothing") {
  const auto dir = test::scratch_dir("k8s-bad");
  const std::string meta = R"("metadata":{"namespace":"a","creationTimestamp":"2024-03-10T03:00:00Z"})";
  test::check_rejected("trace", "k8s-pods", "pods.json", {
      {"truncated", R"({"kind":"List","items":[{)" + meta, "line 1, column"},
      {"no items", R"({"kind":"Pod"})", "pods.json: /items: expected a value here"},
      {"bad time", R"({"items":[{"metadata":{"creationTimestamp":"yesterday"},"spec":{}}]})",
       "/items/0/metadata/creationTimestamp"},
      {"GPU count not a number", R"({"items":[{)" + meta + R"(,"spec":{"containers":[{"resources":{"limits":{"nvidia.com/gpu":"two"}}}]}}]})",
       "/items/0/spec/containers/0/resources/limits/nvidia.com~1gpu"},
      {"fractional GPU", R"({"items":[{)" + meta + R"(,"spec":{"containers":[{"resources":{"limits":{"nvidia.com/gpu":0.5}}}]}}]})",
       "/items/0/spec/containers/0/resources/limits/nvidia.com~1gpu"},
  }, dir);
}

}  // namespace tco
