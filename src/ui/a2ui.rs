//! An A2UI surface the agent describes (`ACTIVITY_SNAPSHOT` with `activityType:
//! "a2ui-surface"`, issue 14): the pure model ([`crate::a2ui`]) gives a resolved [`Node`]
//! tree; this renders it with fixed elements and text nodes only — nothing the agent sends is
//! markup, images and media load only after a click, an unknown component is a visible
//! placeholder.
//!
//! The DOM is rebuilt only when the tree's *shape* changes (the agent updated its components,
//! a template list grew); values the person edits (inputs, a button's enabled state, bound
//! text, validation messages) are reactive leaves, so typing never replaces the input under
//! the cursor. A Button's action goes back to the agent as the next run's `forwardedProps`
//! (`{"a2uiAction": {"userAction": …}}`, the AG-UI binding); `openUrl` opens the (checked) link.
//!
//! The lean widget keeps the card, the model and everything only a surface uses (its
//! actions, what the renderer owes the agent) in its `a2ui` module, fetched with the first
//! surface ([`a2ui_card`]).

use std::hash::{Hash, Hasher};

use leptos::prelude::*;
use serde_json::Value;

use crate::a2ui::{ActionPayload, Intent, Lifecycle, Node, NodeKind, Scope, Surfaces};
use crate::i18n::fill;
use crate::protocol::types::Content;
use crate::store::{AgentStore, Row};
use crate::ui::lazy::split;
use crate::ui::tr;

/// How one surface's nodes reach their current values.
#[derive(Clone, Copy)]
struct Cx {
    store: AgentStore,
    surfaces: StoredValue<Surfaces>,
    surface: StoredValue<String>,
    tree: Memo<Option<Node>>,
    edits: RwSignal<u64>,
}

/// The node at `path` (child indexes) under `root`.
fn at<'a>(root: &'a Node, path: &[u16]) -> Option<&'a Node> {
    let mut n = root;
    for &i in path {
        n = children(n).into_iter().nth(usize::from(i))?;
    }
    Some(n)
}

fn children(n: &Node) -> Vec<&Node> {
    n.children()
}

/// What the DOM is built from: ids, kinds, variants and child counts (not the values a
/// person edits).
fn shape(n: &Node, h: &mut std::collections::hash_map::DefaultHasher) {
    n.id.hash(h);
    std::mem::discriminant(&n.kind).hash(h);
    match &n.kind {
        NodeKind::Image { url, .. }
        | NodeKind::Video { url, .. }
        | NodeKind::AudioPlayer { url, .. } => url.as_ref().map(|u| u.as_str().to_owned()).hash(h),
        NodeKind::Tabs { tabs } => tabs.iter().for_each(|(t, _)| t.hash(h)),
        NodeKind::ChoicePicker {
            options, variant, ..
        } => {
            options.hash(h);
            variant.hash(h);
        }
        NodeKind::TextField { variant, .. } => variant.hash(h),
        NodeKind::Unsupported { type_name } | NodeKind::Invalid { type_name, .. } => {
            type_name.hash(h)
        }
        _ => {}
    }
    let kids = children(n);
    kids.len().hash(h);
    for c in kids {
        shape(c, h);
    }
}

impl Cx {
    /// A reactive read of the node at `path`.
    fn read<T: 'static>(
        self,
        path: &[u16],
        f: impl Fn(&NodeKind) -> Option<T> + Clone + Send + Sync + 'static,
    ) -> impl Fn() -> Option<T> + Clone + Send + Sync + 'static {
        let path = path.to_vec();
        move || {
            self.tree.with(|t| {
                t.as_ref()
                    .and_then(|t| at(t, &path))
                    .and_then(|n| f(&n.kind))
            })
        }
    }

    /// The person changed a bound value.
    fn set(self, bind: &Option<String>, value: Value) {
        let Some(path) = bind.clone() else {
            return;
        };
        let id = self.surface.get_value();
        self.surfaces.update_value(|s| {
            let _ = s.set_value(&id, &path, value);
        });
        self.edits.update(|v| *v += 1);
    }

    /// A Button was pressed.
    fn press(self, component: &str, scope: &Scope) {
        let id = self.surface.get_value();
        let stamp = js_sys::Date::new_0()
            .to_iso_string()
            .as_string()
            .unwrap_or_default();
        let payload = self
            .surfaces
            .with_value(|s| s.get(&id).map(|s| s.action_at(component, scope, &stamp)));
        match payload {
            Some(Ok(ActionPayload::Agent(action))) => {
                self.store.send_action(action.forwarded_props);
            }
            Some(Ok(ActionPayload::CallAgent(call))) => {
                self.store.expect_a2ui_call(call.function_call_id);
                self.store.send_action(call.forwarded_props);
            }
            Some(Ok(ActionPayload::Local(Intent::OpenUrl(url)))) => {
                if let Some(w) = web_sys::window() {
                    let _ = w.open_with_url_and_target_and_features(
                        url.as_str(),
                        "_blank",
                        "noopener,noreferrer",
                    );
                }
            }
            // A failing check: its message is already shown beside the inputs.
            _ => self.edits.update(|v| *v += 1),
        }
    }
}

