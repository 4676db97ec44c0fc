//! Heap profiles (SEMANTICS.md "Heap, garbage collection, heap profiles"):
//! a census of the live heap every `--heap-interval` steps, grouped by cost
//! centre (or stack), by closure kind, by description, by retainer set
//! (with `crate::gc::retainer`), or by the phase of each closure's life
//! (biography, with `crate::gc::biography`), written
//! in GHC's `.hp` format (readable by `hp2ps`), sample unit `steps`.
//!
//! A [`HeapProfiler`] writes each census to its output as it is taken, so
//! nothing grows with the number of samples but the file. Band names are
//! made so that `hp2ps` reads them (no white space, no leading digit);
//! in stacks mode a band is named as GHC's `-hc` names a cost-centre stack,
//! `(n)inner/…/outer`, shortened to `--heap-label-length` characters as
//! GHC's `-L` does, and each stack is listed whole, once, in a side
//! listing (`<stem>.hp.stacks`). A retainer set is named as GHC's `-hr`
//! names one, `(n)` and its retainers' labels joined by commas, cut to
//! `--heap-label-length` characters in all. A size budget stops the
//! censuses, with a warning, before the files pass `--max-heap-profile`.
//!
//! Engine-independent: a census is a function of the heap and the code,
//! and band numbers are handed out in an order that depends on nothing
//! else.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::io::{self, Write};

use crate::gc::biography::Phase;
use crate::gc::retainer::{self, RetainerSets, SYSTEM, SetId};
use crate::gc::{Addr, Heap, Info, Roots, Tag, Value};
use crate::machine::CostCentreMode;
use crate::machine::accounting::Accounting;
use crate::machine::code::{Code, ExprCode};
use crate::profile::cost_centre::CostCentreTable;
use crate::profile::one_line;
use crate::stg::syntax::Flag;

/// How a census groups closures
/// (`--heap-profile=cc|kind|descr|retainer|biography`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeapProfileBy {
    CostCentre,
    Kind,
    Descr,
    /// By retainer set (GHC's `-hr`): the cost centres (stacks in stacks
    /// mode) of the thunks that hold on to the closure, `SYSTEM` for the
    /// machine's roots (`crate::gc::retainer`).
    Retainer,
    /// By phase of the closure's life (GHC's `-hb`): `LAG`, `USE`,
    /// `DRAG`, `VOID`, known only at the end of the run, when the samples
    /// are written.
    Biography,
}

/// The bands of a biographical profile, in the order GHC's `-hb` writes
/// them.
pub const BIOGRAPHY_BANDS: [&str; 4] = ["VOID", "LAG", "USE", "DRAG"];

/// GHC's default for `-L`: the longest cost-centre-stack band name, not
/// counting its `(n)` prefix.
pub const DEFAULT_LABEL_LENGTH: usize = 25;

/// The shortest `--heap-label-length`: room for one character and `...`.
pub const MIN_LABEL_LENGTH: usize = 4;

/// The longest `--heap-label-length` (hp2ps reads names of at most 4,999
/// characters).
pub const MAX_LABEL_LENGTH: usize = 4096;

/// Default budget for the heap profile's files together (1 GiB).
pub const DEFAULT_MAX_BYTES: u64 = 1 << 30;

/// The longest band name written in any mode (a flat-mode `scc` label may
/// be any string; hp2ps reads at most 4,999 characters of a name).
pub const MAX_NAME_BYTES: usize = 1000;

/// Settings of a heap profile besides its grouping
/// ([`crate::machine::RunOptions::heap_profile_options`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeapProfileOptions {
    /// The `.hp` header's `JOB` (the program's name).
    pub job: String,
    /// The `.hp` header's `DATE` (a fixed text for reproducible output).
    pub date: String,
    /// Longest stacks-mode band name (`--heap-label-length`, GHC's `-L`);
    /// 0 means [`DEFAULT_LABEL_LENGTH`].
    pub label_length: usize,
    /// Most bytes the `.hp` text and the stacks listing may take together
    /// (`--max-heap-profile`); 0 means [`DEFAULT_MAX_BYTES`].
    pub max_bytes: u64,
    /// Count only the closures built under one of these cost centres
    /// (`--heap-profile-cc`, GHC's `-hc` restriction): in stacks mode, a
    /// closure's stack's innermost one. A cost centre is named by its label
    /// (`go`) or qualified (`Main.go`). Empty: every closure.
    pub only_cc: Vec<String>,
    /// Count only the closures of one of these descriptions
    /// (`--heap-profile-descr`, GHC's `-hd` restriction), as
    /// `--heap-profile=descr` names them. Empty: every closure.
    pub only_descr: Vec<String>,
}

/// Where a heap profile is written as the run goes: the `.hp` text, and
/// the listing of the stacks its stacks-mode bands are named after.
pub struct HeapProfileSink<'w> {
    pub hp: &'w mut dyn Write,
    pub stacks: &'w mut dyn Write,
}

enum Output<'w> {
    /// Kept in memory, for [`HeapProfileSummary::hp_text`].
    Memory {
        hp: Vec<u8>,
        stacks: Vec<u8>,
    },
    Sink(HeapProfileSink<'w>),
}

