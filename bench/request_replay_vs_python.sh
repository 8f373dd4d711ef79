#!/usr/bin/env bash
# The request replay against its Python heapq peer in one run (docs/performance.md, "Request replay").
#   bench/request_replay_vs_python.sh [PYTHON_SECONDS]   from the repository root of a Release build
set -euo pipefail
cd "$(dirname "$0")/.."
build/bench/bench_request_replay
python3 bench/request_replay_heapq.py "${1:-600}"
