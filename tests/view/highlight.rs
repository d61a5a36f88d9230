//! The code-block highlighter, natively: the classes of real snippets per language, spans that
//! cover every line exactly, incremental pushes equal to a one-shot pass at every split, lines
//! that are never tokenised again, and the budgets on hostile input.

use crate::native_support::Rng;
use agui_leptos::view::highlight::*;
use Class::*;

/// Checks the invariants of one line: spans in order, contiguous, at char boundaries, covering
/// the text, no two neighbours with one class, no lone plain span.
fn check_line(line: &Line) {
    let text = &line.text;
    if line.spans.is_empty() {
        return;
    }
    let mut at = 0u32;
    for (k, s) in line.spans.iter().enumerate() {
        assert_eq!(s.start, at, "gap or overlap in {text:?}: {:?}", line.spans);
        assert!(s.end > s.start, "empty span in {text:?}");
        assert!(
            text.get(s.start as usize..s.end as usize).is_some(),
            "span off a char boundary in {text:?}: {s:?}"
        );
        if k > 0 {
            assert_ne!(
                line.spans[k - 1].class,
                s.class,
                "unmerged spans in {text:?}"
            );
        }
        at = s.end;
    }
    assert_eq!(at as usize, text.len(), "spans do not cover {text:?}");
    assert!(
        !(line.spans.len() == 1 && line.spans[0].class.is_none()),
        "a plain line keeps a span"
    );
    let joined: std::string::String = line.parts().map(|(_, t)| t).collect();
    assert_eq!(&joined, text);
}

fn check(lines: &[Line]) {
    lines.iter().for_each(check_line);
}

/// The class of the first occurrence of `needle` at or after line `from` (it must lie in one
/// span, or in a plain line).
fn class_in(lines: &[Line], from: usize, needle: &str) -> Option<Class> {
    for line in lines.iter().skip(from) {
        let Some(pos) = line.text.find(needle) else {
            continue;
        };
        let (a, b) = (pos as u32, (pos + needle.len()) as u32);
        if line.spans.is_empty() {
            return None;
        }
        let span = line
            .spans
            .iter()
            .find(|s| s.start <= a && a < s.end)
            .expect("covered");
        assert!(
            b <= span.end,
            "{needle:?} crosses spans in {:?}: {:?}",
            line.text,
            line.spans
        );
        return span.class;
    }
    panic!("{needle:?} not found");
}

fn hl(lang: &str, code: &str) -> Vec<Line> {
    let lines = highlight(language(lang).expect("known language"), code);
    check(&lines);
    lines
}

/// Asserts `(needle, class)` pairs, each searched from the line of the previous one.
fn expect(lines: &[Line], pairs: &[(&str, Option<Class>)]) {
    let mut from = 0;
    for (needle, class) in pairs {
        let line = lines
            .iter()
            .skip(from)
            .position(|l| l.text.contains(needle))
            .map(|p| p + from)
            .unwrap_or_else(|| panic!("{needle:?} not found after line {from}"));
        assert_eq!(
            class_in(lines, line, needle),
            *class,
            "{needle:?} on line {line}: {:?}",
            lines[line]
        );
        from = line;
    }
}

const RUST: &str = r##"#[derive(Debug, Clone)]
pub struct Point<'a> { name: &'a str, x: i32 }

/// Docs.
fn foo(p: &Point) -> String {
    let s = "hi"; // x
    let c = '"';
    let raw = r#"a "quoted" // not a comment
still raw"#;
    /* outer /* inner */ still comment */
    let n = 42u32 + 0xFF + 1.5e-3;
    println!("{}", s);
    if p.x > MAX_X { return String::new(); }
    Some(n).is_none()
}
"##;

