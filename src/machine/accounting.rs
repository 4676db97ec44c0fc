//! Cost accounting shared by the engines: the entry (cost centre or stack)
//! table, the counters of every entry, the stacks-mode operations the rules
//! use, and building the [`Profile`] at the end. An engine keeps only the
//! current entry (a `u32`) and calls these at the points the rules say.

use crate::machine::CostCentreMode;
use crate::profile::cost_centre::{CcId, CostCentreTable, MAIN_CC};
use crate::profile::stacks::{EMPTY, StackTree};
use crate::profile::{Counters, Entry, Profile};

pub struct Accounting {
    pub mode: CostCentreMode,
    pub stacks: StackTree,
    counters: Vec<Counters>,
    /// `MAIN` (flat) or the stack `MAIN` (stacks mode): current at the start
    /// and while the result is printed.
    pub main_entry: u32,
    /// Stacks mode: the over-saturated calls not yet finished, innermost
    /// last: the height of the argument stack above the call's surplus
    /// arguments and the caller's stack (see [`Accounting::call`]).
    oversaturated: Vec<(usize, u32)>,
}

impl Accounting {
    pub fn new(mode: CostCentreMode) -> Accounting {
        let mut stacks = StackTree::new();
        let main_entry = match mode {
            CostCentreMode::Flat => MAIN_CC,
            CostCentreMode::Stacks => stacks.child(EMPTY, MAIN_CC),
        };
        Accounting {
            mode,
            stacks,
            counters: Vec::new(),
            main_entry,
            oversaturated: Vec::new(),
        }
    }

    /// The counters of an entry. Every charge goes through here (in stacks
    /// mode with `--auto-cc=all`, about one charge every eight steps), so
    /// the common case, an entry met before, is one compare and an index;
    /// growing the table is out of line.
    #[inline(always)]
    pub fn ctr(&mut self, e: u32) -> &mut Counters {
        let i = e as usize;
        if i < self.counters.len() {
            &mut self.counters[i]
        } else {
            self.grow_counters(i)
        }
    }

    #[cold]
    #[inline(never)]
    fn grow_counters(&mut self, i: usize) -> &mut Counters {
        self.counters.resize(i + 1, Counters::default());
        &mut self.counters[i]
    }

    pub fn counters_of(&self, e: u32) -> Counters {
        self.counters.get(e as usize).copied().unwrap_or_default()
    }

    /// `Module.cc` (flat) or `MAIN > Module.cc > …` (stacks), for messages.
    pub fn name(&self, e: u32, table: &CostCentreTable) -> String {
        match self.mode {
            CostCentreMode::Flat => table.qualified(e),
            CostCentreMode::Stacks => self.stacks.render(e, &|c| table.qualified(c)),
        }
    }

    /// Stacks mode: make the stack `MAIN > CAF` of every module that has
    /// none yet, so that each is in the profile (SEMANTICS.md: "each module
    /// has a `CAF` cost centre ... Those built-ins are in every profile"),
    /// also for a module of functions only, whose closures carry the empty
    /// stack and would never make it. GHC's profile likewise has
    /// `MAIN > CAF M` for every module. Flat mode declares every cost centre
    /// already.
    pub fn make_caf_stacks(&mut self, table: &CostCentreTable) {
        if self.mode == CostCentreMode::Stacks {
            self.stacks.set_cafs(&table.cafs);
            for &caf in &table.cafs {
                self.stacks.child(self.main_entry, caf);
            }
        }
    }

    /// The entry a top-level closure of `module` carries: `CAF` of its module
    /// (flat); the empty stack for a function, `MAIN > CAF` otherwise (stacks).
    pub fn static_entry(
        &mut self,
        table: &CostCentreTable,
        module: usize,
        is_function: bool,
    ) -> u32 {
        let caf = table.cafs.get(module).copied().unwrap_or(MAIN_CC);
        match self.mode {
            CostCentreMode::Flat => caf,
            CostCentreMode::Stacks if is_function => EMPTY,
            CostCentreMode::Stacks => self.stacks.child(self.main_entry, caf),
        }
    }

    /// Entering a function (rule 2, n ≥ 1) or applying a partial
    /// application whose captured entry is `captured`: stacks mode appends
    /// it to `current`; flat mode changes nothing.
    pub fn enter_function(&mut self, current: u32, captured: u32) -> u32 {
        match self.mode {
            CostCentreMode::Flat => current,
            CostCentreMode::Stacks => self.stacks.append(current, captured),
        }
    }

