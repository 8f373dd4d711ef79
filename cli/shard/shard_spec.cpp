#include "cli/shard/shard_spec.hpp"

#include <cstdio>
#include <cstdlib>
#include <optional>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tco::cli {

namespace {

constexpr int kMaxIndexShards = 1'000'000;

[[noreturn]] void refuse_shard_spec(const std::string& why) { throw InputError("--shard", "", why); }

// The variable as an integer >= 0, nothing when unset or empty; InputError when not a number.
std::optional<long> shard_env_integer(const Environment& env, const char* name) {
  const char* v = env(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  if (*end != '\0' || n < 0) refuse_shard_spec(fmt::format("--shard auto: {}=\"{}\" is not an integer >= 0", name, v));
  return n;
}

ShardIndex checked_shard_index(long index0, long count, const std::string& source) {
  if (count < 1 || count > kMaxIndexShards || index0 < 0 || index0 >= count)
    refuse_shard_spec(fmt::format("--shard auto: {}: expected 0 <= index < count <= {}", source, kMaxIndexShards));
  return {static_cast<int>(index0 + 1), static_cast<int>(count), source};
}

ShardIndex shard_from_slurm(const Environment& env, long id) {
  const auto task_count = shard_env_integer(env, "SLURM_ARRAY_TASK_COUNT");
  const auto min = shard_env_integer(env, "SLURM_ARRAY_TASK_MIN"), max = shard_env_integer(env, "SLURM_ARRAY_TASK_MAX");
  if (min.has_value() != max.has_value())
    refuse_shard_spec("--shard auto: Slurm sets SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_MAX together; only one is set");
  const long first = min.value_or(0);
  std::optional<long> count = task_count;
  if (min) {
    const long span = *max - *min + 1;
    // --array=0-7:2 has 4 tasks over a span of 8: the indices are not 0..N-1.
    if (task_count && *task_count != span)
      refuse_shard_spec(fmt::format("--shard auto: SLURM_ARRAY_TASK_COUNT={} but SLURM_ARRAY_TASK_MIN..MAX={}..{} spans {}: give "
                         "the array a step of 1 (--array=0-{})",
                         *task_count, *min, *max, span, *task_count - 1));
    count = span;
  }
  if (!count)
    refuse_shard_spec(fmt::format("--shard auto: SLURM_ARRAY_TASK_ID={} is set, but neither SLURM_ARRAY_TASK_COUNT nor "
                       "SLURM_ARRAY_TASK_MIN/MAX",
                       id));
  return checked_shard_index(id - first, *count,
                 fmt::format("Slurm: SLURM_ARRAY_TASK_ID={}, {} task(s) from {}", id, *count, first));
}

std::optional<long> shard_count_option(int shard_count) { return shard_count > 0 ? std::optional<long>(shard_count) : std::nullopt; }

}  // namespace

Environment process_environment() {
  return [](const char* name) { return static_cast<const char*>(std::getenv(name)); };
}

ShardIndex resolve_shard(const std::string& text, int shard_count, const Environment& env) {
  if (text != "auto") {
    int k = 0, n = 0;
    char extra = 0;
    if (std::sscanf(text.c_str(), "%d/%d%c", &k, &n, &extra) != 2 || n < 1 || n > kMaxIndexShards || k < 1 || k > n)
      refuse_shard_spec(fmt::format("expected k/N with 1 <= k <= N (e.g. 2/8), or auto, found \"{}\"", text));
    if (shard_count > 0 && shard_count != n)
      refuse_shard_spec(fmt::format("--shard {} and --shard-count {} disagree", text, shard_count));
    return {k, n, "--shard " + text};
  }
  if (const auto id = shard_env_integer(env, "SLURM_ARRAY_TASK_ID")) {
    ShardIndex s = shard_from_slurm(env, *id);
    if (shard_count > 0 && shard_count != s.count)
      refuse_shard_spec(fmt::format("--shard auto: --shard-count {} disagrees with {}", shard_count, s.source));
    return s;
  }
  if (const auto index = shard_env_integer(env, "JOB_COMPLETION_INDEX")) {
    std::optional<long> count = shard_count_option(shard_count);
    const auto from_env = shard_env_integer(env, "TCO_SHARD_COUNT");
    if (count && from_env && *count != *from_env)
      refuse_shard_spec(fmt::format("--shard auto: --shard-count {} and TCO_SHARD_COUNT={} disagree", *count, *from_env));
    if (!count) count = from_env;
    if (!count)
      refuse_shard_spec(fmt::format("--shard auto: JOB_COMPLETION_INDEX={} (a Kubernetes Indexed Job) gives no count: give "
                         "--shard-count N or TCO_SHARD_COUNT=N (the Job's completions)",
                         *index));
    return checked_shard_index(*index, *count, fmt::format("Kubernetes: JOB_COMPLETION_INDEX={} of {}", *index, *count));
  }
  if (const auto index = shard_env_integer(env, "AWS_BATCH_JOB_ARRAY_INDEX")) {
    std::optional<long> count = shard_env_integer(env, "AWS_BATCH_JOB_ARRAY_SIZE");
    if (count && shard_count > 0 && *count != shard_count)
      refuse_shard_spec(fmt::format("--shard auto: --shard-count {} and AWS_BATCH_JOB_ARRAY_SIZE={} disagree", shard_count, *count));
    if (!count) count = shard_count_option(shard_count);
    if (!count)
      refuse_shard_spec(fmt::format("--shard auto: AWS_BATCH_JOB_ARRAY_INDEX={} is set, but neither AWS_BATCH_JOB_ARRAY_SIZE nor "
                         "--shard-count",
                         *index));
    return checked_shard_index(*index, *count, fmt::format("AWS Batch: AWS_BATCH_JOB_ARRAY_INDEX={} of {}", *index, *count));
  }
  refuse_shard_spec("--shard auto: no scheduler's index in the environment: looked for SLURM_ARRAY_TASK_ID (with "
         "SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MIN/MAX), JOB_COMPLETION_INDEX (with --shard-count or "
         "TCO_SHARD_COUNT) and AWS_BATCH_JOB_ARRAY_INDEX (with AWS_BATCH_JOB_ARRAY_SIZE or --shard-count)");
}

}  // namespace tco::cli
