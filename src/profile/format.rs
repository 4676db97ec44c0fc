//! The binary profile format (PROFILE-FORMAT.md): writer and reader, on the leb128 crate.
//!
//! The format is Clean's call-graph profile, version 2:
//!
//! ```text
//! "prof"  u32le version (2)  u32le modules  u32le cost centres
//! LEB frequency  LEB overhead
//! modules:       NUL-terminated UTF-8 names
//! cost centres:  LEB module id (1-based), NUL-terminated UTF-8 name
//! root entry:    LEB cc id, ticks, words, tail calls, strict calls,
//!                lazy calls, curried calls, child count, then the children
//! ```
//!
//! Both directions are iterative: a tree nested millions deep is written and
//! read with an explicit stack, never with Rust recursion.
//!
//! An LEB128 value may be padded with zero groups (`0x81 0x00` is 1) up to
//! [`MAX_LEB_BYTES`], the most a 64-bit value takes, which is where the
//! `leb128` crate stops; a longer one is refused as too long (if its value
//! fits) or too large (if it does not).
//!
//! The reader never panics and never allocates more than the file justifies:
//! every count read from the file is checked against the bytes that remain
//! (a module needs at least 1 byte, a cost centre 2, an entry 8) before
//! anything is reserved for it. Nesting is limited by
//! [`Limits::max_depth`] (default [`DEFAULT_MAX_DEPTH`], 16,777,216 entries
//! from the root down), a safety net for consumers; a file of that depth is
//! at least 128 MiB.

use std::fmt;
use std::io;
use std::path::Path;

use super::{CostCentreDecl, Counters, Entry, Profile};

/// The four magic bytes at offset 0.
pub const MAGIC: [u8; 4] = *b"prof";
/// The one version this crate reads and writes.
pub const VERSION: u32 = 2;
/// Default nesting limit of [`read`]: entries on the path from the root
/// (the root alone is depth 1).
pub const DEFAULT_MAX_DEPTH: usize = 1 << 24;

/// The longest LEB128 encoding read: ten groups of seven bits hold 64 bits.
pub const MAX_LEB_BYTES: usize = 10;

/// The smallest encoding of one entry: eight one-byte LEB fields.
const MIN_ENTRY_BYTES: usize = 8;

/// Limits the reader enforces beyond the format itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest nesting accepted, counting the root as depth 1.
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

/// Which field the reader was reading, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Magic,
    Version,
    ModuleCount,
    CostCentreCount,
    Frequency,
    Overhead,
    /// Name of module `n` (1-based).
    ModuleName(u32),
    /// Module id of cost centre `n` (1-based).
    CostCentreModule(u32),
    /// Name of cost centre `n` (1-based).
    CostCentreName(u32),
    /// Field `k` (0 = cost centre id .. 7 = child count) of entry `n`
    /// (0-based, depth-first order, 0 = root).
    Entry {
        entry: u64,
        field: u8,
    },
}

const ENTRY_FIELDS: [&str; 8] = [
    "cost centre id",
    "ticks",
    "words",
    "tail calls",
    "strict calls",
    "lazy calls",
    "curried calls",
    "child count",
];

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Field::Magic => write!(f, "the magic number"),
            Field::Version => write!(f, "the version"),
            Field::ModuleCount => write!(f, "the module count"),
            Field::CostCentreCount => write!(f, "the cost centre count"),
            Field::Frequency => write!(f, "the clock frequency"),
            Field::Overhead => write!(f, "the overhead estimate"),
            Field::ModuleName(n) => write!(f, "the name of module {n}"),
            Field::CostCentreModule(n) => write!(f, "the module id of cost centre {n}"),
            Field::CostCentreName(n) => write!(f, "the name of cost centre {n}"),
            Field::Entry { entry, field } => write!(
                f,
                "the {} of call-graph entry {} (depth-first, root = 0)",
                ENTRY_FIELDS.get(field as usize).copied().unwrap_or("field"),
                entry
            ),
        }
    }
}