    /// Applying a partial application of `args` arguments that captured
    /// `captured`, of a function that captured `fun`: stacks mode appends
    /// `captured` to `current` (SEMANTICS.md), except when it is the
    /// function's own stack, which entering the function appends next
    /// anyway. GHC appends such a stack once: with no arguments
    /// `stg_ap_0_fast` returns the function itself rather than a partial
    /// application when the current stack is the function's, and at `-O0`
    /// it builds no partial application of a local function under the stack
    /// the function was built under. Appending it twice ends on the same
    /// stack but passes through nodes GHC never makes (twins `zpap_min`,
    /// `zpap_args`, `append_cutback`). Flat mode changes nothing.
    pub fn apply_pap(&mut self, current: u32, captured: u32, fun: u32) -> u32 {
        if captured == fun {
            current
        } else {
            self.enter_function(current, captured)
        }
    }

    /// Stacks mode: the stack to enter a function (rule 2) under, before
    /// the function's own stack is appended, given the argument stack's
    /// height `args`, the height `floor` below which its arguments are not
    /// visible, the number of arguments the function takes (`needed`; for a
    /// partial application, those it still lacks) and the function's own
    /// stack `fun`.
    ///
    /// GHC applies an over-saturated call `f a b` (f of arity 1) as
    /// "call `f a`, then apply its result to `b`" and saves the caller's
    /// stack around the first part (`stg_restore_cccs`, `Note
    /// [jump_SAVE_CCCS]` in GHC's genapply): the result is applied under
    /// the *caller's* stack. The machine has no such point: `b` stays on the
    /// argument stack and whatever function `f`'s body calls with too few
    /// arguments of its own takes it. So entering a function with more
    /// arguments than it takes records the caller's stack and the height
    /// above the surplus; a later entry that needs arguments from below
    /// that height finishes the call as GHC does: the current stack becomes
    /// the caller's with the stack current at that point appended, as when
    /// a partial application built there is applied (GHC returns one:
    /// built by the under-saturated call, or by `stg_ap_0` around a function
    /// value), by [`Accounting::apply_pap`]. This differs from leaving the
    /// stack alone only when `f`'s stack was cut back by recursion, or was
    /// not an extension of the caller's (tests/ghc twins `oversat_min`,
    /// `oversat_scc`, `oversat_fun`, `state_cps`, `cps_fold`). Flat mode
    /// changes nothing.
    pub fn call(
        &mut self,
        current: u32,
        args: usize,
        floor: usize,
        needed: usize,
        fun: u32,
    ) -> u32 {
        if self.mode != CostCentreMode::Stacks || args < floor + needed {
            return current;
        }
        // `saved`: the stack the application is made under, which a call
        // it begins saves; after finishing a call, the caller's (GHC's
        // `stg_restore_cccs` has restored it when the apply frame applies
        // the returned function).
        let (mut current, mut saved) = (current, current);
        loop {
            let own = args.saturating_sub(self.active_top(floor));
            // With no active call `own` is all `args - floor >= needed`.
            if own >= needed {
                if own > needed {
                    self.oversaturated.push((args - needed, saved));
                }
                return current;
            }
            let (_, caller) = self.oversaturated.pop().expect("an active call");
            current = self.apply_pap(caller, current, fun);
            saved = caller;
        }
    }

    /// The height above which a function entered now finds its own
    /// arguments: the innermost active over-saturated call's surplus
    /// height, if it lies above `floor`, else `floor`.
    fn active_top(&self, floor: usize) -> usize {
        match self.oversaturated.last() {
            Some(&(h, _)) if h > floor => h,
            _ => floor,
        }
    }

    /// Rule 17a in stacks mode, before its continuation applies the
    /// partial application it has built: the application is made under
    /// `saved` (the frame's stack, before the partial application's stack
    /// is appended), so an over-saturated call it begins saves `saved`, as
    /// GHC's apply code saves the current stack before it enters a partial
    /// application (`stg_PAP_apply`'s `enterFunCCS` comes after the
    /// `stg_restore_cccs` frame is pushed). `needed` is the arguments the
    /// function takes; `args` and `floor` as for [`Accounting::call`], which
    /// the entry then makes and which finds nothing more to record. A call
    /// that must first finish an active one is left to it.
    pub fn call_after_update(&mut self, saved: u32, args: usize, floor: usize, needed: usize) {
        if self.mode != CostCentreMode::Stacks || args < floor + needed {
            return;
        }
        if args.saturating_sub(self.active_top(floor)) > needed {
            self.oversaturated.push((args - needed, saved));
        }
    }

