-- Twin of tests/ghc/queue_sim.stg (see README.md): a two-list queue
-- driving a simulation.
data Queue = Q [Int] [Int]

{-# NOINLINE push #-}
push :: Int -> Queue -> Queue
push x q = case q of
  Q f b -> Q f (x : b)

{-# NOINLINE pop #-}
pop :: Queue -> Maybe (Int, Queue)
pop q = case q of
  Q f b -> case f of
    (x : f1) -> Just (x, Q f1 b)
    [] -> case b of
      [] -> Nothing
      _ -> let f2 = {-# SCC "flip" #-} reverse b
            in pop (Q f2 [])

{-# NOINLINE split #-}
split :: Int -> Queue -> Queue
split n q =
  let h = n `quot` 2
      q1 = push h q
      m = n - h
   in push m q1

{-# NOINLINE simulate #-}
simulate :: Int -> Queue -> Int
simulate fuel q =
  if fuel == 0
    then 0
    else case pop q of
      Nothing -> 0
      Just (n, q1) ->
        let q2 = if n > 1 then split n q1 else q1
            rest = simulate (fuel - 1) q2
         in n + rest

{-# NOINLINE run #-}
run :: [Int] -> Int
run jobs = let q = foldr push (Q [] []) jobs in simulate 100 q

main :: IO ()
main =
  print
    ( let a = run [5, 3]
          b = {-# SCC "second" #-} run [7]
          c = let q = foldr push (Q [] []) [2, 6, 1] in simulate 3 q
       in [a, b, c]
    )
