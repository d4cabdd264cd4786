#!/usr/bin/env bash
# End-to-end test of the mouse and of pasting, against the dev server (seed 5) and the real
# binary in tmux 120×40. Mouse reports are the bytes a terminal sends (SGR form, injected with
# `send-keys -H`); pastes go through tmux's own `paste-buffer -p`, which adds the bracketed
# paste markers only because the dashboard turned mode 2004 on. Checks: the modes are on while
# the dashboard runs and off after it quits (and after SIGTERM, and never on with
# --no-mouse); a click on a NAV// item opens that pane; the wheel moves a list's selection; a
# click on the selected row opens it; a click on a breadcrumb goes back; a double click opens
# a row; the wheel pauses a task's output; reports off the screen or malformed change nothing;
# a paste lands in the field being typed in as text (its ESC, k, j and CRs are not keys).
# Prints one line per check and "N passed, M failed"; exits 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=lib/session.bash
source "Tests/e2e/lib/session.bash"
e2e_setup mouse

flag() { t display-message -p -t "$1" "#{$2}"; }
modes_on() { [ "$(flag "$1" mouse_standard_flag)" = "1" ] && [ "$(flag "$1" mouse_sgr_flag)" = "1" ]; }
modes_off() { [ "$(flag "$1" mouse_standard_flag)" = "0" ] && [ "$(flag "$1" mouse_sgr_flag)" = "0" ]; }
# The dashboard's process id in session TARGET: the makima-tui among the pane's descendants.
dashboard_pid() {
  local pids next p
  pids=$(t display-message -p -t "$1" '#{pane_pid}')
  for _ in 1 2 3 4; do
    next=""
    for p in $pids; do
      [ "$(ps -o comm= -p "$p" 2>/dev/null)" = "makima-tui" ] && { echo "$p"; return 0; }
      next="$next $(pgrep -P "$p" | tr '\n' ' ')"
    done
    pids=$next
  done
  return 1
}
# Regex-quotes a literal for grep -E.
re() { printf '%s' "$1" | sed 's/[][\.*^$?+(){}|/]/\\&/g'; }

# locate TARGET TEXT [NTH]: "x y" (cells, from 0) of the NTH (default 1st) line holding TEXT.
locate() {
  capture "$1" | python3 -c '
import sys, unicodedata
text, nth = sys.argv[1], int(sys.argv[2])
for y, line in enumerate(sys.stdin.read().split("\n")):
    i = line.find(text)
    if i < 0: continue
    nth -= 1
    if nth: continue
    print(sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line[:i]), y)
    break' "$2" "${3:-1}"
}
# The bytes of an SGR report (button, cell x, cell y from 0, M press / m release) as hex.
sgr() { printf '\033[<%d;%d;%d%s' "$1" $(($2 + 1)) $(($3 + 1)) "$4" | od -An -tx1 | tr -s ' \n' ' '; }
# shellcheck disable=SC2046 # the hex bytes are separate arguments
send_hex() { t send-keys -t "$1" -H $2; }
click() { send_hex "$1" "$(sgr 0 "$2" "$3" M) $(sgr 0 "$2" "$3" m)"; }
wheel() { send_hex "$1" "$(sgr "$2" "$3" "$4" M)"; }
# click_on TARGET TEXT: a click on the first cell of TEXT (false when it is not on screen).
click_on() { local at; at=$(locate "$1" "$2") && [ -n "$at" ] && click "$1" $at; }
# The line after the selected one (the row the wheel moves to), first 20 characters (the
# grid texture's dots at the left edge left out).
row_after_selected() { capture "$1" | grep -A1 -E '^[ ·]+▸ ' | tail -n 1 | sed -E 's/^[ ·]+//' | cut -c1-20; }
selected_row() { capture "$1" | grep -m1 -E '^[ ·]+▸ ' | sed -E 's/^[ ·]+▸ //' | cut -c1-20; }

start_server || { echo "0 passed, 1 failed"; exit 1; }

start mouse
expect "Home is live" mouse wait_for mouse "WS//ONLINE"
expect "mouse reporting (1000 + SGR 1006) is on while the dashboard runs" mouse modes_on mouse