/// What a heap profile came to, at the end of the run.
#[derive(Debug, Default)]
pub struct HeapProfileSummary {
    /// The `.hp` text, when it was kept in memory ([`crate::machine::run`]).
    pub hp_text: Option<String>,
    /// The stacks listing, likewise (empty outside stacks mode's `cc`).
    pub stacks_text: Option<String>,
    /// Censuses written.
    pub censuses: u64,
    /// Bytes of the `.hp` text and of the stacks listing.
    pub hp_bytes: u64,
    pub stacks_bytes: u64,
    /// Whether the bands are stacks listed in the stacks listing.
    pub lists_stacks: bool,
    /// The step of the census the size budget stopped (none after it was
    /// taken), and the budget.
    pub budget_reached: Option<(u64, u64)>,
    /// The first write that failed (no census was written after it).
    pub error: Option<io::Error>,
    /// The names of `--heap-profile-cc` and `--heap-profile-descr` that no
    /// census found a closure of, with their option's name.
    pub unmatched: Vec<(&'static str, String)>,
    /// Why a retainer or biographical profile stopped early: its side
    /// table would have needed more memory than the heap limit allows a
    /// retainer traversal, or than the system would give a biography
    /// table (no census was taken from then on; the file holds the
    /// censuses before).
    pub side_table_limit: Option<String>,
}

impl HeapProfileSummary {
    /// The warning to show when the size budget stopped the censuses.
    pub fn budget_warning(&self) -> Option<String> {
        let (step, max) = self.budget_reached?;
        Some(format!(
            "the heap profile reached its size limit ({max} bytes, --max-heap-profile) at \
             step {step}: no census was taken from there on; raise --heap-interval to take \
             fewer, or --max-heap-profile to allow more"
        ))
    }

    /// A warning for each restriction name that matched no closure (a name
    /// mistyped, or of nothing that was live at a census).
    pub fn unmatched_warnings(&self) -> Vec<String> {
        self.unmatched
            .iter()
            .map(|(option, name)| {
                let what = if *option == "--heap-profile-cc" {
                    "built under a cost centre of that name (a label, `go`, or qualified, \
                     `Main.go`, as `stg-prof report` shows it)"
                } else {
                    "of that description (as `--heap-profile=descr` names them)"
                };
                format!("{option} {name}: no census found a live closure {what}")
            })
            .collect()
    }
}

/// Which closures a census counts (`--heap-profile-cc`,
/// `--heap-profile-descr`): those that every given list names. A verdict
/// is kept per cost centre (stack) and per description group, so a name
/// is looked up once per group, not per closure.
#[derive(Default)]
struct Restriction {
    cc: Vec<String>,
    descr: Vec<String>,
    /// Closures carry stacks (stacks mode), not cost centres.
    stacks: bool,
    by_cc: HashMap<u32, bool>,
    by_descr: HashMap<u64, bool>,
    /// Whether each name of `cc` and of `descr` has matched a closure.
    cc_seen: Vec<bool>,
    descr_seen: Vec<bool>,
}

impl Restriction {
    fn new(options: &HeapProfileOptions, mode: CostCentreMode) -> Restriction {
        Restriction {
            cc: options.only_cc.clone(),
            descr: options.only_descr.clone(),
            stacks: mode == CostCentreMode::Stacks,
            cc_seen: vec![false; options.only_cc.len()],
            descr_seen: vec![false; options.only_descr.len()],
            ..Restriction::default()
        }
    }

    fn is_none(&self) -> bool {
        self.cc.is_empty() && self.descr.is_empty()
    }

    /// Is the closure at `a` (built under `cc`) counted?
    fn counts(&mut self, w: &World, a: Addr, info: Info, cc: u32) -> bool {
        if !self.cc.is_empty() {
            let kept = match self.by_cc.entry(cc) {
                Entry::Occupied(e) => *e.get(),
                Entry::Vacant(e) => {
                    let top = if self.stacks {
                        w.acct.stacks.node(cc).cc
                    } else {
                        cc
                    };
                    let table = &w.code.cost_centres;
                    let (label, qualified) = (table.name(top), table.qualified(top));
                    *e.insert(mark(&self.cc, &mut self.cc_seen, |n| {
                        n == label || n == qualified
                    }))
                }
            };
            if !kept {
                return false;
            }
        }
        if !self.descr.is_empty() {
            let key = group_key(HeapProfileBy::Descr, w.heap, a, info, cc);
            return match self.by_descr.entry(key) {
                Entry::Occupied(e) => *e.get(),
                Entry::Vacant(e) => {
                    let name = descr(w.code, w.heap, a, info);
                    *e.insert(mark(&self.descr, &mut self.descr_seen, |n| n == name))
                }
            };
        }
        true
    }

