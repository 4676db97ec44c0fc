-- Twin of tests/ghc/two_modules/Main.stg (see tests/ghc/README.md).
import Lib

main :: IO ()
main =
  print
    ( let a = sumSquares [1, 2, 3]
          b = sumSquares table
          c = sumSquares (scale 2 table)
       in [a, b, c]
    )
