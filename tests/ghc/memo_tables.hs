-- Twin of tests/ghc/memo_tables.stg (see README.md).
-- Memo tables as lazy lists read by a user index function: a CAF table
-- under a hand-written SCC, whose cells call fibM, which reads the table;
-- a local letrec table (an SCC around the thunk's body). A strict
-- accumulator loop (seq) against a lazy one (an SCC around the
-- accumulator thunk's body), and a local strict loop with a local
-- function; a CAF under an SCC that reads the table CAF.

{-# NOINLINE idx #-}
idx :: [Int] -> Int -> Int
idx xs n = case xs of
  [] -> 0
  (x : xt) -> if n == 0 then x else idx xt (n - 1)

{-# NOINLINE fibM #-}
fibM :: Int -> Int
fibM n = if n < 2 then n else idx memoTab (n - 1) + idx memoTab (n - 2)

memoTab :: [Int]
memoTab = {-# SCC "table" #-} map fibM [0 .. 20]

{-# NOINLINE tri #-}
tri :: Int -> Int
tri n =
  let tbl = {-# SCC "tritab" #-} map step [0 .. n]
      step :: Int -> Int
      step i = if i == 0 then 0 else idx tbl (i - 1) + i
   in idx tbl n

{-# NOINLINE sq #-}
sq :: Int -> Int
sq x = x * x

{-# NOINLINE sumS #-}
sumS :: Int -> [Int] -> Int
sumS acc xs = case xs of
  [] -> acc
  (x : xt) -> let acc2 = acc + sq x in seq acc2 (sumS acc2 xt)

{-# NOINLINE sumL #-}
sumL :: Int -> [Int] -> Int
sumL acc xs = case xs of
  [] -> acc
  (x : xt) -> let acc2 = {-# SCC "lz" #-} (acc + sq x) in sumL acc2 xt

{-# NOINLINE weigh #-}
weigh :: Int -> [Int] -> Int
weigh k xs =
  let w :: Int -> Int
      w y = y * k
      go :: Int -> [Int] -> Int
      go acc ys = case ys of
        [] -> acc
        (y : yt) -> let a2 = acc + w y in seq a2 (go a2 yt)
   in go 0 xs

big :: Int
big = {-# SCC "bigscc" #-} sumS 0 (take 6 memoTab)

main :: IO ()
main =
  print
    ( let a = fibM 20
          b = sumS 0 (take 8 memoTab)
          c = sumL 0 (take 8 memoTab)
          d = tri 10
          e = weigh 3 memoTab
          f = big
          g = big + tri 4
       in [a, b, c, d, e, f, g]
    )
