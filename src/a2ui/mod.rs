//! A2UI surfaces carried in AG-UI activity messages: the pure model (no browser code; the
//! Leptos view renders [`Node`] trees and calls back into [`Surfaces`]).
//!
//! # What this implements
//!
//! * **A2UI v1.0** (`a2ui-project/a2ui`, `specification/v1_0/docs/a2ui_protocol.md`, JSON
//!   schemas `specification/v1_0/json/common_types.json`, `renderer_to_agent.json`, and
//!   the basic catalogue `specification/v1_0/catalogs/basic/catalog.json`). Agent→renderer
//!   messages are objects with exactly one of `createSurface` (v1.0 may carry `components`
//!   and `dataModel` inline), `updateComponents`, `updateDataModel`, `deleteSurface`,
//!   `callRendererFunction`, `agentFunctionResponse`, plus an optional `version`
//!   (`"v1.0"`; v0.9 messages share the shape and are accepted). v0.8 messages
//!   (`surfaceUpdate`, `beginRendering`) are refused as unknown.
//! * **The AG-UI binding** — the convention of `@ag-ui/a2ui-middleware`
//!   (`ag-ui-protocol/ag-ui`, `middlewares/a2ui-middleware/src/index.ts` and `types.ts`;
//!   the A2UI spec itself only names AG-UI as "the standard transport binding"): A2UI rides
//!   in `ACTIVITY_SNAPSHOT` events (spec digest §2.3, §4.8) with `activityType:
//!   "a2ui-surface"` ([`ACTIVITY_TYPE`]) and `content: {"a2ui_operations": [message, …]}`
//!   (older middleware releases used the key `operations`; both are read). Each snapshot is
//!   cumulative and self-sufficient (`replace: true`, createSurface + updateComponents +
//!   updateDataModel so far); before the surface paints, the same message id carries a
//!   lifecycle `content: {"status": "building" | "retrying" | "failed", …}` ([`Lifecycle`]).
//!   `ACTIVITY_DELTA` patches that content; the store hands the patched content to
//!   [`Surfaces::sync`] again, which applies only the new operations when the list grew
//!   and rebuilds otherwise.
//! * **User actions go back in the next run's `forwardedProps`**: the client starts a new
//!   run with `forwardedProps: {"a2uiAction": {"userAction": {name, surfaceId,
//!   sourceComponentId, timestamp, context}}}`; the middleware turns it into a synthetic
//!   assistant tool call `log_a2ui_event` (arguments = the userAction JSON) plus its tool
//!   result (`User performed action "…" on surface "…" (component: …). Context: {…}`), so
//!   the agent sees the click as the latest turn. [`Surface::action`] builds that object
//!   ([`AgentAction`]); the A2UI-native envelope (`{"version": "v1.0", "action": {…}}`)
//!   is included for transports that want it. When the surface asked for `sendDataModel`,
//!   the data model goes with it as `a2uiRendererDataModel` (`{"version": "v1.0",
//!   "surfaces": {id: model}}`) — the binding does not fix where; we put it next to
//!   `a2uiAction` in `forwardedProps`.
//!
//! * **Renderer→agent messages** ([`Surfaces::take_outbox`]): `VALIDATION_FAILED` for each
//!   component that breaks the catalogue's rules ([`component::validate`]) and each message
//!   that fails on a named surface, `INVALID_FUNCTION_CALL` for a `callRendererFunction`. A
//!   Button's `functionCall` to a function this renderer lacks ([`eval::is_agent_function`])
//!   becomes a `callAgentFunction` ([`ActionPayload::CallAgent`]); `agentFunctionResponse`s
//!   are read ([`Surfaces::take_responses`]). The binding has no channel back but the next
//!   run: the session sends these with the next run a person starts, in `forwardedProps` as
//!   `a2uiMessages` (`crate::session::a2ui_out`).
//!
//! # Budgets (agent data controls all of these)
//!
//! [`MAX_SURFACES`] per activity, [`MAX_COMPONENTS`] per surface, [`MAX_OPERATIONS`] per
//! activity content, [`data::MAX_POINTER_SEGMENTS`], tree depth and size
//! ([`tree::MAX_DEPTH`], [`tree::MAX_TREE_NODES`]), function nesting
//! ([`eval::MAX_EVAL_DEPTH`]), and the regex engine's limits ([`regex`]). Malformed input
//! is an [`A2uiError`] value, never a panic; a bad component becomes a placeholder and the
//! rest of the surface still renders.

