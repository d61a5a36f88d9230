//! The rules of `docs/dev/architecture.md` that the source itself must keep, read from the real
//! files under `src/`:
//!
//! - The protocol core stays sans-IO: no code under `src/protocol/` may name a browser or UI
//!   crate, so every stage builds and tests natively (`protocol/mod.rs` module docs; spec digest
//!   §7.6); the session, view and other pure modules neither.
//! - Nothing generic names the demo.
//! - The layers, in order ([`LAYERS`]): a top-level module imports only those before it.
//! - No files import each other in a circle, anywhere in `src/`.
//!
//! Imports are resolved as the compiler would: `use` trees and groups, `crate::`, `super::`
//! and `self::` paths in code, paths through a child module, each from the (inline) module it
//! is written in, and through the `use` items of the file they land in (a re-export leads to
//! the file that defines the item). Comments and strings are not code: the module docs say
//! "no web-sys, no leptos", and doc examples name this crate (`agui_leptos`), which is one
//! identifier, not the `leptos` crate.

use std::collections::{BTreeMap, BTreeSet};
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
    scrub(src, true)
}

/// The source as code only: comments removed and the inside of every string and char literal
/// blanked (`"crate::x"` in a message names nothing). Line breaks are kept.
fn code_only(src: &str) -> String {
    scrub(src, false)
}

/// Comments out; literals kept whole (`keep_literals`) or emptied to their quotes.
fn scrub(src: &str, keep_literals: bool) -> String {
    // Inside a literal: the character itself, or only the line breaks.
    let lit = |out: &mut String, c: char| {
        if keep_literals || c == '\n' {
            out.push(c);
        }
    };
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
                lit(&mut out, chars[i]);
                i += 1;
            }
            let end = (i + close.len()).min(chars.len());
            out.extend(&chars[i..end]);
            i = end;
        } else if c == '"' || (c == '\'' && (chars.get(i + 2) == Some(&'\'') || next == Some('\\')))
        {
            // A string literal, or a char literal (`'"'`, `'\''`) rather than a lifetime: copied
            // whole, honouring escapes.
            out.push(c);
            i += 1;
            while i < chars.len() {
                if chars[i] == '\\' {
                    lit(&mut out, chars[i]);
                    if let Some(&e) = chars.get(i + 1) {
                        lit(&mut out, e);
                    }
                    i += 2;
                    continue;
                }
                if chars[i] == c {
                    out.push(c);
                    i += 1;
                    break;
                }
                lit(&mut out, chars[i]);
                i += 1;
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
    for dir in [
        "session", "view", "demo", "a2ui", "mcp_apps", "i18n", "markdown",
    ] {
        rust_files(&root.join(dir), &mut files);
    }
    files.retain(|p| !p.starts_with(root.join("demo/ui")));
    for name in ["event_log.rs", "trace.rs", "embed.rs", "base64.rs"] {
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
        "markdown/incremental.rs",
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

// ---- imports between files ------------------------------------------------------------------

/// The module path of a file of `src/` (`protocol/proto/mod.rs` → `protocol::proto`); the crate
/// roots (`lib.rs`, and `main.rs`, the binary's) are the empty path.
fn module_of(rel: &str) -> Vec<String> {
    let stem = rel.strip_suffix(".rs").unwrap_or(rel);
    let stem = stem.strip_suffix("/mod").unwrap_or(stem);
    if stem == "lib" || stem == "main" {
        return Vec::new();
    }
    stem.split('/').map(str::to_owned).collect()
}

fn is_ident(t: &str) -> bool {
    t.starts_with(|c: char| c.is_alphabetic() || c == '_')
}

/// Code as tokens, each with its line: identifiers (and numbers), `::`, single punctuation.
fn tokens(code: &str) -> Vec<(String, usize)> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push((chars[start..i].iter().collect(), line));
            continue;
        }
        if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push(("::".to_owned(), line));
            i += 2;
            continue;
        }
        if c == '\n' {
            line += 1;
        } else if !c.is_whitespace() {
            out.push((c.to_string(), line));
        }
        i += 1;
    }
    out
}

fn tok(toks: &[(String, usize)], i: usize) -> &str {
    toks.get(i).map_or("", |(t, _)| t.as_str())
}

