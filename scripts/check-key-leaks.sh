#!/usr/bin/env bash
# Fails when an API key the tests use appears anywhere the test run wrote: the Swift test log,
# the end-to-end output, the dev server tests' output and logs, and whatever the tests left in
# their temp directory. The keys are collected from the test sources and the dev server, so a
# key added to a new test is checked too. A hit is reported masked (the report is output too).
# Usage: scripts/check-key-leaks.sh FILE_OR_DIR...
set -uo pipefail
cd "$(dirname "$0")/.."

# mk_ keys with a digit, 12 characters or more (C shim names such as mk_curl_setopt_long have
# no digit and are not keys).
mapfile -t keys < <(grep -rhoE 'mk_[A-Za-z0-9_.-]*[0-9][A-Za-z0-9_.-]*' Tests devserver | awk 'length($0) >= 12' | sort -u)
places=()
for p in "$@"; do [ -e "$p" ] && places+=("$p"); done
if [ "${#keys[@]}" -eq 0 ] || [ "${#places[@]}" -eq 0 ]; then
  echo "key leak check: nothing to check (${#keys[@]} keys, ${#places[@]} places)"
  exit 1
fi

# Where a key belongs is left out: a stored credential (credentials/<id>.key, mode 0600), the
# dev server's own database (it is the server, and keeps its keys), and the compiler's macro
# expansions of the test sources (source code, not output).
mapfile -t files < <(find "${places[@]}" -type f ! -path '*/credentials/*.key' ! -name 'devserver.sqlite3*' \
  ! -name 'server.db*' ! -path '*/swift-generated-sources/*' 2>/dev/null)
leaks=0
for key in "${keys[@]}"; do
  hits=$(printf '%s\0' "${files[@]}" | xargs -0 grep -laF -e "$key" -- 2>/dev/null | head -n 5)
  if [ -n "$hits" ]; then
    echo "FAIL - API key mk_…${key: -4} appears in:"
    echo "$hits" | sed 's/^/    /'
    leaks=1
  fi
done
[ "$leaks" -eq 0 ] && echo "ok   - none of the ${#keys[@]} test API keys appears in the ${#files[@]} files the test run wrote"
exit "$leaks"
