#!/usr/bin/env bash
# Instructions per machine step of the fast engine, counted by Valgrind's
# callgrind on smaller versions of the benchmark programs:
#
#   bench/instructions.sh                 # the release build of this tree
#   bench/instructions.sh path/to/stg-run # another build, to compare
#
# Unlike seconds, instruction counts do not depend on what else the machine
# is doing: the same binary and input give the same count, run after run,
# so they show changes of a few percent that wall times on a shared machine
# hide (docs/PERFORMANCE.md). The programs are bench/programs/* with smaller
# parameters (bench/reduced.sh: nfib 22, queens 7, tak 18 12 6, the 301st
# prime, a pipeline of 50,000), so that each takes seconds under callgrind;
# PROGRAMS="nfib30 tree23" picks others (also livelist10m, tree23). Add flags
# after the binary with FLAGS, e.g. FLAGS=--profile bench/instructions.sh.
#
# "per step" divides all the run's instructions by its steps; "per step
# after start-up" first takes away those of the same run stopped after one
# step (--max-steps 1: reading, checking and compiling the program, about
# 6 million instructions), which is what a step costs in the full-size
# programs, whose hundred million steps or so thin the start-up out.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/reduced.sh
. bench/reduced.sh
if ! command -v valgrind >/dev/null; then
  echo "instructions: valgrind is not installed (apt-get install valgrind)" >&2
  exit 2
fi
if [ $# -ge 1 ]; then
  BIN=$1
else
  cargo build --release --quiet
  BIN=$PWD/target/release/stg-run
fi
FLAGS=${FLAGS:-}
read -r -a PROGS <<<"${PROGRAMS:-nfib30 queens10 tak primes2000 pipeline}"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "| program | steps | instructions | per step | start-up | per step after start-up |"
echo "|---|---|---|---|---|---|"
for p in "${PROGS[@]}"; do
  name=$(reduced_name "$p")
  reduced "$p" "$WORK/$name.stg"
  # shellcheck disable=SC2086
  ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" "$WORK/$name.stg" $FLAGS 2>&1 >/dev/null |
    awk '/refs:/ { gsub(",", "", $NF); print $NF }')
  # shellcheck disable=SC2086
  steps=$("$BIN" "$WORK/$name.stg" --stats $FLAGS 2>&1 >/dev/null |
    awk '/machine steps/ { gsub(",", "", $1); print $1 }')
  # The start-up: the same run stopped by --max-steps after one step
  # (reading, checking and compiling the program and the Prelude, and the
  # error report; it exits with an error), which the reduced programs'
  # few million steps do not
  # thin out as the full-size ones' do.
  # shellcheck disable=SC2086
  start=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" "$WORK/$name.stg" --max-steps 1 $FLAGS 2>&1 >/dev/null |
    awk '/refs:/ { gsub(",", "", $NF); print $NF }' || true)
  echo "| $name | $steps | $ir | $(awk "BEGIN{ printf \"%.1f\", $ir / $steps }") | $start | $(awk "BEGIN{ printf \"%.1f\", ($ir - $start) / ($steps - 1) }") |"
done