/// The paths one `use` tree names, as written (`use crate::{a::b, c as d}` → `crate::a::b`
/// bound to `b`, `crate::c` bound to `d`), from `toks[*i]` to the end of the tree.
fn use_tree(
    toks: &[(String, usize)],
    i: &mut usize,
    mut path: Vec<String>,
    out: &mut Vec<(Vec<String>, String)>,
) {
    loop {
        match tok(toks, *i) {
            "::" => *i += 1,
            "{" => {
                *i += 1;
                while !matches!(tok(toks, *i), "}" | "") {
                    use_tree(toks, i, path.clone(), out);
                    if tok(toks, *i) == "," {
                        *i += 1;
                    }
                }
                *i += 1;
                return;
            }
            "*" => {
                *i += 1;
                out.push((path, "*".to_owned()));
                return;
            }
            t if is_ident(t) => {
                // `a::{self}` names `a` itself.
                let own = t == "self" && !path.is_empty() && tok(toks, *i + 1) != "::";
                let mut name = if own {
                    path.last().cloned().unwrap_or_default()
                } else {
                    path.push(t.to_owned());
                    t.to_owned()
                };
                *i += 1;
                if tok(toks, *i) == "::" {
                    *i += 1;
                    continue;
                }
                if tok(toks, *i) == "as" {
                    name = tok(toks, *i + 1).to_owned();
                    *i += 2;
                }
                out.push((path, name));
                return;
            }
            "}" | "," | ";" | "" => return,
            _ => {
                *i += 1;
                return;
            }
        }
    }
}

/// One place where a file names a module path of this crate.
#[derive(Debug, Clone)]
struct Import {
    line: usize,
    /// As written (`super::error::Warning`).
    text: String,
    /// From the crate root (`protocol::error::Warning`).
    path: Vec<String>,
}

/// What a file's code names of this crate, and the names its top-level `use` items bind (which
/// children reach through `super::`, and other modules through its re-exports).
struct FileImports {
    imports: Vec<Import>,
    binds: BTreeMap<String, Vec<String>>,
}

/// The crate's files and what each imports: `use` trees, `crate::`/`super::`/`self::` paths in
/// code, and paths through a child module (`error::Warning` in `protocol/mod.rs`), resolved
/// relative to the (inline) module they are written in.
struct Imports {
    files: BTreeSet<String>,
    by_file: BTreeMap<String, FileImports>,
}

impl Imports {
    /// The files of `src/`, read.
    fn of_src() -> Imports {
        let sources: Vec<(String, String)> = src_files()
            .into_iter()
            .map(|(rel, path)| {
                let text = std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
                (rel, text)
            })
            .collect();
        Imports::new(&sources)
    }

    /// `(path under src/, source)` of every file of a crate.
    fn new(sources: &[(String, String)]) -> Imports {
        let names: BTreeSet<String> = sources.iter().map(|(r, _)| r.clone()).collect();
        let by_file = sources
            .iter()
            .map(|(rel, src)| (rel.clone(), Self::scan(rel, src, &names)))
            .collect();
        Imports {
            files: names,
            by_file,
        }
    }

    /// The file of module `path`, if it is one (`[]` is the crate root).
    fn module_at(files: &BTreeSet<String>, path: &[String]) -> Option<String> {
        if path.is_empty() {
            return Some("lib.rs".to_owned());
        }
        let stem = path.join("/");
        [format!("{stem}.rs"), format!("{stem}/mod.rs")]
            .into_iter()
            .find(|f| files.contains(f))
    }

