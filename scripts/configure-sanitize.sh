#!/usr/bin/env bash
# Configures the AddressSanitizer + UndefinedBehaviorSanitizer build (clang, no CUDA, no MPI, no
# benches, no Python module, with the libFuzzer harnesses) in $1, the one scripts/test.sh --sanitize and
# scripts/fuzz.sh share: the same flags, so neither rebuilds what the other built. Extra cmake
# arguments follow the folder (the compiler launcher).
# -O1 -gline-tables-only instead of RelWithDebInfo's -O2 -g: AddressSanitizer's recommended level,
# with file:line in every report's stack; the build takes about a quarter less CPU (docs/testing.md).
# lld where installed (scripts/install-deps.sh): it links the sanitizer build's executables in about
# a quarter of GNU ld's time (tcosim: 0.37 against 1.5 CPU-s, session 32), a dozen of them a build.
set -euo pipefail
build=$1
shift
source scripts/cmake-generator.sh "$build"
linker=()
command -v ld.lld >/dev/null && linker=(-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld)
cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DTCO_FUZZ=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  -DTCO_SANITIZE=address,undefined -DTCO_CUDA=OFF -DTCO_MPI=OFF -DTCO_BENCH=OFF -DTCO_PYTHON=OFF "${linker[@]}" "$@"
