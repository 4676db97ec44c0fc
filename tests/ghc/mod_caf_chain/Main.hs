-- Twin of tests/ghc/mod_caf_chain/Main.stg (tests/ghc/README.md,
-- difference 14). Each module's CAF is the root of a tree of its own in
-- GHC: a function built under Base's or Lib's CAF and applied under
-- Main's gets only what is above that CAF appended.
-- Run: stg-run tests/ghc/mod_caf_chain/Base.stg tests/ghc/mod_caf_chain/Lib.stg tests/ghc/mod_caf_chain/Main.stg
import Base
import Lib

main :: IO ()
main = print (let a = inc10 1
                  c = inc5 2
                  b = add7 c
                  d = twice add7 fromBase
              in [a, b, d])
