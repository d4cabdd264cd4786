#!/usr/bin/env bash
# End-to-end test of a notification reaching an operator who is not looking at the dashboard:
# the dashboard runs in window 1 of a tmux session (tmux 3.3 defaults, so allow-passthrough is
# off), a real client is attached to that session (a second tmux server's pane runs
# `tmux attach`, so what the client draws can be captured) and shows window 2. The dashboard's
# own bell is turned off in its config, so the window's bell flag can only come from the BEL of
# the desktop notification. A failed task must then set `#{window_bell_flag}` on window 1, put
# the MAKIMA: message on the attached client's screen, and send no wrapped OSC (tmux would drop
# it); at start the dashboard says passthrough is off. The API key is in no output.
# Prints one line per check and "N passed, M failed"; exits 1 on failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

# Windows count from 1: the dashboard is sess:1, the window on screen sess:2.
E2E_TMUX_CONF='set -g base-index 1'
# shellcheck source=lib/session.bash
source "Tests/e2e/lib/session.bash"
e2e_setup reach 20
OUTER="makima-reach-view-$$"
EXTRA_SOCKETS+=("$OUTER")
view() { tmux -L "$OUTER" -f /dev/null "$@"; }

start_server || { echo "0 passed, 1 failed"; exit 1; }
mkdir -p "$SCRATCH/config/makima-tui"
printf '{"version":1,"profiles":[],"settings":{"notifications":{"bell":false}}}\n' \
  >"$SCRATCH/config/makima-tui/config.json"

task=$(api "/mesh/tasks?status=running" | json 'd["items"][0]["id"] if isinstance(d, dict) else d[0]["id"]')
title=$(api "/mesh/tasks/$task" | json 'd["title"]')
echo "# failing $task ($title)"

start_piped sess
t new-window -d -t sess:2 "sleep 600"
view new-session -d -s client -x 120 -y 42 "env -u TMUX TERM=tmux-256color tmux -L $SOCKET attach -t sess"
attached() { [ "$(t list-clients -t sess -F x 2>/dev/null | wc -l)" -ge 1 ]; }
expect "a client is attached to the dashboard's session" sess:1 wait_until attached

expect "the pill reaches WS//ONLINE" sess:1 wait_for sess:1 "WS//ONLINE"
expect "the dashboard says passthrough is off and what is sent instead" sess:1 \
  wait_for sess:1 "allow-passthrough is off|bell \\+ tmux message \\(no passthrough\\)"

t select-window -t sess:2
flag() { t display -p -t sess:1 '#{window_bell_flag}'; }
shown_elsewhere() { [ "$(t display -p -t sess '#{window_index}')" = 2 ] && [ "$(flag)" = 0 ]; }
expect "the client shows window 2; window 1's bell flag is clear" sess:2 wait_until shown_elsewhere

dev POST "/_dev/task/$task/status?status=failed" >/dev/null
# The client's screen, as the second server's pane holds it (tmux keeps it there for 5 s).
client_shows() { view capture-pane -p -t client | grep -qF "MAKIMA: Task failed: ${title:0:30}"; }
expect "the attached client shows the MAKIMA: message" sess:2 wait_until client_shows
# The message and the toast are on screen for seconds; the bell flag stays until window 1 is
# shown, so it is looked at last.
toast_seen() { capture sess:1 | grep -qF "Task failed: ${title:0:30}"; }
expect "the dashboard's own toast names the task" sess:1 wait_until toast_seen
bell_flag_set() { [ "$(flag)" = 1 ]; }
expect "the failed task sets window 1's bell flag" sess:1 wait_until bell_flag_set

no_wrapped() {
  python3 - "$SCRATCH/sess.raw" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
sys.exit(0 if b"\x1bPtmux;" not in data and b"\x07" in data else 1)
PY
}
expect "no passthrough-wrapped OSC was written (tmux would drop it), a BEL was" sess:1 no_wrapped

key_absent() { ! grep -qF "$KEY" "$SCRATCH/sess.raw"; }
expect "the API key is not in the pane's raw output ($(wc -c <"$SCRATCH/sess.raw") bytes)" sess:1 key_absent

finish
