-- Twin of tests/ghc/caf_chain_ops.stg (see README.md).
-- Top-level CAFs that depend on one another (squares -> evens -> total,
-- count -> avg; scaled reads squares through a CAF partial application
-- times3), some under hand-written SCCs (tot, scale, mkops), some not; and
-- records of functions (Ops) built by mkOps with local functions, held in
-- CAFs and in a local thunk, their fields selected and applied later by
-- apAdd/apMul and by an over-saturated selector.
data Ops = Ops (Int -> Int) (Int -> Int)

sq :: Int -> Int
sq x = x * x

mul :: Int -> Int -> Int
mul a b = a * b

isEvenI :: Int -> Bool
isEvenI x = x `rem` 2 == 0

squares :: [Int]
squares = map sq [1 .. 10]

evens :: [Int]
evens = filter isEvenI squares

total :: Int
total = {-# SCC "tot" #-} sum evens

count :: Int
count = length evens

avg :: Int
avg = total `quot` count

times3 :: Int -> Int
times3 = mul 3

scaled :: [Int]
scaled = {-# SCC "scale" #-} map times3 squares

mkOps :: Int -> Ops
mkOps k =
  let add :: Int -> Int
      add x = x + k
      mulk :: Int -> Int
      mulk x = x * k
   in Ops add mulk

ops :: Ops
ops = mkOps 5

opsS :: Ops
opsS = {-# SCC "mkops" #-} mkOps 2

apAdd :: Ops -> Int -> Int
apAdd o x = case o of Ops f _ -> f x

apMul :: Ops -> Int -> Int
apMul o x = case o of Ops _ g -> g x

getMul :: Ops -> Int -> Int
getMul o = case o of Ops _ g -> g

main :: IO ()
main =
  print
    ( let s = sum scaled
          a1 = apAdd ops 1
          a2 = apMul ops avg
          a3 = apAdd opsS 10
          a4 = {-# SCC "use" #-} apMul opsS total
          o3 = mkOps count
          a5 = apAdd o3 a1
          a6 = getMul o3 7
          a7 = getMul ops s
       in [total, count, avg, s, a1, a2, a3, a4, a5, a6, a7]
    )
