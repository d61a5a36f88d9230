//! The basic catalogue's components (`specification/v1_0/catalogs/basic/catalog.json`), each
//! parsed from its flat wire object (`{"id", "component": "Text", ...props}`) into a typed
//! variant. Property names are the catalogue's. A component that misses a required property
//! becomes [`Component::Invalid`] (the rest of the surface still renders); a type outside the
//! catalogue becomes [`Component::Unsupported`].
//!
//! Before a catalogue component is parsed, its properties are checked against the catalogue's
//! definition ([`validate`]): required properties, the JSON types of `common_types.json`
//! (`DynamicString` is a string, a `{"path"}` binding or a `{"call"}` function call, and so
//! on), and enums. Properties the catalogue does not define are ignored (the schema's
//! `unevaluatedProperties: false` is not enforced: `metadata` extensions and the older check
//! form stay readable). Text's `variant` also takes the v0.9 values `h1`–`h5` (v0.9 messages are
//! accepted).

use serde_json::{Map, Value};

use super::error::A2uiError;

/// A dynamic value (`common_types.json` `DynamicString`/`Number`/`Boolean`/`Value`): a
/// literal, a data binding `{"path"}`, or a function call `{"call", "args"}`.
#[derive(Debug, Clone, PartialEq)]
pub enum Dynamic {
    Literal(Value),
    Path(String),
    Call(FunctionCall),
}

/// `FunctionCall`: a catalogue function by name; `args` are dynamic values, kept as sent and
/// resolved when evaluated.
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionCall {
    pub call: String,
    pub args: Map<String, Value>,
    /// `catalogId`: the catalogue the function comes from (else the surface's).
    pub catalog_id: Option<String>,
}

impl Dynamic {
    /// Classifies a wire value: an object with a string `path` is a binding, one with a
    /// string `call` a function call; anything else is a literal.
    pub fn parse(v: &Value) -> Dynamic {
        if let Value::Object(m) = v {
            if let Some(p) = m.get("path").and_then(Value::as_str) {
                return Dynamic::Path(p.to_string());
            }
            if let Some(call) = FunctionCall::parse(v) {
                return Dynamic::Call(call);
            }
        }
        Dynamic::Literal(v.clone())
    }

    /// The data path this value is bound to (for two-way binding), when it is a binding.
    pub fn path(&self) -> Option<&str> {
        match self {
            Dynamic::Path(p) => Some(p),
            _ => None,
        }
    }
}

impl FunctionCall {
    pub fn parse(v: &Value) -> Option<FunctionCall> {
        let m = v.as_object()?;
        let call = m.get("call")?.as_str()?.to_string();
        let args = m
            .get("args")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let catalog_id = m
            .get("catalogId")
            .and_then(Value::as_str)
            .map(str::to_string);
        Some(FunctionCall {
            call,
            args,
            catalog_id,
        })
    }
}

/// `ChildList`: fixed ids, or a template repeated over a data array.
#[derive(Debug, Clone, PartialEq)]
pub enum Children {
    Ids(Vec<String>),
    Template { component_id: String, path: String },
}

/// `Action`: an event for the agent, or a local function call.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Event {
        name: String,
        /// `context`: key → dynamic value, resolved when the action fires.
        context: Map<String, Value>,
        want_response: bool,
    },
    Local(FunctionCall),
}

/// `CheckRule`: a condition that must hold, and the message shown when it does not.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    pub condition: Dynamic,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ChoiceOption {
    pub label: Dynamic,
    pub value: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Tab {
    pub title: Dynamic,
    pub child: String,
}

/// `Icon.name`: a catalogue icon name (literal or bound) or a custom SVG path.
#[derive(Debug, Clone, PartialEq)]
pub enum IconName {
    Named(Dynamic),
    SvgPath(Dynamic),
}

