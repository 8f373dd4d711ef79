#!/usr/bin/env python3
"""What calling the engine from Python costs (docs/performance.md, "Python module").

1. startup-monte-carlo at its own paths: `tcosim run` as a process against tcosim.run in this
   process, the same threads; the median of REPEATS each. The Python figure counts the dict
   conversion of the report (Report.json) too.
2. A loop of 100 small scenarios (a dict each, named apart): tcosim.run in a loop against 100
   `tcosim run` subprocesses writing and parsing a JSON report each, as a script without the
   module does it; and tcosim.run with the process's catalog cache cleared before each run (what
   every run paid before the cache). Interleaved twice: run by run (each Python run right after
   a CLI process, its caches cold), then in blocks of 10 (closer to a loop of its own).

Usage, from the repository root of a Release build with the module (python/):
    PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead.py [REPEATS] [THREADS] [SCENARIO...]
SCENARIO: the stems of shipped scenarios for the loop (default training-cluster-spares); one
whose only relative path is its catalog_dir.
"""
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import tcosim

ROOT = pathlib.Path(__file__).resolve().parents[1]
CLI = os.environ.get("TCOSIM_EXE", str(ROOT / "build" / "tcosim"))
TODAY = "2026-11-29"
BLOCK = 10  # the loop's second schedule: scenarios per block


def timed(f, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times


def startup_monte_carlo(repeats, threads):
    scenario = ROOT / "scenarios" / "startup-monte-carlo.json"
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "r.json")

        def cli():
            subprocess.run([CLI, "run", str(scenario), "--out", out, "--quiet", "--threads", str(threads),
                            "--today", TODAY], check=True)
            with open(out) as f:
                json.load(f)

        def python():
            tcosim.run(scenario, threads=threads, today=TODAY).json

        python()  # warm the file cache
        # Interleaved, so a machine that gets busier half-way hurts both alike.
        cli_times, py_times = [], []
        for _ in range(repeats):
            cli_times.append(timed(cli, 1)[0])
            py_times.append(timed(python, 1)[0])
    c, p = statistics.median(cli_times), statistics.median(py_times)
    print(f"startup-monte-carlo, {threads} threads, median of {repeats}: CLI {c:.3f} s, Python {p:.3f} s, "
          f"Python / CLI = {p / c:.3f}")


def small_scenarios(count, threads, stem):
    doc = json.loads((ROOT / "scenarios" / f"{stem}.json").read_text())
    docs = []
    for i in range(count):
        d = json.loads(json.dumps(doc))
        d["name"] = f"small-{i}"
        docs.append(d)
    base = ROOT / "scenarios"
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(dir=base, prefix=".bench-") as folder:
        files = []
        for i, d in enumerate(docs):
            path = pathlib.Path(folder) / f"s{i}.json"
            d = dict(d)
            d["catalog_dir"] = "../../pricing-data"
            path.write_text(json.dumps(d))
            files.append(path)
        out = os.path.join(folder, "r.json")

        def cli(i):
            subprocess.run([CLI, "run", str(files[i]), "--out", out, "--quiet", "--threads", str(threads),
                            "--today", TODAY], check=True)
            with open(out) as f:
                json.load(f)

        def python(i):
            tcosim.run(docs[i], base_dir=base, threads=threads, today=TODAY).json

        def python_cold(i):
            # As before the catalog cache (models/catalog/catalog_source.hpp): parsed and checked every run.
            tcosim._tcosim.clear_catalog_cache()
            python(i)

        python(0)  # warm the file cache and the catalog cache
        for block in (1, BLOCK):
            # Interleaved in blocks of `block` scenarios, so a machine that gets busier half-way hurts
            # all three alike. Run by run (block 1), each Python run follows a CLI process that took
            # the caches; in blocks of 10, nine of ten run as in a loop of their own.
            totals = {cli: 0.0, python: 0.0, python_cold: 0.0}
            for first in range(0, count, block):
                for f in totals:
                    start = time.perf_counter()
                    for i in range(first, min(count, first + block)):
                        f(i)
                    totals[f] += time.perf_counter() - start
            cli_s, py_s, cold_s = totals[cli], totals[python], totals[python_cold]
            print(f"{count} small scenarios ({stem}), {threads} threads, interleaved "
                  f"{'run by run' if block == 1 else f'in blocks of {block}'}, load average "
                  f"{load_before:.1f} -> {os.getloadavg()[0]:.1f}: CLI subprocesses {cli_s:.2f} s, tcosim.run loop "
                  f"{py_s:.2f} s ({cli_s / py_s:.2f}x faster), tcosim.run with the catalog cache cleared before "
                  f"each run {cold_s:.2f} s ({cli_s / cold_s:.2f}x)")


if __name__ == "__main__":
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    stems = sys.argv[3:] or ["training-cluster-spares"]
    startup_monte_carlo(repeats, threads)
    for stem in stems:
        small_scenarios(100, threads, stem)
