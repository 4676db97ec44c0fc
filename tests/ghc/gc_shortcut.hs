-- Twin of tests/ghc/gc_shortcut.stg (see README.md): pap_reapply with a
-- collection between the update of the thunk r (whose value is the
-- partial application add 1, built under the CAF k) and its second
-- application: twice forces w (waste, about 1.2 MB of allocation at -O0,
-- more than GHC's 1 MB nursery) before hy = h y. A disagreement: GHC's
-- collector short-cuts the indirection from r to its value, so hy applies
-- the partial application directly, without the stamp stg_ap_0 gives an
-- updated thunk (docs/DECISIONS.md), and the call of add lands under
-- main.a > k > k.r (2 entries) instead of twice.hy > k.r. With
-- +RTS -A100m (no collection) GHC's tree is stg-run's.
{-# NOINLINE add #-}
add :: Int -> Int -> Int
add x y = x + y

{-# NOINLINE waste #-}
waste :: Int -> Int
waste n = let xs = [1 .. n] in length xs

{-# NOINLINE twice #-}
twice :: (Int -> Int) -> Int -> Int
twice h y = let hy = h y; w = waste 10000; z = w `seq` hy in h z

{-# NOINLINE k #-}
k :: Int -> Int
k = let r = add 1 in twice r

main :: IO ()
main = print (let a = k 5 in [a])
