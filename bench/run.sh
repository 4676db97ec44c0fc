#!/usr/bin/env bash
# Benchmarks of the two engines side by side, and of the Haskell twins under
# GHCi and ghc -O0 -prof -fprof-auto (when ghc is installed).
#
#   bench/run.sh            # all programs
#   bench/run.sh tak nfib30 # some of them
#
# Builds stg-run in release mode, then for each bench/programs/<p>.stg:
#   - fast engine, profiling off: wall time, steps, steps/s, peak RSS, max residency
#   - fast engine, --profile (flat): wall time -> profiling overhead
#   - fast engine, --profile --clock=cycles: wall time -> its overhead
#   - reference engine: wall time, steps/s -> speed ratio
#   - GHCi (`ghc -e main`, bytecode interpreter) on bench/haskell/<p>.hs,
#     less its startup (`ghc -e 'Prelude.return ()'` on the same file: starting,
#     loading and compiling the module to bytecode)
#   - ghc -O0 -prof -fprof-auto, run with +RTS -p
#   - both again on bench/haskell/same/<p>.hs: the same twin with the
#     Prelude functions it uses written in the module StgPrelude.hs as
#     programs/Prelude.stg writes them, instead of imported from base (whose
#     code GHCi runs natively, compiled with -O2); printed as a second table
# Wall times are the best of $RUNS runs (default 5; the reference engine
# runs once); the fast engine's three configurations alternate, run by run.
# Prints a Markdown table.
#
# Every stg-run timing is checked: its output must equal bench/programs/<p>.stdout,
# and both engines must write byte-identical --reproducible profiles, in flat
# mode and in stacks mode with --auto-cc=all. A mismatch stops the script.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
PROGRAMS=("$@")
if [ ${#PROGRAMS[@]} -eq 0 ]; then
  PROGRAMS=(nfib30 queens10 primes2000 tak pipeline)
fi
cargo build --release --quiet
BIN=$PWD/target/release/stg-run
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# best wall time (s) and peak RSS (KB) of a command, over N runs
timed() {
  local n=$1; shift
  local best="" rss=""
  for _ in $(seq "$n"); do
    if ! /usr/bin/time -f "%e %M" -o "$WORK/time" "$@" >"$WORK/out" 2>"$WORK/err"; then
      # (called in a subshell: stop the whole script)
      echo "bench: failed: $*" >&2
      head -c 500 "$WORK/err" >&2
      kill -TERM $$
      exit 1
    fi
    read -r t m <"$WORK/time"
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
    if [ -z "$rss" ] || [ "$m" -gt "$rss" ]; then rss=$m; fi
  done
  echo "$best $rss"
}

# the output of the last timed run must be the program's expected output
check_out() {
  if ! cmp -s "$WORK/out" "bench/programs/$1.stdout"; then
    echo "bench: $1 ($2) printed something else than bench/programs/$1.stdout:" >&2
    head -c 500 "$WORK/out" "$WORK/err" >&2
    # (may be called in a subshell: stop the whole script)
    kill -TERM $$
    exit 1
  fi
}

# both engines must write the same profile, byte for byte
check_engines_agree() {
  local p=$1; shift
  "$BIN" "bench/programs/$p.stg" --reproducible --profile-file "$WORK/fast.pgcl" "$@" >/dev/null
  "$BIN" "bench/programs/$p.stg" --reproducible --profile-file "$WORK/ref.pgcl" --engine=reference "$@" >/dev/null
  if ! cmp -s "$WORK/fast.pgcl" "$WORK/ref.pgcl"; then
    echo "bench: $p: the engines' profiles differ ($*)" >&2
    exit 1
  fi
}

# GHCi time (startup subtracted) and ghc -O0 -prof time of the twin $1 in
# directory $2 (which is also its import path)
haskell_times() {
  local p=$1 dir=$2 out=$WORK/ghc-$1-${2//\//-}
  read -r all _ < <(timed "$RUNS" ghc -v0 -i"$dir" -e main "$dir/$p.hs")
  check_out "$p" "GHCi, $dir"
  read -r load _ < <(timed "$RUNS" ghc -v0 -i"$dir" -e 'Prelude.return ()' "$dir/$p.hs")
  mkdir -p "$out"
  ghc -v0 -O0 -prof -fprof-auto -rtsopts -i"$dir" -outputdir "$out" -o "$out/prog" "$dir/$p.hs"
  read -r compiled _ < <(cd "$out" && timed "$RUNS" ./prog +RTS -p -K1G -RTS)
  check_out "$p" "ghc -O0 -prof, $dir"
  echo "$(awk "BEGIN{ printf \"%.2f\", $all - $load }") $compiled"
}

minimum() { if [ -z "$1" ] || awk "BEGIN{exit !($2 < $1)}"; then echo "$2"; else echo "$1"; fi; }
maximum() { if [ -z "$1" ] || [ "$2" -gt "$1" ]; then echo "$2"; else echo "$1"; fi; }
ratio() { awk "BEGIN{ if ($2 > 0) printf \"%.2f\", $1 / $2; else print \"-\" }"; }

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, $(uname -sr)"
echo "ghc: $(ghc --numeric-version 2>/dev/null || echo 'not installed')"
echo
echo "| program | steps | fast s | fast Msteps/s | ref s | ref Msteps/s | fast/ref | fast+prof s | prof overhead | fast+cycles s | cycles overhead | GHCi s | fast / GHCi | ghc -O0 -prof s | fast+prof / ghc-prof | peak RSS MB | max residency MB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
SAME_ROWS=""
for p in "${PROGRAMS[@]}"; do
  src=bench/programs/$p.stg
  # The three fast-engine runs alternate, round after round, so that all
  # three see the same machine (this shared machine's speed drifts by more
  # than the profiling overhead over a few seconds).
  tf="" tp="" tc="" rss=""
  for _ in $(seq "$RUNS"); do
    read -r t m < <(timed 1 "$BIN" "$src" --stats)
    check_out "$p" "fast engine"
    tf=$(minimum "$tf" "$t"); rss=$(maximum "$rss" "$m")
    steps=$(grep 'machine steps' "$WORK/err" | awk '{gsub(",","",$1); print $1}')
    resid=$(grep 'maximum residency' "$WORK/err" | awk '{gsub(",","",$1); print $1}')
    read -r t _ < <(timed 1 "$BIN" "$src" --profile-file "$WORK/p.pgcl")
    check_out "$p" "fast engine, profiling"
    tp=$(minimum "$tp" "$t")
    read -r t _ < <(timed 1 "$BIN" "$src" --profile-file "$WORK/p.pgcl" --clock=cycles)
    check_out "$p" "fast engine, cycles clock"
    tc=$(minimum "$tc" "$t")
  done
  read -r tr _ < <(timed 1 "$BIN" "$src" --engine=reference)
  check_out "$p" "reference engine"
  check_engines_agree "$p"
  check_engines_agree "$p" --cost-centres=stacks --auto-cc=all
  ghci="-"; ghcprof="-"; vsprof="-"; vsghci="-"
  if command -v ghc >/dev/null && [ -f "bench/haskell/$p.hs" ]; then
    read -r ghci ghcprof < <(haskell_times "$p" bench/haskell)
    vsghci=$(ratio "$tf" "$ghci")
    vsprof=$(ratio "$tp" "$ghcprof")
  fi
  if command -v ghc >/dev/null && [ -f "bench/haskell/same/$p.hs" ]; then
    read -r sghci sghcprof < <(haskell_times "$p" bench/haskell/same)
    SAME_ROWS+="| $p | $tf | $sghci | $(ratio "$tf" "$sghci") | $tp | $sghcprof | $(ratio "$tp" "$sghcprof") |"$'\n'
  fi
  msf=$(awk "BEGIN{ if ($tf > 0) printf \"%.0f\", $steps / $tf / 1e6; else print \"-\" }")
  msr=$(awk "BEGIN{ if ($tr > 0) printf \"%.0f\", $steps / $tr / 1e6; else print \"-\" }")
  speed=$(ratio "$tr" "$tf")
  over=$(awk "BEGIN{ if ($tf > 0) printf \"%+.0f%%\", 100 * ($tp - $tf) / $tf; else print \"-\" }")
  overc=$(awk "BEGIN{ if ($tf > 0) printf \"%+.0f%%\", 100 * ($tc - $tf) / $tf; else print \"-\" }")
  echo "| $p | $steps | $tf | $msf | $tr | $msr | ${speed}x | $tp | $over | $tc | $overc | $ghci | $vsghci | $ghcprof | $vsprof | $(awk "BEGIN{printf \"%.1f\", $rss/1024}") | $(awk "BEGIN{printf \"%.1f\", $resid/1048576}") |"
done
if [ -n "$SAME_ROWS" ]; then
  echo
  echo "The same programs in Haskell with their Prelude functions from bench/haskell/same/StgPrelude.hs (as programs/Prelude.stg writes them) instead of base, so that under GHCi all of the program is bytecode:"
  echo
  echo "| program | fast s | GHCi s | fast / GHCi | fast+prof s | ghc -O0 -prof s | fast+prof / ghc-prof |"
  echo "|---|---|---|---|---|---|---|"
  printf "%s" "$SAME_ROWS"
fi
