-- Twin of tests/ghc/three_modules/Main.stg (see tests/ghc/README.md).
import Base
import Stats

{-# NOINLINE half #-}
half :: Int -> Int
half x = x `quot` 2

main :: IO ()
main =
  print
    ( let xs = upto 1 200
       in let ys = scaleAll 3 xs
              a = mean xs
              d = sumSquares squares
              e = hist 50 xs
              hs = mapL half squares
           in let b = variance ys
                  g = mean hs
               in a : b : total : d : g : spread : e
    )
