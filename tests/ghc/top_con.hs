-- Twin of top_con.stg.
ones :: [Int]
ones = 1 : ones

twos :: [Int]
twos = {-# SCC "tw" #-} (2 : twos)

main :: IO ()
main = print (let a = take 3 ones in let b = take 2 twos in a ++ b)
