#!/usr/bin/env python3
"""The HTML report's charts as a reviewer sees them, for every shipped scenario.

For each scenarios/*.json (the sweep grids aside; a scenario that reads ../shared/data is skipped
with a message when the data is absent) this runs `tcosim run SCENARIO --html`, or with
--baselines DIR renders DIR/NAME.json with `tcosim report --html` (the golden test proves a fresh
run's report equals that baseline byte for byte, so the page is the same but for today's date, and
the suite runs each shipped scenario once instead of twice), and (for the
sizing curve, `tcosim optimize` of base-load-and-burst rendered by `tcosim report`), opens the page
in ONE headless Chromium (Debian's chromium package), driven over the DevTools protocol on a
pipe (--remote-debugging-pipe; Python's standard library only), and after layout measures every
chart element with getBoundingClientRect. It fails on:
  - two text labels of one chart whose boxes overlap (by more than 0.5 px each way);
  - a shape or label that reaches outside its <svg> canvas (by more than 0.5 px);
  - a table header with a word broken across lines ("ki" over "nd");
  - a Monte Carlo table (the report document's, after <h2 id="monte_carlo">) wider than the page's
    content or scrolling inside its box (also with every plan renamed to a long hyphenated name:
    startup-monte-carlo's report rendered again by `tcosim report --html`);
  - a Monte Carlo page (mode discrete_event or fluid) that does not show, for every plan but
    the baseline, the 95% interval of its NPV difference and its P(cheaper) as the JSON report
    has them, or the 95% interval of every plan's mean NPV.
The measuring script is evaluated by the protocol, so the page itself stays script-free under
its Content-Security-Policy. A full-page screenshot of each page is kept in OUT_DIR/NAME.png.
Exit 77 (ctest: skipped) when chromium is not installed.

Usage: check_html_layout.py TCOSIM SCENARIOS_DIR OUT_DIR [--baselines DIR] [SCENARIO_NAME ...]
"""
import base64
import json
import math
import os
import shutil
import subprocess
import sys
import time

TOLERANCE_PX = 0.5
PAGE_WIDTH_PX = 1000
SHARED_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data")