/// What is wrong with a profile file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatErrorKind {
    /// No bytes at all.
    Empty,
    BadMagic([u8; 4]),
    UnknownVersion(u32),
    /// The file ends inside this field.
    Truncated(Field),
    /// An LEB128 value that does not fit in 64 bits.
    LebOverflow(Field),
    /// An LEB128 value that fits in 64 bits but is padded with zero groups
    /// to `len` bytes, more than [`MAX_LEB_BYTES`].
    LebTooLong {
        field: Field,
        len: usize,
    },
    /// Module id 0 or beyond the declared module count.
    ModuleIdOutOfRange {
        cost_centre: u32,
        id: u64,
        count: u32,
    },
    /// Cost centre id 0 or beyond the declared cost centre count.
    CostCentreIdOutOfRange {
        entry: u64,
        id: u64,
        count: u32,
    },
    InvalidUtf8(Field),
    /// A count that the rest of the file cannot possibly hold.
    /// A count (the value of `field`) that the rest of the file cannot
    /// possibly hold: `count` items of at least `min_each` bytes each.
    CountTooLarge {
        field: Field,
        count: u64,
        remaining: usize,
        min_each: usize,
    },
    /// Bytes follow the root entry.
    TrailingBytes(usize),
    /// The children of `entry` would be nested deeper than `limit`.
    TooDeep {
        entry: u64,
        limit: usize,
    },
    /// More entries than a `u32` child index can address.
    TooManyEntries,
}

/// A profile file that cannot be read: what is wrong, and at which byte
/// offset (where the offending field starts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    pub offset: usize,
    pub kind: FormatErrorKind,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind == FormatErrorKind::Empty {
            return write!(
                f,
                "the file is empty: a .pgcl profile starts with \"prof\" (`stg-run --profile` writes one)"
            );
        }
        write!(f, "byte {}: ", self.offset)?;
        match &self.kind {
            FormatErrorKind::Empty => Ok(()),
            FormatErrorKind::BadMagic(m) => {
                write!(
                    f,
                    "not a profile file: it starts with {:?}, a .pgcl file starts with \"prof\"",
                    String::from_utf8_lossy(m)
                )?;
                // What the file most likely is, and where it goes instead.
                if m.starts_with(b"JOB") {
                    write!(f, " (this is a heap profile: draw it with `stg-prof heap`)")
                } else {
                    write!(f, " (`stg-run --profile` writes one)")
                }
            }
            FormatErrorKind::UnknownVersion(v) => write!(
                f,
                "unknown profile format version {v} (this reader reads version {VERSION} only)"
            ),
            FormatErrorKind::Truncated(field) => {
                write!(f, "file is truncated: it ends inside {field}")
            }
            FormatErrorKind::LebOverflow(field) => write!(
                f,
                "{field} is an LEB128 number that does not fit in 64 bits"
            ),
            FormatErrorKind::LebTooLong { field, len } => write!(
                f,
                "{field} is an LEB128 number {len} bytes long: its value fits in 64 \
                 bits, but this reader takes at most {MAX_LEB_BYTES} bytes, the most a \
                 64-bit number needs (it is padded with zero groups)"
            ),
            FormatErrorKind::ModuleIdOutOfRange {
                cost_centre,
                id,
                count,
            } => write!(
                f,
                "module id {id} of cost centre {cost_centre} out of range (the file declares {count} module{}, numbered from 1)",
                plural(*count as u64)
            ),
            FormatErrorKind::CostCentreIdOutOfRange { entry, id, count } => write!(
                f,
                "cost centre id {id} of call-graph entry {entry} out of range (the file declares {count} cost centre{}, numbered from 1)",
                plural(*count as u64)
            ),
            FormatErrorKind::InvalidUtf8(field) => write!(f, "{field} is not valid UTF-8"),
            FormatErrorKind::CountTooLarge {
                field,
                count,
                remaining,
                min_each,
            } => write!(
                f,
                "{field} is {count}, but only {remaining} byte{} {} left and each {} needs at least {min_each}: the file is truncated or corrupt",
                plural(*remaining as u64),
                if *remaining == 1 { "is" } else { "are" },
                match field {
                    Field::ModuleCount => "module",
                    Field::CostCentreCount => "cost centre",
                    _ => "child",
                }
            ),
            FormatErrorKind::TrailingBytes(n) => write!(
                f,
                "{n} unexpected byte{} after the root call-graph entry",
                plural(*n as u64)
            ),
            FormatErrorKind::TooDeep { entry, limit } => write!(
                f,
                "the children of call-graph entry {entry} would be nested deeper than {limit} entries (counting the root), this reader's limit"
            ),
            FormatErrorKind::TooManyEntries => write!(
                f,
                "more than {} call-graph entries, more than this reader can index",
                u32::MAX
            ),
        }
    }
}

