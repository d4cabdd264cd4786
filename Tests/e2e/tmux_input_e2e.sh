#!/usr/bin/env bash
# End-to-end test of hostile terminal input, against the dev server (seed 5) and the real
# binary in tmux 120×40, the bytes sent as a terminal would send them (`send-keys -H`).
# The key is stored by `makima-tui login`, so a sign-out would delete its file. Checks: on
# Settings › SIGN OUT, one real Enter then a paste whose text held the end marker followed by
# CR (`ESC[200~x ESC[201~ CR`), and two such pastes 0.4 s apart, keep the key file; an OSC 52
# string (`ESC]52;c;… BEL`, digits in its body) does not switch panes; Q inside a paste, or
# in a burst, does not quit; a megabyte-long CSI sequence is dropped and a key after it acts;
# Enter pressed alone twice does sign out, and Q alone quits.
# Prints one line per check and "N passed, M failed"; exits 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=lib/session.bash
source "Tests/e2e/lib/session.bash"
e2e_setup input

# The hex of a string's bytes (printf escapes allowed).
hex() { printf "$1" | od -An -tx1 | tr -s ' \n' ' '; }
# shellcheck disable=SC2046 # the hex bytes are separate arguments
send_hex() { t send-keys -t "$1" -H $2; }
# A key pressed alone, as a person does: after a pause longer than the burst guard's window.
press() { sleep 0.6; t send-keys -t "$1" "$2"; }
key_file() { find "$SCRATCH/config" -path '*credentials*' -type f 2>/dev/null | head -n 1; }
has_key_file() { [ -n "$(key_file)" ] && grep -q "$KEY" "$(key_file)"; }
no_key_file() { [ -z "$(key_file)" ]; }
# still TARGET REGEX: after a second, the screen does not match (something that must not happen).
still_not() { sleep 1; ! capture "$1" | grep -qE -- "$2"; }
PANES='^ (CONTRACTS|TASKS|DIRECTIVES|DAEMONS|LISTEN|SETTINGS|CONTRACT|TASK)//'

start_server || { echo "0 passed, 1 failed"; exit 1; }

printf '%s\n' "$KEY" | env XDG_CONFIG_HOME="$SCRATCH/config" MAKIMA_CONFIG_DIR= MAKIMA_API_KEY= \
  "$BIN" login --server "$URL" --allow-insecure-http >"$SCRATCH/login.txt" 2>&1
expect "login stores the key in a file" "" has_key_file

# The dashboard with the stored key (no MAKIMA_API_KEY, no MAKIMA_SERVER_URL).
t new-session -d -s in -x 120 -y 40 \
  "env TERM=tmux-256color LANG=C.UTF-8 LC_ALL= XDG_CONFIG_HOME=$SCRATCH/config XDG_CACHE_HOME=$SCRATCH/cache MAKIMA_CONFIG_DIR= MAKIMA_CACHE_DIR= MAKIMA_SERVER_URL= MAKIMA_API_KEY= bash --norc --noprofile -c '$BIN; echo EXITED:\$?; sleep 600'"
expect "the dashboard is live with the stored key" in wait_for in "WS//ONLINE"

# --- an OSC 52 string is not keys -------------------------------------------------------------
send_hex in "$(hex '\033]52;c;MjM0NTY3\007')"
expect "ESC]52;c;MjM0NTY3 BEL switches to no pane" in still_not in "$PANES"
press in 3
expect "a key after it acts (3: Tasks)" in wait_for in "^ TASKS//"

# --- one long CSI sequence, into the command line (a key of it typed would show there) ----------
press in :
expect "the command line opens" in wait_for in "^ : *$"
python3 -c 'import sys; sys.stdout.buffer.write(b"\x1b[" + b"1;" * 500000 + b"\x1b[<x")' >"$SCRATCH/csi"
t load-buffer -b csi "$SCRATCH/csi"
t paste-buffer -b csi -t in
press in x
TIMEOUT=60 expect "a megabyte-long CSI types nothing; the key after it does" in wait_for in "^ :x *$"
press in Escape
press in 2
expect "and keys act again (2: Contracts)" in wait_for in "^ CONTRACTS//"

# --- SIGN OUT: pastes ending in CR confirm nothing -------------------------------------------
press in 7
expect "Settings" in wait_for in "› SIGN OUT"
press in g
for _ in 1 2 3; do t send-keys -t in j; done
expect "SIGN OUT is selected" in wait_for in "▸ › SIGN OUT"
press in Enter
expect "Enter alone arms sign-out" in wait_for in "press Enter again to sign out"
sleep 0.6
send_hex in "$(hex '\033[200~x\033[201~\r')"
expect "then a paste holding its end marker, then CR, does not sign out" in still_not in "01 SERVER"
expect "and the key file is kept" in has_key_file
sleep 6  # sign-out unarms
send_hex in "$(hex '\033[200~x\033[201~\r')"
sleep 0.4
send_hex in "$(hex '\033[200~x\033[201~\r')"
expect "two such pastes 0.4 s apart do not sign out" in still_not in "01 SERVER"
expect "and the key file is still kept" in has_key_file

# --- Q inside a paste, or in a burst -------------------------------------------------------------
press in 1
send_hex in "$(hex '\033[200~abc\033[201~Q')"
expect "Q inside a paste does not quit" in still_not in "EXITED"
sleep 0.6
send_hex in "$(hex 'abQ')"
expect "Q in a burst does not quit" in still_not in "EXITED"

# --- typed alone, the same keys act --------------------------------------------------------------
press in 7
press in g
for _ in 1 2 3; do t send-keys -t in j; done
expect "SIGN OUT is selected again" in wait_for in "▸ › SIGN OUT"
press in Enter
press in Enter
expect "Enter alone twice signs out" in wait_for in "01 SERVER"
expect "and removes the key file" in wait_until no_key_file
t send-keys -t in C-c
expect "Ctrl-C ends it" in wait_for in "EXITED:0"
start q2
expect "a second dashboard (key from the environment) is live" q2 wait_for q2 "WS//ONLINE"
expect "Q typed alone quits" q2 quit q2

finish
