//! The stylesheets keep every visual value in `style/tokens.css` (declared on `.agui-root`):
//! outside it, no literal colour, no absolute length (so no pixel font size), no token
//! declaration and no physical left/right property (right-to-left layouts mirror through
//! logical properties). Every `var(--agui-…)` names a declared token, every token is used and
//! documented in the token table of `docs/theming.md`, and every colour token has a dark value
//! (`light-dark(…)`).

use std::collections::BTreeSet;
use std::path::PathBuf;

const TOKENS: &str = "tokens.css";

/// The CSS named colours (CSS Color 4), lowercase. `transparent` and `currentcolor` are fine.
const NAMED_COLORS: &str = "aliceblue antiquewhite aqua aquamarine azure beige bisque black \
    blanchedalmond blue blueviolet brown burlywood cadetblue chartreuse chocolate coral \
    cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen \
    darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon \
    darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink \
    deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro \
    ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo \
    ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan \
    lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen \
    lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen \
    magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen \
    mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream \
    mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid \
    palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum \
    powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown \
    seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen \
    steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow \
    yellowgreen";

const COLOR_FUNCTIONS: &[&str] = &[
    "rgb",
    "rgba",
    "hsl",
    "hsla",
    "hwb",
    "lab",
    "lch",
    "oklab",
    "oklch",
    "color",
    "light-dark",
];

const ABSOLUTE_UNITS: &[&str] = &["px", "pt", "pc", "cm", "mm", "in", "q", "rem"];

const PHYSICAL_PROPERTIES: &[&str] = &[
    "left",
    "right",
    "margin-left",
    "margin-right",
    "padding-left",
    "padding-right",
    "border-left",
    "border-right",
    "border-left-width",
    "border-right-width",
    "border-left-color",
    "border-right-color",
    "border-left-style",
    "border-right-style",
    "border-top-left-radius",
    "border-top-right-radius",
    "border-bottom-left-radius",
    "border-bottom-right-radius",
    "scroll-margin-left",
    "scroll-margin-right",
    "scroll-padding-left",
    "scroll-padding-right",
];

/// One declaration: property, value (comments removed, whitespace collapsed).
#[derive(Debug)]
struct Decl {
    prop: String,
    value: String,
}

fn strip_comments(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        match rest[start + 2..].find("*/") {
            Some(end) => rest = &rest[start + 2 + end + 2..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// The declarations of a stylesheet and its rule preludes (selectors, `@media …`).
fn parse(css: &str) -> (Vec<Decl>, Vec<String>) {
    let css = strip_comments(css);
    let (mut decls, mut preludes) = (Vec::new(), Vec::new());
    let mut buf = String::new();
    let mut depth = 0usize; // parentheses: `;` inside `url(…)` or a function never ends a value
    for c in css.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth == 0 && matches!(c, '{' | '}' | ';') {
            let piece = buf.split_whitespace().collect::<Vec<_>>().join(" ");
            buf.clear();
            if c == '{' {
                preludes.push(piece);
            } else if let Some((prop, value)) = piece.split_once(':') {
                decls.push(Decl {
                    prop: prop.trim().to_ascii_lowercase(),
                    value: value.trim().to_owned(),
                });
            }
        } else {
            buf.push(c);
        }
    }
    (decls, preludes)
}

/// Identifier-ish words of a value (`--agui-color-text` stays one word).
fn words(value: &str) -> impl Iterator<Item = &str> {
    value
        .split(|c: char| {
            !(c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '#' || c == '.')
        })
        .filter(|w| !w.is_empty())
}

fn is_hex_color(word: &str) -> bool {
    word.strip_prefix('#').is_some_and(|h| {
        matches!(h.len(), 3 | 4 | 6 | 8) && h.chars().all(|c| c.is_ascii_hexdigit())
    })
}

fn calls(value: &str, function: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    lower.match_indices(&format!("{function}(")).any(|(i, _)| {
        lower[..i]
            .chars()
            .last()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '-'))
    })
}

