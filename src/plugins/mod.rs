//! The one plug-in API: what a page (or a Leptos app) adds to the generic chat. Everything
//! starts empty — a chat pointed at an agent advertises no tool and renders every tool call
//! with the generic card until its page registers something:
//!
//! - **tool renderers** by tool name ([`Plugins::tool_renderer`]): a view that receives the
//!   call's live [`ToolCallView`] (name, arguments as they stream, status, result);
//! - **code renderers** by a fenced block's language ([`Plugins::code_renderer`]): a view
//!   that receives the block's live [`CodeBlockView`] (its text as it streams, whether it is
//!   finished), shown in the block's card with its source a click away;
//! - **frontend tools** ([`Plugins::frontend_tool`] with UI the person answers,
//!   [`Plugins::frontend_handler`] answered by code in the browser), advertised in
//!   `RunAgentInput.tools` (spec digest §4.12);
//! - **side panels** ([`Plugins::side_panel`]), views bound to the agent state through the
//!   store's path signals, shown beside the conversation;
//! - **suggestion chips** ([`Plugins::suggestion`]) and a **welcome** text for the empty chat;
//! - **commands** ([`Plugins::command`]) offered when the person types `/` in the composer;
//! - a **thread store** ([`Plugins::thread_store`]): the site's own store of conversations;
//! - a **local agent** ([`Plugins::local_agent`]) that answers in the page when the chat has
//!   no endpoint (the offline demo is one);
//! - the **agent picker** in the header ([`Plugins::agent_picker`]), for developer pages only:
//!   it lets whoever uses the page type any endpoint;
//! - the page's own **UI strings** ([`Plugins::strings`]) over the language's catalog;
//! - **dictation** in the composer ([`Plugins::voice`]) and the hook that turns a recording
//!   into text ([`Plugins::transcribe`]).
//!
//! The demo (`src/demo/ui/`) is registered through exactly this API; the widget's
//! JS options (`tools`, `renderers`, `codeRenderers`, `suggestions`, `commands`, `strings`)
//! build one too.
//!
//! ```ignore
//! let plugins = Plugins::new()
//!     .tool_renderer("get_weather", |call| view! { <WeatherCard call /> }.into_any())
//!     .side_panel(|| view! { <OrderPanel /> }.into_any())
//!     .suggestion("What's the weather in Lisbon?", None);
//! view! { <AgentChat config plugins /> }
//! ```

use std::future::Future;
use std::sync::Arc;

use leptos::prelude::*;
use serde_json::Value;

use crate::i18n::Strings;
use crate::protocol::types::Tool;
use crate::session::remote::{ThreadStore, ThreadStoreRef};
use crate::session::{LocalAgent, LocalAgentRef};
use crate::store::AgentStore;
mod code_renderers;
mod frontend_tools;
mod tool_call;
mod tool_renderers;

use crate::view::feedback::Feedback;
pub use code_renderers::{CodeBlockView, CodeRegistry, CodeRenderer};
pub use frontend_tools::{
    FrontendTool, FrontendToolCall, FrontendToolKind, FrontendTools, ToolComponent, ToolFuture,
    ToolHandler,
};
pub use tool_call::ToolCallView;
pub use tool_renderers::{ToolRegistry, ToolRenderer};

