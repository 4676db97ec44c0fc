//! The explorer page: one self-contained HTML file (no network) holding
//! the run's JSON trace and the script and style that step through it
//! (`page.js`, `page.css`, compiled in).

const SCRIPT: &str = include_str!("page.js");
const STYLE: &str = include_str!("page.css");

/// Append one JSON line to the page's data, an array of records. Every
/// `<` (in JSON, only ever inside a string) is written `\u003c`, the same
/// string to a JSON reader, so that nothing in the program's text
/// (`</script>`, `<!--`) can end or change the `<script>` element.
pub fn embed_line(data: &mut String, json: &str) {
    if !data.is_empty() {
        data.push_str(",\n");
    }
    data.push_str(&json.replace('<', "\\u003c"));
}

/// The page titled `title` for the lines in `data` (see [`embed_line`]).
pub fn build(title: &str, data: &str) -> String {
    let mut html = String::with_capacity(data.len() + SCRIPT.len() + STYLE.len() + 4096);
    html.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    html.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    html.push_str("<title>");
    html.push_str(&escape_html(title));
    html.push_str(" — stg-run explorer</title>\n<style>\n");
    html.push_str(STYLE);
    html.push_str("</style>\n</head>\n<body>\n<div id=\"app\">Loading the run…</div>\n");
    html.push_str("<script id=\"trace\" type=\"application/json\">[\n");
    html.push_str(data);
    html.push_str("\n]</script>\n<script>\n");
    html.push_str(SCRIPT);
    html.push_str("</script>\n</body>\n</html>\n");
    html
}

fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
