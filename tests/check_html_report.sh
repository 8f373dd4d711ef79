#!/usr/bin/env bash
# The HTML report as a person sees it: written by `tcosim run --html`, opened in headless
# Chromium (Debian's chromium package; scripts/install-deps.sh installs it). Checks that the
# page loads nothing from the network, that its SVG charts are in the rendered page, that the
# browser logs no console message (the page has no script, so any message is an error, e.g. a
# blocked load), and leaves a screenshot in the output folder.
# Usage: check_html_report.sh TCOSIM SCENARIO OUTPUT_DIR
set -euo pipefail
tcosim=$1 scenario=$2 out=$3
if ! command -v chromium >/dev/null; then
  echo "skipped: chromium is not installed (scripts/install-deps.sh installs it)"
  exit 77
fi
rm -rf "$out" && mkdir -p "$out"
"$tcosim" run "$scenario" --out "$out/report.json" --html "$out/report.html" --quiet
html="$out/report.html"
url="file://$(realpath "$html")"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Nothing that can load a resource: no src/href attributes, no CSS url() or @import, and a
# Content-Security-Policy that forbids every load but inline styles.
if grep -Eio '(src|href) *=|url\(|@import' "$html"; then fail "the page references an external resource"; fi
grep -q "default-src 'none'" "$html" || fail "the page has no restrictive Content-Security-Policy"
svgs=$(grep -o '<svg ' "$html" | wc -l)
[ "$svgs" -ge 1 ] || fail "no SVG chart in the page"

flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --user-data-dir="$out/chromium-profile"
       --enable-logging=stderr --v=0)
timeout 120 chromium "${flags[@]}" --dump-dom "$url" >"$out/dom.html" 2>"$out/chromium.log" || fail "chromium could not render the page"
rendered=$(grep -o '<svg ' "$out/dom.html" | wc -l)
[ "$rendered" -eq "$svgs" ] || fail "the rendered page has $rendered SVG charts, the file $svgs"
if grep -E 'CONSOLE|Uncaught|Refused to' "$out/chromium.log"; then fail "the browser console reported the lines above"; fi
timeout 120 chromium "${flags[@]}" --window-size=1100,3200 --screenshot="$out/report.png" "$url" >/dev/null 2>>"$out/chromium.log" ||
  fail "chromium could not take a screenshot"
[ -s "$out/report.png" ] || fail "no screenshot"
echo "html report: $svgs SVG charts, screenshot $out/report.png"
if [ "$failures" -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; exit 1; fi
