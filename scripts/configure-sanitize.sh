#!/usr/bin/env bash
# Configures the AddressSanitizer + UndefinedBehaviorSanitizer build (clang, no CUDA, no MPI, no
# benches, no Python module, with the libFuzzer harnesses) in $1, the one scripts/test.sh --sanitize and
# scripts/fuzz.sh share: the same flags, so neither rebuilds what the other built. Extra cmake
# arguments follow the folder (the compiler launcher).
# -O1 -gline-tables-only instead of RelWithDebInfo's -O2 -g: AddressSanitizer's recommended level,
# with file:line in every report's stack; the build takes about a quarter less CPU (docs/testing.md).
set -euo pipefail
build=$1
shift
source scripts/cmake-generator.sh "$build"
cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DTCO_FUZZ=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  -DTCO_SANITIZE=address,undefined -DTCO_CUDA=OFF -DTCO_MPI=OFF -DTCO_BENCH=OFF -DTCO_PYTHON=OFF "$@"
