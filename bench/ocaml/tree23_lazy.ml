(* Lazy OCaml twin of bench/programs/tree23.stg: one [lazy] per STG thunk
   (build's s, mid, m1, p1, l and r; sumTree's sl, sr and s; depth's dl, dr
   and m; main's t, s and d). *)
type tree = Leaf | Node of tree Lazy.t * int Lazy.t * tree Lazy.t

let rec build (lo : int Lazy.t) (hi : int Lazy.t) : tree =
  if Lazy.force lo > Lazy.force hi then Leaf
  else
    let s = lazy (Lazy.force lo + Lazy.force hi) in
    let mid = lazy (Lazy.force s / 2) in
    let m1 = lazy (Lazy.force mid - 1) and p1 = lazy (Lazy.force mid + 1) in
    let l = lazy (build lo m1) and r = lazy (build p1 hi) in
    Node (l, mid, r)

let rec sum_tree = function
  | Leaf -> 0
  | Node (l, x, r) ->
      let sl = lazy (sum_tree (Lazy.force l)) and sr = lazy (sum_tree (Lazy.force r)) in
      let s = lazy (Lazy.force sl + Lazy.force x) in
      Lazy.force s + Lazy.force sr

let rec depth = function
  | Leaf -> 0
  | Node (l, _, r) ->
      let dl = lazy (depth (Lazy.force l)) and dr = lazy (depth (Lazy.force r)) in
      let m = lazy (max (Lazy.force dl) (Lazy.force dr)) in
      Lazy.force m + 1

let () =
  let t = lazy (build (Lazy.from_val 1) (Lazy.from_val 8_388_607)) in
  let s = lazy (sum_tree (Lazy.force t)) and d = lazy (depth (Lazy.force t)) in
  Printf.printf "[%d,%d]\n" (Lazy.force s) (Lazy.force d)
