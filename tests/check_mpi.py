#!/usr/bin/env python3
"""`mpirun -n K tcosim run` against one process (docs/cluster.md; ctest label mpi).

  same-bytes TCOSIM MPIEXEC SCENARIO DIR --paths 7,3 --ranks 1,2,3,4
      the report of every K is the one-process report byte for byte, its "run" block aside
      (which says "ranks": K when K > 1, and nothing of ranks for one process)
  bad-input TCOSIM MPIEXEC SCENARIO DIR --ranks 1,2,3,4
      a scenario with a bad field: exit 2 on every K, rank 0's message once, as one process
      prints it, no output file, no hang; a command that does not split refuses K > 1
  rank-lost TCOSIM MPIEXEC SCENARIO DIR --paths 150
      TCO_TEST_ABORT_RANK_AFTER_BLOCK=1 ends rank 1 after its first block: non-zero exit, no file
  no-mpi TCOSIM SCENARIO DIR
      a build without MPI, started as one of 3 processes (the launcher's environment): exit 2
Every child runs with OMP_NUM_THREADS=1 and --threads 1 and a timeout: a hang is a failure.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

TIMEOUT_S = 120


def run(cmd, env_extra=None):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env.update(env_extra or {})
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S, env=env)
    except subprocess.TimeoutExpired:
        sys.exit(f"FAIL: no answer within {TIMEOUT_S} s (a hang): {' '.join(cmd)}")


def mpirun(mpiexec, ranks):
    return [mpiexec, "--oversubscribe", "--allow-run-as-root", "-x", "OMP_NUM_THREADS", "-n", str(ranks)]


def split_run_block(text):
    """The report without its top-level "run" block, and that block parsed."""
    match = re.search(r'^  "run": \{\n(?:    .*\n)*?  \},?\n', text, re.MULTILINE)
    if not match:
        sys.exit('FAIL: the report has no top-level "run" block')
    block = json.loads(match.group(0).strip().rstrip(",").split(":", 1)[1])
    return text[: match.start()] + text[match.end():], block


def check(condition, message):
    if not condition:
        sys.exit("FAIL: " + message)


def same_bytes(a):
    for paths in a.paths.split(","):
        reference_path = os.path.join(a.dir, f"one-process-{paths}.json")
        r = run([a.tcosim, "run", a.scenario, "--paths", paths, "--threads", "1", "-q", "--out", reference_path])
        check(r.returncode == 0, f"one process, {paths} paths: exit {r.returncode}\n{r.stderr}")
        reference, _ = split_run_block(open(reference_path).read())
        for k in a.ranks.split(","):
            out = os.path.join(a.dir, f"ranks-{k}-paths-{paths}.json")
            r = run(mpirun(a.mpiexec, k) + [a.tcosim, "run", a.scenario, "--paths", paths, "--threads", "1", "-q",
                                            "--out", out])
            check(r.returncode == 0, f"K={k}, {paths} paths: exit {r.returncode}\n{r.stderr}")
            text, block = split_run_block(open(out).read())
            check(text == reference, f"K={k}, {paths} paths: the report differs from one process's ({out})")
            check(block.get("ranks") == (int(k) if int(k) > 1 else None),
                  f"K={k}: the run block says ranks {block.get('ranks')}")
            print(f"ok: K={k}, {paths} paths: {len(text)} bytes as one process")


def bad_input(a):
    scenario = json.load(open(a.scenario))
    scenario["horizon_months"] = -3
    scenario["catalog_dir"] = os.path.join(os.path.dirname(os.path.abspath(a.scenario)), "..", "pricing-data")
    bad = os.path.join(a.dir, "bad.json")
    json.dump(scenario, open(bad, "w"))
    out = os.path.join(a.dir, "bad-report.json")
    r = run([a.tcosim, "run", bad, "--paths", "7", "-q", "--out", out])
    check(r.returncode == 2, f"one process: exit {r.returncode}, expected 2")
    message = r.stderr.strip()
    check("/horizon_months" in message, f"one process: the message names no pointer: {message}")
    for k in a.ranks.split(","):
        r = run(mpirun(a.mpiexec, k) + [a.tcosim, "run", bad, "--paths", "7", "-q", "--out", out])
        check(r.returncode == 2, f"K={k}: exit {r.returncode}, expected 2\n{r.stderr}")
        check(r.stderr.count(message) == 1, f"K={k}: rank 0's message not printed once:\n{r.stderr}")
        check(not os.path.exists(out), f"K={k}: {out} was written")
        print(f"ok: K={k}: exit 2, {message}")
    r = run(mpirun(a.mpiexec, 2) + [a.tcosim, "optimize", a.scenario, "--out", out])
    check(r.returncode == 2 and "optimize does not split its work over MPI ranks" in r.stderr,
          f"optimize under K=2: exit {r.returncode}\n{r.stderr}")
    check(not os.path.exists(out), f"optimize under K=2: {out} was written")
    print("ok: optimize refuses K=2 with exit 2")


def rank_lost(a):
    out = os.path.join(a.dir, "lost.json")
    r = run(mpirun(a.mpiexec, 2) + [a.tcosim, "run", a.scenario, "--paths", a.paths, "--threads", "1", "-q",
                                    "--out", out], {"TCO_TEST_ABORT_RANK_AFTER_BLOCK": "1"})
    check(r.returncode != 0, "rank 1 ended after its first block, yet the job exited 0")
    left = os.listdir(a.dir)
    check(left == [], f"the job left files behind: {left}")
    print(f"ok: rank 1 lost after its first block: exit {r.returncode}, no file")


def no_mpi(a):
    out = os.path.join(a.dir, "no-mpi.json")
    r = run([a.tcosim, "run", a.scenario, "--paths", "3", "-q", "--out", out], {"OMPI_COMM_WORLD_SIZE": "3"})
    check(r.returncode == 2 and "built without MPI" in r.stderr, f"exit {r.returncode}\n{r.stderr}")
    check(not os.path.exists(out), f"{out} was written")
    print("ok: " + r.stderr.strip())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["same-bytes", "bad-input", "rank-lost", "no-mpi"])
    p.add_argument("tcosim")
    p.add_argument("rest", nargs="+", help="[MPIEXEC] SCENARIO DIR")
    p.add_argument("--paths", default="7")
    p.add_argument("--ranks", default="1,2,3,4")
    a = p.parse_args()
    if a.mode == "no-mpi":
        a.scenario, a.dir = a.rest
    else:
        a.mpiexec, a.scenario, a.dir = a.rest
    os.makedirs(a.dir, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=a.dir) as work:
        a.dir = work
        {"same-bytes": same_bytes, "bad-input": bad_input, "rank-lost": rank_lost, "no-mpi": no_mpi}[a.mode](a)


if __name__ == "__main__":
    main()
