"""tcosim.run gives the CLI's report: for every shipped scenario, the same JSON (and the same
bytes) as `tcosim run --out -` for the same seed and paths, apart from the "run" metadata block."""
import json
import os

import pytest

from conftest import ROOT, TODAY, cli_report_text, text_without_run_metadata, without_run_metadata

SCENARIOS = sorted((ROOT / "scenarios").glob("*.json"))
# A rank correlation between k uncertain inputs needs more than k paths (9 and 6 inputs here); 1
# elsewhere keeps the suite to seconds of CPU (1 path: the replay still runs one, the fluid model none).
PATHS = {"base-load-and-burst-uncertain": 10, "openb-h100-hybrid-uncertain": 8}
# Minutes of CPU whatever --paths is (its venue replays); the regress test runs it in the CLI.
# TCOSIM_SLOW_TESTS=1 compares it too.
SLOW = {"burst-venues"}


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_run_equals_cli(tcosim, scenario):
    if scenario.stem in SLOW and not os.environ.get("TCOSIM_SLOW_TESTS"):
        pytest.skip(f"{scenario.stem}: minutes of CPU; TCOSIM_SLOW_TESTS=1 runs it")
    if "shared/data" in scenario.read_text() and not (ROOT.parent / "shared" / "data").is_dir():
        pytest.skip(f"{scenario.stem}: it reads ../shared/data, which is absent")
    paths = PATHS.get(scenario.stem, 1)
    cli_text = cli_report_text(scenario, paths)
    report = tcosim.run(str(scenario), paths=paths, threads=1, today=TODAY)
    assert without_run_metadata(report.json) == without_run_metadata(json.loads(cli_text))
    assert text_without_run_metadata(report.text) == text_without_run_metadata(cli_text)
    assert report.json["run"] == {"command": "run", "threads": 1}


def test_dict_equals_file_apart_from_its_name(tcosim):
    # A dict is the file's document: the same figures; the report names it "<dict>" and digests
    # its compact dump instead of the file's bytes.
    path = ROOT / "scenarios" / "startup-monte-carlo.json"
    doc = json.loads(path.read_text())
    from_file = tcosim.run(path, paths=2, seed=5, threads=1, today=TODAY).json
    from_dict = tcosim.run(doc, paths=2, seed=5, threads=1, today=TODAY, base_dir=str(path.parent)).json
    assert from_dict["scenario"]["file"] == "<dict>"
    for r in (from_file, from_dict):
        del r["scenario"]["file"], r["scenario"]["digest_sha256"], r["run"]
    assert from_dict == from_file


def test_seed_moves_the_paths(tcosim):
    path = ROOT / "scenarios" / "startup-monte-carlo.json"
    a = tcosim.run(path, paths=3, seed=1, threads=1, today=TODAY)
    b = tcosim.run(path, paths=3, seed=2, threads=1, today=TODAY)
    assert a.json["monte_carlo"]["seed"] == 1 and b.json["monte_carlo"]["seed"] == 2
    assert (a.npv_by_path != b.npv_by_path).any()


def test_progress_bar_changes_nothing(tcosim, capsys):
    # The bar reads the engine's path counter; nothing computed reads it back.
    path = ROOT / "scenarios" / "startup-monte-carlo.json"
    quiet = tcosim.run(path, paths=3, threads=1, today=TODAY).text
    assert tcosim.run(path, paths=3, threads=1, today=TODAY, progress=True).text == quiet
