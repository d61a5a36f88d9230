//! The session layer: what a chat does between the protocol core and the screen, as plain Rust
//! (no web-sys, leptos or wasm-bindgen; `tests/layering.rs` keeps it so, `tests/session.rs`
//! drives it natively). The browser store (`crate::store`) is a thin shell around a
//! [`Session`]: it runs the transport a [`RunRequest`] names, feeds the bytes back, and turns
//! each [`Flush`] into signal writes.
//!
//! - **Run lifecycle**: [`Session::send`], [`Session::retry`], [`Session::start_run`] (and the
//!   human-in-the-loop answers, [`hitl`]) return the request to send — body, route, and a
//!   generation so a stopped run's late bytes never reach the next ([`Session::push`] and
//!   [`Session::end_run`] take it). [`Session::stop`] ends a run on purpose.
//! - **What changed** since the last flush is kept per row, per tool call and per state path
//!   and handed out by [`Session::flush`]; the shell notifies only those.
//! - **Threads, branches and persistence** ([`threads`], [`branches`]) behind a small
//!   key-value trait ([`storage::KeyValue`]); **the event log** per thread ([`inspector`]).
//! - The clock and the ids come from an [`env::Env`]; failures are values ([`failure`]).

pub mod a2ui_out;
pub mod branches;
pub mod env;
pub mod failure;
pub mod hitl;
pub mod inspector;
pub mod local;
pub mod queue;
pub mod storage;
pub mod threads;

use std::collections::{HashMap, HashSet};

use serde_json::Value;

pub use env::{Env, TestEnv};
pub use failure::{EndpointRefusal, Notice, RunFailure, TransportError};
pub use local::{LocalAgent, LocalAgentRef, TimedChunk};
pub use queue::Offered;

use crate::i18n::{Locale, Strings};
use crate::protocol::event::EventKind;
use crate::protocol::input::{history_for_request, prepare_request};
use crate::protocol::resume::CompleteResume;
use crate::protocol::types::{Context, Message, Role, RunAgentInput, Tool};
use crate::protocol::wire::WireFront;
use crate::protocol::{
    Change, Decoder, Delivered, Pipeline, PipelineOptions, Rows, RunStatus, Thread, Wire,
};
use crate::view::rows::{row_keys, Row};
use crate::view::run::RunView;
use crate::view::state::{patched_paths, touched_paths};
use crate::view::tool::{ToolStatus, ToolView};

/// The most MCP App Views whose model context a thread keeps ([`Session::set_app_context`]).
pub const MAX_APP_CONTEXTS: usize = 8;

/// The local (demo) agent's playback speed when nothing says otherwise: its own timing (`0` is
/// instant, `4` four times faster).
pub const DEFAULT_DEMO_SPEED: f64 = 1.0;

/// Where runs go, and how the chat talks.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentConfig {
    /// An AG-UI endpoint URL (relative URLs work); `None` = the local agent.
    pub endpoint: Option<String>,
    /// The agent that answers in the page when there is no endpoint (the demo plug-in's);
    /// with neither, a run fails with [`RunFailure::NoAgent`].
    pub local_agent: Option<LocalAgentRef>,
    /// Extra request headers (auth).
    pub headers: Vec<(String, String)>,
    /// The only endpoints runs may go to (origins or URL prefixes; `None`: any). The
    /// transport checks every run against it, whoever set the endpoint.
    pub allowed_endpoints: Option<Vec<String>>,
    /// Local agent playback speed (1.0 = its own timing; larger is faster; 0 = instant).
    pub demo_speed: f64,
    /// Frontend tools advertised in `RunAgentInput.tools` (executed in the browser).
    pub tools: Vec<Tool>,
    /// Send resume answers also as `forwardedProps.command.resume` (older LangGraph/Mastra
    /// servers read only that).
    pub legacy_resume: bool,
    /// The UI language (the browser shell picks the browser's by default).
    pub locale: Locale,
    /// The UI strings in use when they are not simply the locale's compiled-in catalog: the
    /// catalog with the page's own texts over it, or — in the lean widget, where each catalog
    /// but English is a module of its own — the catalog once it is here. Set by the UI
    /// (`crate::ui::catalog`) for a language; read through [`AgentConfig::ui_strings`], which
    /// ignores it once `locale` has changed.
    pub strings: Option<(Locale, &'static Strings)>,
    /// The page set a direction (`dir`) on the element the chat is mounted in: the chat keeps
    /// it, and carries no `dir="rtl"` of its own in a right-to-left language. Set by the widget
    /// and `mount_with`, which look before they mount.
    pub page_dir: bool,
    /// How requests go out: credentials and redirects (the page's choice).
    pub fetch: FetchPolicy,
    /// A message sent while a run is live waits in a queue ([`queue`]); off, Send waits.
    pub queue: bool,
    /// What the agent declares about itself, as the page passed it (spec digest §6; `None`:
    /// nothing declared — never assumed).
    pub capabilities: Option<crate::protocol::capabilities::Capabilities>,
    /// The protocol of the endpoint's requests ([`Wire`]); a response is read by its own
    /// header whatever this says, and once an AI SDK stream answers, the endpoint's next
    /// requests are in that shape.
    pub wire: Wire,
    /// The AI SDK's resumable streams: a run the page left in flight is asked for again
    /// after a reload (`GET {endpoint}/{chatId}/stream`, see [`Session::resume_stream`]).
    pub resume: bool,
    /// Admit the protobuf binding in `Accept` (`transport="protobuf"`; spec digest §1.5); the
    /// response decides, SSE is always read.
    pub protobuf: bool,
    /// The page's `mcp-apps-proxy`: MCP Apps run in the site's sandbox proxy at this URL
    /// (`https://`, another origin than the page's; checked by `mcp_apps::proxy_origin` where
    /// a View is shown, a refused one shows a notice and no View). `None`: the opaque frame.
    /// Never from the page's URL.
    pub mcp_apps_proxy: Option<String>,
}