    /// `path` as written in module `here`, from the crate root; `None` when it is not this
    /// crate's (`std::…`, a type's associated item, a local name).
    fn absolute(path: &[String], here: &[String], files: &BTreeSet<String>) -> Option<Vec<String>> {
        let mut base = here.to_vec();
        let mut rest = path;
        match rest.first()?.as_str() {
            "crate" | "agui_leptos" => {
                base.clear();
                rest = &rest[1..];
            }
            "self" => rest = &rest[1..],
            "super" => {
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
            }
            first => {
                let mut child = here.to_vec();
                child.push(first.to_owned());
                Self::module_at(files, &child)?;
            }
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    fn scan(rel: &str, src: &str, files: &BTreeSet<String>) -> FileImports {
        let toks = tokens(&code_only(src));
        let mut out = FileImports {
            imports: Vec::new(),
            binds: BTreeMap::new(),
        };
        // The inline modules around the current token, with the brace depth inside each.
        let mut scopes: Vec<(Vec<String>, usize)> = vec![(module_of(rel), 0)];
        let mut depth = 0usize;
        let mut i = 0;
        while i < toks.len() {
            let (t, line) = (toks[i].0.as_str(), toks[i].1);
            let here = scopes.last().map(|s| s.0.clone()).unwrap_or_default();
            let prev = if i == 0 { "" } else { tok(&toks, i - 1) };
            if t == "{" {
                depth += 1;
            } else if t == "}" {
                depth = depth.saturating_sub(1);
                if scopes.len() > 1 && scopes.last().is_some_and(|s| s.1 > depth) {
                    scopes.pop();
                }
            } else if t == "mod" && is_ident(tok(&toks, i + 1)) && tok(&toks, i + 2) == "{" {
                let mut inner = here.clone();
                inner.push(tok(&toks, i + 1).to_owned());
                depth += 1;
                scopes.push((inner, depth));
                i += 3;
                continue;
            } else if t == "use" && !matches!(prev, "::" | ".") {
                let mut items = Vec::new();
                i += 1;
                use_tree(&toks, &mut i, Vec::new(), &mut items);
                let top = scopes.len() == 1 && depth == 0;
                for (path, name) in items {
                    if let Some(abs) = Self::absolute(&path, &here, files) {
                        if top && name != "*" {
                            out.binds.insert(name, abs.clone());
                        }
                        out.imports.push(Import {
                            line,
                            text: path.join("::"),
                            path: abs,
                        });
                    }
                }
                continue;
            } else if is_ident(t) && tok(&toks, i + 1) == "::" && !matches!(prev, "::" | ".") {
                let mut path = vec![t.to_owned()];
                let mut j = i + 1;
                while tok(&toks, j) == "::" && is_ident(tok(&toks, j + 1)) {
                    path.push(tok(&toks, j + 1).to_owned());
                    j += 2;
                }
                if let Some(abs) = Self::absolute(&path, &here, files) {
                    out.imports.push(Import {
                        line,
                        text: path.join("::"),
                        path: abs,
                    });
                }
                i = j;
                continue;
            }
            i += 1;
        }
        out
    }

    /// The file that defines what `path` names: the longest prefix that is a module file,
    /// followed through that file's `use` items (`protocol::Warning` → `protocol/error.rs`).
    fn file_of(&self, path: &[String], hops: usize) -> Option<String> {
        let (n, file) = (0..=path.len())
            .rev()
            .find_map(|n| Self::module_at(&self.files, &path[..n]).map(|f| (n, f)))?;
        let bound = path
            .get(n)
            .and_then(|name| self.by_file.get(&file)?.binds.get(name));
        if let (Some(target), true) = (bound, hops < 8) {
            let mut p = target.clone();
            p.extend(path[n + 1..].iter().cloned());
            if let Some(f) = self.file_of(&p, hops + 1) {
                return Some(f);
            }
        }
        Some(file)
    }

    /// `file → (file it imports → the first import that names it)`, without self-imports.
    fn edges(&self) -> BTreeMap<String, BTreeMap<String, Import>> {
        let mut edges = BTreeMap::new();
        for (rel, f) in &self.by_file {
            let mut out: BTreeMap<String, Import> = BTreeMap::new();
            for import in &f.imports {
                if let Some(target) = self.file_of(&import.path, 0) {
                    if &target != rel {
                        out.entry(target).or_insert_with(|| import.clone());
                    }
                }
            }
            edges.insert(rel.clone(), out);
        }
        edges
    }
}

/// The top-level module a file belongs to (`protocol/proto/mod.rs` → `protocol`).
fn layer_of(rel: &str) -> &str {
    let first = rel.split('/').next().unwrap_or(rel);
    first.strip_suffix(".rs").unwrap_or(first)
}

/// The cycles among `nodes` (strongly connected components with more than one file).
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Reachability by depth-first search from every node: the graph is small.
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
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
    let reachable: BTreeMap<&String, BTreeSet<String>> =
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
fn the_cycle_check_can_fail() {
    let mut edges = BTreeMap::new();
    let set = |v: &[&str]| v.iter().map(|s| s.to_string()).collect();
    edges.insert("a.rs".to_owned(), set(&["b.rs"]));
    edges.insert("b.rs".to_owned(), set(&["c.rs"]));
    edges.insert("c.rs".to_owned(), set(&["a.rs"]));
    edges.insert("d.rs".to_owned(), set(&["a.rs"]));
    assert_eq!(cycles(&edges), vec![vec!["a.rs", "b.rs", "c.rs"]]);
    let files = ["a.rs", "b.rs", "c.rs"].map(String::from);
    assert_eq!(
        shortest_loop(&edges, &files),
        ["a.rs", "b.rs", "c.rs", "a.rs"]
    );
}

// ---- the layers -----------------------------------------------------------------------------

/// The top-level modules of `src/`, bottom up (`docs/dev/architecture.md`, "The layers, in
/// order"): a module may import the ones before it, never one after it.
const LAYERS: &[&str] = &[
    "protocol",
    "base64",
    "markdown",
    "i18n",
    "view",
    "event_log",
    "trace",
    "session",
    "wording",
    "embed",
    "a2ui",
    "mcp_apps",
    "split",
    "transport",
    "store",
    "plugins",
    "ui",
    "hooks",
    "app",
    "widget",
    "demo",
];

/// Above every layer: the crate root (it declares the modules and re-exports what an embedder
/// needs) and the app's binary. They may import anything; nothing imports them.
const ROOTS: &[&str] = &["lib.rs", "main.rs"];

/// Imports that go up the order or close a circle today, all in files being rewritten by
/// another change (the last one is an old path kept for them): `(file, the file it imports,
/// why)`, under `src/`. The list only shrinks: an entry the code no longer needs fails
/// `the_allowed_imports_are_all_still_needed`.
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "store/run.rs",
        "store.rs",
        "circle: `use super::*` takes all of store.rs, which calls run::read_saved back",
    ),
    (
        "session/flush.rs",
        "session/mod.rs",
        "circle: `impl Session` (what changed, for the store), and mod.rs holds its Dirty and Timings",
    ),
    (
        "session/run.rs",
        "session/mod.rs",
        "circle: `impl Session` (the stream, a run's end), and mod.rs re-exports RunRequest",
    ),
    (
        "session/hitl.rs",
        "session/mod.rs",
        "circle: `impl Session` (RunOptions, RunRequest in mod.rs), and mod.rs holds a Hitl",
    ),
    (
        "session/inspector.rs",
        "session/mod.rs",
        "circle: `impl Session` for the event logs, and mod.rs holds the Logs",
    ),
    (
        "session/queue.rs",
        "session/mod.rs",
        "circle: `impl Session` (RunRequest in mod.rs), and mod.rs names queue::Offered",
    ),
    (
        "session/threads.rs",
        "session/mod.rs",
        "circle: `impl Session` (AgentConfig, RunOptions… in mod.rs), and mod.rs holds the Threads",
    ),
    (
        "session/sync.rs",
        "session/mod.rs",
        "circle: `impl Session` (the thread store's calls), and the Threads hold its Sync",
    ),
];