    /// Rule 17a′: a function short of arguments returns to a restore
    /// frame. Over-saturated calls begun inside the frame's evaluation
    /// (their surplus above `floor`) end there: GHC's restore and apply
    /// frames of such a call lie above the frame and have run when the
    /// value reaches it, so they must not apply to the arguments the
    /// function meets after the frame. (Rule 17a ends them by
    /// [`Accounting::end_calls_for_pap`], which also says what they do to
    /// the partial application it builds.)
    pub fn end_calls_above(&mut self, floor: usize) {
        while self.oversaturated.last().is_some_and(|&(h, _)| h > floor) {
            self.oversaturated.pop();
        }
    }

    /// Rule 17a in stacks mode: the stack the partial application captures,
    /// when the function `fun` (its own stack) meets the frame under the
    /// evaluating stack `current`, ending the over-saturated calls begun
    /// inside the frame (innermost first). GHC: the value returns to each
    /// call's `stg_restore_cccs` frame, which restores the caller's stack,
    /// then the apply frame builds a partial application of the surplus:
    /// `BUILD_PAP` under the caller's stack for a function returned under
    /// its own stack (`stg_ap_0` returns it as it is), `NEW_PAP`
    /// (`enterFunCCS(caller, old)`) for a partial application (`stg_ap_0`
    /// has stamped any other function value with `current`).
    pub fn end_calls_for_pap(&mut self, floor: usize, current: u32, fun: u32) -> u32 {
        let mut ev = current;
        let mut own = fun == current;
        while let Some(&(h, caller)) = self.oversaturated.last() {
            if h <= floor {
                break;
            }
            self.oversaturated.pop();
            ev = if own {
                caller
            } else {
                self.enter_function(caller, ev)
            };
            own = false;
        }
        ev
    }

    /// `scc l` in stacks mode: `push(current, l)`. (Flat mode's frame is the
    /// engine's business; the new entry is `l`.)
    pub fn scc(&mut self, current: u32, l: CcId) -> u32 {
        match self.mode {
            CostCentreMode::Flat => l,
            CostCentreMode::Stacks => self.stacks.push(current, l),
        }
    }

    /// The profile: flat: root `MAIN`, children every other cost centre with
    /// any cost or count, in id order; stacks: the tree of stacks under
    /// `MAIN`, children in cost-centre-id order. Entries in pre-order.
    pub fn profile(&self, table: &CostCentreTable, frequency: u64) -> Profile {
        let mut p = empty_profile(table);
        p.frequency = frequency;
        match self.mode {
            CostCentreMode::Flat => {
                p.entries[0].counters = self.counters_of(MAIN_CC);
                for cc in 2..=table.len() as u32 {
                    let c = self.counters_of(cc);
                    if c != Counters::default() {
                        let i = p.entries.len() as u32;
                        p.entries[0].children.push(i);
                        p.entries.push(Entry {
                            cost_centre: cc,
                            counters: c,
                            children: vec![],
                        });
                    }
                }
            }
            CostCentreMode::Stacks => {
                let children = self.stacks.children();
                // Pre-order numbering with an explicit stack.
                let mut order = Vec::new();
                let mut work = vec![self.main_entry];
                while let Some(s) = work.pop() {
                    order.push(s);
                    for &c in children[s as usize].iter().rev() {
                        work.push(c);
                    }
                }
                let mut index = vec![u32::MAX; self.stacks.len()];
                for (i, &s) in order.iter().enumerate() {
                    index[s as usize] = i as u32;
                }
                p.entries = order
                    .iter()
                    .map(|&s| Entry {
                        cost_centre: self.stacks.node(s).cc,
                        counters: self.counters_of(s),
                        children: children[s as usize]
                            .iter()
                            .map(|&c| index[c as usize])
                            .collect(),
                    })
                    .collect();
            }
        }
        p
    }
}

/// A profile with every cost centre and a zero root.
pub fn empty_profile(table: &CostCentreTable) -> Profile {
    Profile {
        frequency: 0,
        overhead: 0,
        modules: table.modules.clone(),
        cost_centres: table.cost_centres.clone(),
        entries: vec![Entry {
            cost_centre: MAIN_CC,
            counters: Counters::default(),
            children: vec![],
        }],
    }
}
