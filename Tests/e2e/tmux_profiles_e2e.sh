#!/usr/bin/env bash
# End-to-end test of several meshes in one dashboard: two dev servers (different seeds, each
# taking only its own key), two profiles stored with `login --name`, the real binary in tmux:
# - the masthead names the active profile;
# - `:profile sta<Tab>` completes the name, Enter moves the dashboard to that mesh in place (the
#   same process): masthead, connection and the Daemons pane are the other server's;
# - `:profile nope` says which profiles exist and leaves the mesh on screen;
# - switching back shows the first mesh again.
# Prints one line per check and "N passed, M failed"; exits 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

# shellcheck source=lib/session.bash
source "Tests/e2e/lib/session.bash"
e2e_setup profiles

KEY_B=mk_e2e_profile_prod_0002
start_staging_and_prod "$KEY_B"

cli login --name staging --server "$URL_A" <<<"$KEY" >/dev/null 2>&1 || echo "# login staging failed"
cli login --name prod --server "$URL_B" <<<"$KEY_B" >/dev/null 2>&1 || echo "# login prod failed"
# A task only each mesh has: its title on Tasks says whose data is on screen.
curl -fsS -X POST "$URL_A/_dev/task?title=only-on-staging&status=running" >/dev/null
curl -fsS -X POST "$URL_B/_dev/task?title=only-on-prod&status=running" >/dev/null
echo "# staging $host_a, prod $host_b"

start_profiles dash 120 40
expect "the masthead names the active profile (prod)" dash wait_for dash "prod · $host_b"
expect "… and it goes live" dash wait_for dash "WS//ONLINE"
pid_before=$(t list-panes -t dash -F '#{pane_pid}')
t send-keys -t dash 3
expect "Tasks lists prod's task" dash wait_for dash "only-on-prod"

t send-keys -t dash : p r o f i l e Space s t a Tab
expect ":profile sta<Tab> completes the profile's name" dash wait_for dash ":profile staging"
t send-keys -t dash Enter
expect "Enter switches in place: the masthead names staging" dash wait_for dash "staging · $host_a"
expect "… the connection is live on staging" dash wait_for dash "WS//ONLINE"
expect "… and Tasks lists staging's task, not prod's" dash wait_for dash "only-on-staging"
expect "… prod's task gone from the screen" dash wait_gone dash "only-on-prod"
expect "… in the same process" dash test "$(t list-panes -t dash -F '#{pane_pid}')" = "$pid_before"

t send-keys -t dash : p r o f i l e Space n o p e Enter
expect ":profile nope says which profiles are stored" dash wait_for dash "no profile named nope \(stored: staging, prod\)"
expect "… and staging stays on screen" dash wait_for dash "staging · $host_a"

t send-keys -t dash : p r o f i l e Space p r o d Enter
expect "switching back: prod in the masthead" dash wait_for dash "prod · $host_b"
expect "… and prod's task" dash wait_for dash "only-on-prod"
expect "the dashboard is still running" dash wait_gone dash "EXITED:"
quit dash
finish
