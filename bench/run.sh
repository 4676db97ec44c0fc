#!/usr/bin/env bash
# Benchmarks of the fast engine against the reference engine, GHC (GHCi and
# ghc -O0 -prof -fprof-auto, when ghc is installed) and OCaml (ocamlrun and
# ocamlopt, when Debian's ocaml-nox is installed), in CPU time (user + sys).
#
#   bench/run.sh                    # all programs
#   bench/run.sh tak nfib30 tree23  # some of them
#   RUNS=3 bench/run.sh             # runs per configuration (default 5)
#   INSTRUCTIONS=0 bench/run.sh     # without the Valgrind column
#   BIN=path/to/stg-run bench/run.sh  # another build
#
# Builds stg-run in release mode (unless BIN is given). Prints the load
# average, then the Markdown tables. (Times are to 10 ms here; for the
# ratios to GHC's profiled twins and to ocamlrun alone, timed to the
# millisecond over 21 rounds, see bench/cpu_ratios.sh.)
#
# Speed (nfib30 queens10 primes2000 tak pipeline), for each
# bench/programs/<p>.stg:
#   - steps; instructions per step of the fast engine (no profile), counted
#     by Valgrind's cachegrind on the smaller version of bench/reduced.sh
#     (the full sizes would take minutes under Valgrind);
#   - fast engine: no profile, --profile (steps clock), --clock=cycles, and
#     stacks mode with --auto-cc=all without and with --profile: the
#     profiling overheads are each profiled configuration against the same
#     configuration without a profile;
#   - reference engine (one run);
#   - GHCi (`ghc -e main`, bytecode) on bench/haskell/<p>.hs, less its
#     start-up (`ghc -e 'Prelude.return ()'` on the same file), and
#     ghc -O0 -prof -fprof-auto, run with +RTS -p; both again on
#     bench/haskell/same/<p>.hs (the Prelude functions the twin uses
#     written as programs/Prelude.stg writes them, so that GHCi interprets
#     all of it), printed as a third table;
#   - the OCaml twins bench/ocaml/<p>.ml (strict) and <p>_lazy.ml (one
#     `lazy` per STG thunk), compiled with ocamlc (run by ocamlrun, the
#     bytecode interpreter) and ocamlopt (native code).
# Memory (pipeline pipeline10m livelist10m tree23): fast engine CPU time,
# the share of it in the collector (--stats), peak RSS against maximum
# residency; the GHC twin compiled with ghc -O0 and run with +RTS -s (same
# measures), and the OCaml twins' CPU time and peak RSS.
#
# Every configuration of a program runs $RUNS times, the configurations
# alternating round by round so that all see the same machine (this shared
# machine's speed drifts by more than the differences measured); a time is
# the median of its runs, a peak RSS the largest. Every stg-run run's output
# is checked against bench/programs/<p>.stdout (and the twins' too), and
# both engines must write byte-identical --reproducible profiles, in flat
# mode and in stacks mode with --auto-cc=all. A mismatch stops the script.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# shellcheck source=bench/reduced.sh
. bench/reduced.sh
# shellcheck source=bench/twins.sh
. bench/twins.sh
RUNS=${RUNS:-5}
INSTRUCTIONS=${INSTRUCTIONS:-1}
SPEED=(nfib30 queens10 primes2000 tak pipeline)
MEMORY=(pipeline pipeline10m livelist10m tree23)
if [ $# -gt 0 ]; then
  want=" $* "
  pick() { local p out=(); for p in "$@"; do [[ $want == *" $p "* ]] && out+=("$p"); done; echo "${out[*]:-}"; }
  read -r -a SPEED <<<"$(pick "${SPEED[@]}")"
  read -r -a MEMORY <<<"$(pick "${MEMORY[@]}")"
fi
if [ -z "${BIN:-}" ]; then
  cargo build --release --quiet
  BIN=$PWD/target/release/stg-run
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
HAVE_GHC=0 HAVE_OCAML=0 HAVE_VALGRIND=0
command -v ghc >/dev/null && HAVE_GHC=1
command -v ocamlc >/dev/null && command -v ocamlopt >/dev/null && command -v ocamlrun >/dev/null && HAVE_OCAML=1
[ "$INSTRUCTIONS" = 1 ] && command -v valgrind >/dev/null && HAVE_VALGRIND=1

# One run of a command, as "CPU-seconds peak-RSS-KB"; its standard output
# and error are in $WORK/out and $WORK/err. A failure stops the script.
run1() {
  if ! /usr/bin/time -f "%U %S %M" -o "$WORK/time" "$@" >"$WORK/out" 2>"$WORK/err"; then
    echo "bench: failed: $*" >&2
    head -c 500 "$WORK/err" >&2
    kill -TERM $$
    exit 1
  fi
  awk '{ printf "%.2f %d\n", $1 + $2, $3 }' "$WORK/time"
}

# the output of the last run must be the program's expected output
check_out() {
  if ! cmp -s "$WORK/out" "$ROOT/bench/programs/$1.stdout"; then
    echo "bench: $1 ($2) printed something else than bench/programs/$1.stdout:" >&2
    head -c 500 "$WORK/out" "$WORK/err" >&2
    kill -TERM $$
    exit 1
  fi
}

# Record one run of configuration $2 of program $1 (the command follows):
# its CPU time goes to $WORK/t.$1.$2, its peak RSS to $WORK/m.$1.$2.
record() {
  local p=$1 c=$2 t m
  shift 2
  read -r t m < <(run1 "$@")
  check_out "$p" "$c"
  echo "$t" >>"$WORK/t.$p.$c"
  echo "$m" >>"$WORK/m.$p.$c"
}

median() {
  sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# median CPU time and largest peak RSS (MiB) of a configuration, "-" if none
cpu() { if [ -s "$WORK/t.$1.$2" ]; then median "$WORK/t.$1.$2"; else echo "-"; fi; }
rss() { if [ -s "$WORK/m.$1.$2" ]; then sort -n "$WORK/m.$1.$2" | tail -1 | awk '{ printf "%.1f", $1 / 1024 }'; else echo "-"; fi; }
ratio() { awk "BEGIN{ if (\"$1\" == \"-\" || \"$2\" == \"-\" || $2 + 0 <= 0) print \"-\"; else printf \"%.2f\", $1 / $2 }"; }
overhead() { awk "BEGIN{ if (\"$1\" == \"-\" || \"$2\" == \"-\" || $2 + 0 <= 0) print \"-\"; else printf \"%+.0f%%\", 100 * ($1 - $2) / $2 }"; }
# the number in a line of --stats (or +RTS -s) output: stat FILE PATTERN
stat() { awk -v pat="$2" '$0 ~ pat { gsub(",", "", $1); print $1; exit }' "$1"; }

# both engines must write the same profile, byte for byte
check_engines_agree() {
  local p=$1
  shift
  "$BIN" "bench/programs/$p.stg" --reproducible --profile-file "$WORK/fast.pgcl" "$@" >/dev/null
  "$BIN" "bench/programs/$p.stg" --reproducible --profile-file "$WORK/ref.pgcl" --engine=reference "$@" >/dev/null
  if ! cmp -s "$WORK/fast.pgcl" "$WORK/ref.pgcl"; then
    echo "bench: $p: the engines' profiles differ ($*)" >&2
    exit 1
  fi
}

# Build the OCaml twins of $1 that exist: $WORK/ocaml/<p>[_lazy].{byte,opt}
build_ocaml() {
  local p=$1 v src
  [ "$HAVE_OCAML" = 1 ] || return 0
  mkdir -p "$WORK/ocaml"
  for v in "" _lazy; do
    src=bench/ocaml/$p$v.ml
    [ -f "$src" ] || continue
    cp bench/ocaml/lazylist.ml "$src" "$WORK/ocaml/"
    (cd "$WORK/ocaml" && ocamlc -o "$p$v.byte" lazylist.ml "$p$v.ml" && ocamlopt -o "$p$v.opt" lazylist.ml "$p$v.ml")
  done
}

# One run of each OCaml twin $2 that was built, for program $1
# (configurations $3ocamlrun, $3ocamlrun_lazy, $3ocamlopt, $3ocamlopt_lazy);
# further arguments are the twin's. Deep non-tail recursion (foldr) needs a
# large stack: ocamlrun's limit is raised, and the native code runs with an
# unlimited stack.
run_ocaml() {
  local p=$1 twin=$2 pre=$3 v
  shift 3
  for v in "" _lazy; do
    [ -x "$WORK/ocaml/$twin$v.byte" ] || continue
    OCAMLRUNPARAM=l=4G record "$p" "${pre}ocamlrun$v" ocamlrun "$WORK/ocaml/$twin$v.byte" "$@"
    record "$p" "${pre}ocamlopt$v" sh -c 'ulimit -s unlimited && exec "$@"' sh "$WORK/ocaml/$twin$v.opt" "$@"
  done
}

# GHCi time (start-up subtracted) and ghc -O0 -prof time of the twin $1 in
# directory $2 (which is also its import path): median CPU of $RUNS each
haskell_times() {
  local p=$1 dir=$2 tag=${2//\//-} out=$WORK/ghc-$1-${2//\//-}
  ghc_twin "$p" "$out" "$dir"
  for _ in $(seq "$RUNS"); do
    record "$p" "ghci$tag" ghc -v0 -i"$dir" -e main "$dir/$p.hs"
    read -r t _ < <(run1 ghc -v0 -i"$dir" -e 'Prelude.return ()' "$dir/$p.hs")
    echo "$t" >>"$WORK/t.$p.ghciload$tag"
    (cd "$out" && record "$p" "ghcprof$tag" ./prog +RTS -p -K1G -RTS)
  done
  echo "$(awk "BEGIN{ printf \"%.2f\", $(cpu "$p" "ghci$tag") - $(cpu "$p" "ghciload$tag") }") $(cpu "$p" "ghcprof$tag")"
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, $(uname -sr)"
echo "ghc: $(ghc --numeric-version 2>/dev/null || echo 'not installed'); ocaml: $(ocamlc -version 2>/dev/null || echo 'not installed')"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "CPU times (user + sys, seconds) are medians of $RUNS alternating runs."

if [ ${#SPEED[@]} -gt 0 ]; then
  echo
  echo "| program | steps | instr/step | fast s | fast Msteps/s | ref s | fast/ref | +prof s | prof overhead | +cycles overhead | stacks s | stacks+prof s | stacks prof overhead | GHCi s | fast / GHCi | ghc -O0 -prof s | prof / ghc-prof | stacks+prof / ghc-prof | ocamlrun s | ocamlrun lazy s | fast / ocamlrun lazy | ocamlopt s | ocamlopt lazy s | peak RSS MiB | max residency MiB |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
fi
SAME_ROWS=""
for p in "${SPEED[@]}"; do
  src=bench/programs/$p.stg
  build_ocaml "$p"
  stacks=(--cost-centres=stacks --auto-cc=all)
  for _ in $(seq "$RUNS"); do
    record "$p" fast "$BIN" "$src" --stats
    steps=$(stat "$WORK/err" 'machine steps')
    resid=$(stat "$WORK/err" 'maximum residency')
    record "$p" prof "$BIN" "$src" --profile-file "$WORK/p.pgcl"
    record "$p" cycles "$BIN" "$src" --profile-file "$WORK/p.pgcl" --clock=cycles
    record "$p" stacks "$BIN" "$src" "${stacks[@]}"
    record "$p" stacksprof "$BIN" "$src" "${stacks[@]}" --profile-file "$WORK/p.pgcl"
    run_ocaml "$p" "$p" ""
  done
  record "$p" ref "$BIN" "$src" --engine=reference
  check_engines_agree "$p"
  check_engines_agree "$p" "${stacks[@]}"
  ips="-"
  if [ "$HAVE_VALGRIND" = 1 ]; then
    reduced "$p" "$WORK/small.stg"
    ir=$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$BIN" "$WORK/small.stg" 2>&1 >/dev/null |
      awk '/I *refs:/ { gsub(",", "", $NF); print $NF }')
    ssteps=$("$BIN" "$WORK/small.stg" --stats 2>&1 >/dev/null | awk '/machine steps/ { gsub(",", "", $1); print $1 }')
    ips="$(awk "BEGIN{ printf \"%.1f\", $ir / $ssteps }") ($(reduced_name "$p"))"
  fi
  tf=$(cpu "$p" fast) tp=$(cpu "$p" prof) ts=$(cpu "$p" stacks) tsp=$(cpu "$p" stacksprof) tr=$(cpu "$p" ref)
  ghci="-" ghcprof="-"
  if [ "$HAVE_GHC" = 1 ] && [ -f "bench/haskell/$p.hs" ]; then
    read -r ghci ghcprof < <(haskell_times "$p" bench/haskell)
  fi
  if [ "$HAVE_GHC" = 1 ] && [ -f "bench/haskell/same/$p.hs" ]; then
    read -r sghci sghcprof < <(haskell_times "$p" bench/haskell/same)
    SAME_ROWS+="| $p | $tf | $sghci | $(ratio "$tf" "$sghci") | $tp | $sghcprof | $(ratio "$tp" "$sghcprof") | $(ratio "$tsp" "$sghcprof") |"$'\n'
  fi
  msf=$(awk "BEGIN{ if ($tf > 0) printf \"%.0f\", $steps / $tf / 1e6; else print \"-\" }")
  echo "| $p | $steps | $ips | $tf | $msf | $tr | $(ratio "$tr" "$tf")x | $tp | $(overhead "$tp" "$tf") | $(overhead "$(cpu "$p" cycles)" "$tf") | $ts | $tsp | $(overhead "$tsp" "$ts") | $ghci | $(ratio "$tf" "$ghci") | $ghcprof | $(ratio "$tp" "$ghcprof") | $(ratio "$tsp" "$ghcprof") | $(cpu "$p" ocamlrun) | $(cpu "$p" ocamlrun_lazy) | $(ratio "$tf" "$(cpu "$p" ocamlrun_lazy)") | $(cpu "$p" ocamlopt) | $(cpu "$p" ocamlopt_lazy) | $(rss "$p" fast) | $(awk "BEGIN{printf \"%.1f\", $resid/1048576}") |"
done
if [ -n "$SAME_ROWS" ]; then
  echo
  echo "The same programs in Haskell with their Prelude functions from bench/haskell/same/StgPrelude.hs (as programs/Prelude.stg writes them) instead of base, so that under GHCi all of the program is bytecode:"
  echo
  echo "| program | fast s | GHCi s | fast / GHCi | fast+prof s | ghc -O0 -prof s | fast+prof / ghc-prof | stacks+prof / ghc-prof |"
  echo "|---|---|---|---|---|---|---|---|"
  printf "%s" "$SAME_ROWS"
fi

if [ ${#MEMORY[@]} -gt 0 ]; then
  echo
  echo "| program | steps | fast s | GC share | peak RSS MiB | max residency MiB | RSS / residency | RSS ≤ 2 × residency + 8 MB | ghc -O0 s | GHC GC share | GHC peak RSS MiB | GHC max residency MiB | GHC RSS / residency | ocamlrun s | ocamlrun lazy s | ocamlopt s | ocamlopt lazy s | ocamlopt lazy peak RSS MiB |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
fi
for p in "${MEMORY[@]}"; do
  src=bench/programs/$p.stg
  build_ocaml "$p"
  ghcbin=""
  if [ "$HAVE_GHC" = 1 ] && [ -f "bench/haskell/$p.hs" ]; then
    mkdir -p "$WORK/ghc0-$p"
    ghc -v0 -O0 -rtsopts -outputdir "$WORK/ghc0-$p" -o "$WORK/ghc0-$p/prog" "bench/haskell/$p.hs"
    ghcbin=$WORK/ghc0-$p/prog
  fi
  : >"$WORK/gc.$p" && : >"$WORK/ghcgc.$p"
  for _ in $(seq "$RUNS"); do
    record "$p" m_fast "$BIN" "$src" --stats
    steps=$(stat "$WORK/err" 'machine steps')
    resid=$(stat "$WORK/err" 'maximum residency')
    awk '/%GC *time/ { sub("%", "", $3); print $3 }' "$WORK/err" >>"$WORK/gc.$p"
    if [ -n "$ghcbin" ]; then
      record "$p" ghc0 "$ghcbin" +RTS -s -RTS
      ghcresid=$(stat "$WORK/err" 'maximum residency')
      awk '/^ *GC +time/ { gc = $3 } /^ *Total +time/ { t = $3 } END { if (t > 0) printf "%.1f\n", 100 * gc / t }' "$WORK/err" >>"$WORK/ghcgc.$p"
    fi
    # Not the 10^7 pipeline's: OCaml 4 scans the whole stack at every minor
    # collection, and that foldr nests 5 million calls deep, so its twins
    # take minutes (docs/PERFORMANCE.md); the 10^6 pipeline's run.
    if [ "$p" != pipeline10m ]; then
      run_ocaml "$p" "$p" m_
    fi
  done
  frss=$(rss "$p" m_fast)
  resmb=$(awk "BEGIN{printf \"%.1f\", $resid/1048576}")
  met=$(awk "BEGIN{ print ($frss <= 2 * $resmb + 8e6 / 1048576) ? \"yes\" : \"no\" }")
  ghct="-" ghcg="-" ghcr="-" ghcres="-" ghcratio="-"
  if [ -n "$ghcbin" ]; then
    ghct=$(cpu "$p" ghc0) ghcg="$(median "$WORK/ghcgc.$p")%" ghcr=$(rss "$p" ghc0)
    ghcres=$(awk "BEGIN{printf \"%.1f\", $ghcresid/1048576}") ghcratio=$(ratio "$ghcr" "$ghcres")
  fi
  echo "| $p | $steps | $(cpu "$p" m_fast) | $(median "$WORK/gc.$p")% | $frss | $resmb | $(ratio "$frss" "$resmb") | $met | $ghct | $ghcg | $ghcr | $ghcres | $ghcratio | $(cpu "$p" m_ocamlrun) | $(cpu "$p" m_ocamlrun_lazy) | $(cpu "$p" m_ocamlopt) | $(cpu "$p" m_ocamlopt_lazy) | $(rss "$p" m_ocamlopt_lazy) |"
done
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
