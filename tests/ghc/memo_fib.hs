-- Twin of tests/ghc/memo_fib.stg (see README.md).
-- Memoised fibonacci: a CAF memo = map fib [0 ..] read with (!!) by fib
-- itself, consumed under three hand-written SCCs (the first forces a
-- prefix, the second more of it, the third reads cells already there); the
-- classic self-referential fibs CAF with zipWith, read by two SCCs; and a
-- memo table local to a function, under an SCC, with a local cell
-- function.
memo :: [Int]
memo = map fib [0 ..]

fib :: Int -> Int
fib n = if n < 2 then n else memo !! (n - 1) + memo !! (n - 2)

fibs :: [Int]
fibs =
  let tl = tail fibs
      z = zipWith (+) fibs tl
   in 0 : 1 : z

tribs :: Int -> Int
tribs k =
  let tbl = {-# SCC "ttable" #-} map cell [0 ..]
      cell :: Int -> Int
      cell i = if i < 3 then 1 else tbl !! (i - 1) + tbl !! (i - 2) + tbl !! (i - 3)
   in tbl !! k

main :: IO ()
main =
  print
    ( let a = {-# SCC "first" #-} fib 15
          b = {-# SCC "second" #-} fib 25
          c = {-# SCC "third" #-} sum (take 10 memo)
          x = {-# SCC "useA" #-} fibs !! 20
          y = {-# SCC "useB" #-} sum (take 15 fibs)
          t = tribs 12
          u = {-# SCC "again" #-} tribs 6
       in [a, b, c, x, y, t, u]
    )
