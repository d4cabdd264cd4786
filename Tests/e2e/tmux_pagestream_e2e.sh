#!/usr/bin/env bash
# End-to-end test of a task list longer than any former cap, read page by page: the dev server
# with 60,000 realistic tasks (`--seed-scale`, 100 ms added to every request so the read
# lasts) and the real binary in tmux 160×40. The Tasks pane's title counts the read as it goes
# (`ALL · 12,000 / …`), then holds all 60,000; a dropped WebSocket then costs one read of the
# shown list and of each of Home's lists (counted by the server's request log), not two. The
# API key must never be on screen.
# Prints one line per check and a closing line "N passed, M failed"; exits 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

E2E_COLS=160 E2E_ROWS=40
# shellcheck source=lib/session.bash
source "Tests/e2e/lib/session.bash"
e2e_setup pagestream
SCREENS="$SCRATCH/screens.txt"

start_server --seed-scale 60000,20 || { echo "0 passed, 1 failed"; exit 1; }
dev POST "/_dev/latency?ms=100" >/dev/null

# requests PATTERN: how many logged /api/v1 requests match PATTERN (grep -E).
requests() { dev GET /_dev/requests | json '"\n".join(d["recent"])' | grep -cE -- "$1"; }
# server_quiet: true once the server has logged no new request for 3 s.
server_quiet() {
  local before after
  before=$(dev GET /_dev/requests | json 'd["total"]'); sleep 3
  after=$(dev GET /_dev/requests | json 'd["total"]')
  [ "$before" = "$after" ]
}

start dash
expect "the dashboard starts on Home" dash wait_for dash "3 TASKS//"
t send-keys -t dash 3
# The rows stream into the cache's task table: the title shows the rows held so far and the
# read's count (`ALL · 31884 tasks · 28,000 / …`).
expect "the Tasks title counts the read while it loads" dash wait_for dash "ALL · [0-9]+ tasks · [0-9]{1,3}(,[0-9]{3})* / …"
TIMEOUT=240 expect "all 60,000 tasks arrive (the former cap was 50,000)" dash wait_for dash "ALL · 60000 tasks"
expect "no CUT in the title: the list is whole" dash bash -c "! tmux -L $SOCKET capture-pane -p -t dash | grep -q 'CUT:'"
TIMEOUT=60 wait_until server_quiet

dev POST /_dev/requests/reset >/dev/null
dev POST /_dev/drop_ws >/dev/null
expect "the connection comes back" dash wait_for dash "WS//ONLINE"
TIMEOUT=240 wait_until server_quiet
expect "after the reconnect the shown task list is read once" dash \
  test "$(requests '^GET /api/v1/mesh/tasks\?limit=1000$')" -eq 1
expect "the running list (Home's count) once" dash test "$(requests '^GET /api/v1/mesh/tasks\?status=running&limit=1000$')" -eq 1
expect "Home's newest tasks once" dash test "$(requests 'limit=12$')" -eq 1
expect "daemons once" dash test "$(requests '^GET /api/v1/mesh/daemons$')" -eq 1
TIMEOUT=240 expect "Tasks still shows all 60,000" dash wait_for dash "ALL · 60000 tasks"

quit dash
expect "the API key never appeared on screen" dash bash -c "! grep -q '$KEY' '$SCREENS'"
finish
