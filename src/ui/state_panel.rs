//! The shared-state panel: the agent state (`STATE_SNAPSHOT` / `STATE_DELTA`, RFC 6902) as a
//! collapsible JSON tree.
//!
//! Fine-grained by construction: every node subscribes only to its own
//! [`AgentStore::path_signal`] (its RFC 6901 pointer), reads just what it shows through
//! [`AgentStore::with_state`] (the key list of an object, the length of an array, the value of
//! a scalar — never a cloned subtree), and renders its children with a keyed `<For>`, so a
//! delta to `/b/c` re-renders `/b/c` (and re-checks the key lists of `/b` and the root) while
//! every other node keeps its DOM. A node changed by the last delta carries
//! `data-changed="true"` and a highlight that fades. A snapshot (`state_version`) rebuilds the
//! tree from the root.

use leptos::prelude::*;
use serde_json::Value;

use crate::i18n::fill;
use crate::store::{AgentStore, Notice};
use crate::ui::lazy::{lazy, lazy_or, split};
use crate::ui::tr;
use crate::view::format::truncate_chars;
use crate::view::state::{escape_pointer_token, is_empty_state};

/// Strings longer than this are cut, with a button to show the rest.
const STRING_PREVIEW: usize = 120;
/// Children rendered per container before a "Show more" button.
const CHILD_PAGE: usize = 100;
/// Containers this deep or deeper start collapsed.
const OPEN_DEPTH: usize = 3;
/// Containers (other than the root) with more children than this start collapsed.
const OPEN_MAX_CHILDREN: usize = 50;

#[component]
pub fn StatePanel() -> impl IntoView {
    let store = AgentStore::expect();
    let root = store.path_signal("");
    let empty = Memo::new(move |_| {
        store.state_version.track();
        root.track();
        store.with_state("", is_empty_state)
    });
    // A delta that could not be applied (after a run: its notice is in the `run` module).
    let patch_failed = Memo::new(move |_| {
        store
            .warnings
            .with(|w| matches!(w.last(), Some(Notice::Protocol(w)) if w.is_state_patch()))
    });
    // The notice hides when dismissed and comes back with the next failure.
    let dismissed_at = RwSignal::new(0usize);
    let notice = move || {
        patch_failed
            .get()
            .then(|| lazy_or(move || patch_notice(store, dismissed_at), || ()))
    };
    let tree = move || {
        if empty.get() {
            return view! {
                <p class="agui-state-panel__empty" data-testid="state-empty">
                    {move || tr(store).state_empty}
                </p>
            }
            .into_any();
        }
        // A snapshot replaces the state wholesale: rebuild from the root.
        store.state_version.track();
        lazy(store, move || state_tree(store)).into_any()
    };
    view! {
        <section class="agui-state-panel" data-testid="state-panel" aria-label=move || tr(store).state_label>
            <header class="agui-state-panel__header">
                <h3 class="agui-state-panel__title">{move || tr(store).state_label}</h3>
            </header>
            {notice}
            {tree}
        </section>
    }
}

split!(run:
    /// Why the last delta could not be applied, until dismissed.
    fn patch_notice(store: AgentStore, dismissed_at: RwSignal<usize>) -> AnyView {
        let failure = Memo::new(move |_| {
            // The detail is the protocol's own diagnostic (JSON pointer): technical, English.
            store.warnings.with(|w| match w.last() {
                Some(Notice::Protocol(w)) if w.is_state_patch() => {
                    Some(truncate_chars(&w.to_string(), 240))
                }
                _ => None,
            })
        });
        let warning_count = Memo::new(move |_| store.warnings.with(Vec::len));
        (move || {
            failure
                .get()
                .filter(|_| warning_count.get() > dismissed_at.get())
                .map(|text| {
                    view! {
                        <div class="agui-state-panel__notice" role="status" data-testid="state-warning">
                            <p class="agui-state-panel__notice-title">
                                {move || tr(store).state_patch_failed}
                            </p>
                            <p class="agui-state-panel__notice-detail">{text}</p>
                            <button
                                type="button"
                                class="agui-state-panel__notice-close"
                                aria-label=move || tr(store).dismiss
                                on:click=move |_| dismissed_at.set(warning_count.get_untracked())
                            >
                                "×"
                            </button>
                        </div>
                    }
                })
        })
        .into_any()
    }
);