impl AgentConfig {
    /// The UI strings to show: [`AgentConfig::strings`] when they are the locale's, else the
    /// locale's catalog (English in the lean widget until that catalog's module is here).
    pub fn ui_strings(&self) -> &'static Strings {
        match self.strings {
            Some((locale, strings)) if locale == self.locale => strings,
            _ => self.locale.compiled().unwrap_or(&crate::i18n::EN),
        }
    }
}

/// Whether a request carries the browser's cookies and HTTP auth (fetch's `credentials`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Credentials {
    Omit,
    /// Only to the page's own origin (fetch's default, stated explicitly).
    #[default]
    SameOrigin,
    /// Also cross-origin (the agent must allow it with CORS).
    Include,
}

/// How the transport fetches. By default a redirect is refused, not followed: the page's
/// headers (auth) would go wherever the agent's server points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FetchPolicy {
    pub credentials: Credentials,
    /// Follow redirects (the page opted in with `redirects="follow"`).
    pub follow_redirects: bool,
}

impl Default for AgentConfig {
    fn default() -> Self {
        Self {
            endpoint: None,
            local_agent: None,
            headers: Vec::new(),
            allowed_endpoints: None,
            demo_speed: DEFAULT_DEMO_SPEED,
            tools: Vec::new(),
            legacy_resume: false,
            locale: Locale::default(),
            strings: None,
            page_dir: false,
            fetch: FetchPolicy::default(),
            queue: true,
            capabilities: None,
            wire: Wire::AgUi,
            resume: false,
            protobuf: false,
            mcp_apps_proxy: None,
        }
    }
}

/// Extra inputs of one run beyond the history and state.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Answers to the open interrupts (complete by construction).
    pub resume: Option<CompleteResume>,
    /// Also send the answers the older way (`forwardedProps.command.resume`).
    pub legacy_resume: bool,
    /// No person asked for this run: frontend tool handlers answered every pending call.
    /// At most [`hitl::MAX_AUTO_RUNS`] of those follow each other before a person is asked.
    pub automatic: bool,
    /// Merged into `RunAgentInput.forwardedProps` (an A2UI action: `{"a2uiAction": …}`).
    pub forwarded_props: Option<Value>,
    /// The run answers the last user message again (retry, regenerate): an AI SDK request
    /// says `trigger: "regenerate-message"`, as `useChat`'s `regenerate()` does.
    pub regenerate: bool,
}

/// Where a run's request goes.
#[derive(Debug, Clone, PartialEq)]
pub enum Route {
    /// POST to an AG-UI endpoint.
    Http {
        endpoint: String,
        headers: Vec<(String, String)>,
        /// The page's `allowed-endpoints` ([`AgentConfig::allowed_endpoints`]).
        allowed: Option<Vec<String>>,
        fetch: FetchPolicy,
        /// A `GET` without a body (an AI SDK stream resumed), not the usual `POST`.
        get: bool,
        /// The `Accept` header ([`Wire::accept`]).
        accept: &'static str,
    },
    /// Played by a local agent at `speed`.
    Local { agent: LocalAgentRef, speed: f64 },
}

/// A run to start: the shell sends `body` along `route` and feeds what comes back to
/// [`Session::push`] / [`Session::end_run`] with `generation`.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRequest {
    pub generation: u64,
    pub run_id: String,
    /// The `RunAgentInput` JSON, prepared (enforced, defaults filled).
    pub body: Value,
    pub route: Route,
}

/// What changed since the last flush, for the shell to notify.
#[derive(Debug, Default, PartialEq)]
pub struct Flush {
    /// The row list, when it changed.
    pub rows: Option<Vec<Row>>,
    /// Every row and tool card must re-read (the list was restructured).
    pub everything: bool,
    /// Row keys whose message changed.
    pub rows_changed: Vec<String>,
    /// Every tool card must re-read (a run ended or was stopped).
    pub all_tools: bool,
    /// Tool calls that changed.
    pub tools_changed: Vec<String>,
    /// Watched state paths to notify, each with whether the last delta changed it.
    pub paths: Vec<(String, bool)>,
    /// The state was replaced wholesale (a snapshot, another thread).
    pub state_replaced: bool,
    /// The state changed at all.
    pub state_changed: bool,
    /// The run view, when it changed.
    pub run: Option<RunView>,
    /// The warnings list, when it changed.
    pub warnings: Option<Vec<Notice>>,
    /// The open thread's event log grew.
    pub log_changed: bool,
    /// The queued messages ([`Session::queued`]), when they changed.
    pub queue: Option<Vec<Message>>,
}

