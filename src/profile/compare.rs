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
//!   then by path.
//! - **Paths** are held as a tree ([`Paths`]: each path its parent and its
//!   last name, each name once), so that memory is linear in the
//!   profiles whatever their depth, and shown with the middle of a long
//!   one left out ([`Paths::text`]).

use std::collections::HashMap;

use super::Profile;
use super::tree::{Sums, Tree};
use super::view::qualified_name;

/// A path's place in a [`Comparison`]'s [`Paths`].
pub type PathId = u32;

/// The paths of a comparison's rows, held as a tree (each path its parent
/// and its last name, each name once), so that memory is linear in the
/// profiles whatever their depth: a 20,000-deep chain held as one list of
/// names a path took gigabytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Paths {
    /// Each path's parent (`NO_PARENT` for a first name) and last name (an
    /// index into `names`).
    nodes: Vec<(PathId, u32)>,
    /// Each path's number of names and first name (an index into
    /// `names`), so that [`Paths::text`] takes the same time however deep
    /// the path: it walks up only the names it shows.
    lengths: Vec<(u32, u32)>,
    names: Vec<String>,
}

const NO_PARENT: PathId = PathId::MAX;

/// Paths of more names than this are shown with their middle left out.
pub const MAX_SHOWN_NAMES: usize = 12;

impl Paths {
    /// The names of path `id`, from the first.
    pub fn names(&self, id: PathId) -> Vec<&str> {
        let mut names = Vec::new();
        let mut at = id;
        while at != NO_PARENT {
            let (parent, name) = self.nodes[at as usize];
            names.push(self.names[name as usize].as_str());
            at = parent;
        }
        names.reverse();
        names
    }

    /// Path `id` as text, its names joined by `sep`; a path of more than
    /// [`MAX_SHOWN_NAMES`] names shows its first, how many are left out,
    /// and its last ones (`MAIN > … 19,988 more … > f > g`), so that a
    /// deep recursion's rows stay one readable line each.
    pub fn text(&self, id: PathId, sep: &str) -> String {
        let Some(&(len, first)) = self.lengths.get(id as usize) else {
            return String::new();
        };
        let len = len as usize;
        if len <= MAX_SHOWN_NAMES {
            return self.names(id).join(sep);
        }
        let tail = MAX_SHOWN_NAMES - 2;
        let mut last = Vec::with_capacity(tail);
        let mut at = id;
        for _ in 0..tail {
            let (parent, name) = self.nodes[at as usize];
            last.push(self.names[name as usize].as_str());
            at = parent;
        }
        last.reverse();
        let left_out = len - 1 - tail;
        let mut parts = vec![self.names[first as usize].clone()];
        parts.push(format!(
            "… {} more …",
            super::view::report::thousands(left_out as u128)
        ));
        parts.extend(last.iter().map(|n| n.to_string()));
        parts.join(sep)
    }

    /// Each path's place in the order of their lists of names (a path
    /// before its extensions, siblings by name; siblings of one name, as a
    /// file that lists one twice has, in the order first met).
    fn ranks(&self) -> Vec<u32> {
        let n = self.nodes.len();
        let mut kids: Vec<Vec<PathId>> = vec![Vec::new(); n];
        let mut roots = Vec::new();
        for (id, &(parent, _)) in self.nodes.iter().enumerate() {
            if parent == NO_PARENT {
                roots.push(id as PathId);
            } else {
                kids[parent as usize].push(id as PathId);
            }
        }
        let by_name = |ids: &mut Vec<PathId>| {
            ids.sort_by(|&x, &y| {
                let name = |i: PathId| self.names[self.nodes[i as usize].1 as usize].as_str();
                name(x).cmp(name(y)).then(x.cmp(&y))
            })
        };
        by_name(&mut roots);
        let mut rank = vec![0; n];
        let mut next = 0;
        let mut stack: Vec<PathId> = roots.into_iter().rev().collect();
        while let Some(id) = stack.pop() {
            rank[id as usize] = next;
            next += 1;
            let mut k = std::mem::take(&mut kids[id as usize]);
            by_name(&mut k);
            stack.extend(k.into_iter().rev());
        }
        rank
    }
}

/// One matched entry or cost centre.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The cost centres from the root, `Module.name` (one, for a cost
    /// centre's row): a path of the comparison's [`Comparison::paths`].
    pub path: PathId,
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
    /// The whole runs (the roots' inherited counters); its path is the
    /// root's.
    pub total: Row,
    /// Cost centres, sorted by change.
    pub cost_centres: Vec<Row>,
    /// Call-graph entries, sorted by change.
    pub entries: Vec<Row>,
    /// The rows' paths.
    pub paths: Paths,
}

