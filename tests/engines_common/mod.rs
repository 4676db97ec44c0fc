//! Run one loaded program on both engines and compare everything observable:
//! output, the runtime error (its whole message), the steps, and the
//! `--reproducible` profile bytes.
#![allow(dead_code)]

use stg_run::internal::machine::{self, CostCentreMode, Engine, RunOptions};
use stg_run::internal::profile::format;
use stg_run::internal::stg::auto_cc::{self, AutoCc};
use stg_run::internal::stg::load::load;
use stg_run::internal::stg::source::SourceMap;
use stg_run::internal::stg::syntax::Program;

pub struct Loaded {
    pub sources: SourceMap,
    pub program: Program,
}

pub fn load_text(name: &str, text: &str, prelude: bool, auto: AutoCc) -> Result<Loaded, String> {
    load_files(&[(name.to_string(), text.to_string())], prelude, auto)
}

/// A program of several modules: `(path, text)` per file, in load order.
pub fn load_files(
    files: &[(String, String)],
    prelude: bool,
    auto: AutoCc,
) -> Result<Loaded, String> {
    let mut sources = SourceMap::new();
    let mut loaded = load(&mut sources, files, prelude).map_err(|d| {
        d.iter()
            .map(|d| d.message.clone())
            .collect::<Vec<_>>()
            .join("; ")
    })?;
    auto_cc::apply(&mut loaded.program, auto);
    Ok(Loaded {
        sources,
        program: loaded.program,
    })
}

pub struct Outcome {
    pub out: Vec<u8>,
    pub error: Option<String>,
    pub steps: u64,
    pub profile: Vec<u8>,
    /// The heap profile as `.hp` text followed by its stacks listing and
    /// why a retainer profile stopped (if it did), when one was asked for.
    pub heap_profile: Option<String>,
    /// GC statistics: same allocations and roots give the same collections.
    pub gc: (u64, u64, u64, u64),
}

pub fn run_engine(l: &Loaded, engine: Engine, options: &RunOptions) -> Outcome {
    let options = RunOptions {
        engine,
        reproducible: true,
        ..options.clone()
    };
    let mut out = Vec::new();
    let mut trace = Vec::new();
    let r = machine::run(&l.program, &l.sources, &options, &mut out, &mut trace);
    Outcome {
        out,
        error: r.error.map(|e| e.to_string()),
        steps: r.stats.steps,
        profile: format::write(&r.profile),
        heap_profile: r.heap_profile.map(|h| {
            let hp = h.hp_text.unwrap_or_default();
            let stopped = h
                .side_table_limit
                .map(|m| format!("\nstopped: {m}"))
                .unwrap_or_default();
            format!("{hp}{}{stopped}", h.stacks_text.unwrap_or_default())
        }),
        gc: (
            r.stats.bytes_allocated,
            r.stats.bytes_copied,
            r.stats.collections,
            r.stats.max_residency_bytes,
        ),
    }
}

/// Both engines, compared; `Err` describes the first difference.
pub fn compare(l: &Loaded, options: &RunOptions) -> Result<Outcome, String> {
    let a = run_engine(l, Engine::Reference, options);
    let b = run_engine(l, Engine::Fast, options);
    if a.out != b.out {
        return Err(format!(
            "output differs: reference {:?}, fast {:?}",
            String::from_utf8_lossy(&a.out),
            String::from_utf8_lossy(&b.out)
        ));
    }
    if a.error != b.error {
        return Err(format!(
            "error differs: reference {:?}, fast {:?}",
            a.error, b.error
        ));
    }
    if a.steps != b.steps {
        return Err(format!(
            "steps differ: reference {}, fast {}",
            a.steps, b.steps
        ));
    }
    if a.heap_profile != b.heap_profile {
        return Err(format!(
            "heap profiles differ:\nreference:\n{}\nfast:\n{}",
            a.heap_profile.unwrap_or_default(),
            b.heap_profile.unwrap_or_default()
        ));
    }
    if a.gc != b.gc {
        return Err(format!(
            "heap statistics (allocated, copied, collections, residency) differ: reference {:?}, fast {:?}",
            a.gc, b.gc
        ));
    }
    if a.profile != b.profile {
        let pa = format::read(&a.profile).map(|p| stg_run::internal::profile::view::dump::dump(&p));
        let pb = format::read(&b.profile).map(|p| stg_run::internal::profile::view::dump::dump(&p));
        return Err(format!(
            "profiles differ:\nreference:\n{}\nfast:\n{}",
            pa.unwrap_or_default(),
            pb.unwrap_or_default()
        ));
    }
    Ok(a)
}

pub fn mode_options(stacks: bool, gc_stress: bool) -> RunOptions {
    RunOptions {
        cost_centres: if stacks {
            CostCentreMode::Stacks
        } else {
            CostCentreMode::Flat
        },
        gc_stress,
        ..Default::default()
    }
}