pub mod component;
pub mod data;
pub mod error;
pub mod eval;
pub mod regex;
pub mod tree;

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

pub use component::{Action, Children, Component, ComponentDef, Dynamic, FunctionCall};
pub use data::Scope;
pub use error::{A2uiError, ACTIVITY_TYPE};
pub use eval::{Ctx, Intent};
pub use regex::RegexErrorKind;
pub use tree::{Node, NodeKind};

pub const MAX_SURFACES: usize = 32;
pub const MAX_COMPONENTS: usize = 2_000;
pub const MAX_OPERATIONS: usize = 1_000;
/// Per-message problems kept by [`Surfaces::sync`].
pub const MAX_PROBLEMS: usize = 32;

/// One surface: its components by id, its data model, and what createSurface set.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Surface {
    pub id: String,
    pub catalog_id: Option<String>,
    /// `sendDataModel`: the data model goes to the agent with every action.
    pub send_data_model: bool,
    pub components: BTreeMap<String, ComponentDef>,
    pub data: Value,
}

/// The pre-paint state the middleware puts on the activity (`content.status`).
#[derive(Debug, Clone, PartialEq)]
pub enum Lifecycle {
    Building {
        progress_tokens: Option<u64>,
    },
    Retrying {
        attempt: Option<u64>,
        max_attempts: Option<u64>,
    },
    Failed {
        error: String,
    },
}

/// An action's result for the agent: the JSON to send and how (module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct AgentAction {
    /// `{name, surfaceId, sourceComponentId, timestamp, context}` (+ `wantResponse`).
    pub user_action: Value,
    /// Merge into the next run's `RunAgentInput.forwardedProps`:
    /// `{"a2uiAction": {"userAction": …}}` (+ `a2uiRendererDataModel` when asked for).
    pub forwarded_props: Value,
    /// The A2UI v1.0 renderer→agent message: `{"version": "v1.0", "action": {…}}`.
    pub envelope: Value,
}

/// A `callAgentFunction` a Button's `functionCall` asks for (a function this renderer does
/// not have: [`eval::is_agent_function`]).
#[derive(Debug, Clone, PartialEq)]
pub struct AgentCall {
    /// The id the agent's `agentFunctionResponse` must carry.
    pub function_call_id: String,
    pub call: String,
    /// Merge into the next run's `forwardedProps`: `{"a2uiMessages": [envelope]}` (+
    /// `a2uiRendererDataModel` when asked for).
    pub forwarded_props: Value,
    /// `{"version": "v1.0", "callAgentFunction": {surfaceId, functionCallId, callFunction}}`.
    pub envelope: Value,
}

/// The agent's answer to a `callAgentFunction` (`agentFunctionResponse`).
#[derive(Debug, Clone, PartialEq)]
pub struct AgentFunctionResponse {
    pub function_call_id: String,
    /// `value`, or `error` as `(code, message)` (cut to 200 characters each).
    pub result: Result<Value, (String, String)>,
}

/// At most this many bytes of resolved arguments go in one `callAgentFunction`.
pub const MAX_CALL_ARGS_BYTES: usize = 2 * 1024;

/// What pressing an actionable component does.
#[derive(Debug, Clone, PartialEq)]
pub enum ActionPayload {
    /// Start a new run carrying [`AgentAction::forwarded_props`].
    Agent(AgentAction),
    /// Start a new run carrying [`AgentCall::forwarded_props`].
    CallAgent(AgentCall),
    /// Do something locally (`openUrl`): nothing goes to the agent.
    Local(Intent),
}

fn obj<'a>(v: &'a Value, what: &'static str) -> Result<&'a Map<String, Value>, A2uiError> {
    v.as_object().ok_or(A2uiError::NotAnObject { what })
}

fn req_str(
    m: &Map<String, Value>,
    message: &'static str,
    field: &'static str,
) -> Result<String, A2uiError> {
    match m.get(field) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(A2uiError::WrongType {
            field,
            expected: "string",
        }),
        None => Err(A2uiError::MissingField { message, field }),
    }
}

impl Surface {
    fn new(id: String) -> Surface {
        Surface {
            id,
            data: Value::Object(Map::new()),
            ..Surface::default()
        }
    }