fn has_absolute_length(word: &str) -> bool {
    ABSOLUTE_UNITS.iter().any(|unit| {
        word.to_ascii_lowercase()
            .strip_suffix(unit)
            .is_some_and(|n| !n.is_empty() && n.parse::<f64>().is_ok())
    })
}

/// What is wrong with a stylesheet other than tokens.css.
fn problems(name: &str, css: &str) -> Vec<String> {
    let named: BTreeSet<&str> = NAMED_COLORS.split_whitespace().collect();
    let (decls, _) = parse(css);
    let mut out = Vec::new();
    for Decl { prop, value } in &decls {
        let at = format!("{name}: `{prop}: {value}`");
        if prop.starts_with("--") {
            out.push(format!("{at}: tokens are declared in {TOKENS} only"));
        }
        for word in words(value) {
            if is_hex_color(word) || named.contains(word.to_ascii_lowercase().as_str()) {
                out.push(format!("{at}: literal colour `{word}`"));
            }
            if has_absolute_length(word) {
                out.push(format!("{at}: literal length `{word}`"));
            }
        }
        if let Some(f) = COLOR_FUNCTIONS.iter().find(|f| calls(value, f)) {
            out.push(format!("{at}: literal colour `{f}(…)`"));
        }
        if (prop == "font-size" || prop == "font")
            && !(value.starts_with("var(--agui-") || value == "inherit")
        {
            out.push(format!("{at}: font sizes come from a token"));
        }
        let physical = PHYSICAL_PROPERTIES.contains(&prop.as_str())
            || (matches!(prop.as_str(), "float" | "clear" | "text-align")
                && matches!(value.as_str(), "left" | "right"));
        if physical {
            out.push(format!(
                "{at}: use the logical property (inline-start / inline-end)"
            ));
        }
    }
    out
}

fn style_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("style")
}

