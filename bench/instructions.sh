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
# parameters (nfib 22, queens 7, tak 18 12 6, the 301st prime, a pipeline of
# 50,000), so that each takes seconds under callgrind. Add flags after the
# binary with FLAGS, e.g. FLAGS=--profile bench/instructions.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
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
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

sed 's/30#/22#/' bench/programs/nfib30.stg >"$WORK/nfib22.stg"
sed 's/10#/7#/' bench/programs/queens10.stg >"$WORK/queens7.stg"
sed 's/24#/18#/; s/16#/12#/; s/8#/6#/' bench/programs/tak.stg >"$WORK/tak18.stg"
sed 's/1999#/300#/' bench/programs/primes2000.stg >"$WORK/primes300.stg"
sed 's/1000000#/50000#/' bench/programs/pipeline.stg >"$WORK/pipeline50k.stg"

echo "| program | steps | instructions | per step |"
echo "|---|---|---|---|"
for p in nfib22 queens7 tak18 primes300 pipeline50k; do
  # shellcheck disable=SC2086
  ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" "$WORK/$p.stg" $FLAGS 2>&1 >/dev/null |
    awk '/refs:/ { gsub(",", "", $NF); print $NF }')
  # shellcheck disable=SC2086
  steps=$("$BIN" "$WORK/$p.stg" --stats $FLAGS 2>&1 >/dev/null |
    awk '/machine steps/ { gsub(",", "", $1); print $1 }')
  echo "| $p | $steps | $ir | $(awk "BEGIN{ printf \"%.1f\", $ir / $steps }") |"
done
