#!/usr/bin/env bash
# `make bench`: figures, not pass/fail. Render and cache benchmarks in-process; the sync
# engine against a dev server (100,000-event burst, then an idle connected minute); the
# idle dashboard's CPU over a minute. IDLE_SECONDS shortens both idle measurements.
set -euo pipefail
cd "$(dirname "$0")/.."
export LANG=C.UTF-8 LC_ALL=C.UTF-8
BIN=.build/release/makima-tui
[ -x "$BIN" ] || BIN=.build/debug/makima-tui
IDLE=${IDLE_SECONDS:-60}
WORK=$(mktemp -d)
trap 'kill "$SERVER" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT

echo "== in-process ($BIN)"
"$BIN" bench render cache

python3 devserver/server.py --host 127.0.0.1 --port 0 --db "$WORK/bench.db" --rate 0 --test-controls --quiet \
  >"$WORK/ready" 2>"$WORK/server.log" &
SERVER=$!
for _ in $(seq 100); do grep -q READY "$WORK/ready" 2>/dev/null && break; sleep 0.1; done
URL=$(awk '/READY/ {print $2}' "$WORK/ready")
[ -n "$URL" ] || { echo "bench: dev server did not start"; cat "$WORK/server.log"; exit 1; }

echo "== sync engine against the dev server ($URL)"
export MAKIMA_SERVER_URL="$URL" MAKIMA_API_KEY=mk_demo_local_key_0001
export XDG_CACHE_HOME="$WORK/cache" XDG_CONFIG_HOME="$WORK/config"
"$BIN" bench sync --events "${BURST_EVENTS:-100000}"
"$BIN" bench idle --seconds "$IDLE"

echo "== idle dashboard"
MAKIMA_BIN="$BIN" IDLE_SECONDS="$IDLE" scripts/idle_cpu.sh
