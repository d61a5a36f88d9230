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
        // This crate's own name (`agui-leptos` in a string) is not the `leptos` crate.
        let lower = line.to_lowercase().replace("agui-leptos", "");
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
        "reducer/mod.rs",
        "state_patch.rs",
        "sse.rs",
        "enforce.rs",
    ] {
        assert!(
            files.iter().any(|p| p.ends_with(expected)),
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

/// Every file of the pure layers above the protocol: the session and view layers, the demo
/// agent and its card models (not its components, `src/demo/ui/`), markdown, the catalog,
/// widget options, branches, the inspector's log and traces, the A2UI surface model, the MCP
/// Apps bridge, base64.
fn pure_files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for dir in ["session", "view", "demo", "a2ui", "mcp_apps", "i18n"] {
        rust_files(&root.join(dir), &mut files);
    }
    files.retain(|p| !p.starts_with(root.join("demo/ui")));
    for name in [
        "event_log.rs",
        "trace.rs",
        "markdown.rs",
        "embed.rs",
        "base64.rs",
    ] {
        files.push(root.join(name));
    }
    files.sort();
    files
}

#[test]
fn the_session_and_view_layers_are_pure_too() {
    // Tested and benchmarked natively: `cargo test` covers them without a browser.
    let files = pure_files();
    for expected in [
        "view/tool.rs",
        "view/format.rs",
        "session/mod.rs",
        "demo/model.rs",
        "mcp_apps/bridge.rs",
        "i18n/overrides.rs",
        "i18n/ar.rs",
    ] {
        assert!(
            files.iter().any(|p| p.ends_with(expected)),
            "src/{expected} not found by the walk"
        );
    }
    let mut all = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        all.extend(offences(path, &text));
    }
    assert!(all.is_empty(), "must stay pure:\n{}", all.join("\n"));
}

/// Every Rust file under `src/` with its path relative to `src/`.
fn src_files() -> Vec<(String, PathBuf)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| {
            let rel = p
                .strip_prefix(&root)
                .expect("under src")
                .to_string_lossy()
                .replace('\\', "/");
            (rel, p)
        })
        .collect()
}

#[test]
fn nothing_generic_imports_the_demo() {
    // The demo is a plug-in: only the demo itself and the app's binary (which registers it)
    // may name it. A generic module that did would put the demo into every site's chat.
    let mut found = Vec::new();
    for (rel, path) in src_files() {
        if rel.starts_with("demo/") || rel == "main.rs" {
            continue;
        }
        let code = strip_comments(&std::fs::read_to_string(&path).expect("readable"));
        for (n, line) in code.lines().enumerate() {
            if line.contains("crate::demo") || line.contains("agui_leptos::demo") {
                found.push(format!("src/{rel}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "generic code names the demo:\n{}",
        found.join("\n")
    );
}

/// The file a `crate::a::b::c` path lands in: the longest prefix that is a module file.
fn module_file(path: &[&str], files: &std::collections::BTreeSet<String>) -> Option<String> {
    (1..=path.len()).rev().find_map(|n| {
        let stem = path[..n].join("/");
        [format!("{stem}.rs"), format!("{stem}/mod.rs")]
            .into_iter()
            .find(|f| files.contains(f))
    })
}

/// `file → files it names through `crate::…` paths` (comments stripped).
fn crate_edges(
    files: &[(String, PathBuf)],
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let names: std::collections::BTreeSet<String> = files.iter().map(|(r, _)| r.clone()).collect();
    let mut edges = std::collections::BTreeMap::new();
    for (rel, path) in files {
        let code = strip_comments(&std::fs::read_to_string(path).expect("readable"));
        let mut out = std::collections::BTreeSet::new();
        for (i, _) in code.match_indices("crate::") {
            if code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let rest = &code[i + "crate::".len()..];
            let segments: Vec<&str> = rest
                .split("::")
                .map(|s| {
                    let end = s
                        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .unwrap_or(s.len());
                    &s[..end]
                })
                .take_while(|s| !s.is_empty())
                .collect();
            if let Some(target) = module_file(&segments, &names) {
                if &target != rel {
                    out.insert(target);
                }
            }
        }
        edges.insert(rel.clone(), out);
    }
    edges
}

/// The cycles among `nodes` (strongly connected components with more than one file).
fn cycles(
    edges: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
) -> Vec<Vec<String>> {
    // Reachability by depth-first search from every node: the graph is small.
    let reach = |from: &String| {
        let mut seen = std::collections::BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(n) = stack.pop() {
            for m in edges.get(&n).into_iter().flatten() {
                if seen.insert(m.clone()) {
                    stack.push(m.clone());
                }
            }
        }
        seen
    };
    let reachable: std::collections::BTreeMap<&String, std::collections::BTreeSet<String>> =
        edges.keys().map(|k| (k, reach(k))).collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    for a in edges.keys() {
        let mut scc: Vec<String> = edges
            .keys()
            .filter(|b| *b != a && reachable[a].contains(*b) && reachable[*b].contains(a))
            .cloned()
            .collect();
        if scc.is_empty() {
            continue;
        }
        scc.push(a.clone());
        scc.sort();
        if !out.contains(&scc) {
            out.push(scc);
        }
    }
    out
}

#[test]
fn the_ui_plugins_and_demo_have_no_import_cycle() {
    // Regression: tool_card ↔ frontend_tools ↔ tool_registry ↔ trip_panel ↔ venue_card named
    // each other. Components, registries and the demo's cards point one way.
    let files: Vec<(String, PathBuf)> = src_files()
        .into_iter()
        .filter(|(r, _)| r.starts_with("ui/") || r.starts_with("demo/") || r == "plugins.rs")
        .collect();
    assert!(files.len() > 20, "the walk found {} files", files.len());
    let edges = crate_edges(&files);
    let count: usize = edges.values().map(|e| e.len()).sum();
    assert!(
        count > 40,
        "only {count} edges found: the path scan is broken"
    );
    let found = cycles(&edges);
    assert!(found.is_empty(), "import cycles: {found:?}");
}

#[test]
fn the_cycle_check_can_fail() {
    let mut edges = std::collections::BTreeMap::new();
    let set = |v: &[&str]| v.iter().map(|s| s.to_string()).collect();
    edges.insert("a.rs".to_owned(), set(&["b.rs"]));
    edges.insert("b.rs".to_owned(), set(&["c.rs"]));
    edges.insert("c.rs".to_owned(), set(&["a.rs"]));
    edges.insert("d.rs".to_owned(), set(&["a.rs"]));
    assert_eq!(cycles(&edges), vec![vec!["a.rs", "b.rs", "c.rs"]]);
    let names = ["ui/mod.rs", "ui/tool/mod.rs", "ui/tool/call.rs"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(
        module_file(&["ui", "tool", "ToolCallView"], &names).as_deref(),
        Some("ui/tool/mod.rs")
    );
    assert_eq!(
        module_file(&["ui", "tool", "call", "ToolCallView"], &names).as_deref(),
        Some("ui/tool/call.rs")
    );
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
