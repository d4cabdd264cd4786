# The set-up every tmux end-to-end script shares (sourced, not run): the binary under test,
# the demo key, a tmux server of its own, a scratch folder, the dev server's variables, the
# checks (`checks.bash`), and a clean-up on any exit. Each script calls `e2e_setup NAME`
# first, then `start_server` and `start` as it needs.
# shellcheck source=checks.bash
source "Tests/e2e/lib/checks.bash"

# e2e_setup NAME [TIMEOUT]: the variables the checks and the helpers below read, and a UTF-8
# locale. A wait gives up after TIMEOUT seconds (15 unless given), or E2E_TIMEOUT when that is
# set; a script may set E2E_COLS/E2E_ROWS (the dashboard's size, 120×40), E2E_ENV (more
# variables for the dashboard), E2E_CACHE_PER_SESSION=1 (one cache per tmux session instead of
# one shared) and E2E_TMUX_CONF (the lines of the tmux server's config; none by default). A
# script that runs a tmux server of its own adds its socket name to EXTRA_SOCKETS, and
# e2e_cleanup ends that server too.
e2e_setup() {
  local name=$1
  export LANG=C.UTF-8
  BIN=${MAKIMA_BIN:-.build/debug/makima-tui}
  KEY=mk_demo_local_key_0001
  SOCKET="makima-$name-e2e-$$"
  TIMEOUT=${E2E_TIMEOUT:-${2:-15}}
  SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/makima-$name-e2e.XXXXXX")
  local conf=/dev/null
  if [ -n "${E2E_TMUX_CONF:-}" ]; then
    conf="$SCRATCH/tmux.conf"
    printf '%s\n' "$E2E_TMUX_CONF" >"$conf"
  fi
  TMUX_CMD=(tmux -L "$SOCKET" -f "$conf")
  SERVER_PID=""
  URL=""
  EXTRA_PIDS=()
  EXTRA_SOCKETS=()
  trap e2e_cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM HUP
  if [ ! -x "$BIN" ]; then swift build >/dev/null || { echo "0 passed, 1 failed"; exit 1; }; fi
  t kill-server >/dev/null 2>&1 || true
}

t() { "${TMUX_CMD[@]}" "$@"; }

# Ends the tmux server and the dev server; keeps the scratch folder where the test run's key
# leak check reads it (MAKIMA_TEST_LOG_DIR), then removes it.
e2e_cleanup() {
  for socket in "${EXTRA_SOCKETS[@]}"; do tmux -L "$socket" -f /dev/null kill-server >/dev/null 2>&1; done
  t kill-server >/dev/null 2>&1 || true
  for pid in "${EXTRA_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null; done
  stop_server
  if [ -n "${MAKIMA_TEST_LOG_DIR:-}" ]; then cp -r "$SCRATCH" "$MAKIMA_TEST_LOG_DIR/" 2>/dev/null; fi
  rm -rf "$SCRATCH"
}

# start NAME [ARGS...]: the dashboard against the dev server in tmux session NAME, config and
# cache in the scratch folder; the shell prints EXITED:<code> when it ends. The dashboard waits
# E2E_START_DELAY seconds before it starts, when that is set.
start() {
  local name=$1; shift
  local cache="$SCRATCH/cache"
  [ -n "${E2E_CACHE_PER_SESSION:-}" ] && cache="$SCRATCH/cache-$name"
  t new-session -d -s "$name" -x "${E2E_COLS:-120}" -y "${E2E_ROWS:-40}" \
    "env TERM=tmux-256color ${E2E_ENV:-} LANG=C.UTF-8 LC_ALL= XDG_CONFIG_HOME=$SCRATCH/config XDG_CACHE_HOME=$cache MAKIMA_CONFIG_DIR= MAKIMA_CACHE_DIR= MAKIMA_SERVER_URL=$URL MAKIMA_API_KEY=$KEY bash --norc --noprofile -c '${E2E_START_DELAY:+sleep $E2E_START_DELAY; }$BIN $*; echo EXITED:\$?; sleep 600'"
}

