-- Twin of tests/ghc/mod_shared_caf/Main.stg (see tests/ghc/README.md).
import Collatz
import Query

main :: IO ()
main =
  print
    ( let a = longestIn 10
          b = {-# SCC "count" #-} countAbove 20
          c = nth lens 26
          e = sum evens
          f = nth evens 3
       in [a, b, c, topLen, e, f]
    )