/// One component of the basic catalogue with its properties.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Component {
    Text {
        text: Dynamic,
        variant: Option<String>,
    },
    Image {
        url: Dynamic,
        description: Option<Dynamic>,
        fit: Option<String>,
        variant: Option<String>,
    },
    Icon {
        name: IconName,
    },
    Video {
        url: Dynamic,
        poster_url: Option<Dynamic>,
    },
    AudioPlayer {
        url: Dynamic,
        description: Option<Dynamic>,
    },
    Row {
        children: Children,
        justify: Option<String>,
        align: Option<String>,
    },
    Column {
        children: Children,
        justify: Option<String>,
        align: Option<String>,
    },
    List {
        children: Children,
        direction: Option<String>,
        align: Option<String>,
    },
    Card {
        child: String,
    },
    Tabs {
        tabs: Vec<Tab>,
    },
    Modal {
        trigger: String,
        content: String,
    },
    Divider {
        axis: Option<String>,
    },
    Button {
        child: String,
        variant: Option<String>,
        action: Action,
        checks: Vec<Check>,
    },
    TextField {
        label: Dynamic,
        value: Option<Dynamic>,
        placeholder: Option<Dynamic>,
        variant: Option<String>,
        checks: Vec<Check>,
    },
    CheckBox {
        label: Dynamic,
        value: Dynamic,
        checks: Vec<Check>,
    },
    ChoicePicker {
        label: Option<Dynamic>,
        variant: Option<String>,
        options: Vec<ChoiceOption>,
        value: Dynamic,
        display_style: Option<String>,
        filterable: bool,
        checks: Vec<Check>,
    },
    Slider {
        label: Option<Dynamic>,
        min: f64,
        max: f64,
        value: Dynamic,
        steps: Option<u64>,
        checks: Vec<Check>,
    },
    DateTimeInput {
        value: Dynamic,
        enable_date: bool,
        enable_time: bool,
        min: Option<Dynamic>,
        max: Option<Dynamic>,
        label: Option<Dynamic>,
        checks: Vec<Check>,
    },
    /// A type outside the basic catalogue (rendered as a placeholder).
    Unsupported {
        type_name: String,
    },
    /// A catalogue type whose properties are unusable (rendered as a placeholder).
    Invalid {
        type_name: String,
        error: A2uiError,
    },
}

/// A component entry: id, the properties every component shares, and its typed body.
#[derive(Debug, Clone, PartialEq)]
pub struct ComponentDef {
    pub id: String,
    /// `weight` (flex-grow inside a Row or Column).
    pub weight: Option<f64>,
    /// `accessibility.label` / `accessibility.description`.
    pub a11y_label: Option<Dynamic>,
    pub a11y_description: Option<Dynamic>,
    pub component: Component,
}

type Props<'a> = &'a Map<String, Value>;

fn dynamic(p: Props, key: &'static str) -> Result<Dynamic, A2uiError> {
    p.get(key)
        .map(Dynamic::parse)
        .ok_or(A2uiError::MissingField {
            message: "component",
            field: key,
        })
}

fn dynamic_opt(p: Props, key: &str) -> Option<Dynamic> {
    p.get(key).map(Dynamic::parse)
}

fn string(p: Props, key: &'static str) -> Result<String, A2uiError> {
    match p.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(A2uiError::WrongType {
            field: key,
            expected: "string",
        }),
        None => Err(A2uiError::MissingField {
            message: "component",
            field: key,
        }),
    }
}

fn string_opt(p: Props, key: &str) -> Option<String> {
    p.get(key).and_then(Value::as_str).map(str::to_string)
}

fn children(p: Props) -> Result<Children, A2uiError> {
    match p.get("children") {
        Some(Value::Array(ids)) => Ok(Children::Ids(
            ids.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect(),
        )),
        Some(Value::Object(t)) => Ok(Children::Template {
            component_id: string(t, "componentId")?,
            path: string(t, "path")?,
        }),
        Some(_) => Err(A2uiError::WrongType {
            field: "children",
            expected: "array or template",
        }),
        None => Err(A2uiError::MissingField {
            message: "component",
            field: "children",
        }),
    }
}

/// `checks`: `CheckRule`s (`{"condition", "message"}`); the older `{"call", "args",
/// "message"}` form (the v1.0 protocol's own example stream uses it) is read as a condition.
fn checks(p: Props) -> Vec<Check> {
    let Some(list) = p.get("checks").and_then(Value::as_array) else {
        return Vec::new();
    };
    list.iter()
        .filter_map(Value::as_object)
        .filter_map(|c| {
            let message = string_opt(c, "message").unwrap_or_default();
            let condition = match c.get("condition") {
                Some(cond) => Dynamic::parse(cond),
                None => Dynamic::Call(FunctionCall::parse(&Value::Object(c.clone()))?),
            };
            Some(Check { condition, message })
        })
        .collect()
}

