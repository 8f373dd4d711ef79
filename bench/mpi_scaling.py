#!/usr/bin/env python3
"""Strong scaling of `mpirun -n K tcosim` on this machine (docs/cluster.md, "Measured scaling").

Times, one thread per rank (--threads 1, OMP_NUM_THREADS=1), each command `--repeat` times
(round-robin over the variants):
  - `run scenarios/startup-monte-carlo.json --paths 1000`;
  - `sweep scenarios/sweeps/hybrid-uncertain.json` over 8 points (the hybrid plan's node count
    0..7) x 512 paths;
as one process without mpirun, under `mpirun -n 1`, and under `mpirun -n K` for each K given.
Prints the median wall times, the efficiency T1 / (K TK) against both one-rank runs, what rank 0
spent gathering and reducing (the report's "run" block), and checks that every K wrote the
one-process bytes (the run block aside).

  bench/mpi_scaling.py [--tcosim build/tcosim] [--ranks 2] [--repeat 3] [--paths 1000]
                       [--sweep-paths 512] [--only run|sweep]
Run it from the repository root of a Release build built with MPI.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

GRID = {"fields": [{"pointer": "/plans/2/onprem_nodes", "values": [0, 1, 2, 3, 4, 5, 6, 7]}]}


def without_run_block(text):
    """The output without its top-level "run" block, and that block parsed (None when absent)."""
    match = re.search(r'^  "run": \{\n(?:    .*\n)*?  \},?\n', text, re.MULTILINE)
    if not match:
        return text, None
    return text[:match.start()] + text[match.end():], json.loads("{" + match.group(0).strip().rstrip(",") + "}")["run"]


def timed(command, env):
    t0 = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    seconds = time.monotonic() - t0
    if result.returncode != 0:
        sys.exit(f"FAIL ({result.returncode}): {' '.join(command)}\n{result.stderr}")
    return seconds


def measure(name, command, out, ranks, repeat, env):
    """{label: (median seconds, all seconds, run block)}, and a check of the bytes."""
    mpirun = [shutil.which("mpirun") or "mpirun", "--oversubscribe", "--allow-run-as-root", "-x", "OMP_NUM_THREADS"]
    variants = [("one process", [])] + [(f"mpirun -n {k}", mpirun + ["-n", str(k)]) for k in [1] + ranks]
    # Round-robin, one run of each variant per round: this VM's speed drifts by a third within
    # minutes, so variants timed one after the other would compare different machines.
    times = {label: [] for label, _ in variants}
    bodies = {}
    for _ in range(repeat):
        for label, prefix in variants:
            if os.path.exists(out):
                os.remove(out)
            times[label].append(timed(prefix + command, env))
            with open(out) as f:
                bodies[label] = without_run_block(f.read())
    results = {}
    reference = bodies["one process"][0]
    for label, _ in variants:
        body, block = bodies[label]
        if body != reference:
            sys.exit(f"FAIL: {name}, {label}: the output differs from one process's (run block aside)")
        results[label] = (statistics.median(times[label]), times[label], block)
        print(f"  {label:12s} median {results[label][0]:7.2f} s   ({', '.join(f'{t:.2f}' for t in times[label])})",
              flush=True)
    one_rank = results["mpirun -n 1"][0]
    plain = results["one process"][0]
    for k in ranks:
        tk, _, block = results[f"mpirun -n {k}"]
        print(f"  K = {k}: efficiency T1 / ({k} T{k}) = {one_rank / (k * tk):.2f} against mpirun -n 1, "
              f"{plain / (k * tk):.2f} against one process; same bytes as one process")
        if block:
            gathered = {key: value for key, value in block.items() if "gather" in key or "bytes" in key or "wait" in key}
            print(f"         rank 0's run block: {json.dumps(gathered)}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tcosim", default="build/tcosim")
    parser.add_argument("--ranks", type=int, nargs="+", default=[2])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--paths", default="1000")
    parser.add_argument("--sweep-paths", default="512")
    parser.add_argument("--only", choices=["run", "sweep"])
    a = parser.parse_args()
    env = dict(os.environ, OMP_NUM_THREADS="1")
    # docs/cluster.md "Ranks x threads": on one machine OMPI_MCA_pml=ob1 spares UCX's probe.
    print(f"OMPI_MCA_pml={os.environ.get('OMPI_MCA_pml', '(unset: Open MPI chooses)')}", flush=True)
    work = tempfile.mkdtemp(prefix="tcosim-mpi-scaling-")
    try:
        if a.only in (None, "run"):
            print(f"run scenarios/startup-monte-carlo.json --paths {a.paths}, 1 thread per rank", flush=True)
            out = os.path.join(work, "run.json")
            measure("run", [a.tcosim, "run", "scenarios/startup-monte-carlo.json", "--paths", a.paths,
                            "--threads", "1", "-q", "--out", out], out, a.ranks, a.repeat, env)
        if a.only in (None, "sweep"):
            grid = os.path.join(work, "grid.json")
            with open(grid, "w") as f:
                json.dump(GRID, f)
            print(f"sweep scenarios/sweeps/hybrid-uncertain.json, 8 points x {a.sweep_paths} paths, 1 thread per rank",
                  flush=True)
            out = os.path.join(work, "sweep.json")
            measure("sweep", [a.tcosim, "sweep", "scenarios/sweeps/hybrid-uncertain.json", "--grid", grid,
                              "--paths", a.sweep_paths, "--threads", "1", "--quiet", "--out", out],
                    out, a.ranks, a.repeat, env)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
