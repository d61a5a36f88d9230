//! Minifies the stylesheets (`style/*.css`, listed in cascade order in `build/sheets.rs`) for
//! `src/ui/styles.rs`: the comments and indentation cost ~4 KB gzip in every bundle. A bundle
//! gets the sheets of what it has: the demo's cards with the `demo` feature, the inspector's
//! with `inspector`.
//!
//! Writes to `OUT_DIR`: `stylesheet.css`, the whole sheet in cascade order; and the same text
//! cut in two for the lean widget's split build — `stylesheet-main.css`, the sheets of what the
//! main module renders (`Half::Main`), and `stylesheet-modules.css`, those of what only the
//! parts fetched on first use render (`Half::Modules`). Each half is a list of runs (sheets in
//! a row of that half) joined by an empty comment `/**/` (never in minified CSS), so that
//! putting them back alternately (main, modules, main, …: `css_min::interleave`) gives
//! `stylesheet.css` again, in its order.

#[path = "build/css_min.rs"]
mod css_min;
#[path = "build/sheets.rs"]
mod sheets;

use sheets::{Half, FEATURE_SHEETS, SHEETS};

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let has = |feature: &str| {
        let var = format!("CARGO_FEATURE_{}", feature.to_uppercase().replace('-', "_"));
        std::env::var_os(var).is_some()
    };
    let mut whole = String::new();
    // The runs of each half: main's (index 0) and the modules' (1). The first run is main's,
    // even when empty, as `interleave` expects.
    let mut runs: [Vec<String>; 2] = [vec![String::new()], Vec::new()];
    let mut last = Half::Main;
    for &(name, half) in SHEETS {
        let src = format!("style/{name}.css");
        println!("cargo:rerun-if-changed={src}");
        if FEATURE_SHEETS.iter().any(|&(s, f)| s == name && !has(f)) {
            continue;
        }
        let css = std::fs::read_to_string(&src).unwrap_or_else(|e| panic!("{src}: {e}"));
        let css = css_min::minify(&css);
        whole.push_str(&css);
        let i = match half {
            Half::Main => 0,
            Half::Modules => 1,
        };
        if half != last || runs[i].is_empty() {
            runs[i].push(String::new());
            last = half;
        }
        runs[i].last_mut().expect("a run").push_str(&css);
    }
    let write = |file: &str, text: &str| {
        let dst = format!("{out}/{file}");
        std::fs::write(&dst, text).unwrap_or_else(|e| panic!("{dst}: {e}"));
    };
    write("stylesheet.css", &whole);
    write("stylesheet-main.css", &runs[0].join(css_min::JOIN));
    write("stylesheet-modules.css", &runs[1].join(css_min::JOIN));
    println!("cargo:rerun-if-changed=build/sheets.rs");
    println!("cargo:rerun-if-changed=build/css_min.rs");
}