    /// Whether the `"root"` component has arrived (until then nothing is visible).
    pub fn has_root(&self) -> bool {
        self.components.contains_key("root")
    }

    /// Adds or replaces components. Entries without a usable id are skipped; entries past
    /// [`MAX_COMPONENTS`] are dropped and reported (the rest are kept). Each entry that breaks
    /// the catalogue's rules (kept as an invalid placeholder) or has no id adds a
    /// `VALIDATION_FAILED` to `reports` (path `/components/{index}/{property}`).
    fn upsert(&mut self, list: &[Value], reports: &mut Vec<Value>) -> Result<(), A2uiError> {
        let mut over = false;
        for (i, c) in list.iter().enumerate() {
            let def = match component::parse(c) {
                Ok(def) => def,
                Err(e) => {
                    report(reports, &self.id, &format!("/components/{i}/id"), &e);
                    continue;
                }
            };
            if let Component::Invalid { error, .. } = &def.component {
                let field = error_field(error).unwrap_or("component");
                report(
                    reports,
                    &self.id,
                    &format!("/components/{i}/{field}"),
                    error,
                );
            }
            if !self.components.contains_key(&def.id) && self.components.len() >= MAX_COMPONENTS {
                over = true;
                continue;
            }
            self.components.insert(def.id.clone(), def);
        }
        if over {
            return Err(A2uiError::TooManyComponents {
                surface_id: self.id.clone(),
                limit: MAX_COMPONENTS,
            });
        }
        Ok(())
    }

    /// The render tree from `"root"` ([`NodeKind::Missing`] until root arrives).
    pub fn tree(&self) -> Node {
        let mut b = tree::Builder {
            components: &self.components,
            data: &self.data,
            nodes: 0,
            path: Vec::new(),
        };
        b.node("root", &Scope::root())
    }

    /// The `VALIDATION_FAILED` reports of what the tree budgets cut in `tree` (this
    /// surface's [`Surface::tree`]): `path` `/components`, the message names the component.
    pub fn budget_reports(&self, tree: &Node) -> Vec<Value> {
        let mut reports = Vec::new();
        for (id, what) in tree.budget_problems() {
            let e = A2uiError::TreeBudget { id, what };
            report(&mut reports, &self.id, "/components", &e);
        }
        reports
    }

    /// Two-way binding: the person changed an input bound to `path` (absolute, as in the
    /// node's `bind`).
    pub fn set_value(&mut self, path: &str, value: Value) -> Result<(), A2uiError> {
        data::set(&mut self.data, path, value)
    }

    /// Evaluates a dynamic value in a scope (for UI code that needs one value).
    pub fn eval(&self, d: &Dynamic, scope: &Scope) -> Result<Value, A2uiError> {
        Ctx::new(&self.data, scope).eval(d)
    }

    /// [`Surface::action_at`] in the root scope.
    pub fn action(&self, component_id: &str, timestamp: &str) -> Result<ActionPayload, A2uiError> {
        self.action_at(component_id, &Scope::root(), timestamp)
    }

    /// What pressing `component_id` (a Button; in a template, pass its node's `scope`) does:
    /// its checks must pass, then an `event` resolves its `context` against the data model
    /// and becomes the `userAction` the binding sends; a `functionCall` becomes a local
    /// [`Intent`]. `timestamp` is ISO 8601 (the model has no clock).
    pub fn action_at(
        &self,
        component_id: &str,
        scope: &Scope,
        timestamp: &str,
    ) -> Result<ActionPayload, A2uiError> {
        let def =
            self.components
                .get(component_id)
                .ok_or_else(|| A2uiError::ComponentNotFound {
                    id: component_id.to_string(),
                })?;
        let Component::Button { action, checks, .. } = &def.component else {
            return Err(A2uiError::NotActionable {
                id: component_id.to_string(),
            });
        };
        let ctx = Ctx::new(&self.data, scope);
        let messages = tree::failed_checks(&ctx, checks, None);
        if !messages.is_empty() {
            return Err(A2uiError::ChecksFailed {
                id: component_id.to_string(),
                messages,
            });
        }
        let (name, context, want_response) = match action {
            Action::Local(f) if eval::is_agent_function(&f.call) => {
                return self.agent_call(&ctx, f, component_id, timestamp)
            }
            Action::Local(f) => return ctx.intent(f).map(ActionPayload::Local),
            Action::Event {
                name,
                context,
                want_response,
            } => (name, context, *want_response),
        };
        let resolved: Map<String, Value> = context
            .iter()
            .map(|(k, v)| {
                (
                    k.clone(),
                    ctx.eval(&Dynamic::parse(v)).unwrap_or(Value::Null),
                )
            })
            .collect();
        let mut user_action = json!({
            "name": name,
            "surfaceId": self.id,
            "sourceComponentId": component_id,
            "timestamp": timestamp,
            "context": resolved,
        });
        if want_response {
            if let Some(m) = user_action.as_object_mut() {
                m.insert("wantResponse".into(), Value::Bool(true));
            }
        }
        let mut forwarded_props = json!({ "a2uiAction": { "userAction": user_action } });
        self.attach_data_model(&mut forwarded_props);
        let envelope = json!({ "version": "v1.0", "action": user_action });
        Ok(ActionPayload::Agent(AgentAction {
            user_action,
            forwarded_props,
            envelope,
        }))
    }
}