split!(state:
    /// The tree of a non-empty state (the lean widget fetches it with the first state).
    fn state_tree(store: AgentStore) -> AnyView {
        view! {
            // Nested lists with disclosure buttons, not an ARIA tree: a `role="tree"` promises
            // arrow-key navigation, and Tab through the buttons is what this offers.
            <ul class="agui-state-tree">
                {state_node(store, String::new(), "state".to_owned(), 0)}
            </ul>
        }
        .into_any()
    }
);

/// What a node shows: for containers the keys or the length, for scalars the scalar.
#[derive(Debug, Clone, PartialEq)]
enum Shape {
    Missing,
    Null,
    Bool(bool),
    Number(String),
    Str { preview: String, chars: usize },
    Object(Vec<String>),
    Array(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Scalar,
    Object,
    Array,
}

impl Shape {
    fn of(v: Option<&Value>) -> Shape {
        match v {
            None => Shape::Missing,
            Some(Value::Null) => Shape::Null,
            Some(Value::Bool(b)) => Shape::Bool(*b),
            Some(Value::Number(n)) => Shape::Number(n.to_string()),
            Some(Value::String(s)) => Shape::Str {
                preview: truncate_chars(s, STRING_PREVIEW),
                chars: s.chars().count(),
            },
            Some(Value::Object(o)) => Shape::Object(o.keys().cloned().collect()),
            Some(Value::Array(a)) => Shape::Array(a.len()),
        }
    }

    fn kind(&self) -> Kind {
        match self {
            Shape::Object(_) => Kind::Object,
            Shape::Array(_) => Kind::Array,
            _ => Kind::Scalar,
        }
    }

    fn len(&self) -> usize {
        match self {
            Shape::Object(k) => k.len(),
            Shape::Array(n) => *n,
            _ => 0,
        }
    }

    fn type_name(&self) -> &'static str {
        match self {
            Shape::Missing => "missing",
            Shape::Null => "null",
            Shape::Bool(_) => "bool",
            Shape::Number(_) => "number",
            Shape::Str { .. } => "string",
            Shape::Object(_) => "object",
            Shape::Array(_) => "array",
        }
    }
}

/// One node of the tree and, when open, its children.
fn state_node(store: AgentStore, pointer: String, label: String, depth: usize) -> AnyView {
    let sig = store.path_signal(&pointer);
    let shape = {
        let pointer = pointer.clone();
        Memo::new(move |_| {
            sig.track();
            store.with_state(&pointer, Shape::of)
        })
    };
    let kind = Memo::new(move |_| shape.with(Shape::kind));
    let children = shape.with_untracked(Shape::len);
    let open = RwSignal::new(depth == 0 || (depth < OPEN_DEPTH && children <= OPEN_MAX_CHILDREN));
    let is_container = move || kind.get() != Kind::Scalar;
    // Two identical animations, alternated per version, so a node changed by two deltas in a
    // row flashes twice.
    let row_class = move || {
        let (version, changed) = sig.get();
        match (changed, version % 2) {
            (false, _) => "agui-state-node__row",
            (true, 0) => "agui-state-node__row agui-state-node__row--flash-a",
            (true, _) => "agui-state-node__row agui-state-node__row--flash-b",
        }
    };
    let index_label = label.parse::<usize>().is_ok();
    // A disclosure button is named by what it opens; `aria-expanded` says the state.
    let toggle_name = label.clone();
    let value = {
        let pointer = pointer.clone();
        move || match kind.get() {
            Kind::Scalar => scalar_value(store, pointer.clone(), shape).into_any(),
            Kind::Object | Kind::Array => view! {
                <span class="agui-state-node__summary">{move || shape.with(summary)}</span>
            }
            .into_any(),
        }
    };
    let child_pointer = pointer.clone();

    view! {
        <li
            class="agui-state-node"
            data-testid="state-path"
            data-path=pointer
            data-changed=move || sig.get().1.to_string()
            data-kind=move || shape.with(Shape::type_name)
            data-expanded=move || is_container().then(|| open.get().to_string())
        >
            <div class=row_class>
                <Show
                    when=is_container
                    fallback=|| view! { <span class="agui-state-node__spacer"></span> }
                >
                    <button
                        type="button"
                        class="agui-state-node__toggle"
                        aria-label=toggle_name.clone()
                        aria-expanded=move || open.get().to_string()
                        on:click=move |_| open.update(|o| *o = !*o)
                    ></button>
                </Show>
                <span
                    class="agui-state-node__key"
                    class:agui-state-node__key--root=depth == 0
                    class:agui-state-node__key--index=index_label
                >
                    {label}
                </span>
                <span class="agui-state-node__colon" aria-hidden="true">":"</span>
                {value}
            </div>
            <Show when=move || is_container() && open.get()>
                {children_list(store, child_pointer.clone(), shape, kind, depth)}
            </Show>
        </li>
    }
    .into_any()
}

