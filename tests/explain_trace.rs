//! The JSON trace (`--trace=json`, docs/TRACE-FORMAT.md) of every program
//! in `programs/`, checked two ways:
//!
//! - replaying its records (the state's changes) reproduces the reference
//!   engine's own state, read straight from the engine by an observer of a
//!   second, untraced run, at step 0, every 1,000th step and the end: the
//!   control and its environment by name, the three stacks, the current
//!   cost centre, every counter, and the heap (every closure, reachable
//!   ones matched one to one from the roots: kind, code, cost centre,
//!   payload). Also under `--gc-stress`, where every allocation collects
//!   and closures move at every step;
//! - every line validates against the JSON Schema
//!   `docs/trace-format.schema.json` (with ajv under Node: `.ci/run`
//!   installs it; elsewhere the test skips with a message unless
//!   `STG_RUN_REQUIRE_CLIENTS` is set).

mod cli_common;
mod corpus;
mod engines_common;
mod generated_programs;

use std::collections::{BTreeMap, HashMap};
use std::io::{self, Write};

use serde_json::Value as Json;
use stg_run::internal::gc::{Addr, Heap, Info, Tag, Value};
use stg_run::internal::machine::code::{AltsKind, Code, ExprCode, ExprId};
use stg_run::internal::machine::explain;
use stg_run::internal::machine::reference::{self, Control, Observer, Rule, View};
use stg_run::internal::machine::{RunOptions, RuntimeError, TraceFormat, lower};
use stg_run::internal::profile::Counters;
use stg_run::internal::stg::auto_cc::AutoCc;

// ----- the engine's own state ---------------------------------------------

/// The state as the engine holds it, addresses and all.
struct Dump {
    step: u64,
    /// Taken at the end of the run (else after a step).
    at_end: bool,
    control: Control,
    args: Vec<Value>,
    rs: Vec<reference::Cont>,
    us: Vec<reference::Frame>,
    globals: Vec<Value>,
    cc: u32,
    /// Every closure in the heap: info, cost centre, payload.
    heap: HashMap<Addr, (Info, u32, Vec<Value>)>,
    counters: Vec<Counters>,
}

fn dump(m: &View<'_>) -> Dump {
    let mut heap = HashMap::new();
    m.heap.walk(&mut |a, info, cc| {
        let n = match info.tag {
            Tag::BlackHole | Tag::Entered => 0,
            Tag::Ind => 1,
            _ => info.n as usize,
        };
        let payload = (0..n).map(|i| m.heap.payload(a, i)).collect();
        heap.insert(a, (info, cc, payload));
    });
    let entries = m.acct.stacks.len().max(m.code.cost_centres.len() + 1);
    Dump {
        step: m.steps,
        at_end: false,
        control: m.control.clone(),
        args: m.args.to_vec(),
        rs: m.rs.to_vec(),
        us: m.us.to_vec(),
        globals: m.globals.to_vec(),
        cc: m.cc,
        heap,
        counters: (0..entries as u32).map(|e| m.acct.counters_of(e)).collect(),
    }
}

/// Takes a [`Dump`] at step 0, every `every` steps and at the end.
struct Dumper {
    every: u64,
    dumps: Vec<Dump>,
}

impl Observer for Dumper {
    fn started(&mut self, m: &View<'_>) -> io::Result<()> {
        self.dumps.push(dump(m));
        Ok(())
    }
    fn stepped(&mut self, m: &View<'_>, _: Rule) -> io::Result<()> {
        if m.steps.is_multiple_of(self.every) {
            self.dumps.push(dump(m));
        }
        Ok(())
    }
    fn forced(&mut self, _: &View<'_>) -> io::Result<()> {
        Ok(())
    }
    fn collected(&mut self, _: &Heap, _: &[(Value, Value)]) {}
    fn ended(&mut self, m: &View<'_>, _: Option<&RuntimeError>) -> io::Result<()> {
        self.dumps.push(Dump {
            at_end: true,
            ..dump(m)
        });
        Ok(())
    }
}

// ----- the trace, replayed --------------------------------------------------

