# What bench/ratios.sh, bench/cpu_ratios.sh and bench/run.sh share
# (sourced, from the repository's root): the speed programs and their
# twins.
# shellcheck shell=bash

# speed_setup NAME [PROGRAM...]: PROGRAMS, the programs asked for (by
# default all five speed benchmarks), each checked to be in
# bench/programs (NAME starts the message if not); BIN, this checkout's
# release build unless BIN is set; HAVE_GHC and HAVE_OCAML, 1 when ghc, or
# ocamlc and ocamlrun, are installed.
speed_setup() {
  local name=$1 p
  shift
  PROGRAMS=(nfib30 queens10 primes2000 tak pipeline)
  [ $# -gt 0 ] && PROGRAMS=("$@")
  for p in "${PROGRAMS[@]}"; do
    if [ ! -f "bench/programs/$p.stg" ]; then
      echo "$name: no bench/programs/$p.stg (the programs are nfib30 queens10 primes2000 tak pipeline)" >&2
      exit 2
    fi
  done
  if [ -z "${BIN:-}" ]; then
    cargo build --release --quiet
    BIN=$PWD/target/release/stg-run
  fi
  HAVE_GHC=0 HAVE_OCAML=0
  if command -v ghc >/dev/null; then HAVE_GHC=1; fi
  if command -v ocamlc >/dev/null && command -v ocamlrun >/dev/null; then HAVE_OCAML=1; fi
}

# ghc_twin PROGRAM DIR [SOURCES]: build the Haskell twin SOURCES/PROGRAM.hs
# (SOURCES, also its import path, is bench/haskell by default) with
# ghc -O0 -prof -fprof-auto as DIR/prog (its objects in DIR).
ghc_twin() {
  local src=${3:-$ROOT/bench/haskell}
  mkdir -p "$2"
  ghc -v0 -O0 -prof -fprof-auto -rtsopts -i"$src" -outputdir "$2" -o "$2/prog" "$src/$1.hs"
}

# lazy_twin PROGRAM DIR: build the lazy OCaml twin bench/ocaml/PROGRAM_lazy.ml
# with ocamlc as DIR/lazy.byte.
lazy_twin() {
  mkdir -p "$2"
  cp "$ROOT/bench/ocaml/lazylist.ml" "$ROOT/bench/ocaml/$1_lazy.ml" "$2"
  (cd "$2" && ocamlc -o lazy.byte lazylist.ml "$1_lazy.ml")
}