impl Surface {
    /// `sendDataModel`: the data model goes along as `a2uiRendererDataModel`.
    fn attach_data_model(&self, forwarded_props: &mut Value) {
        if !self.send_data_model {
            return;
        }
        if let Some(m) = forwarded_props.as_object_mut() {
            m.insert(
                "a2uiRendererDataModel".into(),
                json!({ "version": "v1.0", "surfaces": { self.id.clone(): self.data } }),
            );
        }
    }

    /// The `callAgentFunction` of a Button's `functionCall` to an agent function: its
    /// arguments resolved against the data model (at most [`MAX_CALL_ARGS_BYTES`]), the
    /// call's `catalogId` or else the surface's (left out when neither is known, as in the
    /// protocol's example). The id is the component's and the timestamp (one press each).
    fn agent_call(
        &self,
        ctx: &Ctx,
        f: &FunctionCall,
        component_id: &str,
        timestamp: &str,
    ) -> Result<ActionPayload, A2uiError> {
        let args: Map<String, Value> = f
            .args
            .iter()
            .map(|(k, v)| {
                (
                    k.clone(),
                    ctx.eval(&Dynamic::parse(v)).unwrap_or(Value::Null),
                )
            })
            .collect();
        let mut call_function = json!({ "call": f.call, "args": args });
        if call_function.to_string().len() > MAX_CALL_ARGS_BYTES {
            return Err(A2uiError::BadArgument {
                function: f.call.clone(),
                arg: "args (too large)",
            });
        }
        if let (Some(m), Some(c)) = (
            call_function.as_object_mut(),
            f.catalog_id.as_ref().or(self.catalog_id.as_ref()),
        ) {
            m.insert(
                "catalogId".into(),
                Value::String(c.chars().take(200).collect()),
            );
        }
        let function_call_id = format!(
            "{}@{}",
            component_id.chars().take(64).collect::<String>(),
            timestamp
        );
        let envelope = json!({ "version": "v1.0", "callAgentFunction": {
            "surfaceId": self.id,
            "functionCallId": function_call_id,
            "callFunction": call_function,
        }});
        let mut forwarded_props = json!({ "a2uiMessages": [envelope] });
        self.attach_data_model(&mut forwarded_props);
        Ok(ActionPayload::CallAgent(AgentCall {
            function_call_id,
            call: f.call.clone(),
            forwarded_props,
            envelope,
        }))
    }
}

/// All surfaces of one activity message, and the state of its operation stream.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Surfaces {
    surfaces: BTreeMap<String, Surface>,
    /// The operations applied so far (to tell a grown list from a replaced one).
    applied: Vec<Value>,
    lifecycle: Option<Lifecycle>,
    /// `agentFunctionResponse`s received, until taken (at most [`MAX_PROBLEMS`]).
    responses: Vec<AgentFunctionResponse>,
    /// Messages owed to the agent: `error`s (`INVALID_FUNCTION_CALL` for a refused
    /// `callRendererFunction`, `VALIDATION_FAILED`), at most [`MAX_PROBLEMS`] until taken.
    outbox: Vec<Value>,
}

impl Surfaces {
    pub fn new() -> Surfaces {
        Surfaces::default()
    }

