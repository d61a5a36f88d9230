//! The render tree: the flat component map rooted at `"root"` (protocol "UI composition: the
//! adjacency list model"), with every dynamic value resolved against the data model and
//! template lists expanded. Built on demand by [`Surface::tree`](super::Surface::tree).
//!
//! Budgets: nesting deeper than [`MAX_DEPTH`] becomes [`NodeKind::TooDeep`]; a component
//! reached again inside itself (same id, same data scope) becomes [`NodeKind::Cycle`]; past
//! [`MAX_TREE_NODES`] nodes (templates multiply) the rest become [`NodeKind::Truncated`].
//! Unknown references render as [`NodeKind::Missing`] (they may still arrive).

use std::collections::BTreeMap;

use serde_json::Value;

use super::component::{Check, Children, Component, ComponentDef, Dynamic, IconName};
use super::data::Scope;
use super::eval::{display, number, Ctx};
use crate::markdown::SafeUrl;

pub const MAX_DEPTH: usize = 32;
pub const MAX_TREE_NODES: usize = 5_000;

/// One rendered component instance.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The component id (template instances share their template's id).
    pub id: String,
    /// The data scope of this instance (pass it to `Surface::action_at`).
    pub scope: Scope,
    pub weight: Option<f64>,
    /// `accessibility.label` / `.description`, resolved.
    pub a11y_label: Option<String>,
    pub a11y_description: Option<String>,
    pub kind: NodeKind,
}

/// A two-way bound input's target: the absolute data path `Surface::set_value` writes.
pub type Bind = Option<String>;

#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum NodeKind {
    Text {
        text: String,
        variant: Option<String>,
    },
    /// `url` is `None` unless it is http(s) ([`SafeUrl::parse_image`]); the UI loads it
    /// only after a click.
    Image {
        url: Option<SafeUrl>,
        description: String,
        fit: Option<String>,
        variant: Option<String>,
    },
    Icon {
        name: Option<String>,
        svg_path: Option<String>,
    },
    Video {
        url: Option<SafeUrl>,
        poster_url: Option<SafeUrl>,
    },
    AudioPlayer {
        url: Option<SafeUrl>,
        description: String,
    },
    Row {
        children: Vec<Node>,
        justify: Option<String>,
        align: Option<String>,
    },
    Column {
        children: Vec<Node>,
        justify: Option<String>,
        align: Option<String>,
    },
    List {
        children: Vec<Node>,
        direction: Option<String>,
        align: Option<String>,
    },
    Card {
        child: Box<Node>,
    },
    Tabs {
        tabs: Vec<(String, Node)>,
    },
    Modal {
        trigger: Box<Node>,
        content: Box<Node>,
    },
    Divider {
        axis: Option<String>,
    },
    /// `enabled` is false while a check fails (`errors` holds their messages) or when the
    /// action cannot run.
    Button {
        child: Box<Node>,
        variant: Option<String>,
        enabled: bool,
        errors: Vec<String>,
    },
    TextField {
        label: String,
        value: String,
        placeholder: String,
        variant: Option<String>,
        bind: Bind,
        errors: Vec<String>,
    },
    CheckBox {
        label: String,
        value: bool,
        bind: Bind,
        errors: Vec<String>,
    },
    ChoicePicker {
        label: String,
        variant: Option<String>,
        options: Vec<(String, String)>,
        selected: Vec<String>,
        display_style: Option<String>,
        filterable: bool,
        bind: Bind,
        errors: Vec<String>,
    },
    Slider {
        label: String,
        min: f64,
        max: f64,
        value: f64,
        steps: Option<u64>,
        bind: Bind,
        errors: Vec<String>,
    },
    DateTimeInput {
        label: String,
        value: String,
        enable_date: bool,
        enable_time: bool,
        min: String,
        max: String,
        bind: Bind,
        errors: Vec<String>,
    },
    /// A referenced id that is not (yet) defined.
    Missing,
    /// The component is already on the path to here (a reference loop).
    Cycle,
    /// Nesting beyond [`MAX_DEPTH`].
    TooDeep,
    /// The node budget ran out.
    Truncated,
    /// A component type outside the basic catalogue.
    Unsupported {
        type_name: String,
    },
    /// A catalogue component with unusable properties.
    Invalid {
        type_name: String,
        reason: String,
    },
}

impl Node {
    /// The child nodes, in order.
    pub fn children(&self) -> Vec<&Node> {
        match &self.kind {
            NodeKind::Row { children, .. }
            | NodeKind::Column { children, .. }
            | NodeKind::List { children, .. } => children.iter().collect(),
            NodeKind::Card { child } | NodeKind::Button { child, .. } => vec![child],
            NodeKind::Tabs { tabs } => tabs.iter().map(|(_, n)| n).collect(),
            NodeKind::Modal { trigger, content } => vec![trigger, content],
            _ => Vec::new(),
        }
    }

