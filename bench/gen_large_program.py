#!/usr/bin/env python3
"""A valid .stg program of about SIZE bytes (issue 33, "large valid input").

    bench/gen_large_program.py 50M big.stg     # 50 MB; K and M suffixes

Ten-line functions calling each other in a ring, each with case, let,
letrec and scc (the shape of tests/generated_programs many_functions),
then main. The program runs: main walks nil and returns 0.
"""
import sys


def size(arg):
    mult = {"K": 1_000, "M": 1_000_000}.get(arg[-1:].upper(), 1)
    return int(arg.rstrip("KkMm")) * mult


def function(i, nxt):
    return (
        f"f{i} = {{}} \\r {{xs, acc}} ->\n"
        f"  case xs {{}} of\n"
        f"    Nil {{}} -> acc {{}}\n"
        f"    Cons {{y, ys}} ->\n"
        f"      let acc2 = \\u {{}} ->\n"
        f"            case y {{}} of\n"
        f"              I# {{a#}} -> case acc {{}} of\n"
        f"                I# {{b#}} -> case +# {{a#, b#}} of s# -> scc \"f{i}\" I# {{s#}}\n"
        f"      in f{nxt} {{ys, acc2}}\n"
    )


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen_large_program.py SIZE OUT.stg")
    target, out = size(sys.argv[1]), sys.argv[2]
    tail = (
        "main = {} \\u {} -> f0 {nil, zero}\n"
        "nil = {} \\r {} -> Nil {}\n"
        "zero = {} \\r {} -> I# {0#}\n"
    )
    # Functions needed: the text of one grows with its number's digits.
    n, total = 0, len(tail)
    while total < target:
        total += len(function(n, n + 1))
        n += 1
    n = max(n, 1)
    with open(out, "w") as f:
        for i in range(n):
            f.write(function(i, (i + 1) % n))
        f.write(tail)


main()
