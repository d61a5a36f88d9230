//! A small, safe CSS minifier for the stylesheets compiled into the wasm (`build.rs`): drops
//! comments, collapses whitespace to one space, removes the spaces around `{`, `}`, `;` and
//! `,` and the `;` before a `}`. Quoted strings are copied as they are; a space that may
//! be a descendant combinator (`.a :focus`) or part of a value (`0 auto`, `1px + 2px`) stays.
//! Shared by `build.rs`, `src/ui/styles.rs` and `tests/project/css_min.rs` (`#[path]`), so it is std
//! only. It also knows the two halves `build.rs` cuts the sheet into ([`JOIN`], [`interleave`]).

/// `css` minified (see the module docs). Minifying twice gives the same text.
pub fn minify(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut pending_space = false;
    let mut chars = css.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '/' && css[i..].starts_with("/*") {
            // A comment is whitespace; an unterminated one runs to the end.
            let end = css[i + 2..].find("*/").map_or(css.len(), |e| i + 2 + e + 2);
            while chars.peek().is_some_and(|&(j, _)| j < end) {
                chars.next();
            }
            pending_space = true;
            continue;
        }
        if c.is_whitespace() {
            pending_space = true;
            continue;
        }
        let tight = |ch: char| matches!(ch, '{' | '}' | ';' | ',');
        if pending_space && !out.is_empty() && !tight(c) && !out.ends_with(tight) {
            out.push(' ');
        }
        pending_space = false;
        if c == '}' && out.ends_with(';') {
            out.pop();
        }
        out.push(c);
        if c == '"' || c == '\'' {
            // Copy the string through its closing quote (a backslash escapes one character).
            while let Some((_, s)) = chars.next() {
                out.push(s);
                if s == '\\' {
                    if let Some((_, e)) = chars.next() {
                        out.push(e);
                    }
                } else if s == c {
                    break;
                }
            }
        }
    }
    out
}

/// What separates two runs of one half of the stylesheet (`build.rs` cuts it in two for the
/// lean widget's split build, by the halves of `build/sheets.rs`; a run is the sheets in a row
/// of one half): an empty comment — valid CSS, and never in minified CSS.
pub const JOIN: &str = "/**/";

/// The two halves of the stylesheet put back in their places: runs of `main` and `modules`
/// alternately, from `main`'s first — with `build.rs`'s halves, the whole sheet. A missing run
/// of `modules` is empty, an extra one is dropped.
#[allow(dead_code)] // build.rs writes the halves; the widget and the tests put them back.
pub fn interleave(main: &str, modules: &str) -> String {
    let mut whole = String::with_capacity(main.len() + modules.len());
    let mut later = modules.split(JOIN);
    for run in main.split(JOIN) {
        whole.push_str(run);
        whole.push_str(later.next().unwrap_or(""));
    }
    whole
}
