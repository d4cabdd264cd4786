#!/usr/bin/env bash
# End-to-end test of opening the task output's links, against the dev server (seed 5, no
# simulation) and the real binary in tmux 120×40, started with the API key in its environment
# and a stand-in `xdg-open` first on its PATH that records its arguments, environment and open
# descriptors:
# - `:open 1` hands exactly its link's URL to xdg-open, with no MAKIMA_ variable, no key, and
#   nothing open but 0, 1 and 2; the link in the output's last block (the output loaded when
#   the view opens) is drawn as [2] and `:open 2` opens it;
# - on an unfinished last line (no newline yet), a mailto: link is refused with its scheme
#   named and never reaches xdg-open, and the web link after it opens.
# Captures are polled with a timeout. Prints one line per check and "N passed, M failed";
# exits 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=lib/session.bash
source "Tests/e2e/lib/session.bash"
e2e_setup links 20
SCREENS="$SCRATCH/screens.txt"
OPENED="$SCRATCH/opened"
mkdir -p "$SCRATCH/bin" "$OPENED"
cat >"$SCRATCH/bin/xdg-open" <<EOF
#!/bin/sh
env > "$OPENED/env.\$\$"
ls -l /proc/self/fd > "$OPENED/fds.\$\$"
printf '%s\n' "\$@" > "$OPENED/argv.\$\$.tmp" && mv "$OPENED/argv.\$\$.tmp" "$OPENED/argv.\$\$"
EOF
chmod 755 "$SCRATCH/bin/xdg-open"
E2E_ENV="PATH=$SCRATCH/bin:/usr/bin:/bin"

urlencode() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }
# output TASK TEXT: one output event holding TEXT, stored and published.
output() { dev POST "/_dev/hostile/output_text?task_id=$1&text=$(urlencode "$2")" >/dev/null; }
runs() { find "$OPENED" -name 'argv.*' ! -name '*.tmp' | wc -l; }
opened() { cat "$OPENED"/argv.* 2>/dev/null | grep -qxF -- "$1"; }
# The descriptors each run had open, but the one `ls` opened to list them.
descriptors() { awk '/ -> / && $NF !~ /^\/proc\// { print $(NF - 2) }' "$OPENED"/fds.* | sort -n | uniq | tr '\n' ' '; }
open_link() { t send-keys -t "$1" :; t send-keys -t "$1" -l "open $2"; t send-keys -t "$1" Enter; }

start_server || { echo "0 passed, 1 failed"; exit 1; }

# --- links in a closed block and in the last block, loaded when the view opens ------------
task=$(dev POST "/_dev/task?status=running&title=Links+e2e+report" | json 'd["id"]')
output "$task" $'Read [the guide](https://example.com/e2e-guide) first.\n\n## Done\n\nThe build passed: see [the report](https://example.com/e2e-report).\n'
start report "makima://task/$task"
expect "the output's last block draws its link as [2]" report wait_for report "\[2\] https://example.com/e2e-report"
open_link report 1
expect ":open 1 says it opens the link" report wait_for report "opening https://example.com/e2e-guide"
expect "xdg-open got the URL" report wait_until opened "https://example.com/e2e-guide"
expect "xdg-open got the URL as its only argument" report test "$(cat "$OPENED"/argv.*)" = "https://example.com/e2e-guide"
no_makima_variable() { [ "$(runs)" -ge 1 ] && ! grep -q '^MAKIMA_' "$OPENED"/env.*; }
expect "xdg-open's environment holds no MAKIMA_ variable" report no_makima_variable
no_key() { [ "$(runs)" -ge 1 ] && ! grep -rqF -- "$KEY" "$OPENED"; }
expect "the API key reaches xdg-open nowhere" report no_key
expect "xdg-open had only 0, 1 and 2 open" report test "$(descriptors)" = "0 1 2 "
open_link report 2
expect ":open 2 opens the link in the last block" report wait_until opened "https://example.com/e2e-report"
quit report

# --- an unfinished last line: mailto refused, the web link opened -------------------------
live=$(dev POST "/_dev/task?status=running&title=Links+e2e+live" | json 'd["id"]')
output "$live" "Mail [ops](mailto:ops@example.com?attach=~/.config/makima-tui/credentials/default) or watch [live](https://example.com/e2e-live)"
start live "makima://task/$live"
expect "the unfinished line draws both links" live wait_for live "\[2\] https://example.com/e2e-live"
open_link live 1
expect "the mailto: link is refused with its scheme named" live wait_for live "not opened: a mailto: link"
open_link live 2
expect "the web link on the unfinished line opens" live wait_until opened "https://example.com/e2e-live"
expect "nothing else reached xdg-open" live test "$(runs)" -eq 3
no_mailto() { ! grep -rq "mailto" "$OPENED"; }
expect "the mailto: link never reached xdg-open" live no_mailto
quit live

if grep -q -- "$KEY" "$SCREENS" 2>/dev/null; then fail "the API key never shows on screen"; else pass "the API key never shows on screen"; fi
finish