fn errors_view(errors: impl Fn() -> Option<Vec<String>> + Send + Sync + 'static) -> impl IntoView {
    move || {
        let e = errors().unwrap_or_default();
        (!e.is_empty()).then(|| {
            let lines: Vec<_> = e.into_iter().map(|m| view! { <span>{m}</span> }).collect();
            view! { <span class="agui-a2ui__error" role="alert">{lines}</span> }
        })
    }
}

macro_rules! field {
    ($kind:ident { $($f:ident),* } => $e:expr) => {
        move |k: &NodeKind| match k {
            NodeKind::$kind { $($f,)* .. } => Some($e),
            _ => None,
        }
    };
}

fn render(cx: Cx, node: &Node, path: Vec<u16>) -> AnyView {
    let kids = |path: &Vec<u16>, list: &[Node]| -> Vec<AnyView> {
        list.iter()
            .enumerate()
            .map(|(i, c)| {
                let mut p = path.clone();
                p.push(i as u16);
                render(cx, c, p)
            })
            .collect()
    };
    let child = |i: u16, n: &Node| {
        let mut p = path.clone();
        p.push(i);
        render(cx, n, p)
    };
    let label = node.a11y_label.clone();
    let t = tr(cx.store);
    match &node.kind {
        NodeKind::Text { variant, .. } => {
            let text = cx.read(&path, field!(Text { text } => text.clone()));
            let v = variant.clone().unwrap_or_default();
            match v.as_str() {
                "h1" | "h2" => {
                    view! { <h3 class="agui-a2ui__text" data-variant=v>{text}</h3> }.into_any()
                }
                "h3" | "h4" | "h5" => {
                    view! { <h4 class="agui-a2ui__text" data-variant=v>{text}</h4> }.into_any()
                }
                _ => view! { <p class="agui-a2ui__text" data-variant=v>{text}</p> }.into_any(),
            }
        }
        NodeKind::Image {
            url: Some(url),
            description,
            ..
        } => crate::ui::markdown_view::image(url.clone(), description.clone(), None),
        NodeKind::Image { description, .. } => {
            view! { <span class="agui-a2ui__alt">{description.clone()}</span> }.into_any()
        }
        NodeKind::Icon { name, .. } => {
            view! { <span class="agui-a2ui__icon" aria-hidden="true" title=name.clone()>"◆"</span> }
                .into_any()
        }
        NodeKind::Video { url, .. } | NodeKind::AudioPlayer { url, .. } => {
            let video = matches!(node.kind, NodeKind::Video { .. });
            media(url.clone(), video, t.image_load)
        }
        NodeKind::Row { children, .. } => {
            view! { <div class="agui-a2ui__row" aria-label=label>{kids(&path, children)}</div> }
                .into_any()
        }
        NodeKind::Column { children, .. } => {
            view! { <div class="agui-a2ui__column" aria-label=label>{kids(&path, children)}</div> }
                .into_any()
        }
        NodeKind::List {
            children,
            direction,
            ..
        } => {
            let items: Vec<_> = kids(&path, children)
                .into_iter()
                .map(|k| view! { <li>{k}</li> })
                .collect();
            view! { <ul class="agui-a2ui__list" data-direction=direction.clone()>{items}</ul> }
                .into_any()
        }
        NodeKind::Card { child: c } => {
            view! { <div class="agui-a2ui__card">{child(0, c)}</div> }.into_any()
        }
        NodeKind::Tabs { tabs } => {
            let selected = RwSignal::new(0usize);
            let heads: Vec<_> = tabs
                .iter()
                .enumerate()
                .map(|(i, (title, _))| {
                    view! {
                        <button
                            type="button"
                            role="tab"
                            class="agui-a2ui__tab"
                            aria-selected=move || (selected.get() == i).to_string()
                            on:click=move |_| selected.set(i)
                        >
                            {title.clone()}
                        </button>
                    }
                })
                .collect();
            let panels: Vec<_> = tabs
                .iter()
                .enumerate()
                .map(|(i, (_, n))| {
                    view! { <div role="tabpanel" hidden=move || selected.get() != i>{child(i as u16, n)}</div> }
                })
                .collect();
            view! { <div class="agui-a2ui__tabs"><div role="tablist">{heads}</div>{panels}</div> }
                .into_any()
        }
        NodeKind::Modal { trigger, content } => {
            let open = RwSignal::new(false);
            let body = child(1, content);
            view! {
                <div class="agui-a2ui__modal-trigger" on:click=move |_| open.set(true)>{child(0, trigger)}</div>
                <div class="agui-a2ui__modal" role="dialog" aria-modal="true" hidden=move || !open.get()>
                    {body}
                    <button type="button" class="agui-button agui-button--ghost" on:click=move |_| open.set(false)>
                        {t.queue_cancel_edit}
                    </button>
                </div>
            }
            .into_any()
        }
        NodeKind::Divider { .. } => view! { <hr class="agui-a2ui__divider" /> }.into_any(),
        NodeKind::Button {
            child: c, variant, ..
        } => {
            let enabled = cx.read(&path, field!(Button { enabled } => *enabled));
            let errors = cx.read(&path, field!(Button { errors } => errors.clone()));
            let (id, scope) = (node.id.clone(), node.scope.clone());
            let running = cx.store.running;
            view! {
                <button
                    type="button"
                    class="agui-button agui-a2ui__button"
                    class:agui-button--primary=variant.as_deref() == Some("primary")
                    data-testid="a2ui-button"
                    data-a2ui-id=id.clone()
                    aria-label=label
                    disabled=move || !enabled().unwrap_or(false) || running.get()
                    on:click=move |_| cx.press(&id, &scope)
                >
                    {child(0, c)}
                </button>
                {errors_view(errors)}
            }
            .into_any()
        }
        NodeKind::TextField {
            label: l,
            placeholder,
            variant,
            bind,
            ..
        } => {
            let value = cx.read(&path, field!(TextField { value } => value.clone()));
            let errors = cx.read(&path, field!(TextField { errors } => errors.clone()));
            let bind = bind.clone();
            let number = variant.as_deref() == Some("number");
            let kind = match variant.as_deref() {
                Some("number") => "number",
                Some("obscured") => "password",
                _ => "text",
            };
            let on_input = move |ev: leptos::ev::Event| {
                let v = event_target_value(&ev);
                let value = match v.parse::<f64>().ok().and_then(serde_json::Number::from_f64) {
                    Some(n) if number => Value::Number(n),
                    _ => Value::String(v),
                };
                cx.set(&bind, value);
            };
            let input = if variant.as_deref() == Some("longText") {
                view! { <textarea class="agui-a2ui__input" data-testid="a2ui-input" placeholder=placeholder.clone() prop:value=move || value().unwrap_or_default() on:input=on_input></textarea> }.into_any()
            } else {
                view! { <input class="agui-a2ui__input" data-testid="a2ui-input" type=kind placeholder=placeholder.clone() prop:value=move || value().unwrap_or_default() on:input=on_input /> }.into_any()
            };
            view! { <label class="agui-a2ui__field"><span>{l.clone()}</span>{input}{errors_view(errors)}</label> }.into_any()
        }
        NodeKind::CheckBox { label: l, bind, .. } => {
            let value = cx.read(&path, field!(CheckBox { value } => *value));
            let errors = cx.read(&path, field!(CheckBox { errors } => errors.clone()));
            let bind = bind.clone();
            view! {
                <label class="agui-a2ui__check">
                    <input type="checkbox" data-testid="a2ui-checkbox" prop:checked=move || value().unwrap_or(false)
                        on:change=move |ev| cx.set(&bind, Value::Bool(event_target_checked(&ev))) />
                    <span>{l.clone()}</span>
                    {errors_view(errors)}
                </label>
            }
            .into_any()
        }
        NodeKind::ChoicePicker {
            label: l,
            options,
            variant,
            bind,
            ..
        } => {
            let single = variant.as_deref() == Some("mutuallyExclusive");
            let selected = cx.read(&path, field!(ChoicePicker { selected } => selected.clone()));
            let errors = cx.read(&path, field!(ChoicePicker { errors } => errors.clone()));
            let group = format!("a2ui-{}-{}", node.id, path.len());
            let items: Vec<_> = options
                .iter()
                .map(|(text, value)| {
                    let (bind, value) = (bind.clone(), value.clone());
                    let v2 = value.clone();
                    let selected = selected.clone();
                    let now_selected = selected.clone();
                    let checked = move || now_selected().is_some_and(|s| s.contains(&v2));
                    view! {
                        <label class="agui-a2ui__check">
                            <input type=if single { "radio" } else { "checkbox" } name=group.clone() prop:checked=checked
                                on:change=move |ev| {
                                    let on = event_target_checked(&ev);
                                    let mut now = selected().unwrap_or_default();
                                    now.retain(|x| *x != value && !single);
                                    if on {
                                        now.push(value.clone());
                                    }
                                    cx.set(&bind, Value::Array(now.into_iter().map(Value::String).collect()));
                                } />
                            <span>{text.clone()}</span>
                        </label>
                    }
                })
                .collect();
            view! { <fieldset class="agui-a2ui__choices"><legend>{l.clone()}</legend>{items}{errors_view(errors)}</fieldset> }.into_any()
        }
        NodeKind::Slider {
            label: l,
            min,
            max,
            steps,
            bind,
            ..
        } => {
            let value = cx.read(&path, field!(Slider { value } => *value));
            let bind = bind.clone();
            let step = match steps {
                Some(n) if *n > 0 => ((max - min) / *n as f64).to_string(),
                _ => "any".to_owned(),
            };
            view! {
                <label class="agui-a2ui__field">
                    <span>{l.clone()}</span>
                    <input type="range" min=min.to_string() max=max.to_string() step=step
                        prop:value=move || value().unwrap_or(0.0).to_string()
                        on:input=move |ev| {
                            if let Some(n) = event_target_value(&ev).parse::<f64>().ok().and_then(serde_json::Number::from_f64) {
                                cx.set(&bind, Value::Number(n));
                            }
                        } />
                </label>
            }
            .into_any()
        }
        NodeKind::DateTimeInput {
            label: l,
            enable_date,
            enable_time,
            min,
            max,
            bind,
            ..
        } => {
            let value = cx.read(&path, field!(DateTimeInput { value } => value.clone()));
            let bind = bind.clone();
            let kind = match (enable_date, enable_time) {
                (true, true) => "datetime-local",
                (false, true) => "time",
                _ => "date",
            };
            view! {
                <label class="agui-a2ui__field">
                    <span>{l.clone()}</span>
                    <input type=kind min=min.clone() max=max.clone() prop:value=move || value().unwrap_or_default()
                        on:input=move |ev| cx.set(&bind, Value::String(event_target_value(&ev))) />
                </label>
            }
            .into_any()
        }
        NodeKind::Missing => ().into_any(),
        NodeKind::Unsupported { type_name } => placeholder(fill(t.a2ui_unsupported, &[type_name])),
        NodeKind::Invalid { type_name, reason } => {
            placeholder(fill(t.a2ui_invalid, &[type_name, reason]))
        }
        _ => placeholder(fill(t.a2ui_unsupported, &[&node.id])),
    }
}

