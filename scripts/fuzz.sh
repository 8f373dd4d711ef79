#!/usr/bin/env bash
# Builds the libFuzzer harnesses of fuzz/ (clang, -fsanitize=fuzzer,address,undefined) in
# build-asan/ (the build of scripts/test.sh --sanitize: nothing to rebuild after it) and runs each for SECONDS (default 60), seeded with a corpus gathered from the
# shipped files; prints executions, coverage and crashes per harness (docs/testing.md).
# Exit 1 when any harness found something: the reproducers are in build-asan/fuzz-runs/<run>/.
#   scripts/fuzz.sh [SECONDS] [HARNESS...]     e.g. scripts/fuzz.sh 30 scenario trace-openb
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
# CI replays: a fixed seed (TCO_FUZZ_SEED, default 1; 0 lets libFuzzer pick one) and, when
# TCO_FUZZ_RUNS is set, at most that many executions per run, so a clean clone executes the same
# inputs as the run that was checked before landing (a subset when SECONDS ends it first). The
# exploratory runs (docs/testing.md, "Fuzz runs") use random seeds and 30 minutes.
fuzz_seed=${TCO_FUZZ_SEED:-1}
fuzz_runs=${TCO_FUZZ_RUNS:-}
build=${TCO_SANITIZE_BUILD_DIR:-build-asan}
jobs=${JOBS:-$(nproc)}
shared=../shared/data

launcher=()
# ccache keys on paths relative to the checkout, so a fresh clone anywhere (CI) reuses the cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
# The same configuration as scripts/test.sh --sanitize; only the harnesses are built here.
bash scripts/configure-sanitize.sh "$build" "${launcher[@]}" >/dev/null
cmake --build "$build" -j"$jobs" --target fuzz_scenario fuzz_catalog fuzz_grid fuzz_trace fuzz_series fuzz_skypilot fuzz_price_list fuzz_report fuzz_serving

runs=$build/fuzz-runs
# Each run: name, harness binary, TCO_FUZZ_FORMAT, seed files (globs; missing ones are skipped).
# Large CSV inputs are cut to their first 40 lines (libFuzzer mutates small inputs best); JSON
# files are taken whole.
declare -A binary format seeds
add_run() { binary[$1]=$2; format[$1]=$3; seeds[$1]=$4; }
add_run scenario        fuzz_scenario  ""           "scenarios/*.json scenarios/sweeps/hybrid-uncertain.json tests/fixtures/scenarios/*.json tests/fixtures/des/mc_small.json tests/fixtures/sweep/rich.json"
add_run catalog         fuzz_catalog   ""           "pricing-data/*.json tests/fixtures/catalog/*.json"
add_run grid            fuzz_grid      ""           "scenarios/sweeps/*.grid.json tests/fixtures/sweep/grid.json"
add_run trace-canonical fuzz_trace     canonical    "fuzz/seeds/canonical/*"
add_run trace-openb     fuzz_trace     openb        "$shared/alibaba-gpu-v2023/openb_pod_list_default.csv"
add_run trace-dlrm      fuzz_trace     dlrm         "$shared/alibaba-gpu-v2025/disaggregated_DLRM_trace.csv"
add_run trace-philly    fuzz_trace     philly       "fuzz/seeds/philly/*"
add_run trace-pai       fuzz_trace     pai          "fuzz/seeds/pai/*"
add_run trace-helios    fuzz_trace     helios       "fuzz/seeds/helios/*"
add_run trace-slurm     fuzz_trace     slurm        "tests/fixtures/own-history/sacct.txt"
add_run trace-k8s-pods  fuzz_trace     k8s-pods     "tests/fixtures/own-history/pods.json"
add_run series-csv      fuzz_series    csv          "tests/fixtures/series/*.csv $shared/helios-venus/cluster_gpu_number.csv"
add_run series-helios_vc fuzz_series   helios_vc    "$shared/helios-artifact-derived/Earth_vchbv_cluster_sequence_vc.csv"
add_run series-philly_nodes fuzz_series philly_nodes "$shared/helios-artifact-derived/philly_node_sequence.csv"
add_run series-prometheus fuzz_series  prometheus   "tests/fixtures/own-history/prometheus.json"
add_run series-opencost fuzz_series    opencost     "tests/fixtures/own-history/opencost.json"
add_run series-focus    fuzz_series    focus        "tests/fixtures/own-history/focus.csv"
add_run skypilot        fuzz_skypilot  ""           "$shared/skypilot-catalog/*.csv"
add_run price-list-aws  fuzz_price_list aws-price-list "tests/fixtures/aws-price-list/*.json tests/fixtures/aws-price-list/*.csv"
add_run price-list-azure fuzz_price_list azure-retail "tests/fixtures/azure-retail/*.json"
add_run price-index     fuzz_price_list price-index "tests/fixtures/prices/price_index_two_series.csv $shared/published-prices/h100_rental_index.csv"
add_run term-structure  fuzz_price_list term-structure "tests/fixtures/prices/term_structure.csv"
add_run serving-inferencex fuzz_serving inferencex "tests/fixtures/serving/inferencex_rows.json"
add_run serving-mlperf   fuzz_serving mlperf     "tests/fixtures/serving/mlperf_rows.json"
add_run serving-vllm-bench fuzz_serving vllm-bench "tests/fixtures/serving/vllm_bench.json $shared/inference/vllm_bench_serve/gpt-oss-120b/concurrency_4_*.json $shared/inference/inferencex_long_context/glm-5/glm5_fp8_vllm_tp8_isl1024_osl128_conc16.json"
add_run serving-azure-llm fuzz_serving azure-llm "tests/fixtures/serving/azure_llm_trace.csv $shared/inference/traces/AzureLLMInferenceTrace_conv.csv"
add_run serving-tokens-csv fuzz_serving tokens-csv "tests/fixtures/series/tokens_hourly.csv"
add_run report          fuzz_report    ""           "tests/baselines/*.json tests/fixtures/des/mc_small.report.json"
order=(scenario catalog grid trace-canonical trace-openb trace-dlrm trace-philly trace-pai trace-helios
       trace-slurm trace-k8s-pods series-csv series-helios_vc series-philly_nodes series-prometheus series-opencost
       series-focus skypilot price-list-aws price-list-azure price-index term-structure serving-inferencex serving-mlperf
       serving-vllm-bench serving-azure-llm serving-tokens-csv report)