impl std::error::Error for FormatError {}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A [`Profile`] that cannot be written because it is not a well-formed tree
/// or its tables do not fit the format. The machine never builds one; this
/// guards against bugs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteError {
    NoRoot,
    TooManyModules(usize),
    TooManyCostCentres(usize),
    NulInModuleName(usize),
    NulInCostCentreName(usize),
    ModuleIdOutOfRange {
        cost_centre: usize,
        id: u32,
    },
    CostCentreIdOutOfRange {
        entry: usize,
        id: u32,
    },
    ChildOutOfRange {
        entry: usize,
        child: u32,
    },
    /// An entry reached twice (shared child or cycle).
    NotATree {
        entry: usize,
    },
    /// Entries not reachable from the root.
    Unreachable {
        count: usize,
    },
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::NoRoot => write!(f, "profile has no entries (no root)"),
            WriteError::TooManyModules(n) => write!(f, "{n} modules do not fit a u32 count"),
            WriteError::TooManyCostCentres(n) => {
                write!(f, "{n} cost centres do not fit a u32 count")
            }
            WriteError::NulInModuleName(i) => write!(f, "module {} has a NUL in its name", i + 1),
            WriteError::NulInCostCentreName(i) => {
                write!(f, "cost centre {} has a NUL in its name", i + 1)
            }
            WriteError::ModuleIdOutOfRange { cost_centre, id } => write!(
                f,
                "cost centre {} names module {id}, out of range",
                cost_centre + 1
            ),
            WriteError::CostCentreIdOutOfRange { entry, id } => {
                write!(f, "entry {entry} names cost centre {id}, out of range")
            }
            WriteError::ChildOutOfRange { entry, child } => {
                write!(f, "entry {entry} has child index {child}, out of range")
            }
            WriteError::NotATree { entry } => {
                write!(
                    f,
                    "entry {entry} is reached twice: the entries are not a tree"
                )
            }
            WriteError::Unreachable { count } => {
                write!(f, "{count} entries are not reachable from the root")
            }
        }
    }
}

impl std::error::Error for WriteError {}

fn put_leb(out: &mut Vec<u8>, v: u64) {
    // Writing into a Vec cannot fail.
    let _ = leb128::write::unsigned(out, v);
}

/// Encodes a profile. Entries are written depth-first from `entries[0]`.
///
/// Panics if the profile is not well formed (see [`try_write`]); profiles
/// built by the machine or returned by [`read`] always are.
pub fn write(profile: &Profile) -> Vec<u8> {
    match try_write(profile) {
        Ok(bytes) => bytes,
        Err(e) => panic!("profile::format::write: malformed profile: {e}"),
    }
}

/// Encodes a profile, or says why it is not well formed: ids out of range,
/// NUL in a name, child indices that do not form a tree rooted at
/// `entries[0]` covering every entry.
pub fn try_write(profile: &Profile) -> Result<Vec<u8>, WriteError> {
    let n_modules = u32::try_from(profile.modules.len())
        .map_err(|_| WriteError::TooManyModules(profile.modules.len()))?;
    let n_ccs = u32::try_from(profile.cost_centres.len())
        .map_err(|_| WriteError::TooManyCostCentres(profile.cost_centres.len()))?;
    if profile.entries.is_empty() {
        return Err(WriteError::NoRoot);
    }

    let mut out = Vec::with_capacity(64 + profile.entries.len() * MIN_ENTRY_BYTES);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&n_modules.to_le_bytes());
    out.extend_from_slice(&n_ccs.to_le_bytes());
    put_leb(&mut out, profile.frequency);
    put_leb(&mut out, profile.overhead);
    for (i, m) in profile.modules.iter().enumerate() {
        if m.as_bytes().contains(&0) {
            return Err(WriteError::NulInModuleName(i));
        }
        out.extend_from_slice(m.as_bytes());
        out.push(0);
    }
    for (i, cc) in profile.cost_centres.iter().enumerate() {
        if cc.module == 0 || cc.module > n_modules {
            return Err(WriteError::ModuleIdOutOfRange {
                cost_centre: i,
                id: cc.module,
            });
        }
        if cc.name.as_bytes().contains(&0) {
            return Err(WriteError::NulInCostCentreName(i));
        }
        put_leb(&mut out, cc.module as u64);
        out.extend_from_slice(cc.name.as_bytes());
        out.push(0);
    }

    let mut seen = vec![false; profile.entries.len()];
    let mut visited = 0usize;
    // Explicit stack of (entry, next child position).
    let mut stack: Vec<(usize, usize)> = Vec::new();
    let mut emit = |idx: usize, out: &mut Vec<u8>| -> Result<(), WriteError> {
        if seen[idx] {
            return Err(WriteError::NotATree { entry: idx });
        }
        seen[idx] = true;
        visited += 1;
        let e = &profile.entries[idx];
        if e.cost_centre == 0 || e.cost_centre > n_ccs {
            return Err(WriteError::CostCentreIdOutOfRange {
                entry: idx,
                id: e.cost_centre,
            });
        }
        let c = &e.counters;
        for v in [
            e.cost_centre as u64,
            c.ticks,
            c.words,
            c.tail_calls,
            c.strict_calls,
            c.lazy_calls,
            c.curried_calls,
            e.children.len() as u64,
        ] {
            put_leb(out, v);
        }
        Ok(())
    };
    emit(0, &mut out)?;
    stack.push((0, 0));
    while let Some(top) = stack.last_mut() {
        let (idx, pos) = *top;
        let children = &profile.entries[idx].children;
        if pos == children.len() {
            stack.pop();
            continue;
        }
        top.1 += 1;
        let child = children[pos];
        if child as usize >= profile.entries.len() {
            return Err(WriteError::ChildOutOfRange { entry: idx, child });
        }
        emit(child as usize, &mut out)?;
        stack.push((child as usize, 0));
    }
    if visited != profile.entries.len() {
        return Err(WriteError::Unreachable {
            count: profile.entries.len() - visited,
        });
    }
    Ok(out)
}

