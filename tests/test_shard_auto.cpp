// `--shard auto` (cli/shard/shard_spec.hpp): the index and count of a Slurm array task, a
// Kubernetes Indexed Job's pod and an AWS Batch array child, each from its own variables; none,
// or values that disagree, are exit 2 naming the variables looked for.
#include <map>

#include <doctest/doctest.h>

#include "cli/shard/shard_spec.hpp"
#include "core/error.hpp"
#include "test_support.hpp"

namespace {

tco::cli::Environment shard_env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    const auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

std::string shard_auto_error(const std::map<std::string, std::string>& vars, int shard_count = 0) {
  try {
    tco::cli::resolve_shard("auto", shard_count, shard_env(vars));
  } catch (const tco::InputError& e) {
    return e.message();
  }
  return "no error";
}

}  // namespace

TEST_CASE("shard auto: Slurm's task id less the array's first, of its task count (k is 1-based)") {
  using tco::cli::resolve_shard;
  // --array=0-3, task 2: k = 2 - 0 + 1 = 3 of 4.
  const auto a = resolve_shard("auto", 0, shard_env({{"SLURM_ARRAY_TASK_ID", "2"}, {"SLURM_ARRAY_TASK_COUNT", "4"},
                                                    {"SLURM_ARRAY_TASK_MIN", "0"}, {"SLURM_ARRAY_TASK_MAX", "3"}}));
  CHECK(a.index == 3);
  CHECK(a.count == 4);
  // --array=5-9, task 5: MIN/MAX alone give 9 - 5 + 1 = 5 tasks, k = 5 - 5 + 1 = 1.
  const auto b = resolve_shard("auto", 0, shard_env({{"SLURM_ARRAY_TASK_ID", "5"}, {"SLURM_ARRAY_TASK_MIN", "5"},
                                                    {"SLURM_ARRAY_TASK_MAX", "9"}}));
  CHECK(b.index == 1);
  CHECK(b.count == 5);
  // The count alone (an array from 0): task 6 of 7 is k = 7.
  const auto c = resolve_shard("auto", 0, shard_env({{"SLURM_ARRAY_TASK_ID", "6"}, {"SLURM_ARRAY_TASK_COUNT", "7"}}));
  CHECK(c.index == 7);
  CHECK(c.count == 7);
  // --array=0-7:2: 4 tasks over a span of 8, not 0..N-1.
  CHECK(tco::test::contains(shard_auto_error({{"SLURM_ARRAY_TASK_ID", "2"}, {"SLURM_ARRAY_TASK_COUNT", "4"},
                                              {"SLURM_ARRAY_TASK_MIN", "0"}, {"SLURM_ARRAY_TASK_MAX", "7"}}),
                            "step of 1"));
  CHECK(tco::test::contains(shard_auto_error({{"SLURM_ARRAY_TASK_ID", "2"}}), "SLURM_ARRAY_TASK_COUNT"));
  CHECK(tco::test::contains(shard_auto_error({{"SLURM_ARRAY_TASK_ID", "4"}, {"SLURM_ARRAY_TASK_COUNT", "4"}}),
                            "0 <= index < count"));
}

TEST_CASE("shard auto: a Kubernetes Indexed Job's JOB_COMPLETION_INDEX, its count from --shard-count or TCO_SHARD_COUNT") {
  using tco::cli::resolve_shard;
  const auto a = resolve_shard("auto", 0, shard_env({{"JOB_COMPLETION_INDEX", "0"}, {"TCO_SHARD_COUNT", "3"}}));
  CHECK(a.index == 1);
  CHECK(a.count == 3);
  const auto b = resolve_shard("auto", 3, shard_env({{"JOB_COMPLETION_INDEX", "2"}}));
  CHECK(b.index == 3);
  CHECK(b.count == 3);
  CHECK(tco::test::contains(shard_auto_error({{"JOB_COMPLETION_INDEX", "1"}}), "--shard-count N or TCO_SHARD_COUNT"));
  CHECK(tco::test::contains(shard_auto_error({{"JOB_COMPLETION_INDEX", "1"}, {"TCO_SHARD_COUNT", "3"}}, 4), "disagree"));
  CHECK(tco::test::contains(shard_auto_error({{"JOB_COMPLETION_INDEX", "x"}, {"TCO_SHARD_COUNT", "3"}}),
                            "JOB_COMPLETION_INDEX=\"x\" is not an integer"));
}

TEST_CASE("shard auto: an AWS Batch array child's AWS_BATCH_JOB_ARRAY_INDEX, of AWS_BATCH_JOB_ARRAY_SIZE or --shard-count") {
  using tco::cli::resolve_shard;
  const auto a = resolve_shard("auto", 0, shard_env({{"AWS_BATCH_JOB_ARRAY_INDEX", "4"}, {"AWS_BATCH_JOB_ARRAY_SIZE", "5"}}));
  CHECK(a.index == 5);
  CHECK(a.count == 5);
  const auto b = resolve_shard("auto", 2, shard_env({{"AWS_BATCH_JOB_ARRAY_INDEX", "0"}}));
  CHECK(b.index == 1);
  CHECK(b.count == 2);
  CHECK(tco::test::contains(shard_auto_error({{"AWS_BATCH_JOB_ARRAY_INDEX", "0"}}), "AWS_BATCH_JOB_ARRAY_SIZE nor --shard-count"));
  CHECK(tco::test::contains(shard_auto_error({{"AWS_BATCH_JOB_ARRAY_INDEX", "0"}, {"AWS_BATCH_JOB_ARRAY_SIZE", "5"}}, 4),
                            "disagree"));
}

TEST_CASE("shard auto: no scheduler's variable names every variable looked for, and k/N is checked") {
  const std::string none = shard_auto_error({});
  for (const char* name : {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "JOB_COMPLETION_INDEX",
                           "TCO_SHARD_COUNT", "AWS_BATCH_JOB_ARRAY_INDEX", "AWS_BATCH_JOB_ARRAY_SIZE", "--shard-count"})
    CHECK_MESSAGE(tco::test::contains(none, name), name);
  const auto ok = tco::cli::resolve_shard("2/8", 0, shard_env({}));
  CHECK(ok.index == 2);
  CHECK(ok.count == 8);
  for (const char* bad : {"0/3", "4/3", "1/0", "2/3x", "two"})
    CHECK_THROWS_AS(tco::cli::resolve_shard(bad, 0, shard_env({})), tco::InputError);
  CHECK_THROWS_AS(tco::cli::resolve_shard("1/3", 4, shard_env({})), tco::InputError);
}