/// What changed since the last flush.
#[derive(Debug, Default)]
struct Dirty {
    rows: HashSet<usize>,
    appended: bool,
    restructured: bool,
    tools: HashSet<String>,
    all_tools: bool,
    state_all: bool,
    state_paths: Vec<String>,
    run: bool,
    warnings: bool,
    queue: bool,
}

/// Arrival times (the session clock) the views show as durations.
#[derive(Debug, Default)]
struct Timings {
    tool_end: HashMap<String, f64>,
    tool_result: HashMap<String, f64>,
    reasoning_start: HashMap<String, f64>,
    reasoning_end: HashMap<String, f64>,
}

/// One chat: the open thread folded by its pipeline, its runs, the human in the loop, the
/// other threads and their storage, the event logs.
pub struct Session {
    env: Box<dyn Env>,
    pipeline: Pipeline,
    /// What turns the open run's response bytes into events (its wire).
    decoder: Decoder,
    /// The open run's id (the AI SDK's stream does not carry one).
    run_id: String,
    /// The endpoint whose responses came as an AI SDK stream: its requests follow.
    detected: Option<String>,
    /// The run that was in flight when the page went away (restored; see
    /// [`Session::resume_stream`]).
    cut_off: Option<String>,
    thread_id: String,
    rows: Vec<Row>,
    key_index: HashMap<String, usize>,
    dirty: Dirty,
    /// A run is in flight (requested and not ended).
    running: bool,
    /// Bumped when a run starts or is stopped: bytes and ends of another generation are
    /// ignored.
    generation: u64,
    timings: Timings,
    config: AgentConfig,
    /// The failure the session recorded for the current run (transport, request, no agent).
    failure: Option<RunFailure>,
    /// Warnings already published.
    warnings_seen: usize,
    /// Warnings of the requests sent (what the input enforcement stripped), shown with the
    /// stream's.
    request_warnings: Vec<Notice>,
    hitl: hitl::Hitl,
    threads: threads::Threads,
    /// Bumped whenever the message list is restructured: between two bumps a message's text
    /// only grows by appended deltas.
    rewrite_epoch: u64,
    logs: inspector::Logs,
    /// State pointers the screen renders: a delta notifies those it touches.
    watched_paths: HashSet<String>,
    /// What the open thread's MCP App Views asked the model to know
    /// (`ui/update-model-context`), by View: sent in every run's `context`; in memory only,
    /// at most [`MAX_APP_CONTEXTS`], gone when another thread opens.
    app_context: Vec<(String, Context)>,
    /// A2UI renderer→agent messages for the next run a person starts.
    a2ui_out: a2ui_out::A2uiOutbox,
    /// The paths the last delta changed.
    changed_paths: Vec<String>,
    /// What the agent last suggested with a `CUSTOM` `suggestions` event (cleared when a run
    /// starts).
    agent_suggestions: Vec<crate::view::suggestions::Suggestion>,
    /// The person's rating of answers, by message id (this page's life only).
    ratings: HashMap<String, crate::view::feedback::Rating>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("thread_id", &self.thread_id)
            .field("messages", &self.pipeline.thread.messages.len())
            .field("running", &self.running)
            .finish_non_exhaustive()
    }
}

impl Session {
    /// A session on a fresh thread (nothing is persisted).
    pub fn new(config: AgentConfig, env: impl Env + 'static) -> Self {
        let id = env.new_id("thread");
        Self::continuing(config, env, Thread::new(), id)
    }

    /// A session continuing an existing thread (nothing is persisted).
    pub fn continuing(
        config: AgentConfig,
        env: impl Env + 'static,
        thread: Thread,
        thread_id: String,
    ) -> Self {
        let rows = row_keys(&thread.messages);
        Session {
            env: Box::new(env),
            pipeline: Pipeline::new(thread, PipelineOptions::default()),
            decoder: Decoder::default(),
            run_id: String::new(),
            detected: None,
            cut_off: None,
            thread_id,
            key_index: rows
                .iter()
                .enumerate()
                .map(|(i, r)| (r.key.clone(), i))
                .collect(),
            rows,
            dirty: Dirty::default(),
            running: false,
            generation: 0,
            timings: Timings::default(),
            config,
            failure: None,
            warnings_seen: 0,
            request_warnings: Vec::new(),
            hitl: hitl::Hitl::default(),
            threads: threads::Threads::default(),
            rewrite_epoch: 0,
            logs: inspector::Logs::default(),
            watched_paths: HashSet::new(),
            app_context: Vec::new(),
            a2ui_out: a2ui_out::A2uiOutbox::default(),
            changed_paths: Vec::new(),
            ratings: HashMap::new(),
            agent_suggestions: Vec::new(),
        }
    }

    pub fn now_ms(&self) -> f64 {
        self.env.now_ms()
    }

    pub fn new_id(&self, prefix: &str) -> String {
        self.env.new_id(prefix)
    }

    pub fn config(&self) -> &AgentConfig {
        &self.config
    }

    /// Where the next run goes (a run in flight keeps its own settings).
    pub fn set_config(&mut self, config: AgentConfig) {
        self.config = config;
    }

    /// The open thread's id (stable for every run of it, spec digest §1.2).
    pub fn thread_id(&self) -> &str {
        &self.thread_id
    }

    /// The open thread.
    pub fn thread(&self) -> &Thread {
        &self.pipeline.thread
    }

    /// A run is in flight.
    pub fn running(&self) -> bool {
        self.running
    }

