#!/usr/bin/env python3
"""`mpirun -n K tcosim run` and `sweep` against one process (docs/cluster.md; ctest label mpi).

  same-bytes TCOSIM MPIEXEC SCENARIO DIR --paths 7,3 --ranks 1,2,3,4 [--command C --args "..."]
      the report of every K is the one-process report byte for byte, its "run" block aside
      (which says "ranks": K when K > 1, and nothing of ranks for one process); `run` by default,
      or `optimize` or `sensitivity` with their arguments
  bad-input TCOSIM MPIEXEC SCENARIO DIR --ranks 1,2,3,4
      a scenario with a bad field: exit 2 on every K, rank 0's message once, as one process
      prints it, no output file, no hang; a command that does not split refuses K > 1
  rank-lost TCOSIM MPIEXEC SCENARIO DIR --paths 150
      TCO_TEST_ABORT_RANK_AFTER_BLOCK=1 ends rank 1 after its first block: non-zero exit, no file
  rank-alone TCOSIM MPIEXEC SCENARIO DIR --paths 7
      TCO_TEST_FAIL_RANK_ALONE=1: rank 1 fails as it starts its paths, outside every collective (a
      trace unreadable on one node): exit 2, its message with its rank, no file, no hang
  no-mpi TCOSIM SCENARIO DIR
      a build without MPI, started as one of 3 processes (the launcher's environment): exit 2
  checkpoint TCOSIM MPIEXEC SCENARIO DIR --paths 150
      `run --checkpoint-dir D` (batches of 100 paths): rank 1 ended after the first batch leaves no
      report and that batch in D; the rerun under K = 2 reads it, computes the rest and writes the
      one-process bytes; one process with D reads every batch and writes them too; a D that is
      a file: exit 2 on K = 1 and 2, no report
  regress TCOSIM MPIEXEC SCENARIO DIR --ranks 2,4
      `regress --update` on a folder of three copies of scenarios beside SCENARIO (--catalog: its
      pricing-data): under K the same baselines, Markdown table and standard output as one process
  sweep TCOSIM MPIEXEC SCENARIO DIR --grid GRID --paths 5 --ranks 1,2,3,4 --block-points 3
      `mpirun -n K tcosim sweep` writes the one-process sweep document and CSV byte for byte
      (blocks of 3 points: K not dividing a block, K above the last block's 2 points), and so
      does a shard; a grid with a bad pointer: exit 2 on every K, rank 0's message once, no file;
      an error on rank 1 in its share (TCO_TEST_FAIL_RANK_IN_GATHER=1): rank 0 prints it, exit 2
  sweep-resume TCOSIM MPIEXEC SCENARIO DIR --grid GRID --paths 5 --block-points 3
      rank 1 ended after the first block (TCO_TEST_ABORT_RANK_AFTER_BLOCK=1): non-zero exit, no
      output, that block alone in OUT.parts/; `--resume` under another K then computes the rest
      and writes the one-process bytes
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


def report_parts(command, text):
    """The output to compare and its run block: calibrate's fit has no run block (all of it must match)."""
    return (text, None) if command == "calibrate" else split_run_block(text)


def check(condition, message):
    if not condition:
        sys.exit("FAIL: " + message)


def rank_env(a):
    """--env KEY=VALUE: the environment of the mpirun runs (not of the one-process reference)."""
    return dict(item.split("=", 1) for item in a.env)


def same_bytes(a):
    command = [a.tcosim, a.command, a.scenario, *a.args.split()]
    for paths in a.paths.split(","):
        reference_path = os.path.join(a.dir, f"one-process-{paths}.json")
        r = run(command + ["--paths", paths, "--threads", "1", "-q", "--out", reference_path])
        check(r.returncode == 0, f"one process, {paths} paths: exit {r.returncode}\n{r.stderr}")
        reference, _ = report_parts(a.command, open(reference_path).read())
        for k in a.ranks.split(","):
            out = os.path.join(a.dir, f"ranks-{k}-paths-{paths}.json")
            r = run(mpirun(a.mpiexec, k) + command + ["--paths", paths, "--threads", "1", "-q", "--out", out],
                    rank_env(a))
            check(r.returncode == 0, f"K={k}, {paths} paths: exit {r.returncode}\n{r.stderr}")
            text, block = report_parts(a.command, open(out).read())
            check(text == reference, f"K={k}, {paths} paths: the report differs from one process's ({out})")
            check(block is None or block.get("ranks") == (int(k) if int(k) > 1 else None),
                  f"K={k}: the run block says ranks {block and block.get('ranks')}")
            if block and "gathered_bytes" in block:  # the replay's gather: its bytes and rank 0's seconds
                check(int(k) > 1 and block["gathered_bytes"] > 0 and block["root_wait_for_ranks_s"] >= 0 and
                      block["root_gather_and_statistics_s"] >= 0, f"K={k}: the run block's gather figures: {block}")
            print(f"ok: {a.command} {a.args}: K={k}, {paths} paths: {len(text)} bytes as one process")


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
    r = run(mpirun(a.mpiexec, 2) + [a.tcosim, "calibrate", bad, "--paths", "7", "-q", "--out", out])
    check(r.returncode == 2 and r.stderr.count(message) == 1,
          f"calibrate under K=2: exit {r.returncode}, rank 0's message not once\n{r.stderr}")
    check(not os.path.exists(out), f"calibrate under K=2: {out} was written")
    print("ok: calibrate under K=2: exit 2, rank 0's message once")


