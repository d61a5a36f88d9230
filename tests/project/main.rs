//! The repository's own rules: the layers the imports keep, what the option table generates, the
//! stylesheets (`build/`, `style/`), one version everywhere.
//!
//! One test binary per layer of `src/` (docs/dev/testing.md): `cargo test --test project`, or one
//! file's tests with `cargo test --test project FILE::`.

mod css_min;
mod css_tokens;
mod layering;
mod manifest;
mod version;
