#!/usr/bin/env bash
# The CPU-time ratios that issue 32's targets state ("--profile within 2x
# of ghc -O0 -prof -fprof-auto +RTS -p CPU time", flat and stacks mode with
# --auto-cc=all; "faster than ocamlrun on the lazy OCaml twins of nfib 30
# and tak"), as medians of alternating rounds, the figures bench/ratios.sh
# gives in instructions:
#
#   bench/cpu_ratios.sh                  # this checkout's release build
#   BIN=path/to/stg-run bench/cpu_ratios.sh
#   ROUNDS=11 bench/cpu_ratios.sh tak    # fewer rounds, some programs
#
# For each of nfib30 queens10 primes2000 tak pipeline (bench/programs), a
# round runs once each: stg-run with no flags, with --profile, and with
# --cost-centres=stacks --auto-cc=all --profile; the twin bench/haskell/<p>.hs
# built with ghc -O0 -prof -fprof-auto and run with +RTS -p; the lazy twin
# bench/ocaml/<p>_lazy.ml built with ocamlc and run by ocamlrun (the target
# names nfib30's and tak's; every program has one). Every other round
# runs them in the opposite order, so that each sees the machine as the
# others do. A time is user + sys (bash's `time`, in milliseconds). Each
# ratio is the median over the rounds of that round's ratio (this shared
# machine's speed drifts between rounds by more than within one); the
# columns of seconds are medians of their runs. Every run's output is
# checked against bench/programs/<p>.stdout. The twins' columns are left
# out when ghc or ocaml-nox is not installed. ROUNDS defaults to 21: about
# 5 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
ROUNDS=${ROUNDS:-21}
# shellcheck source=bench/twins.sh
. bench/twins.sh
speed_setup cpu_ratios "$@"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# bash's `time` prints user and sys seconds, to the millisecond
TIMEFORMAT='%3U %3S'

# One run of configuration $2 of program $1 (the command follows, run in
# $WORK/$1): its CPU seconds are appended to $WORK/$1/t.$2. A failure or
# an output other than the program's expected one stops the script.
record() {
  local p=$1 c=$2 t
  shift 2
  if ! t=$( { time "$@" >"$WORK/$p/out" 2>"$WORK/$p/err"; } 2>&1); then
    echo "cpu_ratios: failed: $*" >&2
    head -c 500 "$WORK/$p/err" >&2
    exit 1
  fi
  if ! cmp -s "$WORK/$p/out" "$ROOT/bench/programs/$p.stdout"; then
    echo "cpu_ratios: $p ($c) printed something else than bench/programs/$p.stdout" >&2
    exit 1
  fi
  awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%.3f\n", a[1] + a[2] }' >>"$WORK/$p/t.$c"
}
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# the median of configuration $2's runs of program $1, "-" if none
secs() { if [ -s "$WORK/$1/t.$2" ]; then median <"$WORK/$1/t.$2" | awk '{ printf "%.3f", $1 }'; else echo -; fi; }
# the median over the rounds of (configuration $2 / configuration $3), "-"
# if either has no runs
ratio() {
  if [ -s "$WORK/$1/t.$2" ] && [ -s "$WORK/$1/t.$3" ]; then
    paste "$WORK/$1/t.$2" "$WORK/$1/t.$3" | awk '$2 > 0 { print $1 / $2 }' | median | awk '{ printf "%.2fx", $1 }'
  else
    echo -
  fi
}

echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg); stg-run: $BIN; $ROUNDS rounds"
echo
echo "| program | stg-run s | --profile s | stacks --profile s | ghc -O0 -prof s | --profile / ghc | stacks / ghc | ocamlrun lazy s | stg-run / ocamlrun |"
echo "|---|---|---|---|---|---|---|---|---|"
for p in "${PROGRAMS[@]}"; do
  mkdir -p "$WORK/$p"
  cd "$WORK/$p"
  src=$ROOT/bench/programs/$p.stg
  configs=(plain flat stacks)
  if [ "$HAVE_GHC" = 1 ]; then
    ghc_twin "$p" "$WORK/$p/ghc"
    configs+=(ghc)
  fi
  if [ "$HAVE_OCAML" = 1 ] && [ -f "$ROOT/bench/ocaml/${p}_lazy.ml" ]; then
    lazy_twin "$p" "$WORK/$p/ocaml"
    configs+=(ocaml)
  fi
  for ((r = 0; r < ROUNDS; r++)); do
    order=("${configs[@]}")
    if ((r % 2)); then
      order=()
      for ((i = ${#configs[@]} - 1; i >= 0; i--)); do order+=("${configs[i]}"); done
    fi
    for c in "${order[@]}"; do
      case $c in
        plain) record "$p" plain "$BIN" "$src" ;;
        flat) record "$p" flat "$BIN" "$src" --profile ;;
        stacks) record "$p" stacks "$BIN" "$src" --cost-centres=stacks --auto-cc=all --profile ;;
        ghc) record "$p" ghc "$WORK/$p/ghc/prog" +RTS -p -RTS ;;
        ocaml) OCAMLRUNPARAM=l=4G record "$p" ocaml ocamlrun "$WORK/$p/ocaml/lazy.byte" ;;
      esac
    done
  done
  echo "| $p | $(secs "$p" plain) | $(secs "$p" flat) | $(secs "$p" stacks) | $(secs "$p" ghc) | $(ratio "$p" flat ghc) | $(ratio "$p" stacks ghc) | $(secs "$p" ocaml) | $(ratio "$p" plain ocaml) |"
  cd "$ROOT"
done
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
