data Ops = Ops (Int -> Int) (Int -> Int)

mkOps :: Int -> Ops
mkOps k = let inc y = y + k
              dbl y = y * k
          in Ops inc dbl

{-# NOINLINE getInc #-}
getInc :: Ops -> Int -> Int
getInc o = case o of
  Ops f g -> f

{-# NOINLINE app #-}
app :: (Int -> Int) -> Int -> Int
app f x = f x

main :: IO ()
main =
  print
    ( let o = mkOps 3
          g = getInc o
          r1 = g 10
          r2 = app g 5
       in [r1, r2]
    )