    /// The names that matched nothing, with their option.
    fn unmatched(&self) -> Vec<(&'static str, String)> {
        let cc = (self.cc.iter().zip(&self.cc_seen)).map(|(n, s)| ("--heap-profile-cc", n, s));
        let descr =
            (self.descr.iter().zip(&self.descr_seen)).map(|(n, s)| ("--heap-profile-descr", n, s));
        cc.chain(descr)
            .filter(|(_, _, seen)| !**seen)
            .map(|(option, name, _)| (option, name.clone()))
            .collect()
    }
}

/// Whether any of `names` is `hit`, marking in `seen` each that is.
fn mark(names: &[String], seen: &mut [bool], hit: impl Fn(&str) -> bool) -> bool {
    let mut any = false;
    for (name, seen) in names.iter().zip(seen) {
        if hit(name) {
            *seen = true;
            any = true;
        }
    }
    any
}

/// A band: a group of closures as named in the file.
type BandId = u32;

/// What orders the groups first seen in one census (see
/// `HeapProfiler::order_key`).
type OrderKey = (Vec<u32>, String);

/// Takes censuses and writes them out (see the module doc).
pub struct HeapProfiler<'w> {
    by: HeapProfileBy,
    stacks_mode: bool,
    label_length: usize,
    max_bytes: u64,
    out: Output<'w>,
    /// Bytes written so far to each output.
    hp_bytes: u64,
    stacks_bytes: u64,
    censuses: u64,
    last_step: Option<u64>,
    budget_reached: Option<(u64, u64)>,
    error: Option<io::Error>,
    /// The band of each group key seen so far ([`group_key`]).
    band_of: HashMap<u64, BandId>,
    /// Band names, by band id, and the band of each name.
    names: Vec<String>,
    by_name: HashMap<String, BandId>,
    /// One census's bytes per group key, with a closure of the group.
    counts: HashMap<u64, (Addr, Info, u64)>,
    /// The closures counted (`--heap-profile-cc`, `--heap-profile-descr`).
    restriction: Restriction,
    /// A biographical profile's censuses, written at the end: step, bytes
    /// not used yet, bytes used.
    biography: Vec<(u64, u64, u64)>,
    /// Bytes the biographical samples not yet written may take at most.
    biography_bytes: u64,
    /// A retainer profile's sets, numbered for the whole run.
    retainer_sets: RetainerSets,
    /// Why the retainer censuses stopped (see the summary's field).
    side_table_limit: Option<String>,
}

/// What to do when the system would not give a census's side memory.
const REFUSED_ADVICE: &str = "Give the process more memory or address space (ulimit -v), or a \
     smaller --max-heap (the heap reserves its address space at the start)";

