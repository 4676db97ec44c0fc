# Smaller versions of the benchmark programs, for counting instructions
# under Valgrind in seconds (sourced by bench/instructions.sh and
# bench/run.sh): `reduced NAME OUT.stg` writes bench/programs/NAME.stg with
# a smaller parameter; `reduced_name NAME` prints what the smaller one is
# called in tables.
# shellcheck shell=bash

reduced_name() {
  case $1 in
    nfib30) echo nfib22 ;;
    queens10) echo queens7 ;;
    tak) echo tak18 ;;
    primes2000) echo primes300 ;;
    pipeline | pipeline10m) echo pipeline50k ;;
    livelist10m) echo livelist100k ;;
    tree23) echo tree15 ;;
    *) return 1 ;;
  esac
}

reduced() {
  local sub
  case $1 in
    nfib30) sub='s/30#/22#/' ;;
    queens10) sub='s/10#/7#/' ;;
    tak) sub='s/24#/18#/; s/16#/12#/; s/8#/6#/' ;;
    primes2000) sub='s/1999#/300#/' ;;
    pipeline) sub='s/1000000#/50000#/' ;;
    pipeline10m) sub='s/10000000#/50000#/' ;;
    livelist10m) sub='s/10000000#/100000#/' ;;
    tree23) sub='s/8388607#/32767#/' ;;
    *) return 1 ;;
  esac
  sed "$sub" "bench/programs/$1.stg" >"$2"
}
