#!/usr/bin/env bash
# End-to-end test of drilling down, against the dev server (seed 5, no simulation) and the
# real binary in tmux 120×40: Home → Tab to the contracts card → Enter → the contract's detail
# → Enter on its newest task → the task's output view shows a line the server emits after the
# view opened; the NAV// breadcrumbs show the path at each step; Esc three times is back on
# Home with the contracts card still focused on the same row. Also: a deep link to a directive
# that does not exist shows the not-found screen with its id. Captures are polled with a
# timeout. Prints one line per check and "N passed, M failed"; exits 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=lib/session.bash
source "Tests/e2e/lib/session.bash"
e2e_setup nav

# Regex-quotes a literal for grep -E.
re() { printf '%s' "$1" | sed 's/[][\.*^$?+(){}|/]/\\&/g'; }

start_server || { echo "0 passed, 1 failed"; exit 1; }

# The contract Home's contracts card lists first: the most recently updated active one. A new
# running task under it is its newest task.
top_contract() {
  api "/contracts?status=active" | json '"\t".join(sorted(((c.get("updated_at") or ""), c["id"], c["name"]) for c in (d["items"] if isinstance(d, dict) else d))[-1][1:])'
}
IFS=$'\t' read -r contract _ <<<"$(top_contract)"
task=$(dev POST "/_dev/task?status=running&contract_id=$contract&title=Nav+e2e+heartbeat" | json 'd["id"]')
IFS=$'\t' read -r contract name <<<"$(top_contract)"
echo "# contract $contract ($name), new task $task"

start nav
expect "Home is live" nav wait_for nav "WS//ONLINE"
expect "each card has its number in its title" nav wait_for nav "2 CONTRACTS//"
t send-keys -t nav Tab Tab
expect "two Tabs focus the contracts card on its first row" nav wait_for nav "▸ $(re "${name:0:20}")"
t send-keys -t nav Enter
expect "Enter opens the contract's detail" nav wait_for nav "^ CONTRACT//"
expect "the breadcrumbs read HOME › CONTRACT name" nav wait_for nav "^ NAV// │ HOME › CONTRACT $(re "${name:0:20}")"
expect "the detail lists the new task first" nav wait_for nav "▸ RUNNING +Nav e2e heartbeat"
t send-keys -t nav Enter
expect "Enter on the task opens its output view" nav wait_for nav "^ TASK//"
expect "the breadcrumbs read HOME › CONTRACT … › TASK Nav e2e heartbeat" nav \
  wait_for nav "^ NAV// │ HOME › CONTRACT .* › TASK Nav e2e heartbeat"
dev POST "/_dev/burst?task_id=$task&count=1" >/dev/null
expect "a line the server emits after the view opened shows up" nav wait_for nav "burst line 1 of 1: the quick brown fox"
t send-keys -t nav Escape
expect "Esc goes back to the contract" nav wait_for nav "^ NAV// │ HOME › CONTRACT $(re "$name") *$"
t send-keys -t nav Escape
expect "Esc again is back on Home (the pane list in NAV//)" nav wait_for nav "^ NAV// │ 1 HOME  2 CONTRACTS"
t send-keys -t nav Escape
expect "a third Esc stays on Home and does not quit" nav wait_for nav "2 CONTRACTS//"
expect "the contracts card is still focused on the same row" nav wait_for nav "▸ $(re "${name:0:20}")"
t send-keys -t nav Enter
expect "Enter opens the same contract again" nav wait_for nav "^ NAV// │ HOME › CONTRACT $(re "${name:0:20}")"
t send-keys -t nav q
expect "q goes back one level" nav wait_for nav "^ NAV// │ 1 HOME  2 CONTRACTS"
t send-keys -t nav q
expect "q on Home asks before quitting" nav wait_for nav "Quit\\? y/n"
t send-keys -t nav n
expect "n keeps the dashboard open" nav wait_gone nav "Quit\\? y/n"
quit nav

start missing "makima://directive/dir-does-not-exist"
expect "a deep link to an unknown directive shows the not-found screen" missing wait_for missing "DIRECTIVE NOT FOUND"
expect "the not-found screen names the id" missing wait_for missing "dir-does-not-exist"
quit missing

finish