impl<'w> HeapProfiler<'w> {
    /// A profile kept in memory (its text is in the summary).
    pub fn in_memory(
        by: HeapProfileBy,
        mode: CostCentreMode,
        options: &HeapProfileOptions,
    ) -> HeapProfiler<'w> {
        HeapProfiler::new(
            by,
            mode,
            options,
            Output::Memory {
                hp: Vec::new(),
                stacks: Vec::new(),
            },
        )
    }

    /// A profile written to `sink` as the run goes.
    pub fn to_sink(
        by: HeapProfileBy,
        mode: CostCentreMode,
        options: &HeapProfileOptions,
        sink: HeapProfileSink<'w>,
    ) -> HeapProfiler<'w> {
        HeapProfiler::new(by, mode, options, Output::Sink(sink))
    }

    fn new(
        by: HeapProfileBy,
        mode: CostCentreMode,
        options: &HeapProfileOptions,
        out: Output<'w>,
    ) -> HeapProfiler<'w> {
        let mut p = HeapProfiler {
            by,
            stacks_mode: mode == CostCentreMode::Stacks && by == HeapProfileBy::CostCentre,
            label_length: match options.label_length {
                0 => DEFAULT_LABEL_LENGTH,
                n => n.clamp(MIN_LABEL_LENGTH, MAX_LABEL_LENGTH),
            },
            max_bytes: match options.max_bytes {
                0 => DEFAULT_MAX_BYTES,
                n => n,
            },
            out,
            hp_bytes: 0,
            stacks_bytes: 0,
            censuses: 0,
            last_step: None,
            budget_reached: None,
            error: None,
            band_of: HashMap::new(),
            names: Vec::new(),
            by_name: HashMap::new(),
            counts: HashMap::new(),
            restriction: Restriction::new(options, mode),
            biography: Vec::new(),
            biography_bytes: 0,
            retainer_sets: RetainerSets::default(),
            side_table_limit: None,
        };
        let header = hp_header(&options.job, &options.date);
        let listing = if p.stacks_mode {
            format!(
                "# The whole cost-centre stacks of the bands of {}.hp: band<TAB>stack\n",
                one_line(&options.job)
            )
        } else {
            String::new()
        };
        p.write(header.as_bytes(), listing.as_bytes());
        p
    }

    /// Whether censuses are still taken (not after the size budget was
    /// reached or a write failed). The engines skip a census's collection
    /// when not.
    pub fn active(&self) -> bool {
        self.budget_reached.is_none() && self.error.is_none() && self.side_table_limit.is_none()
    }

    /// Was the last census taken at `step`? The engines take their final
    /// census only if not: the heap is then the same, and a run that ends
    /// on a census step has one sample there, not two.
    pub fn has_sample_at(&self, step: u64) -> bool {
        self.last_step == Some(step)
    }

    /// A census of the heap as it is (call it right after a collection, so
    /// that only live closures are counted), written out at once. Static
    /// closures are left out, as GHC does; what a CAF evaluates to is
    /// counted. `roots` are the machine's roots (a retainer profile starts
    /// from them; the other kinds do not read them).
    pub fn census(
        &mut self,
        heap: &mut Heap,
        code: &Code,
        acct: &Accounting,
        step: u64,
        roots: &mut dyn Roots,
    ) {
        if !self.active() {
            return;
        }
        if self.by == HeapProfileBy::Biography {
            self.biography_census(heap, code, acct, step);
            return;
        }
        let heap = &*heap;
        let by = self.by;
        let retained = if by == HeapProfileBy::Retainer {
            // The traversal's side memory may take what the copying
            // collector's second old space may: half the heap limit.
            let limit = heap.max_bytes() / 2;
            let mut retainer_of = |_: Addr, info: Info, cc: u32| is_thunk(code, info).then_some(cc);
            match retainer::compute(
                heap,
                roots,
                &mut self.retainer_sets,
                &mut retainer_of,
                limit,
            ) {
                Ok(r) => Some(r),
                Err(e) if e.refused => {
                    self.side_table_limit = Some(format!(
                        "the retainer profile's census at step {step} needed over {} bytes beside \
                         the heap to find the retainers of the live closures, which the system \
                         would not give; no census was taken from there on (the file holds the \
                         {} before). {REFUSED_ADVICE}",
                        e.needed, self.censuses
                    ));
                    return;
                }
                Err(e) => {
                    self.side_table_limit = Some(format!(
                        "the retainer profile's census at step {step} needs more than {} bytes \
                         beside the heap (half of the heap limit, --max-heap={}) to find the \
                         retainers of the live closures; no census was taken from there on (the \
                         file holds the {} before). Raise --max-heap, or profile a smaller input",
                        e.limit,
                        heap.max_bytes(),
                        self.censuses
                    ));
                    return;
                }
            }
        } else {
            None
        };
        let w = World { heap, code, acct };
        let mut counts = std::mem::take(&mut self.counts);
        counts.clear();
        let restricted = !self.restriction.is_none();
        let restriction = &mut self.restriction;
        heap.walk(&mut |a, info, cc| {
            if matches!(info.tag, Tag::Ind | Tag::Forward) || is_static(code, info) {
                return;
            }
            if restricted && !restriction.counts(&w, a, info, cc) {
                return;
            }
            let key = match &retained {
                Some(r) => match r.set_of(a) {
                    // (GHC leaves out a closure its traversal did not reach.)
                    0 => return,
                    s => s as u64,
                },
                None => group_key(by, heap, a, info, cc),
            };
            counts.entry(key).or_insert((a, info, 0)).2 += info.size() as u64 * 8;
        });
        // New groups get their bands in an order that does not depend on
        // the hash map's or on the order stacks were interned in.
        let mut new: Vec<(OrderKey, u64, Addr, Info)> = counts
            .iter()
            .filter(|(k, _)| !self.band_of.contains_key(k))
            .map(|(&k, &(a, info, _))| (self.order_key(&w, k, a, info), k, a, info))
            .collect();
        new.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
        let mut listing = String::new();
        for (_, key, a, info) in new {
            let band = self.new_band(&w, key, a, info, &mut listing);
            self.band_of.insert(key, band);
        }
        let mut lines: Vec<(BandId, u64)> = Vec::with_capacity(counts.len());
        for (key, (_, _, bytes)) in &counts {
            lines.push((self.band_of[key], *bytes));
        }
        self.counts = counts;
        // Groups of one name (descriptions, kinds) are one band.
        lines.sort_unstable();
        lines.dedup_by(|b, a| {
            let same = a.0 == b.0;
            if same {
                a.1 += b.1;
            }
            same
        });
        let mut text = format!("BEGIN_SAMPLE {step}.0\n");
        for (band, bytes) in lines {
            text.push_str(&self.names[band as usize]);
            text.push('\t');
            text.push_str(&bytes.to_string());
            text.push('\n');
        }
        text.push_str(&format!("END_SAMPLE {step}.0\n"));
        let total = self.hp_bytes + self.stacks_bytes + (text.len() + listing.len()) as u64;
        if total > self.max_bytes {
            self.budget_reached = Some((step, self.max_bytes));
            return;
        }
        self.write(text.as_bytes(), listing.as_bytes());
        if self.error.is_none() {
            self.censuses += 1;
            self.last_step = Some(step);
        }
    }

    /// A biographical census: the bytes of the counted closures not used
    /// yet and used, kept until the end of the run says which were void
    /// and which drag.
    fn biography_census(&mut self, heap: &mut Heap, code: &Code, acct: &Accounting, step: u64) {
        // The sample's text at its longest (four bands of 20 digits).
        let bound = (2 * format!("BEGIN_SAMPLE {step}.0\n").len() + 4 * (5 + 20 + 1)) as u64;
        if self.hp_bytes + self.stacks_bytes + self.biography_bytes + bound > self.max_bytes {
            self.budget_reached = Some((step, self.max_bytes));
            return;
        }
        let Some(mut lives) = heap.take_biographies() else {
            return;
        };
        if let Some(bytes) = lives.gave_up() {
            heap.put_biographies(Some(lives));
            self.biography_gave_up(bytes);
            return;
        }
        let (mut not_used, mut used) = (0u64, 0u64);
        {
            let heap = &*heap;
            let w = World { heap, code, acct };
            let restriction = &mut self.restriction;
            heap.walk(&mut |a, info, cc| {
                if matches!(info.tag, Tag::Ind | Tag::Forward) || is_static(code, info) {
                    return;
                }
                let bytes = info.size() as u64 * 8;
                match lives.census_sees(a, || restriction.counts(&w, a, info, cc)) {
                    Some(Phase::NotUsed) => not_used += bytes,
                    Some(Phase::Used) => used += bytes,
                    None => {}
                }
            });
        }
        lives.next_era();
        heap.put_biographies(Some(lives));
        self.biography.push((step, not_used, used));
        self.biography_bytes += bound;
        self.censuses += 1;
        self.last_step = Some(step);
    }

    /// The biographies' table needed `bytes` the system would not give
    /// (`crate::gc::biography`): say so, and take no census from now on.
    fn biography_gave_up(&mut self, bytes: u64) {
        if self.side_table_limit.is_some() {
            return;
        }
        self.side_table_limit = Some(format!(
            "the biographical profile's table beside the heap (4 bytes a heap word in use) \
             needed {bytes} bytes, which the system would not give; no census was taken from \
             there on (the file holds the {} before, their closures' phases settled as if the \
             run had ended there). {REFUSED_ADVICE}",
            self.censuses
        ));
    }

    /// A biographical profile's samples, written at the end of the run:
    /// every closure still live dies now, which settles the last phases.
    /// As GHC's `-hb`: `LAG` is what was not used yet and will be, `VOID`
    /// what never is, `USE` what was used and will be again, `DRAG` what
    /// was used for the last time.
    fn write_biography(&mut self, heap: &mut Heap) {
        let Some(mut lives) = heap.take_biographies() else {
            return;
        };
        if let Some(bytes) = lives.gave_up() {
            self.biography_gave_up(bytes);
        }
        heap.walk(&mut |a, info, _| lives.dies_now(a, info.size() as u64 * 8));
        let totals = lives.totals_at_end();
        heap.put_biographies(Some(lives));
        let samples = std::mem::take(&mut self.biography);
        for ((step, not_used, used), (void, drag)) in samples.into_iter().zip(totals) {
            let bytes = [
                void,
                not_used.saturating_sub(void),
                used.saturating_sub(drag),
                drag,
            ];
            let mut text = format!("BEGIN_SAMPLE {step}.0\n");
            for (band, bytes) in BIOGRAPHY_BANDS.iter().zip(bytes) {
                text.push_str(&format!("{band}\t{bytes}\n"));
            }
            text.push_str(&format!("END_SAMPLE {step}.0\n"));
            self.write(text.as_bytes(), b"");
        }
    }

    /// What orders new groups: a stack's cost centres from the outside
    /// in, a cost centre's id, or the name of a kind or description (the
    /// closures of one name may differ between the engines: a value may be
    /// a constructor in one and the lambda that built it in the other).
    fn order_key(&self, w: &World, key: u64, a: Addr, info: Info) -> OrderKey {
        match self.by {
            HeapProfileBy::CostCentre if self.stacks_mode => {
                (w.acct.stacks.elements(key as u32), String::new())
            }
            HeapProfileBy::CostCentre => (vec![key as u32], String::new()),
            HeapProfileBy::Kind => (Vec::new(), kind(w.code, info).to_string()),
            HeapProfileBy::Descr => (Vec::new(), descr(w.code, w.heap, a, info)),
            HeapProfileBy::Retainer => {
                let members = self.retainer_members(w, key as SetId);
                let mut order = Vec::new();
                let mut labels = String::new();
                for (label, elements) in members {
                    labels.push_str(&label);
                    labels.push('\0');
                    order.extend(elements);
                    order.push(u32::MAX);
                }
                (order, labels)
            }
            HeapProfileBy::Biography => (Vec::new(), String::new()),
        }
    }

    /// The retainers of a set, each as its label (a cost centre's, a
    /// stack's innermost one's, or `SYSTEM`) and what tells it apart from
    /// the others of that label in both engines (a stack's cost centres
    /// from the outside in, a cost centre's number; none for `SYSTEM`),
    /// in that order: GHC orders a set's members by address.
    fn retainer_members(&self, w: &World, set: SetId) -> Vec<(String, Vec<u32>)> {
        let table = &w.code.cost_centres;
        let mut members: Vec<(String, Vec<u32>)> = self
            .retainer_sets
            .members(set)
            .iter()
            .map(|&r| {
                if r == SYSTEM {
                    ("SYSTEM".to_string(), Vec::new())
                } else if self.restriction.stacks {
                    let top = w.acct.stacks.node(r).cc;
                    (table.name(top).to_string(), w.acct.stacks.elements(r))
                } else {
                    (table.name(r).to_string(), vec![r])
                }
            })
            .collect();
        members.sort();
        members
    }

    /// The band for a group seen for the first time; a stack's whole name
    /// goes to `listing`.
    fn new_band(
        &mut self,
        w: &World,
        key: u64,
        a: Addr,
        info: Info,
        listing: &mut String,
    ) -> BandId {
        let (code, acct) = (w.code, w.acct);
        let table = &code.cost_centres;
        let next = self.names.len() as BandId;
        let name = match self.by {
            HeapProfileBy::Kind => kind(code, info).to_string(),
            HeapProfileBy::Descr => descr(code, w.heap, a, info),
            HeapProfileBy::CostCentre if self.stacks_mode => {
                let elements = acct.stacks.elements(key as u32);
                let name = stack_band_name(&elements, next + 1, table, self.label_length);
                let whole = stack_band_name(&elements, next + 1, table, usize::MAX);
                listing.push_str(&hp_name(&name));
                listing.push('\t');
                listing.push_str(&one_line(&whole));
                listing.push('\n');
                name
            }
            HeapProfileBy::CostCentre => acct.name(key as u32, table),
            HeapProfileBy::Retainer => {
                let labels: Vec<String> = self
                    .retainer_members(w, key as SetId)
                    .into_iter()
                    .map(|(label, _)| label)
                    .collect();
                retainer_set_name(next + 1, &labels, self.label_length)
            }
            HeapProfileBy::Biography => String::new(),
        };
        let name = hp_name(&name);
        // Descriptions and kinds of one name are one band; cost centres
        // (whose names may meet once made readable by hp2ps) never.
        let merge = matches!(self.by, HeapProfileBy::Kind | HeapProfileBy::Descr);
        let mut unique = name.clone();
        let mut n = 1;
        loop {
            match self.by_name.entry(unique) {
                Entry::Occupied(e) if merge => return *e.get(),
                Entry::Occupied(_) => {
                    n += 1;
                    unique = format!("{name}~{n}");
                }
                Entry::Vacant(e) => {
                    self.names.push(e.key().clone());
                    e.insert(next);
                    return next;
                }
            }
        }
    }

    /// Writes to both outputs, counting bytes; the first failure is kept
    /// and stops the profile.
    fn write(&mut self, hp: &[u8], stacks: &[u8]) {
        if self.error.is_some() {
            return;
        }
        let result = match &mut self.out {
            Output::Memory { hp: h, stacks: s } => {
                h.extend_from_slice(hp);
                s.extend_from_slice(stacks);
                Ok(())
            }
            Output::Sink(sink) => sink
                .hp
                .write_all(hp)
                .and_then(|_| sink.stacks.write_all(stacks)),
        };
        match result {
            Ok(()) => {
                self.hp_bytes += hp.len() as u64;
                self.stacks_bytes += stacks.len() as u64;
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// Writes what is left (a biographical profile's samples), flushes
    /// the outputs and says what was written.
    pub fn finish(mut self, heap: &mut Heap) -> HeapProfileSummary {
        if self.by == HeapProfileBy::Biography {
            self.write_biography(heap);
        }
        let (hp_text, stacks_text) = match &mut self.out {
            Output::Memory { hp, stacks } => (
                Some(String::from_utf8_lossy(hp).into_owned()),
                Some(String::from_utf8_lossy(stacks).into_owned()),
            ),
            Output::Sink(sink) => {
                if self.error.is_none()
                    && let Err(e) = sink.hp.flush().and_then(|_| sink.stacks.flush())
                {
                    self.error = Some(e);
                }
                (None, None)
            }
        };
        HeapProfileSummary {
            hp_text,
            stacks_text,
            censuses: self.censuses,
            hp_bytes: self.hp_bytes,
            stacks_bytes: self.stacks_bytes,
            lists_stacks: self.stacks_mode,
            budget_reached: self.budget_reached,
            error: self.error,
            unmatched: self.restriction.unmatched(),
            side_table_limit: self.side_table_limit,
        }
    }
}

/// What a census reads: the heap, the code and the cost centres.
struct World<'c> {
    heap: &'c Heap,
    code: &'c Code,
    acct: &'c Accounting,
}

/// Is this one of the top-level bindings' static closures (not counted)?
fn is_static(code: &Code, info: Info) -> bool {
    matches!(info.tag, Tag::Lambda | Tag::BlackHole | Tag::Entered)
        && code
            .lambdas
            .get(info.index as usize)
            .is_some_and(|l| l.top_level)
}

/// The group a closure is counted in, as a number: its cost centre or
/// stack, or (kinds and descriptions, named from it) what names it: its
/// tag and index, a partial application's function, one group for every
/// black hole's description.
fn group_key(by: HeapProfileBy, heap: &Heap, a: Addr, info: Info, cc: u32) -> u64 {
    let pack = |tag: Tag, index: u32| ((tag as u64) << 32) | index as u64;
    match (by, info.tag) {
        (HeapProfileBy::CostCentre, _) => cc as u64,
        (HeapProfileBy::Descr, Tag::Pap) => {
            pack(Tag::Pap, pap_function(heap, a).unwrap_or(u32::MAX))
        }
        (HeapProfileBy::Descr, Tag::BlackHole | Tag::Entered) => pack(Tag::BlackHole, 0),
        (_, tag) => pack(tag, info.index),
    }
}

/// The `.hp` header. `job` is the program's name; `date` is free text.
fn hp_header(job: &str, date: &str) -> String {
    format!(
        "JOB \"{}\"\nDATE \"{}\"\nSAMPLE_UNIT \"steps\"\nVALUE_UNIT \"bytes\"\n",
        one_line(job).replace('"', "'"),
        one_line(date).replace('"', "'")
    )
}

/// A band name as `hp2ps` reads one: a name runs to the first white space,
/// one that begins with a digit or `"` reads as a number or a string, and
/// the format's keywords are keywords. So white space and control
/// characters become `_`, such a first character gets a `_` before it, a
/// keyword one after it, and a name longer than [`MAX_NAME_BYTES`] is cut
/// with `...`. Other names are left as they are.
pub fn hp_name(name: &str) -> String {
    const KEYWORDS: [&str; 7] = [
        "JOB",
        "DATE",
        "SAMPLE_UNIT",
        "VALUE_UNIT",
        "MARK",
        "BEGIN_SAMPLE",
        "END_SAMPLE",
    ];
    let mut out = String::with_capacity(name.len() + 1);
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit() || c == '"') {
        out.push('_');
    }
    for c in name.chars() {
        if out.len() + c.len_utf8() > MAX_NAME_BYTES - 3 {
            out.push_str("...");
            break;
        }
        out.push(if c.is_whitespace() || c.is_control() {
            '_'
        } else {
            c
        });
    }
    if KEYWORDS.contains(&out.as_str()) {
        out.push('_');
    }
    out
}