fn placeholder(text: String) -> AnyView {
    view! { <span class="agui-a2ui__unsupported" data-testid="a2ui-unsupported">{text}</span> }
        .into_any()
}

/// A video or audio player, loaded only after a click.
fn media(url: Option<crate::markdown::SafeUrl>, video: bool, load: &'static str) -> AnyView {
    let Some(url) = url else {
        return ().into_any();
    };
    let loaded = RwSignal::new(false);
    let host = url.host().unwrap_or_default().to_owned();
    let src = url.as_str().to_owned();
    view! {
        {move || {
            if !loaded.get() {
                view! { <button type="button" class="agui-md__image-load" on:click=move |_| loaded.set(true)>{load}" · "{host.clone()}</button> }.into_any()
            } else if video {
                view! { <video class="agui-a2ui__media" controls=true src=src.clone()></video> }.into_any()
            } else {
                view! { <audio controls=true src=src.clone()></audio> }.into_any()
            }
        }}
    }
    .into_any()
}

fn surface_view(
    store: AgentStore,
    surfaces: StoredValue<Surfaces>,
    synced: Memo<u64>,
    id: String,
) -> impl IntoView {
    let edits = RwSignal::new(0u64);
    let surface = StoredValue::new(id.clone());
    let tree = Memo::new(move |_| {
        // `get`, not `track`: the sync must have run before the tree is read.
        let _ = synced.get();
        edits.track();
        let id = surface.get_value();
        let (tree, owed) = surfaces
            .with_value(|s| {
                s.get(&id).filter(|s| s.has_root()).map(|s| {
                    let tree = s.tree();
                    let owed = s.budget_reports(&tree);
                    (tree, owed)
                })
            })
            .unzip();
        // What the budgets cut goes with the next run a person starts (once: the session
        // drops what it queued before).
        if let Some(owed) = owed.filter(|o| !o.is_empty()) {
            store.queue_a2ui(owed);
        }
        tree
    });
    let shape_of = Memo::new(move |_| {
        tree.with(|t| {
            t.as_ref().map(|t| {
                let mut h = std::collections::hash_map::DefaultHasher::new();
                shape(t, &mut h);
                h.finish()
            })
        })
    });
    let cx = Cx {
        store,
        surfaces,
        surface,
        tree,
        edits,
    };
    view! {
        <div class="agui-a2ui__surface" data-testid="a2ui-surface" data-surface-id=id>
            {move || {
                shape_of.track();
                tree.with_untracked(|t| t.as_ref().map(|t| render(cx, t, Vec::new())))
            }}
        </div>
    }
}

