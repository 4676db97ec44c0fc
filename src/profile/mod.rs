//! Cost centres, counters, stacks and the binary profile format; what shows
//! a profile (reports, pages, exports) is in [`view`].
//!
//! [`Profile`] is the in-memory form of one `.pgcl` file
//! (`shared/spec/PROFILE-FORMAT.md`): the machine builds one at the end of a
//! run, the writer encodes it, the reader decodes it, the reports read it.

/// The six counters of one call-graph entry, in file order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Counters {
    /// Clock ticks (steps, or cycles) while this entry was current.
    pub ticks: u64,
    /// Heap words allocated while this entry was current.
    pub words: u64,
    /// Applications (rule 1) plus returns to a case continuation (6–8, 11–13).
    pub tail_calls: u64,
    /// `scc` entries: the paper's instances, GHC's "entries".
    pub strict_calls: u64,
    /// Thunk entries (15, 15′) that made this entry current.
    pub lazy_calls: u64,
    /// Partial applications built (17a, 17a′).
    pub curried_calls: u64,
}

impl Counters {
    /// The six counters in file order: ticks, words, tail, strict, lazy
    /// and curried calls.
    pub fn fields(&self) -> [u64; 6] {
        [
            self.ticks,
            self.words,
            self.tail_calls,
            self.strict_calls,
            self.lazy_calls,
            self.curried_calls,
        ]
    }

    pub fn add(&mut self, other: &Counters) {
        self.ticks += other.ticks;
        self.words += other.words;
        self.tail_calls += other.tail_calls;
        self.strict_calls += other.strict_calls;
        self.lazy_calls += other.lazy_calls;
        self.curried_calls += other.curried_calls;
    }
}

/// A cost centre as declared in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostCentreDecl {
    /// 1-based index into [`Profile::modules`].
    pub module: u32,
    pub name: String,
}

/// One node of the call graph. Children are indices into [`Profile::entries`],
/// so a tree of any depth is held without recursion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// 1-based index into [`Profile::cost_centres`].
    pub cost_centre: u32,
    pub counters: Counters,
    pub children: Vec<u32>,
}

/// A whole profile. `entries[0]` is the root; entries are stored in the
/// depth-first order the file uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Clock frequency in ticks per second (0 when unknown or `--reproducible`).
    pub frequency: u64,
    /// Estimated overhead in ticks per 1000 profiling events.
    pub overhead: u64,
    pub modules: Vec<String>,
    pub cost_centres: Vec<CostCentreDecl>,
    pub entries: Vec<Entry>,
}

impl Profile {
    /// The cost centre with 1-based id `id`, if the file declares one.
    pub fn cost_centre(&self, id: u32) -> Option<&CostCentreDecl> {
        self.cost_centres.get((id as usize).wrapping_sub(1))
    }

    /// The name of `cc`'s module, `?` if the file declares no such module
    /// (the reader refuses that; a hand-built profile may hold it).
    pub fn module_of(&self, cc: &CostCentreDecl) -> &str {
        self.modules
            .get((cc.module as usize).wrapping_sub(1))
            .map_or("?", String::as_str)
    }

    /// The program the profile is of: its last module (`stg-run` loads the
    /// program's files in the order given and names the profile after the
    /// last one's stem, which is that module's name: `nfib` for
    /// `programs/nfib.stg`), skipping the built-in `MAIN`; `<program>` for
    /// a profile with no other module. The reports' titles use it rather
    /// than the profile file's name, which may be any name.
    pub fn program_name(&self) -> &str {
        self.modules
            .iter()
            .enumerate()
            .rev()
            .find(|&(i, m)| !(i == 0 && m == "MAIN"))
            .map_or("<program>", |(_, m)| m.as_str())
    }
}

/// `s` with line breaks, tabs and other control characters as spaces, for
/// line-based output: a name (from any `.pgcl` or `.hp` file, or a file
/// name) then stays on its line and in its column. Shared by the report,
/// the callgrind file and the `.hp` writer.
pub(crate) fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Characters of a name (a cost centre's, a module's, a program's) that a
/// message quotes: names come from files, and may be of any length.
pub const MESSAGE_NAME_CHARS: usize = 80;

/// `s` as an error message quotes it: trimmed, at most `max` characters
/// (cut with `…`), and control characters other than a tab escaped
/// (`\u{1b}`), so that a line of any length or content (a file of one
/// 200 MB line, terminal escape sequences) gives a message of one short
/// line that changes nothing on the terminal. Shared by the `.hp`
/// reader's errors and the warnings that name a cost centre or a program.
pub fn excerpt(s: &str, max: usize) -> String {
    let mut out = String::new();
    for c in cut_to_chars(s.trim(), max).chars() {
        if c.is_control() && c != '\t' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// `s`, or when it has more than `max` characters (`max` > 0), its first
/// `max - 1` and `…`. Shared by the messages' excerpts, `dot`'s labels
/// and the heap chart's legend.
pub(crate) fn cut_to_chars(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(max.saturating_sub(1)) {
        Some((end, _)) if s[end..].chars().nth(1).is_some() => format!("{}…", &s[..end]).into(),
        _ => s.into(),
    }
}

/// `s` as text of HTML or SVG (XML): `<`, `>`, `&` and `"` as entities,
/// control characters (not allowed in either) as spaces, and the two
/// noncharacters XML 1.0 forbids (U+FFFE, U+FFFF: an SVG holding one is
/// not well-formed, and browsers show an error instead of the chart) as
/// U+FFFD. Shared by the HTML page and the heap chart.
pub(crate) fn markup_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            c if (c as u32) < 0x20 => out.push(' '),
            '\u{fffe}' | '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

pub mod compare;
pub mod cost_centre;
pub mod format;
pub mod merge;
pub mod side_file;
pub mod stacks;
pub(crate) mod tree;
pub use tree::Sums;
pub mod view;

#[cfg(test)]
mod tests {
    use super::cut_to_chars;

    #[test]
    fn names_are_cut_to_their_characters() {
        assert_eq!(cut_to_chars("abcd", 4), "abcd");
        assert_eq!(cut_to_chars("abcde", 4), "abc…");
        assert_eq!(cut_to_chars("", 4), "");
        // Characters, not bytes.
        assert_eq!(cut_to_chars("ééééé", 5), "ééééé");
        assert_eq!(cut_to_chars("éééééé", 5), "éééé…");
    }
}
