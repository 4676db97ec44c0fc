-- Twin of tests/ghc/caf_function/B.stg (module Main).
import A
main :: IO ()
main = print ({-# SCC "m" #-} inc 41)
