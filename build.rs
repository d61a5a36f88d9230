//! Minifies the stylesheets (`style/*.css`) for `src/ui/styles.rs`: the comments and
//! indentation cost ~4 KB gzip in every bundle. A bundle gets the sheets of what it has: the
//! demo's cards with the `demo` feature, the inspector's with `inspector`.
//!
//! Writes to `OUT_DIR`: `stylesheet.css`, the whole sheet in cascade order; and the same text
//! cut in two for the lean widget's split build — `stylesheet-main.css`, what the main module
//! renders, and `stylesheet-modules.css`, what only the parts fetched on first use render
//! (rules between a `/* @modules */` line and the next `/* @main */` line of a sheet). Each is
//! a list of runs joined by an empty comment `/**/` (never in minified CSS), so that putting
//! them back alternately (main, modules, main, …) gives `stylesheet.css` again, in its order.

#[path = "build/css_min.rs"]
mod css_min;

/// Starts a run of rules only the modules render; [`MAIN`] ends it.
const MODULES: &str = "/* @modules */";
const MAIN: &str = "/* @main */";

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let has = |feature: &str| std::env::var_os(format!("CARGO_FEATURE_{feature}")).is_some();
    // In cascade order.
    let sheets = [
        ("tokens", true),
        ("app", true),
        ("tools", true),
        ("demo", has("DEMO")),
        ("inspector", has("INSPECTOR")),
        ("widget", true),
    ];
    // Runs alternate: main, modules, main, … (a half may be empty).
    let mut runs = vec![String::new()];
    for (name, wanted) in sheets {
        let src = format!("style/{name}.css");
        println!("cargo:rerun-if-changed={src}");
        if !wanted {
            continue;
        }
        let css = std::fs::read_to_string(&src).unwrap_or_else(|e| panic!("{src}: {e}"));
        // A sheet starts and ends in the main half; the markers alternate from `MODULES`.
        let mut rest = css.as_str();
        let mut modules = false;
        loop {
            let (marker, other) = if modules {
                (MAIN, MODULES)
            } else {
                (MODULES, MAIN)
            };
            let next = rest.find(marker);
            assert!(
                rest.find(other).is_none_or(|o| next.is_some_and(|n| n < o)),
                "{src}: {other} where {marker} or the end was expected"
            );
            let run = css_min::minify(&rest[..next.unwrap_or(rest.len())]);
            assert!(
                run.matches('{').count() == run.matches('}').count(),
                "{src}: a {marker} inside a block (the markers go between top-level rules)"
            );
            // Runs alternate: main (even), modules (odd).
            let last_is_modules = runs.len() % 2 == 0;
            if modules == last_is_modules {
                runs.last_mut().expect("one run").push_str(&run);
            } else {
                runs.push(run);
            }
            let Some(n) = next else { break };
            rest = &rest[n + marker.len()..];
            modules = !modules;
        }
        assert!(!modules, "{src} ends after {MODULES} without {MAIN}");
    }
    let half = |first: usize| {
        runs.iter()
            .skip(first)
            .step_by(2)
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(css_min::JOIN)
    };
    let write = |file: &str, text: &str| {
        let dst = format!("{out}/{file}");
        std::fs::write(&dst, text).unwrap_or_else(|e| panic!("{dst}: {e}"));
    };
    write("stylesheet.css", &runs.concat());
    write("stylesheet-main.css", &half(0));
    write("stylesheet-modules.css", &half(1));
    println!("cargo:rerun-if-changed=build/css_min.rs");
}