#[test]
fn rust() {
    let l = hl("rs", RUST);
    expect(
        &l,
        &[
            ("#[derive(Debug, Clone)]", Some(Meta)),
            ("pub", Some(Keyword)),
            ("struct", Some(Keyword)),
            ("Point", Some(Type)),
            ("'a", Some(Meta)),
            ("i32", Some(Type)),
            ("/// Docs.", Some(Comment)),
            ("fn", Some(Keyword)),
            ("foo", Some(Function)),
            ("String", Some(Type)),
            ("let", Some(Keyword)),
            ("\"hi\"", Some(String)),
            ("// x", Some(Comment)),
            ("'\"'", Some(String)),
            ("r#\"a \"quoted\" // not a comment", Some(String)),
            ("still raw\"#", Some(String)),
            ("/* outer /* inner */ still comment */", Some(Comment)),
            ("42u32", Some(Number)),
            ("+", Some(Operator)),
            ("0xFF", Some(Number)),
            ("1.5e-3", Some(Number)),
            ("println!", Some(Function)),
            ("if", Some(Keyword)),
            ("MAX_X", Some(Literal)),
            ("String", Some(Type)),
            ("new", Some(Function)),
            ("Some", Some(Literal)),
            ("is_none", Some(Function)),
        ],
    );
}

#[test]
fn rust_block_comment_across_lines_nests() {
    let l = hl("rust", "/* a\n/* b */ still\n*/ let x;\n");
    expect(
        &l,
        &[
            ("/* a", Some(Comment)),
            ("/* b */ still", Some(Comment)),
            ("*/", Some(Comment)),
            ("let", Some(Keyword)),
        ],
    );
}

#[test]
fn python() {
    let l = hl(
        "py",
        "#!/usr/bin/env python3\n@decorator\ndef greet(name: str) -> None:\n    \"\"\"Doc\n    string # not a comment\n    \"\"\"\n    # c\n    if name is None: return f'hi {name}'\n    x = 3.14\nclass Foo(Base): pass\n",
    );
    expect(
        &l,
        &[
            ("#!/usr/bin/env python3", Some(Meta)),
            ("@decorator", Some(Meta)),
            ("def", Some(Keyword)),
            ("greet", Some(Function)),
            ("str", Some(Type)),
            ("None", Some(Literal)),
            ("\"\"\"Doc", Some(String)),
            ("string # not a comment", Some(String)),
            ("\"\"\"", Some(String)),
            ("# c", Some(Comment)),
            ("if", Some(Keyword)),
            ("is", Some(Keyword)),
            ("f'hi {name}'", Some(String)),
            ("3.14", Some(Number)),
            ("class", Some(Keyword)),
            ("Foo", Some(Type)),
        ],
    );
}

#[test]
fn javascript() {
    let l = hl(
        "js",
        "/* a\n   b */\nconst msg = `hello\n${name} world`;\nfunction go(x) { return x === null ? 'n' : console.log(x); }\n// end\nlet n = 10;\n",
    );
    expect(
        &l,
        &[
            ("/* a", Some(Comment)),
            ("b */", Some(Comment)),
            ("const", Some(Keyword)),
            ("msg", None),
            ("`hello", Some(String)),
            ("${name} world`", Some(String)),
            ("function", Some(Keyword)),
            ("go", Some(Function)),
            ("return", Some(Keyword)),
            ("===", Some(Operator)),
            ("null", Some(Literal)),
            ("'n'", Some(String)),
            ("console", None),
            ("log", Some(Function)),
            ("// end", Some(Comment)),
            ("10", Some(Number)),
        ],
    );
}

#[test]
fn typescript() {
    let l = hl(
        "tsx",
        "interface User { id: number; name?: string }\n@Component()\nexport type Id = string | undefined;\n",
    );
    expect(
        &l,
        &[
            ("interface", Some(Keyword)),
            ("User", Some(Type)),
            ("number", Some(Type)),
            ("string", Some(Type)),
            ("@Component", Some(Meta)),
            ("export", Some(Keyword)),
            ("type", Some(Keyword)),
            ("undefined", Some(Literal)),
        ],
    );
}