    /// Restores the model from a saved activity content (a reload or thread switch).
    pub fn from_content(content: &Value) -> (Surfaces, Vec<A2uiError>) {
        let mut s = Surfaces::new();
        let problems = match s.sync(content) {
            Ok(p) => p,
            Err(e) => vec![e],
        };
        (s, problems)
    }

    pub fn get(&self, surface_id: &str) -> Option<&Surface> {
        self.surfaces.get(surface_id)
    }

    pub fn get_mut(&mut self, surface_id: &str) -> Option<&mut Surface> {
        self.surfaces.get_mut(surface_id)
    }

    /// Surfaces in id order.
    pub fn iter(&self) -> impl Iterator<Item = &Surface> {
        self.surfaces.values()
    }

    pub fn lifecycle(&self) -> Option<&Lifecycle> {
        self.lifecycle.as_ref()
    }

    /// Takes the replies owed to the agent (A2UI renderer→agent messages).
    pub fn take_outbox(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.outbox)
    }

    /// Takes the agent's answers to `callAgentFunction`s (match them against the calls sent:
    /// an answer to no call means nothing).
    pub fn take_responses(&mut self) -> Vec<AgentFunctionResponse> {
        std::mem::take(&mut self.responses)
    }

    /// Two-way binding on one surface.
    pub fn set_value(
        &mut self,
        surface_id: &str,
        path: &str,
        value: Value,
    ) -> Result<(), A2uiError> {
        self.surfaces
            .get_mut(surface_id)
            .ok_or_else(|| A2uiError::SurfaceNotFound {
                surface_id: surface_id.to_string(),
            })?
            .set_value(path, value)
    }

    /// Checks the activity type of an `ACTIVITY_SNAPSHOT`/`DELTA` and syncs its content.
    pub fn sync_activity(
        &mut self,
        activity_type: &str,
        content: &Value,
    ) -> Result<Vec<A2uiError>, A2uiError> {
        if activity_type != ACTIVITY_TYPE {
            return Err(A2uiError::NotA2ui {
                activity_type: activity_type.chars().take(80).collect(),
            });
        }
        self.sync(content)
    }

    /// Brings the model up to date with an activity's (whole, current) content. When the
    /// operation list extends what was applied, only the new operations run (local input
    /// survives); otherwise the model is rebuilt. Returns the problems of single operations
    /// (at most [`MAX_PROBLEMS`]); `Err` when the content itself is unusable.
    pub fn sync(&mut self, content: &Value) -> Result<Vec<A2uiError>, A2uiError> {
        self.sync_object(obj(content, "activity content")?)
    }

    /// [`Surfaces::sync`] from the content object in place (the card reads the activity
    /// message where the session keeps it): only the operations not applied yet are copied.
    pub fn sync_object(&mut self, c: &Map<String, Value>) -> Result<Vec<A2uiError>, A2uiError> {
        let ops = match c.get("a2ui_operations").or_else(|| c.get("operations")) {
            Some(Value::Array(ops)) => ops,
            Some(_) => {
                return Err(A2uiError::WrongType {
                    field: "a2ui_operations",
                    expected: "array",
                })
            }
            None => {
                self.lifecycle = Some(lifecycle(c).ok_or(A2uiError::NoOperations)?);
                return Ok(Vec::new());
            }
        };
        if ops.len() > MAX_OPERATIONS {
            return Err(A2uiError::TooManyOperations {
                limit: MAX_OPERATIONS,
            });
        }
        self.lifecycle = None;
        let grown = ops.len() >= self.applied.len()
            && ops.get(..self.applied.len()) == Some(self.applied.as_slice());
        if !grown {
            self.surfaces.clear();
            self.applied.clear();
        }
        let new = ops.get(self.applied.len()..).unwrap_or_default();
        let mut problems = Vec::new();
        for op in new {
            if let Err(e) = self.apply(op) {
                if problems.len() < MAX_PROBLEMS {
                    problems.push(e);
                }
            }
        }
        self.applied.extend_from_slice(new);
        Ok(problems)
    }

    /// Applies one A2UI message. On `Err` nothing changed, except for `updateComponents`
    /// past the component budget (the components that fit are kept). A failure on a named
    /// surface (and each invalid component) is owed to the agent as `VALIDATION_FAILED`
    /// ([`Surfaces::take_outbox`]); one without a surface id cannot be (the schema requires
    /// it) and is only returned.
    pub fn apply(&mut self, msg: &Value) -> Result<(), A2uiError> {
        let result = self.apply_message(msg);
        if let Err(e) = &result {
            let body = msg
                .as_object()
                .and_then(|m| m.iter().find(|(k, _)| k.as_str() != "version"))
                .map(|(_, b)| b);
            let surface_id = body
                .and_then(|b| b.get("surfaceId"))
                .and_then(Value::as_str);
            let path = match e {
                A2uiError::SurfaceExists { .. }
                | A2uiError::SurfaceNotFound { .. }
                | A2uiError::TooManySurfaces { .. } => "/surfaceId".to_owned(),
                A2uiError::TooManyComponents { .. } => "/components".to_owned(),
                A2uiError::BadPointer { .. } => "/path".to_owned(),
                other => error_field(other).map_or(String::new(), |f| format!("/{f}")),
            };
            // A refused callRendererFunction has its own INVALID_FUNCTION_CALL reply.
            if let (Some(id), false) = (
                surface_id,
                matches!(e, A2uiError::FunctionCallRejected { .. }),
            ) {
                report(&mut self.outbox, id, &path, e);
            }
        }
        result
    }

    fn apply_message(&mut self, msg: &Value) -> Result<(), A2uiError> {
        let m = obj(msg, "A2UI message")?;
        let mut keys = m.iter().filter(|(k, _)| k.as_str() != "version");
        let (Some((key, body)), None) = (keys.next(), keys.next()) else {
            return Err(A2uiError::MessageKeys {
                count: m.keys().filter(|k| *k != "version").count(),
            });
        };
        match key.as_str() {
            "createSurface" => self.create(obj(body, "createSurface")?),
            "updateComponents" => {
                let b = obj(body, "updateComponents")?;
                let id = req_str(b, "updateComponents", "surfaceId")?;
                let list = b.get("components").and_then(Value::as_array).ok_or(
                    A2uiError::MissingField {
                        message: "updateComponents",
                        field: "components",
                    },
                )?;
                let surface = self
                    .surfaces
                    .get_mut(&id)
                    .ok_or(A2uiError::SurfaceNotFound { surface_id: id })?;
                surface.upsert(list, &mut self.outbox)
            }
            "updateDataModel" => {
                let b = obj(body, "updateDataModel")?;
                let id = req_str(b, "updateDataModel", "surfaceId")?;
                let path = match b.get("path") {
                    None => "/",
                    Some(Value::String(p)) => p.as_str(),
                    Some(_) => {
                        return Err(A2uiError::WrongType {
                            field: "path",
                            expected: "string",
                        })
                    }
                };
                // An omitted value deletes, like an explicit null (v0.9 wording).
                let value = b.get("value").cloned().unwrap_or(Value::Null);
                self.surface(&id)?.set_value(path, value)
            }
            "deleteSurface" => {
                let id = req_str(obj(body, "deleteSurface")?, "deleteSurface", "surfaceId")?;
                self.surfaces
                    .remove(&id)
                    .map(|_| ())
                    .ok_or(A2uiError::SurfaceNotFound { surface_id: id })
            }
            "callRendererFunction" => {
                // Every basic-catalogue function is rendererOnly (the default): the renderer
                // MUST answer an agent's call with INVALID_FUNCTION_CALL.
                let b = obj(body, "callRendererFunction")?;
                let function_call_id = req_str(b, "callRendererFunction", "functionCallId")?;
                let call = b
                    .get("callFunction")
                    .and_then(|f| f.get("call"))
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                if self.outbox.len() < MAX_PROBLEMS {
                    self.outbox.push(json!({
                        "version": "v1.0",
                        "error": {
                            "code": "INVALID_FUNCTION_CALL",
                            "message": format!("Function '{call}' cannot be invoked by the agent."),
                            "functionCallId": function_call_id,
                        }
                    }));
                }
                Err(A2uiError::FunctionCallRejected {
                    function_call_id,
                    call,
                })
            }
            "agentFunctionResponse" => {
                let response = agent_function_response(obj(body, "agentFunctionResponse")?)?;
                if self.responses.len() < MAX_PROBLEMS {
                    self.responses.push(response);
                }
                Ok(())
            }
            other => Err(A2uiError::UnknownMessage {
                key: other.chars().take(80).collect(),
            }),
        }
    }

    fn surface(&mut self, id: &str) -> Result<&mut Surface, A2uiError> {
        self.surfaces
            .get_mut(id)
            .ok_or_else(|| A2uiError::SurfaceNotFound {
                surface_id: id.to_string(),
            })
    }

    fn create(&mut self, b: &Map<String, Value>) -> Result<(), A2uiError> {
        let id = req_str(b, "createSurface", "surfaceId")?;
        if self.surfaces.contains_key(&id) {
            return Err(A2uiError::SurfaceExists { surface_id: id });
        }
        if self.surfaces.len() >= MAX_SURFACES {
            return Err(A2uiError::TooManySurfaces {
                limit: MAX_SURFACES,
            });
        }
        let mut s = Surface::new(id.clone());
        s.catalog_id = b
            .get("catalogId")
            .and_then(Value::as_str)
            .map(str::to_string);
        s.send_data_model = [b.get("sendDataModel"), b.get("attachDataModel")]
            .iter()
            .any(|v| v.and_then(Value::as_bool) == Some(true));
        if let Some(model) = b.get("dataModel") {
            if !model.is_object() {
                return Err(A2uiError::WrongType {
                    field: "dataModel",
                    expected: "object",
                });
            }
            s.data = model.clone();
        }
        let over = match b.get("components") {
            Some(Value::Array(list)) => s.upsert(list, &mut self.outbox),
            Some(_) => {
                return Err(A2uiError::WrongType {
                    field: "components",
                    expected: "array",
                })
            }
            None => Ok(()),
        };
        self.surfaces.insert(id, s);
        over
    }
}