# start_piped NAME [ARGS...]: `start`, with the pane's raw output appended to $SCRATCH/NAME.raw.
# The dashboard waits half a second first, so that the pipe is there for its first bytes.
start_piped() {
  E2E_START_DELAY=0.5 start "$@"
  t pipe-pane -O -t "$1" "cat >> '$SCRATCH/$1.raw'"
}

# start_unconfigured NAME [VAR=VALUE...]: the dashboard with no server and no key (it opens on
# sign-in) in tmux session NAME, config and cache in the scratch folder; the variables come
# last in its environment, so they may set a server and a key after all.
start_unconfigured() {
  local name=$1; shift
  t new-session -d -s "$name" -x "${E2E_COLS:-120}" -y "${E2E_ROWS:-40}" \
    "env TERM=tmux-256color LANG=C.UTF-8 LC_ALL= XDG_CONFIG_HOME=$SCRATCH/config XDG_CACHE_HOME=$SCRATCH/cache MAKIMA_CONFIG_DIR= MAKIMA_CACHE_DIR= MAKIMA_SERVER_URL= MAKIMA_API_KEY= $* bash --norc --noprofile -c '$BIN; echo EXITED:\$?; sleep 600'"
}

# Several meshes (stored profiles on dev servers of their own).
# another_server NAME SEED KEY: one more dev server taking only KEY; sets ANOTHER_URL and
# ANOTHER_PID (stopped by e2e_cleanup). Exits the script when it does not start.
another_server() {
  local ready="$SCRATCH/ready-$1.txt"
  python3 devserver/server.py --host 127.0.0.1 --port 0 --db "$SCRATCH/server-$1.db" --rate 0 --seed "$2" \
    --demo-key "$3" --test-controls >"$ready" 2>"$SCRATCH/server-$1.log" &
  ANOTHER_PID=$!
  EXTRA_PIDS+=("$ANOTHER_PID")
  ANOTHER_URL=""
  for _ in $(seq 200); do
    ANOTHER_URL=$(sed -n 's/^READY //p' "$ready")
    [ -n "$ANOTHER_URL" ] && return 0
    sleep 0.1
  done
  echo "the $1 dev server did not start"; echo "0 passed, 1 failed"; exit 1
}

# start_staging_and_prod PROD_KEY: two meshes, the dev server (seed 5) as staging and another
# (seed 9, taking only PROD_KEY) as prod; sets URL_A and URL_B, and host_a and host_b as the
# masthead names them. Exits the script when either does not start.
start_staging_and_prod() {
  start_server --seed 5 || { echo "0 passed, 1 failed"; exit 1; }
  URL_A=$URL
  another_server prod 9 "$1"
  URL_B=$ANOTHER_URL
  host_a=${URL_A#http://}
  host_b=${URL_B#http://}
}

# The environment that leaves the choice of mesh to the stored profiles (no server, key or
# profile from variables), config and cache in the scratch folder.
PROFILE_ENV='MAKIMA_CONFIG_DIR= MAKIMA_CACHE_DIR= MAKIMA_SERVER_URL= MAKIMA_API_KEY= MAKIMA_PROFILE='
# The background meshes read every 10 s (the fastest MAKIMA_MESH_PACE allows), not every minute:
# the scripts wait for a number of reads, and fewer real minutes.
PROFILE_ENV="$PROFILE_ENV MAKIMA_MESH_PACE=10"

# cli ARGS...: the binary as a command, with the stored profiles.
cli() {
  env XDG_CONFIG_HOME="$SCRATCH/config" XDG_CACHE_HOME="$SCRATCH/cache" MAKIMA_CONFIG_DIR= MAKIMA_CACHE_DIR= \
    MAKIMA_SERVER_URL= MAKIMA_API_KEY= MAKIMA_PROFILE= "$BIN" "$@"
}

# start_profiles NAME COLS ROWS: the dashboard on the active profile in tmux session NAME.
start_profiles() {
  t new-session -d -s "$1" -x "$2" -y "$3" \
    "env TERM=tmux-256color LANG=C.UTF-8 LC_ALL= XDG_CONFIG_HOME=$SCRATCH/config XDG_CACHE_HOME=$SCRATCH/cache $PROFILE_ENV bash --norc --noprofile -c '$BIN; echo EXITED:\$?; sleep 600'"
}