/// "3 keys" / "4 items".
fn summary(shape: &Shape) -> String {
    match shape {
        Shape::Object(k) if k.len() == 1 => "{1 key}".to_owned(),
        Shape::Object(k) => format!("{{{} keys}}", k.len()),
        Shape::Array(1) => "[1 item]".to_owned(),
        Shape::Array(n) => format!("[{n} items]"),
        _ => String::new(),
    }
}

/// A scalar, with long strings cut and a button to show them whole.
fn scalar_value(store: AgentStore, pointer: String, shape: Memo<Shape>) -> impl IntoView {
    let full = RwSignal::new(false);
    let long = Memo::new(move |_| {
        shape.with(|s| matches!(s, Shape::Str { chars, .. } if *chars > STRING_PREVIEW))
    });
    let text = move || {
        shape.with(|s| match s {
            Shape::Missing => "—".to_owned(),
            Shape::Null => "null".to_owned(),
            Shape::Bool(b) => b.to_string(),
            Shape::Number(n) => n.clone(),
            Shape::Str { preview, chars } if *chars > STRING_PREVIEW && full.get() => {
                // Read the whole string only when asked; `shape` already tracks the path.
                let whole =
                    store.with_state(&pointer, |v| v.and_then(Value::as_str).map(str::to_owned));
                format!("\"{}\"", whole.unwrap_or_else(|| preview.clone()))
            }
            Shape::Str { preview, .. } => format!("\"{preview}\""),
            Shape::Object(_) | Shape::Array(_) => String::new(),
        })
    };
    let class = move || {
        format!(
            "agui-state-node__value agui-state-node__value--{}",
            shape.with(Shape::type_name)
        )
    };
    view! {
        <span class=class>{text}</span>
        <Show when=move || long.get()>
            <button
                type="button"
                class="agui-state-node__more"
                on:click=move |_| full.update(|f| *f = !*f)
            >
                {move || {
                    if full.get() {
                        tr(store).state_less.to_owned()
                    } else {
                        shape.with(|s| match s {
                            Shape::Str { chars, .. } => fill(tr(store).state_chars, &[chars]),
                            _ => String::new(),
                        })
                    }
                }}
            </button>
        </Show>
    }
}

/// The children of an open container, keyed by key (objects) or index (arrays), a page at a
/// time.
fn children_list(
    store: AgentStore,
    pointer: String,
    shape: Memo<Shape>,
    kind: Memo<Kind>,
    depth: usize,
) -> impl IntoView {
    let limit = RwSignal::new(CHILD_PAGE);
    let hidden = move || shape.with(Shape::len).saturating_sub(limit.get());
    let list = move || {
        let pointer = pointer.clone();
        match kind.get() {
            Kind::Object => view! {
                <For
                    each=move || {
                        shape.with(|s| match s {
                            Shape::Object(keys) => keys.iter().take(limit.get()).cloned().collect(),
                            _ => Vec::new(),
                        })
                    }
                    key=|k: &String| k.clone()
                    children=move |k: String| {
                        let child = format!("{pointer}/{}", escape_pointer_token(&k));
                        state_node(store, child, k, depth + 1)
                    }
                />
            }
            .into_any(),
            Kind::Array => view! {
                <For
                    each=move || {
                        let n = shape.with(|s| match s {
                            Shape::Array(n) => *n,
                            _ => 0,
                        });
                        0..n.min(limit.get())
                    }
                    key=|i: &usize| *i
                    children=move |i: usize| {
                        state_node(store, format!("{pointer}/{i}"), i.to_string(), depth + 1)
                    }
                />
            }
            .into_any(),
            Kind::Scalar => ().into_any(),
        }
    };
    view! {
        <ul class="agui-state-node__children">
            {list}
        </ul>
        <Show when=move || { hidden() > 0 }>
            <button
                type="button"
                class="agui-state-node__page"
                on:click=move |_| limit.update(|l| *l += CHILD_PAGE)
            >
                {move || fill(tr(store).state_show_more, &[&hidden().min(CHILD_PAGE)])}
            </button>
        </Show>
    }
}