#[derive(Clone, Debug, Default)]
struct Cont {
    case: u64,
    env: BTreeMap<String, String>,
    as_height: u64,
    cc: u64,
}

#[derive(Clone, Debug)]
enum RControl {
    Eval(u64, BTreeMap<String, String>),
    Enter(String),
    ReturnCon(String, Vec<String>),
    ReturnInt(String),
}

#[derive(Clone, Debug, PartialEq)]
struct RClosure {
    kind: String,
    /// The lambda id, or the constructor's name.
    code: Json,
    cc: u64,
    values: Vec<String>,
}

/// The state a trace's records build, by closure id.
struct Replay {
    step: u64,
    control: Option<RControl>,
    args: Vec<String>,
    rs: Vec<Cont>,
    us: Vec<Json>,
    cc: u64,
    heap: HashMap<u64, RClosure>,
    counters: HashMap<u64, [u64; 6]>,
    output: String,
    /// The globals' closures (the header's, forwarded by collections).
    globals: Vec<String>,
}

fn env_of(j: &Json) -> BTreeMap<String, String> {
    j.as_object()
        .unwrap_or_else(|| panic!("an environment is an object: {j}"))
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().expect("a value").to_string()))
        .collect()
}

fn strings(j: &Json) -> Vec<String> {
    j.as_array()
        .unwrap_or_else(|| panic!("a list: {j}"))
        .iter()
        .map(|v| v.as_str().expect("a value").to_string())
        .collect()
}

fn closure(j: &Json) -> (u64, RClosure) {
    let id = j["id"].as_u64().expect("an id");
    let code = if j.get("con").is_some() {
        j["con"].clone()
    } else {
        j.get("lambda").cloned().unwrap_or(Json::Null)
    };
    let values = j.get("values").map(strings).unwrap_or_default();
    (
        id,
        RClosure {
            kind: j["kind"].as_str().expect("a kind").to_string(),
            code,
            cc: j["cc"].as_u64().expect("a cost centre"),
            values,
        },
    )
}

impl Replay {
    fn new() -> Replay {
        Replay {
            step: 0,
            control: None,
            args: Vec::new(),
            rs: Vec::new(),
            us: Vec::new(),
            cc: 0,
            heap: HashMap::new(),
            counters: HashMap::new(),
            output: String::new(),
            globals: Vec::new(),
        }
    }

    fn stack<T>(stack: &mut Vec<T>, delta: Option<&Json>, item: impl Fn(&Json) -> T) {
        let Some(d) = delta else { return };
        let pop = d.get("pop").and_then(Json::as_u64).unwrap_or(0) as usize;
        assert!(pop <= stack.len(), "pops {pop} of {}", stack.len());
        stack.truncate(stack.len() - pop);
        if let Some(push) = d.get("push") {
            stack.extend(push.as_array().expect("a list").iter().map(item));
        }
    }

    /// A collection removed indirections: references to them now refer
    /// to their values.
    fn forward(&mut self, f: &HashMap<String, String>) {
        let fwd = |v: &mut String| {
            if let Some(t) = f.get(v.as_str()) {
                *v = t.clone();
            }
        };
        match &mut self.control {
            Some(RControl::Eval(_, env)) => env.values_mut().for_each(fwd),
            Some(RControl::Enter(v)) => fwd(v),
            Some(RControl::ReturnCon(_, ws)) => ws.iter_mut().for_each(fwd),
            Some(RControl::ReturnInt(_)) | None => {}
        }
        self.args.iter_mut().for_each(fwd);
        self.globals.iter_mut().for_each(fwd);
        for c in &mut self.rs {
            c.env.values_mut().for_each(fwd);
        }
        for fr in &mut self.us {
            if let Some(u) = fr["update"].as_str()
                && let Some(t) = f.get(u)
            {
                fr["update"] = Json::String(t.clone());
            }
        }
        for c in self.heap.values_mut() {
            c.values.iter_mut().for_each(fwd);
        }
    }

