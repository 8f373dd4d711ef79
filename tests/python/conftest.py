"""Shared set-up of the Python module's tests (run by ctest: python/CMakeLists.txt)."""
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TODAY = "2026-11-29"  # fixed, so the reports do not depend on the day the suite runs


def cli_exe():
    return os.environ.get("TCOSIM_EXE", str(ROOT / "build" / "tcosim"))


def cli_report_text(scenario, paths, seed=None, threads=1):
    """`tcosim run`'s JSON report text for the scenario file."""
    args = [cli_exe(), "run", str(scenario), "--out", "-", "--quiet", "--paths", str(paths), "--today", TODAY,
            "--threads", str(threads)]
    if seed is not None:
        args += ["--seed", str(seed)]
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def without_run_metadata(report):
    """A report dict less its "run" block (threads, command: the metadata that may differ between runs)."""
    return {k: v for k, v in report.items() if k != "run"}


def text_without_run_metadata(text):
    """The report text less the lines of its "run" block (2-space indented JSON, one key a line)."""
    lines, out, skipping = text.splitlines(keepends=True), [], False
    for line in lines:
        if line.startswith('  "run": {'):
            skipping = True
            continue
        if skipping:
            if line.startswith("  }"):
                skipping = False
            continue
        out.append(line)
    return "".join(out)


@pytest.fixture(scope="session")
def tcosim():
    return pytest.importorskip("tcosim")
