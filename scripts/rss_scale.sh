#!/usr/bin/env bash
# The dashboard's memory on a large mesh, measured on the real binary against the dev server:
# `--seed-scale TASKS,DAEMONS` (default 100000,2000), the Tasks pane shown until every task
# has arrived (its title reads `ALL · N tasks`), then Daemons and Home; prints the resident
# set (VmRSS) and its peak (VmHWM) from /proc, and the cache file's size. Not part of
# `make test` (seeding and reading 100,000 tasks takes minutes); `make bench` does not run it
# either. Usage: scripts/rss_scale.sh [TASKS,DAEMONS] (MAKIMA_BIN picks the binary; release
# by default).
set -uo pipefail
cd "$(dirname "$0")/.."
export LANG=C.UTF-8
SCALE=${1:-100000,2000}
TASKS=${SCALE%,*}
export MAKIMA_BIN=${MAKIMA_BIN:-.build/release/makima-tui}
E2E_COLS=160 E2E_ROWS=40
# shellcheck source=../Tests/e2e/lib/session.bash
source "Tests/e2e/lib/session.bash"
e2e_setup rss_scale
start_server --seed-scale "$SCALE" || { echo "the dev server did not start"; exit 1; }
start dash
TIMEOUT=120 wait_for dash "3 TASKS//" >/dev/null || { echo "the dashboard did not start"; exit 1; }
pid=$(pgrep -n -f "^$MAKIMA_BIN" || true)
t send-keys -t dash 3
started=$(date +%s)
TIMEOUT=900 wait_for dash "ALL · $TASKS tasks" >/dev/null || { echo "the Tasks pane never held $TASKS tasks"; exit 1; }
loaded=$(( $(date +%s) - started ))
t send-keys -t dash 5; sleep 3; t send-keys -t dash 1; sleep 3
status=/proc/$pid/status
printf 'mesh: %s tasks / %s daemons; all tasks in the Tasks pane after %s s\n' "$TASKS" "${SCALE#*,}" "$loaded"
printf 'dashboard RSS: %s MB now, %s MB peak\n' \
  "$(awk '/VmRSS/ {printf "%.1f", $2/1024}' "$status")" "$(awk '/VmHWM/ {printf "%.1f", $2/1024}' "$status")"
printf 'cache file: %s MB\n' "$(du -cm "$SCRATCH"/cache/makima-tui/*/cache.sqlite* 2>/dev/null | tail -1 | cut -f1)"
if command -v sqlite3 >/dev/null; then
  db=$(ls "$SCRATCH"/cache/makima-tui/*/cache.sqlite | head -n 1)
  echo "largest tables and indexes (MB):"
  sqlite3 "file:$db?mode=ro" "SELECT name, round(sum(pgsize) / 1048576.0, 1) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 8" 2>/dev/null | sed 's/^/  /'
fi
quit dash
