//! Math in answers (`agui_leptos::markdown`): which delimiters make a formula, what stays text
//! (prices, code), formulas still streaming, and TeX → the closed MathML Core tree with its
//! budgets.

use agui_leptos::markdown::{
    parse, parse_with, tex_to_mathml, Block, IncrementalMarkdown, Inline, MathAttr, MathElement,
    MathNode, MathSyntax, MathTag, TexError, MAX_TEX_BYTES, MAX_TEX_DEPTH,
};

fn math(tex: &str, display: bool) -> Inline {
    Inline::Math {
        tex: tex.to_owned(),
        display,
    }
}

fn text(s: &str) -> Inline {
    Inline::Text(s.to_owned())
}

fn inlines(blocks: &[Block]) -> Vec<Inline> {
    match blocks {
        [Block::Paragraph(content)] => content.clone(),
        other => panic!("one paragraph expected, got {other:?}"),
    }
}

#[test]
fn display_dollars_keep_every_backslash() {
    // CommonMark alone would eat the backslash of `\,` (an escaped comma).
    let blocks = parse(r"$$\int_0^1 x\,dx$$");
    assert_eq!(inlines(&blocks), vec![math(r"\int_0^1 x\,dx", true)]);
}

#[test]
fn brackets_and_parentheses_are_math_not_escapes() {
    let blocks = parse(r"Area: \(\pi r^2\), and \[E = mc^2\] done.");
    assert_eq!(
        inlines(&blocks),
        vec![
            text("Area: "),
            math(r"\pi r^2", false),
            text(", and "),
            math("E = mc^2", true),
            text(" done."),
        ]
    );
    // On lines of their own, as LLMs write them.
    let blocks = parse("Solve:\n\\[\n\\frac{a}{b}\n\\]\n");
    let content = inlines(&blocks);
    assert!(
        content.iter().any(
            |i| matches!(i, Inline::Math { tex, display: true } if tex.trim() == r"\frac{a}{b}")
        ),
        "{content:?}"
    );
}

#[test]
fn single_dollars_are_prices_unless_the_page_opts_in() {
    let blocks = parse("It costs $5 and $10 today, or $x$.");
    assert_eq!(
        inlines(&blocks),
        vec![text("It costs $5 and $10 today, or $x$.")]
    );
    let blocks = parse_with("Let $x$ be $y^2$.", MathSyntax::Dollars, false);
    assert_eq!(
        inlines(&blocks),
        vec![
            text("Let "),
            math("x", false),
            text(" be "),
            math("y^2", false),
            text(".")
        ]
    );
}

#[test]
fn math_off_reads_as_commonmark() {
    let blocks = parse_with(r"$$a$$ and \[b\]", MathSyntax::Off, false);
    assert_eq!(inlines(&blocks), vec![text("$$a$$ and [b]")]);
}

#[test]
fn code_is_never_math() {
    let blocks = parse("`$$x$$` and `\\[y\\]` cost `$5`");
    assert_eq!(
        inlines(&blocks),
        vec![
            Inline::Code("$$x$$".into()),
            text(" and "),
            Inline::Code("\\[y\\]".into()),
            text(" cost "),
            Inline::Code("$5".into()),
        ]
    );
    let blocks = parse("```sh\necho $HOME \\[x\\] $$\n```\n");
    assert_eq!(
        blocks,
        vec![Block::CodeBlock {
            lang: Some("sh".into()),
            code: "echo $HOME \\[x\\] $$\n".into()
        }]
    );
    // An autolink keeps its dollar (escapes are not read there).
    let blocks = parse("<https://example.com/$x>");
    let [Block::Paragraph(content)] = blocks.as_slice() else {
        panic!("{blocks:?}")
    };
    assert!(
        matches!(&content[0], Inline::Link { href, .. } if href.as_str() == "https://example.com/$x")
    );
}

#[test]
fn unpaired_delimiters_stay_text() {
    // Each paragraph pairs its own.
    let blocks = parse("a \\[ b\n\nc \\] d");
    assert_eq!(
        blocks,
        vec![
            Block::Paragraph(vec![text("a [ b")]),
            Block::Paragraph(vec![text("c ] d")])
        ]
    );
    let blocks = parse("only $$ one");
    assert_eq!(inlines(&blocks), vec![text("only $$ one")]);
}

