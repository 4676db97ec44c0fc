-- Twin of tests/ghc/mod_paps/Main.stg (see tests/ghc/README.md).
import Build
import Fun

main :: IO ()
main =
  print
    ( let p1 = add3 1
          k5 = mkAdder 5
          af = mkAffine 3 1
          s4 = mkScale 4
          dbl :: Int -> Int
          dbl x = x + x
       in let p2 = p1 2
              c1 = compose dbl k5
           in let pp = pipeline [k5, dbl, p2, af]
                  r1 = applyAll [p2, k5, af, s4, c1, dbl] 10
                  r2 = twice p2 7
                  r3 = iterN 300 k5 0
                  r5 = mkAffine 2 3 10
                  fs = mkFns 7
               in let r4 = iterN 200 pp 1
                      r6 = applyAll fs 3
                   in let t = r1 ++ r6
                       in r2 : r3 : r4 : r5 : t
    )
