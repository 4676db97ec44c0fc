//! The explorer: a whole run of the reference engine, step by step, as a
//! JSON trace (`--trace=json`).
//!
//! | file | job |
//! |---|---|
//! | `scope.rs` | the variables in scope at each expression, by name |
//! | `delta.rs` | the records a trace is made of: the state's change per step, closures by stable id |
//! | `tracer.rs` | the observer of the reference engine that makes the records (shadow heap, stable ids across collections) |
//! | `rules.rs` | each rule's name and what it does, in the papers' words |
//! | `json.rs` | records as JSON lines (docs/TRACE-FORMAT.md) |
//!
//! The engine's meaning is untouched: the tracer only reads the state the
//! engine shows it after each step ([`reference::Observer`]).

use std::cell::RefCell;
use std::io::{self, Write};
use std::rc::Rc;

use crate::machine::reference;
use crate::machine::{CostCentreMode, RunOptions, RunResult, TraceFormat};
use crate::stg::source::SourceMap;
use crate::stg::syntax::Program;

pub mod delta;
pub mod json;
pub mod rules;
pub mod scope;
pub mod tracer;

use json::{JsonWriter, LineSink};
use tracer::Tracer;

/// Where the JSON lines go: the trace (a writer).
struct Lines<'w> {
    trace: Option<&'w mut dyn Write>,
}

impl LineSink for Lines<'_> {
    fn line(&mut self, json: &str) -> io::Result<()> {
        if let Some(w) = &mut self.trace {
            w.write_all(json.as_bytes())?;
            w.write_all(b"\n")?;
        }
        Ok(())
    }
}

/// The program's output on its way to `out`, kept for the trace.
struct Tee<'w> {
    out: &'w mut dyn Write,
    copy: Rc<RefCell<Vec<u8>>>,
}

impl Write for Tee<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        self.copy.borrow_mut().extend_from_slice(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Run `program` on the reference engine, tracing it: JSON lines to
/// `trace` when `options.trace` asks for JSON (a text trace goes there as
/// usual).
pub fn run(
    program: &Program,
    sources: &SourceMap,
    options: &RunOptions,
    out: &mut dyn Write,
    trace: &mut dyn Write,
) -> RunResult {
    let code = match crate::machine::lower_for_run(program, sources) {
        Ok(code) => code,
        Err(failed) => return *failed,
    };
    let mut nothing = io::sink();
    let (text_trace, json_trace): (&mut dyn Write, Option<&mut dyn Write>) = match options.trace {
        Some(TraceFormat::Text) => (trace, None),
        Some(TraceFormat::Json) => (&mut nothing, Some(trace)),
        None => (&mut nothing, None),
    };
    let mut lines = Lines { trace: json_trace };
    let printed = Rc::new(RefCell::new(Vec::new()));
    let (error, profile, stats, heap_profile) = {
        let mut writer = JsonWriter::new(sources, &mut lines);
        let mut tracer = Tracer::new(
            &code,
            options.cost_centres == CostCentreMode::Stacks,
            options.max_steps,
            &mut writer,
            printed.clone(),
        );
        let mut tee = Tee {
            out,
            copy: printed.clone(),
        };
        let mut m = reference::Machine::new(&code, sources, options).observed(&mut tracer);
        let error = m.run(&mut tee, text_trace).err();
        let _ = tee.flush();
        let r = (
            error,
            m.profile(options.reproducible),
            m.stats(),
            m.take_heap_profile(),
        );
        drop(m);
        debug_assert_eq!(tracer.unknown_values(), 0, "the tracer lost a closure");
        r
    };
    if let Some(w) = &mut lines.trace {
        let _ = w.flush();
    }
    RunResult {
        error,
        profile,
        stats,
        heap_profile,
    }
}
