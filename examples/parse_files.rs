//! Parses the `.stg` files named on the command line and prints every
//! diagnostic, or "ok" with the number of bindings (a development aid).

use stg_run::stg::parser::parse_module;
use stg_run::stg::source::SourceMap;

fn main() {
    let mut sources = SourceMap::new();
    let mut failed = false;
    for path in std::env::args().skip(1) {
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{path}: {e}");
                failed = true;
                continue;
            }
        };
        let id = sources.add(path.clone(), text.clone());
        let start = std::time::Instant::now();
        let (m, diags) = parse_module(id, "m", &text);
        let took = start.elapsed();
        for d in &diags {
            eprint!("{}", d.render(&sources, false));
        }
        match m {
            Some(m) => println!("{path}: ok, {} bindings, {took:.2?}", m.bindings.len()),
            None => {
                println!("{path}: {} diagnostics", diags.len());
                failed = true;
            }
        }
    }
    std::process::exit(i32::from(failed));
}