/// A side panel: renders itself (reading the store from context) or nothing.
pub type PanelView = Arc<dyn Fn() -> AnyView + Send + Sync>;
/// The welcome text of an empty chat, in the UI language.
pub type Welcome = Arc<dyn Fn(&'static Strings) -> String + Send + Sync>;
/// Called with the person's feedback on an answer ([`Plugins::on_feedback`]).
pub type FeedbackHandler = Arc<dyn Fn(&Feedback) + Send + Sync>;

/// Turns an attached file into a URL the agent can fetch ([`Plugins::upload`]).
pub type UploadHook = Arc<
    dyn Fn(web_sys::File) -> std::pin::Pin<Box<dyn Future<Output = Result<String, String>>>>
        + Send
        + Sync,
>;

/// Turns a recording into text ([`Plugins::transcribe`]).
pub type TranscribeHook = Arc<
    dyn Fn(web_sys::Blob) -> std::pin::Pin<Box<dyn Future<Output = Result<String, String>>>>
        + Send
        + Sync,
>;

pub use crate::view::attachments::Limits;
pub use crate::view::commands::Command;
pub use crate::view::suggestions::Suggestion;
pub use crate::view::voice::Voice;

/// What a page adds to the chat. Cheap to clone; put it in context with
/// [`Plugins::provide`] before mounting the chat (or pass it to [`crate::app::AgentChat`]).
#[derive(Clone, Default)]
pub struct Plugins {
    renderers: ToolRegistry,
    code_renderers: CodeRegistry,
    tools: FrontendTools,
    panels: Vec<PanelView>,
    suggestions: Vec<Suggestion>,
    commands: Vec<Command>,
    welcome: Option<Welcome>,
    local_agent: Option<LocalAgentRef>,
    thread_store: Option<ThreadStoreRef>,
    agent_picker: bool,
    feedback: Vec<FeedbackHandler>,
    /// What the composer accepts (`None`: the defaults); `attach_off`: no attachments.
    attach_limits: Option<Limits>,
    attach_off: bool,
    upload: Option<UploadHook>,
    /// How the composer takes dictation, and the hook of [`Voice::Transcribe`].
    voice: Voice,
    transcribe: Option<TranscribeHook>,
    /// The page's own texts by key, as given (checked when installed).
    strings: Vec<(String, String)>,
}

impl std::fmt::Debug for Plugins {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plugins")
            .field("renderers", &self.renderers)
            .field("code_renderers", &self.code_renderers)
            .field("tools", &self.tools)
            .field("panels", &self.panels.len())
            .field("suggestions", &self.suggestions)
            .field("commands", &self.commands)
            .field("local_agent", &self.local_agent.is_some())
            .field("thread_store", &self.thread_store.is_some())
            .field("agent_picker", &self.agent_picker)
            .field("voice", &self.voice)
            .finish()
    }
}

impl Plugins {
    /// Nothing registered: generic cards, no tools, no panels, no chips.
    pub fn new() -> Self {
        Self::default()
    }

    /// Render the body of `name`'s tool cards with `render` (names match in snake case,
    /// namespaces ignored: `searchVenues`, `functions.search_venues` → `search_venues`).
    pub fn tool_renderer(
        mut self,
        name: impl AsRef<str>,
        render: impl Fn(ToolCallView) -> AnyView + Send + Sync + 'static,
    ) -> Self {
        self.renderers.register(name, render);
        self
    }

    /// Draw fenced code blocks of `lang` with `render` (```` ```mermaid ````: a diagram): it
    /// receives the block's live [`CodeBlockView`] — its text while it streams, then
    /// `complete` — and its view is shown in the block's card; the bar (language, Copy) stays
    /// and a toggle shows the highlighted source instead. Languages match as a fence's
    /// (first word, `[A-Za-z0-9_+-.#]`, case ignored).
    pub fn code_renderer(
        mut self,
        lang: &str,
        render: impl Fn(CodeBlockView) -> AnyView + Send + Sync + 'static,
    ) -> Self {
        self.code_renderers.register(lang, render);
        self
    }

    /// A frontend tool the person answers in its card: `render` shows while a finished run
    /// left a call to it pending, and answers with [`FrontendToolCall::respond`].
    pub fn frontend_tool(
        mut self,
        tool: Tool,
        render: impl Fn(FrontendToolCall) -> AnyView + Send + Sync + 'static,
    ) -> Self {
        self.tools.register_component(tool, render);
        self
    }

    /// A frontend tool answered by code in the browser: `handler(args)` runs once per call,
    /// after the run that called it finished; `Ok(value)` / `Err(message)` go back to the
    /// agent in the next run, which starts by itself.
    pub fn frontend_handler<F, Fut>(mut self, tool: Tool, handler: F) -> Self
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, String>> + 'static,
    {
        self.tools.register_handler(tool, handler);
        self
    }

    /// A panel beside the conversation (in registration order, above the shared state).
    pub fn side_panel(mut self, render: impl Fn() -> AnyView + Send + Sync + 'static) -> Self {
        self.panels.push(Arc::new(render));
        self
    }

    /// A suggestion chip.
    pub fn suggestion(mut self, prompt: impl Into<String>, hint: Option<&str>) -> Self {
        let prompt = prompt.into();
        if !prompt.trim().is_empty() {
            self.suggestions.push(Suggestion {
                prompt,
                hint: hint.map(str::to_owned),
            });
        }
        self
    }

    /// A command: typing `/` at the start of the composer offers it
    /// ([`Command::new`](crate::view::commands::Command::new): `/summarize` → "Summarize
    /// this page", filled in or sent). A name already registered is kept, not replaced; at
    /// most [`MAX_COMMANDS`](crate::view::commands::MAX_COMMANDS).
    pub fn command(mut self, command: Command) -> Self {
        let taken = self
            .commands
            .iter()
            .any(|c| c.name.eq_ignore_ascii_case(&command.name));
        if !taken && self.commands.len() < crate::view::commands::MAX_COMMANDS {
            self.commands.push(command);
        }
        self
    }