    /// The rows as of the last flush.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// See the field: while it stays the same, message texts only grow.
    pub fn rewrite_epoch(&self) -> u64 {
        self.rewrite_epoch
    }

    /// The message of a row.
    pub fn message(&self, key: &str) -> Option<&Message> {
        let i = *self.key_index.get(key)?;
        self.pipeline.thread.messages.get(i)
    }

    /// The state at a JSON pointer.
    pub fn state_at(&self, pointer: &str) -> Option<&Value> {
        self.pipeline.thread.state.pointer(pointer)
    }

    /// Render `pointer`: later deltas that touch it are notified. Returns whether the last
    /// delta changed it (the initial highlight).
    pub fn watch_path(&mut self, pointer: &str) -> bool {
        self.watched_paths.insert(pointer.to_owned());
        self.changed_paths.iter().any(|p| p == pointer)
    }

    /// The run view now. A run that was sent shows as running (not the last outcome) until
    /// its `RUN_STARTED` arrives.
    pub fn run_view(&self) -> RunView {
        let mut view = RunView::of(
            &self.pipeline.thread,
            self.pipeline.error(),
            self.failure.as_ref(),
        );
        if self.running && view.status != RunStatus::Running {
            view.status = RunStatus::Running;
            view.error = None;
        }
        view
    }

    /// Seconds a reasoning message took (None while streaming).
    pub fn reasoning_seconds(&self, message_id: &str) -> Option<f64> {
        let start = self.timings.reasoning_start.get(message_id)?;
        let end = self.timings.reasoning_end.get(message_id)?;
        Some(((end - start) / 1000.0).max(0.0))
    }

    /// True while a reasoning message is still open.
    pub fn reasoning_open(&self, message_id: &str) -> bool {
        self.timings.reasoning_start.contains_key(message_id)
            && !self.timings.reasoning_end.contains_key(message_id)
            && self.pipeline.run_active()
    }

    /// The card view of one tool call.
    pub fn tool_view(&self, tool_call_id: &str) -> Option<ToolView> {
        let thread = &self.pipeline.thread;
        let (_, call) = thread.tool_call(tool_call_id)?;
        let args = thread.tool_args.get(tool_call_id);
        let result = thread.tool_result(tool_call_id);
        let ended = args.is_none_or(|a| a.ended);
        let active = self.pipeline.run_active();
        let pending = !active
            && thread
                .pending_tool_calls()
                .iter()
                .any(|p| p == tool_call_id);
        let status = match result {
            Some(m) if m.error.is_some() => ToolStatus::Error,
            Some(_) => ToolStatus::Success,
            None if pending => self.pending_status(tool_call_id, &call.function.name),
            None if active && !ended => ToolStatus::StreamingArgs,
            None if active => ToolStatus::Running,
            // The run is over and the call never got a result.
            None => match thread.status() {
                RunStatus::Success { .. } | RunStatus::Interrupted | RunStatus::Running => {
                    ToolStatus::Running
                }
                _ => ToolStatus::Error,
            },
        };
        let duration_ms = match (
            self.timings.tool_end.get(tool_call_id),
            self.timings.tool_result.get(tool_call_id),
        ) {
            (Some(a), Some(b)) => Some((b - a).max(0.0)),
            _ => None,
        };
        Some(ToolView {
            id: call.id.clone(),
            name: call.function.name.clone(),
            status,
            args: args.and_then(|a| a.parser.value().cloned()),
            args_text_len: call.function.arguments.len(),
            result: result.and_then(|m| m.content.clone()),
            result_error: result.and_then(|m| m.error.clone()),
            duration_ms,
        })
    }

    // ---- the stream ---------------------------------------------------------------------

    /// Whether `generation` is the run in flight (its bytes and end still count).
    pub fn is_current(&self, generation: u64) -> bool {
        self.running && self.generation == generation
    }

    /// Fold response bytes of run `generation`; the number of events delivered (0 for a
    /// stale generation).
    pub fn push(&mut self, generation: u64, bytes: &[u8]) -> usize {
        if !self.is_current(generation) {
            return 0;
        }
        self.push_bytes(bytes)
    }

    /// Fold bytes whatever run is open (recorded streams and tests; a transport uses
    /// [`Session::push`]).
    pub fn push_bytes(&mut self, bytes: &[u8]) -> usize {
        let now = self.env.now_ms();
        let log = self.logs.log_mut(&self.thread_id);
        let out = log.push_through(&mut self.pipeline, &mut self.decoder, bytes, now);
        self.note(&out);
        out.len()
    }

    /// Run `generation`'s transport finished, cleanly (`Ok`) or not. Stale generations and
    /// a stop (`Aborted`, already handled by [`Session::stop`]) change nothing.
    pub fn end_run(&mut self, generation: u64, result: Result<(), TransportError>) {
        if self.is_current(generation) {
            self.end_external(result);
        }
    }

