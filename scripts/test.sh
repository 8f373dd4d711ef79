#!/usr/bin/env bash
# Installs the dependencies, builds tcosim (with the CUDA backend when nvcc is present) and
# runs the whole test suite with ctest.
#   scripts/test.sh              the Release build, in build/
#   scripts/test.sh --sanitize   AddressSanitizer + UndefinedBehaviorSanitizer (clang,
#                                -O1 with line tables, no CUDA, no MPI, no benches), in build-asan/, which
#                                also holds the fuzz harnesses (scripts/fuzz.sh); any report fails a
#                                test
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=${JOBS:-$(nproc)}
launcher=()
# ccache keys on paths relative to the checkout, so a fresh clone anywhere (CI) reuses the cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
if [ "${1:-}" = --sanitize ]; then
  build=${TCO_SANITIZE_BUILD_DIR:-build-asan}
  bash scripts/configure-sanitize.sh "$build" "${launcher[@]}"
  cmake --build "$build" -j"$jobs"
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
  export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  # Chromium and LibreOffice render what the Release pass already checks (docs/testing.md). The
  # mpi tests run in the Release pass (Open MPI's own allocations would be LeakSanitizer reports);
  # this build is the one without MPI, so it checks that one too (mpi_absent_refuses_k_processes).
  # The real Slurm (label slurm) runs the Release binary: its daemons and its srun under MPI are
  # what it tests, and it runs alone (RUN_SERIAL) for about 20 s.
  ctest --test-dir "$build" --output-on-failure -j"$jobs" -LE "external_renderer|mpi|slurm"
  exit
fi
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
source scripts/cmake-generator.sh build
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}"
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