def rank_lost(a):
    out = os.path.join(a.dir, "lost.json")
    r = run(mpirun(a.mpiexec, 2) + [a.tcosim, "run", a.scenario, "--paths", a.paths, "--threads", "1", "-q",
                                    "--out", out], {"TCO_TEST_ABORT_RANK_AFTER_BLOCK": "1"})
    check(r.returncode != 0, "rank 1 ended after its first block, yet the job exited 0")
    left = os.listdir(a.dir)
    check(left == [], f"the job left files behind: {left}")
    print(f"ok: rank 1 lost after its first block: exit {r.returncode}, no file")


def rank_alone(a):
    out = os.path.join(a.dir, "alone.json")
    r = run(mpirun(a.mpiexec, 2) + [a.tcosim, "run", a.scenario, "--paths", a.paths, "--threads", "1", "-q",
                                    "--out", out], {"TCO_TEST_FAIL_RANK_ALONE": "1"})
    check(r.returncode == 2, f"rank 1 failed alone: exit {r.returncode}, expected 2\n{r.stderr}")
    message = "tcosim (rank 1 of 2): error: TCO_TEST_FAIL_RANK_ALONE: rank 1 failed on purpose"
    check(message in r.stderr, f"no '{message}' in:\n{r.stderr}")
    check(not os.path.exists(out), f"{out} was written")
    print(f"ok: rank 1 failed alone: exit 2, {message}")


def no_mpi(a):
    out = os.path.join(a.dir, "no-mpi.json")
    r = run([a.tcosim, "run", a.scenario, "--paths", "3", "-q", "--out", out], {"OMPI_COMM_WORLD_SIZE": "3"})
    check(r.returncode == 2 and "built without MPI" in r.stderr, f"exit {r.returncode}\n{r.stderr}")
    check(not os.path.exists(out), f"{out} was written")
    print("ok: " + r.stderr.strip())


def checkpoint(a):
    reference_path = os.path.join(a.dir, "one-process.json")
    r = run([a.tcosim, "run", a.scenario, "--paths", a.paths, "--threads", "1", "-q", "--out", reference_path])
    check(r.returncode == 0, f"one process: exit {r.returncode}\n{r.stderr}")
    reference, _ = split_run_block(open(reference_path).read())
    d = os.path.join(a.dir, "checkpoints")
    out = os.path.join(a.dir, "checkpointed.json")
    command = [a.tcosim, "run", a.scenario, "--paths", a.paths, "--threads", "1", "--checkpoint-dir", d, "--out", out]
    r = run(mpirun(a.mpiexec, 2) + command + ["-q"], {"TCO_TEST_ABORT_RANK_AFTER_BLOCK": "1"})
    check(r.returncode != 0, "rank 1 ended after the first batch, yet the job exited 0")
    check(not os.path.exists(out), f"the failed job wrote {out}")
    saved = os.listdir(d)
    check(len(saved) == 1 and saved[0].endswith("-paths-0-100.bin"), f"checkpoints after the failure: {saved}")
    print(f"ok: rank 1 lost after the first batch: exit {r.returncode}, no report, {saved} kept")
    r = run(mpirun(a.mpiexec, 2) + command)
    check(r.returncode == 0, f"rerun with {d}: exit {r.returncode}\n{r.stderr}")
    check(f"100 of {a.paths} paths read from the checkpoints" in r.stderr, f"the rerun read no batch:\n{r.stderr}")
    text, _ = split_run_block(open(out).read())
    check(text == reference, f"the rerun's report differs from one process's ({out})")
    print("ok: the rerun under K=2 read the first batch and wrote the one-process bytes")
    os.remove(out)
    r = run(command)
    check(r.returncode == 0 and f"{a.paths} of {a.paths} paths read" in r.stderr,
          f"one process with {d}: exit {r.returncode}\n{r.stderr}")
    text, _ = split_run_block(open(out).read())
    check(text == reference, "one process reading every batch: the report differs")
    print("ok: one process read every batch from the checkpoints: the same bytes")
    os.remove(out)
    not_a_folder = os.path.join(a.dir, "a-file")
    open(not_a_folder, "w").write("x")
    bad = [a.tcosim, "run", a.scenario, "--paths", a.paths, "--checkpoint-dir", not_a_folder, "-q", "--out", out]
    for k in ["1", "2"]:
        r = run(bad if k == "1" else mpirun(a.mpiexec, k) + bad)
        check(r.returncode == 2 and r.stderr.count("--checkpoint-dir: expected a folder") == 1,
              f"K={k}, --checkpoint-dir a file: exit {r.returncode}\n{r.stderr}")
        check(not os.path.exists(out), f"K={k}, --checkpoint-dir a file: {out} was written")
    print("ok: --checkpoint-dir naming a file: exit 2 on K = 1 and 2, no report")


