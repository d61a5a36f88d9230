//! `AgentStore`: the pure thread model ([`crate::protocol::Thread`], folded by the
//! [`Pipeline`]) behind fine-grained Leptos signals.
//!
//! - The message list signal ([`AgentStore::rows`]) changes only when a message is added or the
//!   list is restructured; a text delta bumps the version signal of that one row, an args
//!   delta that one tool card, a `STATE_DELTA` the signals of the state paths it touched.
//! - Components read content straight from the thread (`with_message`, `tool_view`, …) when
//!   their version changes: nothing copies the transcript per token.
//! - Byte chunks are folded immediately, but signal writes are coalesced to one flush per
//!   animation frame while streaming, so the DOM is written at most once per frame.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use leptos::prelude::*;
use serde_json::Value;

use crate::i18n::Locale;
use crate::protocol::event::EventKind;
use crate::protocol::input::{history_for_request, prepare_request};
use crate::protocol::reducer::Run;
use crate::protocol::types::{Content, Interrupt, Message, Role, RunAgentInput, TokenUsage};
use crate::protocol::{
    Change, Delivered, Pipeline, PipelineOptions, ProtocolError, Rows, RunStatus, Thread,
};
use crate::session::LocalAgentRef;
use crate::transport::{self, AbortHandle, TransportError};
pub use crate::view::tool::{ToolStatus, ToolView};

pub mod hitl;
pub mod inspector;
pub mod threads;

/// Extra inputs of one run beyond the history and state.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Answers to the open interrupts (complete by construction).
    pub resume: Option<crate::protocol::resume::CompleteResume>,
    /// Also send the answers the older way (`forwardedProps.command.resume`).
    pub legacy_resume: bool,
}

/// Where runs go.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentConfig {
    /// An AG-UI endpoint URL (relative URLs work); `None` = the local agent.
    pub endpoint: Option<String>,
    /// The agent that answers in the page when there is no endpoint (the demo plug-in's);
    /// with neither, a run fails with [`RunFailure::NoAgent`].
    pub local_agent: Option<LocalAgentRef>,
    /// Extra request headers (auth).
    pub headers: Vec<(String, String)>,
    /// Local agent playback speed (1.0 = its own timing; larger is faster; 0 = instant).
    pub demo_speed: f64,
    /// Frontend tools advertised in `RunAgentInput.tools` (executed in the browser).
    pub tools: Vec<crate::protocol::types::Tool>,
    /// Send resume answers also as `forwardedProps.command.resume` (older LangGraph/Mastra
    /// servers read only that).
    pub legacy_resume: bool,
    /// The UI language; defaults to the browser's (`navigator.languages`), else English.
    pub locale: Locale,
}

impl Default for AgentConfig {
    fn default() -> Self {
        Self {
            endpoint: None,
            local_agent: None,
            headers: Vec::new(),
            demo_speed: 0.0,
            tools: Vec::new(),
            legacy_resume: false,
            locale: browser_locale(),
        }
    }
}

/// The first shipped language among the browser's preferred ones, else English.
pub fn browser_locale() -> Locale {
    let Some(navigator) = web_sys::window().map(|w| w.navigator()) else {
        return Locale::default();
    };
    let preferred: Vec<String> = navigator
        .languages()
        .iter()
        .filter_map(|v| v.as_string())
        .chain(navigator.language())
        .collect();
    Locale::negotiate(preferred.iter().map(String::as_str))
}

/// One rendered message row. `key` is unique even when a producer reuses a message id.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Row {
    pub key: String,
    pub id: String,
    pub role: Role,
}

/// Why the last run ended badly, as a value: the error banner words it with the catalog of
/// the current locale (`ui::errors`), so a locale switch re-words it. Text that came from the
/// agent (its `RUN_ERROR` message) or from a technical diagnostic is carried as is.
#[derive(Debug, Clone, PartialEq)]
pub enum RunFailure {
    /// The agent's `RUN_ERROR`: its message and code, as sent.
    Agent {
        message: String,
        code: Option<String>,
    },
    /// The stream broke the protocol (the diagnostic stays English: it is technical).
    Protocol(String),
    /// The transport failed (HTTP status, content type, network).
    Transport(TransportError),
    /// The request could not be built (technical reason).
    Request(String),
    /// The stream ended before the run finished.
    ConnectionLost,
    /// The pipeline's own protocol error (technical, English).
    Pipeline(String),
    /// The chat has neither an endpoint nor a local agent.
    NoAgent,
}

