-- Twin of tests/ghc/stack_vm.stg (see README.md): a textbook stack
-- machine. Instructions of thirteen constructors, a VM state rebuilt at
-- every step (pattern-matched in the equation's head), a step function
-- whose where clause holds the next pc, the step count and a helper for
-- the binary operators with its operator functions; programs as list
-- literals fetched with `!!`, a memory updated by a user setAt; a run
-- loop with guards (scc "tick" around each step); arithmetic expressions compiled to the machine's code
-- with `++` and checked against a direct evaluator.
data Instr
  = Push Int
  | Pop
  | Add
  | Sub
  | Mul
  | Dup
  | Swap
  | Jz Int
  | Jmp Int
  | Load Int
  | Store Int
  | Emit
  | Halt
  deriving (Show)

data VM = VM Int [Int] [Int] [Int] Int deriving (Show)

data Expr = Num Int | Plus Expr Expr | Minus Expr Expr | Times Expr Expr

data Out = Out VM VM VM [Int] [Int] [Instr] deriving (Show)

{-# NOINLINE setAt #-}
setAt :: Int -> Int -> [Int] -> [Int]
setAt _ _ [] = []
setAt 0 x (_ : ys) = x : ys
setAt k x (y : ys) = y : rest
  where
    rest = setAt (k - 1) x ys

{-# NOINLINE step #-}
step :: [Instr] -> VM -> VM
step prog (VM pc st mem out n) = case prog !! pc of
  Push k -> VM next (k : st) mem out n1
  Pop -> VM next (drop 1 st) mem out n1
  Add -> binary plus
  Sub -> binary minus
  Mul -> binary times
  Dup -> case st of
    (x : rest) -> VM next (x : x : rest) mem out n1
  Swap -> case st of
    (x : y : rest) -> VM next (y : x : rest) mem out n1
  Jz t -> case st of
    (x : rest)
      | x == 0 -> VM t rest mem out n1
      | otherwise -> VM next rest mem out n1
  Jmp t -> VM t st mem out n1
  Load a -> VM next (mem !! a : st) mem out n1
  Store a -> case st of
    (x : rest) -> VM next rest (setAt a x mem) out n1
  Emit -> case st of
    (x : rest) -> VM next rest mem (x : out) n1
  Halt -> VM pc st mem out n
  where
    next = pc + 1
    n1 = n + 1
    binary :: (Int -> Int -> Int) -> VM
    binary op = case st of
      (y : x : rest) -> let r = op x y in VM next (r : rest) mem out n1
    plus :: Int -> Int -> Int
    plus a b = a + b
    minus :: Int -> Int -> Int
    minus a b = a - b
    times :: Int -> Int -> Int
    times a b = a * b

{-# NOINLINE isHalt #-}
isHalt :: Instr -> Bool
isHalt i = case i of
  Halt -> True
  _ -> False

{-# NOINLINE run #-}
run :: [Instr] -> VM -> VM
run prog vm@(VM pc _ _ _ n)
  | n > 5000 = vm
  | isHalt (prog !! pc) = vm
  | otherwise = run prog ({-# SCC "tick" #-} step prog vm)

{-# NOINLINE start #-}
start :: [Instr] -> VM
start prog = run prog (VM 0 [] [0, 0] [] 0)

{-# NOINLINE loopProg #-}
loopProg :: Instr -> Int -> Int -> [Instr]
loopProg op acc0 n =
  [ Push n, Store 0
  , Push acc0, Store 1
  , Load 0, Jz 15
  , Load 1, Load 0, op, Store 1
  , Load 0, Push 1, Sub, Store 0
  , Jmp 4
  , Load 1, Emit, Halt
  ]

{-# NOINLINE squaresProg #-}
squaresProg :: Int -> [Instr]
squaresProg n =
  [ Push n
  , Dup, Jz 10
  , Dup, Dup, Mul, Emit
  , Push 1, Sub
  , Jmp 1
  , Pop, Halt
  ]

{-# NOINLINE compile #-}
compile :: Expr -> [Instr]
compile e = case e of
  Num k -> [Push k]
  Plus a b -> binop a b Add
  Minus a b -> binop a b Sub
  Times a b -> binop a b Mul
  where
    binop :: Expr -> Expr -> Instr -> [Instr]
    binop a b i = ca ++ cb ++ [i]
      where
        ca = compile a
        cb = compile b

{-# NOINLINE evalE #-}
evalE :: Expr -> Int
evalE e = case e of
  Num k -> k
  Plus a b -> evalE a + evalE b
  Minus a b -> evalE a - evalE b
  Times a b -> evalE a * evalE b

{-# NOINLINE mkExpr #-}
mkExpr :: Int -> Expr
mkExpr k
  | k < 3 = Num k
  | even k = Plus left right
  | k `mod` 3 == 0 = Times left right
  | otherwise = Minus left right
  where
    h = k `div` 2
    left = mkExpr h
    right = mkExpr (k - h - 1)

{-# NOINLINE outOf #-}
outOf :: VM -> [Int]
outOf (VM _ _ _ out _) = out

main :: IO ()
main = print $ Out sumVM factVM sqVM viaVM direct code
  where
    sumVM = start (loopProg Add 0 60)
    factVM = start (loopProg Mul 1 10)
    sqVM = start (squaresProg 12)
    exprs = map mkExpr [10 .. 30]
    runExpr :: Expr -> Int
    runExpr ex = head (outOf (start (compile ex ++ [Emit, Halt])))
    viaVM = map runExpr exprs
    direct = map evalE exprs
    code = compile (mkExpr 9)
