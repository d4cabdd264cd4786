# Shared by the tmux end-to-end scripts (sourced, not run). The caller defines `t` (its tmux
# command), TIMEOUT, and optionally SCREENS (a file every capture is appended to).
passed=0
failed=0

pass() { passed=$((passed + 1)); echo "ok   - $1"; }
fail() {
  failed=$((failed + 1))
  echo "FAIL - $1"
  if [ -n "${2:-}" ]; then echo "---- screen of $2 ----"; capture "$2" | sed 's/^/    /'; echo "----"; fi
}
expect() { local name=$1 target=$2; shift 2; if "$@"; then pass "$name"; else fail "$name" "$target"; fi; }

# capture TARGET [extra capture-pane flags]
capture() {
  local target=$1; shift
  if [ -n "${SCREENS:-}" ]; then t capture-pane -p "$@" -t "$target" 2>/dev/null | tee -a "$SCREENS"
  else t capture-pane -p "$@" -t "$target" 2>/dev/null; fi
}

# wait_for TARGET REGEX [capture flags]: true once the screen matches, false after TIMEOUT.
wait_for() {
  local target=$1 pattern=$2; shift 2
  local deadline=$((SECONDS + TIMEOUT))
  while [ $SECONDS -le $deadline ]; do
    if capture "$target" "$@" | grep -qE -- "$pattern"; then return 0; fi
    sleep 0.1
  done
  return 1
}

# wait_gone TARGET REGEX: true once the screen no longer matches.
wait_gone() {
  local target=$1 pattern=$2
  local deadline=$((SECONDS + TIMEOUT))
  while [ $SECONDS -le $deadline ]; do
    if ! capture "$target" | grep -qE -- "$pattern"; then return 0; fi
    sleep 0.1
  done
  return 1
}

# wait_until COMMAND...: true once the command succeeds, false after TIMEOUT.
wait_until() {
  local deadline=$((SECONDS + TIMEOUT))
  while [ $SECONDS -le $deadline ]; do "$@" && return 0; sleep 0.1; done
  return 1
}

# The dev server on an ephemeral loopback port, for scripts that set SCRATCH and KEY and
# declare SERVER_PID and URL: start_server fills both from the server's READY line. Extra
# arguments go to the server (`start_server --clock-skew -3600`).
start_server() {
  local ready="$SCRATCH/ready.txt"
  : >"$ready"
  python3 devserver/server.py --host 127.0.0.1 --port 0 --db "$SCRATCH/server.db" --rate 0 --seed 5 \
    --demo-key "$KEY" --test-controls "$@" >"$ready" 2>"$SCRATCH/server.log" &
  SERVER_PID=$!
  local deadline=$((SECONDS + 20))
  while [ $SECONDS -le $deadline ]; do
    URL=$(sed -n 's/^READY //p' "$ready")
    [ -n "$URL" ] && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "the dev server did not start:"; tail -n 20 "$SCRATCH/server.log"
  return 1
}

stop_server() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null
  fi
  SERVER_PID=""
}

# The dev server's controls and API (the caller sets URL and KEY), and a field of a JSON answer.
dev() { curl -fsS -X "$1" "$URL$2"; }
api() { curl -fsS -H "x-makima-api-key: $KEY" "$URL/api/v1$1"; }
json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
# quit TARGET: Q, then wait for the program's exit line. Quitting is final: the dashboard
# takes Q only typed alone, not within 0.3 s of other input (`BurstGuard`), so Q is sent
# after a pause, and again if a loaded machine delivered the input before it late.
quit() {
  local i
  for i in 1 2 3; do
    sleep 0.5
    t send-keys -t "$1" Q
    TIMEOUT=$((TIMEOUT / 3 + 1)) wait_for "$1" "EXITED:0" >/dev/null && return 0
  done
  return 1
}

# The closing line the test runner reads; the exit status follows it.
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; }