    /// End the open run, whatever its generation (a run fed with [`Session::push_bytes`]).
    pub fn end_external(&mut self, result: Result<(), TransportError>) {
        let now = self.env.now_ms();
        match result {
            Ok(()) => {
                let log = self.logs.log_mut(&self.thread_id);
                let out = log.finish_through(&mut self.pipeline, &mut self.decoder, now);
                self.note(&out);
            }
            Err(TransportError::Aborted) => {}
            Err(err) => {
                self.logs
                    .log_mut(&self.thread_id)
                    .note_error(err.to_string(), now);
                self.pipeline.thread.end_run(RunStatus::Failed {
                    error: err.to_string(),
                });
                self.pipeline.abort();
                self.failure = Some(RunFailure::Transport(err));
            }
        }
        self.running = false;
        self.dirty.run = true;
        self.dirty.warnings = true;
        self.dirty.all_tools = true;
        self.dirty
            .rows
            .extend(0..self.pipeline.thread.messages.len().min(4096));
        self.on_run_end();
    }

    /// Stop the run in flight: it shows as stopped and keeps everything received; whatever
    /// its transport still delivers is ignored.
    pub fn stop(&mut self) {
        self.generation += 1;
        self.pipeline.abort();
        self.dirty.run = true;
        self.dirty.all_tools = true;
        let was = std::mem::replace(&mut self.running, false);
        if was {
            self.on_run_end();
        }
    }

    /// Start a run fed by the caller instead of a transport (recorded streams, tests, trace
    /// replay): push with the returned generation, then [`Session::end_run`].
    pub fn begin_external(&mut self) -> u64 {
        self.begin_external_as(Wire::AgUi)
    }

    /// [`Session::begin_external`] for bytes of another wire.
    pub fn begin_external_as(&mut self, wire: Wire) -> u64 {
        let run_id = self.env.new_id("run");
        self.open_pipeline(wire, run_id);
        self.generation += 1;
        self.running = true;
        self.dirty.run = true;
        self.generation
    }

    /// A fresh pipeline on the thread (run `run_id` starts, its response expected in
    /// `wire`), with the log told.
    fn open_pipeline(&mut self, wire: Wire, run_id: String) {
        let thread = std::mem::take(&mut self.pipeline.thread);
        let options = PipelineOptions::default();
        self.decoder = Decoder::new(wire, &options, &self.thread_id, &run_id);
        self.run_id = run_id;
        self.pipeline = Pipeline::new(thread, options);
        let now = self.env.now_ms();
        self.logs
            .log_mut(&self.thread_id)
            .begin_run(&self.pipeline.thread, now);
        self.failure = None;
    }

    // ---- runs ---------------------------------------------------------------------------

    /// Send a user message: the request to send, or `None` (nothing to send, interrupts
    /// open — they must be answered or cancelled first, §4.11 — or a run in flight: then the
    /// message waits in the [`queue`] when it is on). A frontend tool call left unanswered is
    /// closed first, so the history never carries a call without a result.
    pub fn send(&mut self, text: &str) -> Option<RunRequest> {
        self.send_parts(text, Vec::new())
    }

    /// [`Session::send`] with attachments: content parts after the text (spec digest §3;
    /// built by [`crate::view::attachments`]). A message may be only attachments.
    pub fn send_parts(
        &mut self,
        text: &str,
        parts: Vec<crate::protocol::types::ContentPart>,
    ) -> Option<RunRequest> {
        let text = text.trim();
        if text.is_empty() && parts.is_empty() {
            return None;
        }
        let id = self.env.new_id("msg");
        let message = crate::view::attachments::user_message(id, text, parts);
        if self.running {
            self.enqueue(message);
            return None;
        }
        self.send_message(message)
    }

    /// A person's run may start: none in flight, no interrupt open (those are answered or
    /// cancelled first, §4.11).
    fn can_start(&self) -> bool {
        !self.running && self.pipeline.thread.open_interrupts().is_empty()
    }

    /// Append a person's message and start its run (see [`Session::send`]).
    fn send_message(&mut self, message: Message) -> Option<RunRequest> {
        if !self.can_start() {
            return None;
        }
        let thread = &mut self.pipeline.thread;
        let env = &self.env;
        if !thread
            .cancel_pending_tool_calls("cancelled by user", || env.new_id("tool"))
            .is_empty()
        {
            self.dirty.restructured = true;
        }
        // The person takes over: a replayed trace's calls are closed above, the thread lives.
        self.threads.replayed = false;
        self.pipeline.thread.append(message);
        self.dirty.appended = true;
        self.start_run(RunOptions::default())
    }

    /// An MCP App View's `ui/update-model-context` (`key` names the View, e.g. its activity
    /// message id): `context` replaces what that View said before, `None` removes it. The
    /// following runs of this thread carry it in `RunAgentInput.context` (spec digest §3).
    /// The oldest View's goes when more than [`MAX_APP_CONTEXTS`] have one.
    pub fn set_app_context(&mut self, key: &str, context: Option<Context>) {
        self.app_context.retain(|(k, _)| k != key);
        if let Some(c) = context {
            if self.app_context.len() >= MAX_APP_CONTEXTS {
                self.app_context.remove(0);
            }
            self.app_context.push((key.to_owned(), c));
        }
    }

    /// A2UI renderer→agent messages (validation errors, function calls) for the next run a
    /// person starts ([`a2ui_out`]); returns how many were kept.
    pub fn queue_a2ui(&mut self, messages: Vec<Value>) -> usize {
        let mut kept = 0;
        for m in messages {
            kept += usize::from(self.a2ui_out.queue(m));
        }
        kept
    }

    /// An A2UI `callAgentFunction` with this id goes to the agent ([`a2ui_out`]).
    pub fn expect_a2ui_call(&mut self, function_call_id: String) {
        self.a2ui_out.expect_call(function_call_id);
    }

