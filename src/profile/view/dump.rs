//! `stg-prof dump`: every field of a profile file, one item per line.
//!
//! The format is stable (golden tests depend on it) and meant for people
//! debugging the binary format. Names are printed as quoted Rust string
//! literals so that spaces and odd characters are unambiguous. Entries are
//! numbered in depth-first order from the root (0), the numbering
//! [`FormatError`](crate::profile::format::FormatError) messages and the report's
//! `no.` column use. Indentation is two spaces per level, capped at
//! [`MAX_INDENT`] levels; every entry line also states its depth.
//!
//! ```text
//! magic "prof"
//! version 2
//! modules 2
//! cost-centres 3
//! frequency 0
//! overhead 0
//! module 1 "MAIN"
//! cost-centre 1 "MAIN" module 1 "MAIN"
//! entry 0 depth 0 cc 1 "MAIN" ticks 0 words 0 tail-calls 0 strict-calls 0 lazy-calls 0 curried-calls 0 children 1
//!   entry 1 depth 1 ...
//! ```

use std::io::{self, Write};

use crate::profile::Profile;
use crate::profile::format::{MAGIC, VERSION};
use crate::profile::tree::Tree;

/// Indentation stops growing at this depth (the depth is still printed).
pub const MAX_INDENT: usize = 40;

/// Every field of `profile`, one item per line, as one string (see
/// [`write_dump`]).
pub fn dump(profile: &Profile) -> String {
    let mut out = Vec::new();
    // Writing to a vector cannot fail.
    let _ = write_dump(profile, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// Write every field of `profile` to `s`, one item per line, as it goes.
pub fn write_dump(profile: &Profile, s: &mut dyn Write) -> io::Result<()> {
    writeln!(s, "magic {:?}", String::from_utf8_lossy(&MAGIC))?;
    writeln!(s, "version {VERSION}")?;
    writeln!(s, "modules {}", profile.modules.len())?;
    writeln!(s, "cost-centres {}", profile.cost_centres.len())?;
    writeln!(s, "frequency {}", profile.frequency)?;
    writeln!(s, "overhead {}", profile.overhead)?;
    for (i, m) in profile.modules.iter().enumerate() {
        writeln!(s, "module {} {:?}", i + 1, m)?;
    }
    let module_name = |id: u32| -> String {
        match profile.modules.get((id as usize).wrapping_sub(1)) {
            Some(m) => format!("{m:?}"),
            None => "<out of range>".to_string(),
        }
    };
    for (i, cc) in profile.cost_centres.iter().enumerate() {
        writeln!(
            s,
            "cost-centre {} {:?} module {} {}",
            i + 1,
            cc.name,
            cc.module,
            module_name(cc.module)
        )?;
    }
    let tree = Tree::new(profile);
    for &i in &tree.order {
        let e = &profile.entries[i];
        let depth = tree.depth[i];
        let cc_name = match profile
            .cost_centres
            .get((e.cost_centre as usize).wrapping_sub(1))
        {
            Some(cc) => format!("{:?}", cc.name),
            None => "<out of range>".to_string(),
        };
        let c = &e.counters;
        writeln!(
            s,
            "{:indent$}entry {} depth {} cc {} {} ticks {} words {} tail-calls {} strict-calls {} lazy-calls {} curried-calls {} children {}",
            "",
            tree.number[i],
            depth,
            e.cost_centre,
            cc_name,
            c.ticks,
            c.words,
            c.tail_calls,
            c.strict_calls,
            c.lazy_calls,
            c.curried_calls,
            e.children.len(),
            indent = 2 * depth.min(MAX_INDENT)
        )?;
    }
    let unreached = profile.entries.len() - tree.order.len();
    if unreached > 0 {
        writeln!(s, "unreachable-entries {unreached}")?;
    }
    Ok(())
}