#[test]
fn json() {
    let l = hl(
        "json",
        "{\n  \"name\": \"agui\",\n  \"n\" : -1.5e3,\n  \"ok\": true, \"none\": null,\n  \"list\": [\"a\"]\n}\n",
    );
    expect(
        &l,
        &[
            ("\"name\"", Some(Property)),
            ("\"agui\"", Some(String)),
            ("\"n\"", Some(Property)),
            ("1.5e3", Some(Number)),
            ("\"ok\"", Some(Property)),
            ("true", Some(Literal)),
            ("null", Some(Literal)),
            ("\"a\"", Some(String)),
        ],
    );
    // Punctuation stays plain.
    assert!(l[0].spans.is_empty());
}

#[test]
fn shell() {
    let l = hl(
        "bash",
        "#!/bin/bash\n# comment\necho \"$HOME\" $HOME ${PATH} $1 | grep -v x # trailing\nif [ -f a#b ]; then ls -la ~/dir; fi\nFOO=bar make all\nexport PATH=/x\n$ cargo test\n",
    );
    expect(
        &l,
        &[
            ("#!/bin/bash", Some(Meta)),
            ("# comment", Some(Comment)),
            ("echo", Some(Function)),
            ("\"$HOME\"", Some(String)),
            ("${PATH}", Some(Variable)),
            ("$1", Some(Variable)),
            ("|", Some(Operator)),
            ("grep", Some(Function)),
            ("-v", None),
            ("# trailing", Some(Comment)),
            ("if", Some(Keyword)),
            ("a#b", None),
            ("then", Some(Keyword)),
            ("ls", Some(Function)),
            ("-la", None),
            ("fi", Some(Keyword)),
            ("FOO", Some(Variable)),
            ("bar", None),
            ("make", Some(Function)),
            ("all", None),
            ("export", Some(Keyword)),
            ("PATH", Some(Variable)),
            ("$", Some(Meta)),
            ("cargo", Some(Function)),
        ],
    );
    // `$HOME` outside quotes is a variable on its own.
    let line = &l[2];
    let pos = line.text.find(" $HOME ").expect("present") as u32 + 1;
    let span = line
        .spans
        .iter()
        .find(|s| s.start == pos)
        .expect("own span");
    assert_eq!((span.end - span.start, span.class), (5, Some(Variable)));
}

#[test]
fn html() {
    let l = hl(
        "html",
        "<!DOCTYPE html>\n<!-- a\ncomment -->\n<div class=\"x\" data-id='7'\n     hidden>Hi &amp; bye</div>\n",
    );
    expect(
        &l,
        &[
            ("<!DOCTYPE html>", Some(Meta)),
            ("<!-- a", Some(Comment)),
            ("comment -->", Some(Comment)),
            ("div", Some(Tag)),
            ("class", Some(Property)),
            ("\"x\"", Some(String)),
            ("data-id", Some(Property)),
            ("'7'", Some(String)),
            ("hidden", Some(Property)),
            ("Hi", None),
            ("&amp;", Some(Literal)),
            ("div", Some(Tag)),
        ],
    );
    let l = hl("xml", "<?xml version=\"1.0\"?>\n<a:b x=\"1\"/>\n");
    expect(
        &l,
        &[
            ("<?xml", Some(Meta)),
            ("a:b", Some(Tag)),
            ("x", Some(Property)),
        ],
    );
}

