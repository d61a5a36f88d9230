//! Formulas in answers: the TeX of an [`Inline::Math`](crate::markdown::Inline::Math) as
//! MathML Core, built element by element with `createElementNS` from the closed tree of
//! [`tex_to_mathml`] — tags and attributes from its allow-list, text as text nodes, never a
//! string of markup. The browser lays it out with the system's math font (`font-family:
//! math`); nothing is downloaded. A formula that does not parse, or is over a budget, shows
//! its source with a quiet marker.
//!
//! The lean widget fetches this module (pulldown-latex and the tree builder) with the first
//! formula of a page.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::markdown::{tex_to_mathml, MathElement, MathNode};
use crate::ui::lazy::split;
use crate::ui::tr_ctx;

const MATHML: &str = "http://www.w3.org/1998/Math/MathML";

split!(math:
    /// A formula (the lean widget fetches the math module with the first one).
    pub fn formula(tex: String, display: bool) -> AnyView {
        match tex_to_mathml(&tex, display) {
            Ok(tree) => mathml(tree, display),
            Err(_) => invalid(tex, display),
        }
    }
);

/// The `<math>` element, in a span that holds it (and lets a wide display formula scroll).
fn mathml(tree: MathElement, display: bool) -> AnyView {
    let holder = NodeRef::<leptos::html::Span>::new();
    holder.on_load(move |span| {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        if let Some(math) = build(&document, &tree) {
            let _ = span.append_child(&math);
        }
    });
    view! {
        <span
            class="agui-math"
            class:agui-math--display=display
            data-testid="math"
            node_ref=holder
        ></span>
    }
    .into_any()
}

/// One element of the tree and its children (depth bounded by the tree's budgets).
fn build(document: &web_sys::Document, e: &MathElement) -> Option<web_sys::Element> {
    let el = document
        .create_element_ns(Some(MATHML), e.tag.name())
        .ok()?;
    for (attr, value) in &e.attrs {
        let _ = el.set_attribute(attr.name(), value);
    }
    for child in &e.children {
        let node: web_sys::Node = match child {
            MathNode::Text(text) => document.create_text_node(text).unchecked_into(),
            MathNode::Element(child) => build(document, child)?.unchecked_into(),
        };
        let _ = el.append_child(&node);
    }
    Some(el)
}

/// A formula that could not be shown as math: its source as written, and a marker saying so.
fn invalid(tex: String, display: bool) -> AnyView {
    let source = if display {
        format!("$${tex}$$")
    } else {
        format!("\\({tex}\\)")
    };
    let label = tr_ctx().math_invalid;
    view! {
        <span class="agui-math-invalid" data-testid="math-invalid" title=label>
            <code class="agui-md__code">{source}</code>
            <span class="agui-visually-hidden">{label}</span>
        </span>
    }
    .into_any()
}
