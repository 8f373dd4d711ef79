"""Bad input raises tcosim.InputError (a ValueError) with the CLI's message and the pointer that
`tcosim validate` prints for the same document."""
import copy
import json
import math
import subprocess

import pytest

from conftest import ROOT, TODAY, cli_exe

SCENARIO = ROOT / "scenarios" / "base-load-and-burst.json"


def document():
    return json.loads(SCENARIO.read_text())


def validate_line(tmp_path, doc):
    """What `tcosim validate` prints for the document written next to the shipped scenarios'
    catalog (so its relative catalog_dir resolves the same)."""
    path = ROOT / "scenarios" / f".py-test-{tmp_path.name}.json"
    path.write_text(json.dumps(doc, allow_nan=True))
    try:
        return subprocess.run([cli_exe(), "validate", str(path)], capture_output=True, text=True), path.name
    finally:
        path.unlink()


def missing_key(doc):
    del doc["horizon_months"]
    return "/horizon_months"


def wrong_type(doc):
    doc["discount_rate_per_year"] = "eight percent"
    return "/discount_rate_per_year"


def nan_value(doc):
    doc["discount_rate_per_year"] = math.nan
    return "/discount_rate_per_year"


def unknown_plan_kind(doc):
    doc["plans"][0]["kind"] = "lease-to-own"
    return "/plans/0/kind"


@pytest.mark.parametrize("mistake", [missing_key, wrong_type, nan_value, unknown_plan_kind],
                         ids=lambda f: f.__name__)
def test_dict_mistake_raises_input_error_with_validates_pointer(tcosim, tmp_path, mistake):
    doc = document()
    pointer = mistake(doc)
    with pytest.raises(tcosim.InputError) as raised:
        tcosim.run(copy.deepcopy(doc), base_dir=str(SCENARIO.parent), name="x.json", today=TODAY)
    e = raised.value
    assert isinstance(e, ValueError)
    assert e.pointer == pointer and e.file == "x.json"
    assert str(e).startswith(f"x.json: {pointer}: ")
    # validate names the same pointer, with the same reason, for the same document in a file
    # (JSON text has no NaN: a file holding one is refused as invalid JSON at its line and column)
    if mistake is not nan_value:
        result, _ = validate_line(tmp_path, doc)
        assert result.returncode == 2
        assert f": {pointer}: " in result.stdout
        assert e.reason in result.stdout
    # and tcosim.validate returns it as the error finding
    findings = tcosim.validate(doc, base_dir=str(SCENARIO.parent), name="x.json")
    assert [(f["severity"], f["pointer"]) for f in findings if f["severity"] == "error"] == [("error", pointer)]


def test_missing_file(tcosim, tmp_path):
    missing = tmp_path / "nowhere.json"
    with pytest.raises(tcosim.InputError) as raised:
        tcosim.run(missing)
    cli = subprocess.run([cli_exe(), "run", str(missing), "--out", str(tmp_path / "r.json")], capture_output=True,
                         text=True)
    assert cli.returncode == 2
    # The CLI prints "tcosim: error: " + the exception's message, word for word.
    assert cli.stderr == f"tcosim: error: {raised.value}\n"
    assert raised.value.file == str(missing)


def test_infinity_refused(tcosim):
    doc = document()
    doc["plans"][0]["onprem_nodes"] = math.inf
    with pytest.raises(tcosim.InputError) as raised:
        tcosim.run(doc, base_dir=str(SCENARIO.parent))
    assert raised.value.pointer == "/plans/0/onprem_nodes"


def test_not_a_scenario(tcosim):
    with pytest.raises(TypeError):
        tcosim.run(42)
