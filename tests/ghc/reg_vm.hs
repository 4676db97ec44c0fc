-- Twin of tests/ghc/reg_vm.stg (see README.md): a register machine
-- whose state is a record of six fields (Regs pc a b c d n) and whose
-- statistics are a record of five (Stats), both rebuilt at every step of
-- the interpreter loop exec with lazy fields (the counters and max chains
-- are forced only at the end); instructions with up to three fields
-- taken apart by nested cases (getR/setR on the register number, tally
-- on the instruction kind, summary on three records at once); programs
-- (multiplication with a negative factor, Fibonacci, gcd by subtraction,
-- factorial) assembled by functions; sccs fetch, aluAdd, aluSub, aluMul.
data Regs = Regs Int Int Int Int Int Int

data Ins
  = Ld Int Int
  | Inc Int
  | Dec Int
  | Add3 Int Int Int
  | Sub3 Int Int Int
  | Mul3 Int Int Int
  | Jz Int Int
  | Jlt Int Int Int
  | Jmp Int
  | Halt

data Stats = Stats Int Int Int Int Int

data Res = Res Regs Stats

{-# NOINLINE getR #-}
getR :: Regs -> Int -> Int
getR rs i = case rs of
  Regs _ a b c d _ -> case i of
    0 -> a
    1 -> b
    2 -> c
    _ -> d

{-# NOINLINE setR #-}
setR :: Regs -> Int -> Int -> Regs
setR rs i v = case rs of
  Regs pc a b c d n -> case i of
    0 -> Regs pc v b c d n
    1 -> Regs pc a v c d n
    2 -> Regs pc a b v d n
    _ -> Regs pc a b c v n

{-# NOINLINE next #-}
next :: Regs -> Regs
next rs = case rs of
  Regs pc a b c d n ->
    let pc1 = pc + 1
        n1 = n + 1
     in Regs pc1 a b c d n1

{-# NOINLINE jump #-}
jump :: Regs -> Int -> Regs
jump rs t = case rs of
  Regs _ a b c d n -> let n2 = n + 1 in Regs t a b c d n2

{-# NOINLINE tally #-}
tally :: Stats -> Ins -> Int -> Stats
tally st ins pc = case st of
  Stats ld ar jp hi tot ->
    let tot1 = tot + 1
        hi1 = max hi pc
     in case ins of
          Ld _ _ -> let ld1 = ld + 1 in Stats ld1 ar jp hi1 tot1
          Add3 _ _ _ -> let ar1 = ar + 1 in Stats ld ar1 jp hi1 tot1
          Sub3 _ _ _ -> let ar2 = ar + 1 in Stats ld ar2 jp hi1 tot1
          Mul3 _ _ _ -> let ar3 = ar + 3 in Stats ld ar3 jp hi1 tot1
          Jz _ _ -> let jp1 = jp + 1 in Stats ld ar jp1 hi1 tot1
          Jlt _ _ _ -> let jp2 = jp + 1 in Stats ld ar jp2 hi1 tot1
          Jmp _ -> let jp3 = jp + 1 in Stats ld ar jp3 hi1 tot1
          _ -> Stats ld ar jp hi1 tot1

{-# NOINLINE exec #-}
exec :: [Ins] -> Regs -> Stats -> Res
exec prog rs st = case rs of
  Regs pc _ _ _ _ _ ->
    let ins = {-# SCC "fetch" #-} (prog !! pc)
        st1 = tally st ins pc
     in case ins of
          Halt -> Res rs st1
          Ld r k -> let r1 = setR rs r k; r2 = next r1 in exec prog r2 st1
          Inc r ->
            let v1 = getR rs r + 1
                r3 = setR rs r v1
                r4 = next r3
             in exec prog r4 st1
          Dec r ->
            let v2 = getR rs r - 1
                r5 = setR rs r v2
                r6 = next r5
             in exec prog r6 st1
          Add3 d s1 s2 ->
            let v3 = {-# SCC "aluAdd" #-} (getR rs s1 + getR rs s2)
                r7 = setR rs d v3
                r8 = next r7
             in exec prog r8 st1
          Sub3 d s1 s2 ->
            let v4 = {-# SCC "aluSub" #-} (getR rs s1 - getR rs s2)
                r9 = setR rs d v4
                r10 = next r9
             in exec prog r10 st1
          Mul3 d s1 s2 ->
            let v5 = {-# SCC "aluMul" #-} (getR rs s1 * getR rs s2)
                r11 = setR rs d v5
                r12 = next r11
             in exec prog r12 st1
          Jz r t ->
            if getR rs r == 0
              then let r13 = jump rs t in exec prog r13 st1
              else let r14 = next rs in exec prog r14 st1
          Jlt x y t ->
            if getR rs x < getR rs y
              then let r15 = jump rs t in exec prog r15 st1
              else let r16 = next rs in exec prog r16 st1
          Jmp t -> let r17 = jump rs t in exec prog r17 st1

{-# NOINLINE runProg #-}
runProg :: [Ins] -> Res
runProg prog = exec prog (Regs 0 0 0 0 0 0) (Stats 0 0 0 0 0)

{-# NOINLINE progMul #-}
progMul :: Int -> Int -> [Ins]
progMul x y = [Ld 0 x, Ld 1 y, Ld 2 0, Jz 1 7, Add3 2 2 0, Dec 1, Jmp 3, Halt]

{-# NOINLINE progFib #-}
progFib :: Int -> [Ins]
progFib k =
  [ Ld 0 0, Ld 1 1, Ld 3 k, Jz 3 11, Add3 2 0 1, Ld 0 0, Add3 0 0 1,
    Ld 1 0, Add3 1 1 2, Dec 3, Jmp 3, Halt ]

{-# NOINLINE progGcd #-}
progGcd :: Int -> Int -> [Ins]
progGcd x y =
  [ Ld 0 x, Ld 1 y, Jz 1 10, Jz 0 9, Jlt 0 1 7, Sub3 0 0 1, Jmp 2,
    Sub3 1 1 0, Jmp 2, Add3 0 0 1, Halt ]

{-# NOINLINE progFact #-}
progFact :: Int -> [Ins]
progFact k = [Ld 0 1, Ld 1 k, Jz 1 6, Mul3 0 0 1, Dec 1, Jmp 2, Halt, Inc 0]

{-# NOINLINE summary #-}
summary :: Res -> [Int]
summary res = case res of
  Res rs st -> case rs of
    Regs pc a b c d n -> case st of
      Stats ld ar jp hi tot -> [pc, a, b, c, d, n, ld, ar, jp, hi, tot]

main :: IO ()
main =
  print
    ( let pm = progMul (-7) 150
          pf = progFib 40
          pg = progGcd 1071 462
          pg2 = progGcd 1000 37
          pk = progFact 15
          m1 = runProg pm
          m2 = runProg pf
          m3 = runProg pg
          m4 = runProg pg2
          m5 = runProg pk
          s1 = summary m1
          s2 = summary m2
          s3 = summary m3
          s4 = summary m4
          s5 = summary m5
       in concat [s1, s2, s3, s4, s5]
    )
