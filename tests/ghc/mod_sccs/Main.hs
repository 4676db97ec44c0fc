-- Twin of tests/ghc/mod_sccs/Main.stg (see tests/ghc/README.md).
import Inner
import Outer

main :: IO ()
main =
  print
    ( let ns = upto 1 60
          t = build 5 1
          d = collatz 27
       in let a = {-# SCC "work" #-} longest ns
              b = {-# SCC "walk" #-} sumTree t
              c = {-# SCC "next" #-} iter next ns
           in a : b : d : c
    )
