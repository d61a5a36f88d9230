//! The safe Markdown tree (`agui_leptos::markdown`): every block/inline kind, the safety rules
//! (raw HTML is text, URL allow-lists), incremental parsing (split-independence, stable finished
//! segments, fences never split, linear work) and no panics on any prefix.

use agui_leptos::markdown;
use agui_leptos::markdown::{
    parse, parse_with, Align, Block, IncrementalMarkdown, Inline, ListItem, MathSyntax, SafeUrl,
};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn text(s: &str) -> Inline {
    Inline::Text(s.to_string())
}

fn para(s: &str) -> Block {
    Block::Paragraph(vec![text(s)])
}

fn item(task: Option<bool>, blocks: Vec<Block>) -> ListItem {
    ListItem { task, blocks }
}

/// Every URL in the tree: `("href", url)` for links, `("src", url)` for images.
fn urls(blocks: &[Block]) -> Vec<(&'static str, String)> {
    fn inlines(list: &[Inline], out: &mut Vec<(&'static str, String)>) {
        for inline in list {
            match inline {
                Inline::Link { href, content, .. } => {
                    out.push(("href", href.as_str().to_string()));
                    inlines(content, out);
                }
                Inline::Image { src, .. } => out.push(("src", src.as_str().to_string())),
                Inline::Emphasis(c) | Inline::Strong(c) | Inline::Strikethrough(c) => {
                    inlines(c, out)
                }
                Inline::Text(_)
                | Inline::Code(_)
                | Inline::Html(_)
                | Inline::Math { .. }
                | Inline::MathSource(_)
                | Inline::SoftBreak
                | Inline::HardBreak => {}
            }
        }
    }
    fn walk(list: &[Block], out: &mut Vec<(&'static str, String)>) {
        for block in list {
            match block {
                Block::Paragraph(c) | Block::Heading { content: c, .. } => inlines(c, out),
                Block::Quote(b) | Block::Footnote { blocks: b, .. } => walk(b, out),
                Block::List { items, .. } => {
                    for it in items {
                        walk(&it.blocks, out);
                    }
                }
                Block::Table { header, rows, .. } => {
                    for cell in header.iter().chain(rows.iter().flatten()) {
                        inlines(cell, out);
                    }
                }
                Block::CodeBlock { .. } | Block::Rule | Block::Html(_) => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(blocks, &mut out);
    out
}

/// All visible text of the tree, concatenated (for "the text is kept" assertions).
fn all_text(blocks: &[Block]) -> String {
    fn inlines(list: &[Inline], out: &mut String) {
        for inline in list {
            match inline {
                Inline::Text(t) | Inline::Code(t) | Inline::Html(t) | Inline::MathSource(t) => {
                    out.push_str(t)
                }
                Inline::Math { tex, .. } => out.push_str(tex),
                Inline::Image { alt, .. } => out.push_str(alt),
                Inline::Link { content: c, .. }
                | Inline::Emphasis(c)
                | Inline::Strong(c)
                | Inline::Strikethrough(c) => inlines(c, out),
                Inline::SoftBreak | Inline::HardBreak => out.push(' '),
            }
        }
    }
    fn walk(list: &[Block], out: &mut String) {
        for block in list {
            match block {
                Block::Paragraph(c) | Block::Heading { content: c, .. } => inlines(c, out),
                Block::Quote(b) | Block::Footnote { blocks: b, .. } => walk(b, out),
                Block::List { items, .. } => {
                    for it in items {
                        walk(&it.blocks, out);
                    }
                }
                Block::Table { header, rows, .. } => {
                    for cell in header.iter().chain(rows.iter().flatten()) {
                        inlines(cell, out);
                    }
                }
                Block::CodeBlock { code, .. } => out.push_str(code),
                Block::Html(h) => out.push_str(h),
                Block::Rule => {}
            }
        }
    }
    let mut out = String::new();
    walk(blocks, &mut out);
    out
}

/// Small deterministic PRNG (xorshift64*), so the tests need no extra dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn feed_whole(doc: &str) -> IncrementalMarkdown {
    let mut md = IncrementalMarkdown::new();
    md.push(doc);
    md
}

fn feed_chars(doc: &str) -> IncrementalMarkdown {
    let mut md = IncrementalMarkdown::new();
    let mut buf = [0u8; 4];
    for c in doc.chars() {
        md.push(c.encode_utf8(&mut buf));
    }
    md
}

/// Feeds `doc` in pieces of 1..=max_piece bytes (cut on char boundaries).
fn feed_random(doc: &str, seed: u64, max_piece: usize) -> IncrementalMarkdown {
    let mut rng = Rng(seed | 1);
    let mut md = IncrementalMarkdown::new();
    let mut at = 0;
    while at < doc.len() {
        let mut end = (at + 1 + rng.below(max_piece)).min(doc.len());
        while !doc.is_char_boundary(end) {
            end += 1;
        }
        md.push(&doc[at..end]);
        at = end;
    }
    md
}

// ---------------------------------------------------------------------------------------------
// Block and inline kinds
// ---------------------------------------------------------------------------------------------

#[test]
fn headings() {
    assert_eq!(
        parse("# One\n\n## Two *em*\n\nSetext\n===\n\n###### Six\n"),
        vec![
            Block::Heading {
                level: 1,
                content: vec![text("One")]
            },
            Block::Heading {
                level: 2,
                content: vec![text("Two "), Inline::Emphasis(vec![text("em")])]
            },
            Block::Heading {
                level: 1,
                content: vec![text("Setext")]
            },
            Block::Heading {
                level: 6,
                content: vec![text("Six")]
            },
        ]
    );
}

#[test]
fn fenced_code_with_lang() {
    assert_eq!(
        parse("```rust ignore\nfn main() {}\n\n// end\n```\n"),
        vec![Block::CodeBlock {
            lang: Some("rust".into()),
            code: "fn main() {}\n\n// end\n".into()
        }]
    );
    assert_eq!(
        parse("~~~\nplain\n~~~\n"),
        vec![Block::CodeBlock {
            lang: None,
            code: "plain\n".into()
        }]
    );
    // Only [A-Za-z0-9_+-.#] survive in the language.
    assert_eq!(
        parse("```c++\nx\n```\n```\"><script>x\ny\n```\n```c#\nz\n```\n"),
        vec![
            Block::CodeBlock {
                lang: Some("c++".into()),
                code: "x\n".into()
            },
            Block::CodeBlock {
                lang: Some("scriptx".into()),
                code: "y\n".into()
            },
            Block::CodeBlock {
                lang: Some("c#".into()),
                code: "z\n".into()
            },
        ]
    );
}

#[test]
fn indented_code() {
    assert_eq!(
        parse("para\n\n    let x = 1;\n    let y = 2;\n"),
        vec![
            para("para"),
            Block::CodeBlock {
                lang: None,
                code: "let x = 1;\nlet y = 2;\n".into()
            }
        ]
    );
}

#[test]
fn quotes_nest() {
    assert_eq!(
        parse("> a\n> > b\n"),
        vec![Block::Quote(vec![para("a"), Block::Quote(vec![para("b")])])]
    );
}

#[test]
fn nested_lists() {
    assert_eq!(
        parse("- a\n  - b\n  - c\n- d\n"),
        vec![Block::List {
            ordered: false,
            start: 1,
            items: vec![
                item(
                    None,
                    vec![
                        para("a"),
                        Block::List {
                            ordered: false,
                            start: 1,
                            items: vec![item(None, vec![para("b")]), item(None, vec![para("c")])]
                        }
                    ]
                ),
                item(None, vec![para("d")]),
            ]
        }]
    );
}

#[test]
fn ordered_list_start() {
    assert_eq!(
        parse("3. x\n4. *y*\n"),
        vec![Block::List {
            ordered: true,
            start: 3,
            items: vec![
                item(None, vec![para("x")]),
                item(
                    None,
                    vec![Block::Paragraph(vec![Inline::Emphasis(vec![text("y")])])]
                ),
            ]
        }]
    );
}

#[test]
fn task_lists() {
    let expected = vec![Block::List {
        ordered: false,
        start: 1,
        items: vec![
            item(Some(true), vec![para("done")]),
            item(Some(false), vec![para("todo")]),
            item(None, vec![para("plain")]),
        ],
    }];
    assert_eq!(parse("- [x] done\n- [ ] todo\n- plain\n"), expected);
    // Loose list: the marker sits inside the paragraph in pulldown-cmark's events.
    assert_eq!(parse("- [x] done\n\n- [ ] todo\n\n- plain\n"), expected);
}

#[test]
fn table_with_alignments() {
    assert_eq!(
        parse("| a | b | c | d |\n|---|:--|:-:|--:|\n| 1 | **2** | `3` | 4 |\n| 5 |\n"),
        vec![Block::Table {
            align: vec![Align::None, Align::Left, Align::Center, Align::Right],
            header: vec![
                vec![text("a")],
                vec![text("b")],
                vec![text("c")],
                vec![text("d")]
            ],
            rows: vec![
                vec![
                    vec![text("1")],
                    vec![Inline::Strong(vec![text("2")])],
                    vec![Inline::Code("3".into())],
                    vec![text("4")],
                ],
                vec![vec![text("5")], vec![], vec![], vec![]],
            ]
        }]
    );
}

#[test]
fn inline_kinds() {
    assert_eq!(
        parse("a *em* **strong** ~~gone~~ `code`"),
        vec![Block::Paragraph(vec![
            text("a "),
            Inline::Emphasis(vec![text("em")]),
            text(" "),
            Inline::Strong(vec![text("strong")]),
            text(" "),
            Inline::Strikethrough(vec![text("gone")]),
            text(" "),
            Inline::Code("code".into()),
        ])]
    );
}

#[test]
fn breaks() {
    let hard = vec![Block::Paragraph(vec![
        text("a"),
        Inline::HardBreak,
        text("b"),
    ])];
    assert_eq!(parse("a  \nb"), hard);
    assert_eq!(parse("a\\\nb"), hard);
    assert_eq!(
        parse("a\nb"),
        vec![Block::Paragraph(vec![
            text("a"),
            Inline::SoftBreak,
            text("b")
        ])]
    );
}

#[test]
fn rules() {
    assert_eq!(
        parse("a\n\n---\n\n***\nb\n"),
        vec![para("a"), Block::Rule, Block::Rule, para("b")]
    );
}

#[test]
fn links_and_images_keep_title_and_alt() {
    assert_eq!(
        parse("[x *y*](https://e.com \"T\") ![alt *z*](https://e.com/i.png \"I\")"),
        vec![Block::Paragraph(vec![
            Inline::Link {
                href: SafeUrl::parse_link("https://e.com").unwrap(),
                title: Some("T".into()),
                content: vec![text("x "), Inline::Emphasis(vec![text("y")])],
                shown_host: None,
            },
            text(" "),
            Inline::Image {
                src: SafeUrl::parse_image("https://e.com/i.png").unwrap(),
                alt: "alt z".into(),
                title: Some("I".into()),
            },
        ])]
    );
}

// ---------------------------------------------------------------------------------------------
// Safety
// ---------------------------------------------------------------------------------------------

#[test]
fn block_html_is_text() {
    assert_eq!(
        parse("<script>alert(1)</script>\n"),
        vec![Block::Html("<script>alert(1)</script>".into())]
    );
    assert_eq!(
        parse("<div onclick=\"x()\">\n*hi*\n</div>\n\nafter\n"),
        vec![
            Block::Html("<div onclick=\"x()\">\n*hi*\n</div>".into()),
            para("after")
        ]
    );
}

#[test]
fn inline_html_is_text() {
    assert_eq!(
        parse("a <img src=x onerror=alert(1)> b"),
        vec![Block::Paragraph(vec![
            text("a "),
            Inline::Html("<img src=x onerror=alert(1)>".into()),
            text(" b"),
        ])]
    );
    assert_eq!(
        parse("*<b>x</b>*"),
        vec![Block::Paragraph(vec![Inline::Emphasis(vec![
            Inline::Html("<b>".into()),
            text("x"),
            Inline::Html("</b>".into()),
        ])])]
    );
}

#[test]
fn unsafe_links_become_text() {
    let bad = [
        "[x](javascript:alert(1))",
        "[x](JaVaScRiPt:alert(1))",
        "[x]( javascript:alert(1))",
        "[x](<javascript:alert(1)>)",
        "[x](<java\tscript:alert(1)>)",
        "[x](<\u{1}javascript:alert(1)>)",
        "[x](&#106;avascript:alert(1))",
        "[x](&#x6A;avascript&#58;alert(1))",
        "[x](javascript&colon;alert(1))",
        "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
        "[x](vbscript:msgbox(1))",
        "[x](file:///etc/passwd)",
        "[x](//evil.com)",
        "[x](/relative)",
        "[x](relative/path)",
        "[x](#fragment)",
        "[x](?query)",
        "[x](https:evil.com)",
        "[x](https:///evil.com)",
        "[x](<https://a.b >)",
        "[x](<%20https://a.b>)",
        "[x](<https://a.b\u{7f}>)",
        "[x](ftp://a.b)",
        "[x][r]\n\n[r]: javascript:alert(1)",
        "[x]\n\n[x]: data:text/html,hi",
    ];
    for md in bad {
        let blocks = parse(md);
        assert_eq!(urls(&blocks), vec![], "{md:?} produced a URL: {blocks:?}");
        assert!(
            all_text(&blocks).contains('x'),
            "{md:?} lost its text: {blocks:?}"
        );
    }
    // An unsafe autolink keeps its text too.
    let blocks = parse("<javascript:alert(1)>");
    assert_eq!(urls(&blocks), vec![]);
    assert_eq!(blocks, vec![para("javascript:alert(1)")]);
    // The link's text merges with its neighbours.
    assert_eq!(
        parse("see [this *page*](javascript:x) now"),
        vec![Block::Paragraph(vec![
            text("see this "),
            Inline::Emphasis(vec![text("page")]),
            text(" now"),
        ])]
    );
}

#[test]
fn safe_links_survive() {
    let good = [
        ("[x](https://example.com)", "https://example.com"),
        (
            "[x](http://example.com/a?b=c#d)",
            "http://example.com/a?b=c#d",
        ),
        ("[x](HTTPS://EXAMPLE.COM)", "HTTPS://EXAMPLE.COM"),
        ("[m](mailto:a@b.c)", "mailto:a@b.c"),
        ("<https://a.b>", "https://a.b"),
        ("<a@b.c>", "mailto:a@b.c"),
        ("[x][r]\n\n[r]: https://r.example", "https://r.example"),
    ];
    for (md, url) in good {
        let blocks = parse(md);
        assert_eq!(urls(&blocks), vec![("href", url.to_string())], "{md:?}");
    }
}

#[test]
fn images_only_from_http() {
    assert_eq!(
        urls(&parse("![a](https://x/y.png)")),
        vec![("src", "https://x/y.png".to_string())]
    );
    for md in [
        "![a](javascript:alert(1))",
        "![a](data:image/png;base64,iVBORw0KGgo=)",
        "![a](mailto:a@b.c)",
        "![a](/local.png)",
        "![a](file:///x.png)",
    ] {
        let blocks = parse(md);
        assert_eq!(urls(&blocks), vec![], "{md:?}");
        assert_eq!(blocks, vec![para("a")], "{md:?}");
    }
    // A safe image inside an unsafe link: the image stays, the link goes.
    assert_eq!(
        urls(&parse("[![i](https://x/i.png)](javascript:alert(1))")),
        vec![("src", "https://x/i.png".to_string())]
    );
}

#[test]
fn safe_url_constructors() {
    for ok in ["http://a", "https://a.b/c", "HtTpS://a", "mailto:x@y.z"] {
        assert_eq!(
            SafeUrl::parse_link(ok).map(|u| u.as_str().to_string()),
            Some(ok.to_string())
        );
    }
    for bad in [
        "",
        " https://a",
        "https://a ",
        "https://a\n",
        "\thttps://a",
        "https://a\u{0}",
        "https://a\u{200b}x",
        "https://a\u{202e}x",
        "https://a\u{feff}",
        "https://\u{a0}a",
        "https://",
        "https:///a",
        "https://?a",
        "https:a",
        "mailto:",
        "javascript:alert(1)",
        "data:text/html,x",
        "//a.b",
        "/a",
        "a",
        "https:\\\\evil.com",
    ] {
        assert_eq!(SafeUrl::parse_link(bad), None, "{bad:?}");
    }
    assert!(SafeUrl::parse_image("https://a/b.png").is_some());
    assert_eq!(SafeUrl::parse_image("mailto:a@b.c"), None);
}

/// The `shown_host` of the one link in `md`.
fn shown_host(md: &str) -> Option<String> {
    fn find(list: &[Inline]) -> Option<Option<String>> {
        list.iter().find_map(|inline| match inline {
            Inline::Link { shown_host, .. } => Some(shown_host.clone()),
            Inline::Emphasis(c) | Inline::Strong(c) | Inline::Strikethrough(c) => find(c),
            _ => None,
        })
    }
    match parse(md).as_slice() {
        [Block::Paragraph(content)] => find(content).unwrap_or_else(|| panic!("no link: {md:?}")),
        other => panic!("not one paragraph: {md:?} -> {other:?}"),
    }
}

// Regression (issue 12, item 12): link text naming another host showed no destination.
#[test]
fn link_text_naming_another_host_shows_the_destination_host() {
    for (md, host) in [
        (
            "[https://bank.example](https://evil.example)",
            "evil.example",
        ),
        (
            "[bank.example/login](https://evil.example/login)",
            "evil.example",
        ),
        ("[www.bank.example](https://evil.example)", "evil.example"),
        (
            "[HTTPS://BANK.EXAMPLE/](https://evil.example)",
            "evil.example",
        ),
        (
            "[Log in at https://bank.example now](https://evil.example/)",
            "evil.example",
        ),
        (
            "[https://bank.example](https://bank.example@evil.example/)",
            "evil.example",
        ),
        ("[`bank.example`](https://evil.example)", "evil.example"),
        ("[**bank**.example](https://evil.example)", "evil.example"),
        (
            "[bank.example](https://evil.example:8443/x)",
            "evil.example:8443",
        ),
        ("[bank.example](https://EVIL.example)", "EVIL.example"),
        ("[192.168.0.1](http://10.0.0.1/)", "10.0.0.1"),
        ("[bank.example](https://localhost/)", "localhost"),
        // Inside emphasis, the link still carries it.
        ("*[bank.example](https://evil.example)*", "evil.example"),
    ] {
        assert_eq!(shown_host(md), Some(host.to_string()), "{md:?}");
    }
}

#[test]
fn lookalike_and_punycode_link_text_shows_the_destination_host() {
    for (md, host) in [
        // Cyrillic "а" in "bаnk".
        ("[b\u{430}nk.example](https://bank.example)", "bank.example"),
        (
            "[xn--bnk-7cd.example](https://bank.example)",
            "bank.example",
        ),
        (
            "[bank.example](https://xn--bnk-7cd.example)",
            "xn--bnk-7cd.example",
        ),
        // An ideographic full stop, a fullwidth colon, a division slash.
        (
            "[bank\u{3002}example](https://evil.example)",
            "evil.example",
        ),
        (
            "[https\u{ff1a}//bank.example](https://evil.example)",
            "evil.example",
        ),
        (
            "[bank.example\u{2215}login](https://evil.example)",
            "evil.example",
        ),
    ] {
        assert_eq!(shown_host(md), Some(host.to_string()), "{md:?}");
    }
    // The same host spelled with another case or a dot IDNA maps to ".": nothing to show.
    for md in [
        "[M\u{dc}NCHEN.example](https://m\u{fc}nchen.example/)",
        "[bank\u{3002}example](https://bank.example)",
    ] {
        assert_eq!(shown_host(md), None, "{md:?}");
    }
}

#[test]
fn link_text_naming_the_destination_host_or_no_host_is_unchanged() {
    for md in [
        "[bank.example](https://bank.example)",
        "[https://www.bank.example/](https://bank.example/login)",
        "[BANK.Example](https://www.bank.example)",
        "[bank.example/login](https://bank.example/other?q=1)",
        "[bank.example.](https://bank.example)",
        "[bank.example](https://bank.example:443)",
        "[https://bank.example](http://user@bank.example/)",
        "[see bank.example](https://bank.example/help)",
        // Plain text: no host named.
        "[click here](https://evil.example)",
        "[e.g. the docs](https://evil.example)",
        "[version 1.2.3](https://evil.example)",
        "[(this) - that!](https://evil.example)",
        // A mailto destination has no host to show.
        "[https://bank.example](mailto:a@evil.example)",
    ] {
        assert_eq!(shown_host(md), None, "{md:?}");
    }
}

#[test]
fn autolinks_are_unchanged() {
    for (md, url) in [
        ("<https://bank.example/path>", "https://bank.example/path"),
        ("<HTTPS://Evil.Example>", "HTTPS://Evil.Example"),
        (
            "<https://bank.example@evil.example/>",
            "https://bank.example@evil.example/",
        ),
        ("<a@bank.example>", "mailto:a@bank.example"),
    ] {
        assert_eq!(shown_host(md), None, "{md:?}");
        assert_eq!(urls(&parse(md)), vec![("href", url.to_string())], "{md:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Incremental parsing
// ---------------------------------------------------------------------------------------------

const DOC_MIXED: &str = "# Title

Intro paragraph with *emphasis*, **strong** and `code`.
A second line of the same paragraph.

```rust
fn main() {

    let fence = \"```\";


    println!(\"{fence}\");
}
```

> A quote
> > nested, with a [link](https://example.com).

| name | value |
|:-----|------:|
| a    | 1     |
| b    | 2     |

- one
- two
  - nested
- [x] done

3. third
4. fourth

---

Setext heading
--------------

    indented code

Final paragraph.
";

const DOC_LISTS: &str = "Loose lists stay one list:

1. first

2. second

   continued paragraph of the second item

3. third

- a

- b

      indented code in b

* other bullet starts a new list

10. ten

11. eleven
";

const DOC_FENCES: &str = "Text before.

~~~python
def f():

    return '''
```

'''
~~~

````md
```
inner fence
```

````

Text after.

```
unclosed fence with

blank lines
";

const DOC_HTML: &str = "<script>
let a = 1;

let b = 2;
</script>

<!-- comment

still comment -->

<div>
block
</div>

after *html*

Para with <span>inline</span> html.
";

const DOC_TABLES: &str = "Intro

| a | b |
|---|---|
| 1 | 2 |
| 3 | 4 |
not blank: still a row?

| c |
|:-:|
| x |

> quote
continued lazily

> second quote

- item
lazy continuation

trailing paragraph
";

const ORDINARY_DOCS: &[&str] = &[DOC_MIXED, DOC_LISTS, DOC_FENCES, DOC_HTML, DOC_TABLES];

#[test]
fn incremental_matches_whole_parse_in_any_split() {
    for doc in ORDINARY_DOCS {
        let reference = parse(doc);
        let whole = feed_whole(doc);
        assert_eq!(
            whole.blocks(),
            reference,
            "whole feed differs from parse() for {doc:?}"
        );
        assert_eq!(feed_chars(doc).blocks(), reference, "char feed for {doc:?}");
        for seed in 1..=20u64 {
            for max_piece in [2, 7, 40] {
                assert_eq!(
                    feed_random(doc, seed, max_piece).blocks(),
                    reference,
                    "random feed (seed {seed}, max {max_piece}) for {doc:?}"
                );
            }
        }
        // The segmentation actually splits these documents.
        assert!(whole.finished_len() >= 2, "{doc:?} was not segmented");
    }
}

#[test]
fn segmentation_does_not_depend_on_split_points() {
    for doc in ORDINARY_DOCS {
        let whole = feed_whole(doc);
        for md in [feed_chars(doc), feed_random(doc, 7, 13)] {
            assert_eq!(md.finished(), whole.finished());
            assert_eq!(md.tail(), whole.tail());
            assert_eq!(md.text_len(), doc.len());
        }
    }
}

#[test]
fn finished_segments_are_monotone_and_never_change() {
    for doc in ORDINARY_DOCS {
        let mut md = IncrementalMarkdown::new();
        let mut snapshots: Vec<Vec<Block>> = Vec::new();
        let mut buf = [0u8; 4];
        for c in doc.chars() {
            md.push(c.encode_utf8(&mut buf));
            assert!(
                md.finished_len() >= snapshots.len(),
                "finished_len went down"
            );
            assert_eq!(md.finished_len(), md.finished().len());
            // Everything finished earlier is unchanged.
            assert_eq!(&md.finished()[..snapshots.len()], &snapshots[..]);
            snapshots.extend(md.finished()[snapshots.len()..].iter().cloned());
        }
        assert_eq!(md.finished(), &snapshots[..]);
    }
}

#[test]
fn fenced_block_with_blank_lines_is_never_split() {
    let doc = "before\n\n```text\nline one\n\n\nline two\n\n  \n```\n\nafter\n";
    let code = "line one\n\n\nline two\n\n  \n";
    let mut md = IncrementalMarkdown::new();
    let mut buf = [0u8; 4];
    for c in doc.chars() {
        md.push(c.encode_utf8(&mut buf));
        let blocks = md.blocks();
        let codes = blocks
            .iter()
            .filter(|b| matches!(b, Block::CodeBlock { .. }))
            .count();
        assert!(codes <= 1, "fence split while streaming: {blocks:?}");
        // While the fence is open, no finished segment may hold a part of it.
        for segment in md.finished() {
            for block in segment {
                if let Block::CodeBlock { code: c, .. } = block {
                    assert_eq!(c, code, "a partial code block was finished");
                }
            }
        }
    }
    assert_eq!(
        md.blocks(),
        vec![
            para("before"),
            Block::CodeBlock {
                lang: Some("text".into()),
                code: code.into()
            },
            para("after"),
        ]
    );
}

#[test]
fn loose_ordered_list_keeps_one_list_with_start() {
    let doc = "5. a\n\n6. b\n\n7. c\n\nend\n";
    let md = feed_chars(doc);
    let blocks = md.blocks();
    assert_eq!(blocks, parse(doc));
    match &blocks[0] {
        Block::List {
            ordered,
            start,
            items,
        } => {
            assert!(*ordered);
            assert_eq!(*start, 5);
            assert_eq!(items.len(), 3);
        }
        other => panic!("expected a list, got {other:?}"),
    }
}

#[test]
fn reference_definitions_apply_within_their_segment_only() {
    // Documented difference: the definition is in an earlier segment than its use.
    let doc = "[r]: https://r.example\n\nuse [r] here\n";
    assert_eq!(
        urls(&parse(doc)),
        vec![("href", "https://r.example".to_string())]
    );
    let md = feed_chars(doc);
    assert_eq!(md.blocks(), vec![para("use [r] here")]);
    assert_eq!(feed_whole(doc).blocks(), md.blocks());
    // Within one segment it works.
    let doc = "use [r] here\n[r]: https://r.example\n";
    assert_eq!(feed_chars(doc).blocks(), parse(doc));
}

#[test]
fn set_text_appends_or_resets() {
    let mut md = IncrementalMarkdown::new();
    md.set_text("Hello *wor");
    md.set_text("Hello *world*\n\nSecond");
    assert_eq!(md.blocks(), parse("Hello *world*\n\nSecond"));
    // The boundary is confirmed once the line after the blank line is complete.
    assert_eq!(md.finished_len(), 0);
    md.set_text("Hello *world*\n\nSecond\n");
    assert_eq!(md.finished_len(), 1);
    md.set_text("Replaced text\n\nentirely\n");
    assert_eq!(md.blocks(), parse("Replaced text\n\nentirely\n"));
    assert_eq!(md.text(), "Replaced text\n\nentirely\n");
    assert_eq!(
        md.finished(),
        feed_whole("Replaced text\n\nentirely\n").finished()
    );
    md.set_text("");
    assert_eq!(md.blocks(), vec![]);
    assert_eq!(md.text_len(), 0);
}

#[test]
fn crlf_line_endings() {
    let doc = DOC_MIXED.replace('\n', "\r\n");
    let reference = parse(&doc);
    assert_eq!(feed_chars(&doc).blocks(), reference);
    assert_eq!(feed_random(&doc, 3, 9).blocks(), reference);
    assert!(feed_whole(&doc).finished_len() >= 2);
}

#[test]
fn work_is_linear_in_the_text_not_quadratic() {
    let mut doc = String::new();
    for i in 0..2_000 {
        let mut p = format!(
            "Paragraph {i} has *emphasis*, `code` and a [link](https://example.com/{i}) in it"
        );
        while p.len() < 98 {
            p.push('.');
        }
        doc.push_str(&p);
        doc.push_str("\n\n");
    }
    assert!(doc.len() >= 200_000);
    let piece = doc.len().div_ceil(20_000);
    let mut md = IncrementalMarkdown::new();
    let mut deltas = 0;
    for chunk in doc.as_bytes().chunks(piece) {
        md.push(std::str::from_utf8(chunk).unwrap());
        deltas += 1;
    }
    assert_eq!(deltas, 20_000);
    let ratio = md.bytes_parsed() as f64 / doc.len() as f64;
    eprintln!("bytes_parsed / text = {ratio:.1}");
    // Re-parsing the whole message per delta would be ~10,000×; per segment it stays small.
    assert!(
        md.bytes_parsed() <= 40 * doc.len(),
        "parsed {} bytes for {} bytes of text ({ratio:.1}×)",
        md.bytes_parsed(),
        doc.len()
    );
    assert_eq!(md.finished_len() + 1, 2_000);
    assert_eq!(md.blocks(), parse(&doc));
}

// ---------------------------------------------------------------------------------------------
// No panics
// ---------------------------------------------------------------------------------------------

const TRICKY: &str = "# Head *unclosed emph
```rust
unclosed fence
| a | b
|---|--
| 1 | 2 |
[link](http://
![img](https://x/y.png \"title
<div><script>alert(1)
- [x] task
  1. nested [ref][r]
> quote ~~strike
***bold em* __x_
\\
[r]: https://r
&#106;avascript: &amp; &#0; \u{0}
é ü 漢字 😀
| c | d |
|:-:|:-
| e |";

#[test]
fn every_prefix_parses_without_panic() {
    let mut prefixes = 0;
    for (i, _) in TRICKY.char_indices().chain([(TRICKY.len(), ' ')]) {
        let prefix = &TRICKY[..i];
        let _ = parse(prefix);
        // The same prefix with its fence closed, to reach the constructs after it.
        let _ = parse(&prefix.replacen("```rust", "", 1));
        prefixes += 1;
    }
    assert!(prefixes > 100);
    let closed = TRICKY.replacen("```rust", "", 1);
    for doc in [TRICKY, closed.as_str()] {
        assert_eq!(feed_chars(doc).blocks(), feed_whole(doc).blocks());
        assert_eq!(feed_random(doc, 11, 5).blocks(), feed_whole(doc).blocks());
    }
}

fn markdownish() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "a",
        "b ",
        "\n",
        "\n\n",
        "  ",
        "    ",
        "\t",
        "#",
        "# ",
        "*",
        "**",
        "_",
        "~~",
        "`",
        "```",
        "~~~",
        "- ",
        "* ",
        "1. ",
        "3) ",
        "> ",
        "|",
        "|---|",
        ":-:",
        "[",
        "]",
        "(",
        ")",
        "](https://x)",
        "]: https://r",
        "!",
        "<",
        ">",
        "<div>",
        "</div>",
        "<script>",
        "</script>",
        "<!--",
        "-->",
        "---",
        "===",
        "\\",
        "&#106;",
        "- [ ] ",
        "- [x] ",
        "é",
        "\r\n",
        "\n    ",
        "\n  ",
        "\n- ",
        "\n\n- ",
        "\n\n1. ",
        "\n\n2. ",
        "\n\n```\n",
        "\n> ",
        "\n\n|a|b|\n|-|-|\n",
        "\n\n<pre>\n",
        "</pre>",
        "\n\n[a]",
        "\n   ",
        "x\n",
    ]);
    prop::collection::vec(atoms, 0..80).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Any split gives the same result as feeding the text whole, and — unless the text has a
    /// link reference definition (`]:`) — the same as parsing it whole.
    #[test]
    fn incremental_is_split_independent(doc in markdownish(), seed in any::<u64>(), max in 1usize..12) {
        let whole = feed_whole(&doc);
        let split = feed_random(&doc, seed, max);
        prop_assert_eq!(split.finished(), whole.finished());
        prop_assert_eq!(split.tail(), whole.tail());
        if !doc.contains("]:") {
            // As the whole text reads while it may still grow: an unclosed formula at its
            // end is its source (src/markdown/mod.rs).
            prop_assert_eq!(whole.blocks(), parse_with(&doc, MathSyntax::On, true));
        }
    }
}

/// The nesting depth of a tree (containers inside containers).
fn nesting(blocks: &[Block]) -> usize {
    fn inline(i: &Inline) -> usize {
        match i {
            Inline::Emphasis(c) | Inline::Strong(c) | Inline::Strikethrough(c) => {
                1 + c.iter().map(inline).max().unwrap_or(0)
            }
            Inline::Link { content, .. } => 1 + content.iter().map(inline).max().unwrap_or(0),
            _ => 0,
        }
    }
    fn block(b: &Block) -> usize {
        match b {
            Block::Quote(inner) | Block::Footnote { blocks: inner, .. } => 1 + nesting(inner),
            Block::List { items, .. } => {
                2 + items.iter().map(|i| nesting(&i.blocks)).max().unwrap_or(0)
            }
            Block::Paragraph(c) | Block::Heading { content: c, .. } => {
                c.iter().map(inline).max().unwrap_or(0)
            }
            _ => 0,
        }
    }
    blocks.iter().map(block).max().unwrap_or(0)
}

// Regression (issue 12.4): 8 KB of "> " or "- * " nested thousands of containers; cloning,
// dropping or rendering the tree overflowed wasm's 1 MiB stack (and a saved message did it
// again on every reload). Run on a 256 KiB stack, a quarter of wasm's.
#[test]
fn hostile_nesting_is_flattened_beyond_the_cap_and_keeps_the_text() {
    let inputs = [
        format!("{}deep", "> ".repeat(4000)),
        format!("{}deep", "- * ".repeat(2000)),
        format!("{}deep", "1. > ".repeat(1500)),
        format!(
            "{}deep{}",
            "*a **b ~~c [d".repeat(300),
            "](https://x.example)~~** *".repeat(300)
        ),
    ];
    let worker = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            for input in inputs {
                let blocks = markdown::parse(&input);
                let copy = blocks.clone();
                assert!(
                    nesting(&copy) <= markdown::MAX_NESTING + 1,
                    "{}",
                    nesting(&copy)
                );
                assert!(format!("{copy:?}").contains("deep"), "the text is kept");
                let mut inc = markdown::IncrementalMarkdown::new();
                for piece in input.as_bytes().chunks(997) {
                    inc.push(&String::from_utf8_lossy(piece));
                }
                assert!(nesting(&inc.blocks()) <= markdown::MAX_NESTING + 1);
                drop((blocks, copy, inc));
            }
        })
        .expect("a thread");
    worker.join().expect("no stack overflow, no panic");
}

#[test]
fn ordinary_nesting_is_untouched() {
    let src = "> a\n> > b\n> > - c\n> >   - d **e *f*  g**\n";
    let blocks = markdown::parse(src);
    assert_eq!(nesting(&blocks), 8);
}

/// A coding agent's file: `lines` lines of code with blank lines between functions, in a
/// fence after a sentence.
fn code_file(lines: usize) -> String {
    let mut doc = String::from("Here is the file:\n```rust\n");
    for i in 0..lines {
        if i % 8 == 7 {
            doc.push('\n');
        } else {
            doc.push_str(&format!("    let value_{i} = compute({i}, \"text\");\n"));
        }
    }
    doc.push_str("```\n\nThat is all.\n");
    doc
}

// Regression (issue 12.5): inside a fenced code block with blank lines every candidate line
// re-parsed the whole open segment and every push the whole tail (a 40 KB fence handed ~56 MB
// to pulldown-cmark). A 100 KB file now streams in O(its size).
#[test]
fn a_long_code_fence_streams_in_linear_parser_work() {
    let doc = code_file(2_800);
    assert!(doc.len() > 100_000, "{}", doc.len());
    let mut md = IncrementalMarkdown::new();
    let mut at = 0;
    let mut n = 0u64;
    while at < doc.len() {
        // Deltas of 20–60 bytes, as a model streams tokens.
        n = n
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut end = (at + 20 + (n >> 59) as usize * 3).min(doc.len());
        while !doc.is_char_boundary(end) {
            end += 1;
        }
        md.push(&doc[at..end]);
        at = end;
    }
    assert_eq!(md.blocks(), parse(&doc));
    let ratio = md.bytes_parsed() as f64 / doc.len() as f64;
    assert!(
        ratio <= 3.0,
        "{} bytes parsed for {} ({ratio:.1}×)",
        md.bytes_parsed(),
        doc.len()
    );
    // And the code block's tail is the block so far at every step (spot checks).
    let mut md = IncrementalMarkdown::new();
    for (i, piece) in doc.as_bytes().chunks(4_001).enumerate() {
        md.push(std::str::from_utf8(piece).expect("ascii"));
        let seen = &doc[..((i + 1) * 4_001).min(doc.len())];
        assert_eq!(md.blocks(), parse(seen), "after {} bytes", seen.len());
    }
}

// Inside a long <pre> or comment with blank lines no line is asked whether it starts a block.
#[test]
fn a_long_html_block_with_blank_lines_asks_no_candidate_lines() {
    let mut doc = String::from("<pre>\n");
    for i in 0..400 {
        doc.push_str(&format!("row {i}\n\n"));
    }
    doc.push_str("</pre>\n\nafter\n");
    let mut md = IncrementalMarkdown::new();
    md.push(&doc);
    assert_eq!(md.blocks(), parse(&doc));
    assert!(
        md.bytes_parsed() <= 3 * doc.len(),
        "{} bytes parsed for {}",
        md.bytes_parsed(),
        doc.len()
    );
}

#[test]
fn cjk_strong_before_full_width_punctuation_follows_commonmark() {
    // CommonMark's flanking rules: a closing `**` after punctuation (the full-width colon)
    // and before a letter (正) is not right-flanking, so no strong text: the asterisks stay
    // (docs/answers.md says so, and how to write it).
    assert_eq!(parse("**注意：**正文"), vec![para("**注意：**正文")]);
    // With the punctuation outside, or a space after, it is strong.
    assert_eq!(
        parse("**注意**：正文"),
        vec![Block::Paragraph(vec![
            Inline::Strong(vec![text("注意")]),
            text("：正文")
        ])]
    );
    assert!(matches!(
        parse("**注意：** 正文").as_slice(),
        [Block::Paragraph(c)] if matches!(c.first(), Some(Inline::Strong(_)))
    ));
}

// ---- footnotes ---------------------------------------------------------------------------------

#[test]
fn footnote_definitions_are_blocks_and_references_stay_text() {
    let doc = "Rust[^1] is fast[^big-note].\n\n[^1]: The language.\n\n[^big-note]: First paragraph.\n\n    Second paragraph.\n\nAfter.\n";
    let blocks = parse(doc);
    assert_eq!(
        blocks,
        vec![
            para("Rust[^1] is fast[^big-note]."),
            Block::Footnote {
                label: "1".into(),
                blocks: vec![para("The language.")],
            },
            Block::Footnote {
                label: "big-note".into(),
                blocks: vec![para("First paragraph."), para("Second paragraph.")],
            },
            para("After."),
        ]
    );
    // A reference without a definition reads the same: the UI resolves both alike.
    assert_eq!(parse("x[^1] y[^none]"), vec![para("x[^1] y[^none]")]);
    // Inside a container a definition is not a note of the message: its text is kept.
    assert_eq!(
        parse("> [^q]: quoted note\n"),
        vec![Block::Quote(vec![para("quoted note")])]
    );
}

#[test]
fn footnotes_stream_like_a_whole_parse_whatever_the_split() {
    let doc = "Claim[^a] and claim[^b].\n\nMore text.\n\n[^a]: Note a,\n    continued.\n\n[^b]: Note b.\n\n    Its second paragraph.\n";
    let reference = parse(doc);
    assert_eq!(feed_chars(doc).blocks(), reference);
    for seed in 0..20 {
        assert_eq!(feed_random(doc, seed, 7).blocks(), reference, "seed {seed}");
    }
    // The definitions arrive in later segments than their references: while only the text
    // has come, the references are text, the same text they stay.
    let md = feed_whole(doc);
    let first: Vec<Block> = md.finished().first().cloned().unwrap_or_default();
    assert_eq!(first, vec![para("Claim[^a] and claim[^b].")]);
    let labels: Vec<String> = md
        .finished()
        .iter()
        .flatten()
        .chain(md.tail())
        .filter_map(|b| match b {
            Block::Footnote { label, .. } => Some(label.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(labels, vec!["a", "b"]);
    let partial = feed_whole("Claim[^a].\n\n[^a]: No");
    assert_eq!(
        partial.blocks(),
        vec![
            para("Claim[^a]."),
            Block::Footnote {
                label: "a".into(),
                blocks: vec![para("No")],
            }
        ]
    );
}