    /// Whether an `agentFunctionResponse`'s id answers a call still open (then closed).
    pub fn answer_a2ui_call(&mut self, function_call_id: &str) -> bool {
        self.a2ui_out.answer(function_call_id)
    }

    /// The A2UI messages waiting for the next run.
    pub fn a2ui_pending(&self) -> &[Value] {
        self.a2ui_out.pending()
    }

    /// A person acted in a surface the agent drew (an A2UI button): the next run carries
    /// `forwarded` in its `forwardedProps`. Refused while a run is in flight or interrupts
    /// are open (they must be answered first, §4.11).
    pub fn send_action(&mut self, forwarded: Value) -> Option<RunRequest> {
        if !self.can_start() {
            return None;
        }
        self.threads.replayed = false;
        self.start_run(RunOptions {
            forwarded_props: Some(forwarded),
            ..RunOptions::default()
        })
    }

    /// Retry after a failed run: drop what the failed run produced after the last user
    /// message and run again with a new run id. A failed resume run leaves its interrupts open
    /// (§4.11): then the same answers are sent again (never a run without them), or nothing
    /// when there are none to resend (the cards are answered again).
    pub fn retry(&mut self) -> Option<RunRequest> {
        if self.running {
            return None;
        }
        if !self.pipeline.thread.open_interrupts().is_empty() {
            let again = self.retry_resume();
            if again.is_none() {
                self.dirty.run = true;
            }
            return again;
        }
        let thread = &mut self.pipeline.thread;
        if let Some(i) = thread.messages.iter().rposition(|m| m.role == Role::User) {
            thread.truncate(i + 1);
            self.dirty.restructured = true;
        }
        self.start_run(RunOptions {
            regenerate: true,
            ..RunOptions::default()
        })
    }

    /// Start a run with the thread's history and state (and `options`): the request, or
    /// `None` when it cannot be sent (the failure is recorded and shown: no agent, a request
    /// the schema refuses).
    pub fn start_run(&mut self, options: RunOptions) -> Option<RunRequest> {
        self.hitl.count_run(options.automatic);
        self.agent_suggestions.clear();
        let run_id = self.env.new_id("run");
        let wire = self.request_wire();
        let ai_sdk_body = (wire == Wire::AiSdk)
            .then(|| {
                crate::protocol::wire::ai_sdk_request(
                    &self.thread_id,
                    &mut self.pipeline.thread,
                    options.resume.as_ref().map(|r| r.entries()),
                    options.regenerate,
                )
            })
            .flatten();
        self.open_pipeline(wire, run_id.clone());
        let thread = &self.pipeline.thread;
        let input = RunAgentInput {
            thread_id: self.thread_id.clone(),
            run_id: run_id.clone(),
            protocol_version: None,
            parent_run_id: None,
            state: Some(thread.state.clone()),
            messages: history_for_request(&thread.messages),
            // An agent that declares it takes no client tools is not offered the page's.
            tools: Some(match &self.config.capabilities {
                Some(c) if c.client_tools == Some(false) => Vec::new(),
                _ => self.config.tools.clone(),
            }),
            context: Some(self.app_context.iter().map(|(_, c)| c.clone()).collect()),
            forwarded_props: merge_props(
                match &options.resume {
                    Some(r) if options.legacy_resume || self.config.legacy_resume => {
                        Some(r.legacy_command())
                    }
                    _ => None,
                },
                // What the renderer owes the agent goes with a run a person starts, never
                // with one the chat starts by itself.
                if options.automatic {
                    options.forwarded_props.clone()
                } else {
                    a2ui_out::attach(options.forwarded_props.clone(), self.a2ui_out.take())
                },
            ),
            resume: options.resume.as_ref().map(|r| r.entries().to_vec()),
        };
        self.dirty.run = true;
        let body = match ai_sdk_body {
            Some(body) => Ok((body, Vec::new())),
            None => prepare_request(&input, None),
        };
        let body = match body {
            Ok((body, warnings)) => {
                self.note_request_warnings(warnings);
                body
            }
            Err(err) => {
                self.fail_before_sending(RunFailure::Request(err));
                return None;
            }
        };
        let route = match (&self.config.endpoint, &self.config.local_agent) {
            (Some(endpoint), _) => Route::Http {
                endpoint: endpoint.clone(),
                headers: self.config.headers.clone(),
                allowed: self.config.allowed_endpoints.clone(),
                fetch: self.config.fetch,
                get: false,
                accept: Wire::accept(self.config.protobuf && wire == Wire::AgUi),
            },
            (None, Some(agent)) => Route::Local {
                agent: agent.clone(),
                speed: self.config.demo_speed,
            },
            (None, None) => {
                self.hitl.last_request = Some(body);
                self.fail_before_sending(RunFailure::NoAgent);
                return None;
            }
        };
        self.hitl.last_request = Some(body.clone());
        self.generation += 1;
        self.running = true;
        self.on_run_start(&run_id);
        Some(RunRequest {
            generation: self.generation,
            run_id,
            body,
            route,
        })
    }

