#!/usr/bin/env bash
# Two builds of stg-run side by side, on the benchmark programs:
#
#   bench/compare.sh OLD_BIN NEW_BIN            # all programs
#   bench/compare.sh OLD_BIN NEW_BIN tak nfib30 # some of them
#
# For example, against the build of an earlier commit:
#   git worktree add /tmp/base <commit> && (cd /tmp/base && cargo build --release)
#   bench/compare.sh /tmp/base/target/release/stg-run target/release/stg-run
#
# Each program runs $RUNS times (default 5) per binary, the two binaries
# alternating so that both see the same machine load; the table gives the
# best wall time and peak RSS of each and the speed-up old/new. Every run's
# output is checked against bench/programs/<p>.stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: bench/compare.sh OLD_BIN NEW_BIN [program ...]" >&2
  exit 2
fi
OLD=$1 NEW=$2
shift 2
RUNS=${RUNS:-5}
PROGRAMS=("$@")
if [ ${#PROGRAMS[@]} -eq 0 ]; then
  PROGRAMS=(nfib30 queens10 primes2000 tak pipeline)
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# one timed run: prints "seconds peak-RSS-KB"; checks the output
run() {
  local bin=$1 p=$2
  /usr/bin/time -f "%e %M" -o "$WORK/time" "$bin" "bench/programs/$p.stg" >"$WORK/out" 2>"$WORK/err"
  if ! cmp -s "$WORK/out" "bench/programs/$p.stdout"; then
    echo "compare: $bin printed something else than bench/programs/$p.stdout for $p" >&2
    exit 1
  fi
  cat "$WORK/time"
}

min() { awk "BEGIN{ print ($1 < $2) ? $1 : $2 }"; }
max() { awk "BEGIN{ print ($1 > $2) ? $1 : $2 }"; }

echo "| program | old s | new s | old/new | old peak RSS MB | new peak RSS MB |"
echo "|---|---|---|---|---|---|"
for p in "${PROGRAMS[@]}"; do
  bo=999999 bn=999999 mo=0 mn=0
  for _ in $(seq "$RUNS"); do
    read -r t m < <(run "$OLD" "$p")
    bo=$(min "$bo" "$t"); mo=$(max "$mo" "$m")
    read -r t m < <(run "$NEW" "$p")
    bn=$(min "$bn" "$t"); mn=$(max "$mn" "$m")
  done
  echo "| $p | $bo | $bn | $(awk "BEGIN{ printf \"%.2f\", $bo / $bn }")x | $(awk "BEGIN{printf \"%.1f\", $mo/1024}") | $(awk "BEGIN{printf \"%.1f\", $mn/1024}") |"
done
