//! The option table (`src/embed/table.rs`) is the one source of what a site owner reads about
//! `<agui-chat>`: this test generates, from it and from the theme tokens (`style/tokens.css`,
//! their descriptions from the docs' Theming table), the element manifest
//! (`npm/custom-elements.json`), the option and event types of `npm/index.d.ts` and
//! `npm/react.d.ts`, the loader's property list (`src/loader/agui-chat.js`), the React
//! wrapper's prop list (`npm/react.js`) and the docs' option reference
//! (`docs/reference/options.md`), and fails when a committed copy differs — an option added to
//! one of them only. The same for the UI strings: `AguiStrings` in `npm/index.d.ts` is
//! generated from the catalog's keys and their docs (`src/i18n/strings.rs`), so a key added to
//! the catalog fails here until the declarations have it. `AGUI_BLESS=1 cargo test --test
//! manifest` writes them anew.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use agui_leptos::embed::{EventSpec, OptionSpec, Reader, EVENTS, OPTION_TABLE};
use agui_leptos::i18n::{Strings, EN};
use serde_json::{json, Value};

const BEGIN: &str = "@generated-begin";
const END: &str = "@generated-end";
/// The region of `npm/index.d.ts` generated from the catalog's keys.
const STRINGS_BEGIN: &str = "@strings-begin";
const STRINGS_END: &str = "@strings-end";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Compares `path`'s text between its `BEGIN` and `END` marker lines (or all of it, with
/// `whole`) with `body`; with `AGUI_BLESS` set, writes `body` there instead.
fn check(path: &str, body: &str, whole: bool, problems: &mut Vec<String>) {
    check_region(path, (BEGIN, END), body, whole, problems);
}

/// [`check`] between the lines that hold `begin` and `end`.
fn check_region(
    path: &str,
    (begin, end): (&str, &str),
    body: &str,
    whole: bool,
    problems: &mut Vec<String>,
) {
    let text = std::fs::read_to_string(root().join(path)).unwrap_or_default();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let (head, now, tail) = if whole {
        (String::new(), text.clone(), String::new())
    } else {
        let b = lines.iter().position(|l| l.contains(begin));
        let e = lines.iter().position(|l| l.contains(end));
        let (Some(b), Some(e)) = (b, e.filter(|e| Some(*e) > b)) else {
            problems.push(format!("{path}: no {begin} … {end} lines"));
            return;
        };
        (
            lines[..=b].concat(),
            lines[b + 1..e].concat(),
            lines[e..].concat(),
        )
    };
    if now == body {
        return;
    }
    if std::env::var_os("AGUI_BLESS").is_some() {
        std::fs::write(root().join(path), format!("{head}{body}{tail}"))
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        return;
    }
    let line = now
        .lines()
        .zip(body.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| now.lines().count().min(body.lines().count()));
    problems.push(format!(
        "{path}: differs from the option table (first at generated line {}: {:?} should be {:?})",
        line + 1,
        now.lines().nth(line).unwrap_or("<end>"),
        body.lines().nth(line).unwrap_or("<end>"),
    ));
}

fn attributes() -> impl Iterator<Item = &'static OptionSpec> {
    OPTION_TABLE.iter().filter(|o| o.reader != Reader::Js)
}

