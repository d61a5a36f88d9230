//! Syntax highlighting for fenced code blocks in agent output: pure, dependency-free and
//! incremental, so a block can be coloured while it streams.
//!
//! [`language`] maps a fence's info word (`rust`, `py`, `tsx`, `c++`…) to a [`Lang`]; an unknown
//! word gives `None` and the block stays plain text. A [`Highlighter`] is fed the block's text
//! in deltas of any size ([`Highlighter::push`], split anywhere, even inside a line) and cuts it
//! into [`Line`]s: the line's text and [`Span`]s that cover it exactly, each with an optional
//! [`Class`] (a CSS class name through [`Class::css`]; plain text has none). [`highlight`] does
//! a finished block at once and gives the same lines as any sequence of pushes.
//!
//! **Safety.** This module only produces byte ranges into the text it was given (always at
//! char boundaries). The caller renders each span as a *text node* inside an element with the
//! span's class — never as markup — so nothing an agent writes in a code block can become HTML.
//!
//! **Incremental.** State that crosses lines (block comments, triple-quoted and template
//! strings, Rust raw strings, an HTML tag split over lines, CSS brace depth) is a small `Copy`
//! value carried from one line to the next. A line is tokenised once, when its `\n` arrives,
//! and is never touched again ([`Highlighter::lines`] only grows); only the still-open last
//! line is tokenised again on each look ([`Highlighter::open_spans`]), from the carried state
//! (at most [`MAX_LINE_BYTES`] of it: look once per frame, not once per delta).
//!
//! **Budgets** (the agent controls the text): a line is tokenised only up to
//! [`MAX_LINE_BYTES`], the rest of it is one plain span; after [`MAX_LINES`] lines or
//! [`MAX_BLOCK_BYTES`] bytes the remaining lines are plain. Tokenising is one forward pass over
//! the line (no backtracking, no regexes); word lookups bisect short sorted lists.
//!
//! One table-driven scanner serves every language (a `Syntax` per language: word lists,
//! comment markers, quotes, operator bytes and feature flags); HTML/XML, CSS, YAML, TOML, shell
//! and diff add a few small special cases. A word list is one sorted, space-separated `&str`
//! (smaller in wasm than a slice of `&str`s).
//!
//! The files: `tables.rs` (the languages and their tables), `line.rs` (the output: lines,
//! spans, classes), `scan.rs` (the scanner, one method per mode), `code.rs` (its code mode, one
//! method per token family), `highlighter.rs` (the streaming [`Highlighter`] and its budgets).

mod code;
mod highlighter;
mod line;
mod scan;
mod tables;

pub use highlighter::{highlight, Highlighter, MAX_BLOCK_BYTES, MAX_LINES};
pub use line::{parts, Class, Line, Span};
pub use scan::MAX_LINE_BYTES;
pub use tables::{language, Lang};