    /// What the tree budgets cut (a reference cycle, nesting past [`MAX_DEPTH`], nodes past
    /// [`MAX_TREE_NODES`]), once per kind, as `(component id, what)`. The tree is at most
    /// [`MAX_DEPTH`] deep, so this walk is too.
    pub fn budget_problems(&self) -> Vec<(String, &'static str)> {
        let mut out: Vec<(String, &'static str)> = Vec::new();
        let mut stack = vec![self];
        while let Some(n) = stack.pop() {
            let what = match n.kind {
                NodeKind::Cycle => "a reference cycle",
                NodeKind::TooDeep => "nesting deeper than the renderer's budget",
                NodeKind::Truncated => "more nodes than the renderer's budget",
                _ => {
                    stack.extend(n.children().into_iter().rev());
                    continue;
                }
            };
            if !out.iter().any(|(_, w)| *w == what) {
                out.push((n.id.chars().take(80).collect(), what));
            }
        }
        out
    }
}

pub(super) struct Builder<'a> {
    /// The surface's components and data model.
    pub components: &'a BTreeMap<String, ComponentDef>,
    pub data: &'a Value,
    pub nodes: usize,
    /// (id, scope base) of the components on the current path.
    pub path: Vec<(&'a str, Option<String>)>,
}

fn leaf(id: &str, scope: &Scope, kind: NodeKind) -> Node {
    Node {
        id: id.to_string(),
        scope: scope.clone(),
        weight: None,
        a11y_label: None,
        a11y_description: None,
        kind,
    }
}

/// Messages of the checks that fail (a check whose condition cannot be evaluated fails).
pub(super) fn failed_checks(
    ctx: &Ctx,
    checks: &[Check],
    own_value: Option<&Dynamic>,
) -> Vec<String> {
    checks
        .iter()
        .filter(|c| !ctx.boolean(&with_own_value(&c.condition, own_value)))
        .map(|c| c.message.clone())
        .collect()
}

/// `{"call": "required"}` with no `value` argument checks the component's own value (the
/// basic catalogue's instructions use this form).
fn with_own_value(cond: &Dynamic, own: Option<&Dynamic>) -> Dynamic {
    match (cond, own) {
        (Dynamic::Call(f), Some(own))
            if !f.args.contains_key("value") && f.call != "and" && f.call != "or" =>
        {
            let mut f = f.clone();
            let v = match own {
                Dynamic::Literal(v) => v.clone(),
                Dynamic::Path(p) => serde_json::json!({ "path": p }),
                Dynamic::Call(c) => serde_json::json!({ "call": c.call, "args": c.args }),
            };
            f.args.insert("value".into(), v);
            Dynamic::Call(f)
        }
        _ => cond.clone(),
    }
}

impl<'a> Builder<'a> {
    pub fn node(&mut self, id: &'a str, scope: &Scope) -> Node {
        if self.nodes >= MAX_TREE_NODES {
            return leaf(id, scope, NodeKind::Truncated);
        }
        self.nodes += 1;
        if self.path.len() >= MAX_DEPTH {
            return leaf(id, scope, NodeKind::TooDeep);
        }
        if self
            .path
            .iter()
            .any(|(pid, base)| *pid == id && *base == scope.base)
        {
            return leaf(id, scope, NodeKind::Cycle);
        }
        let Some(def) = self.components.get(id) else {
            return leaf(id, scope, NodeKind::Missing);
        };
        self.path.push((id, scope.base.clone()));
        let kind = self.kind(def, scope);
        self.path.pop();
        let ctx = Ctx::new(self.data, scope);
        Node {
            id: id.to_string(),
            scope: scope.clone(),
            weight: def.weight,
            a11y_label: def.a11y_label.as_ref().map(|d| ctx.string(d)),
            a11y_description: def.a11y_description.as_ref().map(|d| ctx.string(d)),
            kind,
        }
    }

    fn children(&mut self, c: &'a Children, scope: &Scope) -> Vec<Node> {
        match c {
            Children::Ids(ids) => ids.iter().map(|id| self.node(id, scope)).collect(),
            Children::Template { component_id, path } => {
                let base = scope.resolve(path);
                let len = match super::data::get(self.data, &base) {
                    Some(Value::Array(a)) => a.len(),
                    _ => 0,
                };
                let mut out = Vec::new();
                for i in 0..len {
                    if self.nodes >= MAX_TREE_NODES {
                        out.push(leaf(component_id, scope, NodeKind::Truncated));
                        break;
                    }
                    let item = Scope {
                        base: Some(format!("{base}/{i}")),
                        index: Some(i),
                    };
                    out.push(self.node(component_id, &item));
                }
                out
            }
        }
    }

