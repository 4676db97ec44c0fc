-- Twin of tests/ghc/scc_alts.stg (see README.md): sccs in case
-- alternatives and on let-bound thunks.
{-# NOINLINE countPos #-}
countPos :: [Int] -> Int
countPos xs = case xs of
  [] -> {-# SCC "nilCase" #-} 0
  (y : ys) ->
    if y > 0
      then {-# SCC "posCase" #-} (1 + countPos ys)
      else {-# SCC "negCase" #-} countPos ys

{-# NOINLINE sumSqPos #-}
sumSqPos :: [Int] -> Int
sumSqPos xs = case xs of
  [] -> 0
  (y : ys) ->
    let s = {-# SCC "sqr" #-} (y * y)
        r = {-# SCC "recur" #-} sumSqPos ys
     in if y > 0 then {-# SCC "keep" #-} (s + r) else r

{-# NOINLINE tag #-}
tag :: [Int] -> [Int]
tag xs = case xs of
  [] -> []
  (y : ys) ->
    let t = if y > 0 then {-# SCC "tp" #-} (y * 10) else {-# SCC "tn" #-} (y - 1)
        rest = tag ys
     in t : rest

main :: IO ()
main =
  print
    ( let xs = [3, -1, 4, -5, 2]
       in let a = countPos xs
              b = sumSqPos xs
              ts = tag xs
           in let c = {-# SCC "consume" #-} sum ts
                  d = length ts
               in [a, b, c, d]
    )
