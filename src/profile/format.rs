//! The binary profile format (PROFILE-FORMAT.md): writer and reader, on the leb128 crate.