MEASURE_JS = r"""
(() => {
  const tol = %TOL%;
  const problems = [];
  const charts = [];
  const box = (r, c) => [r.left - c.left, r.top - c.top, r.right - c.left, r.bottom - c.top].map(v => Math.round(v * 10) / 10);
  document.querySelectorAll('svg').forEach((svg, k) => {
    const titleNode = svg.querySelector('title');
    const title = titleNode ? titleNode.textContent : 'chart ' + k;
    const c = svg.getBoundingClientRect();
    const texts = [];
    let shapes = 0;
    for (const el of svg.querySelectorAll('text, line, rect, circle, ellipse, polyline, polygon, path')) {
      const r = el.getBoundingClientRect();
      ++shapes;
      if (r.left < c.left - tol || r.right > c.right + tol || r.top < c.top - tol || r.bottom > c.bottom + tol)
        problems.push(`${title}: <${el.tagName}> "${el.textContent.slice(0, 60)}" at ${JSON.stringify(box(r, c))} ` +
                      `reaches outside its canvas 0..${c.width.toFixed(1)} x 0..${c.height.toFixed(1)}`);
      if (el.tagName === 'text') texts.push([el, r]);
    }
    for (let i = 0; i < texts.length; ++i)
      for (let j = i + 1; j < texts.length; ++j) {
        const [a, ra] = texts[i], [b, rb] = texts[j];
        const dx = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
        const dy = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
        if (dx > tol && dy > tol)
          problems.push(`${title}: labels "${a.textContent}" ${JSON.stringify(box(ra, c))} and "${b.textContent}" ` +
                        `${JSON.stringify(box(rb, c))} overlap by ${dx.toFixed(1)} x ${dy.toFixed(1)} px`);
      }
    charts.push({title, texts: texts.length, shapes, width: c.width});
  });
  // The report document's Monte Carlo table: the first table after <h2 id=monte_carlo>, its
  // columns found by their headers, a plan by its name (in full in a shortened name's title).
  const rows = {};
  const content = document.body.getBoundingClientRect().width;
  const mcHeading = document.getElementById('monte_carlo');
  let mcTable = null;
  for (let el = mcHeading && mcHeading.nextElementSibling; el && el.tagName !== 'H2'; el = el.nextElementSibling)
    if (el.tagName === 'TABLE') { mcTable = el; break; }
  if (mcTable) {
    const heads = [...mcTable.querySelectorAll('th')].map(th => th.textContent);
    const at = h => heads.indexOf(h);
    mcTable.querySelectorAll('tr').forEach(tr => {
      const tds = [...tr.querySelectorAll('td')];
      if (!tds.length) return;
      const span = tds[0].querySelector('span[title]');
      const text = i => (i >= 0 && i < tds.length ? tds[i].textContent : null);
      rows[span ? span.title : tds[0].textContent] =
        {ci95: text(at('95% CI')), difference_ci95: text(at('its 95% CI')), p_cheaper: text(at('P(cheaper)'))};
    });
    // Wider than the content, or scrolling inside its box: a long name pushed it (docs/report.md).
    const w = mcTable.getBoundingClientRect().width;
    if (w > content + tol || mcTable.scrollWidth > mcTable.clientWidth + tol)
      problems.push(`the Monte Carlo table is ${mcTable.scrollWidth} px wide, the content ${content.toFixed(0)} px`);
  }
  // A table header keeps its words whole: "kind" never drawn as "ki" over "nd" (a narrow column
  // scrolls in its own box instead). Hyphens and slashes may break a header, as they do in print.
  document.querySelectorAll('th').forEach(th => {
    for (const node of th.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE) continue;
      const words = /[^\s\-\/]+/g;
      for (let m; (m = words.exec(node.textContent));) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (lines.size > 1) problems.push(`the header "${node.textContent}" breaks the word "${m[0]}" across ${lines.size} lines`);
      }
    }
  });
  // Nothing runs off the page to the right: a long name wraps or is shortened (docs/report.md).
  const page = document.documentElement.scrollWidth;
  if (page > window.innerWidth + tol) problems.push(`the page is ${page} px wide, the window ${window.innerWidth} px`);
  return {problems, charts, rows, content_width: content, page_height: document.documentElement.scrollHeight};
})()
""".replace("%TOL%", str(TOLERANCE_PX))


class Chromium:
    """One headless Chromium, spoken to over --remote-debugging-pipe (fd 3: commands, fd 4: replies)."""

    def __init__(self, profile_dir):
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        flags = ["--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-extensions", "--hide-scrollbars",
                 f"--user-data-dir={profile_dir}", "--remote-debugging-pipe", "about:blank"]

        def child_fds():  # fds 3 and 4 in the child, whatever numbers the pipes got here
            high_r, high_w = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        # os.pipe() descriptors are not inherited; only the two dup2 copies reach chromium.
        self.proc = subprocess.Popen(["chromium"] + flags, preexec_fn=child_fds, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, close_fds=False)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.call("Page.enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": PAGE_WIDTH_PX, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session=True)

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("chromium did not answer in time")
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed its pipe (it crashed or could not start)")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=False, timeout_s=60):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout_s
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method, timeout_s=60):
        deadline = time.monotonic() + timeout_s
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    del self.events[i]
                    return e
            self.events.append(self._read_message(deadline))

    def open(self, path):
        self.events.clear()
        self.call("Page.navigate", {"url": "file://" + os.path.abspath(path)}, session=True)
        self.wait_event("Page.loadEventFired")

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"the measuring script failed: {result['exceptionDetails']}")
        return result["result"]["value"]

    def screenshot(self, path, height_px):
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": PAGE_WIDTH_PX, "height": min(int(height_px), 16000), "deviceScaleFactor": 1,
                   "mobile": False}, session=True)
        data = self.call("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": PAGE_WIDTH_PX, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session=True)

    def close(self):
        try:
            self.call("Browser.close", timeout_s=10)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def format_usd(x):
    """reports/markdown/markdown_summary.cpp's format_usd: whole dollars (half away from zero), grouped."""
    if not math.isfinite(x):
        return "n/a"
    if abs(x) >= 1e15:
        return f"{'-' if x < 0 else ''}${abs(x):.3e}"
    whole = math.floor(abs(x) + 0.5)
    return ("-$" if x < 0 and whole != 0 else "$") + f"{whole:,}"


