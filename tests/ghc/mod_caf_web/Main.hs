-- Twin of tests/ghc/mod_caf_web/Main.stg (see tests/ghc/README.md).
import Base
import Mid
import Top

{-# NOINLINE mainTotal #-}
mainTotal :: Int
mainTotal = report + countSmall

main :: IO ()
main =
  print
    ( let c = sumL pairs
          f = {-# SCC "first" #-} countSmall
          g = {-# SCC "again" #-} countSmall
       in f : report : c : bound : limit : mainTotal : g : evenSquares
    )
