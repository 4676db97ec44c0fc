{-# NOINLINE add #-}
add :: Int -> Int -> Int
add x y = x + y

{-# NOINLINE twice #-}
twice :: (Int -> Int) -> Int -> Int
twice h y = {-# SCC "T" #-} (let hy = h y in h hy)

{-# NOINLINE k #-}
k :: Int -> Int
k = {-# SCC "K" #-} (let r = {-# SCC "R" #-} add 1 in twice r)

main :: IO ()
main = print (let a = {-# SCC "X" #-} k 5 in [a])
