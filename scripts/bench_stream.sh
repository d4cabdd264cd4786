#!/usr/bin/env bash
# `make bench`'s sustained-stream rows (also `make bench-stream` alone): the dev server streams
# RATE task.output events a second for a while, each a piece of 1-40 characters cut anywhere
# from text with no blank line, across 20 tasks; the dashboard (a real one, in a 200x50 tmux
# window, with a fresh cache) and a bare aiohttp client (scripts/bench_stream_client.py) are
# subscribed to the same stream at the same time, and both processes' CPU (utime + stime from
# /proc/PID/stat) and the dashboard's bytes written (/proc/PID/io: write_bytes is what reached
# the disk's page cache, cache and WAL and checkpoints; wchar every write call, the terminal's
# included) are read over the same window; then a `:grep` makes every event that arrived
# searchable (its lines and index written), and the bytes written to its answer are read
# again (searchable_write_bytes_per_event). Writes `key value` lines to RESULTS.
# Knobs: STREAM_SECONDS (30; 0 skips the short rows), STREAM_ROUNDS (3: rounds of the short rows,
# the table gives their medians), STREAM_LONG_SECONDS (120; 0 skips the long task-view run),
# STREAM_ONLY (one row's name, e.g. k1000_task), PERF_DIR (a `perf record -g` of the dashboard
# over each window, written to PERF_DIR/NAME.data).
set -euo pipefail
cd "$(dirname "$0")/.."
export LANG=C.UTF-8 LC_ALL=C.UTF-8
RESULTS=${1:?usage: bench_stream.sh RESULTS}
BIN=${MAKIMA_BIN:-.build/release/makima-tui}
[ -x "$BIN" ] || { echo "bench-stream: build $BIN first (make release)"; exit 1; }
SECONDS_SHORT=${STREAM_SECONDS:-30}
SECONDS_LONG=${STREAM_LONG_SECONDS:-120}
ROUNDS=${STREAM_ROUNDS:-3}
KEY=mk_demo_local_key_0001
WORK=$(mktemp -d)
SERVER="" CLIENT=""
. scripts/bench_tmux.sh
cleanup() {
  [ -n "$CLIENT" ] && kill "$CLIENT" 2>/dev/null || true
  [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null || true
  bench_tmux_kill_server
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
figure() { echo "$1 $2" >>"$RESULTS"; }

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# --output-pieces 0: the stream cuts its own pieces; the simulation is off (--rate 0).
python3 devserver/server.py --host 127.0.0.1 --port "$PORT" --db "$WORK/stream.db" --rate 0 --test-controls --quiet \
  --output-pieces 0 >"$WORK/ready" 2>>"$WORK/server.log" &
SERVER=$!
for _ in $(seq 200); do grep -q READY "$WORK/ready" 2>/dev/null && break; sleep 0.05; done
grep -q READY "$WORK/ready" || { echo "bench-stream: dev server did not start"; cat "$WORK/server.log"; exit 1; }
URL=http://127.0.0.1:$PORT

ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
io() { awk -v k="$2:" '$1 == k {print $2}' "/proc/$1/io"; }
rss_kb() { awk '$1 == "VmRSS:" {print $2}' "/proc/$1/status"; }
cpu_s() { awk -v a="$1" -v b="$2" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", (b - a) / hz }'; }

# stream_run NAME RATE SECONDS home|task_view: one measured window; figures stream.NAME.*.
stream_run() {
  [ -z "${STREAM_ONLY:-}" ] || [ "$STREAM_ONLY" = "$1" ] || return 0
  local name=$1 rate=$2 secs=$3 shown=$4 prepared id first target dash client
  prepared=$(curl -sf -X POST "$URL/_dev/stream_prepare?rate=$rate&seconds=$secs&tasks=20&shape=log")
  read -r id first < <(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["stream_id"], d["task_ids"][0])' <<<"$prepared")
  target=""
  [ "$shown" = task_view ] && target="makima://task/$first"
  python3 scripts/bench_stream_client.py "$URL" "$KEY" >/dev/null 2>"$WORK/client.err" &
  CLIENT=$!
  bench_tmux_start "$name" "XDG_CACHE_HOME=$WORK/cache-$name XDG_CONFIG_HOME=$WORK/config MAKIMA_SERVER_URL=$URL" \
    "MAKIMA_API_KEY=$KEY $BIN $target"
  for _ in $(seq 200); do grep -q READY "$WORK/client.err" 2>/dev/null && break; sleep 0.05; done
  sleep 4  # the dashboard connected, its first lists read
  dash=$(bench_tmux_pid "$name" "$(basename "$BIN")" || true)
  client=$CLIENT
  [ -n "$dash" ] || { echo "bench-stream: the dashboard did not start"; exit 1; }
  local d0 c0 w0 x0 d10 dl dlend dend cend w1 x1
  d0=$(ticks "$dash"); c0=$(ticks "$client"); w0=$(io "$dash" write_bytes); x0=$(io "$dash" wchar)
  local perf=""
  if [ -n "${PERF_DIR:-}" ]; then
    perf record -q -g -p "$dash" -o "$PERF_DIR/$name.data" >/dev/null 2>&1 &
    perf=$!
  fi
  curl -sf -X POST "$URL/_dev/stream_start?stream_id=$id" >/dev/null
  sleep 10
  d10=$(ticks "$dash")
  # A run of a minute or more is also read in 30-s windows, each holding one of the cache's
  # catch-ups (every 30 s): a 10-s window holds one or none, by the phase alone.
  local d30="" dl30=""
  if [ "$secs" -ge 60 ]; then
    sleep 20
    d30=$(ticks "$dash")
    sleep $((secs - 60))
    dl30=$(ticks "$dash")
    sleep 20
  else
    sleep $((secs - 20))
  fi
  # The last 10 s of the stream, as long as the first: what is done for them after the
  # stream ends (the last batch, the last frame) counts in the totals below, as what is done
  # for the first 10 s after them counts in the next window.
  dl=$(ticks "$dash")
  sleep 10
  dlend=$(ticks "$dash")
  until curl -sf "$URL/_dev/stream?stream_id=$id" | grep -q '"done": *true'; do sleep 0.2; done
  sleep 2  # the last batch written, the last frame drawn
  dend=$(ticks "$dash"); cend=$(ticks "$client"); w1=$(io "$dash" write_bytes); x1=$(io "$dash" wchar)
  if [ -n "$perf" ]; then kill -INT "$perf" 2>/dev/null || true; wait "$perf" 2>/dev/null || true; fi
  figure "stream.$name.events" $((rate * secs))
  figure "stream.$name.dashboard_cpu_s" "$(cpu_s "$d0" "$dend")"
  figure "stream.$name.client_cpu_s" "$(cpu_s "$c0" "$cend")"
  figure "stream.$name.first10_cpu_s" "$(cpu_s "$d0" "$d10")"
  figure "stream.$name.last10_cpu_s" "$(cpu_s "$dl" "$dlend")"
  if [ -n "$d30" ]; then
    figure "stream.$name.first30_cpu_s" "$(cpu_s "$d0" "$d30")"
    figure "stream.$name.last30_cpu_s" "$(cpu_s "$dl30" "$dlend")"
  fi
  # The ratio of this round's two processes over the same window: the table takes the
  # median of the rounds' ratios (either process's own figure moves with the machine's
  # state between rounds, by up to 2x here; the two in one window move together).
  [ "$cend" -gt "$c0" ] && figure "stream.$name.ratio" "$(awk -v a="$d0" -v b="$dend" -v c="$c0" -v d="$cend" \
    'BEGIN { printf "%.3f", (b - a) / (d - c) }')"
  figure "stream.$name.write_bytes_per_event" $(((w1 - w0) / (rate * secs)))
  figure "stream.$name.wchar_per_event" $(((x1 - x0) / (rate * secs)))
  figure "stream.$name.rss_mb" "$(awk -v k="$(rss_kb "$dash")" 'BEGIN { printf "%.1f", k / 1024 }')"
  # The cache assembles lines and indexes them at a catch-up every 30 s (and before a
  # search): what the window's last catch-up left is written after it. A search makes every
  # event that arrived searchable; the bytes to its answer count all of it.
  "${BENCH_TMUX[@]}" send-keys -t "$name" Escape ':grep Compiling' Enter
  for _ in $(seq 300); do
    "${BENCH_TMUX[@]}" capture-pane -p -t "$name" 2>/dev/null | grep -q 'Enter opens' && break
    sleep 0.1
  done
  sleep 1
  figure "stream.$name.searchable_write_bytes_per_event" $((($(io "$dash" write_bytes) - w0) / (rate * secs)))
  bench_tmux_stop "$name"
  kill "$CLIENT" 2>/dev/null || true
  wait "$CLIENT" 2>/dev/null || true
  CLIENT=""
}

echo "bench: sustained stream, $ROUNDS rounds of ${SECONDS_SHORT}s at 1,000 and 100 events/s, Home and the task view, beside a bare client" >&2
if [ "$SECONDS_SHORT" -gt 0 ]; then
  for _ in $(seq "$ROUNDS"); do
    stream_run k1000_home 1000 "$SECONDS_SHORT" home
    stream_run k1000_task 1000 "$SECONDS_SHORT" task_view
    stream_run k100_home 100 "$SECONDS_SHORT" home
  done
fi
if [ "$SECONDS_LONG" -gt 0 ]; then
  echo "bench: sustained stream, ${SECONDS_LONG}s at 1,000 events/s on the task view (first and last 10 s)" >&2
  stream_run long_task 1000 "$SECONDS_LONG" task_view
fi
