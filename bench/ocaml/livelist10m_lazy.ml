(* Lazy OCaml twin of bench/programs/livelist10m.stg: one [lazy] per STG
   thunk (xs, s, n, and the tails of enumFromTo); sum forces the whole list,
   which stays live, held by n, until length walks it. *)
open Lazylist

let rec enum_from_to a b =
  if a > b then Nil else Cons (Lazy.from_val a, lazy (enum_from_to (a + 1) b))

let rec sum acc = function Nil -> acc | Cons (y, ys) -> sum (acc + Lazy.force y) (Lazy.force ys)
let rec length_w n = function Nil -> n | Cons (_, ys) -> length_w (n + 1) (Lazy.force ys)

let () =
  let xs = lazy (enum_from_to 1 10_000_000) in
  let s = lazy (sum 0 (Lazy.force xs)) and n = lazy (length_w 0 (Lazy.force xs)) in
  print_int (Lazy.force s / Lazy.force n);
  print_newline ()
