//! The rules in words: each rule's number, a short name and what it does,
//! in the wording of appendix A of *Profiling lazy functional languages*
//! (Sansom and Peyton Jones) and of *Implementing lazy functional languages
//! on stock hardware: the Spineless Tagless G-machine* (Peyton Jones)
//! where it fits. A trace's header carries this table; the explorer page
//! says it beside each step, with the step's own closures and cost centres
//! filled in.

use crate::machine::reference::Rule;

/// One rule in words.
pub struct RuleText {
    pub rule: Rule,
    pub name: &'static str,
    /// What it does, in general.
    pub says: &'static str,
}

/// Every rule, in the order of the paper's numbering.
pub const RULES: [RuleText; 22] = [
    RuleText {
        rule: Rule::R1,
        name: "application",
        says: "Eval (f {xs}): push the values of the arguments xs on the argument stack, and enter the closure f.",
    },
    RuleText {
        rule: Rule::R2,
        name: "enter a re-entrant closure",
        says: "Enter a, where a is \\r and the argument stack holds all the arguments it takes: pop them and evaluate its body with its free variables and arguments bound. Entering an evaluated closure does not change the current cost centre: its small cost goes to the enterer.",
    },
    RuleText {
        rule: Rule::R3,
        name: "let(rec)",
        says: "Allocate one closure per binding, each with the current cost centre attached (its builder), and evaluate the body with the new names bound.",
    },
    RuleText {
        rule: Rule::R4,
        name: "case",
        says: "Push a case continuation on the return stack (the alternatives, the environment they need and the current cost centre), and evaluate the scrutinee.",
    },
    RuleText {
        rule: Rule::R5,
        name: "constructor",
        says: "Eval (c {xs}): return the constructor c with the values of xs.",
    },
    RuleText {
        rule: Rule::R6,
        name: "return to a matching alternative",
        says: "ReturnCon c ws meets a case continuation with an alternative for c: pop it, restore the cost centre it saved, and evaluate that alternative with the fields bound.",
    },
    RuleText {
        rule: Rule::R7,
        name: "return to a default with a variable",
        says: "ReturnCon c ws meets a continuation with no alternative for c and a default v -> e: allocate a constructor closure for the value (with the current cost centre), pop the continuation, restore its cost centre, and evaluate e with v bound to the closure.",
    },
    RuleText {
        rule: Rule::R8,
        name: "return to a default",
        says: "ReturnCon c ws meets a continuation with no alternative for c and a default -> e: pop it, restore its cost centre, and evaluate e.",
    },
    RuleText {
        rule: Rule::R9,
        name: "literal",
        says: "Eval k: return the Int# k.",
    },
    RuleText {
        rule: Rule::R10,
        name: "Int# variable",
        says: "Eval (x {}), x bound to an Int#: return its value.",
    },
    RuleText {
        rule: Rule::R11,
        name: "return an Int# to a matching alternative",
        says: "ReturnInt k meets a continuation with the alternative k: pop it, restore its cost centre, and evaluate that alternative.",
    },
    RuleText {
        rule: Rule::R12,
        name: "return an Int# to a default with a variable",
        says: "ReturnInt k meets a continuation with no alternative for k and a default v -> e: pop it, restore its cost centre, and evaluate e with v bound to k (nothing is allocated).",
    },
    RuleText {
        rule: Rule::R13,
        name: "return an Int# to a default",
        says: "ReturnInt k meets a continuation with no alternative for k and a default -> e: pop it, restore its cost centre, and evaluate e.",
    },
    RuleText {
        rule: Rule::R14,
        name: "primitive operation",
        says: "Eval (op {x, y}) on two Int#s: return the result.",
    },
    RuleText {
        rule: Rule::R15,
        name: "enter an updatable thunk",
        says: "Enter a, a \\u thunk: push an update frame that saves the argument and return stacks, the current cost centre (the demanding one) and a; make a a black hole; make the cost centre attached to a (its builder's) current; evaluate its body.",
    },
    RuleText {
        rule: Rule::R15s,
        name: "enter a single-entry thunk",
        says: "Enter a, a \\s thunk: push a restore frame that saves the argument and return stacks and the current (demanding) cost centre, with no closure to update; mark a entered; make the cost centre attached to a current; evaluate its body.",
    },
    RuleText {
        rule: Rule::R16,
        name: "update with a constructor",
        says: "ReturnCon c ws meets an update frame (empty argument and return stacks above it): overwrite the frame's thunk with the value, an indirection to a new constructor closure that carries the evaluating cost centre; pop the frame, restoring its stacks and the demanding cost centre it saved.",
    },
    RuleText {
        rule: Rule::R16s,
        name: "restore the cost centre (value)",
        says: "A value meets a restore frame (empty argument and return stacks above it): pop it, restoring its stacks and the cost centre it saved. Nothing is updated.",
    },
    RuleText {
        rule: Rule::R17a,
        name: "update with a partial application",
        says: "Enter a, a function with more arguments than the argument stack holds above an update frame: overwrite the frame's thunk with a partial application of a to those arguments, carrying the evaluating cost centre; pop the frame, restoring the cost centre it saved; enter a again with the arguments below.",
    },
    RuleText {
        rule: Rule::R17as,
        name: "restore the cost centre (function)",
        says: "Enter a, a function with more arguments than the argument stack holds above a restore frame: pop the frame, restoring the cost centre it saved; enter a again with the arguments below.",
    },
    RuleText {
        rule: Rule::Scc,
        name: "set cost centre",
        says: "Eval (scc l e): count an entry of l; push a restore frame saving the current cost centre; make l current; evaluate e. (Stacks mode pushes l on the current stack instead, with no frame.)",
    },
    RuleText {
        rule: Rule::SccEq,
        name: "set cost centre, already current",
        says: "Eval (scc l e) with l already current: count an entry of l and evaluate e. No frame: it would restore l itself.",
    },
];
