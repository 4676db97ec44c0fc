//! `--auto-cc=top|all`: automatic cost centres (section 3.5 of the paper, GHC's -fprof-auto).