fn action(p: Props) -> Result<Action, A2uiError> {
    let a = p
        .get("action")
        .and_then(Value::as_object)
        .ok_or(A2uiError::MissingField {
            message: "component",
            field: "action",
        })?;
    if let Some(e) = a.get("event").and_then(Value::as_object) {
        return Ok(Action::Event {
            name: string(e, "name")?,
            context: e
                .get("context")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default(),
            want_response: e.get("wantResponse").and_then(Value::as_bool) == Some(true),
        });
    }
    if let Some(f) = a.get("functionCall").and_then(FunctionCall::parse) {
        return Ok(Action::Local(f));
    }
    Err(A2uiError::WrongType {
        field: "action",
        expected: "event or functionCall",
    })
}

/// What a catalogue property must hold (`common_types.json` and the basic catalogue).
#[derive(Debug, Clone, Copy)]
enum Ty {
    DynString,
    DynNumber,
    DynBool,
    DynStringList,
    Enum(&'static [&'static str]),
    Number,
    /// An integer ≥ 1 (`Slider.steps`).
    Steps,
    Bool,
    /// `Child`/`ComponentId`: a component id.
    Child,
    ChildList,
    Action,
    Checks,
    Tabs,
    Options,
    IconName,
}

const ALIGN: &[&str] = &["start", "center", "end", "stretch"];
const JUSTIFY: &[&str] = &[
    "center",
    "end",
    "spaceAround",
    "spaceBetween",
    "spaceEvenly",
    "start",
    "stretch",
];
/// The basic catalogue's icon names.
pub const ICONS: &[&str] = &[
    "accountCircle",
    "add",
    "arrowBack",
    "arrowForward",
    "attachFile",
    "calendarToday",
    "call",
    "camera",
    "check",
    "close",
    "delete",
    "download",
    "edit",
    "event",
    "error",
    "fastForward",
    "favorite",
    "favoriteOff",
    "folder",
    "help",
    "home",
    "info",
    "locationOn",
    "lock",
    "lockOpen",
    "mail",
    "menu",
    "moreVert",
    "moreHoriz",
    "notificationsOff",
    "notifications",
    "pause",
    "payment",
    "person",
    "phone",
    "photo",
    "play",
    "print",
    "refresh",
    "rewind",
    "search",
    "send",
    "settings",
    "share",
    "shoppingCart",
    "skipNext",
    "skipPrevious",
    "star",
    "starHalf",
    "starOff",
    "stop",
    "upload",
    "visibility",
    "visibilityOff",
    "volumeDown",
    "volumeMute",
    "volumeOff",
    "volumeUp",
    "warning",
];

/// `(property, type, required)` of each catalogue component (`weight`, `catalogId` and
/// `accessibility` are checked for all).
fn definition(type_name: &str) -> Option<&'static [(&'static str, Ty, bool)]> {
    use Ty::*;
    Some(match type_name {
        "Text" => &[
            ("text", DynString, true),
            // caption/body (v1.0); h1–h5 (v0.9).
            (
                "variant",
                Enum(&["caption", "body", "h1", "h2", "h3", "h4", "h5"]),
                false,
            ),
        ],
        "Image" => &[
            ("url", DynString, true),
            ("description", DynString, false),
            (
                "fit",
                Enum(&["contain", "cover", "fill", "none", "scaleDown"]),
                false,
            ),
            (
                "variant",
                Enum(&[
                    "icon",
                    "avatar",
                    "smallFeature",
                    "mediumFeature",
                    "largeFeature",
                    "header",
                ]),
                false,
            ),
        ],
        "Icon" => &[("name", IconName, true)],
        "Video" => &[("url", DynString, true), ("posterUrl", DynString, false)],
        "AudioPlayer" => &[("url", DynString, true), ("description", DynString, false)],
        "Row" | "Column" => &[
            ("children", ChildList, true),
            ("justify", Enum(JUSTIFY), false),
            ("align", Enum(ALIGN), false),
        ],
        "List" => &[
            ("children", ChildList, true),
            ("direction", Enum(&["vertical", "horizontal"]), false),
            ("align", Enum(ALIGN), false),
        ],
        "Card" => &[("child", Child, true)],
        "Tabs" => &[("tabs", Tabs, true)],
        "Modal" => &[("trigger", Child, true), ("content", Child, true)],
        "Divider" => &[("axis", Enum(&["horizontal", "vertical"]), false)],
        "Button" => &[
            ("child", Child, true),
            (
                "variant",
                Enum(&["default", "primary", "borderless"]),
                false,
            ),
            ("action", Action, true),
            ("checks", Checks, false),
        ],
        "TextField" => &[
            ("label", DynString, true),
            ("value", DynString, false),
            ("placeholder", DynString, false),
            (
                "variant",
                Enum(&["longText", "number", "shortText", "obscured"]),
                false,
            ),
            ("checks", Checks, false),
        ],
        "CheckBox" => &[
            ("label", DynString, true),
            ("value", DynBool, true),
            ("checks", Checks, false),
        ],
        "ChoicePicker" => &[
            ("label", DynString, false),
            (
                "variant",
                Enum(&["multipleSelection", "mutuallyExclusive"]),
                false,
            ),
            ("options", Options, true),
            ("value", DynStringList, true),
            ("displayStyle", Enum(&["checkbox", "chips"]), false),
            ("filterable", Bool, false),
            ("checks", Checks, false),
        ],
        "Slider" => &[
            ("label", DynString, false),
            ("min", Number, false),
            ("max", Number, true),
            ("value", DynNumber, true),
            ("steps", Steps, false),
            ("checks", Checks, false),
        ],
        "DateTimeInput" => &[
            ("value", DynString, true),
            ("enableDate", Bool, false),
            ("enableTime", Bool, false),
            ("min", DynString, false),
            ("max", DynString, false),
            ("label", DynString, false),
            ("checks", Checks, false),
        ],
        _ => return None,
    })
}

