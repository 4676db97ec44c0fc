//! `stg-prof report`: a text report laid out like GHC's `.prof`.