#[test]
fn css() {
    let l = hl(
        "css",
        "/* theme\n */\n.btn, a:hover, #main > h1 {\n  color: #fff;\n  margin: 12px 0.5em;\n  background: rgba(0, 0, 0, .5) !important;\n  --gap: 4px;\n}\n@media (max-width: 600px) { p { font-family: \"Inter\"; } }\n",
    );
    expect(
        &l,
        &[
            ("/* theme", Some(Comment)),
            ("*/", Some(Comment)),
            (".btn", Some(Type)),
            ("a", Some(Tag)),
            (":hover", Some(Meta)),
            ("#main", Some(Type)),
            ("h1", Some(Tag)),
            ("color", Some(Property)),
            ("#fff", Some(Number)),
            ("margin", Some(Property)),
            ("12px", Some(Number)),
            ("0.5em", Some(Number)),
            ("background", Some(Property)),
            ("rgba", Some(Function)),
            (".5", Some(Number)),
            ("!important", Some(Keyword)),
            ("--gap", Some(Property)),
            ("@media", Some(Meta)),
            ("font-family", Some(Property)),
            ("\"Inter\"", Some(String)),
        ],
    );
    // SCSS: a top-level variable and a colour.
    let l = hl("scss", "$primary: #3b82f6; // c\n#app { x: 1 }\n");
    expect(
        &l,
        &[
            ("$primary", Some(Property)),
            ("#3b82f6", Some(Number)),
            ("// c", Some(Comment)),
            ("#app", Some(Type)),
        ],
    );
}

#[test]
fn sql() {
    let l = hl(
        "sql",
        "SELECT id, COUNT(*) AS n\nfrom users u -- c\nWHERE name = 'O''Brien' AND age > 42 /* x */\nselect null;\nCREATE TABLE t (id BIGINT PRIMARY KEY);\n",
    );
    expect(
        &l,
        &[
            ("SELECT", Some(Keyword)),
            ("COUNT", Some(Function)),
            ("AS", Some(Keyword)),
            ("from", Some(Keyword)),
            ("users", None),
            ("-- c", Some(Comment)),
            ("WHERE", Some(Keyword)),
            ("'O''Brien'", Some(String)),
            ("AND", Some(Keyword)),
            ("42", Some(Number)),
            ("/* x */", Some(Comment)),
            ("select", Some(Keyword)),
            ("null", Some(Literal)),
            ("CREATE", Some(Keyword)),
            ("BIGINT", Some(Type)),
        ],
    );
}

#[test]
fn yaml() {
    let l = hl(
        "yml",
        "---\n# c\nname: agui # trailing\nlist:\n  - item\n  - key: 1.5\n    \"quoted key\": yes\nurl: http://x.y/#a\nref: *base\nanchor: &base\ntext: it's fine\n",
    );
    expect(
        &l,
        &[
            ("---", Some(Meta)),
            ("# c", Some(Comment)),
            ("name", Some(Property)),
            ("agui", None),
            ("# trailing", Some(Comment)),
            ("list", Some(Property)),
            ("-", Some(Operator)),
            ("item", None),
            ("key", Some(Property)),
            ("1.5", Some(Number)),
            ("\"quoted key\"", Some(Property)),
            ("yes", Some(Literal)),
            ("url", Some(Property)),
            ("http://x.y/#a", None),
            ("*base", Some(Variable)),
            ("&base", Some(Variable)),
            ("it's fine", None),
        ],
    );
}

#[test]
fn go() {
    let l = hl(
        "go",
        "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tx := 42\n\ts := `raw\n\\n`\n\tvar err error = nil\n\tfmt.Println(x, s)\n}\n",
    );
    expect(
        &l,
        &[
            ("package", Some(Keyword)),
            ("\"fmt\"", Some(String)),
            ("func", Some(Keyword)),
            ("main", Some(Function)),
            (":=", Some(Operator)),
            ("42", Some(Number)),
            ("`raw", Some(String)),
            ("\\n`", Some(String)),
            ("var", Some(Keyword)),
            ("error", Some(Type)),
            ("nil", Some(Literal)),
            ("Println", Some(Function)),
        ],
    );
}

#[test]
fn java() {
    let l = hl(
        "java",
        "@Override\npublic class Main extends Base {\n  private static final int MAX = 10;\n  public static void main(String[] args) { System.out.println(\"hi\"); }\n}\n",
    );
    expect(
        &l,
        &[
            ("@Override", Some(Meta)),
            ("public", Some(Keyword)),
            ("class", Some(Keyword)),
            ("Main", Some(Type)),
            ("extends", Some(Keyword)),
            ("int", Some(Type)),
            ("MAX", Some(Literal)),
            ("10", Some(Number)),
            ("void", Some(Type)),
            ("main", Some(Function)),
            ("String", Some(Type)),
            ("println", Some(Function)),
            ("\"hi\"", Some(String)),
        ],
    );
}

