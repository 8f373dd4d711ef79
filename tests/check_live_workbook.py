#!/usr/bin/env python3
"""The workbook is live: inputs edited in the xlsx move the totals as `tcosim run` would (docs/report.md).

usage: check_live_workbook.py TCOSIM SCENARIO WORKDIR [--paths N]
         --edit POINTER SCENARIO_VALUE CELL_REGEX CELL_VALUE [--edit ...]

1. `tcosim run SCENARIO --out r.json --xlsx r.xlsx`.
2. Each --edit sets, in a copy of the xlsx, every Inputs cell whose name (column A) matches
   CELL_REGEX to CELL_VALUE, and, in a copy of the scenario, the JSON pointer POINTER to
   SCENARIO_VALUE (JSON). Every formula's cached value is zeroed, so that the figures can only
   come from LibreOffice's recalculation (headless, as tests/check_workbook.py).
3. `tcosim run` of the edited scenario. Every plan's NPV, total and category totals on its sheet,
   and the Summary's node counts, NPVs, totals and savings, must equal that run's within 1e-9 relative; and
   the edits must have moved some plan's NPV (an edit nothing reads proves nothing).
Exit 77 (skipped) when LibreOffice (soffice) is not installed.
"""
import argparse
import json
import os
import re
import shutil
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_workbook import (Checker, cell, close, col_name, recalculated_sheets, rewrite, run,  # noqa: E402
                            sheet_files, zero_cached)


def shared_strings(xlsx):
    with zipfile.ZipFile(xlsx) as z:
        if "xl/sharedStrings.xml" not in z.namelist():
            return []
        xml = z.read("xl/sharedStrings.xml").decode()
    out = []
    for si in re.findall(r"<si>(.*?)</si>", xml, re.S):
        text = "".join(re.findall(r"<t[^>]*>([^<]*)</t>", si))
        out.append(text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
                   .replace("&apos;", "'"))
    return out


def input_rows(xlsx, part):
    """Inputs sheet: name in column A -> its 1-based row."""
    strings = shared_strings(xlsx)
    with zipfile.ZipFile(xlsx) as z:
        xml = z.read(part).decode()
    rows = {}
    for row, index in re.findall(r'<c r="A(\d+)"[^>]*t="s"[^>]*><v>(\d+)</v></c>', xml):
        rows[strings[int(index)]] = int(row)
    return rows


def set_pointer(doc, pointer, value):
    keys = [k.replace("~1", "/").replace("~0", "~") for k in pointer.lstrip("/").split("/")]
    node = doc
    for k in keys[:-1]:
        node = node[int(k)] if isinstance(node, list) else node[k]
    last = keys[-1]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tcosim")
    ap.add_argument("scenario")
    ap.add_argument("workdir")
    ap.add_argument("--paths", type=int)
    ap.add_argument("--edit", nargs=4, action="append", required=True,
                    metavar=("POINTER", "SCENARIO_VALUE", "CELL_REGEX", "CELL_VALUE"))
    a = ap.parse_args()
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if not soffice:
        print("skipped: LibreOffice (soffice) is not installed; scripts/install-deps.sh installs it")
        return 77
    shutil.rmtree(a.workdir, ignore_errors=True)
    os.makedirs(a.workdir)
    report_path = os.path.join(a.workdir, "r.json")
    xlsx = os.path.join(a.workdir, "r.xlsx")
    paths = ["--paths", str(a.paths)] if a.paths else []
    run([a.tcosim, "run", a.scenario, "--out", report_path, "--xlsx", xlsx, "-q"] + paths)
    before = json.load(open(report_path))
    parts = sheet_files(xlsx)
    plan_names = [p["name"] for p in before["plans"]]
    names = dict(zip(plan_names, list(parts)[2:2 + len(plan_names)]))

    # The workbook, edited.
    rows = input_rows(xlsx, parts["Inputs"])
    cells = {}  # 1-based row -> new value
    for pointer, _, pattern, value in a.edit:
        matched = [row for name, row in rows.items() if re.fullmatch(pattern, name)]
        if not matched:
            sys.exit(f"no Inputs row matches {pattern}")
        for row in matched:
            cells[row] = float(value)
        print(f"edit {pointer}: {len(matched)} Inputs cells set to {value}")

    def edit(part, xml):
        if part == parts["Inputs"]:
            for row, value in cells.items():
                xml, n = re.subn(rf'(<c r="B{row}"[^>]*>)<v>[^<]*</v>', lambda m: f"{m.group(1)}<v>{value!r}</v>", xml)
                if n != 1:
                    sys.exit(f"Inputs!B{row} is not a number cell")
        return zero_cached(part, xml)

    edited = os.path.join(a.workdir, "edited.xlsx")
    rewrite(xlsx, edited, edit)

    # The scenario, edited the same way, run by tcosim.
    scenario = json.load(open(a.scenario))
    for pointer, value, _, _ in a.edit:
        set_pointer(scenario, pointer, json.loads(value))
    scenario["catalog_dir"] = os.path.join(os.path.dirname(os.path.abspath(a.scenario)),
                                           scenario.get("catalog_dir", "../pricing-data"))
    moved = os.path.join(a.workdir, "edited-scenario.json")
    json.dump(scenario, open(moved, "w"), indent=1)
    expected_path = os.path.join(a.workdir, "r-edited.json")
    run([a.tcosim, "run", moved, "--out", expected_path, "-q"] + paths)
    expected = json.load(open(expected_path))

    sheets = recalculated_sheets(soffice, edited, a.workdir)
    check = Checker()
    for plan, old in zip(expected["plans"], before["plans"]):
        sheet = sheets[names[plan["name"]]]
        check.eq(f"{plan['name']} NPV", cell(sheet, "B3"), plan["npv_usd"])
        check.eq(f"{plan['name']} total", cell(sheet, "B4"), plan["total_nominal_usd"])
        cols = plan["monthly"]["columns"]
        cats = cols[1:cols.index("total_usd")]
        totals = 8 + len(plan["monthly"]["rows"])
        for i, c in enumerate(cats):
            check.eq(f"{plan['name']} {c} total", cell(sheet, f"{col_name(1 + i)}{totals}"),
                     plan["breakdown_nominal_usd"][c])
        print(f"  {plan['name']}: NPV {old['npv_usd']:,.2f} -> {plan['npv_usd']:,.2f} (tcosim), "
              f"{cell(sheet, 'B3'):,.2f} (LibreOffice)")
    for i, p in enumerate(expected["plans"]):
        check.eq(f"summary {p['name']} NPV", cell(sheets["Summary"], f"D{13 + i}"), p["npv_usd"])
        check.eq(f"summary {p['name']} total", cell(sheets["Summary"], f"E{13 + i}"), p["total_nominal_usd"])
        check.eq(f"summary {p['name']} on-prem nodes", cell(sheets["Summary"], f"C{13 + i}"), p["onprem_nodes"])
    for c in expected["comparisons"]:
        row = 13 + plan_names.index(c["plan"])
        check.eq(f"{c['plan']} NPV saving", cell(sheets["Summary"], f"I{row}"), c["npv_saving_usd"])
    moved_plans = [p["name"] for p, old in zip(expected["plans"], before["plans"])
                   if not close(p["npv_usd"], old["npv_usd"])]
    if not moved_plans:
        check.failures.append("no plan's NPV moved: the edits change nothing tcosim reads")
    print(f"NPV moved by the edits in {len(moved_plans)} of {len(plan_names)} plans")
    return 0 if check.done("edited inputs recalculated in LibreOffice vs tcosim run of the edited scenario") else 1


if __name__ == "__main__":
    sys.exit(main())
