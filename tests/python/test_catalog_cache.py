"""The process's catalog cache (models/catalog/catalog_source.hpp): a run that reuses the loaded
and checked catalog gives the bytes of a run that loads it afresh, and a catalog file edited
between runs is loaded again, never served from the cache."""
import json
import shutil

import pytest

from conftest import ROOT, TODAY

# Three kinds of run: the replay (jobs), the hourly model with an uncertain section (its tornado
# loads the scenario twice per input), and a token-priced API plan.
SCENARIOS = {"training-cluster-spares": 2, "base-load-and-burst-uncertain": 10, "startup-monte-carlo": 2}


@pytest.mark.parametrize("stem", sorted(SCENARIOS))
def test_reused_catalog_gives_the_same_bytes(tcosim, stem):
    core = tcosim._tcosim
    path = ROOT / "scenarios" / f"{stem}.json"
    paths = SCENARIOS[stem]
    core.clear_catalog_cache()
    cold = tcosim.run(path, paths=paths, threads=1, today=TODAY)
    hits_before, misses_before = core.catalog_cache_stats()
    assert misses_before >= 1
    warm = tcosim.run(path, paths=paths, threads=1, today=TODAY)
    hits, misses = core.catalog_cache_stats()
    assert misses == misses_before  # nothing parsed again
    assert hits > hits_before
    assert warm.text == cold.text
    assert json.dumps(warm.json, sort_keys=True) == json.dumps(cold.json, sort_keys=True)
    assert (warm.npv_by_path == cold.npv_by_path).all()


def _spares_on(catalog_dir):
    doc = json.loads((ROOT / "scenarios" / "training-cluster-spares.json").read_text())
    doc["catalog_dir"] = str(catalog_dir)
    return doc


def _server_file_with(catalog_dir, server_id, field, value):
    """servers.json with one field of one record replaced; returns that record's index."""
    path = catalog_dir / "servers.json"
    data = json.loads(path.read_text())
    index = next(i for i, r in enumerate(data["records"]) if r["id"] == server_id)
    data["records"][index][field] = value
    path.write_text(json.dumps(data, indent=2))
    return index


def test_edited_catalog_file_is_not_served_stale(tcosim, tmp_path):
    catalog = tmp_path / "pricing-data"
    shutil.copytree(ROOT / "pricing-data", catalog)
    doc = _spares_on(catalog)
    before = tcosim.run(doc, paths=2, threads=1, today=TODAY).json
    price = next(r for r in json.loads((catalog / "servers.json").read_text())["records"] if r["id"] == "hgx-h100-8")
    _server_file_with(catalog, "hgx-h100-8", "price_usd", price["price_usd"] + 1000)
    after = tcosim.run(doc, paths=2, threads=1, today=TODAY).json
    assert after["pricing"]["catalog_digest_sha256"] != before["pricing"]["catalog_digest_sha256"]
    # 32 owned nodes at $285,000 (hgx-h100-8 since 2026-11-30) + $45,000 of network, storage and
    # install each: capex 32 x 330,000 = $10,560,000; each $1,000 dearer: 32 x 331,000 = $10,592,000.
    assert before["plans"][0]["breakdown_nominal_usd"]["capex"] == pytest.approx(32 * 330_000, abs=1e-6)
    assert after["plans"][0]["breakdown_nominal_usd"]["capex"] == pytest.approx(32 * 331_000, abs=1e-6)
    # And the edited catalog's report is the one a fresh load gives.
    tcosim._tcosim.clear_catalog_cache()
    assert tcosim.run(doc, paths=2, threads=1, today=TODAY).json == after


def test_bad_catalog_raises_input_error_with_the_pointer(tcosim, tmp_path):
    catalog = tmp_path / "pricing-data"
    shutil.copytree(ROOT / "pricing-data", catalog)
    doc = _spares_on(catalog)
    good = tcosim.run(doc, paths=1, threads=1, today=TODAY).text  # the catalog loaded and checked, cached
    # A record the scenario does not use, broken: the whole catalog is checked, as `validate` does.
    unused = next(r["id"] for r in json.loads((catalog / "servers.json").read_text())["records"]
                  if r["id"] != "hgx-h100-8")
    index = _server_file_with(catalog, unused, "colour", "blue")
    for _ in range(2):  # the cached check says it again
        with pytest.raises(tcosim.InputError) as caught:
            tcosim.run(doc, paths=1, threads=1, today=TODAY)
        assert caught.value.file == str(catalog / "servers.json")
        assert caught.value.pointer == f"/records/{index}/colour"
    # The CLI's validate names the same place.
    cli = tcosim._tcosim.cli(["validate", str(catalog)])
    assert cli[0] == 2 and f"/records/{index}/colour" in cli[2] + cli[1].decode()
    # Fixed: the run is the one before (not a stale error).
    shutil.copy(ROOT / "pricing-data" / "servers.json", catalog / "servers.json")
    assert tcosim.run(doc, paths=1, threads=1, today=TODAY).text == good