#[test]
fn the_c_family_and_extras() {
    let l = hl(
        "c",
        "#include <stdio.h>\nint main(void) { char c = 'x'; return NULL == 0; }\n",
    );
    expect(
        &l,
        &[
            ("#include <stdio.h>", Some(Meta)),
            ("int", Some(Type)),
            ("main", Some(Function)),
            ("'x'", Some(String)),
            ("NULL", Some(Literal)),
        ],
    );
    let l = hl(
        "c++",
        "template <typename T> class Box { public: T v; };\nauto s = u8\"x\";\n",
    );
    expect(
        &l,
        &[
            ("template", Some(Keyword)),
            ("typename", Some(Keyword)),
            ("Box", Some(Type)),
            ("u8\"x\"", Some(String)),
        ],
    );
    let l = hl(
        "cs",
        "#region x\nnamespace App { public record P(string Name); var s = $\"{x}\"; }\n",
    );
    expect(
        &l,
        &[
            ("#region x", Some(Meta)),
            ("namespace", Some(Keyword)),
            ("record", Some(Keyword)),
            ("string", Some(Type)),
            ("$\"{x}\"", Some(String)),
        ],
    );
    let l = hl(
        "kt",
        "data class P(val x: Int)\nfun main() { println(\"\"\"multi\nline\"\"\") }\n",
    );
    expect(
        &l,
        &[
            ("data", Some(Keyword)),
            ("val", Some(Keyword)),
            ("Int", Some(Type)),
            ("fun", Some(Keyword)),
            ("main", Some(Function)),
            ("\"\"\"multi", Some(String)),
            ("line\"\"\"", Some(String)),
        ],
    );
    let l = hl(
        "swift",
        "@objc func go() -> Bool { guard let x = y else { return nil } }\n",
    );
    expect(
        &l,
        &[
            ("@objc", Some(Meta)),
            ("func", Some(Keyword)),
            ("go", Some(Function)),
            ("Bool", Some(Type)),
            ("guard", Some(Keyword)),
            ("nil", Some(Literal)),
        ],
    );
    let l = hl(
        "toml",
        "# c\n[package]\nname = \"agui\"\nversion.workspace = true\nopt-level = 3\ns = \"\"\"\nmulti\n\"\"\"\n",
    );
    expect(
        &l,
        &[
            ("# c", Some(Comment)),
            ("[package]", Some(Type)),
            ("name", Some(Property)),
            ("\"agui\"", Some(String)),
            ("version.workspace", Some(Property)),
            ("true", Some(Literal)),
            ("opt-level", Some(Property)),
            ("3", Some(Number)),
            ("multi", Some(String)),
        ],
    );
    let l = hl(
        "diff",
        "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-old\n+new\n same\n",
    );
    expect(
        &l,
        &[
            ("diff --git", Some(Meta)),
            ("--- a/x", Some(Meta)),
            ("+++ b/x", Some(Meta)),
            ("@@ -1,2 +1,2 @@", Some(Meta)),
            ("-old", Some(Deleted)),
            ("+new", Some(Inserted)),
            (" same", None),
        ],
    );
}

