#!/usr/bin/env bash
# The resident set of one run, sampled as it goes, for this build and
# optionally another beside it (one run each, one after the other):
#
#   bench/rss_over_time.sh livelist10m                 # this checkout's release build
#   BASE=/path/to/old/stg-run bench/rss_over_time.sh tree23
#   EVERY=0.05 bench/rss_over_time.sh livelist10m      # sample every 50 ms
#
# Samples VmRSS in /proc/PID/status every EVERY seconds (default 0.1) while
# `stg-run bench/programs/P.stg` runs, its output checked against P.stdout;
# prints one Markdown row a build: the samples in MB of 10^6 bytes, in
# order. When the pages are first touched shows where a program pays for
# them: on a virtual machine a page the guest handed back to its host a
# while ago costs several times more to touch again than one freed just
# before (docs/PERFORMANCE.md, "The live list's collector share is the
# cost of first touching memory").
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/side_by_side.sh
. bench/side_by_side.sh
EVERY=${EVERY:-0.1}
if [ $# -ne 1 ]; then
  echo "usage: bench/rss_over_time.sh PROGRAM   (a name in bench/programs/, e.g. livelist10m)" >&2
  exit 2
fi
p=$1
if [ ! -f "bench/programs/$p.stg" ]; then
  echo "rss_over_time: no bench/programs/$p.stg" >&2
  exit 2
fi

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); a sample every $EVERY s"
echo
echo "| build | RSS MB, a sample every $EVERY s |"
echo "|---|---|"
for i in "${!BINS[@]}"; do
  "${BINS[$i]}" "bench/programs/$p.stg" >"$WORK/out" &
  pid=$!
  samples=()
  while kill -0 "$pid" 2>/dev/null; do
    mb=$(awk '/^VmRSS:/ { printf "%.0f", $2 * 1024 / 1e6 }' "/proc/$pid/status" 2>/dev/null || true)
    [ -n "$mb" ] && samples+=("$mb")
    sleep "$EVERY"
  done
  wait "$pid"
  if ! cmp -s "$WORK/out" "bench/programs/$p.stdout"; then
    echo "rss_over_time: ${NAMES[$i]}'s output of $p differs from bench/programs/$p.stdout" >&2
    exit 1
  fi
  echo "| ${NAMES[$i]} | ${samples[*]} |"
done