(($#)) && order=("$@")

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# One run: gathers its seeds, fuzzes, and writes its line of the table (and the first lines of
# its finding) to $dir/result.txt. Exit 1 when it found something.
fuzz_one() {
  local name=$1 dir=$runs/$1 status=0
  rm -rf "$dir/seeds" "$dir/log.txt" "$dir/result.txt"
  mkdir -p "$dir/seeds" "$dir/corpus"
  for pattern in ${seeds[$name]}; do
    for f in $pattern; do
      [ -f "$f" ] || continue
      local seed=$dir/seeds/$(echo "$f" | tr '/' '_')
      if [[ $f == *.json ]]; then cp "$f" "$seed"; else head -n 40 "$f" >"$seed"; fi
    done
  done
  TCO_FUZZ_FORMAT=${format[$name]} "$build/fuzz/${binary[$name]}" -max_total_time="$seconds" -timeout=30 \
    -seed="$fuzz_seed" ${fuzz_runs:+-runs="$fuzz_runs"} -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$dir/" "$dir/corpus" "$dir/seeds" \
    >"$dir/log.txt" 2>&1 || status=$?
  local executions last cov ft crashes
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log.txt" | tail -1)
  last=$(grep -E '^#[0-9]+' "$dir/log.txt" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  crashes=$(find "$dir" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  ((status != 0 && crashes == 0)) && crashes=1  # it stopped on a finding it did not save
  printf '%-20s %8s %12s %8s %8s %8s\n' "$name" "$seconds" "${executions:-?}" "${cov:-?}" "${ft:-?}" "$crashes" \
    >"$dir/result.txt"
  ((crashes == 0)) && return 0
  grep -m3 -E 'FINDING|ERROR: (Address|Undefined|LeakSanitizer|libFuzzer)|runtime error' "$dir/log.txt" |
    sed 's/^/    /' >>"$dir/result.txt"
  return 1
}

# libFuzzer is single-threaded: run as many at once as there are cores.
for name in "${order[@]}"; do
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
  fuzz_one "$name" &
done
wait
findings=0
for name in "${order[@]}"; do
  (($(head -1 "$runs/$name/result.txt" | awk '{print $6}') > 0)) && findings=1
done
{
  printf '%-20s %8s %12s %8s %8s %8s\n' run seconds executions cov ft crashes
  for name in "${order[@]}"; do cat "$runs/$name/result.txt"; done
} | tee "$build/fuzz-summary.txt"
exit "$findings"
