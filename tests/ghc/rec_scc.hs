-- Twin of tests/ghc/rec_scc.stg (see README.md): recursion through
-- hand-written sccs.
{-# NOINLINE ack #-}
ack :: Int -> Int -> Int
ack m n =
  if m == 0
    then n + 1
    else
      if n == 0
        then {-# SCC "ackA" #-} ack (m - 1) 1
        else let inner = {-# SCC "ackB" #-} ack m (n - 1) in ack (m - 1) inner

{-# NOINLINE hanoi #-}
hanoi :: Int -> Int
hanoi n =
  if n == 0
    then 0
    else
      let a = {-# SCC "left" #-} hanoi (n - 1)
          b = {-# SCC "right" #-} hanoi (n - 1)
       in a + 1 + b

{-# NOINLINE collatz #-}
collatz :: Int -> Int
collatz n =
  if n == 1
    then 0
    else
      let next = if n `rem` 2 == 0 then {-# SCC "half" #-} (n `quot` 2) else {-# SCC "triple" #-} (3 * n + 1)
       in 1 + {-# SCC "step" #-} collatz next

main :: IO ()
main =
  print
    ( let a = ack 2 3
          b = hanoi 4
          c = let ns = [1 .. 8]
                  ls = map collatz ns
               in sum ls
       in [a, b, c]
    )
