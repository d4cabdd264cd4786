#!/usr/bin/env bash
# End-to-end test of the search across every task's output and of Home's ACTIVITY// card:
# the dev server (seed 5, output streamed in pieces of 1-40 characters cut anywhere, as an
# agent streams it) and the real binary in tmux 200×50. A task's output view is opened (so
# its output is cached) while another task fails (so the activity history counts it); then
# `:grep WORD` lists the task's whole lines with the word highlighted, Enter opens the task's
# output searched for the word, on the line chosen, and after a restart with the server gone
# Home still draws the activity kept in the cache. The API key must never be on screen.
# Prints one line per check and a closing line "N passed, M failed"; exits 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

E2E_COLS=200 E2E_ROWS=50 E2E_ENV="COLORTERM="
# shellcheck source=lib/session.bash
source "Tests/e2e/lib/session.bash"
e2e_setup grep
SCREENS="$SCRATCH/screens.txt"   # every capture, to check the key never showed
# The theme's warn (#f59e0b) as the nearest 256-colour index under tmux-256color: the
# highlight of a match.
WARN_BG="48;5;214"

# start NAME [ARGS...]: the dashboard against the dev server, config and cache in the scratch dir.

start_server --output-pieces 1,40 || { echo "0 passed, 1 failed"; exit 1; }

# A seeded completed task and a word of its output found on two lines or more (each is a
# result row; the first is drawn selected, the second shows the highlight) and in no task's
# title or plan, so the results list that task only (it is the only one whose output gets
# cached). The lines are whole across the pieces the server cut them into.
read -r task word < <(api "/mesh/tasks" | python3 -c '
import json, re, sys, urllib.request
d = json.load(sys.stdin)
items = d["items"] if isinstance(d, dict) else d
meta = " ".join((x.get("title") or "") + " " + (x.get("plan") or "") for x in items).lower()
for x in items:
    if x["status"] != "completed":
        continue
    req = urllib.request.Request(sys.argv[1] + "/api/v1/mesh/tasks/" + x["id"] + "/output",
                                 headers={"x-makima-api-key": sys.argv[2]})
    page = json.load(urllib.request.urlopen(req))
    lines = "".join(e["data"]["text"] for e in (page["items"] if isinstance(page, dict) else page)
                    if e.get("type") == "task.output").split("\n")
    # Two lines (each is one row of the results) hold the word.
    for w in sorted(set(re.findall(r"\b[A-Za-z]{6,}\b", " ".join(lines)))):
        if w.lower() not in meta and sum(w.lower() in c.lower() for c in lines) >= 2:
            print(x["id"], w)
            sys.exit(0)
' "$URL" "$KEY")
title=$(api "/mesh/tasks/$task" | json 'd["title"]')
failing=$(api "/mesh/tasks?status=running" | json 'd["items"][0]["id"] if isinstance(d, dict) else d[0]["id"]')
echo "# searching for \"$word\" (in $task: $title); failing $failing"

urlencode() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }
# A task streaming a report in pieces: its lines hold words the stream cut.
report=$'## Findings\n\nThe **scheduler** drops `heartbeat` frames when *busy*.\n\n- the first point: frames queue behind the writer\n\n'
report+=$'```\nchecking disk quota\nwriting to disk\nFAILED: disk full\n```\n'
streamed=$(dev POST "/_dev/task?title=Streamed%20report" | json 'd["id"]')
pieces=$(dev POST "/_dev/hostile/output_text?task_id=$streamed&text=$(urlencode "$report")" | json 'd["events"]')
echo "# the report streamed to $streamed in $pieces events"

# --- Output reaches the cache, a failure reaches the activity history ------------------------
start report "makima://task/$streamed"
expect "the streamed report's view opens (its output is fetched and cached)" report \
  wait_for report "FAILED: disk full"
quit report
start fill "makima://task/$task"
expect "the task's output view opens (its output is fetched and cached)" fill wait_for fill "^ TASK//"
expect "the output holds the word" fill wait_for fill "$word"
dev POST "/_dev/task/$failing/status?status=failed" >/dev/null
expect "the failure arrives (toast)" fill wait_for fill "Task failed"
quit fill

# --- :grep --------------------------------------------------------------------------------------
start search
expect "Home is up" search wait_for search "WS//ONLINE"
t send-keys -t search :
t send-keys -t search -l "grep $word"
t send-keys -t search Enter
expect ":grep opens the GREP// results naming the pattern" search wait_for search "GREP// .*“$word” · [0-9]+ lines"
expect "a result row shows the task's title, status and the line" search \
  wait_for search "${title:0:20}.*COMPLETED.*$word"
expect "the match is highlighted in the warn colour ($WARN_BG)" search \
  wait_for search $'\e\\[[0-9;]*'"${WARN_BG}m[^ ]*${word}" -e
t send-keys -t search Enter
expect "Enter opens the task's output" search wait_for search "^ TASK//"
expect "...searched for the word, on a match" search wait_for search "/${word,,}  [1-9][0-9]*/[1-9][0-9]*"
t send-keys -t search n
expect "n steps on through the matches" search wait_for search "/${word,,}  [1-9][0-9]*/[1-9][0-9]*"
t send-keys -t search q
expect "q goes back to the results" search wait_for search "GREP//"
t send-keys -t search S
expect "S opens the command line with grep" search wait_for search "^ :grep"
t send-keys -t search Escape
t send-keys -t search -l ":grep zzqqxxnothing"
t send-keys -t search Enter
expect "a pattern found nowhere says so" search wait_for search "no cached output, title or plan holds"
quit search

# --- Lines the stream cut: found whole, each a row, Enter on the line chosen -------------------
start lines
expect "Home is up (lines)" lines wait_for lines "WS//ONLINE"
grep_for() {
  t send-keys -t lines Escape
  t send-keys -t lines -l ":grep $1"
  t send-keys -t lines Enter
}
grep_for heartbeat
expect "a word the stream cut is found, on its whole line" lines \
  wait_for lines "Streamed report.*The \*\*scheduler\*\* drops \`heartbeat\` frames when \*busy\*\."
grep_for "first point"
expect "two words cut apart are found: one line" lines wait_for lines "“first point” · 1 line · "
expect "...the whole line" lines wait_for lines "Streamed report.*- the first point: frames queue behind the writer"
grep_for disk
expect "three matching lines of one event are three rows" lines wait_for lines "“disk” · 3 lines"
expect "...the last one among them" lines wait_for lines "FAILED: disk full"
grep_for frames
expect "two lines hold \"frames\"" lines wait_for lines "“frames” · 2 lines"
t send-keys -t lines j
t send-keys -t lines Enter
expect "Enter on the second row opens the task on that line (the first of two matches)" lines \
  wait_for lines "/frames  1/2"
quit lines

# --- The activity plot survives a restart (server gone) ---------------------------------------
stop_server
start kept
expect "with the server down, Home draws the ACTIVITY// card from the cache" kept wait_for kept "ACTIVITY//"
expect "it counts the failed task in the last hour (fail/h scale max ≥ 1)" kept wait_for kept "fail/h .* max [1-9]"
expect "output events per minute are plotted with their scale" kept wait_for kept "out/min +[^ ]{30} +max [0-9]+"
quit kept

key_never_shown() { ! grep -qF "$KEY" "$SCREENS"; }
expect "the API key never appeared on any screen ($(grep -c '' "$SCREENS") lines captured)" kept key_never_shown

finish
