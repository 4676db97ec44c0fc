#!/usr/bin/env bash
# Instruction counts of the full-size speed benchmarks against GHC's
# profiled code and OCaml's bytecode interpreter, the ratios that issue 32's
# targets state in CPU time ("--profile within 2x of ghc -O0 -prof", "faster
# than ocamlrun on the lazy twins of nfib 30 and tak"), counted by Valgrind's
# cachegrind, which the machine's load does not move:
#
#   bench/ratios.sh                    # this checkout's release build
#   BIN=path/to/stg-run bench/ratios.sh
#   bench/ratios.sh tak nfib30          # some of the programs
#
# For each of nfib30 queens10 primes2000 tak pipeline (bench/programs):
# stg-run with no flags, with --profile, and with --cost-centres=stacks
# --auto-cc=all --profile; the twin bench/haskell/<p>.hs built with
# ghc -O0 -prof -fprof-auto and run with +RTS -p; the lazy OCaml twin
# bench/ocaml/<p>_lazy.ml built with ocamlc and run by ocamlrun (the
# target names nfib30's and tak's; every program has one). The twins'
# columns are left out when ghc or ocaml-nox is not installed. Each count
# is one run (the count of a binary on its input moves by less than 0.1%
# between runs). Takes about 3 minutes (179 s on this machine,
# 2026-12-02).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
if ! command -v valgrind >/dev/null; then
  echo "ratios: valgrind is not installed (apt-get install valgrind)" >&2
  exit 2
fi
# shellcheck source=bench/twins.sh
. bench/twins.sh
speed_setup ratios "$@"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# The instructions the command runs ("I refs" of cachegrind), in the
# current directory (profiles are written there).
instructions() {
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    awk '/I *refs/ { gsub(",", "", $NF); print $NF }'
}
ratio() { if [ -n "$2" ]; then awk "BEGIN{printf \"%.2fx\", $1/$2}"; else echo -; fi; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); stg-run: $BIN"
echo
echo "| program | stg-run | --profile | stacks --profile | ghc -O0 -prof | --profile / ghc | stacks / ghc | ocamlrun lazy | stg-run / ocamlrun |"
echo "|---|---|---|---|---|---|---|---|---|"
for p in "${PROGRAMS[@]}"; do
  mkdir -p "$WORK/$p"
  cd "$WORK/$p"
  plain=$(instructions "$BIN" "$ROOT/bench/programs/$p.stg")
  flat=$(instructions "$BIN" "$ROOT/bench/programs/$p.stg" --profile)
  stacks=$(instructions "$BIN" "$ROOT/bench/programs/$p.stg" --cost-centres=stacks --auto-cc=all --profile)
  ghcprof=
  if [ "$HAVE_GHC" = 1 ]; then
    ghc_twin "$p" "$WORK/$p/ghc"
    ghcprof=$(instructions "$WORK/$p/ghc/prog" +RTS -p -RTS)
  fi
  ocaml=
  if [ "$HAVE_OCAML" = 1 ] && [ -f "$ROOT/bench/ocaml/${p}_lazy.ml" ]; then
    lazy_twin "$p" "$WORK/$p/ocaml"
    ocaml=$(OCAMLRUNPARAM=l=4G instructions ocamlrun "$WORK/$p/ocaml/lazy.byte")
  fi
  echo "| $p | $plain | $flat | $stacks | ${ghcprof:--} | $(ratio "$flat" "$ghcprof") | $(ratio "$stacks" "$ghcprof") | ${ocaml:--} | $(ratio "$plain" "$ocaml") |"
  cd "$ROOT"
done
