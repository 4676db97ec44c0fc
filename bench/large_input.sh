#!/usr/bin/env bash
# Large valid input (issue 33): peak memory (RSS) and CPU time of
# `stg-run --check` on generated valid programs of 5, 20 and 50 MB.
#
#   bench/large_input.sh                  # 5M 20M 50M
#   bench/large_input.sh 5M 20M           # some sizes
#   BASE=/path/to/old/stg-run bench/large_input.sh
#                                         # and another build, side by side
#   BIN=/path/to/stg-run bench/large_input.sh   # a build made already
#
# The programs come from bench/gen_large_program.py (ten-line functions
# with case, let and scc, calling each other in a ring). Measures, best of
# $RUNS runs (default 3), the maximum resident set size and the user + sys
# CPU time reported by /usr/bin/time -v, and prints a Markdown table with
# the peak RSS as a multiple of the input's size.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
SIZES=("$@")
if [ ${#SIZES[@]} -eq 0 ]; then
  SIZES=(5M 20M 50M)
fi
. bench/side_by_side.sh

echo "| input | binary | peak RSS | RSS / input | CPU (user + sys) |"
echo "|---|---|---|---|---|"
for size in "${SIZES[@]}"; do
  file=$WORK/big$size.stg
  python3 bench/gen_large_program.py "$size" "$file"
  bytes=$(stat -c %s "$file")
  for b in "${!BINS[@]}"; do
    best_rss="" best_cpu=""
    for _ in $(seq "$RUNS"); do
      /usr/bin/time -v -o "$WORK/time" "${BINS[$b]}" --check "$file" >/dev/null 2>"$WORK/err" || {
        echo "bench: ${BINS[$b]} --check $file failed" >&2
        tail -c 500 "$WORK/err" >&2
        exit 1
      }
      rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$WORK/time")
      cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { printf "%.2f", u + s }' "$WORK/time")
      if [ -z "$best_rss" ] || [ "$rss" -lt "$best_rss" ]; then best_rss=$rss; fi
      if [ -z "$best_cpu" ] || awk "BEGIN{exit !($cpu < $best_cpu)}"; then best_cpu=$cpu; fi
    done
    awk -v s="$size" -v n="${NAMES[$b]}" -v r="$best_rss" -v b="$bytes" -v c="$best_cpu" \
      'BEGIN { printf "| %s (%d bytes) | %s | %.0f MB | %.1fx | %s s |\n", s, b, n, r * 1024 / 1e6, r * 1024 / b, c }'
  done
done
echo
echo "Best of $RUNS runs; $(date +%F), load average $(cut -d' ' -f1-3 /proc/loadavg)."
