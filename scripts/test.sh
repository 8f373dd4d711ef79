#!/usr/bin/env bash
# Installs the dependencies, builds tcosim (with the CUDA backend when nvcc is present) and
# runs the whole test suite with ctest.
#   scripts/test.sh              the Release build, in build/
#   scripts/test.sh --sanitize   AddressSanitizer + UndefinedBehaviorSanitizer (GCC, -O1, asserts
#                                on, no CUDA, no benches), in build-asan/; any report fails a test
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=${JOBS:-$(nproc)}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [ "${1:-}" = --sanitize ]; then
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DTCO_SANITIZE=address,undefined -DTCO_CUDA=OFF -DTCO_BENCH=OFF "${launcher[@]}"
  cmake --build build-asan -j"$jobs"
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  ctest --test-dir build-asan --output-on-failure -j"$jobs"
  exit
fi
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${launcher[@]}"
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