#[test]
fn a_formula_still_streaming_shows_as_its_source_until_it_closes() {
    let mut md = IncrementalMarkdown::new();
    md.push("Intro.\n\nThe integral $$\\int_0^");
    assert_eq!(
        md.blocks()[1..],
        [Block::Paragraph(vec![
            text("The integral "),
            Inline::MathSource("$$\\int_0^".into())
        ])]
    );
    md.push("1 x\\,dx$$ is one half.");
    assert_eq!(
        md.blocks()[1..],
        [Block::Paragraph(vec![
            text("The integral "),
            math("\\int_0^1 x\\,dx", true),
            text(" is one half."),
        ])]
    );
    // A bracket on a line of its own: a paragraph of its own while it streams.
    let mut md = IncrementalMarkdown::new();
    md.push("Text.\n\n\\[\n\\sum_{i=1}");
    assert_eq!(
        md.blocks()[1..],
        [Block::Paragraph(vec![Inline::MathSource(
            "\\[\n\\sum_{i=1}".into()
        )])]
    );
    // Finished segments are parsed as closed text: an unpaired `$$` there is text.
    let mut md = IncrementalMarkdown::new();
    md.push("costs $$ more\n\nNext.\n\n");
    let blocks = md.blocks();
    assert_eq!(blocks[0], Block::Paragraph(vec![text("costs $$ more")]));
}

#[test]
fn streaming_in_any_split_equals_the_whole() {
    let doc = "# Heat\n\nThe equation \\(u_t = \\alpha \\nabla^2 u\\) with\n\n$$\nu(x,0) = \\sin(\\pi x)\n$$\n\nPrices: $3 and $4.\n\n```\n$$not math$$\n```\n";
    let whole = parse_with(doc, MathSyntax::On, true);
    for step in [1, 2, 3, 7, 13] {
        let mut md = IncrementalMarkdown::with_math(MathSyntax::On);
        let chars: Vec<char> = doc.chars().collect();
        for piece in chars.chunks(step) {
            md.push(&piece.iter().collect::<String>());
        }
        assert_eq!(md.blocks(), whole, "step {step}");
    }
}

fn find<'a>(e: &'a MathElement, tag: MathTag, out: &mut Vec<&'a MathElement>) {
    if e.tag == tag {
        out.push(e);
    }
    for c in &e.children {
        if let MathNode::Element(c) = c {
            find(c, tag, out);
        }
    }
}

fn all(e: &MathElement, tag: MathTag) -> Vec<&MathElement> {
    let mut out = Vec::new();
    find(e, tag, &mut out);
    out
}

#[test]
fn tex_becomes_mathml_core_with_its_source_kept() {
    let m = tex_to_mathml(r"\frac{a}{b} + \sqrt{x^2}", true).expect("renders");
    assert_eq!(m.tag, MathTag::Math);
    assert_eq!(m.get(MathAttr::Display), Some("block"));
    assert_eq!(all(&m, MathTag::Mfrac).len(), 1);
    assert_eq!(all(&m, MathTag::Msqrt).len(), 1);
    assert_eq!(all(&m, MathTag::Msup).len(), 1);
    let annotation = all(&m, MathTag::Annotation);
    assert_eq!(annotation.len(), 1);
    assert_eq!(
        annotation[0].get(MathAttr::Encoding),
        Some("application/x-tex")
    );
    assert_eq!(
        annotation[0].children,
        vec![MathNode::Text(r"\frac{a}{b} + \sqrt{x^2}".into())]
    );
    // The text a screen reader and a test read: the formula's characters, not the TeX.
    assert_eq!(m.text(), "ab+x2");
    let inline = tex_to_mathml("x", false).expect("renders");
    assert_eq!(inline.get(MathAttr::Display), None);
}

#[test]
fn sums_limits_matrices_and_cases() {
    let m = tex_to_mathml(r"\sum_{i=1}^{n} i", true).expect("renders");
    assert_eq!(all(&m, MathTag::Munderover).len(), 1, "{m:?}");
    let m = tex_to_mathml(r"\sum_{i=1}^{n} i", false).expect("renders");
    assert_eq!(
        all(&m, MathTag::Msubsup).len(),
        1,
        "inline limits go to the side"
    );
    let m = tex_to_mathml(r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}", true).expect("renders");
    let rows = all(&m, MathTag::Mtr);
    assert_eq!(rows.len(), 2, "{m:?}");
    assert_eq!(all(&m, MathTag::Mtd).len(), 4);
    assert!(
        m.text().contains('(') && m.text().contains(')'),
        "{}",
        m.text()
    );
    let m = tex_to_mathml(
        r"f(x) = \begin{cases} 1 & x > 0 \\ 0 & \text{otherwise} \end{cases}",
        true,
    )
    .expect("renders");
    assert!(m.text().contains('{'));
    assert_eq!(all(&m, MathTag::Mtext).len(), 1);
}

