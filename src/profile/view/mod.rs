//! The ways `stg-prof` shows a profile, one file per output: the reports
//! people read (text report, dump, callgrind, the HTML page, heap charts,
//! diff), the exports other tools read (speedscope, folded stacks, GHC's
//! JSON, graphviz), and what they share.

use std::fmt::Write;

use super::Profile;

pub mod callgrind;
pub mod diff;
pub mod dot;
pub mod dump;
pub mod folded;
pub mod ghc_json;
pub mod heap_chart;
pub mod html;
pub mod report;
pub mod speedscope;

/// `s` as a JSON string literal that is also safe inside an HTML
/// `<script>` element: `<`, `>` and `&` (and the two JavaScript line
/// separators) are written as `\u` escapes, so no name can close the
/// element.
pub(crate) fn json_string(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", ch as u32);
            }
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `Module.name` of cost centre `id` (1-based), the name every export
/// gives it (every module has its own `CAF`, so names alone would merge
/// them); `?` for an id the profile does not declare.
pub(crate) fn qualified_name(profile: &Profile, id: u32) -> String {
    match profile.cost_centre(id) {
        Some(cc) => format!("{}.{}", profile.module_of(cc), cc.name),
        None => "?".to_string(),
    }
}
