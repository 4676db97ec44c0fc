//! `stg-prof dump`: every field of a profile file, one item per line.