split!(a2ui:
    /// The card of an `a2ui-surface` activity message (the lean widget fetches it with the
    /// first one).
    pub fn a2ui_card(row: Row) -> AnyView {
        view! { <A2uiCard row /> }.into_any()
    }
);

/// The card of an `a2ui-surface` activity message.
#[component]
pub fn A2uiCard(
    /// The row of the activity message.
    row: Row,
) -> impl IntoView {
    let store = AgentStore::expect();
    let version = store.row_version(&row.key);
    let key = row.key.clone();
    let surfaces = StoredValue::new(Surfaces::new());
    let status = RwSignal::new(None::<String>);
    let call_error = RwSignal::new(None::<String>);
    // The content is synced on each version bump, read where the session keeps it (content
    // that is not an object changes nothing); the count moves when anything changed.
    let synced = Memo::new(move |prev: Option<&u64>| {
        version.track();
        store.with_message(&key, |m| {
            if let Some(Content::Object(o)) = &m.content {
                surfaces.update_value(|s| {
                    let _ = s.sync_object(o);
                });
            }
        });
        // Validation failures and refused calls go with the next run a person starts.
        let owed = surfaces
            .try_update_value(|s| s.take_outbox())
            .unwrap_or_default();
        if !owed.is_empty() {
            store.queue_a2ui(owed);
        }
        let t = crate::ui::tr_now(store);
        // The agent's answers to this chat's callAgentFunctions (others mean nothing): a
        // failure is shown, a value closes the call.
        let answers = surfaces
            .try_update_value(|s| s.take_responses())
            .unwrap_or_default();
        for a in answers {
            if store.answer_a2ui_call(&a.function_call_id) {
                call_error.set(
                    a.result
                        .err()
                        .map(|(code, message)| fill(t.a2ui_call_failed, &[&code, &message])),
                );
            }
        }
        status.set(surfaces.with_value(|s| match s.lifecycle() {
            Some(Lifecycle::Failed { error }) => Some(fill(t.a2ui_failed, &[error])),
            Some(_) => Some(t.a2ui_building.to_owned()),
            None => None,
        }));
        prev.map_or(0, |p| p + 1)
    });
    let ids = Memo::new(move |_| {
        let _ = synced.get();
        surfaces.with_value(|s| s.iter().map(|s| s.id.clone()).collect::<Vec<_>>())
    });
    view! {
        <section class="agui-a2ui" data-testid="a2ui">
            {move || status.get().map(|s| view! { <p class="agui-a2ui__status" role="status">{s}</p> })}
            {move || call_error.get().map(|e| view! { <p class="agui-a2ui__error" role="alert" data-testid="a2ui-call-error">{e}</p> })}
            <For each=move || ids.get() key=|id| id.clone() children=move |id| surface_view(store, surfaces, synced, id) />
        </section>
    }
}
