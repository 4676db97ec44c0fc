(* Strict OCaml twin of bench/programs/queens10.stg: the same generate and
   filter over OCaml's (strict) lists. *)
let rec safe q d = function
  | [] -> true
  | c :: cs -> q <> c && q <> c + d && q <> c - d && safe q (d + 1) cs

let rec enum a b = if a > b then [] else a :: enum (a + 1) b

let extend n qs = List.map (fun q -> q :: qs) (List.filter (fun q -> safe q 1 qs) (enum 1 n))

let rec place n k = if k = 0 then [ [] ] else List.concat_map (extend n) (place n (k - 1))

let () = print_int (List.length (place 10 10)); print_newline ()
