#!/usr/bin/env bash
# Every test: Swift unit and integration tests (the integration tests start the dev server
# themselves on loopback), then the end-to-end tests in a real tmux.
set -euo pipefail
cd "$(dirname "$0")/.."
export LANG=C.UTF-8 LC_ALL=C.UTF-8
swift test --parallel --num-workers 2 2>&1 | tee .build/test-output.txt | grep -vE '^(\[|Test Case|◇|↳|✔ Test [a-zA-Z]|✔ Suite)' || true
status=${PIPESTATUS[0]}
tail -n 3 .build/test-output.txt
exit "$status"
