#!/usr/bin/env bash
# End-to-end test of signing in inside the dashboard: the dev server (seed 5, no simulation)
# and the real binary in tmux 120×40 with no configuration at all. The dashboard opens on
# onboarding (01 SERVER → 02 KEY); a wrong key is refused in words and the pane stays on step 2;
# the right key lands on Home with the seeded numbers, stored 0600, with no restart. Then a
# 401 turns the pill to WS//AUTH with the data kept (STALE), `r` says it is still refused, and
# once the server takes the key again `r` resumes live updates in the same process; a key
# rotated from another device is refused the same way and K takes the new one in place. In Settings a
# key rotation the server refuses keeps the old key, one it confirms stores the new key, and
# sign out (Enter twice) removes the key and returns to onboarding.
# The API key must never be on screen. Captures are polled with a timeout.
# Prints one line per check and a closing line "N passed, M failed"; exits 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=lib/session.bash
source "Tests/e2e/lib/session.bash"
e2e_setup onboard 20
WRONG=mk_wrong_key_for_this_test_0042
SCREENS="$SCRATCH/screens.txt"   # every capture, to check the key never showed

type_text() { t send-keys -t "$1" -l "$2"; }
key() { t send-keys -t "$1" "$2"; }
# confirm TARGET KEY: a key for a destructive action, sent on its own as a person presses it
# (keys read together with others, as a paste or a loaded machine delivers them, confirm
# nothing: the dashboard's burst guard).
confirm() { sleep 0.6; t send-keys -t "$1" "$2"; }
quit() { t send-keys -t "$1" C-c; wait_for "$1" "EXITED:0" >/dev/null; }

# key_file_is_private: exactly one stored key, mode 0600, holding the key.
key_file_is_private() {
  local files
  files=$(find "$SCRATCH/config" -path '*credentials*' -type f 2>/dev/null)
  [ "$(echo "$files" | grep -c .)" = 1 ] && [ "$(stat -c %a "$files")" = 600 ] && grep -q "$KEY" "$files"
}

# stored_key_changed: one stored key, 0600, and it is not the demo key any more.
stored_key_changed() {
  local files
  files=$(find "$SCRATCH/config" -path '*credentials*' -type f 2>/dev/null)
  [ "$(echo "$files" | grep -c .)" = 1 ] && [ "$(stat -c %a "$files")" = 600 ] && ! grep -q "$KEY" "$files" \
    && grep -q '^mk_' "$files"
}
no_key_file() { [ -z "$(find "$SCRATCH/config" -path '*credentials*' -type f 2>/dev/null)" ]; }


