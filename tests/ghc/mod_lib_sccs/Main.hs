-- Twin of tests/ghc/mod_lib_sccs/Main.stg (see tests/ghc/README.md).
import Lib

main :: IO ()
main =
  print
    ( let xs = countDown 12
          tri :: Int -> Int
          tri x = let x1 = x + 1 in (x * x1) `quot` 2
       in let a = {-# SCC "total" #-} normSum xs
              b = {-# SCC "smooth" #-} smooth xs
              sc :: Int -> Int
              sc = scaler 3
              d = map classify xs
              e = applyTagged tri 7
           in let c = {-# SCC "loop" #-} (let ys = map sc xs in normSum ys)
                  t = b ++ d
               in a : c : e : t
    )
