(* Strict OCaml twin of bench/programs/livelist10m.stg: the mean of
   [1..10^7] as sum xs `div` length xs, the whole list live until length
   has walked it. *)
let xs = List.init 10_000_000 (fun i -> i + 1)
let () = print_int (List.fold_left ( + ) 0 xs / List.length xs); print_newline ()
