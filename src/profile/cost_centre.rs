//! The table of modules and cost centres, in the profile file's order
//! (PROFILE-FORMAT.md, "This project's conventions"): module 1 is `MAIN`,
//! then the program's modules in load order; cost centre 1 is `MAIN`, then,
//! module by module, `CAF` and every `scc` label in order of first
//! appearance. Every cost centre is listed, used or not. Engine-independent.

use std::collections::HashMap;

use crate::profile::CostCentreDecl;
use crate::stg::syntax::{Expr, ExprKind, Program, Span};

/// A 1-based cost-centre id.
pub type CcId = u32;

/// Id of the built-in `MAIN` cost centre.
pub const MAIN_CC: CcId = 1;

#[derive(Clone, Debug, Default)]
pub struct CostCentreTable {
    /// Module names; index 0 is module 1 (`MAIN`).
    pub modules: Vec<String>,
    /// Cost centres; index 0 is cost centre 1 (`MAIN`).
    pub cost_centres: Vec<CostCentreDecl>,
    /// `CAF` cost centre of each program module (by position in `Program::modules`).
    pub cafs: Vec<CcId>,
    /// Where each cost centre is in the source, by cost centre (index 0 is
    /// cost centre 1): the first `scc` of its label (for an automatic one,
    /// the binding it wraps); `None` for `MAIN` and the modules' `CAF`s.
    pub spans: Vec<Option<Span>>,
    by_label: HashMap<(usize, String), CcId>,
}

impl CostCentreTable {
    pub fn new(program: &Program) -> CostCentreTable {
        let mut t = CostCentreTable {
            modules: vec!["MAIN".to_string()],
            cost_centres: vec![CostCentreDecl {
                module: 1,
                name: "MAIN".to_string(),
            }],
            spans: vec![None],
            ..Default::default()
        };
        for (mi, module) in program.modules.iter().enumerate() {
            t.modules.push(module.name.clone());
            let module_id = t.modules.len() as u32;
            t.cost_centres.push(CostCentreDecl {
                module: module_id,
                name: "CAF".to_string(),
            });
            t.spans.push(None);
            t.cafs.push(t.cost_centres.len() as CcId);
            // `scc "CAF"` is this cost centre: one label, one cost centre
            // per module (LANGUAGE.md), and the module's `CAF` is named so.
            t.by_label
                .insert((mi, "CAF".to_string()), t.cost_centres.len() as CcId);
            // Pre-order, source order, with an explicit stack (no recursion).
            let mut work: Vec<&Expr> = module
                .bindings
                .iter()
                .rev()
                .map(|b| &b.lambda.body)
                .collect();
            while let Some(e) = work.pop() {
                match &e.kind {
                    ExprKind::Scc { label, body, .. } => {
                        let key = (mi, label.to_string());
                        if !t.by_label.contains_key(&key) {
                            t.cost_centres.push(CostCentreDecl {
                                module: module_id,
                                name: label.to_string(),
                            });
                            t.spans.push(Some(e.span));
                            t.by_label.insert(key, t.cost_centres.len() as CcId);
                        }
                        work.push(body);
                    }
                    ExprKind::Let { bindings, body, .. } => {
                        work.push(body);
                        work.extend(bindings.iter().rev().map(|b| &b.lambda.body));
                    }
                    ExprKind::Case { scrutinee, alts } => {
                        work.extend(alts.iter().rev().map(|a| &a.body));
                        work.push(scrutinee);
                    }
                    ExprKind::App { .. }
                    | ExprKind::Con { .. }
                    | ExprKind::Prim { .. }
                    | ExprKind::Lit(_) => {}
                }
            }
        }
        t
    }

    /// The cost centre of `scc "label"` in the program's module `module`.
    pub fn lookup(&self, module: usize, label: &str) -> Option<CcId> {
        self.by_label.get(&(module, label.to_string())).copied()
    }

    pub fn name(&self, cc: CcId) -> &str {
        self.cost_centres
            .get((cc as usize).wrapping_sub(1))
            .map(|d| d.name.as_str())
            .unwrap_or("?")
    }

    /// `Module.name` (or just `MAIN`), for messages.
    pub fn qualified(&self, cc: CcId) -> String {
        match self.cost_centres.get((cc as usize).wrapping_sub(1)) {
            Some(d) if d.module == 1 => d.name.clone(),
            Some(d) => format!("{}.{}", self.modules[d.module as usize - 1], d.name),
            None => format!("<cc {cc}>"),
        }
    }

    pub fn len(&self) -> usize {
        self.cost_centres.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cost_centres.is_empty()
    }
}