fn allowed(from: &str, to: &str) -> bool {
    ALLOWED.iter().any(|(a, b, _)| *a == from && *b == to)
}

/// Where a file's module stands in [`LAYERS`] (`None`: not in it).
fn layer_index(rel: &str) -> Option<usize> {
    LAYERS.iter().position(|l| *l == layer_of(rel))
}

/// `from` imports `to` against the order: a later layer, or a root.
fn goes_up(from: &str, to: &str) -> bool {
    !ROOTS.contains(&from)
        && (ROOTS.contains(&to)
            || (layer_of(from) != layer_of(to) && layer_index(to) > layer_index(from)))
}

/// `src/a.rs:3 imports src/b.rs (`super::b::X`)`.
fn edge_text(from: &str, to: &str, import: &Import) -> String {
    format!(
        "src/{from}:{} imports src/{to} (`{}`)",
        import.line, import.text
    )
}

/// Every import against the order that is not allowed, worded.
fn upward(imports: &Imports) -> Vec<String> {
    let mut found = Vec::new();
    for (from, targets) in imports.edges() {
        for (to, import) in targets {
            if goes_up(&from, &to) && !allowed(&from, &to) {
                found.push(format!(
                    "{}: {} comes before {} in the layer order",
                    edge_text(&from, &to, &import),
                    layer_of(&from),
                    layer_of(&to)
                ));
            }
        }
    }
    found
}