def interval(stats):
    return f"{format_usd(stats['ci95_low'])} .. {format_usd(stats['ci95_high'])}"


def varies(stats):
    """reports/verdict/verdict_text.cpp's interval_varies: wider than a billionth of the figure."""
    low, high = stats.get("ci95_low"), stats.get("ci95_high")
    if low is None or high is None:
        return False
    return high - low > 1e-9 * max(1.0, abs(low), abs(high))


def monte_carlo_problems(report, rows):
    """What a Monte Carlo page must show, from its JSON report: every plan's 95% CI of the mean
    NPV; every comparison's 95% CI of the paired difference and P(cheaper)."""
    mc = report.get("monte_carlo", {})
    if mc.get("mode") not in ("discrete_event", "fluid"):
        return []
    if not any(varies(plan["npv_usd"]) for plan in mc["plans"]):
        # Nothing was drawn (reports/verdict/verdict_text.cpp, interval_varies): the page must not print
        # zero-width intervals, so it leaves the distribution out.
        return [f"Monte Carlo table shown for a run whose intervals have no width ({len(rows)} rows)"] if rows else []
    problems = []
    for plan in mc["plans"]:
        row = rows.get(plan["name"])
        if row is None:
            problems.append(f"Monte Carlo table: no row for plan {plan['name']}")
            continue
        if row["ci95"] != interval(plan["npv_usd"]):
            problems.append(f"{plan['name']}: 95% CI shown {row['ci95']!r}, report {interval(plan['npv_usd'])!r}")
    for c in mc["comparisons"]:
        row = rows.get(c["plan"], {})
        want_ci, want_p = interval(c["npv_difference_usd"]), f"{100 * c['p_cheaper']:.1f}%"
        if row.get("difference_ci95") != want_ci:
            problems.append(f"{c['plan']}: difference 95% CI shown {row.get('difference_ci95')!r}, report {want_ci!r}")
        if row.get("p_cheaper") != want_p:
            problems.append(f"{c['plan']}: P(cheaper) shown {row.get('p_cheaper')!r}, report {want_p!r}")
    return problems


# No shipped scenario's `run` draws the sizing curve: this one is also sized by `optimize` (17
# node counts, 20 paths: about 2 s) and its report rendered by `tcosim report --html`.
SIZED_SCENARIO = "base-load-and-burst"


def sized_page(tcosim, scenario, out_dir, cwd):
    name = "optimize-" + SIZED_SCENARIO
    html, report = os.path.join(out_dir, name + ".html"), os.path.join(out_dir, name + ".json")
    subprocess.run([tcosim, "optimize", scenario, "--nodes", "0:16", "--paths", "20", "--out", report, "--quiet"],
                   check=True, cwd=cwd)
    subprocess.run([tcosim, "report", report, "--html", html], check=True, cwd=cwd)
    return name, html, report


# A user's plans may have long names: this scenario's report is rendered again with every plan
# renamed to a long hyphenated name (the first to 200 characters), and the page must still fit
# its 1,000 px window: no table, the Monte Carlo table included, runs off it.
LONG_NAMES_SCENARIO = "startup-monte-carlo"


