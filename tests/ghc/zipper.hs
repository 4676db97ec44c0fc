-- Twin of tests/ghc/zipper.stg (see README.md): a list zipper edited by
-- commands: interp (arity 1) returns the top-level left/right themselves,
-- partial applications of modifyZ (with a local adder capturing k, or a
-- top-level function) and of insertZ under an scc; the commands run by
-- foldl with a local step, and as one composed function built by foldr
-- with a local compose.
data Z = Z [Int] Int [Int]
data Cmd = L | R | Inc Int | Dbl | Ins Int

{-# NOINLINE fromList #-}
fromList :: [Int] -> Z
fromList xs = case xs of
  [] -> Z [] 0 []
  (y : ys) -> Z [] y ys

{-# NOINLINE left #-}
left :: Z -> Z
left z = case z of
  Z ls x rs -> case ls of
    [] -> z
    (l : ls2) -> Z ls2 l (x : rs)

{-# NOINLINE right #-}
right :: Z -> Z
right z = case z of
  Z ls x rs -> case rs of
    [] -> z
    (r : rs2) -> Z (x : ls) r rs2

{-# NOINLINE modifyZ #-}
modifyZ :: (Int -> Int) -> Z -> Z
modifyZ f z = case z of
  Z ls x rs -> let fx = f x in Z ls fx rs

{-# NOINLINE insertZ #-}
insertZ :: Int -> Z -> Z
insertZ k z = case z of
  Z ls x rs -> Z (x : ls) k rs

{-# NOINLINE dbl #-}
dbl :: Int -> Int
dbl x = x * 2

{-# NOINLINE interp #-}
interp :: Cmd -> Z -> Z
interp c = case c of
  L -> left
  R -> right
  Inc k -> let add :: Int -> Int
               add x = x + k
            in modifyZ add
  Dbl -> modifyZ dbl
  Ins k -> let ik = {-# SCC "ins" #-} insertZ k in ik

{-# NOINLINE toListZ #-}
toListZ :: Z -> [Int]
toListZ z = case z of
  Z ls x rs -> let rl = reverse ls in rl ++ (x : rs)

{-# NOINLINE runCmds #-}
runCmds :: [Cmd] -> Z -> Z
runCmds cs z0 =
  let stepC :: Z -> Cmd -> Z
      stepC z c = interp c z
   in foldl stepC z0 cs

{-# NOINLINE compileCmds #-}
compileCmds :: [Cmd] -> Z -> Z
compileCmds cs =
  let comp :: Cmd -> (Z -> Z) -> Z -> Z
      comp c k z = let f = interp c
                       z1 = f z
                    in k z1
      idZ :: Z -> Z
      idZ z = z
   in foldr comp idZ cs

{-# NOINLINE prog #-}
prog :: [Cmd]
prog = [R, R, Inc 3, L, Dbl, R, Ins 7, R, Inc 1]

main :: IO ()
main =
  print
    ( let cs = concat (replicate 25 prog)
          z0 = fromList [1 .. 40]
       in let za = runCmds cs z0
              f = compileCmds cs
           in let zb = f z0
               in let la = toListZ za
                      lb = toListZ zb
                   in let a = sum la
                          b = sum lb
                          n = length la
                          h = take 5 lb
                       in a : b : n : h
    )
