#!/usr/bin/env bash
# CPU time (user + sys) of two builds of stg-run, side by side:
#
#   bench/cpu.sh OLD_BIN NEW_BIN            # all five benchmark programs
#   bench/cpu.sh OLD_BIN NEW_BIN tak nfib30 # some of them
#
# Each program runs $RUNS times (default 7) per binary, the two binaries
# alternating run by run so that both see the same load on a shared
# machine; the table gives the median CPU time of each and old/new. CPU
# time, not wall time: another process on the same core adds to the wall
# time of a run, much less to its CPU time. Every run's output is checked
# against bench/programs/<p>.stdout. The load average is printed first.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: bench/cpu.sh OLD_BIN NEW_BIN [program ...]" >&2
  exit 2
fi
OLD=$1 NEW=$2
shift 2
RUNS=${RUNS:-7}
PROGRAMS=("$@")
if [ ${#PROGRAMS[@]} -eq 0 ]; then
  PROGRAMS=(nfib30 queens10 primes2000 tak pipeline)
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# one run: prints its CPU time in seconds; checks the output
run() {
  local bin=$1 p=$2
  /usr/bin/time -f "%U %S" -o "$WORK/time" "$bin" "bench/programs/$p.stg" >"$WORK/out" 2>"$WORK/err"
  if ! cmp -s "$WORK/out" "bench/programs/$p.stdout"; then
    echo "cpu: $bin printed something else than bench/programs/$p.stdout for $p" >&2
    exit 1
  fi
  awk '{ printf "%.2f\n", $1 + $2 }' "$WORK/time"
}

median() {
  sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| program | old CPU s | new CPU s | old/new |"
echo "|---|---|---|---|"
for p in "${PROGRAMS[@]}"; do
  : >"$WORK/old" && : >"$WORK/new"
  for _ in $(seq "$RUNS"); do
    run "$OLD" "$p" >>"$WORK/old"
    run "$NEW" "$p" >>"$WORK/new"
  done
  o=$(median <"$WORK/old")
  n=$(median <"$WORK/new")
  echo "| $p | $o | $n | $(awk "BEGIN { printf \"%.2fx\", $o / $n }") |"
done
