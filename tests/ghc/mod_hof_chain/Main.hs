-- Twin of tests/ghc/mod_hof_chain/Main.stg (see tests/ghc/README.md).
import Comb
import Pipe
import Prim

main :: IO ()
main =
  print
    ( let xs = upto 1 8
          add10 :: Int -> Int
          add10 = addI 10
          tri :: Int -> Int
          tri x = let x1 = x + 1 in (x * x1) `quot` 2
       in let a = stage sq inc xs
              b = keepMap isOdd dbl xs
              c = total sq xs
              d = iterAll 3 dbl xs
              e = total add10 xs
              f = sumBoth tri sq xs
              g = stage add10 tri xs
           in [a, b, d, g, [c, e, f]]
    )
