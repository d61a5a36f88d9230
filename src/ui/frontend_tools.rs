//! Frontend tools (spec digest §4.12): tools the **browser** executes. Each has an AG-UI
//! definition (name, description, JSON Schema `parameters`) that goes out in
//! `RunAgentInput.tools`, and either
//! - a **component**: UI in the tool card, where the person answers (e.g. `confirm_payment`), or
//! - an async **handler**: code that runs in the browser and returns a result.
//!
//! ```ignore
//! let mut tools = FrontendTools::with_defaults(); // confirm_payment
//! tools.register_handler(
//!     Tool { name: "get_location".into(), description: "The browser's location".into(),
//!            parameters: Some(json!({"type": "object", "properties": {}})), metadata: None },
//!     |_args| async move { Ok(json!({"city": "Lisbon"})) },
//! );
//! tools.register_component(my_tool, |call| view! { <MyPicker call/> }.into_any());
//! tools.provide(); // before mounting the chat
//! ```
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
//! call of the run is answered, the next run starts by itself. A handler's result that
//! arrives after the person moved on (sending a message closes pending calls as "cancelled by
//! user") is dropped.
//!
//! Names match exactly: the agent must call a tool by the name it was given.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};

use leptos::prelude::*;
use serde_json::{json, Value};

use crate::i18n::{fill, Strings};
use crate::protocol::types::Tool;
use crate::store::hitl::HitlError;
use crate::store::AgentStore;
use crate::ui::errors;
use crate::ui::tr;
use crate::ui::trip_panel::format_money;

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
    store: AgentStore,
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

    /// The built-in tools: `confirm_payment` (a component).
    pub fn with_defaults() -> Self {
        let mut tools = Self::empty();
        tools.register_component(confirm_payment_tool(), |call| {
            view! { <ConfirmPayment call /> }.into_any()
        });
        tools
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

    /// Put this registry in context for the chat below (before mounting it).
    pub fn provide(self) {
        provide_context(self);
    }

    /// The registry from context, or [`FrontendTools::with_defaults`] when none was provided.
    pub fn use_tools() -> Self {
        static DEFAULTS: OnceLock<FrontendTools> = OnceLock::new();
        use_context::<FrontendTools>()
            .unwrap_or_else(|| DEFAULTS.get_or_init(Self::with_defaults).clone())
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

/// Advertise `tools` on `store` and run their handlers for calls the finished run left
/// pending (see the module docs for when). Call once, inside the chat.
pub fn use_frontend_tools(store: AgentStore, tools: FrontendTools) {
    tools.advertise(store);
    Effect::new(move |_| {
        let running = store.running.get();
        let pending = store.run.with(|r| r.pending_tool_calls.len());
        if running || pending == 0 {
            return;
        }
        for call in store.pending_frontend_calls() {
            let Some(handler) = tools.handler(&call.name) else {
                continue;
            };
            if !store.claim_tool_call(&call.id) {
                continue;
            }
            let id = call.id;
            let work = call.args.map(|args| handler(args));
            leptos::task::spawn_local(async move {
                let result = match work {
                    Ok(fut) => fut.await,
                    Err(bad_args) => Err(bad_args),
                };
                // Dropped when the person moved on meanwhile (the call is no longer pending).
                if let Err(e) = store.answer_tool_call(&id, result) {
                    web_sys::console::warn_1(
                        &format!("frontend tool result for {id} dropped: {e}").into(),
                    );
                }
            });
        }
    });
}

/// The component body of a frontend tool card: the tool's UI while the call waits for the
/// person, `otherwise` before and after. `view` is the card's memo.
pub fn component_body(
    view: Memo<Option<crate::store::ToolView>>,
    tool_call_id: String,
    render: ToolComponent,
    otherwise: impl Fn() -> AnyView + Send + Sync + 'static,
) -> impl IntoView {
    let store = AgentStore::expect();
    let awaiting = Memo::new(move |_| {
        view.with(|v| {
            v.as_ref()
                .is_some_and(|v| v.status == crate::store::ToolStatus::AwaitingInput)
        })
    });
    move || {
        if !awaiting.get() {
            return otherwise();
        }
        let pending = store
            .pending_frontend_calls()
            .into_iter()
            .find(|c| c.id == tool_call_id);
        match pending {
            Some(call) => match call.args {
                Ok(args) => render(FrontendToolCall {
                    tool_call_id: call.id,
                    name: call.name,
                    args,
                    store,
                }),
                Err(problem) => bad_args_view(store, call.id, problem).into_any(),
            },
            None => otherwise(),
        }
    }
}

/// The agent sent arguments that do not parse: say so, and let the person report it back.
fn bad_args_view(store: AgentStore, id: String, problem: String) -> impl IntoView {
    let message = problem.clone();
    view! {
        <div class="agui-frontend-tool agui-frontend-tool--invalid" data-testid="frontend-tool-invalid">
            <p class="agui-frontend-tool__problem" role="alert">{problem}</p>
            <button
                type="button"
                class="agui-button agui-button--secondary"
                data-testid="frontend-tool-decline"
                on:click=move |_| {
                    let _ = store.answer_tool_call(&id, Err(message.clone()));
                }
            >
                {move || tr(store).tell_the_agent}
            </button>
        </div>
    }
}

// ---- confirm_payment ---------------------------------------------------------------------

/// The definition of `confirm_payment`.
pub fn confirm_payment_tool() -> Tool {
    Tool {
        name: "confirm_payment".to_owned(),
        description: "Ask the person to confirm a payment in the browser. Returns \
                      {\"approved\": true} or {\"approved\": false, \"reason\": \"…\"}; nothing is \
                      charged unless approved."
            .to_owned(),
        parameters: Some(json!({
            "type": "object",
            "properties": {
                "amount": {"type": "number", "exclusiveMinimum": 0, "description": "The amount to pay"},
                "currency": {"type": "string", "description": "ISO 4217 code, e.g. EUR"},
                "description": {"type": "string", "description": "What the payment is for"},
            },
            "required": ["amount", "currency", "description"],
        })),
        metadata: None,
    }
}

/// The longest description shown.
const DESCRIPTION_CHARS: usize = 500;

/// A payment request read from `confirm_payment`'s (untrusted) arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct PaymentRequest {
    /// A finite amount above zero, or `None`.
    pub amount: Option<f64>,
    /// A three-letter code, upper-cased, or `None`.
    pub currency: Option<String>,
    pub description: Option<String>,
}

impl PaymentRequest {
    pub fn from_args(args: &Value) -> Self {
        let amount = match args.get("amount") {
            Some(Value::Number(n)) => n.as_f64(),
            Some(Value::String(s)) => s.trim().parse::<f64>().ok(),
            _ => None,
        }
        .filter(|a| a.is_finite() && *a > 0.0);
        let currency = args
            .get("currency")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|c| c.len() == 3 && c.chars().all(|ch| ch.is_ascii_alphabetic()))
            .map(str::to_ascii_uppercase);
        let description = args
            .get("description")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(|d| crate::ui::tool_card::truncate_chars(d, DESCRIPTION_CHARS));
        PaymentRequest {
            amount,
            currency,
            description,
        }
    }

    /// Complete enough to approve: an amount and a currency.
    pub fn is_valid(&self) -> bool {
        self.amount.is_some() && self.currency.is_some()
    }

    /// "€480", "1,250.50 CHF" (`480 €`, `1.250,50 CHF` in German).
    pub fn amount_text(&self, t: &Strings) -> Option<String> {
        self.amount
            .map(|a| format_money(a, self.currency.as_deref(), t))
    }
}

