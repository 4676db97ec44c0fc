-- Twin of tests/ghc/mod_thunks/Main.stg (see tests/ghc/README.md).
import Lazy

main :: IO ()
main =
  print
    ( let xs = upto 1 100
          tbl = memoFib 70
       in let st = mkStats xs
              e1 = {-# SCC "expensive" #-} (let m = map sq xs in sumA m)
              e2 = {-# SCC "cheap" #-} length xs
              r4 = {-# SCC "use" #-} (tbl !! 70)
              r5 = {-# SCC "consume" #-} (let q = squaresTo 30 in sumA q)
              r6 = sumLazy tbl
           in let r1 = pick 1 e1 e2
                  r2 = pick 0 e1 e2
                  r3 = both st
               in [r1, r2, r3, r4, r5, r6]
    )