fn stylesheets() -> Vec<(String, String)> {
    let mut sheets: Vec<(String, String)> = std::fs::read_dir(style_dir())
        .expect("style/ exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "css"))
        .map(|p| {
            let name = p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let text = std::fs::read_to_string(&p).expect("readable stylesheet");
            (name, text)
        })
        .collect();
    sheets.sort();
    sheets
}

fn declared_tokens(tokens_css: &str) -> BTreeSet<String> {
    parse(tokens_css)
        .0
        .into_iter()
        .filter(|d| d.prop.starts_with("--agui-"))
        .map(|d| d.prop)
        .collect()
}

#[test]
fn no_literal_visual_values_outside_the_tokens() {
    let sheets = stylesheets();
    assert!(
        sheets.iter().any(|(n, _)| n == TOKENS),
        "style/{TOKENS} exists"
    );
    assert!(sheets.len() > 1, "there are component stylesheets to check");
    let found: Vec<String> = sheets
        .iter()
        .filter(|(name, _)| name != TOKENS)
        .flat_map(|(name, css)| problems(name, css))
        .collect();
    assert!(
        found.is_empty(),
        "{} problems:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn every_token_used_is_declared_on_the_widget_root() {
    let sheets = stylesheets();
    let tokens_css = &sheets
        .iter()
        .find(|(n, _)| n == TOKENS)
        .expect("tokens.css")
        .1;
    let (_, preludes) = parse(tokens_css);
    assert!(
        preludes.iter().all(|p| !p.contains(":root")),
        "tokens live on .agui-root, never :root"
    );
    let declared = declared_tokens(tokens_css);
    assert!(declared.len() > 50, "the token list is in {TOKENS}");
    let mut missing = BTreeSet::new();
    for (name, css) in &sheets {
        for (i, _) in css.match_indices("var(--agui-") {
            let rest = &css[i + 4..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .unwrap_or(rest.len());
            let token = &rest[..end];
            if !declared.contains(token) {
                missing.insert(format!("{name}: {token}"));
            }
        }
    }
    assert!(missing.is_empty(), "undeclared tokens: {missing:?}");
}

#[test]
fn every_token_is_used_and_documented() {
    let sheets = stylesheets();
    let tokens_css = &sheets
        .iter()
        .find(|(n, _)| n == TOKENS)
        .expect("tokens.css")
        .1;
    let all_css: String = sheets.iter().map(|(_, css)| css.as_str()).collect();
    let theming =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/theming.md"))
            .expect("docs/theming.md");
    for token in declared_tokens(tokens_css) {
        assert!(
            all_css.contains(&format!("var({token})")),
            "{token} is declared but no stylesheet uses it"
        );
        assert!(
            theming.contains(&format!("| `{token}` |")),
            "{token} is missing from the token table of docs/theming.md"
        );
    }
}

#[test]
fn every_colour_token_has_a_dark_value() {
    let sheets = stylesheets();
    let tokens_css = &sheets
        .iter()
        .find(|(n, _)| n == TOKENS)
        .expect("tokens.css")
        .1;
    let (decls, _) = parse(tokens_css);
    let colours: Vec<&Decl> = decls
        .iter()
        .filter(|d| d.prop.starts_with("--agui-color-"))
        .collect();
    assert!(colours.len() > 20);
    let without: Vec<&str> = colours
        .iter()
        .filter(|d| !d.value.starts_with("light-dark("))
        .map(|d| d.prop.as_str())
        .collect();
    assert!(
        without.is_empty(),
        "colour tokens without light-dark(): {without:?}"
    );
}

// The checker itself must be able to fail: each line below breaks one rule.
#[test]
fn the_checker_finds_each_kind_of_problem() {
    let bad = r#"
        .a { color: #fff; }
        .b { background: rgba(0, 0, 0, 0.5); }
        .c { border: 1px solid red; }
        .d { font-size: 14px; }
        .e { --agui-x: 3px; }
        .f { margin-left: var(--agui-space-1); }
        .g { text-align: right; }
        .h { box-shadow: 0 0 0 var(--agui-space-1) light-dark(white, black); }
    "#;
    let found = problems("bad.css", bad);
    for needle in [
        "`#fff`",
        "`rgba(…)`",
        "`1px`",
        "`red`",
        "`14px`",
        "font sizes",
        "tokens are declared",
        "margin-left",
        "text-align",
        "`light-dark(…)`",
    ] {
        assert!(
            found.iter().any(|p| p.contains(needle)),
            "{needle} not reported in {found:#?}"
        );
    }
    let good = r#"
        /* #fff in a comment, 12px too */
        .a:hover, .b::before { color: var(--agui-color-text); margin-inline-start: auto; }
        .c { border: var(--agui-border-width) solid transparent; width: 50%; }
        .d { mask-image: linear-gradient(to bottom, currentColor 75%, transparent); }
        @media (max-width: 600px) { .e { font-size: var(--agui-font-size-sm); } }
    "#;
    assert_eq!(problems("good.css", good), Vec::<String>::new());
}

#[test]
fn the_loaders_launcher_uses_the_chats_token_values() {
    // The loader (src/loader/agui-chat.js) draws the launcher before the chat loads, with its
    // own few lines of CSS: each token it declares must have the value style/tokens.css gives
    // it, or the launcher would change look when the chat replaces it.
    let loader = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/loader/agui-chat.js"),
    )
    .expect("the loader");
    let css = loader
        .split("const CSS = `")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .expect("the loader's CSS literal");
    let tokens = std::fs::read_to_string(style_dir().join("tokens.css")).expect("tokens.css");
    let reference: std::collections::BTreeMap<String, String> = parse(&tokens)
        .0
        .into_iter()
        .filter(|d| d.prop.starts_with("--agui-"))
        .map(|d| (d.prop, d.value))
        .collect();
    let declared: Vec<Decl> = parse(css)
        .0
        .into_iter()
        .filter(|d| d.prop.starts_with("--agui-"))
        .collect();
    assert!(
        declared.len() >= 10,
        "the walk found {} tokens",
        declared.len()
    );
    for d in &declared {
        assert_eq!(
            reference.get(&d.prop),
            Some(&d.value),
            "{} in the loader differs from tokens.css",
            d.prop
        );
    }
}

/// `light-dark(#light, #dark)` of a colour token, as two (r, g, b) triples.
fn light_dark(
    reference: &std::collections::BTreeMap<String, String>,
    token: &str,
) -> [[f64; 3]; 2] {
    let value = reference
        .get(token)
        .unwrap_or_else(|| panic!("{token} is not in tokens.css"));
    let inner = value
        .strip_prefix("light-dark(")
        .and_then(|v| v.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{token}: {value} is not light-dark(#…, #…)"));
    let hex = |s: &str| -> [f64; 3] {
        let s = s.trim().strip_prefix('#').filter(|h| h.len() == 6);
        let s = s.unwrap_or_else(|| panic!("{token}: {value} is not two #rrggbb colours"));
        [0, 2, 4].map(|i| f64::from(u8::from_str_radix(&s[i..i + 2], 16).expect("hex")) / 255.0)
    };
    let (light, dark) = inner.split_once(',').expect("two colours");
    [hex(light), hex(dark)]
}

/// WCAG 2 contrast ratio of two sRGB colours.
fn contrast(a: [f64; 3], b: [f64; 3]) -> f64 {
    let lum = |c: [f64; 3]| {
        let f = |v: f64| {
            if v <= 0.039_28 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2])
    };
    let (x, y) = (lum(a), lum(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[test]
fn text_colours_meet_wcag_aa_on_the_backgrounds_they_are_used_on() {
    // Every (text, background) pair the stylesheets put together, in both themes: 4.5:1 (WCAG
    // AA for text under 18pt). The axe-core audit of the e2e suite checks the rendered pages;
    // this catches a token change before a browser is involved.
    const SURFACES: &[&str] = &[
        "--agui-color-bg",
        "--agui-color-surface",
        "--agui-color-surface-muted",
    ];
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for text in [
        "--agui-color-text",
        "--agui-color-text-muted",
        "--agui-color-text-subtle",
        "--agui-color-accent",
        "--agui-color-success",
        "--agui-color-warning",
        "--agui-color-danger",
        "--agui-color-info",
    ] {
        pairs.extend(SURFACES.iter().map(|s| (text, *s)));
    }
    pairs.extend([
        ("--agui-color-accent", "--agui-color-accent-soft"),
        ("--agui-color-success", "--agui-color-success-soft"),
        ("--agui-color-warning", "--agui-color-warning-soft"),
        ("--agui-color-danger", "--agui-color-danger-soft"),
        ("--agui-color-accent-contrast", "--agui-color-accent"),
        ("--agui-color-user-text", "--agui-color-user-bubble"),
        ("--agui-color-text", "--agui-color-code-bg"),
        ("--agui-color-code-block-text", "--agui-color-code-block-bg"),
        (
            "--agui-color-code-block-muted",
            "--agui-color-code-block-bar",
        ),
        ("--agui-color-venue-star", "--agui-color-surface"),
        ("--agui-color-json-key", "--agui-color-surface"),
        ("--agui-color-json-string", "--agui-color-surface"),
        ("--agui-color-json-number", "--agui-color-surface"),
        ("--agui-color-json-bool", "--agui-color-surface"),
    ]);
    let tokens = std::fs::read_to_string(style_dir().join(TOKENS)).expect("tokens.css");
    let reference: std::collections::BTreeMap<String, String> = parse(&tokens)
        .0
        .into_iter()
        .map(|d| (d.prop, d.value))
        .collect();
    let mut low = Vec::new();
    for (text, background) in pairs {
        let (t, b) = (
            light_dark(&reference, text),
            light_dark(&reference, background),
        );
        for (theme, i) in [("light", 0), ("dark", 1)] {
            let ratio = contrast(t[i], b[i]);
            if ratio < 4.5 {
                low.push(format!("{theme}: {text} on {background} is {ratio:.2}:1"));
            }
        }
    }
    assert!(low.is_empty(), "under 4.5:1:\n{}", low.join("\n"));
    // The measure itself: black on white is 21:1, a colour on itself 1:1.
    assert!((contrast([0.0; 3], [1.0; 3]) - 21.0).abs() < 1e-9);
    assert!((contrast([0.5; 3], [0.5; 3]) - 1.0).abs() < 1e-9);
}
