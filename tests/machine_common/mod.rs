//! Shared helpers for the machine tests: load a program from text, run it.
#![allow(dead_code)]

use stg_run::internal::machine::{self, CostCentreMode, RunOptions, RunResult, TraceFormat};
use stg_run::internal::stg::auto_cc::{self, AutoCc};
use stg_run::internal::stg::load::load;
use stg_run::internal::stg::source::SourceMap;

pub struct Ran {
    pub out: String,
    pub trace: String,
    pub result: RunResult,
}

pub fn run_text(name: &str, text: &str, prelude: bool, auto: AutoCc, options: &RunOptions) -> Ran {
    let mut sources = SourceMap::new();
    let mut loaded = match load(
        &mut sources,
        &[(name.to_string(), text.to_string())],
        prelude,
    ) {
        Ok(l) => l,
        Err(d) => panic!("{name} does not load: {d:?}"),
    };
    auto_cc::apply(&mut loaded.program, auto);
    let mut out = Vec::new();
    let mut trace = Vec::new();
    let result = machine::run(&loaded.program, &sources, options, &mut out, &mut trace);
    Ran {
        out: String::from_utf8(out).unwrap(),
        trace: String::from_utf8(trace).unwrap(),
        result,
    }
}

pub fn flat() -> RunOptions {
    RunOptions {
        reproducible: true,
        ..Default::default()
    }
}

pub fn stacks() -> RunOptions {
    RunOptions {
        cost_centres: CostCentreMode::Stacks,
        reproducible: true,
        ..Default::default()
    }
}

pub fn traced() -> RunOptions {
    RunOptions {
        trace: Some(TraceFormat::Text),
        reproducible: true,
        ..Default::default()
    }
}

/// Run without the Prelude, tracing, and return output + trace + error.
pub fn trace_of(text: &str) -> String {
    let r = run_text("t.stg", text, false, AutoCc::None, &traced());
    let mut s = r.trace;
    s.push_str(&format!("output: {:?}\n", r.out));
    if let Some(e) = &r.result.error {
        s.push_str(&format!("error: {e}\n"));
    }
    s
}

/// Flat counters of a named cost centre (module-qualified lookup by name).
pub fn flat_counters(r: &RunResult, name: &str) -> stg_run::internal::profile::Counters {
    let p = &r.profile;
    for e in &p.entries {
        if p.cost_centres[e.cost_centre as usize - 1].name == name {
            return e.counters;
        }
    }
    Default::default()
}

/// Whether entry `i` of the profile is of a cost centre of the Prelude
/// (under `MAIN`: the Prelude's `CAF`, which every stacks-mode profile has).
pub fn in_prelude(p: &stg_run::internal::profile::Profile, i: u32) -> bool {
    let cc = &p.cost_centres[p.entries[i as usize].cost_centre as usize - 1];
    p.modules[cc.module as usize - 1] == "Prelude"
}

/// Counters of the stack `path` (names from the root `MAIN`), if present.
pub fn stack_counters(
    r: &RunResult,
    path: &[&str],
) -> Option<stg_run::internal::profile::Counters> {
    let p = &r.profile;
    let name = |i: u32| {
        p.cost_centres[p.entries[i as usize].cost_centre as usize - 1]
            .name
            .as_str()
    };
    if path.first() != Some(&"MAIN") || name(0) != "MAIN" {
        return None;
    }
    // Every module has a `CAF` node under `MAIN`: the Prelude's (which no
    // path here means) is passed over for the program's.
    let mut cur = 0u32;
    for step in &path[1..] {
        let children = &p.entries[cur as usize].children;
        cur = *children
            .iter()
            .find(|&&c| name(c) == *step && !in_prelude(p, c))
            .or_else(|| children.iter().find(|&&c| name(c) == *step))?;
    }
    Some(p.entries[cur as usize].counters)
}

/// The stacks tree as indented lines `name entries=… ticks=…`.
pub fn tree_text(r: &RunResult) -> String {
    let p = &r.profile;
    let mut out = String::new();
    let mut work = vec![(0u32, 0usize)];
    while let Some((i, depth)) = work.pop() {
        let e = &p.entries[i as usize];
        let cc = &p.cost_centres[e.cost_centre as usize - 1];
        let c = e.counters;
        out.push_str(&format!(
            "{}{}.{} ticks={} words={} tail={} strict={} lazy={} curried={}\n",
            "  ".repeat(depth),
            p.modules[cc.module as usize - 1],
            cc.name,
            c.ticks,
            c.words,
            c.tail_calls,
            c.strict_calls,
            c.lazy_calls,
            c.curried_calls
        ));
        for &ch in e.children.iter().rev() {
            work.push((ch, depth + 1));
        }
    }
    out
}
