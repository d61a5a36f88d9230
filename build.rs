//! Minifies the stylesheets (`style/*.css`) into `OUT_DIR/stylesheet.css` for `src/ui/mod.rs`'s
//! `STYLESHEET`: the comments and indentation cost ~4 KB gzip in every bundle. A bundle gets
//! the sheets of what it has: the demo's cards with the `demo` feature, the inspector's with
//! `inspector`.

#[path = "build/css_min.rs"]
mod css_min;

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
    let mut all = String::new();
    for (name, wanted) in sheets {
        let src = format!("style/{name}.css");
        println!("cargo:rerun-if-changed={src}");
        if wanted {
            let css = std::fs::read_to_string(&src).unwrap_or_else(|e| panic!("{src}: {e}"));
            all.push_str(&css_min::minify(&css));
        }
    }
    let dst = format!("{out}/stylesheet.css");
    std::fs::write(&dst, all).unwrap_or_else(|e| panic!("{dst}: {e}"));
    println!("cargo:rerun-if-changed=build/css_min.rs");
}