/// `text` as the lines of a `/** … */` comment, indented by `indent`, wrapped at 100 columns.
fn doc_comment(text: &str, indent: &str, out: &mut String) {
    let width = 100 - indent.len() - 3;
    let mut lines = Vec::new();
    for para in text.split('\n') {
        let mut line = String::new();
        for word in para.split_whitespace() {
            if !line.is_empty() && line.len() + 1 + word.len() > width {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        lines.push(line);
    }
    if lines.len() == 1 && lines[0].len() + 7 <= width {
        let _ = writeln!(out, "{indent}/** {} */", lines[0]);
        return;
    }
    let _ = writeln!(out, "{indent}/**");
    for l in lines {
        let _ = writeln!(out, "{indent} *{}{l}", if l.is_empty() { "" } else { " " });
    }
    let _ = writeln!(out, "{indent} */");
}

fn option_doc(o: &OptionSpec) -> String {
    let mut doc = o.doc.to_owned();
    if !o.attr.is_empty() {
        let _ = write!(doc, "\nAttribute: `{}`.", o.attr);
    } else {
        doc.push_str("\nJS only.");
    }
    if !o.default.is_empty() {
        let _ = write!(doc, " Default: `{}`.", o.default);
    }
    doc
}

/// The generated part of `npm/index.d.ts`: the options, the events' details and their map.
fn index_dts() -> String {
    let mut out =
        String::from("/** The options of `mount()`, and the properties of `<agui-chat>`. */\n");
    out.push_str("export interface AguiChatOptions {\n");
    for o in OPTION_TABLE {
        doc_comment(&option_doc(o), "  ", &mut out);
        let _ = writeln!(out, "  {}?: {};", o.js, o.ts);
    }
    out.push_str("}\n");
    for e in EVENTS {
        out.push('\n');
        doc_comment(
            &format!("The `detail` of `{}`: {}", e.name, e.doc),
            "",
            &mut out,
        );
        let _ = writeln!(out, "export interface {} {{", e.detail);
        for (name, ts, doc) in e.fields {
            doc_comment(doc, "  ", &mut out);
            let _ = writeln!(out, "  {name}: {ts};");
        }
        out.push_str("}\n");
    }
    out.push_str(
        "\n/** The events `<agui-chat>` dispatches (`bubbles`, `composed`), by name. */\n",
    );
    out.push_str("export interface AguiChatEventMap {\n");
    for e in EVENTS {
        doc_comment(e.doc, "  ", &mut out);
        let _ = writeln!(out, "  '{}': CustomEvent<{}>;", e.name, e.detail);
    }
    out.push_str("}\n");
    out
}

/// The generated `AguiStrings` of `npm/index.d.ts`: every key of the catalog, with its doc
/// and its English text.
fn strings_dts() -> String {
    let mut out = String::from(
        "/**\n * Every UI string of the chat, by key: the `strings` option gives the page's own text \
         for any\n * of them (`Partial<AguiStrings>`). A text keeps the English text's `{}` \
         placeholders (filled in\n * order); it is shown as text, never as HTML.\n */\n",
    );
    out.push_str("export interface AguiStrings {\n");
    for (key, doc) in Strings::docs() {
        let english = EN.get(key).unwrap_or_default();
        let doc = doc.lines().map(str::trim).collect::<Vec<_>>().join(" ");
        let english = format!("English: “{english}”.").replace("*/", "*\\/");
        let text = if doc.is_empty() {
            english
        } else {
            format!("{doc}\n{english}")
        };
        doc_comment(&text.replace("*/", "*\\/"), "  ", &mut out);
        let _ = writeln!(out, "  {key}: string;");
    }
    out.push_str("}\n");
    out
}

/// The generated part of `npm/react.d.ts`: one handler prop per event.
fn react_dts() -> String {
    let mut out = String::from("/** One prop per event: each receives the `CustomEvent`. */\n");
    out.push_str("export interface AguiChatEventProps {\n");
    for e in EVENTS {
        doc_comment(&format!("`{}`: {}", e.name, e.doc), "  ", &mut out);
        let _ = writeln!(
            out,
            "  {}?: (event: CustomEvent<import('./index.js').{}>) => void;",
            e.handler(),
            e.detail
        );
    }
    out.push_str("}\n");
    out
}

/// The generated part of `npm/react.js`: which props are options, which are handlers.
fn react_js() -> String {
    let mut out = String::from("const OPTIONS = [\n");
    for chunk in OPTION_TABLE.chunks(6) {
        let names: Vec<String> = chunk.iter().map(|o| format!("'{}'", o.js)).collect();
        let _ = writeln!(out, "  {},", names.join(", "));
    }
    out.push_str("];\nconst EVENTS = {\n");
    for e in EVENTS {
        let _ = writeln!(out, "  {}: '{}',", e.handler(), e.name);
    }
    out.push_str("};\n");
    out
}

/// The generated part of the loader: the attributes, then the JS-only properties.
fn loader_js() -> String {
    let attrs: Vec<&str> = attributes().map(|o| o.attr).collect();
    let js: Vec<&str> = OPTION_TABLE
        .iter()
        .filter(|o| o.reader == Reader::Js)
        .map(|o| o.js)
        .collect();
    format!(
        "const ATTRS = '{}'.split(' ');\nconst JS_ONLY = '{}'.split(' ');\n",
        attrs.join(" "),
        js.join(" ")
    )
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// The generated part of `docs/reference/options.md`.
fn docs_md() -> String {
    let mut out = String::from(
        "## Attributes\n\nEach is also a property of the element and a key of `mount()`'s options \
         (the JS name), and, with a `data-agui-` prefix, an attribute of a \
         [declaratively mounted](../embedding.md) element. A property wins over its attribute.\n\n\
         | attribute | JS name | values | default | |\n|---|---|---|---|---|\n",
    );
    for o in attributes() {
        let default = if o.default.is_empty() {
            String::new()
        } else {
            format!("`{}`", o.default)
        };
        let mut doc = cell(o.doc);
        if o.reader == Reader::Loader {
            doc.push_str(" (read by the loader)");
        }
        let _ = writeln!(
            out,
            "| `{}` | `{}` | {} | {} | {} |",
            o.attr,
            o.js,
            cell(o.values),
            default,
            doc
        );
    }
    out.push_str(
        "\n## JS-only options\n\nFunctions and registries: a key of `mount()`'s options and a \
         property of the element, never an attribute.\n\n| JS name | type | |\n|---|---|---|\n",
    );
    for o in OPTION_TABLE.iter().filter(|o| o.reader == Reader::Js) {
        let _ = writeln!(out, "| `{}` | `{}` | {} |", o.js, cell(o.ts), cell(o.doc));
    }
    out.push_str(
        "\n## Events\n\nDispatched on the element, `bubbles` and `composed`; within one update \
         in this order. The React wrapper's prop for each is in the last column.\n\n\
         | event | `detail` | | React prop |\n|---|---|---|---|\n",
    );
    for e in EVENTS {
        let fields: Vec<String> = e
            .fields
            .iter()
            .map(|(n, ts, _)| format!("{n}: {}", cell(ts)))
            .collect();
        let _ = writeln!(
            out,
            "| `{}` | `{{{}}}` | {} | `{}` |",
            e.name,
            fields.join(", "),
            cell(e.doc),
            e.handler()
        );
    }
    out
}

/// The theme tokens: name, declared value (`style/tokens.css`, the first rule) and purpose (the
/// docs' Theming table).
fn tokens() -> Vec<(String, String, String)> {
    // Comments out (they quote rules), then the first rule's declarations.
    let css = read("style/tokens.css");
    let mut plain = String::new();
    let mut rest = css.as_str();
    while let Some(i) = rest.find("/*") {
        plain.push_str(&rest[..i]);
        rest = &rest[i + rest[i..].find("*/").expect("comment end") + 2..];
    }
    plain.push_str(rest);
    let block = &plain[plain.find('{').expect("a rule") + 1..];
    let plain = &block[..block.find('}').expect("its end")];
    let theming = ["docs/theming.md", "README.md"]
        .iter()
        .map(|p| std::fs::read_to_string(root().join(p)).unwrap_or_default())
        .find(|t| t.contains("| `--agui-"))
        .expect("a Theming table in docs/theming.md or the README");
    plain
        .split(';')
        .filter_map(|decl| {
            let (name, value) = decl.trim().split_once(':')?;
            let name = name.trim();
            name.starts_with("--agui-").then(|| {
                let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
                let row = format!("| `{name}` |");
                let purpose = theming
                    .lines()
                    .find(|l| l.starts_with(&row))
                    .and_then(|l| l[row.len()..].split('|').next())
                    .map(|s| s.trim().to_owned())
                    .unwrap_or_default();
                (name.to_owned(), value, purpose)
            })
        })
        .collect()
}

fn plain_text(md: &str) -> String {
    md.replace('`', "")
}

/// The Custom Elements Manifest (schema 2.1.0) of the package.
fn manifest() -> Value {
    let module = "dist/index.js";
    let attrs: Vec<Value> = attributes()
        .map(|o| {
            let mut a = json!({
                "name": o.attr,
                "type": {"text": o.ts},
                "description": plain_text(o.doc),
                "fieldName": o.js,
            });
            if !o.default.is_empty() {
                a["default"] = json!(o.default);
            }
            a
        })
        .collect();
    let mut members: Vec<Value> = OPTION_TABLE
        .iter()
        .map(|o| {
            let mut m = json!({
                "kind": "field",
                "name": o.js,
                "type": {"text": format!("{} | undefined", o.ts)},
                "description": plain_text(o.doc),
            });
            if !o.attr.is_empty() {
                m["attribute"] = json!(o.attr);
            }
            m
        })
        .collect();
    members.push(json!({
        "kind": "field",
        "name": "state",
        "type": {"text": "unknown"},
        "readonly": true,
        "description": "The agent's state now (a copy); undefined before the chat is mounted.",
    }));
    let events: Vec<Value> = EVENTS
        .iter()
        .map(|e: &EventSpec| {
            json!({
                "name": e.name,
                "type": {"text": format!("CustomEvent<{}>", e.detail)},
                "description": plain_text(e.doc),
            })
        })
        .collect();
    let css: Vec<Value> = tokens()
        .into_iter()
        .map(|(name, value, purpose)| json!({"name": name, "default": value, "description": purpose}))
        .collect();
    let declaration = json!({"name": "AguiChatElement", "module": module});
    json!({
        "schemaVersion": "2.1.0",
        "readme": "README.md",
        "modules": [{
            "kind": "javascript-module",
            "path": module,
            "declarations": [{
                "kind": "class",
                "name": "AguiChatElement",
                "tagName": "agui-chat",
                "customElement": true,
                "description": "An AG-UI chat: streamed Markdown, tool cards whose arguments fill in while they stream, state, human in the loop, threads. Renders in an open shadow root; the chat itself (WebAssembly) loads when first needed.",
                "superclass": {"name": "HTMLElement"},
                "attributes": attrs,
                "members": members,
                "events": events,
                "cssProperties": css,
            }],
            "exports": [
                {"kind": "custom-element-definition", "name": "agui-chat", "declaration": declaration},
                {"kind": "js", "name": "mount", "declaration": {"name": "mount", "module": module}},
                {"kind": "js", "name": "unmount", "declaration": {"name": "unmount", "module": module}},
                {"kind": "js", "name": "scan", "declaration": {"name": "scan", "module": module}},
                {"kind": "js", "name": "ready", "declaration": {"name": "ready", "module": module}},
                {"kind": "js", "name": "version", "declaration": {"name": "version", "module": module}},
            ],
        }],
    })
}

#[test]
fn the_generated_files_agree_with_the_option_table() {
    let mut problems = Vec::new();
    let manifest = serde_json::to_string_pretty(&manifest()).expect("JSON") + "\n";
    check("npm/custom-elements.json", &manifest, true, &mut problems);
    check("npm/index.d.ts", &index_dts(), false, &mut problems);
    check_region(
        "npm/index.d.ts",
        (STRINGS_BEGIN, STRINGS_END),
        &strings_dts(),
        false,
        &mut problems,
    );
    check("npm/react.d.ts", &react_dts(), false, &mut problems);
    check("npm/react.js", &react_js(), false, &mut problems);
    check(
        "src/loader/agui-chat.js",
        &loader_js(),
        false,
        &mut problems,
    );
    check(
        "docs/reference/options.md",
        &docs_md(),
        false,
        &mut problems,
    );
    assert!(
        problems.is_empty(),
        "generated from src/embed/table.rs (AGUI_BLESS=1 cargo test --test project manifest writes \
         them):\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_table_names_each_option_once_in_both_spellings() {
    let mut seen = std::collections::BTreeSet::new();
    for o in OPTION_TABLE {
        assert!(seen.insert(o.js), "{} twice", o.js);
        assert!(
            !o.doc.is_empty() && !o.ts.is_empty(),
            "{} undocumented",
            o.js
        );
        if o.reader == Reader::Js {
            assert!(
                o.attr.is_empty(),
                "{}: a JS-only option has no attribute",
                o.js
            );
            continue;
        }
        let camel: String = o
            .attr
            .split('-')
            .enumerate()
            .map(|(i, w)| {
                if i == 0 {
                    w.to_owned()
                } else {
                    w[..1].to_uppercase() + &w[1..]
                }
            })
            .collect();
        assert_eq!(camel, o.js, "the JS name of {} is its camelCase", o.attr);
        assert!(!o.values.is_empty(), "{}: how is it written?", o.attr);
    }
}

// What the README's option tables listed when the manifest came: each is in it.
#[test]
fn the_manifest_lists_every_attribute_and_event_the_readme_listed() {
    let manifest = manifest();
    let decl = &manifest["modules"][0]["declarations"][0];
    let names = |key: &str| -> Vec<String> {
        decl[key]
            .as_array()
            .expect("a list")
            .iter()
            .map(|a| a["name"].as_str().expect("a name").to_owned())
            .collect()
    };
    let attrs = names("attributes");
    for a in "endpoint protocol resume transport headers mode theme inspector thread-key persist \
              storage-budget credentials redirects suggestions queue accept max-file-bytes \
              max-message-bytes max-files attachments capabilities lang open title speed preload \
              settings demo url-options allowed-endpoints mcp-apps-proxy"
        .split_whitespace()
    {
        assert!(attrs.iter().any(|n| n == a), "{a} is not in the manifest");
    }
    let events = names("events");
    for e in [
        "agui:run-started",
        "agui:state-changed",
        "agui:interrupt",
        "agui:run-finished",
        "agui:feedback",
    ] {
        assert!(events.iter().any(|n| n == e), "{e} is not in the manifest");
    }
    let fields = names("members");
    for js in [
        "tools",
        "renderers",
        "codeRenderers",
        "upload",
        "headers",
        "suggestions",
        "strings",
        "state",
    ] {
        assert!(
            fields.iter().any(|n| n == js),
            "the property {js} is not in the manifest"
        );
    }
    assert!(names("cssProperties").len() > 100, "the theme tokens");
    assert!(
        decl["cssProperties"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| !c["description"].as_str().unwrap_or("").is_empty()),
        "every token has its purpose from the Theming table"
    );
}

#[test]
fn the_react_prop_of_an_event_is_its_camel_case() {
    let e = EVENTS
        .iter()
        .find(|e| e.name == "agui:run-finished")
        .expect("run-finished");
    assert_eq!(e.handler(), "onRunFinished");
    assert!(Path::new(&root().join("npm/react.js")).exists());
}

#[test]
fn the_declared_strings_are_the_catalog_s_keys() {
    // What a page may pass as `strings`: exactly the catalog's keys, none missing or stale.
    let dts = read("npm/index.d.ts");
    let start = dts
        .find("export interface AguiStrings {")
        .expect("AguiStrings declared");
    let body = &dts[start..];
    let body = &body[..body.find("\n}").expect("its end")];
    let declared: Vec<&str> = body
        .lines()
        .filter_map(|l| l.trim().strip_suffix(": string;"))
        .collect();
    assert_eq!(declared, Strings::KEYS);
    let lang = dts
        .lines()
        .find(|l| l.starts_with("export type AguiLang"))
        .expect("AguiLang");
    for locale in agui_leptos::i18n::Locale::ALL {
        assert!(
            lang.contains(&format!("'{}'", locale.tag())),
            "{lang} lacks {locale:?}"
        );
    }
}
