#!/usr/bin/env bash
# Writes .build/build-info.h with the commit being built (`git rev-parse`, "-dirty" when the
# work tree has changes), for `makima-tui --version`. Rewritten only when it changes, and then
# the one Swift file that reads it is touched: SwiftPM does not follow a header included by a
# system library's header, so without that the executable would keep the old commit.
set -euo pipefail
cd "$(dirname "$0")/.."
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || true)
if [ -n "$commit" ] && ! git diff --quiet HEAD -- 2>/dev/null; then commit="$commit-dirty"; fi
mkdir -p .build
header="#define MAKIMA_BUILD_COMMIT \"${commit:-unknown}\""
if [ ! -f .build/build-info.h ] || [ "$(cat .build/build-info.h)" != "$header" ]; then
  printf '%s\n' "$header" > .build/build-info.h
  touch Sources/makima-tui/BuildInfo.swift
  # A shim module compiled before the header existed (a plain `swift build`) does not know it
  # depends on it: its cached module goes too.
  find .build -name 'CBuildInfoShim-*.pcm' -delete 2>/dev/null || true
fi
