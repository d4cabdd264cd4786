#!/usr/bin/env bash
# End-to-end test of reading a task's whole output and of a selected row's columns, against
# the dev server (seed 5, no simulation) and the real binary in tmux 120×40:
# - a task's view is open while 3,000 lines stream in (more than the 2,000 a task keeps);
#   `g` fetches the older pages over REST: the top line says "loading older output…" while
#   they come (the server slowed down), then "start of output" above the task's first line.
# - on Home, the row selected in the tasks and contracts cards keeps its status column.
# Captures are polled with a timeout. Prints one line per check and "N passed, M failed";
# exits 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=lib/session.bash
source "Tests/e2e/lib/session.bash"
e2e_setup output 20
SCREENS="$SCRATCH/screens.txt"

# body_top TARGET: the first line under the task view's rule (the top line of the output).
body_top() { capture "$1" | sed -n '/^ ─\{20,\}/{n;p;q}'; }
top_is() { body_top "$1" | grep -qE -- "$2"; }

start_server || { echo "0 passed, 1 failed"; exit 1; }

# --- `g` reaches the first line after 3,000 more ----------------------------------------
task=$(dev POST "/_dev/task?status=running&title=Output+e2e+reader" | json 'd["id"]')
echo "# task $task"
start view "makima://task/$task"
expect "the task's output view opens" view wait_for view "^ TASK//"
dev POST "/_dev/burst?task_id=$task&count=3000" >/dev/null
expect "3,000 lines stream into the open view" view wait_for view "burst line 3000 of 3000"
# Slow the server so the page being fetched is seen loading.
dev POST "/_dev/latency?ms=2500" >/dev/null
t send-keys -t view g
expect "while older pages load the top line says so" view wait_until top_is view "loading older output…"
# The output comes in pieces (several events a line), so the older part is many pages: the
# server is fast again once the loading line has been seen.
dev POST "/_dev/latency?ms=0" >/dev/null
expect "then the top line says the output starts there" view wait_until top_is view "start of output"
expect "the task's first line is under it" view wait_for view "^ burst line 1 of 3000"
no_second_line_before_first() { ! capture view | grep -qE "^ burst line (100[0-9]|99[0-9]) of 3000"; }
expect "nothing from the middle of the burst is on screen" view no_second_line_before_first
# Down from the start: the lines follow on, in order.
t send-keys -t view j
expect "j moves down into the older lines, in order" view wait_for view "^ burst line 2 of 3000"
quit view

# --- a selected row keeps its status ------------------------------------------------------
start home
expect "Home shows the tasks card" home wait_for home "TASKS//"
# Focus starts on the daemons card; Tab moves to tasks, then contracts.
t send-keys -t home Tab
statuses="RUNNING|FAILED|COMPLETED|PENDING|QUEUED|CANCELLED"
expect "the selected task row keeps its status" home wait_for home "▸ ● .+ ($statuses) +┆"
t send-keys -t home Tab
expect "the selected contract row keeps its status" home wait_for home "┆ ▸ [^●]+ [A-Z]{4,} +┆"
quit home

if grep -q -- "$KEY" "$SCREENS" 2>/dev/null; then fail "the API key never shows on screen"; else pass "the API key never shows on screen"; fi
finish
