-- Twin of tests/ghc/caf_function/A.stg: a CAF whose value is a function.
-- Compiled with -prof only (no -fprof-auto), like stg-run --auto-cc=none.
-- The `if` keeps inc a CAF (GHC would make `inc = \y -> ...` a function).
-- Rebuild: ghc -prof -rtsopts Main.hs && ./Main +RTS -pa
module A (inc) where
{-# NOINLINE inc #-}
inc :: Int -> Int
inc = if length "abc" > 2 then (\y -> let r = y + 1 in r) else id
