#!/usr/bin/env python3
"""Writes a large .pgcl profile for measuring stg-prof (docs/PERFORMANCE.md,
"stg-prof on deep and wide profiles").

    bench/gen_profile.py deep N OUT     # MAIN, then `f` calling itself N-1 deep
    bench/gen_profile.py wide N OUT     # MAIN calling N cost centres once each

Every entry but the root has one tick and one word, so that every entry
is a row of the reports and a line of the folded stacks. The layout is
Clean's call-graph format, version 2 (src/profile/format.rs's module doc)."""
import struct
import sys


def leb(v):
    out = bytearray()
    while True:
        b, v = v & 0x7F, v >> 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def entry(cc, ticks, words, children):
    return leb(cc) + leb(ticks) + leb(words) + bytes(4) + leb(children)


def main():
    shape, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    names = ["MAIN"] + (["f"] if shape == "deep" else [f"f{i}" for i in range(n)])
    b = bytearray(b"prof") + struct.pack("<III", 2, 1, len(names)) + leb(0) + leb(0)
    b += b"Main\0"
    for name in names:
        b += leb(1) + name.encode() + b"\0"
    if shape == "deep":
        b += entry(1, 0, 0, 1)
        b += entry(2, 1, 1, 1) * (n - 2)
        b += entry(2, 1, 1, 0)
    elif shape == "wide":
        b += entry(1, 0, 0, n)
        for i in range(n):
            b += entry(2 + i, 1, 1, 0)
    else:
        sys.exit(f"gen_profile.py: unknown shape `{shape}`: use deep or wide")
    with open(out, "wb") as f:
        f.write(b)


if __name__ == "__main__":
    main()