    /// The wire of the next request: AG-UI for the local agent; for the endpoint, the
    /// configured one, or the AI SDK's when the endpoint answered that way before.
    fn request_wire(&self) -> Wire {
        match &self.config.endpoint {
            None => Wire::AgUi,
            Some(_) if !Wire::AiSdk.available() => Wire::AgUi,
            Some(e) if self.detected.as_ref() == Some(e) => Wire::AiSdk,
            Some(_) => self.config.wire,
        }
    }

    /// Run `generation`'s response arrived in `wire` (its headers, before any byte): its
    /// bytes are read that way, and an endpoint that answers an AI SDK stream gets AI SDK
    /// requests from now on. The core reads AG-UI's SSE and the AI SDK's stream; a protobuf
    /// response is read by the decoder made for it ([`Session::open_response_with`]).
    pub fn open_response(&mut self, generation: u64, wire: Wire) {
        if !self.is_current(generation) {
            return;
        }
        if wire != self.decoder.wire() {
            self.decoder = Decoder::new(
                wire,
                &PipelineOptions::default(),
                &self.thread_id,
                &self.run_id,
            );
        }
        self.detected_by(wire);
    }

    /// Run `generation`'s response is read by `front`, a decoder the core does not make
    /// itself: protobuf's ([`crate::protocol::proto::ProtoDecoder`]), which the lean widget
    /// fetches as a module of its own when such a response comes.
    pub fn open_response_with(&mut self, generation: u64, front: Box<dyn WireFront>) {
        if !self.is_current(generation) {
            return;
        }
        let wire = front.wire();
        self.decoder = Decoder::with_front(front);
        self.detected_by(wire);
    }

    /// The endpoint answered in `wire`: an AI SDK stream makes its next requests the AI
    /// SDK's.
    fn detected_by(&mut self, wire: Wire) {
        self.detected = match wire {
            Wire::AiSdk => self.config.endpoint.clone(),
            Wire::AgUi | Wire::Proto => None,
        };
    }

    /// The run could not even be sent: it shows as failed with `failure`.
    fn fail_before_sending(&mut self, failure: RunFailure) {
        let error = match &failure {
            RunFailure::Request(e) => e.to_string(),
            _ => "no agent is configured".to_owned(),
        };
        self.failure = Some(failure);
        self.pipeline.thread.end_run(RunStatus::Failed { error });
        self.dirty.run = true;
        self.on_run_end();
    }

    fn note_request_warnings(&mut self, warnings: Vec<crate::protocol::Warning>) {
        for w in warnings {
            let notice = Notice::Protocol(w);
            if !self.request_warnings.contains(&notice) {
                self.request_warnings.push(notice);
                self.dirty.warnings = true;
            }
        }
    }

    /// The JSON body of the last request (tests and debugging).
    pub fn last_request(&self) -> Option<&Value> {
        self.hitl.last_request.as_ref()
    }

    /// The `runId` of the last request.
    pub fn last_run_id(&self) -> Option<&str> {
        let body = self.hitl.last_request.as_ref()?;
        // An AI SDK request names no run: the session's id for it.
        body.get("runId")
            .and_then(Value::as_str)
            .or((!self.run_id.is_empty()).then_some(self.run_id.as_str()))
    }

    // ---- what changed -------------------------------------------------------------------

    /// Record what delivered events changed, for the next flush.
    fn note(&mut self, delivered: &[Delivered]) {
        let now = self.env.now_ms();
        for d in delivered {
            if let Change::ToolCall { id, .. } = &d.change {
                self.dirty.tools.insert(id.clone());
            }
            match d.change.rows() {
                Some(Rows::InPlace(i)) => {
                    self.dirty.rows.insert(i);
                }
                Some(Rows::Appended(_)) => self.dirty.appended = true,
                Some(Rows::Restructured) => self.dirty.restructured = true,
                None => {}
            }
            match &d.change {
                Change::StateReplaced => self.dirty.state_all = true,
                Change::StatePatched(paths) => {
                    let moved_from = match &d.event.kind {
                        EventKind::StateDelta(delta) => delta.delta.as_slice(),
                        _ => &[],
                    };
                    let paths = patched_paths(&self.pipeline.thread.state, paths, moved_from);
                    self.dirty.state_paths.extend(paths);
                }
                Change::Run => self.dirty.run = true,
                Change::Warning => self.dirty.warnings = true,
                _ => {}
            }
            if let EventKind::Custom(c) = &d.event.kind {
                if c.name == "suggestions" {
                    self.agent_suggestions = crate::view::suggestions::from_value(&c.value);
                    self.dirty.run = true;
                }
            }
            // Arrival times the cards show as durations.
            match &d.event.kind {
                EventKind::ToolCallEnd(t) => {
                    self.timings.tool_end.insert(t.tool_call_id.clone(), now);
                }
                EventKind::ToolCallResult(r) => {
                    self.timings.tool_result.insert(r.tool_call_id.clone(), now);
                }
                EventKind::ReasoningMessageStart(s) => {
                    self.timings
                        .reasoning_start
                        .insert(s.message_id.clone(), now);
                }
                EventKind::ReasoningMessageEnd(s) => {
                    self.timings.reasoning_end.insert(s.message_id.clone(), now);
                }
                EventKind::RunStarted(_) | EventKind::RunFinished(_) | EventKind::RunError(_) => {
                    self.dirty.run = true;
                }
                _ => {}
            }
        }
        let thread = &self.pipeline.thread;
        let warnings = thread.warnings.len() + thread.warnings_omitted;
        if warnings != self.warnings_seen {
            self.warnings_seen = warnings;
            self.dirty.warnings = true;
        }
        if self.pipeline.error().is_some() {
            self.dirty.run = true;
        }
    }

