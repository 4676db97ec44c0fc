//! The heap: closure layout, copying collector, census.