/// The paths of a comparison as they are built: interned as (parent,
/// name, occurrence), names once each.
#[derive(Default)]
struct PathBuilder {
    paths: Paths,
    ids: HashMap<(PathId, u32, usize), PathId>,
    name_ids: HashMap<String, u32>,
}

impl PathBuilder {
    fn name(&mut self, name: String) -> u32 {
        let names = &mut self.paths.names;
        *self.name_ids.entry(name).or_insert_with_key(|name| {
            names.push(name.clone());
            (names.len() - 1) as u32
        })
    }

    /// The path `parent` then `name` (the `occurrence`th such child).
    fn path(&mut self, parent: PathId, name: u32, occurrence: usize) -> PathId {
        let Paths { nodes, lengths, .. } = &mut self.paths;
        *self
            .ids
            .entry((parent, name, occurrence))
            .or_insert_with(|| {
                let (len, first) = match lengths.get(parent as usize) {
                    Some(&(len, first)) => (len + 1, first),
                    None => (1, name),
                };
                nodes.push((parent, name));
                lengths.push((len, first));
                (nodes.len() - 1) as PathId
            })
    }
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
    let mut paths = PathBuilder::default();
    // The entries' rows, and which row each path is (cost centres' paths,
    // of an occurrence no entry has, are not entries).
    let mut entries: Vec<Row> = Vec::new();
    let mut row_of: HashMap<PathId, usize> = HashMap::new();
    let mut by_cc: HashMap<u32, Row> = HashMap::new();
    let mut totals = (Sums::default(), Sums::default());
    let mut root = None;
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
        // Each cost centre's name, made once.
        let mut name_of: Vec<Option<u32>> = vec![None; p.cost_centres.len() + 1];
        let mut name = |paths: &mut PathBuilder, cc: u32| -> u32 {
            let slot = name_of.get_mut(cc as usize);
            match slot {
                Some(Some(n)) => *n,
                Some(slot) => {
                    let n = paths.name(qualified_name(p, cc));
                    *slot = Some(n);
                    n
                }
                None => paths.name(qualified_name(p, cc)),
            }
        };
        let add = |rows: &mut Vec<Row>, row_of: &mut HashMap<PathId, usize>, path, s: &Sums| {
            let r = *row_of.entry(path).or_insert_with(|| {
                rows.push(Row {
                    path,
                    a: Sums::default(),
                    b: Sums::default(),
                });
                rows.len() - 1
            });
            if side == 0 {
                rows[r].a.add(s)
            } else {
                rows[r].b.add(s)
            }
        };
        let mut path_of = vec![NO_PARENT; p.entries.len()];
        for &i in &tree.order {
            let cc = p.entries[i].cost_centre;
            let cc_name = name(&mut paths, cc);
            let at = if i == 0 {
                let at = paths.path(NO_PARENT, cc_name, 0);
                root = Some(at);
                at
            } else {
                path_of[i]
            };
            add(&mut entries, &mut row_of, at, &indiv.get(i));
            let cc_path = paths.path(NO_PARENT, cc_name, usize::MAX);
            let row = by_cc.entry(cc_path).or_insert_with(|| Row {
                path: cc_path,
                a: Sums::default(),
                b: Sums::default(),
            });
            if side == 0 {
                row.a.add(&indiv.get(i))
            } else {
                row.b.add(&indiv.get(i))
            }
            let mut seen: HashMap<u32, usize> = HashMap::new();
            for &k in tree.kids(i) {
                let kid_name = name(&mut paths, p.entries[k].cost_centre);
                let n = seen.entry(kid_name).or_insert(0);
                path_of[k] = paths.path(at, kid_name, *n);
                *n += 1;
            }
        }
    }
    let paths = paths.paths;
    let rank = paths.ranks();
    let mut cost_centres: Vec<Row> = by_cc.into_values().collect();
    sort_by_change(&mut entries, &rank);
    sort_by_change(&mut cost_centres, &rank);
    Ok(Comparison {
        program: a.program_name().to_string(),
        total: Row {
            path: root.unwrap_or(NO_PARENT),
            a: totals.0,
            b: totals.1,
        },
        cost_centres,
        entries,
        paths,
    })
}

/// Largest change first, counter by counter, then by path (`rank`).
fn sort_by_change(rows: &mut [Row], rank: &[u32]) {
    rows.sort_by_cached_key(|r| {
        let change = r.deltas().map(|d| std::cmp::Reverse(d.unsigned_abs()));
        (change, rank[r.path as usize])
    });
}