#[test]
fn fonts_colours_and_negation() {
    let m = tex_to_mathml(r"\mathbb{R} \mathbf{v} \mathcal{L}", false).expect("renders");
    assert_eq!(m.text(), "ℝ𝐯ℒ");
    let m = tex_to_mathml(r"{\color{red} x} y", false).expect("renders");
    let coloured: Vec<_> = all(&m, MathTag::Mrow)
        .into_iter()
        .filter(|e| e.get(MathAttr::Mathcolor).is_some())
        .collect();
    assert_eq!(coloured.len(), 1);
    assert_eq!(coloured[0].get(MathAttr::Mathcolor), Some("#ff0000"));
    assert_eq!(coloured[0].text(), "x");
    let m = tex_to_mathml(r"a \not= b", false).expect("renders");
    assert!(m.text().contains("=\u{338}"), "{}", m.text());
}

#[test]
fn attribute_values_are_never_the_tex_s_text() {
    // Whatever the TeX says, attributes hold only values this crate writes.
    let m = tex_to_mathml(
        r"\color{#123456} \text{<img src=x onerror=alert(1)>} \frac[5pt]{a}{b}",
        false,
    );
    fn check(e: &MathElement) {
        for (attr, value) in &e.attrs {
            assert!(
                value
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "#.-/ ".contains(c)),
                "{attr:?}={value:?}"
            );
        }
        for c in &e.children {
            if let MathNode::Element(c) = c {
                check(c);
            }
        }
    }
    if let Ok(m) = m {
        check(&m);
        // The markup-looking text is text.
        assert!(m.text().contains("<img src=x onerror=alert(1)>"));
    }
}

#[test]
fn invalid_tex_and_budgets_are_errors_not_panics() {
    assert_eq!(tex_to_mathml(r"\frac{a}{", true), Err(TexError::Invalid));
    assert_eq!(
        tex_to_mathml(r"\nosuchcommand x", true),
        Err(TexError::Invalid)
    );
    assert_eq!(
        tex_to_mathml(r"\def\a{\a\a} \a", true),
        Err(TexError::Macro)
    );
    assert_eq!(
        tex_to_mathml(r"\newcommand{\x}{y} \x", true),
        Err(TexError::Macro)
    );
    let long = "x+".repeat(MAX_TEX_BYTES);
    assert_eq!(tex_to_mathml(&long, true), Err(TexError::TooLong));
    let deep = format!(
        "{}x{}",
        "{".repeat(MAX_TEX_DEPTH + 1),
        "}".repeat(MAX_TEX_DEPTH + 1)
    );
    assert_eq!(tex_to_mathml(&deep, true), Err(TexError::TooDeep));
    let ok = format!(
        "{}x{}",
        "{".repeat(MAX_TEX_DEPTH),
        "}".repeat(MAX_TEX_DEPTH)
    );
    assert!(tex_to_mathml(&ok, true).is_ok());
    let left = r"\left(".repeat(MAX_TEX_DEPTH + 1);
    assert_eq!(tex_to_mathml(&left, true), Err(TexError::TooDeep));
}

#[test]
fn deep_formulas_fit_a_small_stack() {
    // The wasm stack (1 MiB, shared with the render that asks) is smaller than a native
    // thread's: the budgets keep the parser and the tree within 128 KiB optimised (measured:
    // 64 KiB is enough), 512 KiB unoptimised, whatever the nesting.
    let stack = if cfg!(debug_assertions) { 512 } else { 128 } * 1024;
    let handle = std::thread::Builder::new()
        .stack_size(stack)
        .spawn(|| {
            let nested = format!(
                "{}x{}",
                r"\frac{1}{".repeat(MAX_TEX_DEPTH),
                "}".repeat(MAX_TEX_DEPTH)
            );
            assert!(tex_to_mathml(&nested, true).is_ok());
            let scripts = format!(
                "{}x{}",
                "x^{".repeat(MAX_TEX_DEPTH),
                "}".repeat(MAX_TEX_DEPTH)
            );
            assert!(tex_to_mathml(&scripts, true).is_ok());
            let empties = "{}".repeat(MAX_TEX_BYTES / 2);
            let _ = tex_to_mathml(&empties, true);
            let chain = "x^".repeat(MAX_TEX_BYTES / 2);
            let _ = tex_to_mathml(&chain, true);
        })
        .expect("thread");
    handle.join().expect("no overflow, no panic");
}
