#!/usr/bin/env bash
# Helpers for the bench's terminal measurements, sourced by bench.sh: a private tmux server
# (its own socket per run), a program started in a 200x50 window, its PID, and the time from
# starting it to a text appearing on its screen.
BENCH_TMUX=(tmux -L "makima-bench-$$" -f /dev/null)

bench_tmux_start() {  # name command...
  local name=$1; shift
  "${BENCH_TMUX[@]}" new-session -d -s "$name" -x 200 -y 50 "env TERM=tmux-256color LANG=C.UTF-8 $*; sleep 600"
}

bench_tmux_pid() {  # name program-name
  local shell_pid
  shell_pid=$("${BENCH_TMUX[@]}" display-message -p -t "$1" '#{pane_pid}')
  pgrep -P "$shell_pid" -f "$2" | head -n 1
}

bench_tmux_stop() { "${BENCH_TMUX[@]}" kill-session -t "$1" >/dev/null 2>&1 || true; }
bench_tmux_kill_server() { "${BENCH_TMUX[@]}" kill-server >/dev/null 2>&1 || true; }

# Milliseconds from starting `command` in a fresh window until `text` is on its screen
# (polled every few ms; the poll adds a few ms to every figure alike).
bench_time_to_text() {  # text command...
  local text=$1; shift
  local t0 t1
  t0=$(date +%s%N)
  bench_tmux_start ttt "$@"
  for _ in $(seq 3000); do
    "${BENCH_TMUX[@]}" capture-pane -p -t ttt 2>/dev/null | grep -qF -- "$text" && break
    sleep 0.002
  done
  t1=$(date +%s%N)
  bench_tmux_stop ttt
  echo $(((t1 - t0) / 1000000))
}

# The dashboard's own start-up figures (StartupReport, docs/performance.md): started in a
# fresh window through bash, which stamps MAKIMA_EXEC_REALTIME ($EPOCHREALTIME, µs) just
# before exec; the program writes `key value` lines to the report file once its first
# frame is flushed. Prints those lines (none if it never drew).
bench_startup_report() {  # report-file command...
  local report=$1; shift
  rm -f "$report"
  bench_tmux_start sur "MAKIMA_STARTUP_REPORT=$report bash -c 'MAKIMA_EXEC_REALTIME=\$EPOCHREALTIME exec \"\$@\"' bench $*"
  for _ in $(seq 2000); do [ -s "$report" ] && break; sleep 0.005; done
  bench_tmux_stop sur
  cat "$report" 2>/dev/null || true
}

# CPU seconds (utime+stime) of a PID over a number of seconds already waited: call with the
# ticks taken before.
bench_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# Milliseconds from starting `command` in a fresh window until every one of `texts` (a
# "|"-separated list) is on its screen; the window then stays open `linger` seconds (so the
# program can finish writing its cache) before it is closed. Prints -1 when the texts never
# all showed (within about 60 s).
bench_time_to_texts() {  # texts linger command...
  local texts=$1 linger=$2; shift 2
  local t0 t1 screen missing text
  t0=$(date +%s%N)
  bench_tmux_start ttt "$@"
  t1=""
  for _ in $(seq 12000); do
    screen=$("${BENCH_TMUX[@]}" capture-pane -p -t ttt 2>/dev/null)
    missing=0
    IFS='|' read -ra wanted <<<"$texts"
    for text in "${wanted[@]}"; do grep -qF -- "$text" <<<"$screen" || { missing=1; break; }; done
    if [ "$missing" = 0 ]; then t1=$(date +%s%N); break; fi
    sleep 0.002
  done
  sleep "$linger"
  bench_tmux_stop ttt
  if [ -z "$t1" ]; then echo -1; else echo $(((t1 - t0) / 1000000)); fi
}

# CPU seconds of the dashboard with a pane opened by `key` (Daemons: ages tick once a second
# while they are seconds old, then once a minute) and of htop, over the same `seconds`; prints
# "dashboard htop" with three decimals. The server must be up (MAKIMA_SERVER_URL, key).
bench_idle_pane() {  # key seconds binary
  local key=$1 seconds=$2 bin=$3 dash htop_pid d0 d1 h0 h1 hz
  bench_tmux_start idle-pane "$bin"
  bench_tmux_start idle-pane-htop htop
  sleep 3
  "${BENCH_TMUX[@]}" send-keys -t idle-pane "$key"
  sleep 1
  dash=$(bench_tmux_pid idle-pane makima-tui)
  htop_pid=$(bench_tmux_pid idle-pane-htop htop)
  if [ -z "$dash" ] || [ -z "$htop_pid" ]; then
    bench_tmux_stop idle-pane; bench_tmux_stop idle-pane-htop
    return 1
  fi
  d0=$(bench_ticks "$dash"); h0=$(bench_ticks "$htop_pid")
  sleep "$seconds"
  d1=$(bench_ticks "$dash"); h1=$(bench_ticks "$htop_pid")
  hz=$(getconf CLK_TCK)
  bench_tmux_stop idle-pane
  bench_tmux_stop idle-pane-htop
  awk -v a="$d0" -v b="$d1" -v c="$h0" -v d="$h1" -v hz="$hz" 'BEGIN { printf "%.3f %.3f\n", (b - a) / hz, (d - c) / hz }'
}