/// A stacks-mode band name as GHC's RTS writes one for `-hc`
/// (`fprint_ccs` in rts/ProfHeap.c): the stack `MAIN` alone is `MAIN`;
/// any other is `(n)` followed by its cost centres from the innermost
/// out, `MAIN` left out, separated by `/`, each by its label alone but a
/// `CAF` as `Module.CAF`. When the name (not counting `(n)`) would reach
/// `max + 1` bytes, it is cut to `max - 4` bytes and `...` is added
/// (cut at a character boundary where a label is not ASCII). So a name
/// is at most `max` bytes, and at most `max - 1` when cut.
pub fn stack_band_name(elements: &[u32], n: u32, table: &CostCentreTable, max: usize) -> String {
    use crate::profile::cost_centre::MAIN_CC;
    if elements == [MAIN_CC] {
        return "MAIN".to_string();
    }
    let inner_out: Vec<u32> = elements
        .iter()
        .rev()
        .copied()
        .take_while(|&c| c != MAIN_CC)
        .collect();
    let mut buf = String::new();
    let end = max.saturating_add(1);
    for (i, &cc) in inner_out.iter().enumerate() {
        let label = table.name(cc);
        if label == "CAF" {
            let module = table
                .cost_centres
                .get(cc as usize - 1)
                .and_then(|d| table.modules.get(d.module as usize - 1))
                .map_or("?", |m| m.as_str());
            buf.push_str(module);
            buf.push_str(".CAF");
        } else {
            buf.push_str(label);
        }
        // (GHC puts no `/` after a `CAF`, which is outermost in its stacks;
        // here too, but for a stack that goes on, the `/` keeps it readable.)
        if i + 1 < inner_out.len() {
            buf.push('/');
        }
        if buf.len() >= end {
            let mut cut = max.saturating_sub(4);
            while !buf.is_char_boundary(cut) {
                cut -= 1;
            }
            buf.truncate(cut);
            buf.push_str("...");
            break;
        }
    }
    format!("({n}){buf}")
}

