-- Twin of tests/ghc/local_scc_loops.stg (see README.md): local recursive
-- functions capturing several variables, hand-written SCCs around calls
-- inside the recursion and around partial applications.
data Mon = Mon (Int -> Int -> Int) Int

{-# NOINLINE add #-}
add :: Int -> Int -> Int
add x y = x + y

{-# NOINLINE add3 #-}
add3 :: Int -> Int -> Int -> Int
add3 a b c = a + b + c

{-# NOINLINE mkMon #-}
mkMon :: Int -> Mon
mkMon k = let comb :: Int -> Int -> Int
              comb x y = x + y * k
          in Mon comb 0

-- go captures c, u, f and hi
{-# NOINLINE foldRange #-}
foldRange :: Mon -> (Int -> Int) -> Int -> Int -> Int
foldRange d f lo hi = case d of
  Mon c u ->
    let go :: Int -> Int
        go i = if i > hi
                 then u
                 else let fi = {-# SCC "elem" #-} f i
                          rest = {-# SCC "rec" #-} go (i + 1)
                      in {-# SCC "comb" #-} c fi rest
    in go lo

-- partial applications built under an scc inside a local recursion
{-# NOINLINE adders #-}
adders :: Int -> Int -> [Int -> Int]
adders k n = let go :: Int -> [Int -> Int]
                 go i = if i == n
                          then []
                          else let p = {-# SCC "mkp" #-} add3 k i
                                   ps = go (i + 1)
                               in p : ps
             in go 0

{-# NOINLINE applyAll #-}
applyAll :: [Int -> Int] -> Int -> [Int]
applyAll fs x = case fs of
  [] -> []
  f : rest -> let y = {-# SCC "app" #-} f x
                  ys = applyAll rest x
              in y : ys

-- a function accumulator: each link a partial application of (.) under an scc
{-# NOINLINE chain #-}
chain :: Int -> (Int -> Int) -> Int -> Int
chain n f = let go :: Int -> (Int -> Int) -> Int -> Int
                go i acc = if i == 0
                             then acc
                             else let acc2 = {-# SCC "link" #-} (f . acc)
                                  in go (i - 1) acc2
            in go n id

{-# NOINLINE run #-}
run :: Int -> Int -> [Int]
run k n = let d1 = mkMon 1
              d2 = mkMon k
              sq :: Int -> Int
              sq x = x * x + k
              a10 = {-# SCC "pap" #-} add 10
              s1 = foldRange d1 sq 1 n
              s2 = foldRange d2 a10 1 n
              ps = adders k n
              c = chain n sq 1
              ys = applyAll ps n
          in s1 : s2 : c : ys

main :: IO ()
main = print (run 2 3)
