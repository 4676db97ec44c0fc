//! What the two command-line tools, `stg-run` and `stg-prof`, share about
//! their contract with the process's environment: signals (`signals`),
//! the standard streams and the command line's help (`stdio`), a refused
//! allocation (`memory`, for `stg-prof`), and sizes on the command line. Files are in `crate::files`.

pub mod memory;
pub mod signals;
pub mod stdio;

/// `digits` as a `u64`, or the message for a number too large for one
/// (`too_large`) or for anything else (`not_a_number`).
pub fn parse_u64(digits: &str, too_large: String, not_a_number: String) -> Result<u64, String> {
    digits.parse().map_err(|e: std::num::ParseIntError| {
        if *e.kind() == std::num::IntErrorKind::PosOverflow {
            too_large
        } else {
            not_a_number
        }
    })
}

/// Parses `4096`, `512K`, `64M`, `2G` (powers of 1024, like GHC's RTS).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (digits, unit) = match text.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&text[..i], Some(c)),
        _ => (text, None),
    };
    // The number first, so that `lots` is "not a size", not "suffix `s`".
    let n = parse_u64(
        digits,
        format!("`{text}` is too large"),
        format!("`{text}` is not a size: write bytes, or a number with K, M or G"),
    )?;
    let shift = match unit.map(|c| c.to_ascii_uppercase()) {
        None | Some('B') => 0,
        Some('K') => 10,
        Some('M') => 20,
        Some('G') => 30,
        Some(_) => {
            let typed = unit.unwrap_or_default();
            return Err(format!("unknown size suffix `{typed}`: use K, M or G"));
        }
    };
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("`{text}` is too large"))
}
