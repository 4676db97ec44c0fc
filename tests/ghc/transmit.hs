-- Twin of tests/ghc/transmit.stg (see README.md): Hutton's binary string
-- transmitter (Programming in Haskell, 2nd ed., ch. 7.6) with the
-- chapter's exercises: `bin2int` by weights (`iterate` of a where-bound
-- doubling) and by a point-free `foldr` (a CAF), `int2bin`, `make8`,
-- point-free `encode`, `decode` and `transmit` (CAFs whose values are
-- partial applications of `.`, the inner pieces where-bound), the
-- identity `channel`, `chop8`; `unfold` and the book's `int2bin'`, `chop8'`,
-- `map'`, `iterate'` built on it (partial applications of `unfold`, given
-- where-bound predicates and steps); a parity bit (`addParity`,
-- `checkParity` with user `init`/`last`, `chop9`) sent through a good and
-- a faulty (`tail`) channel given to `transmitP`, under sccs `clean` and
-- `noisy`. Characters are Ints
-- ("haskell"). The book's sections, `const False` and `f . head` are named
-- where-bound functions or thunks. The book's `channel = id` (and
-- `faulty = tail`) would be a CAF whose value is a polymorphic function
-- variable: GHC's mkTick then keeps only the counting half of its cost
-- centre (the type of `id` is a forall, not a function type), so calls
-- through it do not get `channel` appended as the STG's
-- `scc "channel" (id {})` does; they take their argument here. The parity
-- bit is a where-bound thunk: the faulty channel drops the first one.
import Prelude hiding (init, last)

type Bit = Int

data Out = Out [Bit] [Int] [Int] [[Bit]] [Int] [Int] [Int] [Int] Int deriving (Show)

{-# NOINLINE bin2int #-}
bin2int :: [Bit] -> Int
bin2int bits = sum (zipWith (*) weights bits)
  where
    weights = iterate double 1
    double :: Int -> Int
    double x = x * 2

{-# NOINLINE bin2int' #-}
bin2int' :: [Bit] -> Int
bin2int' = foldr step 0
  where
    step :: Bit -> Int -> Int
    step x y = x + 2 * y

{-# NOINLINE int2bin #-}
int2bin :: Int -> [Bit]
int2bin 0 = []
int2bin n = n `mod` 2 : int2bin (n `div` 2)

{-# NOINLINE make8 #-}
make8 :: [Bit] -> [Bit]
make8 bits = take 8 (bits ++ repeat 0)

{-# NOINLINE encode #-}
encode :: [Int] -> [Bit]
encode = concat . bytes
  where
    bytes = map byte
    byte :: Int -> [Bit]
    byte c = make8 (int2bin c)

{-# NOINLINE chop8 #-}
chop8 :: [Bit] -> [[Bit]]
chop8 [] = []
chop8 bits = take 8 bits : chop8 (drop 8 bits)

{-# NOINLINE decode #-}
decode :: [Bit] -> [Int]
decode = chars . chop8
  where
    chars = map bin2int

{-# NOINLINE channel #-}
channel :: [Bit] -> [Bit]
channel bits = bits

{-# NOINLINE transmit #-}
transmit :: [Int] -> [Int]
transmit = decode . send
  where
    send = channel . encode

{-# NOINLINE unfold #-}
unfold :: (a -> Bool) -> (a -> b) -> (a -> a) -> a -> [b]
unfold p h t x
  | p x = []
  | otherwise = h x : rest
  where
    rest = unfold p h t (t x)

{-# NOINLINE int2bin' #-}
int2bin' :: Int -> [Bit]
int2bin' = unfold isZero mod2 div2
  where
    isZero :: Int -> Bool
    isZero n = n == 0
    mod2 :: Int -> Int
    mod2 n = n `mod` 2
    div2 :: Int -> Int
    div2 n = n `div` 2

{-# NOINLINE chop8' #-}
chop8' :: [Bit] -> [[Bit]]
chop8' = unfold null take8 drop8
  where
    take8 :: [Bit] -> [Bit]
    take8 = take 8
    drop8 :: [Bit] -> [Bit]
    drop8 = drop 8

{-# NOINLINE map' #-}
map' :: (Int -> Int) -> [Int] -> [Int]
map' f = unfold null fh tail
  where
    fh :: [Int] -> Int
    fh = f . head

{-# NOINLINE iterate' #-}
iterate' :: (Int -> Int) -> Int -> [Int]
iterate' f = unfold never id f
  where
    never :: Int -> Bool
    never _ = False

{-# NOINLINE parity #-}
parity :: [Bit] -> Bit
parity bits = sum bits `mod` 2

{-# NOINLINE addParity #-}
addParity :: [Bit] -> [Bit]
addParity bits = p : bits
  where
    p = parity bits

{-# NOINLINE encodeP #-}
encodeP :: [Int] -> [Bit]
encodeP = concat . bytes
  where
    bytes = map byte
    byte :: Int -> [Bit]
    byte c = addParity (make8 (int2bin c))

{-# NOINLINE chop9 #-}
chop9 :: [Bit] -> [[Bit]]
chop9 [] = []
chop9 bits = take 9 bits : chop9 (drop 9 bits)

{-# NOINLINE init #-}
init :: [Bit] -> [Bit]
init [_] = []
init (x : xs) = x : init xs

{-# NOINLINE last #-}
last :: [Bit] -> Bit
last [x] = x
last (_ : xs) = last xs

{-# NOINLINE checkParity #-}
checkParity :: [Bit] -> Int
checkParity bits
  | parity body == last bits = bin2int body
  | otherwise = -1
  where
    body = init bits

{-# NOINLINE decodeP #-}
decodeP :: [Bit] -> [Int]
decodeP = checks . chop9
  where
    checks = map checkParity

{-# NOINLINE faulty #-}
faulty :: [Bit] -> [Bit]
faulty bits = tail bits

{-# NOINLINE transmitP #-}
transmitP :: ([Bit] -> [Bit]) -> [Int] -> [Int]
transmitP ch xs = decodeP (ch (encodeP xs))

main :: IO ()
main = print (Out bits back viaFoldr bins iter mapped good bad nbits)
  where
    msg = [104, 97, 115, 107, 101, 108, 108]
    bits = take 24 (encode msg)
    back = transmit msg
    viaFoldr = map bin2int' (chop8' (encode msg))
    bins = map int2bin' msg
    triple :: Int -> Int
    triple x = 3 * x
    iter = take 8 (iterate' triple 1)
    square :: Int -> Int
    square x = x * x
    mapped = map' square [1 .. 6]
    good = {-# SCC "clean" #-} transmitP channel msg
    bad = {-# SCC "noisy" #-} transmitP faulty msg
    nbits = sum (encodeP msg)