    /// The text under the empty chat's title, in the UI language.
    pub fn welcome(
        mut self,
        text: impl Fn(&'static Strings) -> String + Send + Sync + 'static,
    ) -> Self {
        self.welcome = Some(Arc::new(text));
        self
    }

    /// The agent that answers when the chat has no endpoint.
    pub fn local_agent(mut self, agent: impl LocalAgent) -> Self {
        self.local_agent = Some(LocalAgentRef::new(agent));
        self
    }

    /// Keep the conversations in the site's own store as well as the browser
    /// (`docs/dev/thread-store.md`): listed from it, each loaded when opened, saved to it
    /// (debounced, compare-and-swap, merged on a conflict). The widget's `threads-url` is the
    /// REST one ([`crate::transport::threads::RestThreadStore`]).
    pub fn thread_store(mut self, store: impl ThreadStore) -> Self {
        self.thread_store = Some(ThreadStoreRef::new(store));
        self
    }

    /// Be told when the person rates an answer (thumbs up or down, an optional comment). The
    /// chat sends it nowhere itself; the widget also dispatches `agui:feedback`.
    pub fn on_feedback(mut self, handler: impl Fn(&Feedback) + Send + Sync + 'static) -> Self {
        self.feedback.push(Arc::new(handler));
        self
    }

    /// Show the agent picker (endpoint and headers) in the header. For developer pages: a
    /// visitor could point the chat anywhere.
    pub fn agent_picker(mut self, on: bool) -> Self {
        self.agent_picker = on;
        self
    }

    /// What the composer accepts as attachments: types, sizes, count (default:
    /// [`Limits::default`]).
    pub fn attachments(mut self, limits: Limits) -> Self {
        self.attach_limits = Some(limits);
        self
    }

    /// No attach button, no drop or paste of files.
    pub fn no_attachments(mut self) -> Self {
        self.attach_off = true;
        self
    }

    /// Upload each attached file with `upload` and send its URL (a `url` source) instead of
    /// its bytes inlined as base64. An `Err` is shown on the file's chip.
    pub fn upload<F, Fut>(mut self, upload: F) -> Self
    where
        F: Fn(web_sys::File) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<String, String>> + 'static,
    {
        self.upload = Some(Arc::new(move |file| Box::pin(upload(file))));
        self
    }

    /// Dictation in the composer: a microphone button that records and hands the recording to
    /// the [`Plugins::transcribe`] hook ([`Voice::Transcribe`]), or that uses the browser's
    /// own speech recognition ([`Voice::Browser`]; no button where the browser has none). The
    /// text goes into the composer at the caret; it is never sent by itself. Default:
    /// [`Voice::Off`].
    pub fn voice(mut self, voice: Voice) -> Self {
        self.voice = voice;
        self
    }

    /// Turn a recording (the browser's `MediaRecorder` audio; its type is the blob's) into
    /// text, for [`Voice::Transcribe`]. An `Err`, an empty text or no answer within
    /// [`TRANSCRIBE_TIMEOUT_MS`](crate::view::voice::TRANSCRIBE_TIMEOUT_MS) is shown under
    /// the composer; a text over
    /// [`MAX_TRANSCRIPT_CHARS`](crate::view::voice::MAX_TRANSCRIPT_CHARS) is cut.
    pub fn transcribe<F, Fut>(mut self, transcribe: F) -> Self
    where
        F: Fn(web_sys::Blob) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<String, String>> + 'static,
    {
        self.transcribe = Some(Arc::new(move |audio| Box::pin(transcribe(audio))));
        self
    }

    /// The page's own words for some UI strings, by key (the fields of [`Strings`]:
    /// `[("composer_placeholder", "Ask Acme…")]`); every other key keeps the language's
    /// catalog text. A key that is not one, a text that drops or adds `{}` placeholders
    /// against the English one, an empty text or one over
    /// [`MAX_CHARS`](crate::i18n::overrides::MAX_CHARS) characters is refused with a warning
    /// in the chat; at most [`MAX_KEYS`](crate::i18n::overrides::MAX_KEYS) texts. A key given
    /// twice keeps its last text. Shown as text, never as HTML.
    pub fn strings<K: Into<String>, V: Into<String>>(
        mut self,
        texts: impl IntoIterator<Item = (K, V)>,
    ) -> Self {
        self.strings
            .extend(texts.into_iter().map(|(k, v)| (k.into(), v.into())));
        self
    }

    /// Everything of `other` added to this (its renderers and tools win on a name clash; the
    /// local agent and the welcome text are taken when this has none).
    pub fn merge(mut self, other: Plugins) -> Self {
        for name in other.renderers.names() {
            if let Some(r) = other.renderers.get(&name) {
                self.renderers.register(&name, move |call| r(call));
            }
        }
        self.code_renderers.extend(&other.code_renderers);
        self.tools.extend(&other.tools);
        self.panels.extend(other.panels);
        self.suggestions.extend(other.suggestions);
        for c in other.commands {
            self = self.command(c);
        }
        self.welcome = self.welcome.or(other.welcome);
        self.local_agent = self.local_agent.or(other.local_agent);
        self.thread_store = self.thread_store.or(other.thread_store);
        self.agent_picker |= other.agent_picker;
        self.feedback.extend(other.feedback);
        self.attach_limits = self.attach_limits.or(other.attach_limits);
        self.attach_off |= other.attach_off;
        self.upload = self.upload.or(other.upload);
        if self.voice == Voice::Off {
            self.voice = other.voice;
        }
        self.transcribe = self.transcribe.or(other.transcribe);
        // This one's texts win: they come last.
        let mine = std::mem::replace(&mut self.strings, other.strings);
        self.strings.extend(mine);
        self
    }

    /// Put these plug-ins in context for the chat below.
    pub fn provide(self) {
        provide_context(self);
    }

    /// The plug-ins in context; none registered when there are none.
    pub fn use_plugins() -> Self {
        use_context::<Plugins>().unwrap_or_default()
    }

    /// Hand the store what it needs at run time: the local agent and the thread store, unless
    /// its configuration names them. (The chat lays [`Plugins::page_strings`] over the language's catalog; the
    /// frontend tools are advertised by the transcript's driver.)
    pub fn install(&self, store: AgentStore) {
        if let Some(agent) = self.local_agent.clone() {
            if store.config.with_untracked(|c| c.local_agent.is_none()) {
                store.update_config(|c| c.local_agent = Some(agent));
            }
        }
        if let Some(threads) = self.thread_store.clone() {
            if store.config.with_untracked(|c| c.thread_store.is_none()) {
                store.update_config(|c| c.thread_store = Some(threads));
                store.sync_soon();
            }
        }
    }

    /// The page's own UI strings ([`Plugins::strings`]), key and text.
    pub fn page_strings(&self) -> &[(String, String)] {
        &self.strings
    }

    // ---- what the chat reads ---------------------------------------------------------------

    /// The renderer registered for a tool name.
    pub fn renderer(&self, tool_name: &str) -> Option<ToolRenderer> {
        self.renderers.get(tool_name)
    }

    /// The renderer registered for a fence's language.
    pub fn code_renderer_for(&self, lang: &str) -> Option<CodeRenderer> {
        self.code_renderers.get(lang)
    }

    /// The frontend tools.
    pub fn tools(&self) -> &FrontendTools {
        &self.tools
    }

    /// The side panels, in order.
    pub fn panels(&self) -> &[PanelView] {
        &self.panels
    }

    /// The commands, in order.
    pub fn commands(&self) -> &[Command] {
        &self.commands
    }

    /// The suggestion chips, in order.
    pub fn suggestions(&self) -> &[Suggestion] {
        &self.suggestions
    }

    /// The welcome text in `t`'s language.
    pub fn welcome_text(&self, t: &'static Strings) -> Option<String> {
        self.welcome.as_ref().map(|w| w(t))
    }

    /// The local agent, if one is registered.
    pub fn local(&self) -> Option<&LocalAgentRef> {
        self.local_agent.as_ref()
    }

    /// Whether the header shows the agent picker.
    pub fn shows_agent_picker(&self) -> bool {
        self.agent_picker
    }

    /// What the composer accepts; `None`: attachments are off.
    pub fn attachment_limits(&self) -> Option<Limits> {
        (!self.attach_off).then(|| self.attach_limits.clone().unwrap_or_default())
    }

    /// The page's upload hook, if any.
    pub fn uploader(&self) -> Option<UploadHook> {
        self.upload.clone()
    }

    /// How the composer takes dictation.
    pub fn voice_mode(&self) -> Voice {
        self.voice
    }

    /// The page's transcribe hook, if any.
    pub fn transcriber(&self) -> Option<TranscribeHook> {
        self.transcribe.clone()
    }

    /// Hand the person's feedback to every [`Plugins::on_feedback`] handler.
    pub fn feedback(&self, feedback: &Feedback) {
        for handler in &self.feedback {
            handler(feedback);
        }
    }
}
