//! Random well-formed programs run on both engines: same output, error,
//! steps, `--reproducible` profile, heap profile and GC statistics, in flat and stacks mode, with and
//! without gc_stress.
//!
//! The generator reads its choices from a byte string (choice 0 when the
//! bytes run out, and 0 is always the simplest choice), so proptest's
//! shrinking of the byte vector shrinks the program. Programs are mostly
//! well typed (each variable is known to hold an `Int#`, a value or a
//! function of some arity) but may loop, fail a match, enter a `\s` closure
//! twice, apply partially or divide by zero; `--max-steps` bounds every run.

mod engines_common;
use engines_common::*;
use proptest::prelude::*;
use stg_run::internal::machine::RunOptions;
use stg_run::internal::machine::heap_profile::HeapProfileBy;
use stg_run::internal::stg::auto_cc::AutoCc;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Int,
    Val,
    Fun(usize),
}

struct Gen<'a> {
    bytes: &'a [u8],
    pos: usize,
    fresh: usize,
}

const CONS: [(&str, usize); 5] = [("Nil", 0), ("Cons", 2), ("I#", 1), ("Pair", 2), ("Just", 1)];

impl Gen<'_> {
    fn pick(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let b = self.bytes.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b as usize % n
    }

    fn name(&mut self) -> String {
        self.fresh += 1;
        format!("v{}", self.fresh)
    }

    fn vars(scope: &[(String, Kind)], k: Kind) -> Vec<String> {
        scope
            .iter()
            .filter(|(_, kk)| *kk == k)
            .map(|(n, _)| n.clone())
            .collect()
    }

    /// An atom of kind `k` (an `Int#` literal or variable, or a value
    /// variable; `None` when there is no value variable).
    fn atom(&mut self, scope: &[(String, Kind)], k: Kind) -> Option<String> {
        let vs = Self::vars(scope, k);
        if k == Kind::Int && (vs.is_empty() || self.pick(3) == 0) {
            return Some(format!("{}#", self.pick(5)));
        }
        if vs.is_empty() {
            return None;
        }
        Some(vs[self.pick(vs.len())].clone())
    }

    fn int_expr(&mut self, scope: &[(String, Kind)], depth: usize) -> String {
        let choice = if depth == 0 {
            self.pick(3)
        } else {
            self.pick(9)
        };
        match choice {
            0 => format!("{}#", self.pick(7) as i64 - 2),
            1 => match self.atom(scope, Kind::Int) {
                Some(a) if !a.ends_with('#') => format!("{a} {{}}"),
                _ => "0#".to_string(),
            },
            2 => {
                let ops = ["+#", "-#", "*#", "/#", "%#", "==#", "<#", ">=#"];
                let op = ops[self.pick(ops.len())];
                let a = self.atom(scope, Kind::Int).unwrap_or_default();
                let b = self.atom(scope, Kind::Int).unwrap_or_default();
                format!("{op} {{{a}, {b}}}")
            }
            3 | 4 => {
                let s = self.int_expr(scope, depth - 1);
                self.lit_case(&s, scope, depth, Kind::Int)
            }
            5 => {
                let s = self.val_expr(scope, depth - 1);
                self.alg_case(&s, scope, depth, Kind::Int)
            }
            6 | 7 => self.let_expr(scope, depth, Kind::Int),
            _ => format!("scc \"{}\" ({})", ["a", "b", "c"][self.pick(3)], {
                self.int_expr(scope, depth - 1)
            }),
        }
    }

    fn con(&mut self, scope: &[(String, Kind)]) -> String {
        let (c, n) = CONS[self.pick(CONS.len())];
        let mut args = Vec::new();
        for i in 0..n {
            let k = if c == "I#" || (c == "Pair" && i == 1 && self.pick(2) == 0) {
                Kind::Int
            } else {
                Kind::Val
            };
            match self.atom(scope, k) {
                Some(a) => args.push(a),
                None => return "Nil".to_string(),
            }
        }
        if n == 0 {
            c.to_string()
        } else {
            format!("{c} {{{}}}", args.join(", "))
        }
    }

    fn val_expr(&mut self, scope: &[(String, Kind)], depth: usize) -> String {
        let choice = if depth == 0 {
            self.pick(3)
        } else {
            self.pick(10)
        };
        match choice {
            0 => self.con(scope),
            1 => match self.atom(scope, Kind::Val) {
                Some(v) => format!("{v} {{}}"),
                None => self.con(scope),
            },
            2 => {
                // Call a function, sometimes with too few arguments or
                // too many (an over-saturated call, whose result is then
                // applied to the rest).
                let funs: Vec<(String, usize)> = scope
                    .iter()
                    .filter_map(|(n, k)| match k {
                        Kind::Fun(a) => Some((n.clone(), *a)),
                        _ => None,
                    })
                    .collect();
                if funs.is_empty() {
                    return self.con(scope);
                }
                let (f, arity) = funs[self.pick(funs.len())].clone();
                let given = match self.pick(8) {
                    0 => arity.saturating_sub(1),
                    1 => arity + 1,
                    _ => arity,
                };
                let mut args = Vec::new();
                for _ in 0..given {
                    let k = if self.pick(3) == 0 {
                        Kind::Int
                    } else {
                        Kind::Val
                    };
                    args.push(
                        self.atom(scope, k)
                            .unwrap_or_else(|| format!("{}#", self.pick(3))),
                    );
                }
                format!("{f} {{{}}}", args.join(", "))
            }
            3 | 4 => self.let_expr(scope, depth, Kind::Val),
            5 => {
                let s = self.val_expr(scope, depth - 1);
                self.alg_case(&s, scope, depth, Kind::Val)
            }
            6 => {
                let s = self.int_expr(scope, depth - 1);
                self.lit_case(&s, scope, depth, Kind::Val)
            }
            7 => {
                // Box an Int#.
                let s = self.int_expr(scope, depth - 1);
                let v = self.name();
                format!("case ({s}) of {v} -> (I# {{{v}}})")
            }
            8 => self.letrec_expr(scope, depth),
            _ => format!("scc \"{}\" ({})", ["a", "b", "c"][self.pick(3)], {
                self.val_expr(scope, depth - 1)
            }),
        }
    }

    fn body(&mut self, scope: &[(String, Kind)], depth: usize, want: Kind) -> String {
        match want {
            Kind::Int => self.int_expr(scope, depth),
            _ => self.val_expr(scope, depth),
        }
    }

    fn lit_case(
        &mut self,
        scrut: &str,
        scope: &[(String, Kind)],
        depth: usize,
        want: Kind,
    ) -> String {
        let mut alts = Vec::new();
        for k in 0..self.pick(3) {
            let b = self.body(scope, depth - 1, want);
            alts.push(format!("{k}# -> ({b})"));
        }
        match self.pick(3) {
            0 => {
                let v = self.name();
                let mut s2 = scope.to_vec();
                s2.push((v.clone(), Kind::Int));
                let b = self.body(&s2, depth - 1, want);
                alts.push(format!("{v} -> ({b})"));
            }
            1 => {
                let b = self.body(scope, depth - 1, want);
                alts.push(format!("default -> ({b})"));
            }
            _ => {}
        }
        if alts.is_empty() {
            alts.push("default -> (0#)".to_string());
        }
        format!("case ({scrut}) of {}", alts.join("; "))
    }

    fn alg_case(
        &mut self,
        scrut: &str,
        scope: &[(String, Kind)],
        depth: usize,
        want: Kind,
    ) -> String {
        let mut alts = Vec::new();
        for (c, n) in CONS {
            if self.pick(2) == 0 {
                continue;
            }
            let mut s2 = scope.to_vec();
            let mut vs = Vec::new();
            for i in 0..n {
                let v = self.name();
                let k = if c == "I#" || (c == "Pair" && i == 1) {
                    Kind::Int
                } else {
                    Kind::Val
                };
                s2.push((v.clone(), k));
                vs.push(v);
            }
            let b = self.body(&s2, depth - 1, want);
            if n == 0 {
                alts.push(format!("{c} -> ({b})"));
            } else {
                alts.push(format!("{c} {{{}}} -> ({b})", vs.join(", ")));
            }
        }
        match self.pick(3) {
            0 => {
                let v = self.name();
                let mut s2 = scope.to_vec();
                s2.push((v.clone(), Kind::Val));
                let b = self.body(&s2, depth - 1, want);
                alts.push(format!("{v} -> ({b})"));
            }
            1 => {
                let b = self.body(scope, depth - 1, want);
                alts.push(format!("default -> ({b})"));
            }
            _ => {}
        }
        if alts.is_empty() {
            let b = self.body(scope, depth - 1, want);
            alts.push(format!("default -> ({b})"));
        }
        format!("case ({scrut}) of {}", alts.join("; "))
    }

    /// A lambda form bound to a new name, and the kind the name gets.
    fn lambda(&mut self, scope: &[(String, Kind)], depth: usize) -> (String, Kind) {
        match self.pick(4) {
            0 | 1 => {
                let flag = if self.pick(4) == 0 { "\\s" } else { "\\u" };
                (
                    format!("{flag} {{}} -> ({})", self.val_expr(scope, depth)),
                    Kind::Val,
                )
            }
            2 => (format!("\\r {{}} -> {}", self.con(scope)), Kind::Val),
            _ => {
                let arity = 1 + self.pick(2);
                let mut s2 = scope.to_vec();
                let mut ps = Vec::new();
                for _ in 0..arity {
                    let p = self.name();
                    s2.push((p.clone(), Kind::Val));
                    ps.push(p);
                }
                (
                    format!(
                        "\\r {{{}}} -> ({})",
                        ps.join(", "),
                        self.val_expr(&s2, depth)
                    ),
                    Kind::Fun(arity),
                )
            }
        }
    }

    fn let_expr(&mut self, scope: &[(String, Kind)], depth: usize, want: Kind) -> String {
        let n = 1 + self.pick(2);
        let mut binds = Vec::new();
        let mut s2 = scope.to_vec();
        for _ in 0..n {
            let v = self.name();
            let (lam, k) = self.lambda(scope, depth - 1);
            binds.push(format!("{v} = {lam}"));
            s2.push((v, k));
        }
        let b = self.body(&s2, depth - 1, want);
        format!("let {} in ({b})", binds.join("; "))
    }

    fn letrec_expr(&mut self, scope: &[(String, Kind)], depth: usize) -> String {
        // Names and kinds first, so the group sees itself.
        let n = 1 + self.pick(2);
        let mut s2 = scope.to_vec();
        let mut shapes = Vec::new();
        for _ in 0..n {
            let v = self.name();
            let k = match self.pick(3) {
                0 => Kind::Val,
                _ => Kind::Fun(1 + self.pick(2)),
            };
            s2.push((v.clone(), k));
            shapes.push((v, k));
        }
        let mut binds = Vec::new();
        for (v, k) in shapes {
            let lam = match k {
                Kind::Fun(arity) => {
                    let mut s3 = s2.clone();
                    let mut ps = Vec::new();
                    for _ in 0..arity {
                        let p = self.name();
                        s3.push((p.clone(), Kind::Val));
                        ps.push(p);
                    }
                    format!(
                        "\\r {{{}}} -> ({})",
                        ps.join(", "),
                        self.val_expr(&s3, depth - 1)
                    )
                }
                _ => {
                    if self.pick(2) == 0 {
                        format!("\\r {{}} -> {}", self.con(&s2))
                    } else {
                        format!("\\u {{}} -> ({})", self.val_expr(&s2, depth - 1))
                    }
                }
            };
            binds.push(format!("{v} = {lam}"));
        }
        let b = self.val_expr(&s2, depth - 1);
        format!("letrec {} in ({b})", binds.join("; "))
    }

    fn program(&mut self) -> String {
        // Globals: two functions, a CAF, a value, then main.
        let mut scope: Vec<(String, Kind)> = vec![
            ("g1".into(), Kind::Fun(1)),
            ("g2".into(), Kind::Fun(2)),
            ("caf".into(), Kind::Val),
            ("one".into(), Kind::Val),
        ];
        let mut out = String::from("one = {} \\r {} -> I# {1#}\n");
        let s1 = {
            let mut s = scope.clone();
            s.push(("p".into(), Kind::Val));
            s
        };
        out.push_str(&format!(
            "g1 = {{}} \\r {{p}} -> ({})\n",
            self.val_expr(&s1, 3)
        ));
        let s2 = {
            let mut s = scope.clone();
            s.push(("p".into(), Kind::Val));
            s.push(("q".into(), Kind::Val));
            s
        };
        out.push_str(&format!(
            "g2 = {{}} \\r {{p, q}} -> ({})\n",
            self.val_expr(&s2, 3)
        ));
        out.push_str(&format!(
            "caf = {{}} \\u {{}} -> ({})\n",
            self.val_expr(&scope, 3)
        ));
        scope.push(("dummy".into(), Kind::Int));
        scope.pop();
        out.push_str(&format!(
            "main = {{}} \\u {{}} -> ({})\n",
            self.val_expr(&scope, 4)
        ));
        out
    }
}

