//! Shared helpers for the machine tests: load a program from text, run it.
#![allow(dead_code)]

use stg_run::machine::{self, CostCentreMode, RunOptions, RunResult, TraceFormat};
use stg_run::stg::auto_cc::{self, AutoCc};
use stg_run::stg::load::load;
use stg_run::stg::source::SourceMap;

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
pub fn flat_counters(r: &RunResult, name: &str) -> stg_run::profile::Counters {
    let p = &r.profile;
    for e in &p.entries {
        if p.cost_centres[e.cost_centre as usize - 1].name == name {
            return e.counters;
        }
    }
    Default::default()
}
