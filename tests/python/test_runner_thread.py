"""The main thread's calls run on one helper thread kept from call to call (tcosim._runner): a
thread started per call cost more than a small run (OpenMP started its team again each time).
After an error or an interrupt the same helper takes the next call."""
import threading

import pytest

from conftest import ROOT, TODAY


def helpers():
    return [t for t in threading.enumerate() if t.name == "tcosim-run"]


def test_the_main_threads_runs_share_one_helper(tcosim):
    scenario = ROOT / "scenarios" / "startup-monte-carlo.json"
    tcosim.run(scenario, paths=2, threads=2, today=TODAY)
    first = helpers()
    assert len(first) == 1
    count = threading.active_count()
    for _ in range(3):
        tcosim.run(scenario, paths=2, threads=2, today=TODAY)
    assert helpers() == first  # the same thread object, still alive
    assert threading.active_count() == count


def test_the_helper_keeps_no_result_alive(tcosim):
    # A report the caller drops is freed: the waiting helper holds nothing of the last call.
    import gc
    import weakref

    r = tcosim.run(ROOT / "scenarios" / "startup-monte-carlo.json", paths=2, threads=1, today=TODAY)
    core = weakref.ref(r._core)
    del r
    gc.collect()
    assert core() is None


def test_an_error_leaves_the_helper_ready(tcosim):
    with pytest.raises(tcosim.InputError):
        tcosim.run({"name": "x"}, today=TODAY)
    before = helpers()
    assert len(before) == 1
    r = tcosim.run(ROOT / "scenarios" / "startup-monte-carlo.json", paths=2, threads=1, today=TODAY)
    assert r.json["monte_carlo"]["paths"] == 2
    assert helpers() == before


def test_a_call_from_another_thread_runs_there(tcosim):
    seen = {}

    def worker():
        before = helpers()
        r = tcosim.run(ROOT / "scenarios" / "startup-monte-carlo.json", paths=2, threads=1, today=TODAY)
        seen["paths"] = r.json["monte_carlo"]["paths"]
        seen["helpers"] = (before, helpers())

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert seen["paths"] == 2
    assert seen["helpers"][0] == seen["helpers"][1]  # no helper started for it


def test_a_forked_child_starts_its_own_helper(tcosim):
    # The parent's helper exists; a child made by fork (multiprocessing's default on Linux) has no
    # thread of it, and its first run starts one of its own.
    import multiprocessing

    tcosim.run(ROOT / "scenarios" / "startup-monte-carlo.json", paths=2, threads=1, today=TODAY)
    assert len(helpers()) == 1
    with multiprocessing.get_context("fork").Pool(1) as pool:
        paths = pool.apply(_paths_in_child)
    assert paths == 2


def _paths_in_child():
    import tcosim

    return tcosim.run(ROOT / "scenarios" / "startup-monte-carlo.json", paths=2, threads=1, today=TODAY).json[
        "monte_carlo"]["paths"]
