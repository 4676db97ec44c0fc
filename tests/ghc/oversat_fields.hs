data Ops = Ops (Int -> Int) (Int -> Int)

mkOps :: Int -> Ops
mkOps k = let inc y = y + k
              dbl y = y * k
          in Ops inc dbl

{-# NOINLINE getInc #-}
getInc :: Ops -> Int -> Int
getInc o = case o of
  Ops f g -> f

{-# NOINLINE getDbl #-}
getDbl :: Ops -> Int -> Int
getDbl o = case o of
  Ops f g -> g

twiceO :: Ops -> Int -> Int
twiceO o x = let ix = getInc o x in getDbl o ix

main :: IO ()
main =
  print
    ( let o = mkOps 3
          r1 = getInc o 10
          r2 = twiceO o 4
          r3 = getDbl o 5
       in [r1, r2, r3]
    )
