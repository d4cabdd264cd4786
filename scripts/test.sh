#!/usr/bin/env bash
# Every test: Swift unit and integration tests (the integration tests start the dev server
# themselves on loopback), then the end-to-end tests in a real tmux.
set -uo pipefail
cd "$(dirname "$0")/.."
export LANG=C.UTF-8 LC_ALL=C.UTF-8
mkdir -p .build
# Everything the tests write goes where the key leak check at the end can read it: their temp
# files (TMPDIR, fresh for each run) and the dev server logs the tests would otherwise delete.
# Outside the package: a test walks up from its temp files and must not find this checkout.
TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/makima-test-run.XXXXXX")
export TMPDIR
export MAKIMA_TEST_LOG_DIR="$TMPDIR/devserver-logs"
mkdir -p "$MAKIMA_TEST_LOG_DIR"
trap 'rm -rf "$TMPDIR"' EXIT
rm -f .build/e2e-*.txt
swift test --parallel --num-workers 2 > .build/test-output.txt 2>&1
status=$?
# Failures and the closing summary; the full log stays in .build/test-output.txt.
# The issues first: a long tail of suite lines must not push them out of the log.
grep -E 'recorded an issue|error:|XCTAssert|Fatal error' .build/test-output.txt | head -n 40
grep -E 'failed|✘|Executed|passed after|Test run with' .build/test-output.txt | grep -vE '^✔ Test [^r]' | tail -n 30

echo "== dev server tests (pytest, devserver/tests)"
python3 -m pytest devserver/tests -q > .build/devserver-tests.txt 2>&1
dev=$?
grep -E '^(FAILED|ERROR) ' .build/devserver-tests.txt | head -n 20
tail -n 1 .build/devserver-tests.txt
[ "$dev" -eq 0 ] || { echo "dev server tests failed (log: .build/devserver-tests.txt)"; status=1; }

for e2e in Tests/e2e/*.sh; do
  [ -f "$e2e" ] || continue
  echo "== $e2e"
  bash "$e2e" 2>&1 | tee ".build/e2e-$(basename "$e2e" .sh).txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
echo "== fuzz targets over their corpora (make fuzz runs libFuzzer)"
.build/debug/makima-fuzz Tests/Fuzz/Corpus || status=1

echo "== soak, short (make soak runs 30 minutes)"
python3 Tests/soak/soak.py --minutes 2.2 --settle 60 > .build/soak-short.txt 2>&1
soak=$?
grep -E '^(ok|FAIL|   )|soak passed|FAILED' .build/soak-short.txt | tail -n 40
[ "$soak" -eq 0 ] || { echo "short soak failed (log: .build/soak-short.txt)"; status=1; }

echo "== API keys in the test run's output"
scripts/check-key-leaks.sh .build/test-output.txt .build/devserver-tests.txt .build/e2e-*.txt \
  .build/soak-short.txt "$TMPDIR" || status=1
exit "$status"
