#!/usr/bin/env python3
"""Every CSV table of the report document is also a sheet of the workbook, with the same numbers.

usage: check_workbook_sections.py TCOSIM WORKDIR REPORT.json...

For each saved report: `tcosim report R --csv DIR --xlsx R.xlsx`, then each CSV file the report
document wrote (carbon.csv, venues.csv, ...) must stand in one sheet of the workbook: the same
header, the same rows, numbers equal within 1e-9 relative and text equal. A feature section that
reaches the CSV folder but not the workbook fails here. The tables the workbook lays out its own
way are checked elsewhere (NOT_SECTION_SHEETS, with where).
"""
import csv
import os
import re
import shutil
import subprocess
import sys
import zipfile
from xml.etree import ElementTree

NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
REL_NS = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
# CSV files whose figures the workbook holds in a layout of its own, checked by
# tests/check_workbook.py (plan sheets with formulas, the Summary) or not a table of figures.
NOT_SECTION_SHEETS = {
    "monthly_cash_flows.csv": "the plan sheets' monthly rows, recomputed by formulas (check_workbook.py)",
    "plans.csv": "the Summary sheet (check_workbook.py)",
    "next_generation_arrival.csv": "the Inputs sheet's arrival month over the paths",
    "tokens.csv": "the Tokens sheet: the counts and costs with the $/M columns as formulas over them "
                  "(tests/test_tokens_report.cpp)",
}


def column_index(ref):
    letters = re.match(r"[A-Z]+", ref).group(0)
    index = 0
    for ch in letters:
        index = index * 26 + ord(ch) - ord("A") + 1
    return index - 1


def read_sheets(path):
    """Sheet name -> rows of cell values (float or str), from the xlsx's XML."""
    with zipfile.ZipFile(path) as z:
        shared = []
        if "xl/sharedStrings.xml" in z.namelist():
            root = ElementTree.fromstring(z.read("xl/sharedStrings.xml"))
            for si in root.findall("m:si", NS):
                shared.append("".join(t.text or "" for t in si.iter(f"{{{NS['m']}}}t")))
        book = ElementTree.fromstring(z.read("xl/workbook.xml"))
        rels = ElementTree.fromstring(z.read("xl/_rels/workbook.xml.rels"))
        target = {r.get("Id"): r.get("Target") for r in rels}
        sheets = {}
        for s in book.find("m:sheets", NS):
            xml = ElementTree.fromstring(z.read("xl/" + target[s.get(REL_NS)]))
            rows = []
            for row in xml.iter(f"{{{NS['m']}}}row"):
                cells = {}
                for c in row.findall("m:c", NS):
                    v = c.find("m:v", NS)
                    kind = c.get("t")
                    if kind == "s":
                        value = shared[int(v.text)]
                    elif kind == "inlineStr":
                        value = "".join(t.text or "" for t in c.iter(f"{{{NS['m']}}}t"))
                    elif kind == "b":
                        value = "true" if v is not None and v.text == "1" else "false"
                    elif kind == "str":
                        value = v.text or "" if v is not None else ""
                    else:
                        value = float(v.text) if v is not None else ""
                    cells[column_index(c.get("r"))] = value
                width = max(cells) + 1 if cells else 0
                rows.append([cells.get(i, "") for i in range(width)])
            sheets[s.get("name")] = rows
        return sheets


def same(csv_value, sheet_value):
    if isinstance(sheet_value, float):
        try:
            want = float(csv_value)
        except ValueError:
            return False
        return abs(want - sheet_value) <= 1e-9 * max(abs(want), abs(sheet_value)) + 1e-12
    return csv_value == sheet_value


def table_matches(csv_rows, sheet_rows):
    if len(csv_rows) != len(sheet_rows):
        return False
    for want, got in zip(csv_rows, sheet_rows):
        got = got + [""] * (len(want) - len(got))
        if len(got) != len(want) or not all(same(w, g) for w, g in zip(want, got)):
            return False
    return True


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    tcosim, workdir, reports = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(workdir, exist_ok=True)
    failures, tables = [], 0
    for report in reports:
        name = os.path.splitext(os.path.basename(report))[0]
        folder, book = os.path.join(workdir, name), os.path.join(workdir, name + ".xlsx")
        # A table left by an earlier run (a report that had warnings then) is not this report's.
        shutil.rmtree(folder, ignore_errors=True)
        result = subprocess.run([tcosim, "report", report, "--csv", folder, "--xlsx", book], capture_output=True, text=True)
        if result.returncode != 0:
            failures.append(f"{name}: tcosim report exit {result.returncode}: {result.stderr.strip()}")
            continue
        sheets = read_sheets(book)
        for file in sorted(os.listdir(folder)):
            if file in NOT_SECTION_SHEETS:
                continue
            with open(os.path.join(folder, file), newline="", encoding="utf-8") as f:
                csv_rows = [row for row in csv.reader(f) if row]
            tables += 1
            if not any(table_matches(csv_rows, rows) for rows in sheets.values()):
                failures.append(f"{name}: {file} ({len(csv_rows) - 1} rows) is in no sheet of the workbook "
                                f"(sheets: {', '.join(sheets)})")
    print(f"{len(reports)} reports, {tables} section tables looked for in the workbooks, {len(failures)} missing")
    for failure in failures:
        print("  FAIL", failure)
    # A check that finds nothing to compare proves nothing.
    if tables == 0:
        print("  FAIL no section table was compared")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
