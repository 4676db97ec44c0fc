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
# best wall time and peak RSS of each and the speed-up old/new, then the
# median CPU time (user + sys) of each and its ratio: on a shared machine
# another process on the same core adds to a run's wall time, much less to
# its CPU time. Every run's output is checked against
# bench/programs/<p>.stdout. The load average is printed first. FLAGS are
# passed to every run, e.g.
#   FLAGS="--cost-centres=stacks --auto-cc=all --profile-file /tmp/p.pgcl" bench/compare.sh OLD NEW
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

# one timed run: prints "seconds peak-RSS-KB CPU-seconds"; checks the output
run() {
  local bin=$1 p=$2
  # shellcheck disable=SC2086
  /usr/bin/time -f "%e %M %U %S" -o "$WORK/time" "$bin" "bench/programs/$p.stg" ${FLAGS:-} >"$WORK/out" 2>"$WORK/err"
  if ! cmp -s "$WORK/out" "bench/programs/$p.stdout"; then
    echo "compare: $bin printed something else than bench/programs/$p.stdout for $p" >&2
    exit 1
  fi
  awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' "$WORK/time"
}

median() {
  sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

min() { awk "BEGIN{ print ($1 < $2) ? $1 : $2 }"; }
max() { awk "BEGIN{ print ($1 > $2) ? $1 : $2 }"; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)${FLAGS:+; flags: $FLAGS}"
echo
echo "| program | old s | new s | old/new | old peak RSS MB | new peak RSS MB | old CPU s | new CPU s | old/new CPU |"
echo "|---|---|---|---|---|---|---|---|---|"
for p in "${PROGRAMS[@]}"; do
  bo=999999 bn=999999 mo=0 mn=0
  : >"$WORK/old-cpu" && : >"$WORK/new-cpu"
  for _ in $(seq "$RUNS"); do
    read -r t m c < <(run "$OLD" "$p")
    bo=$(min "$bo" "$t"); mo=$(max "$mo" "$m"); echo "$c" >>"$WORK/old-cpu"
    read -r t m c < <(run "$NEW" "$p")
    bn=$(min "$bn" "$t"); mn=$(max "$mn" "$m"); echo "$c" >>"$WORK/new-cpu"
  done
  co=$(median <"$WORK/old-cpu") cn=$(median <"$WORK/new-cpu")
  echo "| $p | $bo | $bn | $(awk "BEGIN{ printf \"%.2f\", $bo / $bn }")x | $(awk "BEGIN{printf \"%.1f\", $mo/1024}") | $(awk "BEGIN{printf \"%.1f\", $mn/1024}") | $co | $cn | $(awk "BEGIN{ printf \"%.2f\", $co / $cn }")x |"
done