def long_names_page(tcosim, report, out_dir, cwd):
    name = "long-names-" + LONG_NAMES_SCENARIO
    html, renamed = os.path.join(out_dir, name + ".html"), os.path.join(out_dir, name + ".json")
    with open(report, encoding="utf-8") as f:
        text = f.read()
    for k, plan in enumerate(json.loads(text)["plans"]):
        old = json.dumps(plan["name"])
        new = plan["name"] + "-with-a-long-descriptive-hyphenated-plan-name"
        if k == 0:  # one name of 200 characters, as a generated plan name may be
            new = (new + "-" + "x" * 200)[:200]
        text = text.replace(old, json.dumps(new))
    with open(renamed, "w", encoding="utf-8") as f:
        f.write(text)
    subprocess.run([tcosim, "report", renamed, "--html", html], check=True, cwd=cwd)
    return name, html, renamed


def scenarios_to_check(scenarios_dir, names):
    out = []
    for entry in sorted(os.listdir(scenarios_dir)):
        name, ext = os.path.splitext(entry)
        if ext != ".json" or "grid" in name or (names and name not in names):
            continue
        path = os.path.join(scenarios_dir, entry)
        with open(path, encoding="utf-8") as f:
            if "shared/data" in f.read() and not os.path.isdir(SHARED_DATA):
                print(f"skipped {name}: it reads ../shared/data, which is absent")
                continue
        out.append((name, path))
    return out


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    tcosim, scenarios_dir, out_dir, rest = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    baselines_dir = None
    if rest[:1] == ["--baselines"]:
        if len(rest) < 2:
            print(__doc__)
            return 2
        baselines_dir, rest = rest[1], rest[2:]
    names = set(rest)
    if shutil.which("chromium") is None:
        print("skipped: chromium is not installed (scripts/install-deps.sh installs it)")
        return 77
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    pages = []
    for name, path in scenarios_to_check(scenarios_dir, names):
        started = time.monotonic()
        html, report = os.path.join(out_dir, name + ".html"), os.path.join(out_dir, name + ".json")
        baseline = os.path.join(baselines_dir, name + ".json") if baselines_dir else None
        if baseline and os.path.isfile(baseline):
            shutil.copyfile(baseline, report)
            subprocess.run([tcosim, "report", report, "--html", html], check=True, stdout=subprocess.DEVNULL)
            how = "from its baseline"
        else:
            subprocess.run([tcosim, "run", path, "--out", report, "--html", html, "--quiet"], check=True,
                           cwd=os.path.join(scenarios_dir, ".."))
            how = "run"
        pages.append((name, html, report))
        print(f"{name}: report ({how}) in {time.monotonic() - started:.1f} s")
        if name == SIZED_SCENARIO:
            pages.append(sized_page(tcosim, path, out_dir, cwd=os.path.join(scenarios_dir, "..")))
        if name == LONG_NAMES_SCENARIO:
            pages.append(long_names_page(tcosim, report, out_dir, cwd=os.path.join(scenarios_dir, "..")))
    if not pages:
        print("no scenario to check")
        return 1

    failures = 0
    browser = Chromium(os.path.join(out_dir, "chromium-profile"))
    try:
        for name, html, report_path in pages:
            browser.open(html)
            measured = browser.evaluate(MEASURE_JS)
            with open(report_path, encoding="utf-8") as f:
                report = json.load(f)
            problems = list(measured["problems"])
            problems += monte_carlo_problems(report, measured["rows"])
            for chart in measured["charts"]:
                if chart["width"] < measured["content_width"] - 1:
                    problems.append(f"{chart['title']}: {chart['width']:.0f} px wide, the content "
                                    f"{measured['content_width']:.0f} px")
            png = os.path.join(out_dir, name + ".png")
            browser.screenshot(png, measured["page_height"])
            texts = sum(c["texts"] for c in measured["charts"])
            shapes = sum(c["shapes"] for c in measured["charts"])
            print(f"{name}: {len(measured['charts'])} charts, {texts} labels, {shapes} shapes measured; "
                  f"screenshot {png}")
            for p in problems:
                print(f"FAIL {name}: {p}")
            failures += 1 if problems else 0
    finally:
        browser.close()
    print(f"{len(pages) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