/// `agentFunctionResponse`: `functionCallId` and exactly one of `value` or `error` (`{code,
/// message}`).
fn agent_function_response(b: &Map<String, Value>) -> Result<AgentFunctionResponse, A2uiError> {
    const M: &str = "agentFunctionResponse";
    let function_call_id = req_str(b, M, "functionCallId")?;
    let cut = |s: String| s.chars().take(200).collect::<String>();
    let result = match (b.get("value"), b.get("error")) {
        (Some(v), None) => Ok(v.clone()),
        (None, Some(Value::Object(e))) => {
            Err((cut(req_str(e, M, "code")?), cut(req_str(e, M, "message")?)))
        }
        (None, Some(_)) => {
            return Err(A2uiError::WrongType {
                field: "error",
                expected: "object",
            })
        }
        _ => {
            return Err(A2uiError::WrongType {
                field: "value",
                expected: "given, or else error (one of them)",
            })
        }
    };
    Ok(AgentFunctionResponse {
        function_call_id,
        result,
    })
}

/// The property an error is about, when it names one.
fn error_field(e: &A2uiError) -> Option<&str> {
    match e {
        A2uiError::MissingField { field, .. } | A2uiError::WrongType { field, .. } => Some(field),
        A2uiError::BadProperty { field, .. } => Some(field),
        A2uiError::ReservedComponent => Some("component"),
        _ => None,
    }
}

