#!/bin/sh
# Rebuild GHC's heap profiles of the heap twins (see ../README.md, "Heap
# profiles").
#
# Each twin is a directory tests/ghc/heap/X/ holding Main.stg (what
# stg-run runs), Main.hs (its Haskell twin), Main.stdout (what both
# print) and ghc-rts, one profile a line: a name and the RTS flags that
# make it, e.g.
#     hc -hc -i0.001
# For each line this compiles Main.hs with `ghc -prof -fprof-auto
# -rtsopts` in a temporary directory, runs it with +RTS <flags>, checks
# that it printed exactly Main.stdout, and copies its Main.hp to
# X/Main.<name>.hp, verbatim. GHC's sample times are seconds and its
# samples fall where its timer says, so the files differ from run to run
# in their times and in how many samples they hold; the tests compare
# only what does not (band names, peaks, phases). A twin's `names` and
# `phases` files (GHC's descriptions mapped to stg-run's, the documented
# differences) are written by hand: read GHC's names again from new files.
#
# Needs ghc and ghc-prof (Debian: apt-get install ghc ghc-prof). Works from
# any directory; writes only into tests/ghc/heap/. Usage:
#   tests/ghc/heap/regenerate.sh               every twin
#   tests/ghc/heap/regenerate.sh deep_labels   only these
set -eu

here=$(cd "$(dirname "$0")" && pwd)
command -v ghc >/dev/null 2>&1 || { echo "regenerate.sh: ghc not found; install ghc and ghc-prof" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ $# -gt 0 ]; then names="$*"; else
  names=$(cd "$here" && ls */ghc-rts | sed 's|/ghc-rts$||')
fi

status=0
for name in $names; do
  src="$here/$name"
  [ -f "$src/Main.hs" ] && [ -f "$src/ghc-rts" ] && [ -f "$src/Main.stdout" ] || {
    echo "regenerate.sh: $src needs Main.hs, Main.stdout and ghc-rts" >&2; status=1; continue; }
  dir="$tmp/$name"
  mkdir -p "$dir"
  cp "$src/Main.hs" "$dir/"
  (cd "$dir" && ghc -prof -fprof-auto -rtsopts -o Main Main.hs >ghc.log 2>&1) || {
    echo "regenerate.sh: ghc failed on $name:" >&2; cat "$dir/ghc.log" >&2; status=1; continue; }
  while read -r profile flags; do
    [ -n "$profile" ] || continue
    rm -f "$dir/Main.hp"
    # GHC 9.0.2's -hb dies of a segmentation fault in some runs: a run
    # killed by a signal is tried again, up to ten times.
    tries=0
    while :; do
      tries=$((tries + 1))
      rc=0
      # shellcheck disable=SC2086 # the flags are words
      (cd "$dir" && ./Main +RTS $flags -RTS >stdout 2>stderr) || rc=$?
      [ "$rc" -gt 128 ] && [ "$tries" -lt 10 ] || break
    done
    [ "$rc" -eq 0 ] || {
      echo "regenerate.sh: $name +RTS $flags failed ($tries tries):" >&2; cat "$dir/stderr" >&2; status=1; continue; }
    if ! cmp -s "$dir/stdout" "$src/Main.stdout"; then
      echo "regenerate.sh: $name printed something else than Main.stdout:" >&2
      diff "$dir/stdout" "$src/Main.stdout" >&2 || true
      status=1; continue
    fi
    cp "$dir/Main.hp" "$src/Main.$profile.hp"
    echo "$name $profile (+RTS $flags): ok"
  done <"$src/ghc-rts"
done
exit $status
