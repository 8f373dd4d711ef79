"""The other commands from Python give what the CLI's command writes."""
import json
import subprocess

import pytest

from conftest import ROOT, TODAY, cli_exe, without_run_metadata

DEMAND = ROOT.parent / "shared" / "data" / "helios-artifact-derived" / "Earth_vc6YE_cluster_sequence_vc.csv"


def test_sensitivity_equals_cli(tcosim):
    scenario = ROOT / "scenarios" / "base-load-and-burst-uncertain.json"
    args = ["--paths", "12", "--threads", "1", "--today", TODAY]
    cli = json.loads(subprocess.run([cli_exe(), "sensitivity", str(scenario), "--out", "-", "-q", *args],
                                    check=True, capture_output=True, text=True).stdout)
    mine = tcosim.sensitivity(scenario, paths=12, threads=1, today=TODAY)
    assert without_run_metadata(mine) == without_run_metadata(cli)
    assert mine["sensitivity"]["tornado"]["inputs"][0]["swing_usd"] > 0


def test_diff_of_a_report_with_itself_has_no_move(tcosim):
    r = tcosim.run(ROOT / "scenarios" / "training-cluster-spares.json", threads=1, today=TODAY)
    d = tcosim.diff(r, r.json)
    cli = json.loads(subprocess.run([cli_exe(), "diff", str(ROOT / "tests/baselines/training-cluster-spares.json"),
                                     str(ROOT / "tests/baselines/training-cluster-spares.json"), "--format", "json"],
                                    check=True, capture_output=True, text=True).stdout)
    assert d.keys() == cli.keys()


def test_import_demand_writes_the_clis_file(tcosim, tmp_path):
    if not DEMAND.exists():
        pytest.skip(f"{DEMAND} not here")
    mine, theirs = tmp_path / "mine.csv", tmp_path / "cli.csv"
    said = tcosim.import_demand(DEMAND, format="helios_vc", out=mine)
    cli = subprocess.run([cli_exe(), "demand", "import", str(DEMAND), "--format", "helios_vc", "--out", str(theirs)],
                         check=True, capture_output=True, text=True)
    assert mine.read_bytes() == theirs.read_bytes()
    assert said == cli.stdout.replace(str(theirs), str(mine))


def test_validate_a_shipped_scenario_has_no_error(tcosim):
    findings = tcosim.validate(ROOT / "scenarios" / "base-load-and-burst.json")
    assert [f for f in findings if f["severity"] == "error"] == []


def test_report_renders(tcosim, tmp_path):
    r = tcosim.run(ROOT / "scenarios" / "base-load-and-burst.json", threads=1, today=TODAY)
    plans = r.plans
    assert list(plans["plan"]) == [p["name"] for p in r.json["plans"]]
    assert "npv_usd" in plans.columns and "total_usd" in r.cash_flows.columns
    # plans.csv's NPV is the report's, to the CSV's 17 significant digits (pandas' parse may
    # differ in the last bit)
    assert plans["npv_usd"].tolist() == pytest.approx([p["npv_usd"] for p in r.json["plans"]], rel=1e-15)
    assert r.to_html().startswith("<!DOCTYPE html>")
    assert r.json["scenario"]["name"] in r.to_markdown()
    r.to_xlsx(tmp_path / "r.xlsx")
    assert (tmp_path / "r.xlsx").read_bytes()[:2] == b"PK"
