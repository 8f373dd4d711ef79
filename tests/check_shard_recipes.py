#!/usr/bin/env python3
"""The Kubernetes and AWS Batch recipes of docs/cluster.md, run here as their schedulers would.

  check_shard_recipes.py TCOSIM SOURCE_DIR WORK_DIR

Reads docs/examples/tcosim-indexed-job.yaml (an Indexed Job of shards, then a merge Job) and
docs/examples/tcosim-aws-batch-{shard,merge}.json (job definitions), and runs each container's
command with the variables the scheduler sets: JOB_COMPLETION_INDEX = 0..completions-1 and the
container's env (Kubernetes); AWS_BATCH_JOB_ARRAY_INDEX = 0..size-1 with the definition's
parameters substituted for Ref::name (AWS Batch; size = the shard_count parameter, as cluster.md
submits it). /data is a folder under WORK_DIR holding the scenario and a link to the catalog; the
shards run in a shuffled order. The merged report must equal the unsplit run's, its "run" block
aside.
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys

import yaml


def fail(message):
    sys.exit("FAIL: " + message)


def body(path):
    return re.sub(r'^  "run": \{\n(?:    .*\n)*?  \},?\n', "", open(path).read(), count=1, flags=re.M)


def run(command, data, env_extra, bin_dir):
    """A container's command, /data being `data`, tcosim the build's."""
    command = [part.replace("/data", data) for part in command]
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"], OMP_NUM_THREADS="1")
    for name in ("SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", "TCO_SHARD_COUNT",
                 "AWS_BATCH_JOB_ARRAY_SIZE"):
        env.pop(name, None)
    env.update(env_extra)
    r = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    if r.returncode != 0:
        fail(f"{' '.join(command)} with {env_extra}: exit {r.returncode}\n{r.stdout}{r.stderr}")


def fresh_data(work, source):
    """/data: the scenario and the catalog, at one path for every run (the report records the
    scenario's path), without the shards and report of the scheduler before."""
    data = os.path.join(work, "data")
    shutil.rmtree(data, ignore_errors=True)
    os.makedirs(data)
    shutil.copy(os.path.join(source, "scenarios", "base-load-and-burst.json"), os.path.join(data, "scenario.json"))
    os.symlink(os.path.join(source, "pricing-data"), os.path.join(data, "pricing-data"))
    return data


def main():
    tcosim, source, work = (os.path.abspath(a) for a in sys.argv[1:4])
    bin_dir = os.path.join(work, "bin")
    os.makedirs(bin_dir, exist_ok=True)
    link = os.path.join(bin_dir, "tcosim")
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(tcosim, link)
    examples = os.path.join(source, "docs", "examples")
    shuffle = random.Random(50)

    # The unsplit run, with the shards' options (the Job's command without --shard and its values).
    data = fresh_data(work, source)
    whole = os.path.join(work, "whole.json")
    run(["tcosim", "run", "/data/scenario.json", "--catalog", "/data/pricing-data", "--paths", "8", "--today",
         "2026-06-01", "--threads", "8", "--quiet", "--out", whole], data, {}, bin_dir)
    expected = body(whole)

    # Kubernetes: the Indexed Job's pods, then the merge Job.
    shards_job, merge_job = list(yaml.safe_load_all(open(os.path.join(examples, "tcosim-indexed-job.yaml"))))
    if shards_job["spec"]["completionMode"] != "Indexed":
        fail("the Kubernetes recipe's first Job is not Indexed")
    container = shards_job["spec"]["template"]["spec"]["containers"][0]
    env = {e["name"]: e["value"] for e in container.get("env", [])}
    completions = shards_job["spec"]["completions"]
    if env.get("TCO_SHARD_COUNT") != str(completions):
        fail(f"TCO_SHARD_COUNT {env.get('TCO_SHARD_COUNT')} is not the Job's completions {completions}")
    data = fresh_data(work, source)
    indices = list(range(completions))
    shuffle.shuffle(indices)
    for i in indices:
        run(container["command"], data, dict(env, JOB_COMPLETION_INDEX=str(i)), bin_dir)
    run(merge_job["spec"]["template"]["spec"]["containers"][0]["command"], data, {}, bin_dir)
    if body(os.path.join(data, "out", "report.json")) != expected:
        fail("Kubernetes: the merged report differs from the unsplit run's")
    print(f"ok: Kubernetes Indexed Job, {completions} pods (JOB_COMPLETION_INDEX, TCO_SHARD_COUNT) and the merge "
          "Job: the unsplit report")

    # AWS Batch: the array job's children, then the merge job (dependsOn the array).
    shard_def = json.load(open(os.path.join(examples, "tcosim-aws-batch-shard.json")))
    merge_def = json.load(open(os.path.join(examples, "tcosim-aws-batch-merge.json")))
    parameters = shard_def.get("parameters", {})
    size = int(parameters["shard_count"])
    command = [parameters.get(p[5:], p) if p.startswith("Ref::") else p
               for p in shard_def["containerProperties"]["command"]]
    env = {e["name"]: e["value"] for e in shard_def["containerProperties"].get("environment", [])}
    data = fresh_data(work, source)
    indices = list(range(size))
    shuffle.shuffle(indices)
    for i in indices:
        run(command, data, dict(env, AWS_BATCH_JOB_ARRAY_INDEX=str(i)), bin_dir)
    run(merge_def["containerProperties"]["command"], data, {}, bin_dir)
    if body(os.path.join(data, "out", "report.json")) != expected:
        fail("AWS Batch: the merged report differs from the unsplit run's")
    print(f"ok: AWS Batch array job of {size} (AWS_BATCH_JOB_ARRAY_INDEX, --shard-count Ref::shard_count) and the "
          "merge job: the unsplit report")


if __name__ == "__main__":
    main()
