#!/usr/bin/env bash
# `make demo`: starts the dev server on 127.0.0.1:PORT with a live simulated mesh, runs the
# dashboard against it in this terminal, and stops the server when the dashboard exits.
# Usage: scripts/demo.sh PORT KEY
set -uo pipefail
cd "$(dirname "$0")/.."

PORT="${1:-8787}"
KEY="${2:-mk_demo_local_key_0001}"
BIN=.build/debug/makima-tui
STATE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/makima-tui"
DB="$STATE_DIR/demo-server.db"
LOG="$STATE_DIR/demo-server.log"

if [ ! -x "$BIN" ]; then
  echo "demo: $BIN is missing; build it first (make build)" >&2
  exit 1
fi
mkdir -p "$STATE_DIR"
READY_FILE="$(mktemp "${TMPDIR:-/tmp}/makima-demo-ready.XXXXXX")"

# --reset-key: the key given here always works, even after a key rotation in an earlier demo.
python3 devserver/server.py --host 127.0.0.1 --port "$PORT" --db "$DB" --rate 3 --seed 1 \
  --demo-key "$KEY" --reset-key >"$READY_FILE" 2>"$LOG" &
SERVER_PID=$!

cleanup() {
  if kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null
  fi
  rm -f "$READY_FILE"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# Wait up to 20 s for READY; a server that exits early says why in its log.
for _ in $(seq 1 200); do
  grep -q '^READY ' "$READY_FILE" && break
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    if grep -q 'already in use' "$LOG"; then
      echo "demo: port $PORT on 127.0.0.1 is already in use (another dev server or demo running?)." >&2
      echo "demo: stop that process, or pick another port: make demo DEMO_PORT=8788" >&2
    else
      echo "demo: the dev server failed to start; its log ($LOG) ends with:" >&2
      tail -n 15 "$LOG" >&2
    fi
    exit 1
  fi
  sleep 0.1
done
if ! grep -q '^READY ' "$READY_FILE"; then
  echo "demo: the dev server did not become ready within 20 s; see $LOG" >&2
  exit 1
fi

status=0
MAKIMA_SERVER_URL="http://127.0.0.1:$PORT" MAKIMA_API_KEY="$KEY" "$BIN" || status=$?
exit "$status"