/// A retainer set's band name as GHC's RTS writes one for `-hr`
/// (`printRetainerSetShort` in rts/RetainerSet.c): `(n)` followed by the
/// retainers' labels separated by commas, the whole cut to `max` bytes
/// (at a character boundary), `(n)` counted and no `...` added; `(n)` is
/// kept whole however small `max` is.
pub fn retainer_set_name(n: u32, labels: &[String], max: usize) -> String {
    let mut name = format!("({n})");
    let max = max.max(name.len());
    name.push_str(&labels.join(","));
    if name.len() > max {
        let mut cut = max;
        while !name.is_char_boundary(cut) {
            cut -= 1;
        }
        name.truncate(cut);
    }
    name
}

/// A `.hp` header's DATE for `secs` seconds since the Unix epoch, as GHC
/// writes it (`Tue Nov 24 08:16 2026`), in UTC. Short, so that it fits
/// `hp2ps`'s title bar beside the job's name and the total.
pub fn hp_date(secs: u64) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let days = secs / 86_400;
    let (minute, hour) = (secs / 60 % 60, secs / 3600 % 24);
    // The civil date of a day number (Howard Hinnant's days_from_civil,
    // inverted), for days since 1970-01-01, which was a Thursday.
    let z = days + 719_468;
    let (era, doe) = (z / 146_097, z % 146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    format!(
        "{} {} {day:02} {hour:02}:{minute:02} {year}",
        DAYS[(days % 7) as usize],
        MONTHS[(month - 1) as usize]
    )
}

