"""Report.npv_by_path is a view of the report's own buffer (no copy), paths x plans, and its
values are the ones the report's statistics were computed from."""
import numpy as np
import pytest

from conftest import ROOT, TODAY

PATHS = 8


@pytest.fixture(scope="module")
def report(tcosim):
    return tcosim.run(ROOT / "scenarios" / "startup-monte-carlo.json", paths=PATHS, threads=1, today=TODAY)


def test_is_a_view_not_a_copy(report):
    a = report.npv_by_path
    assert not a.flags.owndata  # NumPy did not allocate it
    assert a.base is report._core  # the memory is the report's (the C++ RunResult's buffer)
    assert not a.flags.writeable  # a report's figures are read, not edited
    b = report.npv_by_path
    assert np.shares_memory(a, b)  # every access views the same buffer
    # plan-major buffer seen as paths x plans: a plan's paths are contiguous (stride 8 bytes).
    assert a.strides == (8, 8 * PATHS)


def test_shape_and_statistics_equal_the_report(report):
    a = report.npv_by_path
    plans = report.json["monte_carlo"]["plans"]
    assert a.shape == (PATHS, len(plans))
    for j, plan in enumerate(plans):
        stats = plan["npv_usd"]
        # mean = sum / n; stderr = s / sqrt(n) with s the sample standard deviation (ddof=1),
        # as docs/report.md defines them.
        assert a[:, j].mean() == pytest.approx(stats["mean"], rel=1e-12)
        assert a[:, j].std(ddof=1) / np.sqrt(PATHS) == pytest.approx(stats["stderr"], rel=1e-9)
        assert a[:, j].min() == stats["min"] and a[:, j].max() == stats["max"]


def test_deterministic_run_has_no_paths(tcosim):
    r = tcosim.run(ROOT / "scenarios" / "training-cluster-spares.json", paths=1, threads=1, today=TODAY)
    assert r.npv_by_path.shape[0] in (0, 1)