    fn apply(&mut self, r: &Json) {
        self.step = r["step"].as_u64().expect("a step");
        if let Some(c) = r.get("control") {
            let control = if let Some(e) = c.get("eval") {
                let e = e.as_u64().unwrap();
                let mut env = match c.get("extends").and_then(Json::as_str) {
                    None => env_of(&c["env"]),
                    Some("control") => match &self.control {
                        Some(RControl::Eval(_, env)) => env.clone(),
                        other => panic!("extends the control {other:?}: {r}"),
                    },
                    Some("continuation") => self.rs.last().expect("a continuation").env.clone(),
                    Some(other) => panic!("extends {other}"),
                };
                if let Some(bind) = c.get("bind") {
                    env.extend(env_of(bind));
                }
                RControl::Eval(e, env)
            } else if let Some(v) = c.get("enter") {
                RControl::Enter(v.as_str().unwrap().to_string())
            } else if let Some(con) = c.get("return_con") {
                RControl::ReturnCon(con.as_str().unwrap().to_string(), strings(&c["fields"]))
            } else {
                RControl::ReturnInt(c["return_int"].as_str().unwrap().to_string())
            };
            self.control = Some(control);
        }
        Self::stack(&mut self.args, r.get("as"), |v| {
            v.as_str().unwrap().to_string()
        });
        Self::stack(&mut self.rs, r.get("rs"), |c| Cont {
            case: c["case"].as_u64().unwrap(),
            env: env_of(&c["env"]),
            as_height: c["as_height"].as_u64().unwrap(),
            cc: c["cc"].as_u64().unwrap(),
        });
        Self::stack(&mut self.us, r.get("us"), Json::clone);
        if let Some(cc) = r.get("cc") {
            self.cc = cc.as_u64().unwrap();
        }
        if let Some(h) = r.get("heap") {
            let forward: HashMap<String, String> = h
                .get("forward")
                .and_then(Json::as_array)
                .into_iter()
                .flatten()
                .map(|p| (format!("@{}", p[0]), format!("@{}", p[1])))
                .collect();
            if !forward.is_empty() {
                self.forward(&forward);
            }
            for id in h.get("free").and_then(Json::as_array).into_iter().flatten() {
                let id = id.as_u64().unwrap();
                assert!(
                    self.heap.remove(&id).is_some(),
                    "frees @{id}, not in the heap: {r}"
                );
            }
            for c in h
                .get("alloc")
                .and_then(Json::as_array)
                .into_iter()
                .flatten()
            {
                let (id, c) = closure(c);
                assert!(self.heap.insert(id, c).is_none(), "allocates @{id} twice");
            }
            for c in h
                .get("update")
                .and_then(Json::as_array)
                .into_iter()
                .flatten()
            {
                let (id, c) = closure(c);
                assert!(
                    self.heap.insert(id, c).is_some(),
                    "updates @{id}, not in the heap"
                );
            }
        }
        for c in r
            .get("counters")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
        {
            let c = c.as_array().unwrap();
            let e = c[0].as_u64().unwrap();
            let sum = self.counters.entry(e).or_default();
            for (i, x) in c[1..].iter().enumerate() {
                sum[i] += x.as_u64().unwrap();
            }
        }
        if let Some(o) = r.get("output") {
            self.output.push_str(o.as_str().unwrap());
        }
    }
}

// ----- the two, compared ----------------------------------------------------

/// The lambda whose body holds each expression.
fn expr_lambdas(code: &Code) -> Vec<Option<u32>> {
    let mut at = vec![None; code.exprs.len()];
    for (l, lam) in code.lambdas.iter().enumerate() {
        let mut work: Vec<ExprId> = vec![lam.body];
        while let Some(e) = work.pop() {
            at[e as usize] = Some(l as u32);
            match &code.expr(e).code {
                ExprCode::Let { body, .. } | ExprCode::Scc { body, .. } => work.push(*body),
                ExprCode::Case {
                    scrut,
                    alts,
                    default,
                    ..
                } => {
                    work.push(*scrut);
                    match alts {
                        AltsKind::Alg(a) => work.extend(a.iter().map(|a| a.body)),
                        AltsKind::Prim(a) => work.extend(a.iter().map(|a| a.1)),
                        AltsKind::DefaultOnly => {}
                    }
                    work.extend(default.iter().map(|d| d.body));
                }
                _ => {}
            }
        }
    }
    at
}

