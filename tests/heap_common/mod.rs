//! Reading `.hp` texts in tests: the censuses, each its step and bytes by
//! band.

use std::collections::BTreeMap;

/// A census: its step and bytes by band.
pub type Census = (String, BTreeMap<String, u64>);

/// The censuses of a `.hp` text (a stacks listing, if appended after a
/// `#` line, left out).
pub fn censuses(hp: &str) -> Vec<Census> {
    let mut out: Vec<Census> = Vec::new();
    for line in hp.lines().take_while(|l| !l.starts_with('#')) {
        if let Some(step) = line.strip_prefix("BEGIN_SAMPLE ") {
            out.push((step.to_string(), BTreeMap::new()));
        } else if let Some((band, bytes)) = line.split_once('\t') {
            let last = out.last_mut().expect("a band line inside a sample");
            last.1.insert(band.to_string(), bytes.parse().unwrap());
        }
    }
    out
}
