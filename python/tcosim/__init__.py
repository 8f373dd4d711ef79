"""tcosim from Python: the engine the ``tcosim`` CLI runs, with the same numbers.

Every function calls the code the CLI's command calls and returns what the command writes:
``run`` returns a :class:`Report` whose ``.json`` is ``tcosim run``'s JSON report. Money is in
US dollars (``*_usd``), rates per year, durations in hours or months as the keys say
(docs/report.md, docs/scenario.md). Bad input raises :class:`InputError` (a ``ValueError``)
with the CLI's message and the JSON pointer. Runs release the GIL, so Python threads (or Dask
workers) run scenarios side by side; Ctrl-C stops a run within a second (``KeyboardInterrupt``).
See docs/python.md.
"""

import json as _json
import math as _math
import os as _os
import tempfile as _tempfile
import threading as _threading

# OpenMP's idle workers sleep rather than spin (libgomp reads OMP_WAIT_POLICY once, when the
# module loads it). The default spins a worker for up to about 300,000 rounds after each parallel
# loop: a one-shot CLI run barely notices, but in a loop of small runs the spinning worker took a
# core from the run's serial parts (loading, the report) on every call, and a run at threads=2
# cost twice the CPU of one at threads=1 (docs/performance.md, "Python module"). The variable is
# set only while the module loads, so subprocesses (the CLI) see the environment as it was; a
# value the user set is kept, and a libgomp loaded earlier by another module keeps its own.
_omp_wait_policy_set = "OMP_WAIT_POLICY" not in _os.environ
if _omp_wait_policy_set:
    _os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
try:
    from . import _tcosim
finally:
    if _omp_wait_policy_set:
        del _os.environ["OMP_WAIT_POLICY"]
del _omp_wait_policy_set
from . import _runner
from ._errors import InputError, ModelError
from ._report import Report

__version__ = _tcosim.version
InputError.__module__ = ModelError.__module__ = Report.__module__ = "tcosim"  # as users name them
__all__ = ["run", "validate", "optimize", "sensitivity", "sweep", "diff", "import_trace", "import_demand",
           "Report", "InputError", "ModelError"]

_POLL_S = 0.1  # how often a waiting main thread looks for Ctrl-C and redraws the progress bar


def _scenario_arg(scenario):
    """A path (str or os.PathLike) as str; a dict as it is; anything else refused."""
    if isinstance(scenario, dict):
        return scenario
    if isinstance(scenario, (str, _os.PathLike)):
        return _os.fspath(scenario)
    raise TypeError(f"scenario: expected a dict or a path, got {type(scenario).__name__}")


_NOT_FINITE_REASON = "is {}: a number must be finite (a JSON file cannot hold NaN or infinity either)"


def _first_not_finite(value, pointer=""):
    """The JSON pointer and the text of the first NaN or infinity in a dict scenario, depth
    first in the dict's order; None when every number is finite."""
    if isinstance(value, float) and not _math.isfinite(value):
        return pointer, "NaN" if _math.isnan(value) else ("infinity" if value > 0 else "minus infinity")
    if isinstance(value, dict):
        items = ((str(k).replace("~", "~0").replace("/", "~1"), v) for k, v in value.items())
    elif isinstance(value, (list, tuple)):
        items = ((str(i), v) for i, v in enumerate(value))
    else:
        return None
    for key, item in items:
        found = _first_not_finite(item, pointer + "/" + key)
        if found:
            return found
    return None


def _not_finite_error(scenario, name):
    """The InputError a dict scenario holding NaN or infinity gets (None for one that holds
    neither, or a path: the file's own parser refuses them)."""
    found = isinstance(scenario, dict) and _first_not_finite(scenario)
    if not found:
        return None
    pointer, what = found
    reason = _NOT_FINITE_REASON.format(what)
    return InputError(f"{name}: {pointer}: {reason}", name, pointer, reason)