# --- NAV, the wheel, rows, breadcrumbs ---------------------------------------------------------
expect "a click on NAV// 2 CONTRACTS is on screen" mouse click_on mouse "2 CONTRACTS"
expect "the click opens the Contracts pane" mouse wait_for mouse "^ CONTRACTS//"
expect "the list has its rows" mouse wait_for mouse "^[ ·]+▸ "
first=$(selected_row mouse)
next=$(row_after_selected mouse)
wheel mouse 65 60 12
expect "a wheel notch down selects the next row ($next)" mouse wait_for mouse "▸ $(re "$next")"
wheel mouse 64 60 12
# The row selected before the notch down (read before the notch up: the screen may already
# show the notch up's effect, or not yet).
expect "a wheel notch up goes back ($first)" mouse wait_for mouse "▸ $(re "$first")"
expect "a click on the selected row is on screen" mouse click_on mouse "▸ "
expect "the click opens it (as Enter)" mouse wait_for mouse "^ CONTRACT//"
expect "the breadcrumbs show the path" mouse wait_for mouse "^ NAV// │ HOME › CONTRACTS › CONTRACT"
expect "a click on the CONTRACTS breadcrumb" mouse click_on mouse "CONTRACTS ›"
expect "goes back to the list" mouse wait_for mouse "^ CONTRACTS//"
at=$(locate mouse "$next")
send_hex mouse "$(sgr 0 $at M) $(sgr 0 $at m) $(sgr 0 $at M) $(sgr 0 $at m)"
expect "a double click on another row opens it" mouse wait_for mouse "^ NAV// │ HOME › CONTRACTS › CONTRACT $(re "${next:0:12}")"
t send-keys -t mouse Escape
expect "Esc goes back to the list" mouse wait_for mouse "^ CONTRACTS//"

# --- hostile reports ---------------------------------------------------------------------------
sleep 0.3
before=$(capture mouse | grep -vE 'WS//')
send_hex mouse "$(sgr 0 500 3 M) $(sgr 0 3 4000 M) $(printf '\033[<0;99999999999;1M\033[<;;M\033[<0;3\033[M !!' | od -An -tx1)"
sleep 0.5
expect "reports off the screen, malformed or cut short change nothing" mouse \
  test "$before" = "$(capture mouse | grep -vE 'WS//')"
after=$(row_after_selected mouse)
t send-keys -t mouse j
expect "and the keyboard still works" mouse wait_for mouse "▸ $(re "$after")"

# --- the wheel in a task's output ----------------------------------------------------------------
t send-keys -t mouse 3
expect "Tasks" mouse wait_for mouse "^ TASKS//"
t send-keys -t mouse Enter
expect "Enter opens a task's output, following it" mouse wait_for mouse "FOLLOWING"
wheel mouse 64 60 20
expect "a wheel notch up pauses following (as k)" mouse wait_for mouse "PAUSED"
t send-keys -t mouse Escape

# --- pasting --------------------------------------------------------------------------------------
t send-keys -t mouse 2 /
expect "/ opens the filter" mouse wait_for mouse "/_"
printf 'xyz\r\r' >"$SCRATCH/paste1"
t load-buffer -b p1 "$SCRATCH/paste1"
t paste-buffer -p -b p1 -t mouse
expect "a paste goes into the filter as text, its CRs removed" mouse wait_for mouse "/xyz_"
t send-keys -t mouse Escape Escape
t send-keys -t mouse 7
expect "Settings" mouse wait_for mouse "› SERVER"
t send-keys -t mouse g Enter
expect "the server step opens over Settings" mouse wait_for mouse "01 SERVER"
printf 'https://makima.example\0337kkkkkkkkkkjjj\r\r' >"$SCRATCH/paste2"
t load-buffer -b p2 "$SCRATCH/paste2"
t paste-buffer -p -b p2 -t mouse
expect "pasted ESC 7 k… j… CR CR lands in the server field as text (ESC 7 dropped whole)" mouse wait_for mouse "makima\\.examplekkkkkkkkkkjjj"
expect "and nothing was submitted: still the server step" mouse wait_for mouse "01 SERVER"
t send-keys -t mouse Escape
expect "Esc closes the server step" mouse wait_gone mouse "01 SERVER"
quit mouse
expect "after quitting, mouse reporting is off" mouse modes_off mouse

# --- SIGTERM restores the modes too; --no-mouse never turns them on -----------------------------
start term
expect "a second dashboard is live" term wait_for term "WS//ONLINE"
expect "its mouse modes are on" term modes_on term
pid=$(dashboard_pid term)
expect "its process is found" term test -n "$pid"
[ -n "$pid" ] && kill -TERM "$pid"
expect "SIGTERM ends it" term wait_for term "EXITED:143"
expect "and the mouse modes are off" term modes_off term

start nomouse --no-mouse
expect "--no-mouse: the dashboard is live" nomouse wait_for nomouse "WS//ONLINE"
expect "--no-mouse: no mouse reporting" nomouse modes_off nomouse
quit nomouse

finish
