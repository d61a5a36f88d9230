//! The protocol core must stay sans-IO: no code under `src/protocol/` may name a browser or UI
//! crate, so every stage builds and tests natively (`protocol/mod.rs` module docs; spec digest
//! §7.6). This reads the real source files, so adding such a dependency fails it.
//!
//! Comments are not code: the module docs say "no web-sys, no leptos", and doc examples name
//! this crate (`agui_leptos`), which is one identifier, not the `leptos` crate.

use std::path::{Path, PathBuf};

/// Crate names as they appear in Rust paths (`leptos::`, `leptos_router::`, `gloo_timers::`).
const IDENTS: &[&str] = &["web_sys", "wasm_bindgen", "leptos", "js_sys", "gloo"];
/// Spellings that only occur in strings (`cfg(feature = "web-sys")`, `extern crate` aliases…).
const HYPHENATED: &[&str] = &["web-sys", "wasm-bindgen"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn protocol_files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/protocol");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.sort();
    files
}

/// The source with every comment (line, doc, nested block) blanked out; line breaks are kept
/// so line numbers stay right. String and char literals are kept (they are code).
fn strip_comments(src: &str) -> String {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
        } else if c == 'r'
            && !i
                .checked_sub(1)
                .is_some_and(|p| chars[p].is_alphanumeric() || chars[p] == '_')
            && raw_string_hashes(&chars[i + 1..]).is_some()
        {
            // A raw string `r#"…"#`: copy it whole (it may contain `"` and `//`).
            let hashes = raw_string_hashes(&chars[i + 1..]).unwrap_or(0);
            let close: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let body_start = i + 2 + hashes;
            out.extend(&chars[i..body_start]);
            i = body_start;
            while i < chars.len() && !chars[i..].starts_with(&close) {
                out.push(chars[i]);
                i += 1;
            }
            let end = (i + close.len()).min(chars.len());
            out.extend(&chars[i..end]);
            i = end;
        } else if c == '"' {
            // A string literal: copy it whole, honouring escapes.
            out.push(c);
            i += 1;
            while i < chars.len() {
                out.push(chars[i]);
                if chars[i] == '\\' {
                    if let Some(&e) = chars.get(i + 1) {
                        out.push(e);
                    }
                    i += 2;
                    continue;
                }
                i += 1;
                if chars[i - 1] == '"' {
                    break;
                }
            }
        } else if c == '\'' && (chars.get(i + 2) == Some(&'\'') || next == Some('\\')) {
            // A char literal (`'"'`, `'\''`), not a lifetime.
            out.push(c);
            i += 1;
            while i < chars.len() {
                out.push(chars[i]);
                if chars[i] == '\\' {
                    if let Some(&e) = chars.get(i + 1) {
                        out.push(e);
                    }
                    i += 2;
                    continue;
                }
                i += 1;
                if chars[i - 1] == '\'' {
                    break;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// For the text after an `r`: `Some(n)` when it opens a raw string with `n` hashes.
fn raw_string_hashes(rest: &[char]) -> Option<usize> {
    let hashes = rest.iter().take_while(|c| **c == '#').count();
    (rest.get(hashes) == Some(&'"')).then_some(hashes)
}

fn is_forbidden_ident(token: &str) -> bool {
    IDENTS
        .iter()
        .any(|w| token == *w || token.starts_with(&format!("{w}_")))
}

/// Every place where code (comments removed) names a forbidden crate.
fn offences(path: &Path, src: &str) -> Vec<String> {
    let code = strip_comments(src);
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let lower = line.to_lowercase();
        let idents = lower
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|t| is_forbidden_ident(t));
        let hyphenated = HYPHENATED.iter().filter(|w| lower.contains(**w)).copied();
        for word in idents.chain(hyphenated) {
            found.push(format!("{}:{}: names `{word}`", path.display(), n + 1));
        }
    }
    found
}

#[test]
fn protocol_core_names_no_browser_or_ui_crate() {
    let files = protocol_files();
    // The walk must see the core, or the check below would pass vacuously.
    for expected in [
        "mod.rs",
        "pipeline.rs",
        "reducer.rs",
        "sse.rs",
        "enforce.rs",
    ] {
        assert!(
            files
                .iter()
                .any(|p| p.file_name().is_some_and(|n| n == expected)),
            "src/protocol/{expected} not found by the walk: {files:?}"
        );
    }
    let mut all = Vec::new();
    let mut code_bytes = 0;
    for path in &files {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        code_bytes += strip_comments(&text).trim().len();
        all.extend(offences(path, &text));
    }
    assert!(code_bytes > 10_000, "the comment stripper ate the code");
    assert!(
        all.is_empty(),
        "the sans-IO protocol core must not name browser/UI crates:\n{}",
        all.join("\n")
    );
}

#[test]
fn the_inspector_log_and_traces_are_pure_too() {
    // `src/event_log.rs` and `src/trace.rs` are tested and benchmarked natively.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    for name in ["event_log.rs", "trace.rs"] {
        let path = root.join(name);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        all.extend(offences(&path, &text));
    }
    assert!(all.is_empty(), "must stay pure:\n{}", all.join("\n"));
}

#[test]
fn the_scan_detects_each_forbidden_crate_in_code() {
    // The detector must be able to fail: each crate is caught as used from Rust code…
    for (line, word) in [
        ("use web_sys::Window;", "web_sys"),
        ("use wasm_bindgen::prelude::*;", "wasm_bindgen"),
        ("let s = leptos::prelude::signal(0);", "leptos"),
        ("use leptos_router::Route;", "leptos_router"),
        ("let d = js_sys::Date::now();", "js_sys"),
        ("gloo_timers::callback::Timeout::new(1, f);", "gloo_timers"),
        ("#[cfg(feature = \"web-sys\")]", "web-sys"),
        ("const DEP: &str = \"wasm-bindgen\";", "wasm-bindgen"),
        ("fn f<'a>(x: &'a str) { Leptos::mount(x) }", "leptos"),
    ] {
        let found = offences(Path::new("x.rs"), line);
        assert_eq!(found.len(), 1, "{line:?}: {found:?}");
        assert!(found[0].contains(word), "{line:?}: {found:?}");
    }
    // …and also after a comment or string that contains comment markers.
    let src = "/* a /* nested */ block */ let u = \"http://x\"; use leptos::*;\n";
    assert_eq!(offences(Path::new("x.rs"), src).len(), 1);
    let src = "let j = r#\"{\"u\":\"http://x\"}\"#; use js_sys::Array;\n";
    assert_eq!(offences(Path::new("x.rs"), src).len(), 1);
}

#[test]
fn comments_and_this_crates_own_name_are_not_offences() {
    let src = "//! no web-sys, no leptos, no wasm-bindgen\n\
               /// ```\n/// use agui_leptos::protocol::Pipeline;\n/// ```\n\
               /* js_sys */ use serde_json::Value; // gloo\n\
               let c = '\"'; let s = \"// not a comment\";\n";
    assert_eq!(offences(Path::new("x.rs"), src), Vec::<String>::new());
    // Line numbers survive the stripping.
    let src = "/* a\nb */\nuse leptos::*;\n";
    assert_eq!(
        offences(Path::new("x.rs"), src),
        vec!["x.rs:3: names `leptos`".to_owned()]
    );
}