/// The file graph: `file → files it imports`, the allowed imports left out when `allow`.
fn graph(imports: &Imports, allow: bool) -> BTreeMap<String, BTreeSet<String>> {
    imports
        .edges()
        .into_iter()
        .map(|(from, targets)| {
            let to = targets
                .into_keys()
                .filter(|to| !(allow && allowed(&from, to)))
                .collect();
            (from, to)
        })
        .collect()
}

/// Each circle among the files (allowed imports left out), worded as one of its shortest
/// loops, import by import.
fn circles(imports: &Imports) -> Vec<String> {
    let edges = imports.edges();
    let graph = graph(imports, true);
    cycles(&graph)
        .into_iter()
        .map(|files| {
            let steps: Vec<String> = shortest_loop(&graph, &files)
                .windows(2)
                .map(|w| edge_text(&w[0], &w[1], &edges[&w[0]][&w[1]]))
                .collect();
            format!("{} files {files:?}:\n  {}", files.len(), steps.join("\n  "))
        })
        .collect()
}

/// A shortest loop from the first of `files` (a circle) back to it, by breadth-first search:
/// the files it passes, the first one last again.
fn shortest_loop(graph: &BTreeMap<String, BTreeSet<String>>, files: &[String]) -> Vec<String> {
    let start = &files[0];
    let mut parent: BTreeMap<&String, &String> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(n) = queue.pop_front() {
        for m in graph.get(n).into_iter().flatten() {
            if m == start {
                let mut back = vec![start.clone(), n.clone()];
                let mut cur = n;
                while cur != start {
                    cur = parent[cur];
                    back.push(cur.clone());
                }
                back.reverse();
                return back;
            }
            if files.contains(m) && !parent.contains_key(m) {
                parent.insert(m, n);
                queue.push_back(m);
            }
        }
    }
    files.to_vec()
}

/// Whether `to` reaches `from` (so an import `from → to` closes a circle).
fn reaches(graph: &BTreeMap<String, BTreeSet<String>>, to: &str, from: &str) -> bool {
    let mut seen = BTreeSet::new();
    let mut stack = vec![to.to_owned()];
    while let Some(n) = stack.pop() {
        if n == from {
            return true;
        }
        for m in graph.get(&n).into_iter().flatten() {
            if seen.insert(m.clone()) {
                stack.push(m.clone());
            }
        }
    }
    false
}

#[test]
fn every_module_of_src_is_in_the_layer_order() {
    let imports = Imports::of_src();
    let modules: BTreeSet<&str> = imports
        .files
        .iter()
        .filter(|f| !ROOTS.contains(&f.as_str()))
        .map(|f| layer_of(f))
        .collect();
    let listed: BTreeSet<&str> = LAYERS.iter().copied().collect();
    assert_eq!(
        modules, listed,
        "src/ and LAYERS (docs/dev/architecture.md, \"The layers, in order\") differ"
    );
}

