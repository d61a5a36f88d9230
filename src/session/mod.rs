//! The session layer: what a chat does between the protocol core and the screen, as plain Rust
//! (no web-sys, leptos or wasm-bindgen; `tests/project/layering.rs` keeps it so, `tests/session/session.rs`
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
//!   key-value trait ([`storage::KeyValue`]); two versions of one conversation merged into one
//!   ([`merge`]); **the event log** per thread ([`inspector`]).
//! - The clock and the ids come from an [`env::Env`]; failures are values ([`crate::view::failure`]).

pub mod a2ui_out;
pub mod branches;
mod config;
pub mod env;
mod flush;
pub mod hitl;
pub mod inspector;
pub mod local;
pub mod merge;
pub mod queue;
pub mod remote;
mod run;
pub mod storage;
pub mod sync;
pub mod threads;

use std::collections::{HashMap, HashSet};

use serde_json::Value;

pub use crate::view::failure::{EndpointRefusal, Notice, RunFailure, TransportError};
pub use env::{Env, TestEnv};
pub use local::{LocalAgent, LocalAgentRef, TimedChunk};
pub use queue::Offered;

pub use config::{
    merge_headers, AgentConfig, Credentials, FetchPolicy, HeaderFuture, HeaderRequest,
    HeaderSource, DEFAULT_DEMO_SPEED, HEADER_SOURCE_TIMEOUT_MS,
};
pub use flush::Flush;
use flush::{Dirty, Timings};
pub use run::{Route, RunOptions, RunRequest};

use crate::protocol::event::EventKind;
use crate::protocol::input::{history_for_request, prepare_request};
use crate::protocol::resume::CompleteResume;
use crate::protocol::types::{Context, Message, Role, RunAgentInput};
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
    /// The site's thread store's bookkeeping ([`sync`]).
    sync: sync::Sync,
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
            sync: sync::Sync::default(),
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
