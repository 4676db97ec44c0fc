data Box = Box (Int -> Int)

{-# NOINLINE inc #-}
inc :: Int -> Int
inc x = x + 1

{-# NOINLINE mk #-}
mk :: Int -> Box
mk n = Box inc

{-# NOINLINE use #-}
use :: Box -> Int -> Int
use b x = case b of Box f -> f x

main :: IO ()
main =
  print
    ( let b = mk 0
          r = use b 5
       in [r]
    )