run() {
start_server || { echo "0 passed, 1 failed"; exit 1; }

seeded=$(dev GET /_dev/seeded)
online=$(echo "$seeded" | json 'd["daemons_online"]')
offline=$(echo "$seeded" | json 'd["daemons_offline"]')
running=$(echo "$seeded" | json 'd["running_tasks"]')
echo "# seeded: $online online, $offline offline, $running running"

# --- Onboarding ---------------------------------------------------------------------------
start_unconfigured app COLORTERM=
expect "an unconfigured start opens on onboarding" app wait_for app "01 SERVER → 02 KEY"
expect "step 1 is prefilled with https://makima.jp" app wait_for app "SERVER   https://makima\\.jp"
key app C-u
type_text app "$URL/api/v1/"
key app Enter
expect "the server passes its health check and step 2 asks for the key" app wait_for app "API KEY"
expect "the typed /api/v1 address was normalised" app wait_for app "SERVER   ${URL//./\\.}\$"
type_text app "$WRONG"
expect "the key is shown masked while typed" app wait_for app "API KEY  mk_••••••••0042"
key app Enter
expect "a wrong key is refused in words" app wait_for app "the server did not accept this key"
expect "a wrong key stays on step 2" app wait_for app "API KEY"
key app C-u
type_text app "$KEY"
key app Enter
expect "the right key lands on Home with the seeded daemons" app wait_for app "$online ONLINE +● $offline OFFLINE"
expect "Home shows the seeded $running running tasks" app wait_for app "(^|[^0-9])$running RUNNING"
expect "the pill reaches WS//ONLINE without a restart" app wait_for app "WS//ONLINE"
expect "the masthead names the server" app wait_for app "127\\.0\\.0\\.1:[0-9]+ · v"
expect "the key is stored as login stores it (one file, 0600)" app wait_until key_file_is_private

# --- A 401, then recovery without a restart ------------------------------------------------
dev POST "/_dev/unauthorized?on=true" >/dev/null
dev POST /_dev/drop_ws >/dev/null
expect "a 401 on the WebSocket upgrade turns the pill to WS//AUTH" app wait_for app "WS//AUTH"
expect "the pill is drawn in the warn colour" app wait_for app $'\e\\[[0-9;]*38;5;214m[^\e]*WS//AUTH' -e
expect "the banner offers r and K" app wait_for app "the server refused the API key — r retries it · K enters a new key"
expect "the data stays on screen, marked STALE" app wait_for app "DAEMONS// ┄+ STALE"
expect "the seeded numbers stay on screen" app wait_for app "$online ONLINE +● $offline OFFLINE"
key app r
expect "r while the server still refuses the key says so" app wait_for app "still refused: the server did not accept this key"
expect "the pill stays AUTH" app wait_for app "WS//AUTH"
dev POST "/_dev/unauthorized?on=false" >/dev/null
key app r
expect "once the server takes the key again, r resumes: WS//ONLINE" app wait_for app "WS//ONLINE"
expect "the banner is gone" app wait_gone app "the server refused the API key"
expect "the STALE marks are gone after the resync" app wait_gone app "DAEMONS// ┄+ STALE"
dev POST "/_dev/task?status=running" >/dev/null
expect "live updates resumed: a new running task is counted ($((running + 1)) RUNNING)" app \
  wait_for app "(^|[^0-9])$((running + 1)) RUNNING"

# --- The key rotated from another device: the same path, then K and the new key --------------
OTHER=$(curl -fsS -X POST -H "x-makima-api-key: $KEY" "$URL/api/v1/auth/api-keys/refresh" | json 'd["key"]')
key app r
expect "the key rotated elsewhere is refused: WS//AUTH" app wait_for app "WS//AUTH"
expect "the banner offers K" app wait_for app "K enters a new key"
key app K
expect "K opens the key step in place" app wait_for app "NEW API KEY"
type_text app "$OTHER"
key app Enter
expect "the new key resumes the dashboard: WS//ONLINE" app wait_for app "WS//ONLINE"
expect "the banner is gone after the new key" app wait_gone app "the server refused the API key"
OLD_KEY=$KEY
KEY=$OTHER
expect "the new key is stored, 0600" app wait_until key_file_is_private
dev POST "/_dev/task?status=running" >/dev/null
expect "live updates follow with the new key ($((running + 2)) RUNNING)" app wait_for app "(^|[^0-9])$((running + 2)) RUNNING"

# --- Settings: key rotation (refused, then done), sign out ------------------------------------
key app 7
expect "Settings lists its actions" app wait_for app "› ROTATE KEY"
expect "Settings › About names the config file" app wait_for app "CONFIG +.*config\.json"
expect "Settings › About shows the colour mode" app wait_for app "COLOUR MODE +"
before_theme=$(t capture-pane -p -e -t app | sed -n 2p)
key app j; key app j; key app j; key app j
key app Enter
expect "the theme row switches to high-contrast and saves it" app wait_for app "› THEME +high-contrast · saved"
expect "the theme is saved in the config file" app wait_until grep -q '"high-contrast"' "$SCRATCH/config/makima-tui/config.json"
expect "the new theme is drawn at once (the masthead's colours changed)" app \
  wait_until test "$(t capture-pane -p -e -t app | sed -n 2p)" != "$before_theme"
dev POST "/_dev/fail?count=1&status=500" >/dev/null
key app k; key app k
confirm app Enter
expect "a refused rotation is reported and the old key kept" app wait_for app "not rotated: .*the old key is kept"
expect "the old key is still the stored one" app wait_until key_file_is_private
confirm app Enter
expect "a rotation the server confirms stores the new key" app wait_for app "rotated: new key mk_…[A-Za-z0-9]{4} stored"
expect "the stored key is no longer the old one" app wait_until stored_key_changed
expect "after the rotation the dashboard is live with the new key" app wait_for app "WS//ONLINE"
ROTATED=$(cat "$(find "$SCRATCH/config" -path '*credentials*' -type f | head -n 1)" 2>/dev/null)
key app j
confirm app Enter
expect "sign out asks for a second Enter" app wait_for app "press Enter again to sign out"
confirm app Enter
expect "sign out returns to onboarding" app wait_for app "01 SERVER → 02 KEY"
expect "sign out removed the stored key" app wait_until no_key_file
quit app

if grep -qF "$KEY" "$SCREENS" || grep -qF "${OLD_KEY:-$KEY}" "$SCREENS" || grep -qF "$WRONG" "$SCREENS" || { [ -n "${ROTATED:-}" ] && grep -qF "$ROTATED" "$SCREENS"; }; then fail "a key appeared on screen"; else pass "no key ever appeared on screen"; fi
}

run
finish
