#!/usr/bin/env bash
# End-to-end test of desktop notifications and true colour inside tmux: the dev server
# (seed 5, no simulation) and the real binary in tmux 120×40 with TERM=tmux-256color.
# With COLORTERM=truecolor the dashboard starts curses on tmux-direct and paints the makima
# navy (#0c1729) as a direct colour; a failed task writes OSC 777 and OSC 9 wrapped in tmux's
# passthrough (allowed in this tmux's config) and one BEL, read from the raw bytes the pane
# wrote (tmux pipe-pane -O). The API key must never be in those bytes. `watch --notify` prints a failed task by its title (fetched when no
# list had it) and writes the same notification. Prints one line per check and "N passed, M failed"; exits 1 on failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

# Passthrough on, as the operator who wants the OSC sets it: the client asks tmux at start and,
# with tmux 3.3's default (off), sends no wrapped OSC (tmux_notify_reach_e2e.sh covers that).
E2E_TMUX_CONF='set -g allow-passthrough on'
# shellcheck source=lib/session.bash
source "Tests/e2e/lib/session.bash"
e2e_setup notify
NAVY_BG="48;2;12;23;41"

# osc_wrapped NAME TITLE: the pane's raw output holds the failed task's OSC 777 and OSC 9,
# each whole inside tmux's passthrough wrapper (ESC P tmux; … ESC \, inner ESCs doubled),
# then the BEL that sets the window's bell flag.
osc_wrapped() {
  python3 - "$SCRATCH/$1.raw" "$2" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
title = sys.argv[2].encode()
want = (b"\x1bPtmux;\x1b\x1b]777;notify;Task failed;" + title + b"\x07\x1b\\"
        + b"\x1bPtmux;\x1b\x1b]9;Task failed: " + title + b"\x07\x1b\\" + b"\x07")
sys.exit(0 if want in data else 1)
PY
}

start_server || { echo "0 passed, 1 failed"; exit 1; }

task=$(api "/mesh/tasks?status=running" | json 'd["items"][0]["id"] if isinstance(d, dict) else d[0]["id"]')
title=$(api "/mesh/tasks/$task" | json 'd["title"]')
echo "# failing $task ($title)"

# --- True colour --------------------------------------------------------------------------------
E2E_ENV=COLORTERM=truecolor start_piped tc
expect "the pill reaches WS//ONLINE" tc wait_for tc "WS//ONLINE"
expect "Home says true colour through tmux-direct" tc wait_for tc "Colours +TRUE COLOUR \\(TMUX-DIRECT\\)"
expect "the navy background is drawn as a direct colour ($NAVY_BG)" tc wait_for tc $'\e\\['"[0-9;]*${NAVY_BG}m" -e
E2E_ENV=COLORTERM= start_piped pal
expect "without COLORTERM the same TERM stays at 256 colours" pal wait_for pal "Colours +256"
no_direct() { ! capture pal -e | grep -q "48;2;"; }
expect "… and draws no direct colour" pal no_direct

# --- A failed task: OSC 777 and OSC 9 in tmux's passthrough -------------------------------------
dev POST "/_dev/task/$task/status?status=failed" >/dev/null
expect "a failed task raises a toast naming it" tc wait_for tc "● Task failed: ${title:0:30}"
expect "the raw output holds OSC 777 and OSC 9 for it, each tmux-wrapped" tc wait_until osc_wrapped tc "$title"
# --- watch --notify: titles, not ids; the same desktop notification ------------------------------
subscribers() { dev GET /_dev/seeded | json 'd["subscribers"]'; }
before=$(subscribers)
t new-session -d -s watch -x 200 -y 20 \
  "env TERM=tmux-256color LANG=C.UTF-8 XDG_CONFIG_HOME=$SCRATCH/config XDG_CACHE_HOME=$SCRATCH/wcache MAKIMA_CONFIG_DIR= MAKIMA_CACHE_DIR= MAKIMA_SERVER_URL=$URL MAKIMA_API_KEY=$KEY bash --norc --noprofile -c 'sleep 0.5; $BIN watch --notify; echo EXITED:\$?; sleep 600'"
t pipe-pane -O -t watch "cat >> '$SCRATCH/watch.raw'"
# Once watch's WebSocket is subscribed, make a task no list it fetched holds, so its title has
# to be fetched on its own.
watch_subscribed() { [ "$(subscribers)" -gt "$before" ]; }
expect "watch subscribes to the live stream" watch wait_until watch_subscribed
fresh_title="Watch me fail %H #{pane_id}"
fresh=$(curl -fsS -X POST -G "$URL/_dev/task" --data-urlencode "title=$fresh_title" | json 'd["id"]')
dev POST "/_dev/task/$fresh/status?status=failed" >/dev/null
expect "watch prints the task's title, not its id" watch wait_for watch "makima://task/$fresh +Task failed +Watch me fail %H #\\{pane_id\\}"
expect "watch --notify writes the same OSC 777 and OSC 9, tmux-wrapped" watch wait_until osc_wrapped watch "$fresh_title"
t send-keys -t watch C-c
expect "watch stops on Ctrl-C with status 0" watch wait_for watch "EXITED:0"

key_absent() { ! grep -qF "$KEY" "$SCRATCH/tc.raw" "$SCRATCH/pal.raw" "$SCRATCH/watch.raw"; }
expect "the API key is in none of the raw output ($(cat "$SCRATCH"/*.raw | wc -c) bytes)" tc key_absent

finish
