#!/usr/bin/env bash
# `make fuzz`: builds the fuzz targets (Tests/Fuzz) with libFuzzer in their own build
# directory and runs each for FUZZ_SECONDS (default 600) under `nice -n 19`. New interesting
# inputs go to .build/fuzz/corpus/<target>; a crash or broken invariant stops that target and
# leaves its input in .build/fuzz/artifacts/. Prints executions per target at the end.
#   FUZZ_SECONDS=60 FUZZ_TARGETS="events theme" FUZZ_PARALLEL=1 make fuzz
# FUZZ_TIMEOUT (default 60) is libFuzzer's per-input limit in wall-clock seconds: at nice 19 on
# cores busy with builds an input of a few hundred milliseconds can wait that long for the CPU,
# so a tighter limit reports starvation as a hang.
# The search and table targets assert a time bound: their inputs are expanded into lines of
# up to megabytes, where work growing with the square of a line takes minutes; they run with
# FUZZ_BOUNDED_TIMEOUT (default 10) seconds per input, and an input over it is a finding.
set -uo pipefail
cd "$(dirname "$0")/.."
export LANG=C.UTF-8 LC_ALL=C.UTF-8
# libFuzzer, not the Swift runtime's backtracer, must catch a trap: it saves the input.
export SWIFT_BACKTRACE=enable=no

SECONDS_PER_TARGET=${FUZZ_SECONDS:-600}
TIMEOUT=${FUZZ_TIMEOUT:-60}
SCRATCH=.build/fuzz
ALL_TARGETS="handshake events models markdown sanitizer theme search table input config date frames"
TARGETS=${FUZZ_TARGETS:-$ALL_TARGETS}
mkdir -p "$SCRATCH/artifacts" "$SCRATCH/logs"

echo "== building the fuzz targets with -sanitize=fuzzer ($SCRATCH)"
swift build --scratch-path "$SCRATCH" --product makima-fuzz \
  -Xswiftc -sanitize=fuzzer -Xswiftc -DMAKIMA_LIBFUZZER >"$SCRATCH/logs/build.txt" 2>&1 || {
  tail -n 30 "$SCRATCH/logs/build.txt"; exit 1; }
BIN="$SCRATCH/debug/makima-fuzz"

run_target() {
  local target=$1 timeout=$TIMEOUT
  case $target in search | table) timeout=${FUZZ_BOUNDED_TIMEOUT:-10} ;; esac
  mkdir -p "$SCRATCH/corpus/$target"
  # The first corpus folder receives new inputs; the committed one is only read.
  MAKIMA_FUZZ_TARGET=$target nice -n 19 "$BIN" \
    -max_total_time="$SECONDS_PER_TARGET" -timeout="$timeout" -max_len=16384 -print_final_stats=1 \
    -artifact_prefix="$SCRATCH/artifacts/$target-" \
    "$SCRATCH/corpus/$target" "Tests/Fuzz/Corpus/$target" >"$SCRATCH/logs/$target.txt" 2>&1
}

pids=()
for target in $TARGETS; do
  echo "== fuzzing $target for ${SECONDS_PER_TARGET}s (log: $SCRATCH/logs/$target.txt)"
  if [ -n "${FUZZ_PARALLEL:-}" ]; then run_target "$target" & pids+=($!); else run_target "$target"; fi
done
for pid in "${pids[@]}"; do wait "$pid"; done

status=0
printf '%-10s %14s %9s %7s %8s  %s\n' target executions exec/s seconds corpus result
for target in $TARGETS; do
  log="$SCRATCH/logs/$target.txt"
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  took=$(grep -oE 'Done [0-9]+ runs in [0-9]+ second' "$log" | grep -oE 'in [0-9]+' | tr -dc 0-9)
  corpus=$(find "$SCRATCH/corpus/$target" -type f | wc -l)
  if grep -qE '^==[0-9]+== ERROR|deadly signal|invariant broken|Fatal error' "$log"; then
    result="FAILED: $(grep -m1 -oE 'invariant broken: .*|Fatal error: .*|ERROR: .*' "$log" | cut -c1-100)"
    status=1
  else
    result=ok
  fi
  printf '%-10s %14s %9s %7s %8s  %s\n' "$target" "${runs:-?}" "${rate:-?}" "${took:-?}" "$corpus" "$result"
done
ls "$SCRATCH"/artifacts/ 2>/dev/null | sed 's/^/artifact: /'
exit "$status"