/// One entry of the warnings list, as a value worded when shown (`ui::errors`).
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// A protocol warning from `src/protocol/`: a technical diagnostic (JSON pointers, event
    /// names) that stays English.
    Protocol(String),
    /// Browser storage is unavailable (the browser's reason).
    StorageUnavailable(String),
    /// A saved conversation could not be read: its storage key and the browser's reason.
    RecordUnreadable { key: String, reason: String },
    /// A saved conversation was skipped as unreadable; where its data was kept, if moved.
    RecordSkipped {
        reason: String,
        kept_under: Option<String>,
    },
    /// The saved list of conversations was unreadable and rebuilt.
    IndexUnreadable(String),
    /// The saved list of conversations could not be read (the browser's reason).
    IndexReadFailed(String),
    /// A conversation could not be saved: its title (`None`: the automatic one) and why.
    SaveFailed {
        title: Option<String>,
        reason: String,
    },
    /// The list of conversations could not be saved (the browser's reason).
    IndexSaveFailed(String),
    /// A saved conversation could not be deleted (the browser's reason).
    DeleteFailed(String),
    /// A widget option could not be used (which one and why: technical).
    WidgetOption(String),
}

/// What the status line, error banner and step indicator show.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunView {
    pub status: RunStatus,
    /// Open steps (innermost last).
    pub steps: Vec<String>,
    /// The banner text when the run ended badly (agent error, protocol failure, transport
    /// error, lost connection).
    pub error: Option<RunFailure>,
    pub usage: Vec<TokenUsage>,
    pub interrupts: Vec<Interrupt>,
    pub pending_tool_calls: Vec<String>,
}

/// What changed since the last flush.
#[derive(Debug, Default)]
struct Dirty {
    rows: HashSet<usize>,
    appended: bool,
    restructured: bool,
    tools: HashSet<String>,
    state_all: bool,
    state_paths: Vec<String>,
    run: bool,
    warnings: bool,
}

#[derive(Debug, Default)]
struct Timings {
    tool_end: HashMap<String, f64>,
    tool_result: HashMap<String, f64>,
    reasoning_start: HashMap<String, f64>,
    reasoning_end: HashMap<String, f64>,
}

struct Engine {
    pipeline: Pipeline,
    thread_id: String,
    rows: Vec<Row>,
    key_index: HashMap<String, usize>,
    row_versions: HashMap<String, RwSignal<u64>>,
    tool_versions: HashMap<String, RwSignal<u64>>,
    path_signals: HashMap<String, RwSignal<(u64, bool)>>,
    changed_paths: Vec<String>,
    dirty: Dirty,
    frame_scheduled: bool,
    /// Bumped when a run starts or is stopped. A transport task only touches the store while
    /// its generation is current, so a stopped run's late bytes or end never reach the next.
    run_gen: u64,
    timings: Timings,
    config: AgentConfig,
    /// Error from the transport layer for the current run (shown in the banner).
    transport_error: Option<RunFailure>,
    /// Warnings already published to the signal.
    warnings_seen: usize,
    /// Owns the lazily created per-row, per-tool and per-path signals. They are created on
    /// first use inside some component, but must outlive it: a remounted component (or a
    /// flush) reuses them, and a signal owned by a disposed component panics when read.
    owner: Owner,
    /// Interrupt answers, claimed frontend tool calls, the last request (`store/hitl.rs`).
    hitl: hitl::Hitl,
    /// Other conversations, storage, branches of this one (`store/threads.rs`).
    threads: threads::ThreadsState,
    /// Bumped whenever the message list is restructured (snapshot, branch or thread switch):
    /// between two bumps a message's text only grows by appended deltas.
    rewrite_epoch: u64,
    /// The event logs of the threads (`store/inspector.rs`).
    inspector: inspector::InspectorState,
}

