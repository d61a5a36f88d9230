//! What A2UI refuses, as data: a leaf that the surface model and its parts (components, data,
//! evaluation) all return, and that names none of them. The activity type lives here because
//! the error for any other type names it.

use super::regex::RegexErrorKind;

/// The AG-UI `activityType` of A2UI surface activities.
pub const ACTIVITY_TYPE: &str = "a2ui-surface";

/// What went wrong, as data (tests match variants; words are for people).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum A2uiError {
    #[error("{what} is not a JSON object")]
    NotAnObject { what: &'static str },
    #[error("unknown A2UI message {key:?}")]
    UnknownMessage { key: String },
    #[error("an A2UI message must have exactly one message key, found {count}")]
    MessageKeys { count: usize },
    #[error("{message}: missing {field}")]
    MissingField {
        message: &'static str,
        field: &'static str,
    },
    #[error("{field} must be {expected}")]
    BadProperty { field: String, expected: String },
    #[error("{field} must be {expected}")]
    WrongType {
        field: &'static str,
        expected: &'static str,
    },
    #[error("surface {surface_id:?} already exists")]
    SurfaceExists { surface_id: String },
    #[error("no surface {surface_id:?}")]
    SurfaceNotFound { surface_id: String },
    #[error("more than {limit} surfaces")]
    TooManySurfaces { limit: usize },
    #[error("surface {surface_id:?}: more than {limit} components")]
    TooManyComponents { surface_id: String, limit: usize },
    #[error("more than {limit} operations")]
    TooManyOperations { limit: usize },
    #[error("bad JSON pointer {pointer:?}")]
    BadPointer { pointer: String },
    #[error("the component type \"Surface\" is reserved")]
    ReservedComponent,
    #[error("no component {id:?}")]
    ComponentNotFound { id: String },
    #[error("component {id:?} has no action")]
    NotActionable { id: String },
    #[error("checks failed: {}", messages.join("; "))]
    ChecksFailed { id: String, messages: Vec<String> },
    #[error("unknown function {name:?}")]
    UnknownFunction { name: String },
    #[error("{function}: bad argument {arg}")]
    BadArgument { function: String, arg: &'static str },
    #[error("bad expression in formatString")]
    BadExpression,
    #[error("regex: {kind} at {offset}")]
    BadRegex { offset: usize, kind: RegexErrorKind },
    #[error("component {id:?}: {what}")]
    TreeBudget { id: String, what: &'static str },
    #[error("function calls nested too deep")]
    EvalTooDeep,
    #[error("@index outside a template")]
    IndexOutsideTemplate,
    #[error("refused URL {url:?}")]
    UnsafeUrl { url: String },
    #[error("the agent may not call {call:?} (rendererOnly or unknown)")]
    FunctionCallRejected {
        function_call_id: String,
        call: String,
    },
    #[error("activity type {activity_type:?} is not {ACTIVITY_TYPE:?}")]
    NotA2ui { activity_type: String },
    #[error("activity content has no a2ui_operations")]
    NoOperations,
}