/// Is the closure a thunk (an updatable or single-entry closure of no
/// arguments, not yet entered)? Thunks are the retainers of a retainer
/// profile, as in GHC (whose black holes are not).
pub fn is_thunk(code: &Code, info: Info) -> bool {
    kind(code, info) == "THUNK"
}

/// Kind of a closure: `CON`, `FUN`, `PAP`, `THUNK`, `BLACKHOLE`.
pub fn kind(code: &Code, info: Info) -> &'static str {
    match info.tag {
        Tag::Con => "CON",
        Tag::Pap => "PAP",
        Tag::BlackHole | Tag::Entered => "BLACKHOLE",
        Tag::Lambda => match code.lambdas.get(info.index as usize) {
            Some(l) if l.arity > 0 => "FUN",
            Some(l) if l.flag == Flag::Reentrant => "CON",
            _ => "THUNK",
        },
        Tag::Ind | Tag::Forward => "IND",
    }
}

/// A closure's description (`--heap-profile=descr`, GHC's `-hd`): a
/// constructor by its name (also a `\r {}` binding that builds one), a
/// thunk or function by its binding's qualified name (`Prelude.foldl.acc`,
/// `queens.extend.safes`), a partial application by `PAP` and its
/// function's (`PAP(Prelude.map)`), a thunk under evaluation (or an
/// entered `\s` closure) as `BLACKHOLE`, as GHC's `-hd` shows it.
pub fn descr(code: &Code, heap: &Heap, a: Addr, info: Info) -> String {
    match info.tag {
        Tag::Con => code.con_name(info.index).to_string(),
        Tag::Pap => match pap_function(heap, a) {
            Some(f) => format!("PAP({})", lambda_name(code, f)),
            None => "PAP".to_string(),
        },
        Tag::BlackHole | Tag::Entered => "BLACKHOLE".to_string(),
        Tag::Ind | Tag::Forward => "IND".to_string(),
        Tag::Lambda => match built_constructor(code, info.index) {
            Some(con) => con.to_string(),
            None => lambda_name(code, info.index),
        },
    }
}