#[test]
fn no_module_imports_one_later_in_the_order() {
    let imports = Imports::of_src();
    let count: usize = imports.edges().values().map(BTreeMap::len).sum();
    assert!(
        count > 400,
        "only {count} imports found: the scan is broken"
    );
    let found = upward(&imports);
    assert!(
        found.is_empty(),
        "imports against the layer order (docs/dev/architecture.md, \"The layers, in order\"):\n{}",
        found.join("\n")
    );
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    // Regression: tool_card ↔ frontend_tools ↔ tool_registry ↔ trip_panel ↔ venue_card named
    // each other; so did protocol/error.rs and the AI SDK and protobuf decoders it wraps.
    let found = circles(&Imports::of_src());
    assert!(
        found.is_empty(),
        "import circles between files of src/:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_allowed_imports_are_all_still_needed() {
    // An entry whose import is gone, or that neither goes up the order nor closes a circle,
    // leaves the list.
    let imports = Imports::of_src();
    let edges = imports.edges();
    let graph = graph(&imports, false);
    for (from, to, why) in ALLOWED {
        assert!(!why.is_empty(), "src/{from} → src/{to}: say why");
        assert!(
            edges.get(*from).is_some_and(|t| t.contains_key(*to)),
            "src/{from} no longer imports src/{to}: take it off ALLOWED"
        );
        assert!(
            goes_up(from, to) || reaches(&graph, to, from),
            "src/{from} → src/{to} breaks no rule: take it off ALLOWED"
        );
    }
}

fn sources(files: &[(&str, &str)]) -> Vec<(String, String)> {
    files
        .iter()
        .map(|(rel, src)| (rel.to_string(), src.to_string()))
        .collect()
}

#[test]
fn the_import_scan_reads_every_form() {
    let imports = Imports::new(&sources(&[
        ("lib.rs", "pub mod a;\npub mod b;\npub use b::Thing;\n"),
        ("a/mod.rs", "mod x;\nmod y;\npub use x::{X, Y as Why};\n"),
        (
            "a/x.rs",
            "pub struct X;\npub struct Y;\n// use crate::b::Thing;\nconst S: &str = \"crate::b::Thing\";\n",
        ),
        (
            "a/y.rs",
            "use super::{X, Why};\nuse super::super::b::{self, deep::{Deep}};\n\
             fn f() { crate::Thing::new(); }\n#[cfg(test)]\nmod tests { use super::*; }\n",
        ),
        ("b/mod.rs", "pub mod deep;\npub struct Thing;\n"),
        (
            "b/deep.rs",
            "pub struct Deep;\nuse crate::a as alias;\nfn g() { self::Deep; }\n",
        ),
    ]));
    let edges = imports.edges();
    let targets = |f: &str| edges[f].keys().cloned().collect::<Vec<_>>();
    // Comments and strings are not code.
    assert_eq!(targets("a/x.rs"), Vec::<String>::new());
    // `super::` groups through a re-export (`Why` is `x::Y`), `super::super::…::{self, …}`,
    // nested groups, a path in code through the root's re-export; the inline test module's
    // `super::*` is the file itself.
    assert_eq!(targets("a/y.rs"), ["a/x.rs", "b/deep.rs", "b/mod.rs"]);
    assert_eq!(edges["a/y.rs"]["a/x.rs"].line, 1);
    assert_eq!(edges["a/y.rs"]["b/mod.rs"].line, 2);
    // A parent naming its child (`pub use x::…`) imports it; `mod x;` does not.
    assert_eq!(targets("a/mod.rs"), ["a/x.rs"]);
    // `as` renames; `self::` is the file itself.
    assert_eq!(targets("b/deep.rs"), ["a/mod.rs"]);
    assert_eq!(targets("lib.rs"), ["b/mod.rs"]);
    // The longest prefix that is a module file.
    let names = sources(&[
        ("ui/mod.rs", ""),
        ("ui/tool/mod.rs", ""),
        ("ui/tool/call.rs", ""),
    ]);
    let ui = Imports::new(&names);
    let path = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        ui.file_of(&path(&["ui", "tool", "ToolCallView"]), 0)
            .as_deref(),
        Some("ui/tool/mod.rs")
    );
    assert_eq!(
        ui.file_of(&path(&["ui", "tool", "call", "ToolCallView"]), 0)
            .as_deref(),
        Some("ui/tool/call.rs")
    );
}

#[test]
fn the_order_and_circle_checks_can_fail() {
    let imports = Imports::new(&sources(&[
        ("lib.rs", "pub mod protocol;\npub mod session;\n"),
        ("protocol/mod.rs", "pub mod a;\n"),
        ("protocol/a.rs", "use crate::session::Session;\n"),
        (
            "session/mod.rs",
            "pub struct Session;\nfn f() { crate::protocol::a::g(); }\n",
        ),
    ]));
    assert_eq!(
        upward(&imports),
        [
            "src/protocol/a.rs:1 imports src/session/mod.rs (`crate::session::Session`): \
          protocol comes before session in the layer order"
        ]
    );
    assert_eq!(
        circles(&imports),
        ["2 files [\"protocol/a.rs\", \"session/mod.rs\"]:\n  \
          src/protocol/a.rs:1 imports src/session/mod.rs (`crate::session::Session`)\n  \
          src/session/mod.rs:2 imports src/protocol/a.rs (`crate::protocol::a::g`)"]
    );
}
