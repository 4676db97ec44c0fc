#!/usr/bin/env bash
# Deep cost-centre stacks (issue 33): the time per stack operation at depths
# 10^3 to 10^6, stacks mode against flat mode.
#
#   bench/deep_stacks.sh                    # depths 1000 10000 100000 1000000
#   bench/deep_stacks.sh 1000 10000         # some depths
#   BASE=/path/to/old/stg-run bench/deep_stacks.sh 1000 10000 100000
#                                           # and another build, side by side
#   BIN=/path/to/stg-run bench/deep_stacks.sh   # a build made already
#
# Two generated programs per depth N, each a chain of N top-level functions
# that tail-call the next (constant machine stack):
#   push    f_i = {} \r {x} -> scc "l_i" f_{i+1} {x}
#           every call pushes a new cost centre: the stack grows to N + 2.
#   append  f_i = {} \r {x} -> scc "a_i" let g = {} \r {y} -> f_{i+1} {y} in scc "b_i" g {x}
#           every call of `g` appends the stack `g` was built under to a
#           deeper one (their shared prefix is all of it): the stack grows
#           to 2N + 2, with N appends and 2N pushes.
# Measures, best of $RUNS runs (default 3): MUT time from --stats (the run,
# without loading the program) in flat and stacks mode, the CPU time (user
# + sys) of the whole process in stacks mode, and MUT time per level in
# stacks mode. Checks that both engines write byte-identical --reproducible
# stacks-mode profiles of both programs at the first depth. Prints a
# Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
DEPTHS=("$@")
if [ ${#DEPTHS[@]} -eq 0 ]; then
  DEPTHS=(1000 10000 100000 1000000)
fi
. bench/side_by_side.sh

generate() { # shape depth file
  python3 - "$@" <<'EOF'
import sys
shape, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(path, "w") as f:
    f.write("main = {} \\u {} -> f0 {one}\n")
    f.write("one = {} \\r {} -> I# {1#}\n")
    for i in range(n):
        if shape == "push":
            f.write(f"f{i} = {{}} \\r {{x}} -> scc \"l{i}\" f{i + 1} {{x}}\n")
        else:
            f.write(
                f"f{i} = {{}} \\r {{x}} -> scc \"a{i}\" let g = {{}} \\r {{y}} -> f{i + 1} {{y}}"
                f" in scc \"b{i}\" g {{x}}\n"
            )
    f.write(f"f{n} = {{}} \\r {{x}} -> x {{}}\n")
EOF
}

# MUT seconds and CPU seconds (user + sys) of one run.
measure() {
  /usr/bin/time -f "%U %S" -o "$WORK/time" "$@" --stats >"$WORK/out" 2>"$WORK/err" || {
    echo "bench: failed: $*" >&2
    tail -c 500 "$WORK/err" >&2
    exit 1
  }
  if [ "$(cat "$WORK/out")" != "1" ]; then
    echo "bench: wrong output from $*" >&2
    exit 1
  fi
  local mut
  mut=$(awk '/MUT +time/ { sub("s", "", $3); print $3 }' "$WORK/err")
  echo "$mut $(tail -n 1 "$WORK/time" | awk '{ printf "%.2f", $1 + $2 }')"
}

echo "| program | depth | binary | MUT flat | MUT stacks | CPU stacks (whole run) | stacks MUT per level |"
echo "|---|---|---|---|---|---|---|"
for shape in push append; do
  for n in "${DEPTHS[@]}"; do
    file=$WORK/$shape$n.stg
    generate "$shape" "$n" "$file"
    if [ "$n" = "${DEPTHS[0]}" ]; then
      for engine in fast reference; do
        "$BIN" "$file" --engine=$engine --cost-centres=stacks --reproducible \
          --profile-file "$WORK/$engine.pgcl" >/dev/null
      done
      cmp -s "$WORK/fast.pgcl" "$WORK/reference.pgcl" || {
        echo "bench: the engines' profiles differ on $shape $n" >&2
        exit 1
      }
    fi
    for b in "${!BINS[@]}"; do
      declare -A best=()
      for _ in $(seq "$RUNS"); do
        read -r mut _ < <(measure "${BINS[$b]}" "$file" --cost-centres=flat)
        best[flat]=$(min "${best[flat]:-}" "$mut")
        read -r mut cpu < <(measure "${BINS[$b]}" "$file" --cost-centres=stacks)
        best[stacks]=$(min "${best[stacks]:-}" "$mut")
        best[cpu]=$(min "${best[cpu]:-}" "$cpu")
      done
      per=$(awk "BEGIN{printf \"%.0f\", ${best[stacks]} / $n * 1e9}")
      echo "| $shape | $n | ${NAMES[$b]} | ${best[flat]} s | ${best[stacks]} s | ${best[cpu]} s | $per ns |"
      unset best
    done
  done
done
echo
echo "Best of $RUNS runs; $(date +%F), load average $(cut -d' ' -f1-3 /proc/loadavg)."
