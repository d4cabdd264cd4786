#!/usr/bin/env bash
# `make bench`: every figure beside a baseline measured in the same run, median of several
# rounds, printed as one table (scripts/bench_table.py). Takes several minutes; not part of
# `make test`. Knobs: BENCH_ROUNDS (5), BURST_EVENTS (100000), MEMORY_EVENTS (1000000),
# IDLE_SECONDS (60), GREP_LINES (1000000), BASE_BIN (an older build to put beside this one in the
# ingest rows), SCALE_TASKS (10000) and SCALE_DAEMONS (500) for the scale rows, BIG_SCALE_TASKS
# (100000) and BIG_SCALE_DAEMONS (5000) for the large-mesh rows.
set -euo pipefail
cd "$(dirname "$0")/.."
export LANG=C.UTF-8 LC_ALL=C.UTF-8
scripts/bench_setup.sh
BIN=${MAKIMA_BIN:-.build/release/makima-tui}
[ -x "$BIN" ] || { echo "bench: build $BIN first (make release)"; exit 1; }
ROUNDS=${BENCH_ROUNDS:-5}
EVENTS=${BURST_EVENTS:-100000}
MEMORY_EVENTS=${MEMORY_EVENTS:-1000000}
IDLE=${IDLE_SECONDS:-60}
KEY=mk_demo_local_key_0001
WORK=$(mktemp -d)
R=$WORK/results
SERVER=""
. scripts/bench_tmux.sh
cleanup() {
  [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null || true
  bench_tmux_kill_server
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
figure() { echo "$1 $2" >>"$R"; }  # key value
value() { awk -v k="$1" '$1 == k {print $2}' "$2"; }
# figures NAME KIND KEY...: each KEY of what `bench KIND` wrote to $WORK/NAME, as the figure NAME.KEY.
figures() {
  local name=$1 kind=$2 k
  shift 2
  for k in "$@"; do figure "$name.$k" "$(value "$kind.$k" "$WORK/$name")"; done
}

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# --output-pieces 0: the ingest and burst rows count events against baselines (docs/performance.md)
# measured on whole texts of 40-400 bytes; their subject is events per second, not how a
# stream is cut, so they keep one event a text.
start_server() {
  python3 devserver/server.py --host 127.0.0.1 --port "$PORT" --db "$WORK/bench.db" --rate 0 --test-controls --quiet \
    --output-pieces 0 \
    >"$WORK/ready" 2>>"$WORK/server.log" &
  SERVER=$!
  for _ in $(seq 200); do grep -q READY "$WORK/ready" 2>/dev/null && return; sleep 0.05; done
  echo "bench: dev server did not start"; cat "$WORK/server.log"; exit 1
}
start_server
URL=http://127.0.0.1:$PORT
export MAKIMA_SERVER_URL="$URL" MAKIMA_API_KEY=$KEY
export XDG_CACHE_HOME="$WORK/cache" XDG_CONFIG_HOME="$WORK/config"

echo "bench: ingest, $ROUNDS rounds of $EVENTS events (bare aiohttp client, engine, engine with Home open, engine with the task view open)" >&2
for r in $(seq "$ROUNDS"); do
  python3 scripts/bench_ws_client.py "$URL" "$KEY" "$EVENTS" 1 2>"$WORK/py" >/dev/null
  figure ingest.python_s "$(value seconds "$WORK/py")"
  figure ingest.python_cpu_s "$(value cpu_seconds "$WORK/py")"
  "$BIN" bench ingest --events "$EVENTS" >"$WORK/engine"
  figure ingest.engine_stores_s "$(value ingest.seconds_to_stores "$WORK/engine")"
  figure ingest.engine_cache_s "$(value ingest.seconds_to_cache "$WORK/engine")"
  figure ingest.engine_cpu_s "$(value ingest.cpu_seconds "$WORK/engine")"
  figure ingest.lines_indexed "$(value ingest.lines_indexed "$WORK/engine")"
  # The same burst with Home on screen, then with the first task's output view: engine + UI
  # thread; Home open is the task view's baseline.
  for shown in home task_view; do
    "$BIN" bench ingest --events "$EVENTS" "--${shown/_/-}" >"$WORK/engine_$shown"
    figure "ingest.${shown}_stores_s" "$(value ingest.seconds_to_stores "$WORK/engine_$shown")"
    figure "ingest.${shown}_cpu_s" "$(value ingest.cpu_seconds "$WORK/engine_$shown")"
    figure "ingest.${shown}_frames" "$(value ingest.frames "$WORK/engine_$shown")"
  done
  if [ -n "${BASE_BIN:-}" ]; then
    "$BASE_BIN" bench ingest --events "$EVENTS" >"$WORK/base"
    figure ingest.base_cache_s "$(value ingest.seconds_to_cache "$WORK/base")"
    figure ingest.base_cpu_s "$(value ingest.cpu_seconds "$WORK/base")"
    figure ingest.base_lines_indexed "$(value ingest.lines_indexed "$WORK/base")"
  fi
done

echo "bench: render" >&2
figure render.load_average "$(cut -d' ' -f1 /proc/loadavg)"
"$BIN" bench render >"$WORK/render"
figure render.home_p50_ms "$(value render.home_frame_200x50_p50_ms "$WORK/render")"
figure render.home_p99_ms "$(value render.home_frame_200x50_p99_ms "$WORK/render")"
# Beside each Home frame's wall-clock figures, the thread's CPU time (the work, whatever the load).
for k in cpu_p50 cpu_p99; do figure "render.home_${k}_ms" "$(value "render.home_frame_200x50_${k}_ms" "$WORK/render")"; done
for k in p50 p99 cpu_p50 cpu_p99; do
  figure "render.home_live_${k}_ms" "$(value "render.home_live_frame_200x50_${k}_ms" "$WORK/render")"
done
figure render.task_p50_ms "$(value render.task_view_frame_200x50_p50_ms "$WORK/render")"
figure render.task_p99_ms "$(value render.task_view_frame_200x50_p99_ms "$WORK/render")"
for k in cpu_p50 cpu_p99; do figure "render.task_${k}_ms" "$(value "render.task_view_frame_200x50_${k}_ms" "$WORK/render")"; done

echo "bench: a burst of $EVENTS events into the UI thread, task view open vs Home open, $ROUNDS rounds" >&2
for r in $(seq "$ROUNDS"); do
  "$BIN" bench task-ingest --events "$EVENTS" >"$WORK/task_ingest"
  for k in home_ms task_view_ms task_view_over_home_pct frames; do
    figure "task_ingest.$k" "$(value "task_ingest.ingest_100k_$k" "$WORK/task_ingest")"
  done
done

GREP_LINES=${GREP_LINES:-1000000}
echo "bench: grep over $GREP_LINES cached lines (FTS5 index), a LIKE scan of the same cache beside it" >&2
"$BIN" bench grep --lines "$GREP_LINES" >"$WORK/grep"
figures grep grep lines fill_seconds db_bytes rare_ms rare_hits common_ms short_ms like_rare_ms

echo "bench: memory, $MEMORY_EVENTS events across 50 tasks" >&2
"$BIN" bench memory --events "$MEMORY_EVENTS" --tasks 50 >"$WORK/memory"
figures memory memory events rss_start_mb rss_half_mb rss_end_mb growth_second_half_pct cache_file_mb output_buffers_held

echo "bench: idle, ${IDLE}s: dashboard, connected engine and htop over the same minute" >&2
bench_tmux_start idle-dash "$BIN"
bench_tmux_start idle-htop htop
sleep 3
dash=$(bench_tmux_pid idle-dash makima-tui)
htop_pid=$(bench_tmux_pid idle-htop htop)
[ -n "$dash" ] && [ -n "$htop_pid" ] || { echo "bench: idle programs did not start"; exit 1; }
d0=$(bench_ticks "$dash"); h0=$(bench_ticks "$htop_pid")
"$BIN" bench idle --seconds "$IDLE" >"$WORK/idle"
d1=$(bench_ticks "$dash"); h1=$(bench_ticks "$htop_pid")
hz=$(getconf CLK_TCK)
figure idle.dashboard_cpu_s "$(awk -v a="$d0" -v b="$d1" -v hz="$hz" 'BEGIN { printf "%.3f", (b - a) / hz }')"
figure idle.htop_cpu_s "$(awk -v a="$h0" -v b="$h1" -v hz="$hz" 'BEGIN { printf "%.3f", (b - a) / hz }')"
figure idle.engine_cpu_s "$(value idle.cpu_seconds "$WORK/idle")"
figure idle.seconds "$IDLE"
bench_tmux_stop idle-dash
bench_tmux_stop idle-htop

echo "bench: idle, ${IDLE}s: dashboard with Daemons open (heartbeat ages ticking, polled every 30 s) and htop" >&2
dmn=$(bench_idle_pane 5 "$IDLE" "$BIN") || { echo "bench: idle Daemons did not start"; exit 1; }
read -r dmn_cpu dmn_htop <<<"$dmn"
figure idle.daemons_cpu_s "$dmn_cpu"
figure idle.daemons_htop_cpu_s "$dmn_htop"

echo "bench: start-up to the first full frame, $ROUNDS rounds each" >&2
# The first run fills the cache; later ones start from it.
bench_time_to_text "NAV//" "$BIN" >/dev/null
# startup_report STATE: the dashboard's own figures (StartupReport), keys prefixed by STATE.
startup_report() {
  bench_startup_report "$WORK/startup-report" "$BIN" | while read -r k v; do echo "$k.$1 $v"; done >>"$R"
}
for r in $(seq "$ROUNDS"); do
  figure startup.up_ms "$(bench_time_to_text "NAV//" "$BIN")"
  figure startup.htop_ms "$(bench_time_to_text "Load average" htop)"
  startup_report up
done
kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=""
for r in $(seq "$ROUNDS"); do
  figure startup.down_ms "$(bench_time_to_text "NAV//" "$BIN")"
  startup_report down
done
figure startup.load_average "$(cut -d' ' -f1 /proc/loadavg)"

SCALE_TASKS=${SCALE_TASKS:-10000}
SCALE_DAEMONS=${SCALE_DAEMONS:-500}
echo "bench: scale, $SCALE_TASKS tasks / $SCALE_DAEMONS daemons: filter keystrokes on Tasks" >&2
"$BIN" bench scale --tasks "$SCALE_TASKS" --daemons "$SCALE_DAEMONS" >"$WORK/scale"
SCALE_KEYS="keystroke_200x50_median_ms keystroke_200x50_p99_ms keystroke_200x50_wall_p99_ms store_change_ms
  store_change_p99_ms base_store_change_ms tasks_first_frame_ms"
# shellcheck disable=SC2086 # one key a word
figures scale scale $SCALE_KEYS
# The large mesh of the targets, beside the builder it replaced (measured in the same process).
BIG_TASKS=${BIG_SCALE_TASKS:-100000}
BIG_DAEMONS=${BIG_SCALE_DAEMONS:-5000}
echo "bench: scale, $BIG_TASKS tasks / $BIG_DAEMONS daemons: a store change and filter keystrokes on Tasks" >&2
"$BIN" bench scale --tasks "$BIG_TASKS" --daemons "$BIG_DAEMONS" >"$WORK/scale_big"
# shellcheck disable=SC2086 # one key a word
figures scale_big scale $SCALE_KEYS tasks
# Memory and Home from the cache at the issue's mesh: 100,000 tasks and 2,000 daemons seen.
echo "bench: scale, $BIG_TASKS tasks / 2000 daemons: RSS and Home from the cache, in process" >&2
"$BIN" bench scale --tasks "$BIG_TASKS" --daemons 2000 >"$WORK/scale_rss"
figures scale_rss scale rss_mb base_rss_mb home_from_cache_ms home_cache_open_ms cache_mb tasks daemons
echo "bench: scale, the first Home frame with that mesh, $ROUNDS rounds from an empty cache and from a filled one" >&2
python3 devserver/server.py --host 127.0.0.1 --port "$PORT" --db "$WORK/scale.db" --rate 0 --test-controls --quiet \
  --seed-scale "$SCALE_TASKS,$SCALE_DAEMONS" >"$WORK/ready-scale" 2>>"$WORK/server.log" &
SERVER=$!
for _ in $(seq 1200); do grep -q READY "$WORK/ready-scale" 2>/dev/null && break; sleep 0.05; done
grep -q READY "$WORK/ready-scale" || { echo "bench: scale dev server did not start"; cat "$WORK/server.log"; exit 1; }
# Home is full once its counts are the server's: they need every page of the running list.
read -r online running < <(curl -s "$URL/_dev/seeded" | python3 -c \
  'import json, sys; d = json.load(sys.stdin); print(d["daemons_online"], d["running_tasks"])')
full="$online ONLINE|$running RUNNING"
figure scale.running_tasks "$running"
for r in $(seq "$ROUNDS"); do
  figure scale.home_empty_ms "$(bench_time_to_texts "$full" 0 XDG_CACHE_HOME="$WORK/scale-cache-$r" "$BIN")"
done
# One run that stays long enough to write every list to the cache, then starts from it.
bench_time_to_texts "$full" 20 XDG_CACHE_HOME="$WORK/scale-cache" "$BIN" >/dev/null
for r in $(seq "$ROUNDS"); do
  figure scale.home_cached_ms "$(bench_time_to_texts "$full" 0 XDG_CACHE_HOME="$WORK/scale-cache" "$BIN")"
done
kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=""

# The largest dev server mesh (realistic titles and plans), from start to READY, beside the
# default mesh's start in the same run.
SEED_TASKS=${SEED_BENCH_TASKS:-200000}
echo "bench: dev server start, the default mesh and --seed-scale $SEED_TASKS,2000" >&2
seed_ready_ms() {  # extra server flags...
  rm -f "$WORK/seed.db" "$WORK/seed.db-wal" "$WORK/seed.db-shm" "$WORK/ready-seed"
  local t0 t1
  t0=$(date +%s%N)
  python3 devserver/server.py --host 127.0.0.1 --port 0 --db "$WORK/seed.db" --rate 0 --quiet "$@" \
    >"$WORK/ready-seed" 2>>"$WORK/server.log" &
  SERVER=$!
  for _ in $(seq 2400); do grep -q READY "$WORK/ready-seed" 2>/dev/null && break; sleep 0.05; done
  t1=$(date +%s%N)
  kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=""
  grep -q READY "$WORK/ready-seed" && echo $(((t1 - t0) / 1000000)) || echo -1
}
figure devserver.default_ready_ms "$(seed_ready_ms)"
figure devserver.seed_ready_ms "$(seed_ready_ms --seed-scale "$SEED_TASKS,2000")"
figure devserver.seed_tasks "$SEED_TASKS"

MAKIMA_BIN=$BIN scripts/bench_stream.sh "$R"

python3 scripts/bench_table.py "$R" "$BIN"