/// A `{"path": "…"}` binding or a `{"call": "…"}` function call.
fn is_bound(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        m.get("path").is_some_and(Value::is_string) || m.get("call").is_some_and(Value::is_string)
    })
}

fn is_dyn_string(v: &Value) -> bool {
    v.is_string() || is_bound(v)
}

/// Why `v` is not a `ty`, as "must be …" words (`None`: it is).
fn mismatch(ty: Ty, v: &Value) -> Option<String> {
    let ok = match ty {
        Ty::DynString => is_dyn_string(v),
        Ty::DynNumber => v.is_number() || is_bound(v),
        Ty::DynBool => v.is_boolean() || is_bound(v),
        Ty::DynStringList => {
            is_bound(v) || v.as_array().is_some_and(|a| a.iter().all(Value::is_string))
        }
        Ty::Enum(values) => v.as_str().is_some_and(|s| values.contains(&s)),
        Ty::Number => v.is_number(),
        Ty::Steps => v.as_u64().is_some_and(|n| n >= 1),
        Ty::Bool => v.is_boolean(),
        Ty::Child => v.is_string(),
        Ty::ChildList => match v {
            Value::Array(ids) => ids.iter().all(Value::is_string),
            Value::Object(t) => {
                t.get("componentId").is_some_and(Value::is_string)
                    && t.get("path").is_some_and(Value::is_string)
            }
            _ => false,
        },
        Ty::Action => v.as_object().is_some_and(|a| {
            let event = a.get("event").and_then(Value::as_object).is_some_and(|e| {
                e.get("name").is_some_and(Value::is_string)
                    && e.get("context").is_none_or(Value::is_object)
            });
            let call = a
                .get("functionCall")
                .and_then(Value::as_object)
                .is_some_and(|f| f.get("call").is_some_and(Value::is_string));
            event || call
        }),
        Ty::Checks => v.as_array().is_some_and(|list| {
            list.iter().all(|c| {
                c.as_object().is_some_and(|c| match c.get("condition") {
                    Some(cond) => cond.is_boolean() || is_bound(cond),
                    None => c.get("call").is_some_and(Value::is_string),
                })
            })
        }),
        Ty::Tabs => v.as_array().is_some_and(|tabs| {
            !tabs.is_empty()
                && tabs.iter().all(|t| {
                    t.get("title").is_some_and(is_dyn_string)
                        && t.get("child").is_some_and(Value::is_string)
                })
        }),
        Ty::Options => v.as_array().is_some_and(|list| {
            list.iter().all(|o| {
                o.get("label").is_some_and(is_dyn_string)
                    && o.get("value").is_some_and(Value::is_string)
            })
        }),
        Ty::IconName => match v {
            Value::String(s) => ICONS.contains(&s.as_str()),
            Value::Object(m) => match m.get("svgPath") {
                Some(p) => is_dyn_string(p),
                None => m.get("path").is_some_and(Value::is_string),
            },
            _ => false,
        },
    };
    if ok {
        return None;
    }
    Some(match ty {
        Ty::DynString => "a string, a {\"path\"} binding or a {\"call\"}".into(),
        Ty::DynNumber => "a number, a {\"path\"} binding or a {\"call\"}".into(),
        Ty::DynBool => "a boolean, a {\"path\"} binding or a {\"call\"}".into(),
        Ty::DynStringList => "a list of strings, a {\"path\"} binding or a {\"call\"}".into(),
        Ty::Enum(values) => format!("one of {}", values.join(", ")),
        Ty::Number => "a number".into(),
        Ty::Steps => "an integer of at least 1".into(),
        Ty::Bool => "a boolean".into(),
        Ty::Child => "a component id".into(),
        Ty::ChildList => "a list of component ids or {\"componentId\", \"path\"}".into(),
        Ty::Action => "{\"event\": {\"name\"}} or {\"functionCall\": {\"call\"}}".into(),
        Ty::Checks => "a list of {\"condition\", \"message\"} rules".into(),
        Ty::Tabs => "a non-empty list of {\"title\", \"child\"}".into(),
        Ty::Options => "a list of {\"label\", \"value\"} options".into(),
        Ty::IconName => "a catalogue icon name, {\"svgPath\"} or a {\"path\"} binding".into(),
    })
}

