-- Twin of tests/ghc/dlist.stg (see README.md): difference lists as
-- functions [Int] -> [Int]: flatDL (arity 1) returns the top-level dlEmpty
-- itself or partial applications of dlAppend; sepBy returns its argument
-- function; showsNum builds digits; a reverse by foldl with a top-level snoc;
-- an scc'd top-level function passed to map.
data Tree = Leaf | Node Tree Int Tree

{-# NOINLINE dlEmpty #-}
dlEmpty :: [Int] -> [Int]
dlEmpty ys = ys

{-# NOINLINE dlSingle #-}
dlSingle :: Int -> [Int] -> [Int]
dlSingle x ys = x : ys

{-# NOINLINE dlAppend #-}
dlAppend :: ([Int] -> [Int]) -> ([Int] -> [Int]) -> [Int] -> [Int]
dlAppend f g ys = let gys = g ys in f gys

{-# NOINLINE toList #-}
toList :: ([Int] -> [Int]) -> [Int]
toList d = d []

{-# NOINLINE build #-}
build :: Int -> Int -> Tree
build lo hi = if lo > hi then Leaf else
  let mid = (lo + hi) `quot` 2
      l = build lo (mid - 1)
      r = build (mid + 1) hi
   in Node l mid r

{-# NOINLINE flatDL #-}
flatDL :: Tree -> [Int] -> [Int]
flatDL t = case t of
  Leaf -> dlEmpty
  Node l x r ->
    let fl = flatDL l
        fr = flatDL r
        sx = dlSingle x
     in let mid = dlAppend sx fr
         in dlAppend fl mid

{-# NOINLINE showsNum #-}
showsNum :: Int -> [Int] -> [Int]
showsNum n = if n < 10 then dlSingle n else
  let q = showsNum (n `quot` 10)
      r = dlSingle (n `rem` 10)
   in dlAppend q r

{-# NOINLINE sepBy #-}
sepBy :: Int -> [[Int] -> [Int]] -> [Int] -> [Int]
sepBy s ds = case ds of
  [] -> dlEmpty
  (d : rest) -> case rest of
    [] -> d
    _ -> let sd = dlSingle s
             tl = sepBy s rest
          in let m = dlAppend sd tl
              in dlAppend d m

-- snoc is top-level: as a local function with no cost centre
-- (-fprof-auto-top) GHC raises its arity to 3 (its body is a partial
-- application), so its body would run when the list is applied, not when
-- foldl's thunk is forced
{-# NOINLINE snoc #-}
snoc :: ([Int] -> [Int]) -> Int -> [Int] -> [Int]
snoc d x = let sx = dlSingle x in dlAppend sx d

{-# NOINLINE revDL #-}
revDL :: [Int] -> [Int] -> [Int]
revDL xs = foldl snoc dlEmpty xs

main :: IO ()
main =
  print
    ( let t = build 1 90
          sn = {-# SCC "digits" #-} showsNum
          ns = [95 .. 130]
          ys = [1 .. 60]
       in let ft = flatDL t
              ds = map sn ns
              rv = revDL ys
           in let a = toList ft
                  sp = sepBy 99 ds
                  c = toList rv
               in let b = toList sp
                   in let la = length a
                          ta = take 4 a
                          lb = length b
                          tb = take 12 b
                          tc = take 4 c
                       in let tt = tb ++ tc
                           in let u = ta ++ tt
                               in la : lb : u
    )
