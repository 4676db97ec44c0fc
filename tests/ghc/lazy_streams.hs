-- Twin of tests/ghc/lazy_streams.stg (see README.md): streams built under
-- one scc and consumed under others.
{-# NOINLINE zip3With #-}
zip3With :: (Int -> Int -> Int -> Int) -> [Int] -> [Int] -> [Int] -> [Int]
zip3With f as bs cs = case as of
  [] -> []
  (a : at) -> case bs of
    [] -> []
    (b : bt) -> case cs of
      [] -> []
      (c : ct) ->
        let v = f a b c
            rest = zip3With f at bt ct
         in v : rest

{-# NOINLINE cyc #-}
cyc :: [Int] -> [Int]
cyc xs = let ys = xs ++ ys in ys

{-# NOINLINE mac #-}
mac :: Int -> Int -> Int -> Int
mac a b c = a * b + c

{-# NOINLINE dbl #-}
dbl :: Int -> Int
dbl x = x * 2

main :: IO ()
main =
  print
    ( let pows = {-# SCC "build" #-} iterate dbl 1
          ones = {-# SCC "build2" #-} cyc [1, 2, 3]
          idx = [10 .. 15]
       in let zs = zip3With mac pows ones idx
           in let a = {-# SCC "use" #-} (let t = take 5 zs in sum t)
                  b = {-# SCC "use2" #-} (let t = take 4 pows in sum t)
                  c = let t = take 7 ones in sum t
               in [a, b, c]
    )