/// The store; `Copy`, provided as context to every component.
#[derive(Clone, Copy)]
pub struct AgentStore {
    engine: StoredValue<Engine>,
    abort: StoredValue<Option<AbortHandle>, LocalStorage>,
    /// The message rows, in order.
    pub rows: RwSignal<Vec<Row>>,
    /// Bumped when the state is replaced wholesale (snapshot).
    pub state_version: RwSignal<u64>,
    /// Bumped once per flush in which the state changed at all (snapshot or delta): for
    /// observers of the whole state (the widget's `agui:state-changed` event).
    pub state_changes: RwSignal<u64>,
    pub run: RwSignal<RunView>,
    pub warnings: RwSignal<Vec<Notice>>,
    /// A run is in flight.
    pub running: RwSignal<bool>,
    pub config: RwSignal<AgentConfig>,
    /// The event inspector is shown (an embedding page may set it).
    pub inspector_open: RwSignal<bool>,
    /// Bumped when the open thread's event log changed, while the inspector is open.
    pub log_version: RwSignal<u64>,
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// A fresh random id (`prefix-xxxxxxxx…`).
pub fn new_id(prefix: &str) -> String {
    let a = (js_sys::Math::random() * 4_294_967_296.0) as u64;
    let b = (js_sys::Math::random() * 4_294_967_296.0) as u64;
    format!("{prefix}-{:x}{a:08x}{b:08x}", now_ms() as u64)
}

fn row_keys(messages: &[Message]) -> Vec<Row> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    messages
        .iter()
        .map(|m| {
            let n = seen.entry(m.id.as_str()).or_insert(0);
            let key = if *n == 0 {
                m.id.clone()
            } else {
                format!("{}#{}", m.id, n)
            };
            *n += 1;
            Row {
                key,
                id: m.id.clone(),
                role: m.role,
            }
        })
        .collect()
}

fn parent_pointer(p: &str) -> Option<&str> {
    p.rfind('/').map(|i| &p[..i])
}

/// The pointers a successful `STATE_DELTA` changed, as the UI addresses them: an append
/// (`/list/-`) becomes the index it landed at, and a `move` also changed its `from` location.
/// `state` is the state after the patch.
fn patched_paths(state: &Value, paths: &[String], ops: &[Value]) -> Vec<String> {
    let mut out = Vec::with_capacity(paths.len() + 1);
    // Appends to the same array land at consecutive indices ending at its last element.
    let mut appends: HashMap<&str, (usize, usize)> = HashMap::new();
    for parent in paths.iter().filter_map(|p| p.strip_suffix("/-")) {
        appends.entry(parent).or_insert((0, 0)).1 += 1;
    }
    for p in paths {
        let Some(parent) = p.strip_suffix("/-") else {
            out.push(p.clone());
            continue;
        };
        let (nth, total) = appends.get(parent).copied().unwrap_or((0, 1));
        appends.insert(parent, (nth + 1, total));
        let len = state
            .pointer(parent)
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        match (len + nth).checked_sub(total) {
            Some(i) => out.push(format!("{parent}/{i}")),
            None => out.push(p.clone()),
        }
    }
    for op in ops {
        if op.get("op").and_then(Value::as_str) == Some("move") {
            if let Some(from) = op.get("from").and_then(Value::as_str) {
                out.push(from.to_owned());
            }
        }
    }
    out
}

/// An insert into or removal from an array shifts the elements after it: their rendered
/// signals (`/list/j`, `j >= i`, and below) must re-read although no operation named them.
fn shifted_siblings(
    state: &Value,
    pointer: &str,
    signals: &HashMap<String, RwSignal<(u64, bool)>>,
    touched: &mut HashSet<String>,
) {
    let Some((parent, last)) = pointer.rsplit_once('/') else {
        return;
    };
    let Ok(i) = last.parse::<usize>() else {
        return;
    };
    if !state.pointer(parent).is_some_and(Value::is_array) {
        return;
    }
    let prefix = format!("{parent}/");
    for k in signals.keys() {
        let Some(rest) = k.strip_prefix(&prefix) else {
            continue;
        };
        let segment = rest.split('/').next().unwrap_or(rest);
        if segment.parse::<usize>().is_ok_and(|j| j >= i) {
            touched.insert(k.clone());
        }
    }
}

impl AgentStore {
    /// A store on a fresh thread.
    pub fn new(config: AgentConfig) -> Self {
        Self::continuing(config, Thread::new(), new_id("thread"))
    }

