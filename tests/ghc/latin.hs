-- Twin of tests/ghc/latin.stg (see README.md): backtracking by lists of
-- successes with a hand-written list monad (bindL, retL): permutations,
-- 4x4 Latin squares completed row by row against a CAF of all rows, and
-- Pythagorean triples with a continuation under an scc.
{-# NOINLINE bindL #-}
bindL :: [a] -> (a -> [b]) -> [b]
bindL xs k = case xs of
  [] -> []
  (y : ys) -> let ky = k y
                  rest = bindL ys k
               in ky ++ rest

{-# NOINLINE retL #-}
retL :: a -> [a]
retL x = [x]

{-# NOINLINE removeI #-}
removeI :: Int -> [Int] -> [Int]
removeI x xs = let ne :: Int -> Bool
                   ne y = y /= x
                in filter ne xs

{-# NOINLINE perms #-}
perms :: [Int] -> [[Int]]
perms xs = case xs of
  [] -> [[]]
  _ -> let k x = let others = removeI x xs
                     ps = perms others
                     kp p = retL (x : p)
                  in bindL ps kp
        in bindL xs k

{-# NOINLINE eqI #-}
eqI :: Int -> Int -> Bool
eqI a b = a == b

{-# NOINLINE clash #-}
clash :: [Int] -> [Int] -> Bool
clash r q = let z = zipWith eqI r q in or z

{-# NOINLINE compatible #-}
compatible :: [Int] -> [[Int]] -> Bool
compatible r rows = case rows of
  [] -> True
  (q : qs) -> if clash r q then False else compatible r qs

{-# NOINLINE allRows #-}
allRows :: [[Int]]
allRows = perms [1, 2, 3, 4]

{-# NOINLINE latin #-}
latin :: Int -> [[Int]] -> [[[Int]]]
latin n rows = if n == 0 then retL rows else
  let k r = let ok = compatible r rows
                rows2 = rows ++ [r]
                more = latin (n - 1) rows2
             in if ok then more else []
   in bindL allRows k

{-# NOINLINE triples #-}
triples :: Int -> [Int]
triples n =
  let ka a = let bs = [a .. n]
                 kb b = let cs = [b .. n]
                            kc c = if a * a + b * b == c * c then retL (a * 100 + b) else []
                         in bindL cs kc
                 kbs = {-# SCC "kb" #-} kb
              in bindL bs kbs
      as = [1 .. n]
   in bindL as ka

main :: IO ()
main =
  print
    ( let sols = latin 3 [[1, 2, 3, 4]]
          ts = triples 20
       in let n = length sols
              sq = head sols
              l = length ts
           in let cells = concat sq
               in let tc = ts ++ cells
                   in n : l : tc
    )
