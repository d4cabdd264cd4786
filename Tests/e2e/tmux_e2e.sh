#!/usr/bin/env bash
# End-to-end tests of the dashboard in a real tmux (TERM=tmux-256color, 120×40): what is on
# the screen, the colours actually sent, resizing, and that every way out leaves the terminal
# clean. Captures are polled with a timeout, never read after a fixed sleep.
# Prints one line per check and a closing line "N passed, M failed"; exits 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

# No server here: the dashboard runs unconfigured (it opens on sign-in; Esc shows the
# dashboard underneath), with config and cache in a scratch dir
# (never the developer's own profile).
# shellcheck source=lib/session.bash
source "Tests/e2e/lib/session.bash"
e2e_setup tmux 10
SCREENS="$SCRATCH/screens.txt"   # every capture, for `make test`'s check that no API key showed
# Colour indices the design branch's ColorMapper picks for the makima theme on a 256-colour
# terminal (CIEDE2000 nearest): accent #9bc3ff -> 111, background #0c1729 -> 233.
ACCENT_FG="38;5;111"
BACKGROUND_BG="48;5;233"

app_pid() {
  local shell_pid
  shell_pid=$(t display-message -p -t "$1" '#{pane_pid}')
  pgrep -P "$shell_pid" -f makima-tui | head -n 1
}

terminal_restored() {
  [ "$(t display-message -p -t "$1" '#{alternate_on}')" = "0" ] &&
  [ "$(t display-message -p -t "$1" '#{cursor_flag}')" = "1" ]
}

# --- The dashboard at 120x40 -------------------------------------------------------------
start_unconfigured main
expect "masthead shows MAKIMA" main wait_for main "MAKIMA"
expect "masthead shows the WS// pill" main wait_for main "WS//IDLE"
expect "the sign-in pane is a breadcrumb over Home" main wait_for main "NAV// │ HOME › SIGN IN"
expect "unconfigured, it opens on sign-in" main wait_for main "01 SERVER → 02 KEY"
t send-keys -t main Escape
expect "Esc leaves sign-in for the dashboard underneath" main wait_gone main "01 SERVER"
expect "Home says K signs in" main wait_for main "K signs in here"
expect "NAV// strip lists the panes" main wait_for main "NAV// .*1 HOME  2 CONTRACTS  3 TASKS .*7 SETTINGS"
expect "Home shows the SYSTEM// and GLOSSARY// cards" main wait_for main "SYSTEM//.*GLOSSARY//"
expect "accent is sent as $ACCENT_FG" main wait_for main "\\[[0-9;]*${ACCENT_FG}m" -e
expect "background is sent as $BACKGROUND_BG" main wait_for main "\\[[0-9;]*${BACKGROUND_BG}m" -e
expect "the current NAV item is in reverse video" main wait_for main $'\e\\[[0-9;]*7m[^ ]*1 HOME' -e

t send-keys -t main g
expect "g reveals the English glosses" main wait_for main "支配する control"
sleep 1  # a later press is a new tap, not a double tap or auto-repeat
t send-keys -t main g
expect "g again hides them" main wait_gone main "命令 directives"

expect "Home says how to configure a server" main wait_for main "not configured: run \`makima-tui login --server URL\`"
t send-keys -t main 2
expect "2 opens CONTRACTS, empty, saying how to configure" main wait_for main "^ +not configured: run"

expect "the pane header is CONTRACTS// 契約" main wait_for main "CONTRACTS//  契約"

t send-keys -t main '?'
expect "? opens the help overlay" main wait_for main "HELP//"
expect "help lists the list keys" main wait_for main "filter the list"
t send-keys -t main Escape
expect "Esc closes the help" main wait_gone main "HELP//"

t send-keys -t main ':' 'dae' Tab
expect ":dae<Tab> completes to daemons" main wait_for main "^ :daemons"
t send-keys -t main Enter
expect "Enter jumps to DAEMONS" main wait_for main "DAEMONS//"

# --- Resize to 80x24 and below the minimum -------------------------------------------------
t resize-window -t main -x 80 -y 24
expect "after resize the NAV strip fits 80 columns" main wait_for main "^ NAV// │ 1 HOME 2 CONTRACTS 3 TASKS 4 DIRECTIVES 5 DAEMONS 6 LISTEN 7 SETTINGS *$"
footer_on_last_line() { capture main | sed -n '24p' | grep -q '? help'; }
expect "after resize the footer is on row 24" main footer_on_last_line
clock_at_right_edge() { capture main | sed -n '1p' | grep -qE '[0-9]{2}:[0-9]{2} ?$'; }
expect "after resize the masthead is laid out for 80 columns" main clock_at_right_edge
t resize-window -t main -x 50 -y 12
expect "below 60x16 it asks to be made bigger" main wait_for main "Make me bigger"
t resize-window -t main -x 120 -y 40
expect "back at 120x40 the dashboard returns" main wait_for main "NAV// .*1 HOME  2 CONTRACTS"

