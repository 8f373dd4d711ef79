#!/usr/bin/env python3
"""The Excel workbook (--xlsx) recalculated by a real spreadsheet engine (docs/report.md).

usage: check_workbook.py TCOSIM SCENARIO WORKDIR [--paths N] [--catalog DIR] [--rate R]

1. `tcosim run SCENARIO --out r.json --xlsx r.xlsx` (with --paths N when given).
2. The cached values tcosim wrote in the formula cells equal the report (read from the XML).
3. Round trip: a copy with every formula's cached value replaced by 0 is recalculated by
   LibreOffice Calc (headless, a throwaway profile whose "recalculation on file load" is set to
   always) and each sheet exported as CSV; every NPV, total and statistic must equal the JSON
   report within 1e-9 relative. The zeroed caches prove the numbers come from the formulas.
4. Discount rate edit: the Inputs sheet's DiscountRate cell set to R (default 0.13) in the XML,
   recalculated; every plan's NPV must equal `tcosim run` of the scenario rewritten at rate R
   (deterministic scenarios; the plans' monthly flows do not depend on the rate).
Exit 77 (skipped) when LibreOffice (soffice) is not installed.
"""
import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile

REL = 1e-9
ABS = 1e-6  # USD: a value that is 0 in the report may come back as 1e-10 after the sums


def close(a, b):
    return abs(a - b) <= REL * max(abs(a), abs(b)) + ABS


class Checker:
    def __init__(self):
        self.failures = []
        self.checked = 0

    def eq(self, what, got, want):
        self.checked += 1
        if not close(got, want):
            self.failures.append(f"{what}: workbook {got!r}, report {want!r}")

    def done(self, label):
        print(f"{label}: {self.checked} figures checked, {len(self.failures)} failed")
        for f in self.failures[:30]:
            print("  FAIL", f)
        return not self.failures


def run(cmd, **kw):
    result = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if result.returncode != 0:
        sys.exit(f"failed ({result.returncode}): {' '.join(cmd)}\n{result.stdout}\n{result.stderr}")
    return result


# --- the xlsx as XML -----------------------------------------------------------------------

def sheet_files(xlsx):
    """Sheet name -> its XML part, from workbook.xml and its relationships."""
    with zipfile.ZipFile(xlsx) as z:
        wb = z.read("xl/workbook.xml").decode()
        rels = z.read("xl/_rels/workbook.xml.rels").decode()
    targets = dict(re.findall(r'<Relationship Id="([^"]+)" Type="[^"]+" Target="([^"]+)"', rels))
    out = {}
    for name, rid in re.findall(r'<sheet name="([^"]+)" sheetId="\d+" r:id="([^"]+)"', wb):
        name = name.replace("&amp;", "&").replace("&apos;", "'").replace("&quot;", '"')
        out[name] = "xl/" + targets[rid]
    return out


def rewrite(src, dst, edit):
    """Copies the xlsx, passing each worksheet's XML through edit(part_name, text)."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename.startswith("xl/worksheets/sheet"):
                data = edit(item.filename, data.decode()).encode()
            zout.writestr(item, data)


FORMULA_CELL = re.compile(r'(<c r="([A-Z]+\d+)"[^>]*>)<f>([^<]*)</f><v>([^<]*)</v>')


def zero_cached(_part, xml):
    return FORMULA_CELL.sub(lambda m: f"{m.group(1)}<f>{m.group(3)}</f><v>0</v>", xml)


def cached_values(xlsx, part):
    with zipfile.ZipFile(xlsx) as z:
        xml = z.read(part).decode()
    return {m.group(2): float(m.group(4)) for m in FORMULA_CELL.finditer(xml)}


# --- LibreOffice ----------------------------------------------------------------------------

RECALC_ALWAYS = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema"
           xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
"""

# Comma, double quotes, UTF-8, from line 1, standard cells, values not "as shown" (full
# precision), every sheet (-1: one file per sheet, NAME-SHEET.csv).
CSV_FILTER = 'csv:Text - txt - csv (StarCalc):44,34,76,1,,1033,false,true,false,false,false,-1'


def recalculated_sheets(soffice, xlsx, workdir):
    """Recalculates xlsx in LibreOffice and returns {sheet: rows of cells}."""
    profile = os.path.join(workdir, "lo-profile")
    os.makedirs(os.path.join(profile, "user"), exist_ok=True)
    with open(os.path.join(profile, "user", "registrymodifications.xcu"), "w") as f:
        f.write(RECALC_ALWAYS)
    outdir = os.path.join(workdir, os.path.basename(xlsx) + ".csv")
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    run([soffice, f"-env:UserInstallation=file://{os.path.abspath(profile)}", "--headless", "--norestore",
         "--convert-to", CSV_FILTER, "--outdir", outdir, xlsx], timeout=300)
    stem = os.path.splitext(os.path.basename(xlsx))[0]
    sheets = {}
    for name in sheet_files(xlsx):
        path = os.path.join(outdir, f"{stem}-{name}.csv")
        if not os.path.exists(path):
            sys.exit(f"LibreOffice wrote no {path} (found {sorted(os.listdir(outdir))})")
        with open(path, newline="", encoding="utf-8") as f:
            sheets[name] = list(csv.reader(f))
    return sheets


