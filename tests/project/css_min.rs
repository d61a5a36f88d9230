//! The stylesheet minifier `build.rs` runs (`build/css_min.rs`): what it removes, what it
//! must keep, and that on the real stylesheets it only drops comments, whitespace and `;`
//! before `}`; the list of the sheets (`build/sheets.rs`) and the halves `build.rs` cuts for
//! the lean widget.

#[path = "../../build/css_min.rs"]
mod minifier;
#[path = "../../build/sheets.rs"]
mod sheets;

use minifier::minify;

#[test]
fn drops_comments_and_the_spaces_around_braces_semicolons_and_commas() {
    let css = "/* head */\n.a,\n.b  {\n  color: red; /* why */\n  margin: 0 auto;\n}\n";
    assert_eq!(minify(css), ".a,.b{color: red;margin: 0 auto}");
}

#[test]
fn keeps_what_changes_meaning() {
    // A descendant combinator before a pseudo-class, spaces inside values and calc().
    assert_eq!(
        minify(".x :focus-visible { width: calc(100% - 2px); }"),
        ".x :focus-visible{width: calc(100% - 2px)}"
    );
    assert_eq!(minify(".a > .b ~ .c {}"), ".a > .b ~ .c{}");
    assert_eq!(
        minify("@media (max-width: 40em) and (hover: none) { .a { b: c } }"),
        "@media (max-width: 40em) and (hover: none){.a{b: c}}"
    );
    // Strings are copied as they are, comment markers and escaped quotes included.
    assert_eq!(
        minify(".q::before { content: \"a ;  /* b */ , \\\" }\"; }"),
        ".q::before{content: \"a ;  /* b */ , \\\" }\"}"
    );
    assert_eq!(minify("a{content:'x  y'}"), "a{content:'x  y'}");
    // An unterminated comment or string ends the text without a panic.
    assert_eq!(minify("a{b:c} /* open"), "a{b:c}");
    assert_eq!(minify("a{content:\"open"), "a{content:\"open");
}

/// Comments out, then every whitespace character out, then `;}` as `}`: what the minifier
/// may change, and nothing else (valid for stylesheets whose strings hold no whitespace,
/// comment markers or `;}`, as ours).
fn skeleton(css: &str) -> String {
    let mut s = String::new();
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        s.push_str(&rest[..start]);
        rest = rest[start + 2..]
            .find("*/")
            .map_or("", |end| &rest[start + 2 + end + 2..]);
    }
    s.push_str(rest);
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    s.replace(";}", "}")
}

#[test]
fn the_real_stylesheets_keep_every_rule_and_get_smaller_and_minifying_twice_changes_nothing() {
    for &(name, _) in sheets::SHEETS {
        let css = std::fs::read_to_string(format!("style/{name}.css")).expect("stylesheet");
        let min = minify(&css);
        assert_eq!(skeleton(&min), skeleton(&css), "{name}.css lost something");
        assert!(
            min.len() * 100 < css.len() * 90,
            "{name}.css: {} → {} bytes",
            css.len(),
            min.len()
        );
        assert_eq!(minify(&min), min, "{name}.css: not a fixed point");
        assert_eq!(
            min.matches('{').count(),
            css.matches('{').count() - skeleton_comment_braces(&css),
            "{name}.css: the rule count changed"
        );
    }
}

#[test]
fn every_stylesheet_is_listed_once_and_every_listed_one_exists() {
    // A sheet missing from build/sheets.rs would be in no bundle.
    let mut files: Vec<String> = std::fs::read_dir("style")
        .expect("style/")
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".css").map(str::to_owned)
        })
        .collect();
    files.sort();
    let mut listed: Vec<String> = sheets::SHEETS.iter().map(|&(n, _)| n.to_owned()).collect();
    listed.sort();
    assert_eq!(listed, files, "build/sheets.rs against style/*.css");
    for &(sheet, _) in sheets::FEATURE_SHEETS {
        assert!(listed.iter().any(|n| n == sheet), "{sheet}");
    }
}

/// Braces inside comments (the comparison above counts the rules outside them).
fn skeleton_comment_braces(css: &str) -> usize {
    let mut n = 0;
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        let body = &rest[start + 2..];
        let end = body.find("*/").unwrap_or(body.len());
        n += body[..end].matches('{').count();
        rest = &body[(end + 2).min(body.len())..];
    }
    n
}

/// `build.rs`'s halves of the stylesheet (for the lean widget's split build).
mod halves {
    use super::minifier::{interleave, minify, JOIN};
    use super::sheets::{Half, FEATURE_SHEETS, SHEETS};

    const WHOLE: &str = include_str!(concat!(env!("OUT_DIR"), "/stylesheet.css"));
    const MAIN: &str = include_str!(concat!(env!("OUT_DIR"), "/stylesheet-main.css"));
    const MODULES: &str = include_str!(concat!(env!("OUT_DIR"), "/stylesheet-modules.css"));

    #[test]
    fn put_back_they_are_the_whole_sheet_in_its_order() {
        assert!(
            !WHOLE.contains(JOIN),
            "the whole sheet has no empty comment"
        );
        assert_eq!(interleave(MAIN, MODULES), WHOLE);
        // The split is real, and along the lines the sheets draw.
        assert!(
            MODULES.len() > WHOLE.len() / 3,
            "{} of {}",
            MODULES.len(),
            WHOLE.len()
        );
        assert!(MAIN.contains(".agui-composer{") && MAIN.contains(".agui-launcher{"));
        assert!(MODULES.contains(".agui-markdown") && MODULES.contains(".agui-tool-card{"));
        assert!(!MAIN.contains(".agui-markdown") && !MODULES.contains(".agui-composer{"));
        // Each run is whole rules: either half alone is a stylesheet.
        for half in [MAIN, MODULES] {
            for run in half.split(JOIN) {
                assert_eq!(run.matches('{').count(), run.matches('}').count(), "{run}");
            }
        }
    }

    #[test]
    fn each_sheet_is_wholly_in_its_half() {
        for &(name, half) in SHEETS {
            let css = std::fs::read_to_string(format!("style/{name}.css")).expect("stylesheet");
            let min = minify(&css);
            if !WHOLE.contains(&min) {
                // Only a feature's sheet may be left out (this build has not that feature).
                assert!(
                    FEATURE_SHEETS.iter().any(|&(s, _)| s == name),
                    "{name}.css is missing"
                );
                continue;
            }
            let (ours, other) = match half {
                Half::Main => (MAIN, MODULES),
                Half::Modules => (MODULES, MAIN),
            };
            assert!(ours.contains(&min), "{name}.css is not whole in its half");
            assert!(!other.contains(&min), "{name}.css is in the other half");
        }
    }

    #[test]
    fn interleaving_alternates_from_the_main_half() {
        assert_eq!(interleave("a/**/c/**/e", "b/**/d"), "abcde");
        assert_eq!(interleave("a", ""), "a");
        // A missing run of the modules is empty, an extra one dropped: never a panic.
        assert_eq!(interleave("a/**/c", ""), "ac");
        assert_eq!(interleave("a", "b/**/x"), "ab");
    }
}
