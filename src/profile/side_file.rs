//! The side file `NAME.pgcl.src`: what stg-run knows about a profile beyond
//! the binary format's fields (PROFILE-FORMAT.md puts nothing after the
//! root entry), namely what a tick is and where each cost centre is in the
//! source. `stg-run` writes it beside the profile; `stg-prof` reads it when
//! it is there and does without when it is not (a profile from Clean, or
//! one copied alone).
//!
//! The format, version 1: UTF-8 text, one record a line, fields separated
//! by one space, strings in double quotes with `\\`, `\"`, `\n`, `\r`,
//! `\t` and `\u{HEX}` escapes (any other character stands for itself):
//!
//! ```text
//! stg-run source locations 1
//! clock steps
//! cost-centres 4
//! cc 1 "MAIN" "MAIN" -
//! cc 2 "nfib" "CAF" -
//! cc 3 "nfib" "main" "programs/nfib.stg" 12 1
//! cc 4 "nfib" "nfib" "programs/nfib.stg" 3 10
//! ```
//!
//! - The first line names the format and its version.
//! - `clock` is `steps` (a tick is one machine step) or `cycles` (a tick is
//!   a time-stamp-counter cycle; `frequency` in the profile's header, when
//!   not 0, converts to seconds).
//! - `cost-centres N` is the profile's number of cost centres, then one
//!   `cc` line per cost centre in the profile's order: its id, module and
//!   name (as in the profile, so that a side file left over from another
//!   run is recognised and ignored), then its source location (file as
//!   given to stg-run, 1-based line, 1-based column in characters) or `-`
//!   where it has none (`MAIN`, each module's `CAF`).
//!
//! A side file that is missing, unreadable, larger than
//! [`MAX_SIDE_FILE_BYTES`], malformed or of another profile is done without
//! (`read` says why, for a warning); nothing a side file holds can make a
//! profile unreadable.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::cost_centre::CostCentreTable;
use super::{MESSAGE_NAME_CHARS, Profile, excerpt};
use crate::stg::source::SourceMap;

/// The first line of every side file (version 1).
const MAGIC: &str = "stg-run source locations 1";

/// The largest side file read: 64 MiB, a line of 64 bytes for each of a
/// million cost centres (a profile of that many is already 30 MB).
pub const MAX_SIDE_FILE_BYTES: u64 = 64 << 20;

/// What a tick of the profile is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Clock {
    /// Not recorded (no side file): a tick of some clock, in seconds where
    /// the header's frequency is not 0.
    #[default]
    Unknown,
    /// One machine step (`stg-run --clock=steps`).
    Steps,
    /// One time-stamp-counter cycle (`stg-run --clock=cycles`).
    Cycles,
}

/// A place in a source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SrcLoc {
    /// The file's name as given to stg-run (`programs/nfib.stg`).
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub col: u32,
}

/// What the side file says; [`SideInfo::default`] when there is none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideInfo {
    pub clock: Clock,
    /// By cost centre (index 0 is cost centre 1); empty when unknown.
    pub locations: Vec<Option<SrcLoc>>,
}

impl SideInfo {
    /// Whether source locations are known (a side file was read).
    pub fn has_locations(&self) -> bool {
        !self.locations.is_empty()
    }

    /// The location of cost centre `id` (1-based), if known.
    pub fn location(&self, id: u32) -> Option<&SrcLoc> {
        self.locations
            .get((id as usize).wrapping_sub(1))
            .and_then(Option::as_ref)
    }

    /// The text of GHC's SRC column for cost centre `id` of `profile`:
    /// `file:line:col`, `<built-in>` for `MAIN`, `<entire-module>` for a
    /// module's `CAF`, `<no location info>` otherwise.
    pub fn src_column(&self, profile: &Profile, id: u32) -> String {
        if let Some(l) = self.location(id) {
            return format!("{}:{}:{}", l.file, l.line, l.col);
        }
        match profile.cost_centre(id) {
            Some(cc) if cc.name == "MAIN" && profile.module_of(cc) == "MAIN" => {
                "<built-in>".to_string()
            }
            Some(cc) if cc.name == "CAF" => "<entire-module>".to_string(),
            _ => "<no location info>".to_string(),
        }
    }

