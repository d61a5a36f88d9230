//! Minifies the stylesheets (`style/*.css`) into `OUT_DIR` for `src/ui/mod.rs`'s
//! `STYLESHEET`: the comments and indentation cost ~4 KB gzip in every bundle.

#[path = "build/css_min.rs"]
mod css_min;

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    for name in ["tokens", "app", "tools", "inspector", "widget"] {
        let src = format!("style/{name}.css");
        println!("cargo:rerun-if-changed={src}");
        let css = std::fs::read_to_string(&src).unwrap_or_else(|e| panic!("{src}: {e}"));
        let dst = format!("{out}/{name}.css");
        std::fs::write(&dst, css_min::minify(&css)).unwrap_or_else(|e| panic!("{dst}: {e}"));
    }
    println!("cargo:rerun-if-changed=build/css_min.rs");
}
