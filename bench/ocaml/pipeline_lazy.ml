(* Lazy OCaml twin of bench/programs/pipeline.stg and pipeline10m.stg (the
   number of elements is the first argument, a million by default): one
   [lazy] per STG thunk (xs, evens, doubled, and those of enumFromTo, filter,
   map and foldr). *)
open Lazylist

let n = if Array.length Sys.argv > 1 then int_of_string Sys.argv.(1) else 1_000_000

let rec enum_from_to a b =
  if a > b then Nil else Cons (Lazy.from_val a, lazy (enum_from_to (a + 1) b))

let rec filter p = function
  | Nil -> Nil
  | Cons (y, ys) ->
      if p y then Cons (y, lazy (filter p (Lazy.force ys))) else filter p (Lazy.force ys)

let rec map f = function
  | Nil -> Nil
  | Cons (y, ys) -> Cons (lazy (f y), lazy (map f (Lazy.force ys)))

let rec foldr k z = function
  | Nil -> z
  | Cons (y, ys) ->
      let rest = lazy (foldr k z (Lazy.force ys)) in
      k y rest

let plus_int a b = Lazy.force a + Lazy.force b
let double x = plus_int x x
let even x = Lazy.force x mod 2 = 0

let () =
  let xs = lazy (enum_from_to 1 n) in
  let evens = lazy (filter even (Lazy.force xs)) in
  let doubled = lazy (map double (Lazy.force evens)) in
  print_int (foldr plus_int 0 (Lazy.force doubled));
  print_newline ()