fn generate(bytes: &[u8]) -> String {
    Gen {
        bytes,
        pos: 0,
        fresh: 0,
    }
    .program()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Each program runs cut at a random step, with a census every so
    /// many steps, and sometimes in a heap of a few kilobytes or a stack
    /// of a few hundred bytes: the fast engine must stop, collect, run out
    /// of heap or stack and take censuses where the reference engine does,
    /// wherever that falls among the rules it runs together.
    #[test]
    fn random_programs_agree(
        bytes in prop::collection::vec(any::<u8>(), 0..600),
        cut in 1u64..3_000,
        interval in 1u64..200,
        max_heap in prop::option::of(64u64..2_048),
        max_stack in prop::option::of(64u64..1_024),
    ) {
        let text = generate(&bytes);
        for auto in [AutoCc::None, AutoCc::All] {
            let l = match load_text("random.stg", &text, false, auto) {
                Ok(l) => l,
                Err(e) => panic!("generated program does not load: {e}\n{text}"),
            };
            for stacks in [false, true] {
                for stress in [false, true] {
                    let o = RunOptions {
                        max_steps: Some(cut),
                        max_stack: Some(max_stack.unwrap_or(1 << 20)),
                        max_heap,
                        heap_profile: (!stress).then_some(HeapProfileBy::CostCentre),
                        heap_interval: interval,
                        ..mode_options(stacks, stress)
                    };
                    if let Err(e) = compare(&l, &o) {
                        prop_assert!(false, "stacks={} stress={} auto={:?}: {}\n{}", stacks, stress, auto, e, text);
                    }
                }
            }
        }
    }
}

#[test]
fn generator_makes_loadable_varied_programs() {
    // A fixed sample: every one loads, and they do not all end the same way.
    let mut endings = std::collections::BTreeSet::new();
    for seed in 0u64..200 {
        let mut x = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let bytes: Vec<u8> = (0..400)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect();
        let text = generate(&bytes);
        let l = load_text("random.stg", &text, false, AutoCc::None)
            .unwrap_or_else(|e| panic!("does not load: {e}\n{text}"));
        let o = compare(
            &l,
            &RunOptions {
                max_steps: Some(3_000),
                ..mode_options(false, false)
            },
        )
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
        endings.insert(match o.error {
            None => "ok".to_string(),
            Some(e) => e.lines().next().unwrap_or("").chars().take(40).collect(),
        });
    }
    assert!(endings.len() >= 3, "too uniform: {endings:?}");
    eprintln!("endings: {endings:?}");
}
