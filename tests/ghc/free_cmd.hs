-- Twin of tests/ghc/free_cmd.stg (see README.md): a free-monad-like
-- command type whose Get holds a continuation (a local function of bindC,
-- of the CAF getC and of modifyC), bindC/thenC top-level, programs built
-- recursively (counter, a collatz walk) and run by an interpreter with a
-- state and an output list; one program built under an scc.
data Cmd = Done Int | Get (Int -> Cmd) | Put Int Cmd | Out Int Cmd
data R = R Int Int [Int]

{-# NOINLINE done #-}
done :: Int -> Cmd
done x = Done x

{-# NOINLINE bindC #-}
bindC :: Cmd -> (Int -> Cmd) -> Cmd
bindC m f = case m of
  Done x -> f x
  Get k -> let k2 s = let m2 = k s in bindC m2 f in Get k2
  Put s m1 -> let m2 = bindC m1 f in Put s m2
  Out o m1 -> let m2 = bindC m1 f in Out o m2

{-# NOINLINE thenC #-}
thenC :: Cmd -> Cmd -> Cmd
thenC m n = let k u = n in bindC m k

{-# NOINLINE getC #-}
getC :: Cmd
getC = let k s = done s in Get k

{-# NOINLINE putC #-}
putC :: Int -> Cmd
putC s = Put s (Done 0)

{-# NOINLINE outC #-}
outC :: Int -> Cmd
outC o = Out o (Done 0)

{-# NOINLINE modifyC #-}
modifyC :: (Int -> Int) -> Cmd
modifyC f = let k s = let s1 = f s in putC s1 in Get k

{-# NOINLINE counter #-}
counter :: Int -> Cmd
counter n = if n == 0 then getC else
  let k s = let o = outC s
                rest = counter (n - 1)
             in thenC o rest
      addN :: Int -> Int
      addN s = s + n
      m = modifyC addN
   in let m2 = bindC getC k
       in thenC m m2

{-# NOINLINE collatz #-}
collatz :: Cmd
collatz =
  let step s = if s == 1 then done s else
        let s1 = if s `rem` 2 == 0 then s `quot` 2 else 3 * s + 1
            o = outC s1
            p = putC s1
         in let pc = thenC p collatz
             in thenC o pc
   in bindC getC step

{-# NOINLINE run #-}
run :: Cmd -> Int -> R
run m s = case m of
  Done x -> R x s []
  Get k -> let m2 = k s in run m2 s
  Put s2 m1 -> run m1 s2
  Out o m1 -> case run m1 s of
    R x s3 outs -> R x s3 (o : outs)

{-# NOINLINE summary #-}
summary :: R -> [Int]
summary r = case r of
  R x s outs -> let n = length outs
                    f = take 3 outs
                 in x : s : n : f

main :: IO ()
main =
  print
    ( let c = counter 60
          z = {-# SCC "walk" #-} collatz
       in let r1 = run c 0
              r2 = run z 27
           in let s1 = summary r1
                  s2 = summary r2
               in s1 ++ s2
    )