def _wait(call, control, progress):
    """Runs call() (which releases the GIL) on a helper thread while this thread, when it is the
    main thread, stays free for Ctrl-C: a KeyboardInterrupt cancels the engine's loops (they stop
    between paths) and is raised once the call has returned. The main thread's helper is kept
    from call to call (tcosim._runner); another thread calls directly, or with a progress bar on
    a helper of its own. Either way no thread is left running a call once this returns."""
    in_main = _threading.current_thread() is _threading.main_thread()
    if not in_main and not progress:
        return call()
    if in_main:
        box, done = _runner.submit(call)
        own = None
    else:
        box, done = {}, _threading.Event()
        own = _threading.Thread(target=_runner.run_into, args=(call, box, done), name="tcosim-run-progress",
                                daemon=True)
        own.start()
    bar = _progress_bar() if progress else None
    # An Event, not Thread.join(timeout): a join that Ctrl-C interrupts can leave the finished
    # thread listed as alive (Python 3.11).
    try:
        while not done.wait(_POLL_S):
            if bar is not None:
                bar.update(control.snapshot())
    except KeyboardInterrupt:
        control.cancel()
        done.wait()
        raise
    finally:
        if bar is not None:
            bar.close()
        if own is not None:
            own.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


class _TqdmBar:
    def __init__(self, tqdm):
        self._tqdm = tqdm
        self._bar = None
        self._stage = None

    def update(self, snapshot):
        stage, done, total = snapshot
        if total <= 0:
            return
        if stage != self._stage:
            if self._bar is not None:
                self._bar.close()
            self._bar = self._tqdm(total=total, unit=" " + (stage or "paths"), leave=False)
            self._stage = stage
        self._bar.n = done
        self._bar.refresh()

    def close(self):
        if self._bar is not None:
            self._bar.close()


class _NoBar:
    def update(self, snapshot):
        pass

    def close(self):
        pass


def _progress_bar():
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return _NoBar()
    return _TqdmBar(tqdm)


def run(scenario, paths=None, seed=None, threads=0, *, catalog=None, base_dir=None, name="<dict>", today=None,
        max_age_days=365, progress=False):
    """Runs a scenario as ``tcosim run`` does and returns its :class:`Report`.

    Args:
        scenario: a scenario file's path, or the scenario itself as a dict (what the JSON file
            would hold; docs/scenario.md). A dict's relative paths (``catalog_dir``, traces)
            resolve against ``base_dir``.
        paths: Monte Carlo paths (``--paths``; default the scenario's ``monte_carlo.paths``).
        seed: random seed (``--seed``; default the scenario's ``monte_carlo.seed``).
        threads: CPU threads (``--threads``; 0: all cores). The numbers do not depend on it.
        catalog: pricing catalog folder in place of the scenario's ``catalog_dir`` (``--catalog``).
        base_dir: where a dict's relative paths resolve (default: the current folder).
        name: how messages and the report name a dict scenario (its ``scenario.file``).
        today: ``YYYY-MM-DD`` the figures' ages are taken on (``--today``; default the system date).
        max_age_days: figures older than this many days before ``today`` are warnings.
        progress: draw a progress bar with tqdm (when installed) while the paths run.

    Returns:
        Report: ``.json`` equals the CLI's JSON report for the same scenario, seed and paths
        (apart from the ``run`` metadata block); ``.text`` is its bytes. USD throughout.

    Raises:
        InputError: bad input, with the CLI's message and ``.pointer`` (a NaN or infinity in a
            dict is refused as in a file).
        ModelError: a scenario that cannot be modelled as written.
        KeyboardInterrupt: Ctrl-C; the engine stops between paths.
    """
    scenario = _scenario_arg(scenario)
    refused = _not_finite_error(scenario, name)
    if refused:
        raise refused
    control = _tcosim.RunControl()

    def call():
        return _tcosim.run_scenario(scenario, name, _os.fspath(base_dir or "."),
                                    _os.fspath(catalog) if catalog else "", paths, seed, threads, today or "",
                                    max_age_days, control)

    return Report(_wait(call, control, progress))