    /// A store continuing an existing thread.
    pub fn continuing(config: AgentConfig, thread: Thread, thread_id: String) -> Self {
        let rows = row_keys(&thread.messages);
        let engine = Engine {
            pipeline: Pipeline::new(thread, PipelineOptions::default()),
            thread_id,
            key_index: rows
                .iter()
                .enumerate()
                .map(|(i, r)| (r.key.clone(), i))
                .collect(),
            rows: rows.clone(),
            row_versions: HashMap::new(),
            tool_versions: HashMap::new(),
            path_signals: HashMap::new(),
            changed_paths: Vec::new(),
            dirty: Dirty::default(),
            frame_scheduled: false,
            run_gen: 0,
            timings: Timings::default(),
            config: config.clone(),
            transport_error: None,
            warnings_seen: 0,
            rewrite_epoch: 0,
            owner: Owner::new(),
            hitl: hitl::Hitl::default(),
            threads: threads::ThreadsState::default(),
            inspector: inspector::InspectorState::default(),
        };
        AgentStore {
            engine: StoredValue::new(engine),
            abort: StoredValue::new_local(None),
            rows: RwSignal::new(rows),
            state_version: RwSignal::new(0),
            state_changes: RwSignal::new(0),
            run: RwSignal::new(RunView::default()),
            warnings: RwSignal::new(Vec::new()),
            running: RwSignal::new(false),
            config: RwSignal::new(config),
            inspector_open: RwSignal::new(false),
            log_version: RwSignal::new(0),
        }
    }

    /// Put the store in context.
    pub fn provide(self) {
        provide_context(self);
    }

    /// The store from context (a component outside the chat is a programming error).
    pub fn expect() -> Self {
        expect_context::<AgentStore>()
    }

    /// Change where the next run goes: updates the engine's copy (what `start_run` reads) and
    /// the `config` signal (what the UI shows). A run in flight keeps its own settings.
    pub fn set_config(&self, config: AgentConfig) {
        let copy = config.clone();
        self.engine.update_value(|e| e.config = copy);
        self.config.set(config);
    }

    pub fn thread_id(&self) -> String {
        self.engine.with_value(|e| e.thread_id.clone())
    }

    // ---- reading ------------------------------------------------------------------------

    /// The owner of the lazily created signals (see `Engine::owner`).
    fn signal_owner(&self) -> Owner {
        self.engine
            .try_with_value(|e| e.owner.clone())
            .unwrap_or_else(Owner::new)
    }

    /// Version signal of a row: bumps when that message's content changes.
    pub fn row_version(&self, key: &str) -> RwSignal<u64> {
        self.version_signal(|e| &mut e.row_versions, key)
    }

    /// Version signal of a tool card.
    pub fn tool_version(&self, tool_call_id: &str) -> RwSignal<u64> {
        self.version_signal(|e| &mut e.tool_versions, tool_call_id)
    }

    /// The version signal under `key` in the map `pick` selects, created on first use. A
    /// signal disposed with the component that created it is replaced, never handed out.
    fn version_signal(
        &self,
        pick: fn(&mut Engine) -> &mut HashMap<String, RwSignal<u64>>,
        key: &str,
    ) -> RwSignal<u64> {
        if let Some(v) = self
            .engine
            .try_update_value(|e| pick(e).get(key).copied())
            .flatten()
            .filter(|v| !v.is_disposed())
        {
            return v;
        }
        let v = self.signal_owner().with(|| RwSignal::new(0));
        self.engine.update_value(|e| {
            pick(e).insert(key.to_owned(), v);
        });
        v
    }

    /// Signal of one state path: (version, changed by the last delta).
    pub fn path_signal(&self, pointer: &str) -> RwSignal<(u64, bool)> {
        if let Some(v) = self
            .engine
            .with_value(|e| e.path_signals.get(pointer).copied())
            .filter(|v| !v.is_disposed())
        {
            return v;
        }
        let changed = self
            .engine
            .with_value(|e| e.changed_paths.iter().any(|p| p == pointer));
        let v = self.signal_owner().with(|| RwSignal::new((0, changed)));
        self.engine.update_value(|e| {
            e.path_signals.insert(pointer.to_owned(), v);
        });
        v
    }

    /// See `Engine::rewrite_epoch`: while it stays the same, message texts only grow, so a
    /// view can append the new suffix without comparing the whole text.
    pub fn rewrite_epoch(&self) -> u64 {
        self.engine.with_value(|e| e.rewrite_epoch)
    }

    /// Read the message of a row.
    pub fn with_message<R>(&self, key: &str, f: impl FnOnce(&Message) -> R) -> Option<R> {
        self.engine.with_value(|e| {
            let i = *e.key_index.get(key)?;
            e.pipeline.thread.messages.get(i).map(f)
        })
    }

    /// Read the whole thread (tests, export).
    pub fn with_thread<R>(&self, f: impl FnOnce(&Thread) -> R) -> R {
        self.engine.with_value(|e| f(&e.pipeline.thread))
    }