def cell(rows, a1):
    m = re.fullmatch(r"([A-Z]+)(\d+)", a1)
    col = 0
    for ch in m.group(1):
        col = col * 26 + ord(ch) - ord("A") + 1
    text = rows[int(m.group(2)) - 1][col - 1]
    try:
        return float(text)
    except ValueError:
        sys.exit(f"cell {a1} holds {text!r}, not a number")


def col_name(index):
    out = ""
    index += 1
    while index:
        index, r = divmod(index - 1, 26)
        out = chr(ord("A") + r) + out
    return out


# --- what the workbook must reproduce ------------------------------------------------------

def plan_sheet_checks(report, names):
    """(sheet, cell, expected, label) for every plan sheet: NPV, total, category totals,
    cumulative discounted cost per month."""
    out = []
    for plan in report["plans"]:
        sheet = names[plan["name"]]
        cols = plan["monthly"]["columns"]
        rows = plan["monthly"]["rows"]
        cats = cols[1:cols.index("total_usd")]
        header, first = 7, 8  # 1-based rows: header, first month
        k_total = 1 + len(cats)
        k_cum = k_total + 6
        totals = first + len(rows)
        out.append((sheet, "B3", plan["npv_usd"], f"{plan['name']} NPV"))
        out.append((sheet, "B4", plan["total_nominal_usd"], f"{plan['name']} total"))
        out.append((sheet, f"{col_name(k_total)}{totals}", plan["total_nominal_usd"], f"{plan['name']} total row"))
        for i, c in enumerate(cats):
            out.append((sheet, f"{col_name(1 + i)}{totals}", plan["breakdown_nominal_usd"][c],
                        f"{plan['name']} {c} total"))
        ci = cols.index("cumulative_discounted_usd")
        for m, r in enumerate(rows):
            out.append((sheet, f"{col_name(k_cum)}{first + m}", r[ci], f"{plan['name']} cumulative month {m}"))
    return out


def summary_checks(report):
    out = []
    plans = report["plans"]
    comparisons = {c["plan"]: c for c in report["comparisons"]}
    best = next(p for p in plans if p["name"] == report["verdict"]["plan"])  # the recommended plan
    base = next(p for p in plans if p["name"] == report["scenario"]["baseline"])
    out.append(("Summary", "B9", base["npv_usd"] - best["npv_usd"], "verdict saving"))
    for i, p in enumerate(plans):
        row = 13 + i
        out.append(("Summary", f"D{row}", p["npv_usd"], f"summary {p['name']} NPV"))
        out.append(("Summary", f"E{row}", p["total_nominal_usd"], f"summary {p['name']} total"))
        if p["usd_per_useful_gpu_hour"] is not None:
            out.append(("Summary", f"G{row}", p["usd_per_useful_gpu_hour"], f"summary {p['name']} $/GPU-h"))
        if p["name"] in comparisons:
            c = comparisons[p["name"]]
            out.append(("Summary", f"I{row}", c["npv_saving_usd"], f"summary {p['name']} NPV saving"))
            out.append(("Summary", f"J{row}", c["nominal_saving_usd"], f"summary {p['name']} nominal saving"))
    return out


STATS = ["mean", "stderr", "ci95_low", "ci95_high", "p5", "p50", "p95", "cvar95", "min", "max", "p_cheaper"]