/// Checks a component's properties against the basic catalogue's definition of its type
/// (module docs). Types outside the catalogue pass (they render as unsupported).
pub fn validate(type_name: &str, p: &Map<String, Value>) -> Result<(), A2uiError> {
    let Some(props) = definition(type_name) else {
        return Ok(());
    };
    const COMMON: &[(&str, Ty, bool)] = &[("weight", Ty::Number, false)];
    for &(field, ty, required) in COMMON.iter().chain(props) {
        match p.get(field) {
            None if required => {
                return Err(A2uiError::MissingField {
                    message: "component",
                    field,
                })
            }
            None => {}
            Some(v) => {
                if let Some(expected) = mismatch(ty, v) {
                    return Err(A2uiError::BadProperty {
                        field: field.to_string(),
                        expected,
                    });
                }
            }
        }
    }
    for (field, ok) in [
        ("catalogId", p.get("catalogId").is_none_or(Value::is_string)),
        (
            "accessibility",
            p.get("accessibility").is_none_or(Value::is_object),
        ),
    ] {
        if !ok {
            return Err(A2uiError::BadProperty {
                field: field.to_string(),
                expected: if field == "catalogId" {
                    "a string"
                } else {
                    "an object"
                }
                .into(),
            });
        }
    }
    Ok(())
}

fn number_or(p: Props, key: &str, default: f64) -> f64 {
    p.get(key).and_then(Value::as_f64).unwrap_or(default)
}

