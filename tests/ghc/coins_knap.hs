-- Twin of tests/ghc/coins_knap.stg (see README.md).
-- Dynamic programmes over lazy lists. Coin change: the table for each coin
-- is an infinite list defined in terms of itself (a local letrec of two
-- thunks, new and shifted), folded over the coins with foldl. 0/1
-- knapsack: a row per item built by map over the capacities with a local
-- cell function under an SCC, the rows folded with foldl over (weight,
-- value) pairs under an SCC around the step.
addCoin :: [Int] -> Int -> [Int]
addCoin prev c =
  let shifted = let rz = replicate c 0 in rz ++ new
      new = zipWith (+) prev shifted
   in new

ways :: [Int] -> Int -> Int
ways coins target =
  let base = let z = repeat 0 in 1 : z
      tbl = foldl addCoin base coins
   in tbl !! target

knapRow :: Int -> [Int] -> (Int, Int) -> [Int]
knapRow cap prev it = case it of
  (w, v) ->
    let js = [0 .. cap]
        cell :: Int -> Int
        cell j =
          {-# SCC "cell" #-}
          ( if j < w
              then prev !! j
              else let keep = prev !! j; takeIt = v + prev !! (j - w) in max keep takeIt
          )
     in map cell js

knap :: [(Int, Int)] -> Int -> Int
knap items cap =
  let row0 = let c1 = cap + 1 in replicate c1 0
      step :: [Int] -> (Int, Int) -> [Int]
      step prev it = {-# SCC "row" #-} knapRow cap prev it
      final = foldl step row0 items
   in final !! cap

main :: IO ()
main =
  print
    ( let w1 = ways [1, 2, 5] 12
          w2 = {-# SCC "coins2" #-} ways [2, 3, 7] 20
          k1 = knap [(2, 3), (3, 4), (4, 5), (5, 6)] 5
          k2 = {-# SCC "knap2" #-} knap [(1, 1), (3, 4), (4, 5)] 7
       in [w1, w2, k1, k2]
    )
