"""`tcosim.sweep` gives what `tcosim sweep` writes, with the grid as a file or as a dict."""
import json
import subprocess

import pytest

from conftest import ROOT, cli_exe

SCENARIO = ROOT / "tests" / "fixtures" / "sweep" / "rich.json"
GRID = ROOT / "tests" / "fixtures" / "sweep" / "grid.json"
OPTIONS = ["--paths", "3", "--threads", "1", "--backend", "cpu"]


def cli_sweep(folder):
    out = folder / "cli.json"  # sweep writes a file only, not "-"
    subprocess.run([cli_exe(), "sweep", str(SCENARIO), "--grid", str(GRID), "--out", str(out), "--quiet", *OPTIONS],
                   check=True, capture_output=True, text=True)
    return json.loads(out.read_text())


def test_sweep_equals_cli_and_its_grid(tcosim, tmp_path):
    cli = cli_sweep(tmp_path)
    mine = tcosim.sweep(SCENARIO, GRID, paths=3, threads=1, backend="cpu")
    assert mine == cli
    # The grid as a dict (written to a temporary file) is the same sweep.
    grid = json.loads(GRID.read_text())
    assert tcosim.sweep(SCENARIO, grid, paths=3, threads=1, backend="cpu", base_dir=tmp_path) == cli

    # grid.json: 3 node counts of plan 1 x 3 flat power prices, node count slowest: 9 points.
    assert mine["grid"]["points"] == 9
    assert [p["values"] for p in mine["points"]] == [[n, price] for n in (1, 2, 3) for price in (0.08, 0.1, 0.12)]
    assert mine["plans"] == ["cloud", "buy-2", "own-4"]
    assert mine["monte_carlo"] == {"paths": 3, "seed": 7}
    npv = [[q["npv_usd"]["mean"] for q in p["plans"]] for p in mine["points"]]
    # The cloud plan owns nothing: neither field moves it, its NPV is one figure at every point.
    assert len({row[0] for row in npv}) == 1
    for n in range(3):
        rows = npv[3 * n:3 * n + 3]
        # own-4 keeps its own 4 nodes: the sweep's node count (plan 1's) leaves it as it was.
        assert [r[2] for r in rows] == [r[2] for r in npv[0:3]]
        # At a fixed fleet the energy is the only cost the price moves, and linearly: the step
        # $0.08 -> $0.10 costs what $0.10 -> $0.12 does (all random inputs off).
        for plan in (1, 2):
            assert rows[1][plan] - rows[0][plan] == pytest.approx(rows[2][plan] - rows[1][plan], rel=1e-9)
            assert rows[1][plan] > rows[0][plan]
    # The best plan per point is the cheapest mean NPV.
    for p, row in zip(mine["points"], npv):
        assert p["best_plan"] == mine["plans"][row.index(min(row))]
