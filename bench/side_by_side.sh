# Sourced, from the repository's root, by the benchmarks that measure this
# build beside another one (deep_stacks.sh, large_input.sh, diagnostics.sh,
# memory.sh, rss_over_time.sh):
#   BIN=/path/to/stg-run   the binary measured (default: this checkout's
#                          release build, built now)
#   BASE=/path/to/stg-run  another binary, measured beside it (optional)
# Sets BINS and NAMES (the binaries, and their names in the tables) and
# WORK (a scratch directory, removed at exit), and defines `min`.
if [ -z "${BIN:-}" ]; then
  cargo build --release --quiet
  BIN=$PWD/target/release/stg-run
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

BINS=("$BIN")
NAMES=("this build")
if [ -n "${BASE:-}" ]; then
  BINS+=("$BASE")
  NAMES+=("BASE")
fi

# The smaller of $1 (empty when there is none yet) and $2.
min() { if [ -z "$1" ] || awk "BEGIN{exit !($2 < $1)}"; then echo "$2"; else echo "$1"; fi; }