def validate(scenario, *, catalog=None, base_dir=None, name="<dict>"):
    """Checks a scenario as ``tcosim validate`` does; returns its findings (never raises for bad input).

    Returns:
        list of dict: one per finding, ``{"severity": "error"|"warning", "code", "file", "pointer",
        "message"}``; an error finding's pointer is the one ``run`` raises :class:`InputError` with.
        Empty: the scenario loads with no warning.
    """
    scenario = _scenario_arg(scenario)
    refused = _not_finite_error(scenario, name)
    if refused:
        return [{"severity": "error", "code": "invalid-scenario", "file": refused.file, "pointer": refused.pointer,
                 "message": str(refused)}]
    return _tcosim.validate(scenario, name, _os.fspath(base_dir or "."), _os.fspath(catalog) if catalog else "")


def _cli(args):
    """Runs a CLI command in this process: (exit code, stdout bytes, stderr text); InputError and
    ModelError raise."""
    code, out, err = _tcosim.cli([_os.fspath(a) for a in args])
    if code not in (0, 1):
        raise RuntimeError(err.strip() or f"tcosim {args[0]} exited {code}")
    return code, out, err


class _ScenarioFile:
    """A scenario argument as a file for the commands that read one: a path as it is; a dict
    written to a temporary file in base_dir (so its relative paths resolve as run's do)."""

    def __init__(self, scenario, base_dir):
        self._scenario = _scenario_arg(scenario)
        self._base_dir = base_dir or "."
        self._temp = None

    def __enter__(self):
        if not isinstance(self._scenario, dict):
            return self._scenario
        refused = _not_finite_error(self._scenario, "<dict>")
        if refused:
            raise refused
        fd, self._temp = _tempfile.mkstemp(prefix=".tcosim-", suffix=".json", dir=self._base_dir)
        with _os.fdopen(fd, "w") as f:
            _json.dump(self._scenario, f, allow_nan=False)
        return self._temp

    def __exit__(self, *exc):
        if self._temp:
            _os.unlink(self._temp)


def _options(**options):
    args = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        if value is True:
            args.append(flag)
        elif isinstance(value, (list, tuple)):
            args += [flag, ",".join(str(v) for v in value)]
        else:
            args += [flag, _os.fspath(value) if isinstance(value, _os.PathLike) else str(value)]
    return args


def _json_command(command, scenario, base_dir, options):
    with _ScenarioFile(scenario, base_dir) as path:
        _, out, _ = _cli([command, path, "--out", "-", "--quiet"] + _options(**options))
    return _json.loads(out)


def optimize(scenario, *, nodes=None, plan=None, risk=None, search=None, paths=None, seed=None, threads=0,
             catalog=None, base_dir=None, today=None, **options):
    """Sizes a plan's on-prem node count as ``tcosim optimize`` does; returns its JSON report (dict).

    Args:
        nodes: node counts to evaluate, ``"FROM:TO"`` or ``"FROM:TO:STEP"`` (default ``"0:64"``).
        plan: the plan to size, by name (default: the scenario's first hybrid plan).
        risk: ``"mean"``, ``"p90"`` or ``"cvar95"`` (the NPV measure, USD, the recommendation minimises).
        paths, seed, threads, catalog, today: as :func:`run`.
        **options: any other ``optimize`` option, ``reserved="0:8"`` for ``--reserved 0:8``.
    """
    return _json_command("optimize", scenario, base_dir,
                         dict(nodes=nodes, plan=plan, risk=risk, search=search, paths=paths, seed=seed,
                              threads=threads, catalog=catalog, today=today, **options))