struct Compare<'a> {
    code: &'a Code,
    lambdas: Vec<Option<u32>>,
    dump: &'a Dump,
    replay: &'a Replay,
    addr_to_id: HashMap<Addr, u64>,
    id_to_addr: HashMap<u64, Addr>,
    work: Vec<(Addr, u64)>,
    what: String,
}

impl Compare<'_> {
    fn fail(&self, msg: String) -> ! {
        panic!("{} at step {}: {msg}", self.what, self.dump.step)
    }

    /// Could `v` (engine) be `r` (trace) given what is matched so far?
    fn could_be(&self, v: Value, r: &str) -> bool {
        match v {
            Value::Int(k) => r == format!("{k}#"),
            Value::Ptr(a) => {
                let Some(id) = r.strip_prefix('@').and_then(|s| s.parse::<u64>().ok()) else {
                    return false;
                };
                match (self.addr_to_id.get(&a), self.id_to_addr.get(&id)) {
                    (Some(&i), _) => i == id,
                    (None, Some(_)) => false,
                    (None, None) => true,
                }
            }
        }
    }

    fn same(&mut self, v: Value, r: &str, what: &str) {
        if !self.could_be(v, r) {
            self.fail(format!("{what}: engine {v:?}, trace {r}"));
        }
        if let Value::Ptr(a) = v {
            let id: u64 = r[1..].parse().unwrap();
            if self.addr_to_id.insert(a, id).is_none() {
                self.id_to_addr.insert(id, a);
                self.work.push((a, id));
            }
        }
    }

    /// The environment of an `Eval` of `e` (or of a continuation of the
    /// case `e`): every variable the trace names is in a slot of that
    /// name holding the same value.
    fn env(&mut self, e: ExprId, env: &[Value], names: &BTreeMap<String, String>, what: &str) {
        let slot_names: Vec<String> = if e == self.code.pap_app {
            (0..env.len())
                .map(|i| if i == 0 { "f".into() } else { format!("x{i}") })
                .collect()
        } else if self.code.con_bodies.contains(&e) {
            (1..=env.len()).map(|i| format!("x{i}")).collect()
        } else {
            match self.lambdas[e as usize] {
                Some(l) => self.code.lambda(l).slot_names.clone(),
                None => Vec::new(),
            }
        };
        for (name, r) in names {
            let slot = (0..env.len().min(slot_names.len()))
                .rev()
                .find(|&s| slot_names[s] == *name && self.could_be(env[s], r));
            match slot {
                Some(s) => self.same(env[s], r, what),
                None => self.fail(format!(
                    "{what}: `{name}` = {r} in the trace, in no slot of that name in {env:?} ({slot_names:?})"
                )),
            }
        }
    }

    fn state(&mut self) {
        let (d, r) = (self.dump, self.replay);
        if d.step != r.step {
            self.fail(format!("the trace is at step {}", r.step));
        }
        if d.cc as u64 != r.cc {
            self.fail(format!("cost centre: engine {}, trace {}", d.cc, r.cc));
        }
        for (e, c) in d.counters.iter().enumerate() {
            let want = c.fields();
            let got = r.counters.get(&(e as u64)).copied().unwrap_or_default();
            if want != got {
                self.fail(format!(
                    "counters of entry {e}: engine {want:?}, trace {got:?}"
                ));
            }
        }
        let extra = r
            .counters
            .keys()
            .filter(|&&e| e as usize >= d.counters.len())
            .count();
        if extra > 0 {
            self.fail(format!("{extra} entries the engine does not have"));
        }
        match (&d.control, r.control.as_ref()) {
            (Control::Eval(e, env), Some(RControl::Eval(re, names))) => {
                if *e as u64 != *re {
                    self.fail(format!("evaluates expression {e}, the trace {re}"));
                }
                self.env(*e, env, names, "the control's environment");
            }
            (Control::Enter(v), Some(RControl::Enter(rv))) => self.same(*v, rv, "entered"),
            (Control::ReturnCon(c, ws), Some(RControl::ReturnCon(rc, rws))) => {
                if self.code.con_name(*c) != rc || ws.len() != rws.len() {
                    self.fail(format!("returns {c} {ws:?}, the trace {rc} {rws:?}"));
                }
                for (w, rw) in ws.iter().zip(rws) {
                    self.same(*w, rw, "a returned field");
                }
            }
            (Control::ReturnInt(k), Some(RControl::ReturnInt(rk))) => {
                if format!("{k}#") != *rk {
                    self.fail(format!("returns {k}#, the trace {rk}"));
                }
            }
            (c, rc) => self.fail(format!("control: engine {c:?}, trace {rc:?}")),
        }
        if d.args.len() != r.args.len() {
            self.fail(format!(
                "as: {} in the engine, {} in the trace",
                d.args.len(),
                r.args.len()
            ));
        }
        for (v, rv) in d.args.iter().zip(&r.args) {
            self.same(*v, rv, "an argument");
        }
        if d.rs.len() != r.rs.len() {
            self.fail(format!(
                "rs: {} in the engine, {} in the trace",
                d.rs.len(),
                r.rs.len()
            ));
        }
        for (c, rc) in d.rs.iter().zip(&r.rs) {
            if c.case as u64 != rc.case
                || c.as_height as u64 != rc.as_height
                || c.cc as u64 != rc.cc
            {
                self.fail(format!("a continuation: engine {c:?}, trace {rc:?}"));
            }
            // The trace shows what the continuation saves (rule 4: its
            // alternatives' free variables), and nothing else.
            if rc.env.len() != c.saved.len() {
                self.fail(format!(
                    "a continuation saves {} values in the engine, {} in the trace",
                    c.saved.len(),
                    rc.env.len()
                ));
            }
            let env = c.env(self.code);
            self.env(c.case, &env, &rc.env, "a continuation's environment");
        }
        if d.us.len() != r.us.len() {
            self.fail(format!(
                "us: {} in the engine, {} in the trace",
                d.us.len(),
                r.us.len()
            ));
        }
        for (f, rf) in d.us.iter().zip(&r.us) {
            if f.as_base as u64 != rf["as_height"].as_u64().unwrap()
                || f.rs_base as u64 != rf["rs_height"].as_u64().unwrap()
                || f.cc as u64 != rf["cc"].as_u64().unwrap()
            {
                self.fail(format!("a frame: engine {f:?}, trace {rf}"));
            }
            match (f.update, rf["update"].as_str()) {
                (Some(a), Some(id)) => self.same(Value::Ptr(a), id, "an update frame's thunk"),
                (None, None) => {}
                _ => self.fail(format!("a frame: engine {f:?}, trace {rf}")),
            }
        }
        self.heap();
    }

    /// Every closure reached so far, matched field by field; then the
    /// closures counted.
    fn heap(&mut self) {
        while let Some((a, id)) = self.work.pop() {
            let Some((info, cc, payload)) = self.dump.heap.get(&a) else {
                self.fail(format!("no closure at {a}"));
            };
            let Some(c) = self.replay.heap.get(&id) else {
                let at = format!("@{id}");
                let r = self.replay;
                let mut holders = Vec::new();
                if let Some(RControl::Eval(_, env)) = &r.control
                    && env.values().any(|v| *v == at)
                {
                    holders.push("the control's environment".to_string());
                }
                for (i, c) in r.rs.iter().enumerate() {
                    if c.env.values().any(|v| *v == at) {
                        holders.push(format!("continuation {i}"));
                    }
                }
                if r.args.contains(&at) {
                    holders.push("as".to_string());
                }
                for (k, c) in &r.heap {
                    if c.values.contains(&at) {
                        holders.push(format!("closure @{k}"));
                    }
                }
                self.fail(format!(
                    "{at} is not in the trace's heap; held by {holders:?}"
                ));
            };
            let lambda = |kinds: &[&str]| {
                kinds.contains(&c.kind.as_str()) && c.code.as_u64() == Some(info.index as u64)
            };
            let ok = match info.tag {
                Tag::Lambda => lambda(&["function", "reentrant", "thunk"]),
                Tag::BlackHole => lambda(&["blackhole"]),
                Tag::Entered => lambda(&["entered"]),
                Tag::Con => {
                    c.kind == "constructor"
                        && c.code.as_str() == Some(self.code.con_name(info.index))
                }
                Tag::Pap => c.kind == "pap",
                Tag::Ind => c.kind == "indirection",
                Tag::Forward => false,
            };
            if !ok || *cc as u64 != c.cc || payload.len() != c.values.len() {
                self.fail(format!(
                    "@{id}: engine {info:?} cc {cc} {payload:?}, trace {c:?}"
                ));
            }
            let c = c.clone();
            for (v, rv) in payload.iter().zip(&c.values) {
                self.same(*v, rv, &format!("a field of @{id}"));
            }
        }
        if self.dump.heap.len() != self.replay.heap.len() {
            self.fail(format!(
                "{} closures in the engine's heap, {} in the trace's",
                self.dump.heap.len(),
                self.replay.heap.len()
            ));
        }
    }
}