    fn kind(&mut self, def: &'a ComponentDef, scope: &Scope) -> NodeKind {
        let ctx = Ctx::new(self.data, scope);
        let s = |d: &Dynamic| ctx.string(d);
        let so = |d: &Option<Dynamic>| d.as_ref().map(|d| ctx.string(d)).unwrap_or_default();
        let media = |d: &Dynamic| SafeUrl::parse_image(&ctx.string(d));
        let bind = |d: &Dynamic| d.path().map(|p| scope.resolve(p));
        use NodeKind as K;
        match &def.component {
            Component::Text { text, variant } => K::Text {
                text: s(text),
                variant: variant.clone(),
            },
            Component::Image {
                url,
                description,
                fit,
                variant,
            } => K::Image {
                url: media(url),
                description: so(description),
                fit: fit.clone(),
                variant: variant.clone(),
            },
            Component::Icon { name } => match name {
                IconName::Named(d) => K::Icon {
                    name: Some(s(d)),
                    svg_path: None,
                },
                IconName::SvgPath(d) => K::Icon {
                    name: None,
                    svg_path: Some(s(d)),
                },
            },
            Component::Video { url, poster_url } => K::Video {
                url: media(url),
                poster_url: poster_url.as_ref().and_then(media),
            },
            Component::AudioPlayer { url, description } => K::AudioPlayer {
                url: media(url),
                description: so(description),
            },
            Component::Row {
                children,
                justify,
                align,
            } => K::Row {
                children: self.children(children, scope),
                justify: justify.clone(),
                align: align.clone(),
            },
            Component::Column {
                children,
                justify,
                align,
            } => K::Column {
                children: self.children(children, scope),
                justify: justify.clone(),
                align: align.clone(),
            },
            Component::List {
                children,
                direction,
                align,
            } => K::List {
                children: self.children(children, scope),
                direction: direction.clone(),
                align: align.clone(),
            },
            Component::Card { child } => K::Card {
                child: Box::new(self.node(child, scope)),
            },
            Component::Tabs { tabs } => K::Tabs {
                tabs: tabs
                    .iter()
                    .map(|t| (s(&t.title), self.node(&t.child, scope)))
                    .collect(),
            },
            Component::Modal { trigger, content } => K::Modal {
                trigger: Box::new(self.node(trigger, scope)),
                content: Box::new(self.node(content, scope)),
            },
            Component::Divider { axis } => K::Divider { axis: axis.clone() },
            Component::Button {
                child,
                variant,
                checks,
                ..
            } => {
                let errors = failed_checks(&ctx, checks, None);
                K::Button {
                    child: Box::new(self.node(child, scope)),
                    variant: variant.clone(),
                    enabled: errors.is_empty(),
                    errors,
                }
            }
            Component::TextField {
                label,
                value,
                placeholder,
                variant,
                checks,
            } => K::TextField {
                label: s(label),
                value: so(value),
                placeholder: so(placeholder),
                variant: variant.clone(),
                bind: value.as_ref().and_then(bind),
                errors: failed_checks(&ctx, checks, value.as_ref()),
            },
            Component::CheckBox {
                label,
                value,
                checks,
            } => K::CheckBox {
                label: s(label),
                value: ctx.boolean(value),
                bind: bind(value),
                errors: failed_checks(&ctx, checks, Some(value)),
            },
            Component::ChoicePicker {
                label,
                variant,
                options,
                value,
                display_style,
                filterable,
                checks,
            } => {
                let selected = match ctx.eval(value) {
                    Ok(Value::Array(items)) => items.iter().map(display).collect(),
                    Ok(Value::String(one)) if !one.is_empty() => vec![one],
                    _ => Vec::new(),
                };
                K::ChoicePicker {
                    label: so(label),
                    variant: variant.clone(),
                    options: options
                        .iter()
                        .map(|o| (s(&o.label), o.value.clone()))
                        .collect(),
                    selected,
                    display_style: display_style.clone(),
                    filterable: *filterable,
                    bind: bind(value),
                    errors: failed_checks(&ctx, checks, Some(value)),
                }
            }
            Component::Slider {
                label,
                min,
                max,
                value,
                steps,
                checks,
            } => K::Slider {
                label: so(label),
                min: *min,
                max: *max,
                value: ctx
                    .eval(value)
                    .ok()
                    .as_ref()
                    .and_then(number)
                    .unwrap_or(*min),
                steps: *steps,
                bind: bind(value),
                errors: failed_checks(&ctx, checks, Some(value)),
            },
            Component::DateTimeInput {
                value,
                enable_date,
                enable_time,
                min,
                max,
                label,
                checks,
            } => K::DateTimeInput {
                label: so(label),
                value: s(value),
                enable_date: *enable_date,
                enable_time: *enable_time,
                min: so(min),
                max: so(max),
                bind: bind(value),
                errors: failed_checks(&ctx, checks, Some(value)),
            },
            Component::Unsupported { type_name } => K::Unsupported {
                type_name: type_name.clone(),
            },
            Component::Invalid { type_name, error } => K::Invalid {
                type_name: type_name.clone(),
                reason: error.to_string(),
            },
        }
    }
}
