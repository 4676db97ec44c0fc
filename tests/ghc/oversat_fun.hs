{-# NOINLINE idI #-}
idI :: Int -> Int
idI x = x

{-# NOINLINE g #-}
g :: Int -> Int -> Int
g n = if n == 0 then idI else let h :: Int -> Int
                                  h acc = g 0 acc
                               in h

main :: IO ()
main = print (let r = g 1 5 in [r])