    /// The side file's text for `profile` (whose cost centres the
    /// locations are by).
    pub fn to_text(&self, profile: &Profile) -> String {
        let mut out = String::new();
        out.push_str(MAGIC);
        out.push('\n');
        let clock = match self.clock {
            Clock::Unknown => "unknown",
            Clock::Steps => "steps",
            Clock::Cycles => "cycles",
        };
        let _ = writeln!(out, "clock {clock}");
        let _ = writeln!(out, "cost-centres {}", profile.cost_centres.len());
        for (i, cc) in profile.cost_centres.iter().enumerate() {
            let _ = write!(out, "cc {} ", i + 1);
            quote(&mut out, profile.module_of(cc));
            out.push(' ');
            quote(&mut out, &cc.name);
            match self.locations.get(i).and_then(Option::as_ref) {
                Some(l) => {
                    out.push(' ');
                    quote(&mut out, &l.file);
                    let _ = writeln!(out, " {} {}", l.line, l.col);
                }
                None => out.push_str(" -\n"),
            }
        }
        out
    }
}

/// The locations of a run's cost centres, from the table the machine used
/// and the run's source files.
pub fn locations(table: &CostCentreTable, sources: &SourceMap) -> Vec<Option<SrcLoc>> {
    table
        .spans
        .iter()
        .map(|span| {
            span.map(|s| {
                let file = sources.file(s.file);
                let (line, col) = file.line_col(s.start as usize);
                SrcLoc {
                    file: file.name.clone(),
                    line: line as u32,
                    col: col as u32,
                }
            })
        })
        .collect()
}

/// The side file of the profile at `profile_path`: the same name with
/// `.src` added (`nfib.pgcl` → `nfib.pgcl.src`), beside the file the
/// profile is in once symbolic links are followed. A profile written
/// through a link (`-o /dev/stdout > sum.pgcl`, or `latest.pgcl` linked to
/// `runs/1.pgcl`) has its side file beside the file itself (`sum.pgcl.src`,
/// `runs/1.pgcl.src`), where readers look for it by whichever name they
/// are given, and never in `/dev`.
pub fn path_for(profile_path: &Path) -> PathBuf {
    let resolved = crate::files::follow_links(profile_path);
    let mut name = resolved
        .as_deref()
        .unwrap_or(profile_path)
        .as_os_str()
        .to_owned();
    name.push(".src");
    PathBuf::from(name)
}