def regress(a):
    here = os.path.dirname(os.path.abspath(a.scenario))
    folder = os.path.join(a.dir, "scenarios")
    os.makedirs(folder)
    for name in ["air-vs-liquid-40kw.json", "base-load-and-burst.json", "electricity-100-nodes.json"]:
        with open(os.path.join(here, name), "rb") as src, open(os.path.join(folder, name), "wb") as dst:
            dst.write(src.read())
    baselines = os.path.join(a.dir, "baselines")
    md = os.path.join(a.dir, "table.md")
    command = [a.tcosim, "regress", folder, "--baselines", baselines, "--update", "--threads", "1",
               "--catalog", os.path.join(here, "..", "pricing-data"), "--md", md]

    def outputs():
        files = {name: open(os.path.join(baselines, name), "rb").read() for name in sorted(os.listdir(baselines))}
        files["table.md"] = open(md, "rb").read()
        return files

    r = run(command)
    check(r.returncode == 0, f"one process: exit {r.returncode}\n{r.stderr}")
    reference, reference_stdout = outputs(), r.stdout
    check(len(reference) == 4, f"one process wrote {sorted(reference)}")
    for k in a.ranks.split(","):
        for name in os.listdir(baselines):
            os.remove(os.path.join(baselines, name))
        os.remove(md)
        r = run(mpirun(a.mpiexec, k) + command)
        check(r.returncode == 0, f"K={k}: exit {r.returncode}\n{r.stderr}")
        check(outputs() == reference, f"K={k}: the baselines or the table differ from one process's")
        check(r.stdout == reference_stdout, f"K={k}: the standard output differs:\n{r.stdout}")
        print(f"ok: regress under K={k}: 3 baselines, the table and the standard output as one process")


def sweep_command(a, out, *extra):
    return [a.tcosim, "sweep", a.scenario, "--grid", a.grid, "--paths", a.paths, "--threads", "1",
            "--block-points", a.block_points, "--out", out, "--csv", out + ".csv", *extra]


def sweep_reference(a, *extra):
    out = os.path.join(a.dir, "one-process" + "".join(extra).replace("/", "-") + ".json")
    r = run(sweep_command(a, out, "-q", *extra))
    check(r.returncode == 0, f"one process sweep {extra}: exit {r.returncode}\n{r.stderr}")
    return open(out, "rb").read(), open(out + ".csv", "rb").read()


def check_sweep_bytes(out, reference, what):
    check(open(out, "rb").read() == reference[0], f"{what}: the sweep differs from one process's ({out})")
    check(open(out + ".csv", "rb").read() == reference[1], f"{what}: the CSV differs from one process's")
    check(not os.path.exists(out + ".parts"), f"{what}: {out}.parts was left behind")


