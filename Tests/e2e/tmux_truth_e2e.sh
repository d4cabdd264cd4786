#!/usr/bin/env bash
# End-to-end test of a dashboard left open staying true, against the dev server (seed 5, no
# simulation, its whole clock 1 h 02 m behind ours with --clock-offset -3720) and the real
# binary in tmux 120×50, with no key pressed where it says so:
# - SYSTEM// says the server's clock is 1 h 02 m behind;
# - a daemon the server takes offline shows OFFLINE on Daemons within its 30 s refresh;
# - a heartbeat the server stamps now reads seconds old (on our clock), and its age counts up
#   between two frames with no event;
# - a task failing live notifies although its event is stamped an hour in the past, and the
#   notifications list and the task view's status rule show our time, not the server's;
# - output streaming live counts in ACTIVITY// (`N out · 1h`);
# - `3` after launching with a deep link to a task reaches the Tasks list.
# Prints one line per check and "N passed, M failed"; exits 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

E2E_CACHE_PER_SESSION=1
# Tall enough for Home's ACTIVITY// card under the five data cards.
E2E_ROWS=${E2E_ROWS:-50}
# shellcheck source=lib/session.bash
source "Tests/e2e/lib/session.bash"
e2e_setup truth
# Daemons are read every 30 s while shown: the change shows within one period (and a margin).
POLL_TIMEOUT=${E2E_POLL_TIMEOUT:-45}

items='(d["items"] if isinstance(d, dict) else d)'

start_server --clock-offset -3720 || { echo "0 passed, 1 failed"; exit 1; }

# Two online daemons: the first goes offline, the second gets a heartbeat now.
IFS=$'\t' read -r gone gone_host beat beat_host <<<"$(api /mesh/daemons | json "'\t'.join(x for r in [r for r in $items if r['status'] == 'online'][:2] for x in (r['id'], r['hostname']))")"
echo "# $gone_host goes offline, $beat_host beats"

# --- Daemons refresh with no key pressed; ages tick ------------------------------------------
start live
expect "the dashboard is live" live wait_for live "WS//ONLINE"
expect "SYSTEM// says the server's clock is 1 h 02 m behind" live wait_for live "Server clock +1 h 02 m behind"
t send-keys -t live 5
expect "Daemons lists $gone_host online" live wait_for live "$gone_host.*ONLINE"
dev POST "/_dev/daemon/$gone/status?status=offline&heartbeat_ago=70" >/dev/null
dev POST "/_dev/daemon/$beat/status?status=online&heartbeat_ago=0" >/dev/null
TIMEOUT=$POLL_TIMEOUT expect "within its refresh period, $gone_host reads OFFLINE with no key pressed" live \
  wait_for live "$gone_host.*OFFLINE"
expect "… and $beat_host's heartbeat, stamped now on the server's clock, is seconds old on ours" live \
  wait_for live "$beat_host.*♥ [0-9]+s ago"
age_line() { capture live | grep -oE "$beat_host.*♥ [0-9]+[smh] ago" | grep -oE "♥ [0-9]+[smh] ago"; }
first=$(age_line)
sleep 2.2
second=$(age_line)
changed() { [ -n "$first" ] && [ -n "$second" ] && [ "$first" != "$second" ]; }
expect "the heartbeat's age changed between two frames with no event ($first → $second)" live changed

# --- A live event stamped an hour in the past notifies ----------------------------------------
t send-keys -t live 1
task=$(api "/mesh/tasks?status=running" | json "$items[0]['id']")
title=$(api "/mesh/tasks/$task" | json 'd["title"]')
stamped=$(dev POST "/_dev/task/$task/status?status=failed" | json 'd["event"]["ts"]')
echo "# $task ($title) failed, stamped $stamped"
expect "the failure raises a toast although its event is stamped an hour ago" live \
  wait_for live "Task failed: ${title:0:30}"
# Our clock's minute now, and a minute on (the check may straddle a minute's turn).
ours="($(date +%H:%M)|$(date -d '+1 min' +%H:%M))"
t send-keys -t live ":notifications" Enter
expect "the notifications list shows the failure at our time $ours, not the server's" live \
  wait_for live "$ours:[0-9]{2} +TASK FAILED"
t send-keys -t live Escape
# Output streaming live counts in this hour's ACTIVITY// (Home reads it at its next poll).
other=$(api "/mesh/tasks?status=running" | json "$items[1]['id']")
dev POST "/_dev/burst?task_id=$other&count=25" >/dev/null
t send-keys -t live 1
TIMEOUT=$POLL_TIMEOUT expect "ACTIVITY// counts the live output in this hour" live \
  wait_for live "ACTIVITY// .*[1-9][0-9]* out · 1h"
quit live

# --- Number keys after a deep link -----------------------------------------------------------
start deep "makima://task/$task"
expect "the deep link opens the task's output view" deep wait_for deep "^ TASK//"
expect "its status rule shows our time $ours, not the server's" deep wait_for deep "STATUS FAILED · $ours:[0-9]{2}"
t send-keys -t deep 3
expect "3 reaches the Tasks list (the pane list in NAV//, no breadcrumbs)" deep \
  wait_for deep "^ NAV// │ 1 HOME  2 CONTRACTS  3 TASKS"
expect "… showing the Tasks pane" deep wait_gone deep "^ TASK//"
quit deep

finish
