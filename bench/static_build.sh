#!/usr/bin/env bash
# A release build of stg-run in code that is not position-independent, for
# measuring and for those who want the fastest binary; prints its path:
#
#   bench/static_build.sh                      # builds, prints the path
#   BIN=$(bench/static_build.sh) bench/ratios.sh
#   bench/instructions.sh "$(bench/static_build.sh)"
#
# Why (docs/PERFORMANCE.md, "A dispatch in position-independent code"): the
# op loop dispatches through a `match` that LLVM compiles to a jump table.
# In position-independent code, Rust's default on Linux (a PIE executable),
# the table holds 32-bit offsets from its own address, so each dispatch
# takes four instructions (load the table's address, load the offset, add,
# jump); with `-C relocation-model=static` the table holds addresses and a
# dispatch is one `jmp *table(,%rax,8)`. The benchmarks run 1.5-1.9% fewer
# instructions, and the outputs, statistics and profiles are the same.
#
# It is not the default build because Cargo hands RUSTFLAGS to every crate
# it builds for the host, and the procedural macros (clap's derive) are
# shared objects, which must be position-independent: with `--target` named
# (the host's own triple) the flags reach only the crates of the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
host=$(rustc -vV | sed -n 's/^host: //p')
case $host in
  *-linux-*) ;;
  *)
    echo "static_build: for Linux hosts only (this one is '$host'); build with cargo build --release" >&2
    exit 2
    ;;
esac
RUSTFLAGS="${RUSTFLAGS:-} -C relocation-model=static" \
  cargo build --release --quiet --target "$host" --target-dir target/static >&2
echo "$PWD/target/static/$host/release/stg-run"