def sensitivity(scenario, *, plan=None, paths=None, seed=None, threads=0, catalog=None, base_dir=None, today=None):
    """The tornado and rank correlations of a scenario's ``uncertain`` inputs, as ``tcosim
    sensitivity`` reports them (dict): each input's swing of the plan's NPV saving, USD."""
    return _json_command("sensitivity", scenario, base_dir,
                         dict(plan=plan, paths=paths, seed=seed, threads=threads, catalog=catalog, today=today))


def sweep(scenario, grid, *, paths=None, seed=None, threads=0, catalog=None, base_dir=None, today=None, **options):
    """Evaluates a scenario over a grid as ``tcosim sweep`` does; returns the sweep's JSON (dict).

    Args:
        grid: a grid file's path, or the grid as a dict (docs/sweep.md): the fields to vary and
            their values.
        paths, seed, threads, catalog, today: as :func:`run`. NPVs are in USD.
    """
    with _ScenarioFile(scenario, base_dir) as path, _ScenarioFile(grid, base_dir) as grid_path:
        with _tempfile.TemporaryDirectory(prefix="tcosim-sweep-") as folder:
            out = _os.path.join(folder, "sweep.json")
            _cli(["sweep", path, "--grid", grid_path, "--out", out, "--quiet"]
                 + _options(paths=paths, seed=seed, threads=threads, catalog=catalog, today=today, **options))
            with open(out, encoding="utf-8") as f:
                return _json.load(f)


def diff(base, new, *, tolerance=None, abs_tolerance_usd=None):
    """Compares two reports as ``tcosim diff --format json`` does; returns its dict.

    ``base`` and ``new`` are report files, or :class:`Report` objects / report dicts (written
    to temporary files first). A move counts when above ``tolerance`` (default ``"0.5%"``) and
    ``abs_tolerance_usd`` (default 1000 USD).
    """
    with _tempfile.TemporaryDirectory(prefix="tcosim-diff-") as folder:
        files = []
        for i, report in enumerate((base, new)):
            if isinstance(report, Report):
                report = report.text
            elif isinstance(report, dict):
                report = _json.dumps(report)
            else:
                files.append(_os.fspath(report))
                continue
            path = _os.path.join(folder, f"report{i}.json")
            with open(path, "w", encoding="utf-8") as f:
                f.write(report)
            files.append(path)
        _, out, _ = _cli(["diff", *files, "--format", "json"]
                         + _options(tolerance=tolerance, abs_tolerance_usd=abs_tolerance_usd))
    return _json.loads(out)


def _import(kind, path, format, out, options):
    if out is None:
        raise TypeError(f"import_{kind}: out= (the canonical CSV to write) is required")
    _, stdout, _ = _cli([kind, "import", path, "--format", format, "--out", out] + _options(**options))
    return stdout.decode("utf-8", "replace")


def import_trace(path, *, format, out, **options):
    """Converts a cluster's job history into the canonical job CSV, as ``tcosim trace import``.

    Args:
        path: the input file (sacct output, kubectl pods JSON, a public trace).
        format: ``"slurm"``, ``"k8s-pods"``, ``"openb"``, ``"dlrm"``, ``"philly"``, ``"pai"`` or ``"helios"``.
        out: the canonical CSV to write (atomically); read it with pandas or name it in a scenario.
        **options: the command's other options, ``timezone="Europe/Paris"`` for ``--timezone``.

    Returns:
        str: what the command prints (rows kept and dropped, per reason).
    """
    return _import("trace", path, format, out, options)


def import_demand(path, *, format, out, **options):
    """Converts a measured demand series into the canonical hourly CSV (``time_h,gpus``), as
    ``tcosim demand import``: ``format`` is ``"helios_vc"``, ``"philly_nodes"``, ``"prometheus"``,
    ``"opencost"`` or ``"azure-llm"``; ``gpus_per_node=8`` for ``--gpus-per-node 8``, etc.
    Returns what the command prints."""
    return _import("demand", path, format, out, options)
