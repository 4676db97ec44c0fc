(* Strict OCaml twin of bench/programs/pipeline.stg and pipeline10m.stg
   (the number of elements is the first argument, a million by default):
   foldr (+) 0 (map double (filter even [1..n])) over strict lists, the
   fold nesting n/2 calls deep as in the STG program. *)
let n = if Array.length Sys.argv > 1 then int_of_string Sys.argv.(1) else 1_000_000
let rec enum a b = if a > b then [] else a :: enum (a + 1) b
let rec map f = function [] -> [] | y :: ys -> let fy = f y in fy :: map f ys
let rec filter p = function [] -> [] | y :: ys -> if p y then y :: filter p ys else filter p ys
let rec foldr k z = function [] -> z | y :: ys -> k y (foldr k z ys)
let double x = x + x
let even x = x mod 2 = 0
let () = print_int (foldr ( + ) 0 (map double (filter even (enum 1 n)))); print_newline ()
