//! Frontend tools (spec digest §4.12): tools the **browser** executes. Each has an AG-UI
//! definition (name, description, JSON Schema `parameters`) that goes out in
//! `RunAgentInput.tools`, and either
//! - a **component**: UI in the tool card, where the person answers (e.g. `confirm_payment`), or
//! - an async **handler**: code that runs in the browser and returns a result.
//!
//! The registry starts empty: a chat advertises exactly the tools its page registered
//! ([`crate::plugins::Plugins::frontend_tool`], [`crate::plugins::Plugins::frontend_handler`]).
//!
//! **When they act.** Only once the run has finished with the call pending (its
//! `TOOL_CALL_END` seen, no `TOOL_CALL_RESULT`, listed in `pendingToolCallIds` or derived):
//! never on streaming arguments. For handlers this is later than `TOOL_CALL_END` on purpose:
//! a producer must end the run promptly after calling a frontend tool and the result can only
//! travel in the next run anyway, so nothing is gained by starting earlier — while a run that
//! then fails or is stopped would have had its side effect already. Each call is claimed once
//! ([`AgentStore::claim_tool_call`]), whatever re-renders.
//!
//! **Answers.** A component calls [`FrontendToolCall::respond`]; a handler's `Ok(value)` /
//! `Err(message)` is recorded the same way ([`AgentStore::answer_tool_call`]): a `tool`
//! message for the call, JSON text for values, `error` set for failures. When every pending
//! call of the run is answered, the next run starts by itself — at most
//! [`crate::session::hitl::MAX_AUTO_RUNS`] in a row by handlers alone; then the chat asks the
//! person to continue ([`HeldRunBanner`]). Replayed traces never run handlers. A handler's result that
//! arrives after the person moved on (sending a message closes pending calls as "cancelled by
//! user") is dropped.
//!
//! Names match exactly: the agent must call a tool by the name it was given.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use leptos::prelude::*;
use serde_json::Value;

use crate::protocol::types::Tool;
use crate::store::AgentStore;
use crate::store::HitlError;

/// What a handler returns: the result value, or an error message for the agent.
pub type ToolFuture = Pin<Box<dyn Future<Output = Result<Value, String>>>>;
/// An async handler: parsed arguments in, result out.
pub type ToolHandler = Arc<dyn Fn(Value) -> ToolFuture + Send + Sync>;
/// A component: renders the card body while the call waits for the person.
pub type ToolComponent = Arc<dyn Fn(FrontendToolCall) -> AnyView + Send + Sync>;

/// How a frontend tool answers.
#[derive(Clone)]
pub enum FrontendToolKind {
    Component(ToolComponent),
    Handler(ToolHandler),
}

/// One frontend tool: its advertised definition and how it answers.
#[derive(Clone)]
pub struct FrontendTool {
    pub definition: Tool,
    pub kind: FrontendToolKind,
}

/// A call waiting for a component's answer.
#[derive(Clone)]
pub struct FrontendToolCall {
    pub tool_call_id: String,
    pub name: String,
    /// The call's parsed arguments (untrusted: validate before use).
    pub args: Value,
    pub(crate) store: AgentStore,
}

impl FrontendToolCall {
    /// Answer the call: `Ok(value)` becomes the tool message (JSON text unless a string),
    /// `Err(message)` a failed result.
    pub fn respond(&self, result: Result<Value, String>) -> Result<(), HitlError> {
        self.store.answer_tool_call(&self.tool_call_id, result)
    }
}

/// The registry of frontend tools, in registration order. Cheap to clone.
#[derive(Clone, Default)]
pub struct FrontendTools {
    tools: Arc<Vec<FrontendTool>>,
}

impl std::fmt::Debug for FrontendTools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FrontendTools")
            .field("tools", &self.names())
            .finish()
    }
}

impl FrontendTools {
    /// No frontend tools.
    pub fn empty() -> Self {
        Self::default()
    }

    fn insert(&mut self, tool: FrontendTool) -> &mut Self {
        let list = Arc::make_mut(&mut self.tools);
        list.retain(|t| t.definition.name != tool.definition.name);
        list.push(tool);
        self
    }

    /// Register (or replace) a tool the person answers through `render` in its card.
    pub fn register_component(
        &mut self,
        tool: Tool,
        render: impl Fn(FrontendToolCall) -> AnyView + Send + Sync + 'static,
    ) -> &mut Self {
        self.insert(FrontendTool {
            definition: tool,
            kind: FrontendToolKind::Component(Arc::new(render)),
        })
    }

    /// Register (or replace) a tool answered by an async `handler` in the browser.
    pub fn register_handler<F, Fut>(&mut self, tool: Tool, handler: F) -> &mut Self
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, String>> + 'static,
    {
        let handler: ToolHandler = Arc::new(move |args| Box::pin(handler(args)) as ToolFuture);
        self.insert(FrontendTool {
            definition: tool,
            kind: FrontendToolKind::Handler(handler),
        })
    }

    /// Builder form of [`FrontendTools::register_component`].
    pub fn with_component(
        mut self,
        tool: Tool,
        render: impl Fn(FrontendToolCall) -> AnyView + Send + Sync + 'static,
    ) -> Self {
        self.register_component(tool, render);
        self
    }

    /// Builder form of [`FrontendTools::register_handler`].
    pub fn with_handler<F, Fut>(mut self, tool: Tool, handler: F) -> Self
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, String>> + 'static,
    {
        self.register_handler(tool, handler);
        self
    }

    /// Add (or replace, by name) every tool of `other`.
    pub fn extend(&mut self, other: &FrontendTools) {
        for tool in other.tools.iter() {
            self.insert(tool.clone());
        }
    }

    /// Remove a tool; true when there was one.
    pub fn unregister(&mut self, name: &str) -> bool {
        let before = self.tools.len();
        Arc::make_mut(&mut self.tools).retain(|t| t.definition.name != name);
        self.tools.len() != before
    }

    /// The tool called `name`.
    pub fn get(&self, name: &str) -> Option<&FrontendTool> {
        self.tools.iter().find(|t| t.definition.name == name)
    }

    /// True when `name` is a registered frontend tool.
    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// The component of `name`, when it is a component tool.
    pub fn component(&self, name: &str) -> Option<ToolComponent> {
        match &self.get(name)?.kind {
            FrontendToolKind::Component(c) => Some(c.clone()),
            FrontendToolKind::Handler(_) => None,
        }
    }

    /// The handler of `name`, when it is a handler tool.
    pub fn handler(&self, name: &str) -> Option<ToolHandler> {
        match &self.get(name)?.kind {
            FrontendToolKind::Handler(h) => Some(h.clone()),
            FrontendToolKind::Component(_) => None,
        }
    }

    /// The definitions to advertise in `RunAgentInput.tools`, in registration order.
    pub fn definitions(&self) -> Vec<Tool> {
        self.tools.iter().map(|t| t.definition.clone()).collect()
    }

    /// The registered names, in registration order.
    pub fn names(&self) -> Vec<String> {
        self.tools
            .iter()
            .map(|t| t.definition.name.clone())
            .collect()
    }

    /// Advertise these tools: `store`'s `AgentConfig.tools` becomes these definitions plus any
    /// tool the embedder put there that is not registered here.
    pub fn advertise(&self, store: AgentStore) {
        let mut config = store.config.get_untracked();
        let mut tools: Vec<Tool> = config
            .tools
            .iter()
            .filter(|t| !self.contains(&t.name))
            .cloned()
            .collect();
        tools.extend(self.definitions());
        if tools != config.tools {
            config.tools = tools;
            store.set_config(config);
        }
    }
}
