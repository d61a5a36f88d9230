//! What the screen shows as data (`src/view/`, `src/markdown/`, `src/i18n/`, `src/embed/`,
//! `src/base64.rs`): view models, Markdown, highlighting, the catalogs, widget options.
//!
//! One test binary per layer of `src/` (docs/dev/testing.md): `cargo test --test view`, or one
//! file's tests with `cargo test --test view FILE::`.

#[path = "../native_support/mod.rs"]
mod native_support;

mod base64;
mod commands;
mod embed;
mod highlight;
mod i18n;
mod markdown;
mod math;
mod media;
mod prompts;
mod sources;
mod subagents;
mod table_export;
mod times;
mod view;
mod voice;
