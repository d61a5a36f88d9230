//! `AgentCapabilities` (spec digest §6): what an agent declares about itself, as the page
//! passes it — the protocol defines no route to discover it, so the chat never fetches one.
//!
//! Rules kept (§6): every group and field is optional and **omitted means undeclared**, never
//! "unsupported" (only an explicit `false` is); unknown members are ignored; a *known* field of
//! the wrong type makes the whole declaration unusable (the chat proceeds as if there were
//! none, and says so); declarations only adapt the UI — a stream that contradicts them is never
//! rejected.
//!
//! What the chat reads: `identity.name` (the title when the page gives none),
//! `multimodal.input` (which attachments the composer offers), `tools.clientProvided` (whether
//! the page's frontend tools are advertised to the agent).

use serde_json::{Map, Value};

/// The declaration, checked. Only the fields the chat uses are kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Capabilities {
    pub name: Option<String>,
    /// `multimodal.input`: image, audio, video, pdf, file (other documents).
    pub input: MediaInput,
    /// `tools.clientProvided`.
    pub client_tools: Option<bool>,
}

/// `multimodal.input` (each `None` = undeclared).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MediaInput {
    pub image: Option<bool>,
    pub audio: Option<bool>,
    pub video: Option<bool>,
    pub pdf: Option<bool>,
    pub file: Option<bool>,
}

/// Why a declaration was not usable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CapabilitiesError {
    #[error("capabilities: not a JSON object")]
    NotAnObject,
    #[error("capabilities: {path} should be {expected}")]
    WrongType {
        path: String,
        expected: &'static str,
    },
}

/// The known fields of each group and their type (§6's table).
const GROUPS: &[(&str, &[(&str, Kind)])] = &[
    (
        "identity",
        &[
            ("name", Kind::Str),
            ("type", Kind::Str),
            ("description", Kind::Str),
            ("version", Kind::Str),
            ("provider", Kind::Str),
            ("documentationUrl", Kind::Str),
            ("metadata", Kind::Object),
        ],
    ),
    (
        "transport",
        &[
            ("streaming", Kind::Bool),
            ("websocket", Kind::Bool),
            ("httpBinary", Kind::Bool),
            ("pushNotifications", Kind::Bool),
            ("resumable", Kind::Bool),
        ],
    ),
    (
        "tools",
        &[
            ("supported", Kind::Bool),
            ("parallelCalls", Kind::Bool),
            ("clientProvided", Kind::Bool),
            ("items", Kind::Array),
        ],
    ),
    (
        "output",
        &[
            ("structuredOutput", Kind::Bool),
            ("supportedMimeTypes", Kind::Array),
        ],
    ),
    (
        "state",
        &[
            ("snapshots", Kind::Bool),
            ("deltas", Kind::Bool),
            ("memory", Kind::Bool),
            ("persistentState", Kind::Bool),
        ],
    ),
    (
        "multiAgent",
        &[
            ("supported", Kind::Bool),
            ("delegation", Kind::Bool),
            ("handoffs", Kind::Bool),
            ("subagents", Kind::Array),
        ],
    ),
    (
        "reasoning",
        &[
            ("supported", Kind::Bool),
            ("streaming", Kind::Bool),
            ("encrypted", Kind::Bool),
        ],
    ),
    (
        "multimodal",
        &[("input", Kind::Object), ("output", Kind::Object)],
    ),
    (
        "execution",
        &[
            ("codeExecution", Kind::Bool),
            ("sandboxed", Kind::Bool),
            ("maxIterations", Kind::Count),
            ("maxExecutionTime", Kind::Count),
        ],
    ),
    (
        "humanInTheLoop",
        &[
            ("supported", Kind::Bool),
            ("approvals", Kind::Bool),
            ("interventions", Kind::Bool),
            ("feedback", Kind::Bool),
            ("interrupts", Kind::Bool),
            ("approveWithEdits", Kind::Bool),
        ],
    ),
    ("custom", &[]),
];

const MEDIA_INPUT: &[&str] = &["image", "audio", "video", "pdf", "file"];
const MEDIA_OUTPUT: &[&str] = &["image", "audio"];

#[derive(Clone, Copy)]
enum Kind {
    Str,
    Bool,
    Object,
    Array,
    /// A non-negative safe integer.
    Count,
}

impl Kind {
    fn matches(self, v: &Value) -> bool {
        match self {
            Kind::Str => v.is_string(),
            Kind::Bool => v.is_boolean(),
            Kind::Object => v.is_object(),
            Kind::Array => v.is_array(),
            Kind::Count => v.as_u64().is_some_and(|n| n <= 9_007_199_254_740_991),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Str => "a string",
            Kind::Bool => "true or false",
            Kind::Object => "an object",
            Kind::Array => "an array",
            Kind::Count => "a non-negative integer",
        }
    }
}

fn object<'a>(v: &'a Value, path: &str) -> Result<&'a Map<String, Value>, CapabilitiesError> {
    v.as_object().ok_or_else(|| CapabilitiesError::WrongType {
        path: path.to_owned(),
        expected: "an object",
    })
}

/// Every known flag of `map` (at `path`) is a boolean.
fn flags(map: &Map<String, Value>, path: &str, known: &[&str]) -> Result<(), CapabilitiesError> {
    for key in known {
        if map.get(*key).is_some_and(|v| !v.is_boolean()) {
            return Err(CapabilitiesError::WrongType {
                path: format!("{path}.{key}"),
                expected: "true or false",
            });
        }
    }
    Ok(())
}

impl Capabilities {
    /// Check a declaration (§6's types; unknown members ignored).
    pub fn parse(value: &Value) -> Result<Capabilities, CapabilitiesError> {
        let root = value.as_object().ok_or(CapabilitiesError::NotAnObject)?;
        for (group, fields) in GROUPS {
            let Some(g) = root.get(*group) else {
                continue;
            };
            let g = object(g, group)?;
            for (field, kind) in *fields {
                if let Some(v) = g.get(*field).filter(|v| !kind.matches(v)) {
                    let _ = v;
                    return Err(CapabilitiesError::WrongType {
                        path: format!("{group}.{field}"),
                        expected: kind.name(),
                    });
                }
            }
        }
        let group = |name: &str| root.get(name).and_then(Value::as_object);
        let multimodal = group("multimodal");
        let input = multimodal.and_then(|m| m.get("input"));
        if let Some(input) = input {
            flags(
                object(input, "multimodal.input")?,
                "multimodal.input",
                MEDIA_INPUT,
            )?;
        }
        if let Some(output) = multimodal.and_then(|m| m.get("output")) {
            flags(
                object(output, "multimodal.output")?,
                "multimodal.output",
                MEDIA_OUTPUT,
            )?;
        }
        let flag = |k: &str| input.and_then(|i| i.get(k)).and_then(Value::as_bool);
        Ok(Capabilities {
            name: group("identity")
                .and_then(|i| i.get("name"))
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(|n| n.chars().take(80).collect()),
            input: MediaInput {
                image: flag("image"),
                audio: flag("audio"),
                video: flag("video"),
                pdf: flag("pdf"),
                file: flag("file"),
            },
            client_tools: group("tools")
                .and_then(|t| t.get("clientProvided"))
                .and_then(Value::as_bool),
        })
    }
}

impl MediaInput {
    /// Whether the agent declared anything about media input.
    pub fn declared(&self) -> bool {
        [self.image, self.audio, self.video, self.pdf, self.file]
            .iter()
            .any(Option::is_some)
    }
}