// ----- running -------------------------------------------------------------

struct Lines(Vec<u8>);

impl Write for Lines {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.0.extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The JSON trace of `name`, and the engine's own states, in one mode.
fn replays_to_the_engine(name: &str, options: &RunOptions) -> Vec<u8> {
    let path = corpus::repo("programs").join(format!("{name}.stg"));
    let files = corpus::read_all(&[path]);
    let l = engines_common::load_files(&files, true, AutoCc::None).unwrap();
    let traced = RunOptions {
        trace: Some(TraceFormat::Json),
        ..options.clone()
    };
    let mut trace = Lines(Vec::new());
    let mut out = Vec::new();
    let result = explain::run(
        &l.program, &l.sources, &traced, &mut out, &mut trace, None, None,
    )
    .result;

    let code = lower::lower(&l.program).unwrap();
    let mut dumper = Dumper {
        every: 1000,
        dumps: Vec::new(),
    };
    let mut m = reference::Machine::new(&code, &l.sources, options).observed(&mut dumper);
    let mut out2 = Vec::new();
    let error = m.run(&mut out2, &mut io::sink()).err();
    drop(m);
    assert_eq!(
        out, out2,
        "{name}: the traced run prints what the untraced one does"
    );
    assert_eq!(
        result.error.as_ref().map(|e| e.to_string()),
        error.map(|e| e.to_string()),
        "{name}"
    );

    let text = String::from_utf8(trace.0.clone()).unwrap();
    let mut lines = text.lines();
    let header: Json = serde_json::from_str(lines.next().unwrap()).unwrap();
    let mut replay = Replay::new();
    replay.globals = header["globals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| format!("@{}", g["closure"]))
        .collect();
    let mut dumps = dumper.dumps.iter().peekable();
    let lambdas = expr_lambdas(&code);
    let mut records = 0;
    let mut ended = false;
    for line in lines {
        let r: Json = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        replay.apply(&r);
        records += 1;
        let event = r["event"].as_str().unwrap();
        assert!(!ended, "{name}: a record after the end");
        ended = event == "end";
        // A dump is taken after its step, before the printer's demand.
        let due = dumps.peek().is_some_and(|d| {
            d.step == replay.step
                && if d.at_end {
                    event == "end"
                } else {
                    event == "start" || event == "step"
                }
        });
        if due {
            let d = dumps.next().unwrap();
            let mut c = Compare {
                code: &code,
                lambdas: lambdas.clone(),
                dump: d,
                replay: &replay,
                addr_to_id: HashMap::new(),
                id_to_addr: HashMap::new(),
                work: Vec::new(),
                what: format!("{name} ({options:?})"),
            };
            for (v, id) in d.globals.iter().zip(&replay.globals) {
                c.same(*v, id, "a global");
            }
            c.state();
        }
    }
    assert!(ended, "{name}: the trace has no end record");
    assert_eq!(
        dumps.next().map(|d| d.step),
        None,
        "{name}: a state not compared"
    );
    assert_eq!(replay.output.as_bytes(), out, "{name}: the trace's output");
    assert!(records > 1, "{name}");
    trace.0
}

fn flat() -> RunOptions {
    RunOptions {
        engine: stg_run::internal::machine::Engine::Reference,
        reproducible: true,
        ..Default::default()
    }
}

#[test]
fn every_program_replays_to_the_engine_state() {
    for name in corpus::program_names() {
        replays_to_the_engine(&name, &flat());
    }
}

#[test]
fn every_program_replays_in_stacks_mode() {
    for name in corpus::program_names() {
        // The first 30,000 steps (the long runs are checked in flat mode).
        let options = RunOptions {
            cost_centres: stg_run::internal::machine::CostCentreMode::Stacks,
            max_steps: Some(30_000),
            ..flat()
        };
        replays_to_the_engine(&name, &options);
    }
}

#[test]
fn closures_keep_their_ids_when_every_allocation_collects() {
    for name in corpus::program_names() {
        // The short ones: a collection per allocation is slow.
        let options = RunOptions {
            gc_stress: true,
            max_steps: Some(20_000),
            ..flat()
        };
        replays_to_the_engine(&name, &options);
    }
}

#[test]
fn every_trace_validates_against_the_schema() {
    if !cli_common::node_package("ajv") {
        return;
    }
    let dir = cli_common::scratch("explain_trace", "schema");
    let mut traces = Vec::new();
    for name in corpus::program_names() {
        for mode in ["flat", "stacks"] {
            let file = dir.join(format!("{name}.{mode}.jsonl"));
            let program = corpus::repo("programs").join(format!("{name}.stg"));
            let out = cli_common::stg_run(&[
                program.as_os_str(),
                "--trace=json".as_ref(),
                "--trace-file".as_ref(),
                file.as_os_str(),
                format!("--cost-centres={mode}").as_ref(),
                // Stacks mode on the first 30,000 steps: ajv takes about
                // 10 µs a line.
                if mode == "flat" {
                    "--max-steps=1000000"
                } else {
                    "--max-steps=30000"
                }
                .as_ref(),
            ]);
            assert!(
                matches!(out.status.code(), Some(0 | 3)),
                "{name}: {}",
                cli_common::text(&out.stderr)
            );
            traces.push(file);
        }
    }
    let out = std::process::Command::new("node")
        .arg(cli_common::explorer_dir().join("validate.mjs"))
        .arg(corpus::repo("docs/trace-format.schema.json"))
        .args(&traces)
        .output()
        .expect("node runs");
    let said = cli_common::text(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        cli_common::text(&out.stderr)
    );
    assert_eq!(said.lines().count(), traces.len(), "{said}");
    assert!(said.lines().all(|l| l.ends_with("lines valid")), "{said}");
}

/// A 20,000-deep recursion (340,000 steps) is traced whole. A step's
/// record costs what the step changed, not the depth of the stacks (the
/// tracer rebuilt both stacks at every step: 77 s in a release build, now
/// under a second; docs/PERFORMANCE.md, "Traces, censuses and suggestions
/// at scale"). Speed is measured there, not asserted here.
#[test]
fn a_deep_recursion_is_traced_whole() {
    let dir = cli_common::scratch("explain_trace", "deep");
    let program = dir.join("deep.stg");
    std::fs::write(&program, generated_programs::deep_stacks(20_000, 1)).unwrap();
    let out = cli_common::stg_run(&[
        program.as_os_str(),
        "--trace=json".as_ref(),
        "--trace-file".as_ref(),
        dir.join("deep.jsonl").as_os_str(),
    ]);
    assert!(out.status.success(), "{}", cli_common::text(&out.stderr));
    assert_eq!(cli_common::text(&out.stdout), "20000\n");
    let trace = std::fs::read_to_string(dir.join("deep.jsonl")).unwrap();
    assert!(trace.lines().count() > 340_000, "one record a step");
    std::fs::remove_file(dir.join("deep.jsonl")).unwrap();
}
