"""Importing tcosim makes OpenMP's idle workers sleep (OMP_WAIT_POLICY=PASSIVE) without leaving
the variable in the environment, and keeps a policy the user chose. libgomp prints the policy it
read when OMP_DISPLAY_ENV=VERBOSE is set, so each case runs `import tcosim` in a fresh
interpreter and reads its spin count: 300,000 rounds with no policy set (libgomp's default, which
it prints as 'PASSIVE' all the same), 0 when passive, 30,000,000,000 when active
(docs/performance.md, "Python module": a spinning worker doubled the CPU time of a loop of small
runs at threads=2)."""
import os
import pathlib
import subprocess
import sys

import pytest


def import_in_fresh_interpreter(tcosim, policy):
    """(libgomp's GOMP_SPINCOUNT line, os.environ's OMP_WAIT_POLICY after the import)."""
    env = dict(os.environ, OMP_DISPLAY_ENV="VERBOSE")
    env.pop("OMP_WAIT_POLICY", None)
    if policy is not None:
        env["OMP_WAIT_POLICY"] = policy
    env["PYTHONPATH"] = str(pathlib.Path(tcosim.__file__).resolve().parents[1])
    code = "import os, tcosim; print('after import:', os.environ.get('OMP_WAIT_POLICY'))"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    libgomp = [line.strip() for line in (done.stdout + done.stderr).splitlines() if "GOMP_SPINCOUNT =" in line]
    after = [line for line in done.stdout.splitlines() if line.startswith("after import:")]
    if not libgomp:
        pytest.skip("the module was built without OpenMP (libgomp printed nothing)")
    return libgomp, after


def test_import_sets_passive_only_while_the_module_loads(tcosim):
    libgomp, after = import_in_fresh_interpreter(tcosim, None)
    assert libgomp == ["GOMP_SPINCOUNT = '0'"]  # idle workers sleep at once
    assert after == ["after import: None"]  # a subprocess (the CLI) sees the environment as it was


def test_a_policy_the_user_set_is_kept(tcosim):
    libgomp, after = import_in_fresh_interpreter(tcosim, "active")
    assert libgomp == ["GOMP_SPINCOUNT = '30000000000'"]
    assert after == ["after import: active"]
