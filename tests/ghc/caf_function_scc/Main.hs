-- Twin of tests/ghc/caf_function_scc/Main.stg (see tests/ghc/README.md).
-- Run: stg-run tests/ghc/caf_function_scc/Lib.stg tests/ghc/caf_function_scc/Main.stg
-- GHC (-fprof-auto) and stg-run (--auto-cc=all): main.a > inc5 > adder >
-- adder.k, main.b > add2 > mk > add. GHC's enterFunCCS: the stacks of two
-- modules' CAFs have different roots, so the function's stack is appended
-- by appendCCS, which stops at (and drops) the CAF element; stg-run does
-- the same (tests/ghc/README.md, difference 14).
import Lib

main :: IO ()
main = print (let a = inc5 1; b = add2 3 in [a, b])
