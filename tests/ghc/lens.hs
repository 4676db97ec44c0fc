-- Twin of tests/ghc/lens.stg (see README.md): a tiny lens library: a lens
-- is a constructor holding a getter and a setter (local functions of the
-- CAFs xL, yL, posL, radL, ballsL, tickL and of compL); view, set, over;
-- composed lenses as CAFs (posXL = compL posL xL) and under an scc in a
-- local thunk; a world of balls stepped n times by over with local
-- functions capturing the radius.
data Pt = Pt Int Int
data Ball = Ball Pt Int
data World = World [Ball] Int
data Lens s a = Lens (s -> a) (a -> s -> s)

{-# NOINLINE view #-}
view :: Lens s a -> s -> a
view l s = case l of Lens g st -> g s

{-# NOINLINE set #-}
set :: Lens s a -> a -> s -> s
set l v s = case l of Lens g st -> st v s

{-# NOINLINE over #-}
over :: Lens s a -> (a -> a) -> s -> s
over l f s = case l of
  Lens g st -> let a = g s
                   fa = f a
                in st fa s

{-# NOINLINE compL #-}
compL :: Lens a b -> Lens b c -> Lens a c
compL outer inner =
  let g s = let b = view outer s in view inner b
      st c s = let b = view outer s
                   b2 = set inner c b
                in set outer b2 s
   in Lens g st

{-# NOINLINE xL #-}
xL :: Lens Pt Int
xL = let g p = case p of Pt x y -> x
         st v p = case p of Pt x y -> Pt v y
      in Lens g st

{-# NOINLINE yL #-}
yL :: Lens Pt Int
yL = let g p = case p of Pt x y -> y
         st v p = case p of Pt x y -> Pt x v
      in Lens g st

{-# NOINLINE posL #-}
posL :: Lens Ball Pt
posL = let g b = case b of Ball p r -> p
           st v b = case b of Ball p r -> Ball v r
        in Lens g st

{-# NOINLINE radL #-}
radL :: Lens Ball Int
radL = let g b = case b of Ball p r -> r
           st v b = case b of Ball p r -> Ball p v
        in Lens g st

{-# NOINLINE ballsL #-}
ballsL :: Lens World [Ball]
ballsL = let g w = case w of World bs t -> bs
             st v w = case w of World bs t -> World v t
          in Lens g st

{-# NOINLINE tickL #-}
tickL :: Lens World Int
tickL = let g w = case w of World bs t -> t
            st v w = case w of World bs t -> World bs v
         in Lens g st

{-# NOINLINE posXL #-}
posXL :: Lens Ball Int
posXL = compL posL xL

{-# NOINLINE mkBall #-}
mkBall :: Int -> Ball
mkBall i = let y = i * 2 in Ball (Pt i y) i

{-# NOINLINE moveB #-}
moveB :: Ball -> Ball
moveB b =
  let r = view radL b
      addD :: Int -> Int
      addD x = x + r
      dbl :: Int -> Int
      dbl y = y * 2 - r
      yl = {-# SCC "yl" #-} compL posL yL
   in let b1 = over posXL addD b
       in over yl dbl b1

{-# NOINLINE step #-}
step :: World -> World
step w =
  let moveAll :: [Ball] -> [Ball]
      moveAll bs = map moveB bs
      inc :: Int -> Int
      inc t = t + 1
   in let w1 = over ballsL moveAll w
       in over tickL inc w1

{-# NOINLINE applyN #-}
applyN :: Int -> (World -> World) -> World -> World
applyN n f x = if n == 0 then x else
  let n1 = n - 1
      fx = f x
   in applyN n1 f fx

main :: IO ()
main =
  print
    ( let bs = map mkBall [1 .. 30]
       in let w = applyN 12 step (World bs 0)
           in let t = view tickL w
                  bs2 = view ballsL w
                  getX :: Ball -> Int
                  getX b = view posXL b
                  getY :: Ball -> Int
                  getY b = let p = view posL b in view yL p
               in let px = {-# SCC "xs" #-} map getX bs2
                      py = map getY bs2
                   in let s = sum px
                          ys = take 3 py
                       in t : s : ys
    )
