#!/usr/bin/env bash
# End-to-end test of output a hostile server sends to freeze the task view, against the dev
# server (`/_dev/hostile/huge_output`) and the real binary in tmux 120×40:
# - a 1 MiB line of `x` opens at once, drawn cut with a marker; `/x` searches it and the view
#   still answers keys; SIGTERM sent while the search runs ends the process promptly and
#   gives the terminal back;
# - SIGTERM and SIGHUP end a dashboard whose UI thread is blocked writing to a terminal that
#   stopped reading (Tests/e2e/lib/signal_while_stuck.py);
# - a table of 32,000 columns opens at once as plain text (the line after it is drawn), and
#   SIGHUP ends the process promptly.
# Before the bounds, the first search was busy for many minutes and ignored the signal, and
# the table froze the view for about ten seconds. Prints one line per check and
# "N passed, M failed"; exits 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=lib/session.bash
source "Tests/e2e/lib/session.bash"
e2e_setup hostile-output
# How long a quit signal may take to end the process (the process itself allows one second).
SIGNAL_TIMEOUT=3

# The dashboard's pid: the child of the pane's shell.
client_pid() { pgrep -P "$(t list-panes -t "$1" -F '#{pane_pid}')" -x makima-tui; }
# signal_ends SESSION SIGNAL: sends the signal, true when the shell reports the exit in time.
signal_ends() {
  local pid
  pid=$(client_pid "$1") || return 1
  kill "-$2" "$pid"
  TIMEOUT=$SIGNAL_TIMEOUT wait_for "$1" "EXITED:"
}

start_server || { echo "0 passed, 1 failed"; exit 1; }

line_task=$(dev POST "/_dev/hostile/huge_output?kind=long_line&bytes=1048576" | json 'd["task_id"]')
start line "makima://task/$line_task"
expect "a 1 MiB line opens, drawn cut with a marker" line wait_for line "more bytes, y copies the line"
t send-keys -t line / x
expect "the search finds matches in it" line wait_for line "/x_ +[0-9]+/[0-9]+"
t send-keys -t line Escape
expect "Esc ends the search (keys still answer)" line wait_gone line "/x_"
t send-keys -t line / x
expect "SIGTERM during a search ends the process within ${SIGNAL_TIMEOUT}s" line signal_ends line TERM
expect "the shell is back on the normal screen" line wait_for line "^EXITED:"

# The UI thread blocked writing to a terminal that stopped reading (a full buffer): only the
# watchdog can end the process, restoring the terminal without waiting on it.
stuck() {
  env TERM=xterm-256color LANG=C.UTF-8 LC_ALL= XDG_CONFIG_HOME="$SCRATCH/config" XDG_CACHE_HOME="$SCRATCH/cache" \
    MAKIMA_SERVER_URL="$URL" MAKIMA_API_KEY="$KEY" python3 Tests/e2e/lib/signal_while_stuck.py "$BIN" "$1" "$SIGNAL_TIMEOUT"
}
expect "SIGTERM ends a dashboard stuck writing to a terminal that stopped reading" "" stuck SIGTERM
expect "so does SIGHUP" "" stuck SIGHUP

table_task=$(dev POST "/_dev/hostile/huge_output?kind=wide_table&columns=32000" | json 'd["task_id"]')
start table "makima://task/$table_task"
expect "a table of 32,000 columns opens, and the line after it is drawn" table wait_for table "after the table"
expect "SIGHUP ends the process within ${SIGNAL_TIMEOUT}s" table signal_ends table HUP

finish
