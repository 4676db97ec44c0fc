#!/bin/sh
# Redraw the charts of docs/SPACE.md: each program's heap profile by cost
# centre, by description, by retainer set and by biography, censuses
# every 2,500 steps, drawn by stg-prof heap. Run from the repository's root after
# `cargo build --release` (or set STG_BIN to the binaries' directory).
set -eu
root=$(pwd)
bin=${STG_BIN:-target/release}
case $bin in /*) ;; *) bin=$root/$bin ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
for p in foldl_leak mean_lazy mean_retained; do
  for by in cc descr retainer biography; do
    (cd "$tmp" && "$bin/stg-run" "$root/programs/$p.stg" --reproducible --auto-cc=all \
      --heap-profile="$by" --heap-interval=2500 >/dev/null)
    "$bin/stg-prof" heap "$tmp/$p.hp" --title "$p, by $by" --width 720 --height 360 \
      >"$root/docs/space/$p.$by.svg"
  done
done
