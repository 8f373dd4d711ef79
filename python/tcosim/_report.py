"""Report: one scenario's report, as `tcosim run` writes it, with tables and exports."""

import io
import json as _json


class Report:
    """The report of one run: the CLI's JSON report and views of it.

    Attributes:
        json: the report as a dict, equal to ``tcosim run --out -``'s JSON for the same scenario,
            seed and paths (apart from the ``run`` block of run metadata). USD figures are in
            US dollars, as the key names say (``npv_usd``, ``total_usd``).
        text: the report's JSON text, byte for byte what ``tcosim run --out`` writes.
    """

    def __init__(self, core):
        self._core = core
        self._json = None

    @property
    def json(self):
        """The report as a dict (keys and units as in docs/report.md)."""
        if self._json is None:
            self._json = self._core.json
        return self._json

    @property
    def text(self):
        """The report as the CLI writes it: 2-space indented JSON with a final newline."""
        return self._core.text

    @property
    def npv_by_path(self):
        """NPV of every Monte Carlo path, USD: a read-only NumPy array (paths x plans).

        A view of the report's own buffer (no copy; ``.base`` is the report's core). Columns are
        the plans in the report's order (``[p["name"] for p in report.json["plans"]]``). Empty
        (0 x 0) for a deterministic run of one path.
        """
        return self._core.npv_by_path

    def _table(self, name):
        import pandas as pd

        for table_name, text in self._core.csv_tables():
            if table_name == name:
                return pd.read_csv(io.StringIO(text))
        raise KeyError(name)

    @property
    def plans(self):
        """The plans table as a pandas DataFrame: the columns of ``tcosim run --csv``'s plans.csv,
        units in their names (``npv_usd``, ``nominal_total_usd``, ...)."""
        return self._table("plans.csv")

    @property
    def cash_flows(self):
        """Monthly cash flows per plan as a pandas DataFrame: monthly_cash_flows.csv's columns
        (``plan``, ``month``, one column per cost category in USD, ``total_usd``,
        ``cumulative_discounted_usd``, ...; docs/report.md)."""
        return self._table("monthly_cash_flows.csv")

    def to_html(self):
        """The self-contained HTML report (inline SVG charts), as ``tcosim run --html`` writes it."""
        return self._core.html()

    def to_markdown(self):
        """The Markdown summary, as ``tcosim run --md`` writes it."""
        return self._core.markdown()

    def to_xlsx(self, path):
        """Writes the Excel workbook to ``path`` (atomically), as ``tcosim run --xlsx`` does:
        inputs, monthly flows per plan with NPV as live formulas, a summary and, with Monte Carlo
        paths, the NPV of every path."""
        self._core.write_xlsx(str(path))

    def _repr_html_(self):
        return self.plans.to_html(index=False) if _has_pandas() else None

    def __repr__(self):
        name = self.json.get("scenario", {}).get("name", "?")
        return f"<tcosim.Report {name!r}: {len(self.json.get('plans', []))} plans>"


def _has_pandas():
    try:
        import pandas  # noqa: F401
    except ImportError:
        return False
    return True


def loads(text):
    """A report's JSON text as a dict (the same parse the tests use)."""
    return _json.loads(text)
