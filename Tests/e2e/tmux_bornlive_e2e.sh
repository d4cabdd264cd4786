#!/usr/bin/env bash
# End-to-end test of tasks born live: the dev server (seed 5, no simulation) and the real
# binary in tmux 120×40. A task created after the dashboard read its lists (its events arrive
# before any list holds it) is named on Home's TASKS card and in Tasks by one
# `GET /mesh/tasks/{id}`, never shown as a bare id; a flood of 300 unknown tasks costs at most
# the token bucket's requests (8 at once, 4 a second after). TERM=dumb gets a sentence and
# exit code 8; under LANG=C a bilingual title shows its English half. Prints one line per
# check and "N passed, M failed"; exits 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=lib/session.bash
source "Tests/e2e/lib/session.bash"
e2e_setup bornlive
SCREENS="$SCRATCH/screens.txt"

# start_term NAME TERM [LANG]: as `start`, on another terminal type or locale.
start_term() {
  t new-session -d -s "$1" -x 120 -y 40 \
    "env TERM=$2 COLORTERM= LANG=${3:-C.UTF-8} LC_ALL= XDG_CONFIG_HOME=$SCRATCH/config XDG_CACHE_HOME=$SCRATCH/cache MAKIMA_CONFIG_DIR= MAKIMA_CACHE_DIR= MAKIMA_SERVER_URL=$URL MAKIMA_API_KEY=$KEY bash --norc --noprofile -c '$BIN; echo EXITED:\$?; sleep 600'"
}

# task_fetches: how many `GET /api/v1/mesh/tasks/<id>` the server logged since the last reset.
task_fetches() {
  dev GET /_dev/requests | python3 -c '
import json, re, sys
print(sum(1 for r in json.load(sys.stdin)["recent"] if re.fullmatch(r"GET /api/v1/mesh/tasks/[^/?]+", r)))'
}

start_server || { echo "0 passed, 1 failed"; exit 1; }

start_term dumb dumb
expect "TERM=dumb: a sentence on stderr" dumb wait_for dumb "TERM=dumb cannot move the cursor"
expect "TERM=dumb: exit code 8" dumb wait_for dumb "EXITED:8"

start live
expect "Home is up and online" live wait_for live "ONLINE"
expect "Home's TASKS card is drawn" live wait_for live "3 TASKS//"
dev POST /_dev/requests/reset >/dev/null
born=$(dev POST "/_dev/task?status=running&title=Born+live+tidy+the+heartbeat" | json 'd["id"]')
expect "a task born live is named on Home's TASKS card" live wait_for live "Born live tidy the heartbeat"
expect "its id never stood in for its title" live bash -c "! grep -q -- '$born' '$SCREENS'"
expect "named by one fetch of that task" live test "$(task_fetches)" = 1
t send-keys -t live 3
expect "Tasks shows it by title too" live wait_for live "TASKS//.*(ALL|all)"
expect "… at the top, named" live wait_for live "Born live tidy the heartbeat"
t send-keys -t live 1

dev POST /_dev/requests/reset >/dev/null
dev POST "/_dev/hostile/gap_flood?tasks=300&events=2" >/dev/null
started=$SECONDS
expect "the flood reaches the screen, its rows reading loading… <id8>" live wait_for live "loading… [0-9a-f]{8}"
fetched=$(task_fetches)
bound=$((8 + 4 * (SECONDS - started + 1)))
if [ "$fetched" -le "$bound" ] && [ "$fetched" -ge 1 ]; then pass "300 unknown tasks cost $fetched fetches (bucket bound $bound)"
else fail "300 unknown tasks cost $fetched fetches (bucket bound $bound)" live; fi
# 4 a second after the burst: all 300 are asked for within about 75 s. Newest
# first is what the namer does with the ids in the order it is told of them, but that order
# is not always the order of the rows on Home's card (in a third of runs the rows on top are
# named among the last), so the wait covers the whole flood, with room for a loaded machine.
TIMEOUT=120 expect "… and they are named as the bucket refills" live wait_for live "Gap flood task"
if ! capture live | grep -qE "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"; then pass "no bare UUID on screen"
else fail "no bare UUID on screen" live; fi
quit live

# Under LANG=C every cell is ASCII: a title in two scripts shows its English half, not `?`s.
start_term plain tmux-256color C
expect "LANG=C: the dashboard is up" plain wait_for plain "ONLINE"
dev POST "/_dev/task?status=running&title=%E7%BF%BB%E8%A8%B3%E3%83%95%E3%82%A1%E3%82%A4%E3%83%AB%E3%81%AE%E6%95%B4%E7%90%86+%C2%B7+tidy+localisation+files" >/dev/null
expect "LANG=C: a bilingual title shows its English half" plain wait_for plain "tidy localisation files"
if ! capture plain | grep -qE "\?\?\?\?[^|]*tidy localisation files"; then pass "LANG=C: … without a run of ? before it"
else fail "LANG=C: … without a run of ? before it" plain; fi
quit plain
finish
