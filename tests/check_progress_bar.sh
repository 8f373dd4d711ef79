#!/usr/bin/env bash
# The progress bar as a person sees it: `tcosim run SCENARIO --paths 1000` in a tmux pane (a real
# terminal), the pane must show the bar (done/total paths) within 10 s; the same command
# with standard error redirected to a file must leave no bar in it (no carriage return, no
# "paths/s"). The pane's text is kept in the output folder.
# Usage: check_progress_bar.sh TCOSIM SCENARIO OUTPUT_DIR
set -euo pipefail
tcosim=$(realpath "$1") scenario=$(realpath "$2") out=$3
if ! command -v tmux >/dev/null; then
  echo "skipped: tmux is not installed (scripts/install-deps.sh installs it)"
  exit 77
fi
rm -rf "$out" && mkdir -p "$out"
out=$(realpath "$out")
session="tcosim-progress-$$"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# A private tmux server (-L), so the test never touches a user's sessions.
tmux -L "$session" new-session -d -s "$session" -x 120 -y 20 \
  "'$tcosim' run '$scenario' --paths 1000 --out '$out/report.json'; sleep 60"
# The bar shows within 2 s on an idle machine; under a parallel ctest on 2 cores the run may
# start later, so the pane is read every half second for up to 10 s.
bar='\] +[0-9]+%  [0-9]+/1000 paths  .* paths/s  ETA '
waited_s=0
for _ in $(seq 20); do
  sleep 0.5
  waited_s=$(awk "BEGIN { print $waited_s + 0.5 }")
  tmux -L "$session" capture-pane -p -t "$session" > "$out/pane.txt"
  grep -Eq "$bar" "$out/pane.txt" && break
done
tmux -L "$session" kill-server || true
echo "pane after $waited_s s:"
cat "$out/pane.txt"
grep -Eq "$bar" "$out/pane.txt" || fail "no progress bar (N/1000 paths, rate, ETA) in the pane within 10 s"

# Redirected: standard error holds messages only. Fewer paths, so that it runs to the end.
"$tcosim" run "$scenario" --paths 40 --out "$out/redirected.json" > "$out/stdout.txt" 2> "$out/stderr.txt"
if grep -q $'\r' "$out/stderr.txt" || grep -q 'paths/s' "$out/stderr.txt"; then
  fail "a progress bar was written to a redirected standard error"
fi
grep -q "wrote: $out/redirected.json" "$out/stdout.txt" || fail "the answer does not name the report it wrote"

[ "$failures" -eq 0 ] && echo "ok: the bar shows on a terminal (after $waited_s s), and never in a redirected stderr"
exit $((failures > 0))