#[test]
fn languages_and_aliases() {
    for (info, lang) in [
        ("rust", Lang::Rust),
        ("RS", Lang::Rust),
        ("Python3", Lang::Python),
        ("mjs", Lang::JavaScript),
        ("TSX", Lang::TypeScript),
        ("json5", Lang::Json),
        ("shellsession", Lang::Shell),
        ("zsh", Lang::Shell),
        ("svg", Lang::Html),
        ("scss", Lang::Css),
        ("sqlite", Lang::Sql),
        ("yml", Lang::Yaml),
        ("golang", Lang::Go),
        ("java", Lang::Java),
        ("h", Lang::C),
        ("c++", Lang::Cpp),
        ("c#", Lang::CSharp),
        ("kt", Lang::Kotlin),
        ("swift", Lang::Swift),
        ("toml", Lang::Toml),
        ("patch", Lang::Diff),
    ] {
        assert_eq!(language(info), Some(lang), "{info}");
    }
    for info in ["", "brainfuck", "text", "plaintext", "rust-ish", "r", "c+"] {
        assert_eq!(language(info), None, "{info}");
    }
}

#[test]
fn class_names_are_distinct_and_prefixed() {
    let mut names: Vec<&str> = Class::ALL.iter().map(|c| c.css()).collect();
    assert!(names.iter().all(|n| n.starts_with("agui-tok-")));
    names.sort();
    names.dedup();
    assert_eq!(names.len(), Class::ALL.len());
}

/// Snippets, one or more per language, with state across lines.
fn samples() -> Vec<(Lang, &'static str)> {
    vec![
        (Lang::Rust, RUST),
        (
            Lang::Python,
            "@d\ndef f():\n    '''a\n    b'''\n    return \"é\" # ü\n",
        ),
        (
            Lang::JavaScript,
            "/* x\n */ const a = `t\n${1}` + 'q'; // z\n",
        ),
        (Lang::TypeScript, "let x: number = 1; /* é\n€ */\n"),
        (Lang::Json, "{\"k\": [1, true, null, \"v😀\"]}\n"),
        (Lang::Shell, "echo \"a\nb\" $X 'c' # d\n$ ls\n"),
        (Lang::Html, "<a href=\"x\"\n b='y'>t &lt;</a><!-- c\n-->\n"),
        (Lang::Css, "a { color: #fff; }\n/* x\n*/ .b{}\n"),
        (Lang::Sql, "SELECT 'a\nb' FROM t; -- c\n"),
        (Lang::Yaml, "a: 1\n- b: 'c'\n# d\n"),
        (Lang::Go, "x := `a\nb`\nfunc f() {}\n"),
        (Lang::Java, "@A class B { String s = \"\"\"\nx\"\"\"; }\n"),
        (Lang::Cpp, "#include <x>\nint a = 1; /* b\n*/\n"),
        (Lang::Toml, "[a]\nb = '''\nc'''\n"),
        (Lang::Diff, "--- a\n+++ b\n-x\n+y\n"),
    ]
}

fn pushed(lang: Lang, pieces: &[&str]) -> Vec<Line> {
    let mut h = Highlighter::new(lang);
    for p in pieces {
        h.push(p);
    }
    h.finish()
}

#[test]
fn incremental_equals_one_shot_at_every_split() {
    for (lang, code) in samples() {
        let whole = highlight(lang, code);
        check(&whole);
        for (cut, _) in code.char_indices().skip(1) {
            let (a, b) = code.split_at(cut);
            assert_eq!(pushed(lang, &[a, b]), whole, "{lang:?} split at {cut}");
            // Mid-stream, the finished lines plus the open one are the prefix's lines.
            let mut h = Highlighter::new(lang);
            h.push(a);
            let mut now = h.lines().to_vec();
            let open = h.open_line();
            assert_eq!(open.spans, h.open_spans());
            assert_eq!(open.text, h.open_text());
            if !open.text.is_empty() {
                now.push(open);
            }
            assert_eq!(now, highlight(lang, a), "{lang:?} prefix {a:?}");
        }
    }
}

/// `code` cut into random small pieces at char boundaries.
fn random_pieces<'a>(code: &'a str, rng: &mut Rng) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut rest = code;
    while !rest.is_empty() {
        let mut cut = (1 + rng.below(7)).min(rest.len());
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        let (a, b) = rest.split_at(cut);
        out.push(a);
        rest = b;
    }
    out
}

