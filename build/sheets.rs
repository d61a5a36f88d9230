//! The chat's stylesheets, `style/NAME.css`: one per component family, in cascade order (a
//! rule that overrides another comes after it), each in one half of the lean widget's split
//! build. Shared by `build.rs` and `tests/project/css_min.rs` (`#[path]`), so it is std only.
//!
//! The main module carries the sheets of what it renders alone; the modules' sheets come with
//! the first module fetched (`src/ui/styles.rs`), and `scripts/check-split-css.py` fails a
//! lean build where one of their rules could style something the main module renders
//! (docs/dev/lean-widget.md).

/// Which module of the lean widget carries a sheet (the other bundles are not split: they
/// carry every sheet).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    /// The main module, fetched when the chat opens: what it renders alone.
    Main,
    /// The first module fetched: what only the parts fetched on first use render.
    Modules,
}

/// Every stylesheet, in cascade order. `demo` and `inspector` are only in a bundle with that
/// cargo feature (the app's; never the lean widget).
pub const SHEETS: &[(&str, Half)] = &[
    ("tokens", Half::Main),
    ("base", Half::Main),
    ("controls", Half::Main),
    ("frame", Half::Main),
    ("transcript", Half::Main),
    ("markdown", Half::Modules),
    ("reasoning", Half::Modules),
    ("subagents", Half::Modules),
    ("mcp-apps", Half::Modules),
    ("a2ui", Half::Modules),
    ("activity", Half::Modules),
    ("status", Half::Main),
    ("warnings", Half::Modules),
    ("settings", Half::Modules),
    ("composer", Half::Main),
    ("attachments", Half::Modules),
    ("queue", Half::Modules),
    ("threads", Half::Main),
    ("thread-items", Half::Modules),
    ("footer", Half::Modules),
    ("editor", Half::Modules),
    ("narrow", Half::Main),
    ("cards", Half::Main),
    ("tools", Half::Modules),
    ("state-panel", Half::Main),
    ("state", Half::Modules),
    ("hitl", Half::Modules),
    ("composer-locked", Half::Main),
    ("demo", Half::Main),
    ("inspector", Half::Main),
    ("widget", Half::Main),
];

/// The sheets only a bundle with a cargo feature has: (sheet, feature).
pub const FEATURE_SHEETS: &[(&str, &str)] = &[("demo", "demo"), ("inspector", "inspector")];
