-- Twin of programs/paper_map_scc.stg (see README.md).
import Prelude hiding (map)

map :: (a -> b) -> [a] -> [b]
map f xs = case xs of
  [] -> []
  (y : ys) ->
    let fy = f y
        mfy = map f ys
     in fy : mfy

double :: Int -> Int
double x = x + x

main :: IO ()
main = print ({-# SCC "foo" #-} map double [1, 2])