/// Writes `profile` to `path` whole or not at all (`files::write_atomic`:
/// a temporary file in the same directory, synced, renamed over `path`).
pub fn write_file_atomic(path: &Path, profile: &Profile) -> io::Result<()> {
    let bytes = try_write(profile).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    crate::files::write_atomic(path, &bytes)
}

/// Writes `bytes` to `path` whole or not at all: the one atomic writer of
/// the crate, `files::write_atomic`, under the name callers knew it by.
pub use crate::files::write_atomic as write_bytes_atomic;

/// Reads a profile with the default [`Limits`].
pub fn read(bytes: &[u8]) -> Result<Profile, FormatError> {
    read_with_limits(bytes, Limits::default())
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn err(&self, offset: usize, kind: FormatErrorKind) -> FormatError {
        FormatError { offset, kind }
    }

    fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    fn u32_le(&mut self, field: Field) -> Result<u32, FormatError> {
        let start = self.pos;
        match self.bytes.get(start..start + 4) {
            Some(b) => {
                self.pos += 4;
                Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            }
            None => Err(self.err(start, FormatErrorKind::Truncated(field))),
        }
    }

    fn leb(&mut self, field: Field) -> Result<u64, FormatError> {
        let start = self.pos;
        let mut rest = &self.bytes[start..];
        let before = rest.len();
        let r = leb128::read::unsigned(&mut rest);
        self.pos = start + (before - rest.len());
        match r {
            Ok(v) => Ok(v),
            // The crate stops at the tenth byte if that byte has bits above
            // bit 63 or a continuation bit, and reads on to the end of the
            // number: its bytes say which of the two it is.
            Err(leb128::read::Error::Overflow) => {
                let number = &self.bytes[start..self.pos];
                let high_bits = number.get(MAX_LEB_BYTES - 1).is_some_and(|b| b & 0x7e != 0)
                    || number.iter().skip(MAX_LEB_BYTES).any(|b| b & 0x7f != 0);
                let kind = if high_bits {
                    FormatErrorKind::LebOverflow(field)
                } else {
                    FormatErrorKind::LebTooLong {
                        field,
                        len: number.len(),
                    }
                };
                Err(self.err(start, kind))
            }
            Err(leb128::read::Error::IoError(_)) => {
                Err(self.err(start, FormatErrorKind::Truncated(field)))
            }
        }
    }

    fn name(&mut self, field: Field) -> Result<String, FormatError> {
        let start = self.pos;
        let rest = &self.bytes[start..];
        let Some(len) = rest.iter().position(|&b| b == 0) else {
            return Err(self.err(start, FormatErrorKind::Truncated(field)));
        };
        let s = std::str::from_utf8(&rest[..len])
            .map_err(|e| self.err(start + e.valid_up_to(), FormatErrorKind::InvalidUtf8(field)))?;
        self.pos += len + 1;
        Ok(s.to_owned())
    }

    /// Checks that `count` items of at least `min_each` bytes can follow.
    fn check_count(
        &self,
        at: usize,
        field: Field,
        count: u64,
        min_each: usize,
    ) -> Result<(), FormatError> {
        let remaining = self.remaining();
        if count > (remaining / min_each) as u64 {
            return Err(self.err(
                at,
                FormatErrorKind::CountTooLarge {
                    field,
                    count,
                    remaining,
                    min_each,
                },
            ));
        }
        Ok(())
    }
}

