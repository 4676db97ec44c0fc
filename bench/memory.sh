#!/usr/bin/env bash
# The collector's share of CPU time and the peak RSS against issue 32's
# bound (2x the maximum residency + 8 MB), run by run, for this build and
# optionally another beside it, alternating run by run so that both see the
# same machine:
#
#   bench/memory.sh                              # this checkout's release build
#   BASE=/path/to/old/stg-run bench/memory.sh    # and another beside it
#   RUNS=3 bench/memory.sh tree23 livelist10m    # some programs, 3 runs each
#   PAUSE=4 bench/memory.sh livelist10m          # 4 s idle before each run
#
# PAUSE: on a virtual machine whose guest reports free memory to its host
# (virtio free page reporting, after about 2 s free), a page the program
# touches first costs several times more when the memory the guest hands
# out was reported than when it was freed just before (by the previous
# run): back-to-back runs favour a build that faults its pages early. A
# pause before each run gives every run cold pages (docs/PERFORMANCE.md,
# "The live list's collector share is the cost of first touching memory").
#
# Each run is `/usr/bin/time -f "%U %S %M" stg-run P.stg --stats` on
# bench/programs/P.stg (default: pipeline pipeline10m livelist10m tree23),
# its output checked against P.stdout. One Markdown row a run: `--stats`'
# %GC and its two generations' CPU seconds, user+sys, `--stats`' maximum
# residency and the peak RSS, both in MB of 10^6 bytes (`/usr/bin/time`
# gives KiB), and the bound. (bench/run.sh's memory table gives medians
# and the GHC and OCaml twins beside them.)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/side_by_side.sh
. bench/side_by_side.sh
RUNS=${RUNS:-5}
PAUSE=${PAUSE:-0}
PROGRAMS=("$@")
[ ${#PROGRAMS[@]} -gt 0 ] || PROGRAMS=(pipeline pipeline10m livelist10m tree23)
if [ ! -x /usr/bin/time ]; then
  echo "memory: /usr/bin/time is not installed (apt-get install time)" >&2
  exit 2
fi

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); pause before each run: ${PAUSE} s"
echo
echo "| program | build | run | %GC | Gen 0 CPU s | Gen 1 CPU s | user+sys s | max residency MB | peak RSS MB | bound MB | within |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for p in "${PROGRAMS[@]}"; do
  for r in $(seq 1 "$RUNS"); do
    for i in "${!BINS[@]}"; do
      sleep "$PAUSE"
      /usr/bin/time -o "$WORK/time" -f "%U %S %M" "${BINS[$i]}" "bench/programs/$p.stg" --stats \
        >"$WORK/out" 2>"$WORK/err"
      if ! cmp -s "$WORK/out" "bench/programs/$p.stdout"; then
        echo "memory: ${NAMES[$i]}'s output of $p differs from bench/programs/$p.stdout" >&2
        exit 1
      fi
      awk -v p="$p" -v b="${NAMES[$i]}" -v r="$r" '
        FNR == NR { user = $1; sys = $2; kib = $3; next }
        /maximum residency/ { gsub(",", "", $1); res = $1 / 1e6 }
        /Gen  0/ { g0 = $(NF - 3) } /Gen  1/ { g1 = $(NF - 3) }
        /%GC/ { gc = $3 }
        END {
          rss = kib * 1024 / 1e6; bound = 2 * res + 8
          sub("s$", "", g0); sub("s$", "", g1)
          printf "| %s | %s | %d | %s | %s | %s | %.2f | %.1f | %.1f | %.1f | %s |\n",
            p, b, r, gc, g0, g1, user + sys, res, rss, bound, rss <= bound ? "yes" : "no"
        }' "$WORK/time" "$WORK/err"
    done
  done
done