/// Reads the side file of the profile at `profile_path`, if there is one.
/// `Ok(None)`: there is none. `Err`: there is one but it cannot be used
/// (the message says why); the caller warns and does without.
pub fn read_beside(profile_path: &Path, profile: &Profile) -> Result<Option<SideInfo>, String> {
    use crate::files::{InputProblem, read_input};
    let path = path_for(profile_path);
    // The crate's bounded reader: a regular file of at most the limit
    // (never a FIFO that would block, never more than the limit in memory).
    let bytes = match read_input(&path, MAX_SIDE_FILE_BYTES) {
        Ok(bytes) => bytes,
        Err(e) => {
            return match e.problem {
                InputProblem::Io(io) if io.kind() == std::io::ErrorKind::NotFound => Ok(None),
                InputProblem::TooLarge { .. } => Err(format!(
                    "{}: larger than {} MiB, more than any profile's side file",
                    path.display(),
                    MAX_SIDE_FILE_BYTES >> 20
                )),
                _ => Err(e.to_string()),
            };
        }
    };
    parse(&bytes, profile)
        .map(Some)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses a side file's bytes, checking it against `profile`.
pub fn parse(bytes: &[u8], profile: &Profile) -> Result<SideInfo, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 (byte {}); not a side file of stg-run",
            e.valid_up_to()
        )
    })?;
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let mut next = |what: &str| {
        lines
            .next()
            .ok_or_else(|| format!("ends early: {what} is missing"))
    };
    let (_, magic) = next("the first line")?;
    if magic != MAGIC {
        return Err(format!(
            "line 1 is not `{MAGIC}`; not a side file of this version of stg-run"
        ));
    }
    let (n, clock) = next("the clock line")?;
    let clock = match clock {
        "clock steps" => Clock::Steps,
        "clock cycles" => Clock::Cycles,
        "clock unknown" => Clock::Unknown,
        _ => {
            return Err(format!(
                "line {n}: expected `clock steps` or `clock cycles`"
            ));
        }
    };
    let (n, count) = next("the cost-centres line")?;
    let count: usize = count
        .strip_prefix("cost-centres ")
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| format!("line {n}: expected `cost-centres N`"))?;
    if count != profile.cost_centres.len() {
        return Err(format!(
            "it lists {count} cost centres, the profile {}: it is of another run",
            profile.cost_centres.len()
        ));
    }
    let mut locations = Vec::with_capacity(count);
    for (i, cc) in profile.cost_centres.iter().enumerate() {
        let (n, line) = next("a cost centre's line")?;
        let bad = |what: &str| format!("line {n}: {what}");
        let mut rest = line
            .strip_prefix(&format!("cc {} ", i + 1))
            .ok_or_else(|| bad(&format!("expected `cc {} ...`", i + 1)))?;
        let module = unquote(&mut rest).map_err(|e| bad(&e))?;
        rest = rest
            .strip_prefix(' ')
            .ok_or_else(|| bad("expected a space"))?;
        let name = unquote(&mut rest).map_err(|e| bad(&e))?;
        if module != profile.module_of(cc) || name != cc.name {
            let quoted = |m: &str, n: &str| excerpt(&format!("{m}.{n}"), MESSAGE_NAME_CHARS);
            return Err(format!(
                "cost centre {} is `{}` there and `{}` in the profile: it is of another run",
                i + 1,
                quoted(&module, &name),
                quoted(profile.module_of(cc), &cc.name)
            ));
        }
        rest = rest
            .strip_prefix(' ')
            .ok_or_else(|| bad("expected a space"))?;
        if rest == "-" {
            locations.push(None);
            continue;
        }
        let file = unquote(&mut rest).map_err(|e| bad(&e))?;
        let mut nums = rest.split(' ').skip(1);
        let mut num = || -> Result<u32, String> {
            nums.next()
                .and_then(|x| x.parse().ok())
                .ok_or_else(|| bad("expected a file, a line and a column"))
        };
        let (line, col) = (num()?, num()?);
        if nums.next().is_some() {
            return Err(bad("more fields than a file, a line and a column"));
        }
        locations.push(Some(SrcLoc { file, line, col }));
    }
    if let Some((n, _)) = lines.next() {
        return Err(format!("line {n}: more lines than cost centres"));
    }
    Ok(SideInfo { clock, locations })
}

