#!/usr/bin/env bash
# Benchmarks print figures; none of them is a pass/fail test.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -x .build/release/makima-tui ]; then
  .build/release/makima-tui bench "$@" || echo "bench: not implemented yet"
fi
