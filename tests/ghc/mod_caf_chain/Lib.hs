-- Twin of tests/ghc/mod_caf_chain/Lib.stg (see Main.hs).
module Lib (twice, inc10, add7, fromBase) where

import Base

{-# NOINLINE twice #-}
twice :: (Int -> Int) -> Int -> Int
twice f x = let fx = f x in f fx

-- A partial application holding Base's CAF-built function, built by a
-- CAF of Lib (the scc keeps it a thunk at -O0 without -fprof-auto).
inc10 :: Int -> Int
inc10 = {-# SCC "tw" #-} twice inc5

-- A partial application built under an scc by a CAF of Lib.
add7 :: Int -> Int
add7 = {-# SCC "mk7" #-} add 7

-- Base's CAF-built function applied under a CAF of Lib.
fromBase :: Int
fromBase = inc5 100
