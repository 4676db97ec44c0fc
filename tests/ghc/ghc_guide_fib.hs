-- Twin of tests/ghc/ghc_guide_fib.stg: the example of the GHC user's guide,
-- "Cost centres and cost-centre stacks" (see README.md).
main :: IO ()
main = print (f 30 + g 30)
  where
    f n = fib n
    g n = fib (n `div` 2)

fib :: Int -> Int
fib n = if n < 2 then 1 else fib (n - 1) + fib (n - 2)