    /// Everything on screen must be read again (another thread or branch is shown).
    fn mark_everything(&mut self) {
        self.dirty.restructured = true;
        self.dirty.state_all = true;
        self.dirty.run = true;
        self.dirty.warnings = true;
        self.dirty.all_tools = true;
        self.dirty.queue = true;
    }

    /// What changed since the last flush (and forget it).
    pub fn flush(&mut self) -> Flush {
        let dirty = std::mem::take(&mut self.dirty);
        let mut out = Flush {
            everything: dirty.restructured,
            all_tools: dirty.all_tools || dirty.restructured,
            tools_changed: dirty.tools.into_iter().collect(),
            ..Flush::default()
        };
        if dirty.restructured || dirty.appended {
            let fresh = row_keys(&self.pipeline.thread.messages);
            self.key_index = fresh
                .iter()
                .enumerate()
                .map(|(i, r)| (r.key.clone(), i))
                .collect();
            if dirty.restructured {
                self.rewrite_epoch += 1;
            }
            if self.rows != fresh {
                out.rows = Some(fresh.clone());
            }
            self.rows = fresh;
        }
        out.rows_changed = dirty
            .rows
            .iter()
            .filter_map(|i| self.rows.get(*i).map(|r| r.key.clone()))
            .collect();
        // State paths: clear the old "changed" marks, set the new ones, notify each touched
        // path, its ancestors and (for replaced subtrees) its rendered descendants.
        let patched = !dirty.state_paths.is_empty();
        if dirty.state_all || patched {
            for p in std::mem::take(&mut self.changed_paths) {
                if self.watched_paths.contains(&p) {
                    out.paths.push((p, false));
                }
            }
        }
        if dirty.state_all {
            out.paths
                .extend(self.watched_paths.iter().map(|p| (p.clone(), false)));
        } else if patched {
            let touched = touched_paths(
                &self.pipeline.thread.state,
                &dirty.state_paths,
                &self.watched_paths,
            );
            for t in touched {
                if self.watched_paths.contains(&t) {
                    let changed = dirty.state_paths.contains(&t);
                    out.paths.push((t, changed));
                }
            }
            self.changed_paths = dirty.state_paths;
        }
        out.state_replaced = dirty.state_all;
        out.state_changed = dirty.state_all || patched;
        out.run = dirty.run.then(|| self.run_view());
        out.warnings = dirty.warnings.then(|| self.notices());
        out.log_changed = self.logs.take_changed();
        out.queue = dirty.queue.then(|| self.threads.queued.clone());
        out
    }

    /// Rate an answer (an assistant message of the open thread): the feedback to hand the
    /// page. Refused for another message or an empty id.
    pub fn rate(
        &mut self,
        message_id: &str,
        rating: crate::view::feedback::Rating,
        comment: &str,
    ) -> Option<crate::view::feedback::Feedback> {
        let thread = &self.pipeline.thread;
        let m = thread.messages.get(thread.position(message_id)?)?;
        if m.role != Role::Assistant {
            return None;
        }
        self.ratings.insert(message_id.to_owned(), rating);
        Some(crate::view::feedback::Feedback::new(
            &self.thread_id,
            message_id,
            rating,
            comment,
        ))
    }

    /// The agent's follow-up suggestions, shown after a run: its last `CUSTOM` `suggestions`
    /// event of this run, else a `suggestions` array in its state; none while a run is live.
    pub fn agent_suggestions(&self) -> Vec<crate::view::suggestions::Suggestion> {
        if self.running {
            return Vec::new();
        }
        if !self.agent_suggestions.is_empty() {
            return self.agent_suggestions.clone();
        }
        self.pipeline
            .thread
            .state
            .get("suggestions")
            .map(crate::view::suggestions::from_value)
            .unwrap_or_default()
    }

    /// How the person rated an answer, if they did.
    pub fn rating(&self, message_id: &str) -> Option<crate::view::feedback::Rating> {
        self.ratings.get(message_id).copied()
    }

    /// The warnings list: storage problems and the request's, then the stream's.
    pub fn notices(&self) -> Vec<Notice> {
        self.threads
            .notices
            .iter()
            .chain(&self.request_warnings)
            .cloned()
            .chain(
                self.pipeline
                    .thread
                    .warnings
                    .iter()
                    .map(|w| Notice::Protocol(w.clone())),
            )
            .chain(
                (self.pipeline.thread.warnings_omitted > 0)
                    .then_some(Notice::Omitted(self.pipeline.thread.warnings_omitted)),
            )
            .collect()
    }

    /// Show `notice` in the warnings list (once per distinct notice). True when it is new.
    pub fn notice(&mut self, notice: Notice) -> bool {
        let added = self.threads.notice(notice);
        self.dirty.warnings |= added;
        added
    }
}

/// Two `forwardedProps` objects as one (the second's keys win); either may be absent.
fn merge_props(a: Option<Value>, b: Option<Value>) -> Option<Value> {
    match (a, b) {
        (Some(Value::Object(mut a)), Some(Value::Object(b))) => {
            a.extend(b);
            Some(Value::Object(a))
        }
        (a, None) => a,
        (_, b) => b,
    }
}