fn body(type_name: &str, p: Props) -> Result<Component, A2uiError> {
    use Component as C;
    Ok(match type_name {
        "Text" => C::Text {
            text: dynamic(p, "text")?,
            variant: string_opt(p, "variant"),
        },
        "Image" => C::Image {
            url: dynamic(p, "url")?,
            description: dynamic_opt(p, "description"),
            fit: string_opt(p, "fit"),
            variant: string_opt(p, "variant"),
        },
        "Icon" => {
            let name = p.get("name").ok_or(A2uiError::MissingField {
                message: "component",
                field: "name",
            })?;
            let svg = name.as_object().and_then(|o| o.get("svgPath"));
            C::Icon {
                name: match svg {
                    Some(s) => IconName::SvgPath(Dynamic::parse(s)),
                    None => IconName::Named(Dynamic::parse(name)),
                },
            }
        }
        "Video" => C::Video {
            url: dynamic(p, "url")?,
            poster_url: dynamic_opt(p, "posterUrl"),
        },
        "AudioPlayer" => C::AudioPlayer {
            url: dynamic(p, "url")?,
            description: dynamic_opt(p, "description"),
        },
        "Row" => C::Row {
            children: children(p)?,
            justify: string_opt(p, "justify"),
            align: string_opt(p, "align"),
        },
        "Column" => C::Column {
            children: children(p)?,
            justify: string_opt(p, "justify"),
            align: string_opt(p, "align"),
        },
        "List" => C::List {
            children: children(p)?,
            direction: string_opt(p, "direction"),
            align: string_opt(p, "align"),
        },
        "Card" => C::Card {
            child: string(p, "child")?,
        },
        "Tabs" => {
            let list = p
                .get("tabs")
                .and_then(Value::as_array)
                .ok_or(A2uiError::MissingField {
                    message: "component",
                    field: "tabs",
                })?;
            let mut tabs = Vec::with_capacity(list.len());
            for t in list.iter().filter_map(Value::as_object) {
                tabs.push(Tab {
                    title: dynamic(t, "title")?,
                    child: string(t, "child")?,
                });
            }
            C::Tabs { tabs }
        }
        "Modal" => C::Modal {
            trigger: string(p, "trigger")?,
            content: string(p, "content")?,
        },
        "Divider" => C::Divider {
            axis: string_opt(p, "axis"),
        },
        "Button" => C::Button {
            child: string(p, "child")?,
            variant: string_opt(p, "variant"),
            action: action(p)?,
            checks: checks(p),
        },
        "TextField" => C::TextField {
            label: dynamic(p, "label")?,
            value: dynamic_opt(p, "value"),
            placeholder: dynamic_opt(p, "placeholder"),
            variant: string_opt(p, "variant"),
            checks: checks(p),
        },
        "CheckBox" => C::CheckBox {
            label: dynamic(p, "label")?,
            value: dynamic(p, "value")?,
            checks: checks(p),
        },
        "ChoicePicker" => {
            let list =
                p.get("options")
                    .and_then(Value::as_array)
                    .ok_or(A2uiError::MissingField {
                        message: "component",
                        field: "options",
                    })?;
            let mut options = Vec::with_capacity(list.len());
            for o in list.iter().filter_map(Value::as_object) {
                options.push(ChoiceOption {
                    label: dynamic(o, "label")?,
                    value: string(o, "value")?,
                });
            }
            C::ChoicePicker {
                label: dynamic_opt(p, "label"),
                variant: string_opt(p, "variant"),
                options,
                value: dynamic(p, "value")?,
                display_style: string_opt(p, "displayStyle"),
                filterable: p.get("filterable").and_then(Value::as_bool) == Some(true),
                checks: checks(p),
            }
        }
        "Slider" => C::Slider {
            label: dynamic_opt(p, "label"),
            min: number_or(p, "min", 0.0),
            max: p
                .get("max")
                .and_then(Value::as_f64)
                .ok_or(A2uiError::MissingField {
                    message: "component",
                    field: "max",
                })?,
            value: dynamic(p, "value")?,
            steps: p.get("steps").and_then(Value::as_u64).filter(|s| *s >= 1),
            checks: checks(p),
        },
        "DateTimeInput" => C::DateTimeInput {
            value: dynamic(p, "value")?,
            enable_date: p.get("enableDate").and_then(Value::as_bool) == Some(true),
            enable_time: p.get("enableTime").and_then(Value::as_bool) == Some(true),
            min: dynamic_opt(p, "min"),
            max: dynamic_opt(p, "max"),
            label: dynamic_opt(p, "label"),
            checks: checks(p),
        },
        other => C::Unsupported {
            type_name: other.chars().take(80).collect(),
        },
    })
}

/// Parses one entry of a `components` list. `Err` only when there is no usable `id` (the
/// entry cannot even be placed); a bad body becomes [`Component::Invalid`].
pub fn parse(v: &Value) -> Result<ComponentDef, A2uiError> {
    let p = v
        .as_object()
        .ok_or(A2uiError::NotAnObject { what: "component" })?;
    let id = string(p, "id")?;
    let component = match p.get("component") {
        // "Surface" is the reserved container createSurface makes; it cannot be sent.
        Some(Value::String(t)) if t == "Surface" => Component::Invalid {
            type_name: t.clone(),
            error: A2uiError::ReservedComponent,
        },
        Some(Value::String(t)) => {
            validate(t, p)
                .and_then(|()| body(t, p))
                .unwrap_or_else(|error| Component::Invalid {
                    type_name: t.chars().take(80).collect(),
                    error,
                })
        }
        _ => Component::Invalid {
            type_name: String::new(),
            error: A2uiError::MissingField {
                message: "component",
                field: "component",
            },
        },
    };
    let a11y = p.get("accessibility").and_then(Value::as_object);
    Ok(ComponentDef {
        id,
        weight: p.get("weight").and_then(Value::as_f64),
        a11y_label: a11y.and_then(|a| dynamic_opt(a, "label")),
        a11y_description: a11y.and_then(|a| dynamic_opt(a, "description")),
        component,
    })
}
