//! `parse_module` never panics, whatever the input: arbitrary bytes, and
//! valid programs with chunks deleted, inserted or duplicated. Also very deep
//! nesting of every kind, which must give an error, not a stack overflow.

use proptest::prelude::*;
use stg_run::internal::stg::layout::MAX_CHAIN;
use stg_run::internal::stg::parser::parse_module;
use stg_run::internal::stg::source::SourceMap;

const PROGRAMS: [&str; 3] = [
    r#"-- map, exactly as in the 1992 paper
map = {} \n {f,xs} ->
  case xs of
    Nil {} -> Nil {}
    Cons {y,ys} -> let fy = {f,y} \u {} -> f {y}
                       mfy = {f,ys} \u {} -> map {f,ys}
                   in Cons {fy,mfy}

double = {} \r {x} -> case x of I# {x#} -> case +# {x#, x#} of r# -> I# {r#}
main = {} \u {} ->
  letrec one = {} \r {} -> I# {1#}
         two = {} \r {} -> I# {2#}
         nil = {} \r {} -> Nil {}
         l2 = {two,nil} \r {} -> Cons {two,nil}
         l = {one,l2} \r {} -> Cons {one,l2}
  in scc "foo" (map {double, l})
"#,
    r#"{- nfib {- nested -} -}
nfib = \r {n} ->
  case n of
    I# {n#} -> case <# {n#, 2#} of
                 1# -> I# {1#}
                 default -> let a = \u {} -> nfib {n}; b = \s {} -> x
                            in case /=# {n#, -3#} of r# -> scc "a\"b\\c\n" I# {r#}
main = \u {} -> nfib {ten}
ten = \r {} -> I# {10#}
"#,
    "f = {x} \\r {y, z} -> (case y of A {a} -> (f {a}); B -> negate# {z})\ng = \\u {} -> h\n",
];

fn parse_and_render(text: &str) {
    let mut sources = SourceMap::new();
    let id = sources.add("fuzz.stg", text);
    let (module, diags) = parse_module(id, "fuzz", text);
    // Either a module and no errors, or errors and no module.
    assert_eq!(module.is_some(), !diags.iter().any(|d| d.is_error()));
    for (i, d) in diags.iter().enumerate() {
        assert!(d.span.start <= d.span.end, "{d:?}");
        assert!(
            d.span.end as usize <= text.len(),
            "span out of range: {d:?}"
        );
        assert!(text.is_char_boundary(d.span.start as usize));
        assert!(text.is_char_boundary(d.span.end as usize));
        // Rendering (ariadne) is the slow part: render a few per input.
        if i < 4 {
            let _ = d.render(&sources, false);
        }
    }
}

#[derive(Clone, Debug)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, String),
    Duplicate(usize, usize),
}

fn apply(src: &str, edits: &[Edit]) -> String {
    let mut s: Vec<u8> = src.as_bytes().to_vec();
    for e in edits {
        let n = s.len().max(1);
        match e {
            Edit::Delete(a, len) => {
                let a = a % n;
                let b = (a + len).min(s.len());
                s.drain(a.min(s.len())..b);
            }
            Edit::Insert(a, text) => {
                let a = (a % n).min(s.len());
                s.splice(a..a, text.bytes());
            }
            Edit::Duplicate(a, len) => {
                let a = (a % n).min(s.len());
                let b = (a + len).min(s.len());
                let chunk: Vec<u8> = s[a..b].to_vec();
                s.splice(b..b, chunk);
            }
        }
    }
    String::from_utf8_lossy(&s).into_owned()
}

fn edit() -> impl Strategy<Value = Edit> {
    let token = prop::sample::select(vec![
        "{", "}", "(", ")", ";", ",", "=", "->", "\\u", "\\n", "let ", "letrec ", " in ", "case ",
        " of ", "scc ", "\"", "{-", "-}", "--", "\n", "\n  ", "\t", "-1#", "x", "C", "+#",
        "default", "#", "\\",
    ]);
    prop_oneof![
        (any::<usize>(), 0usize..20).prop_map(|(a, l)| Edit::Delete(a, l)),
        (any::<usize>(), token).prop_map(|(a, t)| Edit::Insert(a, t.to_string())),
        (any::<usize>(), ".{0,8}").prop_map(|(a, t)| Edit::Insert(a, t)),
        (any::<usize>(), 0usize..40).prop_map(|(a, l)| Edit::Duplicate(a, l)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        parse_and_render(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn token_soup(parts in prop::collection::vec(prop::sample::select(vec![
        "{", "}", "(", ")", ";", ",", "=", "->", "\\u", "\\r", "let", "letrec", "in", "case",
        "of", "scc", "\"l\"", "default", "x", "y#", "C", "1#", "-2#", "+#", "negate#", " ", " ",
        "\n", "\n ", "\n  ", "\n    ",
    ]), 0..80)) {
        parse_and_render(&parts.join(" "));
    }

    #[test]
    fn mutated_programs(which in 0usize..PROGRAMS.len(), edits in prop::collection::vec(edit(), 1..6)) {
        parse_and_render(&apply(PROGRAMS[which], &edits));
    }
}

#[test]
fn the_valid_programs_parse() {
    for p in PROGRAMS {
        let (m, d) = parse_module(0, "p", p);
        assert!(d.is_empty(), "{d:#?}");
        assert!(m.is_some());
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let n = 100_000;
    let cases = [
        format!("m = \\u {{}} -> {}x{}", "(".repeat(n), ")".repeat(n)),
        format!("m = \\u {{}} -> {}x", "(".repeat(n)),
        format!(
            "m = \\u {{}} -> {}x",
            "let a = \\u {} -> x in ".repeat(MAX_CHAIN + 1)
        ),
        format!("m = \\u {{}} -> {}x", "scc \"l\" ".repeat(MAX_CHAIN + 1)),
        format!("m = \\u {{}} -> {}x", "case ".repeat(n)),
        format!("m = \\u {{}} -> {}", "case x of A -> ".repeat(n)),
        format!("m = \\u {{}} -> {}", "let a = \\u {} -> ".repeat(n)),
        format!("m = {}", "{".repeat(n)),
        format!("m = \\u {{}} -> {}", "{-".repeat(n)),
    ];
    for src in &cases {
        let (m, d) = parse_module(0, "deep", src);
        assert!(m.is_none());
        assert!(!d.is_empty());
    }
    // Nested lets on separate lines, each indented further.
    let mut src = String::from("m = \\u {} ->\n");
    for k in 0..1200 {
        src.push_str(&" ".repeat(k + 1));
        src.push_str("let a = \\u {} ->\n");
    }
    let (m, d) = parse_module(0, "deep", &src);
    assert!(m.is_none());
    assert!(d.iter().any(|d| d.message.contains("nesting too deep")));
}
