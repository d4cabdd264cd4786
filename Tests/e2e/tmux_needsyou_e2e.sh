#!/usr/bin/env bash
# End-to-end test of what needs the operator, in a real tmux against the dev server: the
# dashboard runs in window 1 while window 2 is on screen. A task that fails must raise the
# needs-you count (masthead and the pane's title, `#{pane_title}`), set window 1's bell flag,
# and run the operator's notify_command once with the item (arguments and JSON on stdin);
# `n` opens the failed task's output and `x` acknowledges it (the count goes down again).
# Beside it, `makima-tui wait` runs in windows of its own: on the task's status (exit 0, the
# task printed), on a question (exit 0), and on a status that never comes (exit 9 at its
# timeout, nothing printed). The API key is in no output.
# Prints one line per check and "N passed, M failed"; exits 1 on failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

# Windows count from 1: the dashboard is sess:1, the window on screen sess:2.
E2E_TMUX_CONF='set -g base-index 1'
# shellcheck source=lib/session.bash
source "Tests/e2e/lib/session.bash"
e2e_setup needsyou 20

start_server || { echo "0 passed, 1 failed"; exit 1; }

# The operator's hook: each run appends its arguments and then its stdin.
cat >"$SCRATCH/hook.sh" <<HOOK
#!/bin/sh
{ printf 'ARGS'; for a in "\$@"; do printf ' [%s]' "\$a"; done; printf '\n'; cat; } >> "$SCRATCH/hook.log"
HOOK
chmod +x "$SCRATCH/hook.sh"
mkdir -p "$SCRATCH/config/makima-tui"
printf '{"version":1,"profiles":[],"settings":{"notifications":{"bell":false},"notify_command":["%s"]}}\n' \
  "$SCRATCH/hook.sh" >"$SCRATCH/config/makima-tui/config.json"

ENV="env TERM=tmux-256color LANG=C.UTF-8 LC_ALL= XDG_CONFIG_HOME=$SCRATCH/config XDG_CACHE_HOME=$SCRATCH/cache MAKIMA_CONFIG_DIR= MAKIMA_CACHE_DIR= MAKIMA_SERVER_URL=$URL MAKIMA_API_KEY=$KEY"
tasks=$(api "/mesh/tasks?status=running" | json '" ".join(t["id"] for t in (d["items"] if isinstance(d, dict) else d)[:2])')
read -r task other <<<"$tasks"
title=$(api "/mesh/tasks/$task" | json 'd["title"]')
echo "# failing $task ($title); $other never completes in time"

start_piped sess
t new-window -d -t sess:2 "sleep 600"
# A wait prints what ended it, then its status on a line of its own.
waiter() { t new-window -d -t "sess:$1" "$ENV bash --norc --noprofile -c '$BIN wait $2 > $SCRATCH/wait$1.out 2>&1; echo \$? > $SCRATCH/wait$1.rc; sleep 600'"; }

expect "the pill reaches WS//ONLINE" sess:1 wait_for sess:1 "WS//ONLINE"
count() { t display -p -t sess:1 '#{pane_title}' | sed -n 's/^(\([0-9]*\)) Makima.*/\1/p'; }
titled() { t display -p -t sess:1 '#{pane_title}' | grep -q 'Makima'; }
expect "the pane's title is the dashboard's" sess:1 wait_until titled
before=$(count)
before=${before:-0}
echo "# needs you at start: $before"
# Nothing that was there at start runs the hook (it was there when the operator last looked).
hook_silent() { [ ! -s "$SCRATCH/hook.log" ]; }
expect "nothing listed at start ran the hook" sess:1 hook_silent

waiter 3 "--task $task --status failed --timeout 60"
waiter 4 "--question --timeout 60 --json"
waiter 5 "--task $other --status completed --timeout 2"
t select-window -t sess:2
# The waits are running (each has made its first read) before anything changes.
waiting() { [ "$(t list-windows -t sess -F x | wc -l)" -ge 5 ] && [ ! -e "$SCRATCH/wait3.rc" ]; }
expect "the waits are running" sess:3 wait_until waiting

dev POST "/_dev/task/$task/status?status=failed&reason=exit%201" >/dev/null
raised() { [ "$(count)" = $((before + 1)) ]; }
expect "the pane's title counts one more needing you ($((before + 1)))" sess:1 wait_until raised
expect "the masthead says NEEDS YOU $((before + 1))" sess:1 wait_for sess:1 "NEEDS YOU $((before + 1))"
flag() { [ "$(t display -p -t sess:1 '#{window_bell_flag}')" = 1 ]; }
expect "window 1's bell flag is set while window 2 is on screen" sess:1 wait_until flag
hooked() { grep -qF "ARGS [failed] [failed:$task]" "$SCRATCH/hook.log" 2>/dev/null; }
expect "notify_command ran with the failed item as arguments" sess:1 wait_until hooked
stdin_json() {
  python3 - "$SCRATCH/hook.log" "$task" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
objs = [json.loads(l) for l in lines if l.startswith("{")]
ok = [o for o in objs if o.get("id") == "failed:" + sys.argv[2]]
sys.exit(0 if len(ok) == 1 and ok[0]["kind"] == "failed" and ok[0]["link"] == "makima://task/" + sys.argv[2] else 1)
PY
}
expect "its stdin held the item as JSON, once" sess:1 stdin_json
rc_is() { [ -e "$SCRATCH/wait$1.rc" ] && [ "$(cat "$SCRATCH/wait$1.rc")" = "$2" ]; }
expect "wait --task … --status failed exits 0" sess:3 wait_until rc_is 3 0
expect "and prints the task and its status" sess:3 grep -qE "^$task	failed" "$SCRATCH/wait3.out"
expect "wait on a status that never comes exits 9 at its timeout" sess:5 wait_until rc_is 5 9
expect "and prints nothing on stdout" sess:5 bash -c "! grep -q '^$other' '$SCRATCH/wait5.out'"

# The seeded mesh may have a question waiting already (the wait then ends at once): either
# way the wait ends with one printed.
dev POST "/_dev/question?text=Deploy%20to%20prod%3F" >/dev/null
expect "wait --question exits 0 once a question waits" sess:4 wait_until rc_is 4 0
question_json() { json 'd["question"]' <"$SCRATCH/wait4.out" | grep -q .; }
expect "and prints it as JSON" sess:4 question_json

t select-window -t sess:1
t send-keys -t sess:1 n
expect "n opens the oldest item; the failed task is among them" sess:1 wait_for sess:1 "TASK|DIRECTIVE"
# n goes round the items; the failed task's output is reached within the count.
for _ in $(seq 1 $((before + 3))); do
  capture sess:1 | grep -qF "TASK ${title:0:30}" && break
  t send-keys -t sess:1 n
  sleep 0.3
done
expect "n reaches the failed task's output" sess:1 wait_for sess:1 "TASK ${title:0:30}"
now=$(count)
t send-keys -t sess:1 x
lowered() { [ "${now:-0}" -gt 0 ] && [ "$(count)" = $((now - 1)) ]; }
expect "x acknowledges it: the title counts one fewer" sess:1 wait_until lowered
once() { [ "$(grep -c "^ARGS \[failed\] \[failed:$task\]" "$SCRATCH/hook.log")" = 1 ]; }
expect "the hook ran once for the failed item" sess:1 once

key_absent() { ! grep -qF "$KEY" "$SCRATCH/sess.raw" "$SCRATCH/hook.log" "$SCRATCH"/wait*.out; }
expect "the API key is in no output ($(wc -c <"$SCRATCH/sess.raw") bytes)" sess:1 key_absent

finish
