(* Strict OCaml twin of bench/programs/tree23.stg: a balanced tree of
   1..2^23-1 (depth 23), summed, then its depth, the whole tree live. *)
type tree = Leaf | Node of tree * int * tree

let rec build lo hi =
  if lo > hi then Leaf
  else
    let mid = (lo + hi) / 2 in
    Node (build lo (mid - 1), mid, build (mid + 1) hi)

let rec sum_tree = function Leaf -> 0 | Node (l, x, r) -> sum_tree l + x + sum_tree r
let rec depth = function Leaf -> 0 | Node (l, _, r) -> max (depth l) (depth r) + 1

let () =
  let t = build 1 8_388_607 in
  let s = sum_tree t in
  let d = depth t in
  Printf.printf "[%d,%d]\n" s d