# --- q goes back, then asks and quits; the shell gets a clean screen ------------------------------
# `2` then `:daemons`: the stack is the path HOME › DAEMONS, not the history.
t send-keys -t main q
expect "q goes back along the path, to Home" main wait_for main "^ NAV// │ 1 HOME  2 CONTRACTS"
t send-keys -t main q
expect "q on the first pane asks before quitting" main wait_for main "Quit\\? y/n"
t send-keys -t main y
expect "y quits with status 0" main wait_for main "EXITED:0"
no_dashboard_left() { ! capture main | grep -qE "MAKIMA|NAV//|WS//"; }
expect "no dashboard remains on the shell's screen" main no_dashboard_left
expect "alternate screen left and cursor visible" main terminal_restored main

# --- Other ways out ---------------------------------------------------------------------
start_unconfigured ctrlc
wait_for ctrlc "MAKIMA" >/dev/null
t send-keys -t ctrlc C-c
expect "Ctrl-C quits with status 0" ctrlc wait_for ctrlc "EXITED:0"
expect "Ctrl-C leaves the terminal restored" ctrlc terminal_restored ctrlc

start_unconfigured term
wait_for term "MAKIMA" >/dev/null
kill -TERM "$(app_pid term)" 2>/dev/null
expect "SIGTERM exits with 143" term wait_for term "EXITED:143"
expect "SIGTERM leaves the terminal restored" term terminal_restored term

# Swift's backtracer (chained after our handler restores the terminal) would wait for a key.
start_unconfigured crash SWIFT_BACKTRACE=interactive=no
wait_for crash "MAKIMA" >/dev/null
kill -SEGV "$(app_pid crash)" 2>/dev/null
expect "a crash (SIGSEGV) still exits through the signal" crash wait_for crash "EXITED:139"
expect "a crash leaves the terminal restored" crash terminal_restored crash
expect "the crash report is readable in the shell's scrollback" crash wait_for crash "Program crashed" -S -3000

# --- Without colour -------------------------------------------------------------------------
start_unconfigured nocolor NO_COLOR=1
wait_for nocolor "01 SERVER" >/dev/null
t send-keys -t nocolor Escape
expect "NO_COLOR: the dashboard still draws" nocolor wait_for nocolor "NAV// .*1 HOME"
no_colour_sent() { ! capture nocolor -e | grep -qE $'\e\\[[0-9;]*(38|48);5;'; }
expect "NO_COLOR: no colour sequences are sent" nocolor no_colour_sent
expect "NO_COLOR: the current NAV item is in reverse video" nocolor wait_for nocolor $'\e\\[[0-9;]*7m[^ ]*1 HOME' -e
t send-keys -t nocolor Q
expect "Q quits" nocolor wait_for nocolor "EXITED:0"

# --- A terminal whose locale is not UTF-8 ---------------------------------------------------
# There UTF-8 bytes would be read as 8-bit characters, some of them C1 controls: the dashboard
# must not switch to UTF-8 behind the terminal's back, and draws ASCII only.
start_unconfigured ascii LANG=C
expect "non-UTF-8 locale: sign-in is drawn in ASCII" ascii wait_for ascii "01 SERVER -> 02 KEY"
only_ascii_sent() { ! capture ascii -e | LC_ALL=C grep -q $'[\x80-\xff]'; }
expect "non-UTF-8 locale: every byte of sign-in is ASCII" ascii only_ascii_sent
t send-keys -t ascii Escape
expect "non-UTF-8 locale: the dashboard still draws" ascii wait_for ascii "NAV// .*1 HOME"
expect "non-UTF-8 locale: every byte on the screen is ASCII" ascii only_ascii_sent
expect "non-UTF-8 locale: Q quits" ascii quit ascii

# --- Quitting while TLS handshakes fail ----------------------------------------------------
# A server whose certificate is not trusted: the Home requests and the WebSocket fail in the
# handshake, and quitting at once must not crash in OpenSSL's exit-time clean-up.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=makima-e2e \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$SCRATCH/tls.key" -out "$SCRATCH/tls.pem" >/dev/null 2>&1
# The peer ends when its stdin (fd 7, closed when this script exits) closes.
exec 7> >(exec python3 Tests/IntegrationTests/Fixtures/ws_peer.py --cert "$SCRATCH/tls.pem" \
  --key "$SCRATCH/tls.key" >"$SCRATCH/peer.txt" 2>&1)
peer_ready() { grep -q '^READY ' "$SCRATCH/peer.txt" 2>/dev/null; }
if wait_until peer_ready; then
  TLS_URL="https://127.0.0.1:$(sed -n 's/^READY //p' "$SCRATCH/peer.txt")"
  for i in 1 2 3 4; do
    start_unconfigured "tls$i" MAKIMA_SERVER_URL="$TLS_URL" MAKIMA_API_KEY=mk_e2e_tls_test_key_0000
    wait_for "tls$i" "MAKIMA" >/dev/null
    t send-keys -t "tls$i" Q
    expect "quitting while TLS handshakes fail exits 0 (run $i)" "tls$i" wait_for "tls$i" "EXITED:0"
  done
else
  fail "the TLS peer did not start: $(cat "$SCRATCH/peer.txt")"
fi

finish
