//! Two profiles of one program side by side, for `stg-prof diff` and the
//! page's `--diff`: their entries matched by cost-centre path and their cost
//! centres by name, with every counter of both.
//!
//! - **One program**: the two must have the same program name (their last
//!   module, [`Profile::program_name`]); two versions of it may declare
//!   different cost centres, so nothing else is required to match.
//! - **Entries** are matched by the path of `Module.name`s from the root
//!   (the k-th child with a given name matching the k-th, for a file that
//!   lists one twice); an entry in one profile only is compared with
//!   zeros.
//! - **Cost centres** are matched by `Module.name`, their individual costs
//!   summed over their entries, as the report's top table.
//! - Rows are sorted by change: the largest change of ticks first, then of
//!   allocation, entries, thunk entries, calls and partial applications,
//!   then by name.

use std::collections::HashMap;

use super::Profile;
use super::tree::{Sums, Tree};
use super::view::qualified_name;

/// One matched entry or cost centre.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The cost centres from the root, `Module.name` (one, for a cost
    /// centre's row).
    pub path: Vec<String>,
    /// Its counters in the first profile (zeros where absent).
    pub a: Sums,
    /// Its counters in the second profile.
    pub b: Sums,
}

impl Row {
    /// The change of each counter, B − A, in the report's order: ticks,
    /// words, entries, thunk entries, calls, partial applications.
    pub fn deltas(&self) -> [i128; 6] {
        let d = |a: u128, b: u128| b as i128 - a as i128;
        [
            d(self.a.ticks, self.b.ticks),
            d(self.a.words, self.b.words),
            d(self.a.strict, self.b.strict),
            d(self.a.lazy, self.b.lazy),
            d(self.a.tail, self.b.tail),
            d(self.a.curried, self.b.curried),
        ]
    }

    /// Whether some counter changed by at least `min` (in absolute value).
    pub fn changed_by(&self, min: u128) -> bool {
        self.deltas().iter().any(|d| d.unsigned_abs() >= min.max(1))
    }
}

/// Two profiles compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The program both are of.
    pub program: String,
    /// The whole runs (the roots' inherited counters).
    pub total: Row,
    /// Cost centres, sorted by change.
    pub cost_centres: Vec<Row>,
    /// Call-graph entries, sorted by change.
    pub entries: Vec<Row>,
}

/// Compares `a` and `b` (named `name_a`, `name_b` in messages); an error
/// when they are profiles of different programs.
pub fn compare(a: &Profile, name_a: &str, b: &Profile, name_b: &str) -> Result<Comparison, String> {
    if a.program_name() != b.program_name() {
        return Err(format!(
            "{name_a} is a profile of `{}` and {name_b} of `{}`: diff compares two runs of one \
             program (`stg-prof report` names each file's program in its title)",
            a.program_name(),
            b.program_name()
        ));
    }
    // Paths interned as (parent path, name, occurrence) → path id.
    let mut ids: HashMap<(usize, String, usize), usize> = HashMap::new();
    let mut paths: Vec<(usize, String)> = Vec::new();
    let mut rows: Vec<(Sums, Sums)> = Vec::new();
    let mut by_cc: HashMap<String, (Sums, Sums)> = HashMap::new();
    let mut totals = (Sums::default(), Sums::default());
    for (side, p) in [a, b].into_iter().enumerate() {
        let tree = Tree::new(p);
        let (indiv, inh) = tree.sums(p);
        if let Some(t) = inh.first() {
            if side == 0 {
                totals.0 = *t
            } else {
                totals.1 = *t
            }
        }
        let mut path_of = vec![usize::MAX; p.entries.len()];
        for &i in &tree.order {
            let at = if i == 0 {
                let name = qualified_name(p, p.entries[0].cost_centre);
                intern(&mut ids, &mut paths, &mut rows, usize::MAX, name, 0)
            } else {
                path_of[i]
            };
            path_of[i] = at;
            let r = &mut rows[at];
            if side == 0 {
                r.0.add(&indiv[i])
            } else {
                r.1.add(&indiv[i])
            }
            let cc = by_cc
                .entry(qualified_name(p, p.entries[i].cost_centre))
                .or_default();
            if side == 0 {
                cc.0.add(&indiv[i])
            } else {
                cc.1.add(&indiv[i])
            }
            let mut seen: HashMap<u32, usize> = HashMap::new();
            for &k in &tree.kids[i] {
                let cc = p.entries[k].cost_centre;
                let n = seen.entry(cc).or_insert(0);
                let name = qualified_name(p, cc);
                path_of[k] = intern(&mut ids, &mut paths, &mut rows, at, name, *n);
                *n += 1;
            }
        }
    }
    let full_path = |mut id: usize| -> Vec<String> {
        let mut names = Vec::new();
        while id != usize::MAX {
            names.push(paths[id].1.clone());
            id = paths[id].0;
        }
        names.reverse();
        names
    };
    let mut entries: Vec<Row> = rows
        .iter()
        .enumerate()
        .map(|(id, (a, b))| Row {
            path: full_path(id),
            a: *a,
            b: *b,
        })
        .collect();
    let mut cost_centres: Vec<Row> = by_cc
        .into_iter()
        .map(|(name, (a, b))| Row {
            path: vec![name],
            a,
            b,
        })
        .collect();
    sort_by_change(&mut entries);
    sort_by_change(&mut cost_centres);
    Ok(Comparison {
        program: a.program_name().to_string(),
        total: Row {
            path: Vec::new(),
            a: totals.0,
            b: totals.1,
        },
        cost_centres,
        entries,
    })
}

fn intern(
    ids: &mut HashMap<(usize, String, usize), usize>,
    paths: &mut Vec<(usize, String)>,
    rows: &mut Vec<(Sums, Sums)>,
    parent: usize,
    name: String,
    occurrence: usize,
) -> usize {
    *ids.entry((parent, name.clone(), occurrence))
        .or_insert_with(|| {
            paths.push((parent, name));
            rows.push((Sums::default(), Sums::default()));
            paths.len() - 1
        })
}

/// Largest change first, counter by counter, then by path.
fn sort_by_change(rows: &mut [Row]) {
    rows.sort_by(|x, y| {
        let kx = x.deltas().map(|d| d.unsigned_abs());
        let ky = y.deltas().map(|d| d.unsigned_abs());
        ky.cmp(&kx).then_with(|| x.path.cmp(&y.path))
    });
}