#[test]
fn incremental_equals_one_shot_for_random_deltas() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for (lang, code) in samples() {
        let whole = highlight(lang, code);
        for _ in 0..50 {
            let pieces = random_pieces(code, &mut rng);
            assert_eq!(pushed(lang, &pieces), whole, "{lang:?} {pieces:?}");
        }
    }
}

#[test]
fn finished_lines_are_never_tokenised_again() {
    let mut h = Highlighter::new(Lang::Rust);
    h.push("/* open comment\nfn a() {}\n");
    let before: Vec<(*const u8, *const Span, Line)> = h
        .lines()
        .iter()
        .map(|l| (l.text.as_ptr(), l.spans.as_ptr(), l.clone()))
        .collect();
    for piece in ["still */ fn b", "() {}\n", "let x = 1;\n", "// tail"] {
        h.push(piece);
        let _ = h.open_line();
        // The earlier lines are the same allocations, unchanged: kept, not rebuilt.
        for (k, (text, spans, line)) in before.iter().enumerate() {
            let now = &h.lines()[k];
            assert_eq!(now.text.as_ptr(), *text);
            assert_eq!(now.spans.as_ptr(), *spans);
            assert_eq!(now, line);
        }
    }
    assert_eq!(h.lines().len(), 4);
    // The state carried: line 2 ends the comment opened on line 0.
    assert_eq!(h.lines()[1].spans.len(), 1);
    assert_eq!(h.lines()[1].spans[0].class, Some(Comment));
    assert_eq!(
        class_in(h.lines(), 2, "still */"),
        Some(Comment),
        "{:?}",
        h.lines()[2]
    );
    assert_eq!(class_in(h.lines(), 2, "fn"), Some(Keyword));
    let lines = h.finish();
    assert_eq!(lines.len(), 5);
    assert_eq!(class_in(&lines, 4, "// tail"), Some(Comment));
}

#[test]
fn a_huge_line_is_tokenised_up_to_the_budget() {
    let line = "let x = 1; ".repeat(100_000); // 1.1 MB, one line
    for lang in [Lang::Rust, Lang::Html, Lang::Shell, Lang::Json] {
        let lines = highlight(lang, &line);
        check(&lines);
        assert_eq!(lines.len(), 1);
        let spans = &lines[0].spans;
        assert!(
            spans.len() <= MAX_LINE_BYTES + 1,
            "{lang:?}: {}",
            spans.len()
        );
        let Some(last) = spans.last() else {
            continue; // all plain (HTML text)
        };
        assert_eq!(last.class, None);
        assert!(last.start as usize <= MAX_LINE_BYTES);
        assert_eq!(last.end as usize, line.len());
    }
    // Streamed in deltas, the open line's spans stay bounded too.
    let mut h = Highlighter::new(Lang::JavaScript);
    for _ in 0..1000 {
        h.push("\"abc\" + x; ");
        assert!(h.open_spans().len() <= MAX_LINE_BYTES + 1);
    }
    // A multi-byte char on the cut stays whole.
    let wide = "é".repeat(MAX_LINE_BYTES);
    check(&highlight(Lang::Rust, &wide));
    let quoted = format!("\"{}\"", "€".repeat(MAX_LINE_BYTES));
    let lines = highlight(Lang::Rust, &quoted);
    check(&lines);
    assert_eq!(lines[0].spans[0].class, Some(String));
}

#[test]
fn many_lines_past_the_budget_are_plain() {
    let code = "let x = 1;\n".repeat(100_000);
    let lines = highlight(Lang::Rust, &code);
    check(&lines);
    assert_eq!(lines.len(), 100_000);
    assert!(lines[..MAX_LINES].iter().all(|l| !l.spans.is_empty()));
    assert!(lines[MAX_LINES..].iter().all(|l| l.spans.is_empty()));
    let total: usize = lines.iter().map(|l| l.spans.len()).sum();
    assert!(total <= MAX_LINES * 10, "{total}");
    // The byte budget: long lines reach it before the line count does.
    let long = format!("{}\n", "x = 1 ".repeat(300)); // 1,801 bytes
    let code = long.repeat(1_000);
    let lines = highlight(Lang::Python, &code);
    let coloured = lines.iter().filter(|l| !l.spans.is_empty()).count();
    assert_eq!(coloured, MAX_BLOCK_BYTES.div_ceil(long.len()));
}

