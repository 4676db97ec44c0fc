-- Twin of tests/ghc/where_const.stg (see README.md): constants bound by
-- name in textbook style, a disagreement. GHC gives every binding a cost
-- centre, so `where m = 7` is `scale.m` (entered once per call of scale,
-- when forced) and the top-level `limit = 100` is `CAF > limit`. In the
-- STG those are `{} \u {} -> I# {7#}` and `{} \u {} -> I# {100#}`, whose
-- body is a constructor application: SEMANTICS.md gives them no cost
-- centre. `where k = 10` written `{} \u {} -> ten {}` (a thunk whose body
-- is a variable) and the where-bound list `ds = [1, 2, 3]` written as a
-- thunk whose body is a `let` do get one, and agree with GHC.
limit :: Int
limit = 100

{-# NOINLINE scale #-}
scale :: Int -> Int
scale x
  | x > k = x * k - m
  | otherwise = x + k + m
  where
    k = 10
    m = 7

{-# NOINLINE total #-}
total :: Int -> Int
total n = sum ds + n
  where
    ds = [1, 2, 3]

main :: IO ()
main = print [a, b, c]
  where
    a = sum (map scale [1 .. 2000])
    b = sum (map total [1 .. 500])
    c = limit + 1