/// Adds the A2UI v1.0 `VALIDATION_FAILED` error (`renderer_to_agent.json`: `code`,
/// `surfaceId`, `path` — a JSON pointer into the failed message's body — and `message`) to
/// `reports`, at most [`MAX_PROBLEMS`]; agent-controlled text is cut to 200 characters.
fn report(reports: &mut Vec<Value>, surface_id: &str, path: &str, e: &A2uiError) {
    if reports.len() >= MAX_PROBLEMS {
        return;
    }
    let cut = |s: &str| s.chars().take(200).collect::<String>();
    reports.push(json!({
        "version": "v1.0",
        "error": {
            "code": "VALIDATION_FAILED",
            "surfaceId": cut(surface_id),
            "path": cut(path),
            "message": cut(&e.to_string()),
        }
    }));
}

fn lifecycle(c: &Map<String, Value>) -> Option<Lifecycle> {
    let n = |k: &str| c.get(k).and_then(Value::as_u64);
    Some(match c.get("status")?.as_str()? {
        "building" => Lifecycle::Building {
            progress_tokens: n("progressTokens"),
        },
        "retrying" => Lifecycle::Retrying {
            attempt: n("attempt"),
            max_attempts: n("maxAttempts"),
        },
        "failed" => Lifecycle::Failed {
            error: c
                .get("error")
                .and_then(Value::as_str)
                .unwrap_or("")
                .chars()
                .take(500)
                .collect(),
        },
        _ => return None,
    })
}
