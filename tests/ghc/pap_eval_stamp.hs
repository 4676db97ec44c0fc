{-# NOINLINE add #-}
add :: Int -> Int -> Int
add x y = x + y

{-# NOINLINE twice #-}
twice :: (Int -> Int) -> Int -> Int
twice h y = let g = h in let hy = g y in h y + g hy

{-# NOINLINE k #-}
k :: Int -> Int
k = let r = add 1 in twice r

main :: IO ()
main = print (let a = k 5 in [a])