def paths_checks(report):
    mc = report["monte_carlo"]
    plans = [p["name"] for p in report["plans"]]
    baseline = report["scenario"]["baseline"]
    stats = {p["name"]: p["npv_usd"] for p in mc["plans"]}
    comps = {c["plan"]: c for c in mc["comparisons"]}
    columns = [(name, stats[name], None) for name in plans]
    columns += [(name + " - " + baseline, comps[name]["npv_difference_usd"], comps[name]["p_cheaper"])
                for name in plans if name != baseline]
    out = []
    for j, (label, s, p_cheaper) in enumerate(columns):
        col = col_name(1 + j)
        for k, stat in enumerate(STATS[:-1]):
            out.append(("Paths", f"{col}{4 + k}", s[stat], f"paths {label} {stat}"))
        if p_cheaper is not None:
            out.append(("Paths", f"{col}{4 + len(STATS) - 1}", p_cheaper, f"paths {label} p_cheaper"))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tcosim")
    ap.add_argument("scenario")
    ap.add_argument("workdir")
    ap.add_argument("--paths", type=int)
    ap.add_argument("--catalog")
    ap.add_argument("--rate", type=float, default=0.13)
    ap.add_argument("--no-rate-edit", action="store_true", help="skip step 4 (Monte Carlo scenarios)")
    a = ap.parse_args()
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if not soffice:
        print("skipped: LibreOffice (soffice) is not installed; scripts/install-deps.sh installs it")
        return 77
    shutil.rmtree(a.workdir, ignore_errors=True)
    os.makedirs(a.workdir)
    extra = (["--paths", str(a.paths)] if a.paths else []) + (["--catalog", a.catalog] if a.catalog else [])
    report_path = os.path.join(a.workdir, "r.json")
    xlsx = os.path.join(a.workdir, "r.xlsx")
    t0 = time.time()
    run([a.tcosim, "run", a.scenario, "--out", report_path, "--xlsx", xlsx, "-q"] + extra)
    print(f"tcosim run: {time.time() - t0:.1f} s")
    report = json.load(open(report_path))
    parts = sheet_files(xlsx)
    names = dict(zip([p["name"] for p in report["plans"]], list(parts)[2:2 + len(report["plans"])]))
    has_paths = report["monte_carlo"]["mode"] in ("fluid", "discrete_event") and report["monte_carlo"]["paths"] >= 2
    if has_paths != ("Paths" in parts):
        sys.exit(f"Paths sheet present: {'Paths' in parts}, expected {has_paths}")
    checks = plan_sheet_checks(report, names) + summary_checks(report) + (paths_checks(report) if has_paths else [])
    ok = True

    # 2. The cached values tcosim wrote.
    cached = Checker()
    cache = {sheet: cached_values(xlsx, part) for sheet, part in parts.items()}
    for sheet, a1, want, label in checks:
        cached.eq("cached " + label, cache[sheet][a1], want)
    ok &= cached.done("cached values")

    # 3. Recalculated from zeroed caches.
    zeroed = os.path.join(a.workdir, "zeroed.xlsx")
    rewrite(xlsx, zeroed, zero_cached)
    if any(v != 0 for v in cached_values(zeroed, parts["Summary"]).values()):
        sys.exit("zeroing the cached values failed")
    t0 = time.time()
    sheets = recalculated_sheets(soffice, zeroed, a.workdir)
    print(f"LibreOffice recalculation and CSV export: {time.time() - t0:.1f} s")
    recalc = Checker()
    for sheet, a1, want, label in checks:
        recalc.eq(label, cell(sheets[sheet], a1), want)
    ok &= recalc.done("recalculated in LibreOffice")

    # 4. A changed discount rate.
    if not a.no_rate_edit:
        inputs_part = parts["Inputs"]
        rate_cell = re.compile(r'(<c r="B2"[^>]*>)<v>[^<]*</v>')

        def set_rate(part, xml):
            if part == inputs_part:
                xml, n = rate_cell.subn(lambda m: f"{m.group(1)}<v>{a.rate!r}</v>", xml)
                if n != 1:
                    sys.exit("no discount rate cell at Inputs!B2")
            return zero_cached(part, xml)

        edited = os.path.join(a.workdir, "rate.xlsx")
        rewrite(xlsx, edited, set_rate)
        scenario = json.load(open(a.scenario))
        scenario["discount_rate_per_year"] = a.rate
        moved = os.path.join(a.workdir, "scenario-at-rate.json")
        json.dump(scenario, open(moved, "w"), indent=1)
        catalog = a.catalog or os.path.join(os.path.dirname(os.path.abspath(a.scenario)),
                                            scenario.get("catalog_dir", "../pricing-data"))
        at_rate = os.path.join(a.workdir, "r-at-rate.json")
        run([a.tcosim, "run", moved, "--out", at_rate, "-q", "--catalog", catalog]
            + (["--paths", str(a.paths)] if a.paths else []))
        expected = json.load(open(at_rate))
        sheets = recalculated_sheets(soffice, edited, a.workdir)
        edit = Checker()
        for plan, before in zip(expected["plans"], report["plans"]):
            edit.eq(f"{plan['name']} NPV at rate {a.rate}", cell(sheets[names[plan["name"]]], "B3"), plan["npv_usd"])
            if close(plan["npv_usd"], before["npv_usd"]) and abs(before["npv_usd"]) > 1:
                edit.failures.append(f"{plan['name']}: the NPV did not move with the rate")
        for i, c in enumerate(expected["comparisons"]):
            row = 13 + [p["name"] for p in expected["plans"]].index(c["plan"])
            edit.eq(f"{c['plan']} NPV saving at rate {a.rate}", cell(sheets["Summary"], f"I{row}"), c["npv_saving_usd"])
        ok &= edit.done(f"discount rate {a.rate} in Inputs!B2 vs tcosim run at that rate")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