/// The answer when the person approves a payment.
pub fn payment_approved() -> Value {
    json!({"approved": true})
}

/// The answer when the person declines a payment.
pub fn payment_declined() -> Value {
    json!({"approved": false, "reason": "declined by user"})
}

/// `confirm_payment`'s card body: the amount and what it is for, Confirm and Decline.
#[component]
pub fn ConfirmPayment(
    /// The pending call.
    call: FrontendToolCall,
) -> impl IntoView {
    let store = AgentStore::expect();
    let request = PaymentRequest::from_args(&call.args);
    let valid = request.is_valid();
    let description = request.description.clone();
    let request = StoredValue::new(request);
    let error = RwSignal::new(None::<HitlError>);
    let call = StoredValue::new(call);
    let answer = move |value: Value| {
        if let Err(e) = call.with_value(|c| c.respond(Ok(value))) {
            error.set(Some(e));
        }
    };
    let amount = move || {
        let t = tr(store);
        request
            .with_value(|r| r.amount_text(t))
            .unwrap_or_else(|| t.payment_unknown_amount.to_owned())
    };
    let pay_label = move || fill(tr(store).payment_pay, &[&amount()]);
    view! {
        <div class="agui-frontend-tool agui-payment" data-testid="payment-request">
            <div class="agui-payment__label">{move || tr(store).payment_requested}</div>
            <div class="agui-payment__amount" data-testid="payment-amount">{amount}</div>
            {description.map(|d| view! {
                <p class="agui-payment__description" data-testid="payment-description">{d}</p>
            })}
            {(!valid).then(|| view! {
                <p class="agui-frontend-tool__problem" role="alert">
                    {move || tr(store).payment_incomplete}
                </p>
            })}
            <p class="agui-payment__note">{move || tr(store).payment_note}</p>
            <div class="agui-payment__actions">
                <button
                    type="button"
                    class="agui-button agui-button--primary"
                    data-testid="frontend-tool-approve"
                    disabled=move || !valid || store.running.get()
                    on:click=move |_| answer(payment_approved())
                >
                    {pay_label}
                </button>
                <button
                    type="button"
                    class="agui-button agui-button--secondary"
                    data-testid="frontend-tool-decline"
                    disabled=move || store.running.get()
                    on:click=move |_| answer(payment_declined())
                >
                    {move || tr(store).decline}
                </button>
            </div>
            {move || error.get().map(|e| view! {
                <p class="agui-frontend-tool__problem" data-testid="frontend-tool-error" role="alert">{move || errors::hitl_error(tr(store), &e)}</p>
            })}
        </div>
    }
}