#[test]
fn unterminated_constructs_run_to_the_end_without_panicking() {
    for (lang, code) in [
        (Lang::Rust, "/* never closed\nfn a() {}\nlet x;"),
        (Lang::Rust, "let s = r###\"raw\nstill"),
        (Lang::Python, "x = '''open\nstill\n"),
        (Lang::JavaScript, "let t = `open\nstill ${x}"),
        (Lang::Html, "<div class=\"x\">\n<!-- open\nstill"),
        (Lang::Css, "a { b: c;\n/* open\nstill"),
        (Lang::Shell, "echo \"open\nstill ${X"),
        (Lang::Sql, "SELECT 'open\nstill"),
    ] {
        let lines = highlight(lang, code);
        check(&lines);
        let last = lines.last().expect("lines");
        assert!(
            matches!(
                last.spans.last(),
                Some(Span {
                    class: Some(String | Comment),
                    ..
                })
            ),
            "{lang:?}: {last:?}"
        );
    }
    // A string that cannot span lines ends with its line.
    let lines = highlight(Lang::Rust, "let c = 'x\nfn a() {}\n");
    check(&lines);
    let lines = highlight(Lang::JavaScript, "let s = \"open\nlet b = 1;\n");
    assert_eq!(class_in(&lines, 1, "let"), Some(Keyword));
    let lines = highlight(Lang::Html, "<a href=\"open\nb=\"c\">text\n");
    assert_eq!(class_in(&lines, 1, "text"), None);
}

#[test]
fn garbage_never_panics_and_stays_bounded() {
    let mut rng = Rng(42);
    let alphabet: Vec<char> =
        "\"'`/*#$@<>{}[]()\\!=:;-+.,&|% \t\r\n0x9aZé€😀r_b\u{0}\u{7f}\u{feff}"
            .chars()
            .collect();
    let langs: Vec<Lang> = samples().into_iter().map(|(l, _)| l).collect();
    for round in 0..300 {
        let len = rng.below(300);
        let code: std::string::String = (0..len).map(|_| rng.pick(&alphabet)).collect();
        let lang = langs[round % langs.len()];
        let whole = highlight(lang, &code);
        check(&whole);
        let joined: Vec<&str> = whole.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(joined.join("\n"), code.strip_suffix('\n').unwrap_or(&code));
        let pieces = random_pieces(&code, &mut rng);
        assert_eq!(pushed(lang, &pieces), whole, "{lang:?} {code:?}");
    }
    // Arbitrary bytes made UTF-8.
    for round in 0..200 {
        let bytes: Vec<u8> = (0..rng.below(400)).map(|_| rng.next() as u8).collect();
        let code = std::string::String::from_utf8_lossy(&bytes);
        check(&highlight(langs[round % langs.len()], &code));
    }
}

#[test]
fn empty_and_plain_input() {
    assert!(highlight(Lang::Rust, "").is_empty());
    let lines = highlight(Lang::Rust, "\n\n");
    assert_eq!(lines.len(), 2);
    assert!(lines
        .iter()
        .all(|l| l.text.is_empty() && l.spans.is_empty()));
    assert_eq!(lines[0].parts().count(), 0);
    let lines = highlight(Lang::Json, "{ [ ] }");
    assert!(lines[0].spans.is_empty());
    assert_eq!(
        lines[0].parts().collect::<Vec<_>>(),
        vec![(None, "{ [ ] }")]
    );
    let h = Highlighter::new(Lang::Go);
    assert_eq!(h.open_line(), Line::default());
    assert_eq!(h.lang(), Lang::Go);
}