/// Writes `s` as a quoted string.
fn quote(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Reads a quoted string at the start of `rest` and moves `rest` past it.
fn unquote(rest: &mut &str) -> Result<String, String> {
    let body = rest.strip_prefix('"').ok_or("expected a quoted string")?;
    let mut out = String::new();
    let mut pos = 0;
    while let Some(ch) = body[pos..].chars().next() {
        pos += ch.len_utf8();
        match ch {
            '"' => {
                *rest = &body[pos..];
                return Ok(out);
            }
            '\\' => {
                let esc = body[pos..].chars().next().ok_or("an unfinished string")?;
                pos += esc.len_utf8();
                match esc {
                    '"' => out.push('"'),
                    '\\' => out.push('\\'),
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    'u' => {
                        let inner = body[pos..]
                            .strip_prefix('{')
                            .ok_or("a bad \\u{...} escape")?;
                        let close = inner.find('}').ok_or("an unfinished \\u{...} escape")?;
                        let c = u32::from_str_radix(&inner[..close], 16)
                            .ok()
                            .and_then(char::from_u32)
                            .ok_or("a bad \\u{...} escape")?;
                        out.push(c);
                        pos += close + 2;
                    }
                    _ => return Err("an unknown escape in a string".to_string()),
                }
            }
            c => out.push(c),
        }
    }
    Err("an unfinished string".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{CostCentreDecl, Counters, Entry};

    fn profile(names: &[(&str, u32)]) -> Profile {
        Profile {
            frequency: 0,
            overhead: 0,
            modules: vec!["MAIN".into(), "m \"q\"".into()],
            cost_centres: names
                .iter()
                .map(|&(n, m)| CostCentreDecl {
                    module: m,
                    name: n.into(),
                })
                .collect(),
            entries: vec![Entry {
                cost_centre: 1,
                counters: Counters::default(),
                children: vec![],
            }],
        }
    }

    #[test]
    fn written_text_reads_back() {
        let p = profile(&[("MAIN", 1), ("CAF", 2), ("a\tb\n\u{7}\\\"é", 2)]);
        let side = SideInfo {
            clock: Clock::Cycles,
            locations: vec![
                None,
                None,
                Some(SrcLoc {
                    file: "dir with space/x \"y\".stg".into(),
                    line: 3,
                    col: 14,
                }),
            ],
        };
        let text = side.to_text(&p);
        assert_eq!(parse(text.as_bytes(), &p), Ok(side.clone()));
        assert_eq!(side.src_column(&p, 1), "<built-in>");
        assert_eq!(side.src_column(&p, 2), "<entire-module>");
        assert_eq!(side.src_column(&p, 3), "dir with space/x \"y\".stg:3:14");
    }

    #[test]
    fn a_side_file_of_another_profile_is_refused() {
        let p = profile(&[("MAIN", 1), ("CAF", 2), ("f", 2)]);
        let q = profile(&[("MAIN", 1), ("CAF", 2), ("g", 2)]);
        let text = SideInfo::default().to_text(&p);
        let e = parse(text.as_bytes(), &q).unwrap_err();
        assert!(e.contains("cost centre 3 is `m \"q\".f` there"), "{e}");
        let r = profile(&[("MAIN", 1), ("CAF", 2)]);
        assert!(parse(text.as_bytes(), &r).unwrap_err().contains("lists 3"));
    }

    #[test]
    fn a_mismatch_names_the_cost_centres_on_one_short_line() {
        // Names come from files and may hold line breaks, terminal escapes
        // and any number of characters; the message stays one short line.
        let long = format!("f\n\u{1b}[2J{}", "x".repeat(100_000));
        let p = profile(&[("MAIN", 1), ("CAF", 2), (&long, 2)]);
        let q = profile(&[("MAIN", 1), ("CAF", 2), ("g", 2)]);
        let text = SideInfo::default().to_text(&p);
        let e = parse(text.as_bytes(), &q).unwrap_err();
        assert!(!e.contains('\n') && !e.contains('\u{1b}'), "{e}");
        assert!(e.contains("`m \"q\".f\\n\\u{1b}[2Jxxx"), "{e}");
        assert!(e.contains("…` there and `m \"q\".g` in the profile"), "{e}");
        assert!(e.chars().count() < 200, "{} characters", e.chars().count());
    }

    #[test]
    fn malformed_side_files_are_errors_not_panics() {
        let p = profile(&[("MAIN", 1), ("CAF", 2), ("f", 2)]);
        let good = SideInfo {
            clock: Clock::Steps,
            locations: vec![
                None,
                None,
                Some(SrcLoc {
                    file: "f.stg".into(),
                    line: 1,
                    col: 2,
                }),
            ],
        }
        .to_text(&p);
        // Every prefix and every one-byte change is read without a panic.
        for cut in 0..good.len() {
            let _ = parse(&good.as_bytes()[..cut], &p);
            for b in [b'"', b'\\', b' ', b'{', b'}', b'x', b'9', b'\n', 0xff] {
                let mut bytes = good.as_bytes().to_vec();
                bytes[cut] = b;
                let _ = parse(&bytes, &p);
            }
        }
        assert!(parse(b"", &p).unwrap_err().contains("missing"));
        let extra = format!("{good}cc 4 \"m\" \"x\" -\n");
        assert!(
            parse(extra.as_bytes(), &p)
                .unwrap_err()
                .contains("more lines")
        );
    }
}
