-- Twin of tests/ghc/mod_dicts/Main.stg (see tests/ghc/README.md).
import Class
import Inst

main :: IO ()
main =
  print
    ( let m7 = mkModD 7
          tr = mkTropD 1000
       in let sc = mkScaledD m7 3
              o5 = mkOrdD m7 5
              a = sumD m7 [3, 4, 5, 6]
              b = sumD tr [9, 4, 7]
              c = powD m7 3 5
              f = dotD tr [1, 2, 3] [6, 5, 4]
           in let e = powD sc 2 3
                  g = maxSumD o5 [1, 2] [3, 4]
                  s = sortD o5 [7, 3, 9, 5, 1]
               in a : b : c : e : f : g : s
    )
