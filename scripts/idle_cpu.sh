#!/usr/bin/env bash
# Measures what an idle dashboard costs: starts it in a detached tmux (120x40), lets it sit
# for IDLE_SECONDS (default 60), and reports the CPU seconds (utime+stime from
# /proc/PID/stat) and the voluntary context switches (each one a sleep in poll) over that time.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${MAKIMA_BIN:-}
if [ -z "$BIN" ]; then
  if [ -x .build/release/makima-tui ]; then BIN=.build/release/makima-tui; else BIN=.build/debug/makima-tui; fi
fi
SECONDS_IDLE=${IDLE_SECONDS:-60}
T=(tmux -L makima-idle -f /dev/null)
trap '"${T[@]}" kill-server >/dev/null 2>&1 || true' EXIT
"${T[@]}" kill-server >/dev/null 2>&1 || true
"${T[@]}" new-session -d -s idle -x 120 -y 40 "env TERM=tmux-256color LANG=C.UTF-8 $BIN; sleep 600"

for _ in $(seq 100); do
  "${T[@]}" capture-pane -p -t idle | grep -q 'NAV//' && break
  sleep 0.1
done
shell_pid=$("${T[@]}" display-message -p -t idle '#{pane_pid}')
pid=$(pgrep -P "$shell_pid" -f makima-tui | head -n 1)
[ -n "$pid" ] || { echo "idle_cpu: the dashboard did not start" >&2; exit 1; }

ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
switches() { awk '/^voluntary_ctxt_switches/ {print $2}' "/proc/$pid/status"; }
hz=$(getconf CLK_TCK)
t0=$(ticks); s0=$(switches)
sleep "$SECONDS_IDLE"
t1=$(ticks); s1=$(switches)
cpu=$(awk -v a="$t0" -v b="$t1" -v hz="$hz" 'BEGIN { printf "%.3f", (b - a) / hz }')
echo "binary: $BIN"
echo "idle_seconds: $SECONDS_IDLE"
echo "cpu_seconds: $cpu"
echo "voluntary_context_switches: $((s1 - s0))"
