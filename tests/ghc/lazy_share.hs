-- Twin of tests/ghc/lazy_share.stg (see README.md): laziness corner
-- cases: the infinite Hamming list (a CAF knotted through three maps and
-- two merges) consumed partially under four sccs, one of them after the
-- others have forced its cells; an infinite iterate cut by takeWhile; a
-- table of Collatz lengths shared by five consumers under five sccs; a
-- thunk whose value is a local function and one whose value is a
-- partial application, each applied under three different sccs (the
-- first application evaluates it); seq chains over thunks that depend on
-- each other; a thunk in a data field that is never forced.
{-# NOINLINE times #-}
times :: Int -> Int -> Int
times k x = k * x

{-# NOINLINE merge #-}
merge :: [Int] -> [Int] -> [Int]
merge xs ys = case xs of
  x : xt -> case ys of
    y : yt ->
      if x < y
        then let r1 = merge xt ys in x : r1
        else
          if x > y
            then let r2 = merge xs yt in y : r2
            else let r3 = merge xt yt in x : r3

{-# NOINLINE hamming #-}
hamming :: [Int]
hamming =
  let t2 = times 2
      t3 = times 3
      t5 = times 5
      h2 = map t2 hamming
      h3 = map t3 hamming
      h5 = map t5 hamming
      m35 = merge h3 h5
      rest = merge h2 m35
   in 1 : rest

{-# NOINLINE collatzLen #-}
collatzLen :: Int -> Int
collatzLen n = go n 0
  where
    go :: Int -> Int -> Int
    go m acc =
      if m == 1
        then acc
        else
          let acc1 = acc + 1
           in acc1 `seq` (if m `rem` 2 == 0 then go (m `quot` 2) acc1 else go (3 * m + 1) acc1)

{-# NOINLINE mkAdder #-}
mkAdder :: Int -> Int -> Int
mkAdder k =
  let add :: Int -> Int
      add x = x + k
   in add

{-# NOINLINE takeWhileI #-}
takeWhileI :: (Int -> Bool) -> [Int] -> [Int]
takeWhileI p xs = case xs of
  [] -> []
  y : ys -> if p y then let r = takeWhileI p ys in y : r else []

{-# NOINLINE isOdd #-}
isOdd :: Int -> Bool
isOdd x = x `rem` 2 /= 0

data Pair = Pair Int Int

{-# NOINLINE pick #-}
pick :: Pair -> Int
pick p = case p of
  Pair a _ -> a

main :: IO ()
main =
  print
    ( let ns = [1 .. 80]
          lens = map collatzLen ns
          a = {-# SCC "sumH" #-} (let tk = take 150 hamming in sum tk)
          b = {-# SCC "nthH" #-} (hamming !! 400)
          small :: Int -> Bool
          small x = x < 1000
          c = {-# SCC "countH" #-} (let tw = takeWhileI small hamming in length tw)
          d = {-# SCC "c1" #-} sum lens
          e = {-# SCC "c2" #-} foldl max 0 lens
          f = {-# SCC "c3" #-} (lens !! 26)
          g = {-# SCC "c4" #-} (let od = filter isOdd lens in length od)
          h = {-# SCC "c5" #-} (let tl = drop 60 lens in sum tl)
          dbl :: Int -> Int
          dbl x = x * 2 - 1
          below :: Int -> Bool
          below x = x < 100000
          pw = {-# SCC "pow" #-} (let it = iterate dbl 3 in let tw2 = takeWhileI below it in sum tw2)
          addK = mkAdder d
          pk = times e
          u1 = {-# SCC "useA" #-} (addK 1 + pk 2)
          u2 = {-# SCC "useB" #-} (addK 10 + pk 20)
          u3 = {-# SCC "useC" #-} (let m = map addK ns in sum m)
          s1 = collatzLen 27
          s2 = s1 + collatzLen 97
          s3 = s2 * 2
          chain = s1 `seq` s2 `seq` s3 `seq` (s3 - s1)
          never = 1 `quot` 0
          pr = pick (Pair s1 never)
          late = {-# SCC "late" #-} (hamming !! 100)
       in [a, b, c, d, e, f, g, h, pw, u1, u2, u3, chain, pr, late]
    )
