#!/usr/bin/env bash
# Diagnostics in quantity (issue 27): how long stg-run takes to list many
# errors and warnings.
#
#   bench/diagnostics.sh                     # this checkout's release build
#   BASE=/path/to/old/stg-run bench/diagnostics.sh   # and another binary, side by side
#   BIN=/path/to/stg-run bench/diagnostics.sh    # a build made already
#   ERRORS=10000 bench/diagnostics.sh        # fewer errors (the old binary took
#                                            # 5.6 minutes for 40,000)
#
# Generates, in a scratch directory:
#   errors.stg    $ERRORS (default 40,000) bindings with a syntax error each (plus a valid main)
#   warnings.stg  20,000 bindings with an unused free variable each: a valid
#                 program with 20,000 warnings
#   quiet.stg     the same 20,000 bindings without the unused variable
# and measures CPU time (user + sys, from /usr/bin/time), the best of $RUNS
# runs (default 5), the binaries' runs alternating:
#   --check errors.stg                 (the listing stops at error 100)
#   --check --max-errors 0 errors.stg  (all 40,000 rendered)
#   warnings.stg and quiet.stg, run:   the difference is what 20,000 warnings add
# Standard error goes to a file (rendering is measured, not a terminal).
# Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
ERRORS=${ERRORS:-40000}
. bench/side_by_side.sh

python3 - "$WORK" "$ERRORS" <<'EOF'
import sys
work, errors = sys.argv[1], int(sys.argv[2])
with open(f"{work}/errors.stg", "w") as f:
    for i in range(errors):
        f.write(f"f{i} = {{}} \\n {{x}} -> = x\n")
    f.write("main = {} \\u {} -> Unit {}\n")
for name, fv in (("warnings", "x"), ("quiet", "")):
    with open(f"{work}/{name}.stg", "w") as f:
        for i in range(20000):
            f.write(f"f{i} = {{}} \\n {{x}} -> let y = {{{fv}}} \\u {{}} -> Unit {{}} in y\n")
        f.write("main = {} \\u {} -> Unit {}\n")
EOF

# CPU seconds (user + sys) of one run; the exit status must be $1.
cpu() {
  local want=$1; shift
  local status=0
  /usr/bin/time -f "%U %S" -o "$WORK/time" "$@" >/dev/null 2>"$WORK/err" || status=$?
  if [ "$status" != "$want" ]; then
    echo "bench: exit $status, expected $want: $*" >&2
    head -c 500 "$WORK/err" >&2
    exit 1
  fi
  tail -n 1 "$WORK/time" | awk '{ printf "%.2f", $1 + $2 }'
}

declare -A best
for _ in $(seq "$RUNS"); do
  for b in "${!BINS[@]}"; do
    bin=${BINS[$b]}
    best[$b,check]=$(min "${best[$b,check]:-}" "$(cpu 1 "$bin" --check "$WORK/errors.stg")")
    if "$bin" --help | grep -q -- --max-errors; then
      best[$b,all]=$(min "${best[$b,all]:-}" "$(cpu 1 "$bin" --check --max-errors 0 "$WORK/errors.stg")")
    else
      # Before --max-errors, every error was listed.
      best[$b,all]=${best[$b,check]}
    fi
    best[$b,warn]=$(min "${best[$b,warn]:-}" "$(cpu 0 "$bin" "$WORK/warnings.stg")")
    best[$b,quiet]=$(min "${best[$b,quiet]:-}" "$(cpu 0 "$bin" "$WORK/quiet.stg")")
  done
done
echo "| binary | $ERRORS syntax errors, \`--check\` | the same, \`--max-errors 0\` | run with 20,000 warnings | run without | warnings add |"
echo "|---|---|---|---|---|---|"
for b in "${!BINS[@]}"; do
  add=$(awk "BEGIN{printf \"%.2f\", ${best[$b,warn]} - ${best[$b,quiet]}}")
  echo "| ${NAMES[$b]} | ${best[$b,check]} s | ${best[$b,all]} s | ${best[$b,warn]} s | ${best[$b,quiet]} s | $add s |"
done
echo
echo "CPU time (user + sys), best of $RUNS runs; $(date +%F), load average $(cut -d' ' -f1-3 /proc/loadavg)."