def sweep(a):
    reference = sweep_reference(a)
    for k in a.ranks.split(","):
        out = os.path.join(a.dir, f"sweep-ranks-{k}.json")
        r = run(mpirun(a.mpiexec, k) + sweep_command(a, out, "-q"), rank_env(a))
        check(r.returncode == 0, f"K={k}: exit {r.returncode}\n{r.stderr}")
        check_sweep_bytes(out, reference, f"K={k}")
        print(f"ok: K={k}: sweep and CSV as one process ({len(reference[0])} + {len(reference[1])} bytes)")
    shard = sweep_reference(a, "--shard", "2/3")
    out = os.path.join(a.dir, "shard-ranks-3.json")
    r = run(mpirun(a.mpiexec, 3) + sweep_command(a, out, "-q", "--shard", "2/3"))
    check(r.returncode == 0, f"shard 2/3, K=3: exit {r.returncode}\n{r.stderr}")
    check_sweep_bytes(out, shard, "shard 2/3, K=3")
    print("ok: shard 2/3 under K=3 as one process")

    grid = json.load(open(a.grid))
    grid["fields"][0]["pointer"] = "/plans/0/no_such_field"
    bad = os.path.join(a.dir, "bad.grid.json")
    json.dump(grid, open(bad, "w"))
    out = os.path.join(a.dir, "bad-sweep.json")
    bad_command = [a.tcosim, "sweep", a.scenario, "--grid", bad, "--paths", a.paths, "-q", "--out", out]
    r = run(bad_command)
    message = r.stderr.strip()
    check(r.returncode == 2 and "/plans/0/no_such_field" in message, f"one process, bad grid: exit {r.returncode}\n{message}")
    for k in a.ranks.split(","):
        r = run(mpirun(a.mpiexec, k) + bad_command)
        check(r.returncode == 2, f"K={k}, bad grid: exit {r.returncode}, expected 2\n{r.stderr}")
        check(r.stderr.count(message) == 1, f"K={k}, bad grid: rank 0's message not printed once:\n{r.stderr}")
        check(not os.path.exists(out) and not os.path.exists(out + ".parts"), f"K={k}, bad grid: files written")
    print(f"ok: a bad grid: exit 2 on every K, {message}")
    # An error met by rank 1 in its own share (test hook): rank 0 prints it once, every rank exits 2.
    out = os.path.join(a.dir, "failed-share.json")
    r = run(mpirun(a.mpiexec, 2) + sweep_command(a, out, "-q"), {"TCO_TEST_FAIL_RANK_IN_GATHER": "1"})
    message = "tcosim: error: TCO_TEST_FAIL_RANK_IN_GATHER: rank 1 failed on purpose"
    check(r.returncode == 2 and r.stderr.count(message) == 1, f"rank 1 failing: exit {r.returncode}\n{r.stderr}")
    check(not os.path.exists(out) and not os.path.exists(out + ".parts"), "rank 1 failing: files written")
    print("ok: an error on rank 1: " + message + ", exit 2, no file")


def sweep_resume(a):
    reference = sweep_reference(a)
    out = os.path.join(a.dir, "resumed.json")
    r = run(mpirun(a.mpiexec, 2) + sweep_command(a, out, "-q"), {"TCO_TEST_ABORT_RANK_AFTER_BLOCK": "1"})
    check(r.returncode != 0, "rank 1 ended after the first block, yet the job exited 0")
    check(not os.path.exists(out) and not os.path.exists(out + ".csv"), "the failed job wrote an output")
    blocks = sorted(os.listdir(out + ".parts"))
    check(blocks == [f"points-0-{a.block_points}.json"], f"blocks left by the failed job: {blocks}")
    print(f"ok: rank 1 lost after the first block: exit {r.returncode}, no output, {blocks} kept")
    r = run(mpirun(a.mpiexec, 3) + sweep_command(a, out, "--resume"))
    check(r.returncode == 0, f"--resume under K=3: exit {r.returncode}\n{r.stderr}")
    check(f", {a.block_points} resumed," in r.stdout, f"--resume did not keep the block written:\n{r.stdout}")
    check_sweep_bytes(out, reference, "--resume under K=3")
    print("ok: --resume under K=3: " + r.stdout.splitlines()[0])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["same-bytes", "bad-input", "rank-lost", "rank-alone", "no-mpi", "sweep",
                                      "sweep-resume", "checkpoint", "regress"])
    p.add_argument("tcosim")
    p.add_argument("rest", nargs="+", help="[MPIEXEC] SCENARIO DIR")
    p.add_argument("--paths", default="7")
    p.add_argument("--ranks", default="1,2,3,4")
    p.add_argument("--grid")
    p.add_argument("--command", default="run", help="same-bytes: the command (run, optimize, sensitivity)")
    p.add_argument("--args", default="", help="same-bytes: the command's other arguments, space-separated")
    p.add_argument("--block-points", default="3")
    p.add_argument("--env", action="append", default=[], help="KEY=VALUE for the mpirun runs (test hooks)")
    a = p.parse_args()
    if a.mode == "no-mpi":
        a.scenario, a.dir = a.rest
    else:
        a.mpiexec, a.scenario, a.dir = a.rest
    # A scenario that reads ../shared/data (a spot trace, a demand series) cannot run in a clone
    # without it (a user's): skipped with a message, as the doctest cases skip (exit 77).
    scenario_dir = os.path.dirname(os.path.abspath(a.scenario))
    shared = os.path.join(scenario_dir, "..", "..", "shared", "data")
    if "shared/data" in open(a.scenario).read() and not os.path.isdir(shared):
        print(f"skipped: {a.scenario} reads ../shared/data, which is absent (it ships beside the project's "
              "checkout only; a user's clone does not have it)")
        sys.exit(77)
    os.makedirs(a.dir, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=a.dir) as work:
        a.dir = work
        {"same-bytes": same_bytes, "bad-input": bad_input, "rank-lost": rank_lost, "rank-alone": rank_alone,
         "no-mpi": no_mpi, "sweep": sweep,
         "sweep-resume": sweep_resume, "checkpoint": checkpoint,
         "regress": regress}[a.mode](a)


if __name__ == "__main__":
    main()
