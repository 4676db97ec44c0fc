#!/bin/sh
# Rebuild the GHC profiles of the Haskell twins (see README.md).
#
# For every tests/ghc/X.hs: compile it twice in a temporary directory,
#   ghc -prof -fprof-auto     -rtsopts X.hs   ->  X.prof,     X.tree
#   ghc -prof -fprof-auto-top -rtsopts X.hs   ->  X.top.prof, X.top.tree
#   ghc -prof -fno-prof-auto -rtsopts X.hs    ->  X.none.prof, X.none.tree
# run each with +RTS -pa, check that it printed exactly the expected output
# (programs/X.stdout, or tests/ghc/X.stdout for the twins of files kept
# here), and copy the profile back. X.tree is the cost-centre tree of the
# profile: one line per node, "<indent><cost centre> <module> <entries>",
# the indent being GHC's (one space per level), without the top-level nodes
# of GHC's own modules and RTS (CAF GHC.*, CAF Data.*, SYSTEM, GC, ...),
# which have no counterpart in stg-run. -pa (not -p): the default report
# leaves out every node with no entries, ticks or allocation, and whether a
# node has a tick depends on timing; -pa prints them all.
# Programs without a twin may have an output check in output-checks/X.hs,
# whose output (without profiling) must equal programs/X.stdout.
#
# MODES="none" (say) rebuilds only those profiles.
# Needs ghc and ghc-prof (Debian: apt-get install ghc ghc-prof). Works from
# any directory; writes only into tests/ghc/. Usage:
#   tests/ghc/regenerate.sh            all twins
#   tests/ghc/regenerate.sh nfib tak   only these
#   tests/ghc/regenerate.sh two_modules  a twin of several modules (a
#                                        directory with Main.hs and Main.stdout)
set -eu
# Which profiles to rebuild: auto (-fprof-auto), top (-fprof-auto-top),
# none (-prof alone: only hand-written SCCs and CAFs).
MODES=${MODES:-auto top none}

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v ghc >/dev/null 2>&1 || { echo "regenerate.sh: ghc not found; install ghc and ghc-prof" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ $# -gt 0 ]; then names="$*"; else
  names=$(cd "$here" && { ls *.hs | sed 's/\.hs$//'; ls */Main.stdout 2>/dev/null | sed 's|/Main.stdout$||'; })
fi

tree() {
  # $1: a .prof file; $2: the user's modules (default "Main"). Print the
  # tree section as "<indent>name module entries".
  awk -v mods="${2:-Main}" '
    BEGIN { n = split(mods, m, " "); for (i = 1; i <= n; i++) user[m[i]] = 1 }
    /^COST CENTRE +MODULE +SRC +no\./ { intree = 1; next }
    intree && NF >= 10 {
      match($0, /^ */); indent = substr($0, 1, RLENGTH)
      depth = RLENGTH
      if (skip && depth > skipdepth) next
      skip = 0
      # Top-level nodes of the RTS and of library modules (CAF GHC.IO...,
      # SYSTEM, GC, ...) and everything below them.
      if (depth == 1 && !($2 in user)) { skip = 1; skipdepth = depth; next }
      print indent $1 " " $2 " " $(NF-6)
    }' "$1"
}

status=0

# Output checks (tests/ghc/output-checks/X.hs): compiled without profiling,
# only their output is compared with programs/X.stdout.
if [ $# -eq 0 ]; then
  for src in "$here"/output-checks/*.hs; do
    [ -f "$src" ] || continue
    name=$(basename "$src" .hs)
    dir="$tmp/check.$name"
    mkdir -p "$dir"
    cp "$src" "$dir/$name.hs"
    if (cd "$dir" && ghc -o "$name" "$name.hs" >ghc.log 2>&1 && ./"$name" >stdout 2>stderr) \
       && cmp -s "$dir/stdout" "$root/programs/$name.stdout"; then
      echo "$name (output check): ok"
    else
      echo "regenerate.sh: output check $name failed:" >&2
      cat "$dir/ghc.log" >&2 2>/dev/null || true
      diff "$dir/stdout" "$root/programs/$name.stdout" >&2 || true
      status=1
    fi
  done
fi

for name in $names; do
  # A twin of several modules: a directory with Main.hs, the other modules'
  # .hs files, and Main.stdout; its trees keep every one of its modules.
  if [ -f "$here/$name/Main.hs" ] && [ -f "$here/$name/Main.stdout" ]; then
    mods=$(cd "$here/$name" && ls *.hs | sed 's/\.hs$//' | tr '\n' ' ')
    for mode in $MODES; do
      dir="$tmp/$name.$mode"
      mkdir -p "$dir"
      cp "$here/$name"/*.hs "$dir/"
      case $mode in
        auto) flag=-fprof-auto; out=Main ;;
        top) flag=-fprof-auto-top; out=Main.top ;;
        *) flag=-fno-prof-auto; out=Main.none ;;
      esac
      (cd "$dir" && ghc -prof $flag -rtsopts -o Main Main.hs >ghc.log 2>&1) || {
        echo "regenerate.sh: ghc failed on $name:" >&2; cat "$dir/ghc.log" >&2; status=1; continue; }
      (cd "$dir" && ./Main +RTS -pa -RTS >stdout 2>stderr) || true
      if ! cmp -s "$dir/stdout" "$here/$name/Main.stdout"; then
        echo "regenerate.sh: $name printed something else than Main.stdout:" >&2
        diff "$dir/stdout" "$here/$name/Main.stdout" >&2 || true
        status=1; continue
      fi
      cp "$dir/Main.prof" "$here/$name/$out.prof"
      tree "$dir/Main.prof" "$mods" >"$here/$name/$out.tree"
      echo "$name ($flag): ok"
    done
    continue
  fi
  src="$here/$name.hs"
  [ -f "$src" ] || { echo "regenerate.sh: no $src" >&2; status=1; continue; }
  expected="$root/programs/$name.stdout"
  [ -f "$expected" ] || expected="$here/$name.stdout"
  [ -f "$expected" ] || { echo "regenerate.sh: no expected output for $name" >&2; status=1; continue; }
  for mode in $MODES; do
    dir="$tmp/$name.$mode"
    mkdir -p "$dir"
    cp "$src" "$dir/$name.hs"
    case $mode in
      auto) flag=-fprof-auto; out=$name ;;
      top) flag=-fprof-auto-top; out=$name.top ;;
      *) flag=-fno-prof-auto; out=$name.none ;;
    esac
    (cd "$dir" && ghc -prof $flag -rtsopts -o "$name" "$name.hs" >ghc.log 2>&1) || {
      echo "regenerate.sh: ghc failed on $name.hs:" >&2; cat "$dir/ghc.log" >&2; status=1; continue; }
    # A twin of a program that fails at run time exits non-zero on purpose.
    (cd "$dir" && ./"$name" +RTS -pa -RTS >stdout 2>stderr) || true
    if ! cmp -s "$dir/stdout" "$expected"; then
      echo "regenerate.sh: $name printed something else than $expected:" >&2
      diff "$dir/stdout" "$expected" >&2 || true
      status=1; continue
    fi
    cp "$dir/$name.prof" "$here/$out.prof"
    tree "$dir/$name.prof" >"$here/$out.tree"
    echo "$name ($flag): ok"
  done
done
exit $status