/// Reads a profile, enforcing `limits`. Accepts exactly the layout of
/// PROFILE-FORMAT.md; anything else is a [`FormatError`] naming what is
/// wrong and the byte offset where the offending field starts.
pub fn read_with_limits(bytes: &[u8], limits: Limits) -> Result<Profile, FormatError> {
    let mut r = Reader { bytes, pos: 0 };

    match bytes.get(0..4) {
        Some(m) if m == MAGIC => r.pos = 4,
        Some(m) => {
            return Err(r.err(0, FormatErrorKind::BadMagic([m[0], m[1], m[2], m[3]])));
        }
        None if bytes.is_empty() => return Err(r.err(0, FormatErrorKind::Empty)),
        None => {
            // A short file: wrong magic if what is there already differs.
            if !MAGIC.starts_with(bytes) {
                let mut m = [0u8; 4];
                m[..bytes.len()].copy_from_slice(bytes);
                return Err(r.err(0, FormatErrorKind::BadMagic(m)));
            }
            return Err(r.err(0, FormatErrorKind::Truncated(Field::Magic)));
        }
    }
    let version = r.u32_le(Field::Version)?;
    if version != VERSION {
        return Err(r.err(4, FormatErrorKind::UnknownVersion(version)));
    }
    let n_modules = r.u32_le(Field::ModuleCount)?;
    let n_ccs = r.u32_le(Field::CostCentreCount)?;
    let frequency = r.leb(Field::Frequency)?;
    let overhead = r.leb(Field::Overhead)?;

    // Each module takes at least its NUL.
    r.check_count(8, Field::ModuleCount, n_modules as u64, 1)?;
    let mut modules = Vec::with_capacity(n_modules as usize);
    for i in 1..=n_modules {
        modules.push(r.name(Field::ModuleName(i))?);
    }

    // Each cost centre takes at least a one-byte id and a NUL.
    r.check_count(12, Field::CostCentreCount, n_ccs as u64, 2)?;
    let mut cost_centres = Vec::with_capacity(n_ccs as usize);
    for i in 1..=n_ccs {
        let at = r.pos;
        let module = r.leb(Field::CostCentreModule(i))?;
        if module == 0 || module > n_modules as u64 {
            return Err(r.err(
                at,
                FormatErrorKind::ModuleIdOutOfRange {
                    cost_centre: i,
                    id: module,
                    count: n_modules,
                },
            ));
        }
        let name = r.name(Field::CostCentreName(i))?;
        cost_centres.push(CostCentreDecl {
            module: module as u32,
            name,
        });
    }

    // The call graph, depth-first, with an explicit stack of
    // (entry index, children still to read).
    let mut entries: Vec<Entry> = Vec::new();
    let mut stack: Vec<(u32, u64)> = Vec::new();
    loop {
        // Read one entry (the root first, then children as the stack asks).
        let parent = match stack.last_mut() {
            None if entries.is_empty() => None,
            None => break,
            Some((_, 0)) => {
                stack.pop();
                continue;
            }
            Some((p, left)) => {
                *left -= 1;
                Some(*p)
            }
        };
        let index = entries.len() as u64;
        let Ok(index32) = u32::try_from(index) else {
            return Err(r.err(r.pos, FormatErrorKind::TooManyEntries));
        };
        let field = |k: u8| Field::Entry {
            entry: index,
            field: k,
        };
        let at = r.pos;
        let cc = r.leb(field(0))?;
        if cc == 0 || cc > n_ccs as u64 {
            return Err(r.err(
                at,
                FormatErrorKind::CostCentreIdOutOfRange {
                    entry: index,
                    id: cc,
                    count: n_ccs,
                },
            ));
        }
        let counters = Counters {
            ticks: r.leb(field(1))?,
            words: r.leb(field(2))?,
            tail_calls: r.leb(field(3))?,
            strict_calls: r.leb(field(4))?,
            lazy_calls: r.leb(field(5))?,
            curried_calls: r.leb(field(6))?,
        };
        let count_at = r.pos;
        let n_children = r.leb(field(7))?;
        r.check_count(count_at, field(7), n_children, MIN_ENTRY_BYTES)?;
        entries.push(Entry {
            cost_centre: cc as u32,
            counters,
            children: Vec::new(),
        });
        if let Some(p) = parent {
            entries[p as usize].children.push(index32);
        }
        if n_children > 0 {
            // Depth of the children about to be read: this entry's depth + 1.
            if stack.len() + 2 > limits.max_depth {
                return Err(r.err(
                    count_at,
                    FormatErrorKind::TooDeep {
                        entry: index,
                        limit: limits.max_depth,
                    },
                ));
            }
            stack.push((index32, n_children));
        }
    }

    if r.remaining() != 0 {
        return Err(r.err(r.pos, FormatErrorKind::TrailingBytes(r.remaining())));
    }
    Ok(Profile {
        frequency,
        overhead,
        modules,
        cost_centres,
        entries,
    })
}