    /// Read the state at a JSON pointer.
    pub fn with_state<R>(&self, pointer: &str, f: impl FnOnce(Option<&Value>) -> R) -> R {
        self.engine
            .with_value(|e| f(e.pipeline.thread.state.pointer(pointer)))
    }

    /// Seconds a reasoning message took (None while streaming).
    pub fn reasoning_seconds(&self, message_id: &str) -> Option<f64> {
        self.engine.with_value(|e| {
            let start = e.timings.reasoning_start.get(message_id)?;
            let end = e.timings.reasoning_end.get(message_id)?;
            Some(((end - start) / 1000.0).max(0.0))
        })
    }

    /// True while a reasoning message is still open.
    pub fn reasoning_open(&self, message_id: &str) -> bool {
        self.engine.with_value(|e| {
            e.timings.reasoning_start.contains_key(message_id)
                && !e.timings.reasoning_end.contains_key(message_id)
                && e.pipeline.run_active()
        })
    }

    /// The card view of one tool call.
    pub fn tool_view(&self, tool_call_id: &str) -> Option<ToolView> {
        self.engine.with_value(|e| {
            let thread = &e.pipeline.thread;
            let (_, call) = thread.tool_call(tool_call_id)?;
            let args = thread.tool_args.get(tool_call_id);
            let result = thread.tool_result(tool_call_id);
            let ended = args.is_none_or(|a| a.ended);
            let pending = !e.pipeline.run_active()
                && thread
                    .pending_tool_calls()
                    .iter()
                    .any(|p| p == tool_call_id);
            let active = e.pipeline.run_active();
            let status = match result {
                Some(m) if m.error.is_some() => ToolStatus::Error,
                Some(_) => ToolStatus::Success,
                None if pending => e.pending_status(tool_call_id, &call.function.name),
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
                e.timings.tool_end.get(tool_call_id),
                e.timings.tool_result.get(tool_call_id),
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
        })
    }

    // ---- writing ------------------------------------------------------------------------

    /// Fold response bytes; schedule one flush per animation frame.
    pub fn push_bytes(&self, bytes: &[u8]) {
        let delivered = self.engine.try_update_value(|e| {
            let log = e.inspector.log_mut(&e.thread_id);
            let out = log.push(&mut e.pipeline, bytes, now_ms());
            e.note(&out);
            out.len()
        });
        if delivered.unwrap_or(0) > 0 {
            self.schedule_flush();
        }
    }

    fn schedule_flush(&self) {
        let schedule = self
            .engine
            .try_update_value(|e| !std::mem::replace(&mut e.frame_scheduled, true))
            .unwrap_or(false);
        if schedule {
            let store = *self;
            request_animation_frame(move || store.flush());
        }
    }

    /// Write everything that changed since the last flush to the signals.
    pub fn flush(&self) {
        struct Out {
            rows: Option<Vec<Row>>,
            bumps: Vec<RwSignal<u64>>,
            paths: Vec<(RwSignal<(u64, bool)>, bool)>,
            state_all: bool,
            state_touched: bool,
            run: Option<RunView>,
            warnings: Option<Vec<Notice>>,
        }
        let Some(out) = self
            .engine
            .try_update_value(|e| {
                e.frame_scheduled = false;
                let dirty = std::mem::take(&mut e.dirty);
                let mut bumps = Vec::new();
                let mut rows = None;
                if dirty.restructured || dirty.appended {
                    let old = std::mem::take(&mut e.rows);
                    let fresh = row_keys(&e.pipeline.thread.messages);
                    e.key_index = fresh
                        .iter()
                        .enumerate()
                        .map(|(i, r)| (r.key.clone(), i))
                        .collect();
                    if dirty.restructured {
                        e.rewrite_epoch += 1;
                        bumps.extend(e.row_versions.values().copied());
                        bumps.extend(e.tool_versions.values().copied());
                    }
                    if old != fresh {
                        rows = Some(fresh.clone());
                    }
                    e.rows = fresh;
                }
                for i in &dirty.rows {
                    if let Some(v) = e.rows.get(*i).and_then(|r| e.row_versions.get(&r.key)) {
                        bumps.push(*v);
                    }
                }
                for t in &dirty.tools {
                    if let Some(v) = e.tool_versions.get(t) {
                        bumps.push(*v);
                    }
                }
                // State paths: clear the old "changed" marks, set the new ones, bump each touched
                // path, its ancestors and (for replaced subtrees) its rendered descendants.
                let mut paths = Vec::new();
                if dirty.state_all || !dirty.state_paths.is_empty() {
                    for p in std::mem::take(&mut e.changed_paths) {
                        if let Some(s) = e.path_signals.get(&p) {
                            paths.push((*s, false));
                        }
                    }
                }
                if dirty.state_all {
                    for s in e.path_signals.values() {
                        paths.push((*s, false));
                    }
                } else if !dirty.state_paths.is_empty() {
                    let mut touched: HashSet<String> = HashSet::new();
                    for p in &dirty.state_paths {
                        let mut cur = p.as_str();
                        touched.insert(cur.to_owned());
                        while let Some(parent) = parent_pointer(cur) {
                            touched.insert(parent.to_owned());
                            cur = parent;
                        }
                        let prefix = format!("{p}/");
                        for k in e.path_signals.keys() {
                            if k.starts_with(&prefix) {
                                touched.insert(k.clone());
                            }
                        }
                        shifted_siblings(
                            &e.pipeline.thread.state,
                            p,
                            &e.path_signals,
                            &mut touched,
                        );
                    }
                    for t in &touched {
                        if let Some(s) = e.path_signals.get(t) {
                            paths.push((*s, dirty.state_paths.contains(t)));
                        }
                    }
                    e.changed_paths = dirty.state_paths.clone();
                }
                Some(Out {
                    rows,
                    bumps,
                    paths,
                    state_all: dirty.state_all,
                    state_touched: dirty.state_all || !dirty.state_paths.is_empty(),
                    run: dirty.run.then(|| e.run_view()),
                    warnings: dirty.warnings.then(|| {
                        // Storage problems first (`store/threads.rs`), then the protocol's.
                        e.threads
                            .notices
                            .iter()
                            .cloned()
                            .chain(
                                e.pipeline
                                    .thread
                                    .warnings
                                    .iter()
                                    .map(|w| Notice::Protocol(w.to_string())),
                            )
                            .collect()
                    }),
                })
            })
            .flatten()
        else {
            return;
        };
        // Signals are written only after the engine is released: components read it.
        if let Some(rows) = out.rows {
            self.rows.set(rows);
        }
        for b in out.bumps {
            b.update(|v| *v += 1);
        }
        for (s, changed) in out.paths {
            s.update(|(v, c)| {
                *v += 1;
                *c = changed;
            });
        }
        if out.state_all {
            self.state_version.update(|v| *v += 1);
        }
        if out.state_touched {
            self.state_changes.update(|v| *v += 1);
        }
        if let Some(run) = out.run {
            self.run.set(run);
        }
        if let Some(w) = out.warnings {
            self.warnings.set(w);
        }
        self.publish_log();
    }

    /// Send a user message and start a run.
    pub fn send(&self, text: String) {
        if self.running.get_untracked() {
            return;
        }
        let text = text.trim().to_owned();
        if text.is_empty() {
            return;
        }
        let sent = self
            .engine
            .try_update_value(|e| {
                let thread = &mut e.pipeline.thread;
                // Open interrupts lock the composer: they must be answered or cancelled first.
                if !thread.open_interrupts().is_empty() {
                    return false;
                }
                // A frontend tool call left unanswered is closed, so the history never
                // carries a call without a result.
                if !thread
                    .cancel_pending_tool_calls("cancelled by user", || new_id("tool"))
                    .is_empty()
                {
                    e.dirty.restructured = true;
                }
                thread.append(Message::user(new_id("msg"), text));
                e.dirty.appended = true;
                true
            })
            .unwrap_or(false);
        if sent {
            self.start_run(RunOptions::default());
        }
    }

    /// Retry after a failed run: drop what the failed run produced after the last user
    /// message and run again with a new run id.
    pub fn retry(&self) {
        if self.running.get_untracked() {
            return;
        }
        // A failed resume run leaves its interrupts open (§4.11): resend the same answers, and
        // never truncate away the message that asked.
        if self.with_thread(|t| !t.open_interrupts().is_empty()) {
            if !self.retry_resume() {
                self.engine.update_value(|e| e.dirty.run = true);
                self.flush();
            }
            return;
        }
        self.engine.update_value(|e| {
            let thread = &mut e.pipeline.thread;
            if let Some(i) = thread.messages.iter().rposition(|m| m.role == Role::User) {
                thread.truncate(i + 1);
                e.dirty.restructured = true;
            }
        });
        self.start_run(RunOptions::default());
    }

    /// Stop the running run: it shows as stopped and keeps everything received.
    pub fn stop(&self) {
        if let Some(handle) = self.abort.get_value() {
            handle.abort();
        }
        self.next_run_gen();
        self.engine.update_value(|e| {
            e.pipeline.abort();
            e.dirty.run = true;
            e.dirty.tools.extend(e.tool_versions.keys().cloned());
        });
        self.running.set(false);
        self.flush();
        self.on_run_end();
    }

    /// Start a run with the thread's history and state (and `options`).
    pub(crate) fn start_run(&self, options: RunOptions) {
        let prepared = self.engine.try_update_value(|e| {
            let thread = std::mem::take(&mut e.pipeline.thread);
            e.pipeline = Pipeline::new(thread, PipelineOptions::default());
            e.inspector
                .log_mut(&e.thread_id)
                .begin_run(&e.pipeline.thread, now_ms());
            e.transport_error = None;
            let run_id = new_id("run");
            let input = RunAgentInput {
                thread_id: e.thread_id.clone(),
                run_id: run_id.clone(),
                protocol_version: None,
                parent_run_id: None,
                state: Some(e.pipeline.thread.state.clone()),
                messages: history_for_request(&e.pipeline.thread.messages),
                tools: Some(e.config.tools.clone()),
                context: Some(Vec::new()),
                forwarded_props: match &options.resume {
                    Some(r) if options.legacy_resume || e.config.legacy_resume => {
                        Some(r.legacy_command())
                    }
                    _ => None,
                },
                resume: options.resume.as_ref().map(|r| r.entries().to_vec()),
            };
            e.dirty.run = true;
            (prepare_request(&input, None), e.config.clone())
        });
        let Some((prepared, config)) = prepared else {
            return;
        };
        let body = match prepared {
            Ok((body, _warnings)) => {
                self.record_request(&body);
                body
            }
            Err(err) => {
                self.engine.update_value(|e| {
                    e.transport_error = Some(RunFailure::Request(err.to_string()));
                    e.pipeline.thread.end_run(RunStatus::Failed {
                        error: err.to_string(),
                    });
                    e.dirty.run = true;
                });
                self.flush();
                return;
            }
        };
        self.running.set(true);
        // Flush before marking the run: the run view a flush computes is the thread's last
        // outcome until this run's RUN_STARTED arrives ("Done", or the old error banner while
        // retrying), and the status line must show the request in flight.
        self.flush();
        self.run.update(|r| {
            r.status = RunStatus::Running;
            r.error = None;
        });
        self.on_run_start();
        let store = *self;
        let this_run = self.next_run_gen();
        match (config.endpoint.clone(), config.local_agent.clone()) {
            (None, None) => {
                self.engine.update_value(|e| {
                    e.transport_error = Some(RunFailure::NoAgent);
                    e.pipeline.thread.end_run(RunStatus::Failed {
                        error: "no agent is configured".to_owned(),
                    });
                    e.dirty.run = true;
                });
                self.running.set(false);
                self.flush();
                self.on_run_end();
            }
            (None, Some(agent)) => {
                let flag = Rc::new(std::cell::Cell::new(false));
                let handle = AbortHandle::Local(flag);
                self.abort.set_value(Some(handle.clone()));
                leptos::task::spawn_local(async move {
                    let chunks = agent.respond(&body);
                    let result = transport::run_local(chunks, &handle, config.demo_speed, |b| {
                        if store.is_current_run(this_run) {
                            store.push_bytes(b)
                        }
                    })
                    .await;
                    if store.is_current_run(this_run) {
                        store.end_transport(result);
                    }
                });
            }
            (Some(endpoint), _) => {
                let handle = match transport::fetch_abort_handle() {
                    Ok(h) => h,
                    Err(e) => {
                        store.end_transport(Err(e));
                        return;
                    }
                };
                self.abort.set_value(Some(handle.clone()));
                let text = body.to_string();
                leptos::task::spawn_local(async move {
                    let result =
                        transport::run_http(&endpoint, &config.headers, &text, &handle, |b| {
                            if store.is_current_run(this_run) {
                                store.push_bytes(b)
                            }
                        })
                        .await;
                    if store.is_current_run(this_run) {
                        store.end_transport(result);
                    }
                });
            }
        }
    }

    /// A new run generation: transport tasks of earlier ones go stale.
    fn next_run_gen(&self) -> u64 {
        self.engine
            .try_update_value(|e| {
                e.run_gen += 1;
                e.run_gen
            })
            .unwrap_or(0)
    }

    /// Whether a transport task of generation `run` still owns the store.
    fn is_current_run(&self, run: u64) -> bool {
        self.engine
            .try_with_value(|e| e.run_gen == run)
            .unwrap_or(false)
    }

    /// Start a run fed by the caller instead of a transport (recorded streams, tests, trace
    /// replay): push bytes with [`AgentStore::push_bytes`], then call [`AgentStore::end_external`].
    pub fn begin_external(&self) {
        self.engine.update_value(|e| {
            let thread = std::mem::take(&mut e.pipeline.thread);
            e.pipeline = Pipeline::new(thread, PipelineOptions::default());
            e.inspector
                .log_mut(&e.thread_id)
                .begin_run(&e.pipeline.thread, now_ms());
            e.transport_error = None;
            e.dirty.run = true;
        });
        self.running.set(true);
        self.flush();
    }

    /// End a run started with [`AgentStore::begin_external`]; `error` = the transport failed.
    pub fn end_external(&self, error: Option<String>) {
        self.end_transport(match error {
            None => Ok(()),
            Some(e) => Err(TransportError::Network(e)),
        });
    }

    /// The transport finished (cleanly or not): finish the pipeline and surface the outcome.
    fn end_transport(&self, result: Result<(), TransportError>) {
        let aborted = matches!(result, Err(TransportError::Aborted));
        self.engine.update_value(|e| {
            match result {
                Ok(()) => {
                    let log = e.inspector.log_mut(&e.thread_id);
                    let out = log.finish(&mut e.pipeline, now_ms());
                    e.note(&out);
                }
                Err(TransportError::Aborted) => {}
                Err(err) => {
                    e.inspector
                        .log_mut(&e.thread_id)
                        .note_error(err.to_string(), now_ms());
                    e.pipeline.thread.end_run(RunStatus::Failed {
                        error: err.to_string(),
                    });
                    e.pipeline.abort();
                    e.transport_error = Some(RunFailure::Transport(err));
                }
            }
            e.dirty.run = true;
            e.dirty.warnings = true;
            e.dirty.tools.extend(e.tool_versions.keys().cloned());
            e.dirty
                .rows
                .extend(0..e.pipeline.thread.messages.len().min(4096));
        });
        if !aborted {
            self.abort.set_value(None);
        }
        self.running.set(false);
        self.flush();
        self.on_run_end();
    }
}

impl Engine {
    /// Record what delivered events changed, for the next flush.
    fn note(&mut self, delivered: &[Delivered]) {
        let now = now_ms();
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
                Change::Nothing
                | Change::Message(_)
                | Change::Appended(_)
                | Change::Messages
                | Change::ToolCall { .. } => {}
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
            }
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
                    if let Some(i) = self.pipeline.thread.position(&s.message_id) {
                        self.dirty.rows.insert(i);
                    }
                }
                EventKind::RunStarted(_) | EventKind::RunFinished(_) | EventKind::RunError(_) => {
                    self.dirty.run = true;
                }
                _ => {}
            }
        }
        let warnings = self.pipeline.thread.warnings.len();
        if warnings != self.warnings_seen {
            self.warnings_seen = warnings;
            self.dirty.warnings = true;
        }
        if self.pipeline.error().is_some() {
            self.dirty.run = true;
        }
    }

    fn run_view(&self) -> RunView {
        let thread = &self.pipeline.thread;
        let run: Option<&Run> = thread.run();
        let status = thread.status();
        let error = match &status {
            RunStatus::Error { message, code } => Some(RunFailure::Agent {
                message: message.clone(),
                code: code.clone(),
            }),
            RunStatus::Failed { error } => Some(
                self.transport_error
                    .clone()
                    .unwrap_or_else(|| RunFailure::Protocol(error.clone())),
            ),
            RunStatus::Truncated => Some(RunFailure::ConnectionLost),
            _ => match self.pipeline.error() {
                Some(ProtocolError::Stopped) | None => None,
                Some(e) => Some(RunFailure::Pipeline(e.to_string())),
            },
        };
        RunView {
            status,
            steps: run
                .map(|r| r.steps.iter().map(|(_, s)| s.clone()).collect())
                .unwrap_or_default(),
            error,
            usage: run.map(|r| r.usage.clone()).unwrap_or_default(),
            interrupts: thread.open_interrupts().to_vec(),
            pending_tool_calls: thread.pending_tool_calls(),
        }
    }
}
