#!/usr/bin/env bash
# End-to-end test of the MESHES// card: three profiles stored with `login --name` (staging and
# prod on two dev servers, each taking only its own key; a third whose server is then stopped),
# the real binary in tmux showing prod:
# - Home has a MESHES// card: prod's line is the shown one, staging's has its numbers from
#   background reads (one request a minute, one figure each: the line is complete within three
#   turns), the stopped one says unreachable, and the UI keeps answering keys;
# - a question raised on staging (not on screen) brings a toast naming staging, within the
#   turns that read each figure once more;
# - Tab to the card, Enter on staging's line switches the dashboard to staging in place (the
#   masthead names it), and prod joins the background (its line gets numbers of its own);
# - Settings › PROFILES lists the profiles with the active one.
# Prints one line per check and "N passed, M failed"; exits 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=lib/session.bash
source "Tests/e2e/lib/session.bash"
e2e_setup meshes

KEY_A=$KEY
KEY_B=mk_e2e_meshes_prod_00002
start_staging_and_prod "$KEY_B"
KEY_C=mk_e2e_meshes_dead_00003
another_server dead 3 "$KEY_C"
URL_C=$ANOTHER_URL
PID_C=$ANOTHER_PID

cli login --name staging --server "$URL_A" <<<"$KEY_A" >/dev/null 2>&1 || echo "# login staging failed"
cli login --name dead --server "$URL_C" <<<"$KEY_C" >/dev/null 2>&1 || echo "# login dead failed"
cli login --name prod --server "$URL_B" <<<"$KEY_B" >/dev/null 2>&1 || echo "# login prod failed"
kill -TERM "$PID_C"; wait "$PID_C" 2>/dev/null
echo "# staging $host_a, prod $host_b, dead stopped"

# requests_total URL: how many API requests the dev server at URL has answered.
requests_total() {
  curl -fsS "$1/_dev/requests" | grep -oE '"total": *[0-9]+' | grep -oE '[0-9]+$'
}

# within_turns URL TURNS TARGET REGEX: true once the screen matches; false once the server at
# URL (read only in the background) has been asked more than TURNS times since the call: the
# turn after the last one allowed began, a pace (MAKIMA_MESH_PACE) after it, so its answer had time to be drawn.
# TIMEOUT bounds it too, in case the reads stop altogether.
within_turns() {
  local url=$1 turns=$2 target=$3 pattern=$4
  local start now deadline=$((SECONDS + TIMEOUT))
  start=$(requests_total "$url") || return 1
  while [ $SECONDS -le $deadline ]; do
    if capture "$target" | grep -qE -- "$pattern"; then return 0; fi
    now=$(requests_total "$url") || return 1
    [ $((now - start)) -gt "$turns" ] && return 1
    sleep 0.5
  done
  return 1
}
TURNS_TIMEOUT=420

# staging is read in the background only: each request it answers from here on is one turn.
staging_from=$(requests_total "$URL_A")
start_profiles dash 160 50
expect "the masthead names prod" dash wait_for dash "prod · $host_b"
expect "Home has a MESHES// card for the three profiles" dash wait_for dash "MESHES// .*3 PROFILES"
expect "… prod's line is the shown one" dash wait_for dash "● prod .*shown · "
expect "… staging's line shows what is read, … for the rest" dash wait_for dash "● staging  [0-9]+\+? run · (…|[0-9]+) fail"
staging_turns=$(($(requests_total "$URL_A") - staging_from))
echo "# staging read $staging_turns time(s) so far"
TIMEOUT=$TURNS_TIMEOUT expect "… and has every number within three turns" dash \
  within_turns "$URL_A" $((3 - staging_turns)) dash "● staging  [0-9]+\+? run · [0-9]+\+? fail · [0-9]+ \?.* ago"
expect "… the stopped server's line says unreachable" dash wait_for dash "● dead .*unreachable · "
t send-keys -t dash 3
expect "… and the UI answers keys meanwhile (Tasks)" dash wait_for dash "TASKS//|3 TASKS"
t send-keys -t dash 1
expect "… back on Home" dash wait_for dash "MESHES//"

curl -fsS -X POST "$URL_A/_dev/question?text=roll+back+staging%3F" >/dev/null
# The questions are read again within three turns of staging (four: one may be under way).
TIMEOUT=$TURNS_TIMEOUT expect "a question on staging brings a toast naming it" dash \
  within_turns "$URL_A" 4 dash "staging: 1 new question"

for _ in 1 2 3 4 5; do t send-keys -t dash Tab; done
expect "Tab reaches the card, on staging's line" dash wait_for dash "▸ ● staging"
t send-keys -t dash Enter
expect "Enter switches in place: the masthead names staging" dash wait_for dash "staging · $host_a"
expect "… staging is the shown line now" dash wait_for dash "● staging .*shown · "
# prod's engine has stopped (a request of it may still be under way): from here on prod
# answers only its background reads.
TIMEOUT=$TURNS_TIMEOUT expect "… and prod is read in the background, every number within three turns" dash \
  within_turns "$URL_B" 4 dash "● prod  [0-9]+\+? run · [0-9]+\+? fail · [0-9]+ \?.* ago"
t send-keys -t dash 7
expect "Settings › PROFILES lists every profile, staging active" dash wait_for dash "› PROFILE STAGING .*key stored · active"
expect "… and prod to switch to" dash wait_for dash "› PROFILE PROD .*key stored · Enter: switch"
expect "the dashboard is still running" dash wait_gone dash "EXITED:"
quit dash
finish