/// The lambda a partial application applies (its payload's first word).
fn pap_function(heap: &Heap, a: Addr) -> Option<u32> {
    let Value::Ptr(f) = heap.payload(a, 0) else {
        return None;
    };
    heap.info(heap.deref(f))
        .filter(|i| i.tag == Tag::Lambda)
        .map(|i| i.index)
}

/// A lambda's binding, qualified by its module: `Prelude.foldl.acc`.
fn lambda_name(code: &Code, lambda: u32) -> String {
    match code.lambdas.get(lambda as usize) {
        Some(l) => match code.modules.get(l.module as usize) {
            Some(m) => format!("{m}.{}", l.name),
            None => l.name.clone(),
        },
        None => format!("<lambda {lambda}>"),
    }
}

/// The constructor a `\r {}` binding builds (looking through `scc`s), if
/// that is what its body does: such a closure is a constructor value.
fn built_constructor(code: &Code, lambda: u32) -> Option<&str> {
    let l = code.lambdas.get(lambda as usize)?;
    if l.arity > 0 || l.flag != Flag::Reentrant {
        return None;
    }
    let mut e = l.body;
    // (Nesting is bounded by the front end's limits; the count is a guard.)
    for _ in 0..100_000 {
        match &code.expr(e).code {
            ExprCode::Scc { body, .. } => e = *body,
            ExprCode::Con { con, .. } => return Some(code.con_name(*con)),
            _ => return None,
        }
    }
    None
}

#[cfg(test)]
mod retainer_name_tests {
    use super::retainer_set_name;

    fn labels(l: &[&str]) -> Vec<String> {
        l.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn names_read_as_ghcs_printretainersetshort_writes_them() {
        // As in GHC 9.0.2's -hr of tests/ghc/heap/foldl_leak.
        let name = retainer_set_name(116, &labels(&["CAF", "CAF", "SYSTEM"]), 25);
        assert_eq!(name, "(116)CAF,CAF,SYSTEM");
        // Cut to the length in all, `(n)` counted, with no `...`.
        let long = labels(&["Main.a_long_label", "SYSTEM"]);
        assert_eq!(retainer_set_name(3, &long, 25), "(3)Main.a_long_label,SYST");
        assert_eq!(retainer_set_name(3, &long, 25).len(), 25);
        // `(n)` is kept whole; a cut falls on a character boundary.
        assert_eq!(retainer_set_name(1234, &long, 4), "(1234)");
        assert_eq!(retainer_set_name(1, &labels(&["ééé"]), 6), "(1)é");
    }
}

#[cfg(test)]
mod date_tests {
    use super::hp_date;

    #[test]
    fn dates_read_as_ghc_writes_them() {
        assert_eq!(hp_date(0), "Thu Jan 01 00:00 1970");
        // 2026-11-24 08:14:48 UTC, a Tuesday.
        assert_eq!(hp_date(1_795_508_088), "Tue Nov 24 08:14 2026");
        // A leap day, and the last minute of a century's leap year.
        assert_eq!(hp_date(951_782_400), "Tue Feb 29 00:00 2000");
        assert_eq!(hp_date(978_307_199), "Sun Dec 31 23:59 2000");
    }
}
