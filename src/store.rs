//! `AgentStore`: the browser shell around a [`Session`] (all the logic is there, natively
//! tested): it runs the transport each [`RunRequest`] names, feeds the bytes back, and turns
//! each [`Flush`] into signal writes.
//!
//! - The message list signal (`AgentStore::rows`) changes only when a message is added or the
//!   list is restructured; a text delta bumps the version signal of that one row, an args
//!   delta that one tool card, a `STATE_DELTA` the signals of the state paths it touched.
//! - Components read content straight from the session (`with_message`, `tool_view`, …) when
//!   their version changes: nothing copies the transcript per token.
//! - Byte chunks are folded immediately, but signal writes are coalesced to one flush per
//!   animation frame while streaming, so the DOM is written at most once per frame.

pub mod browser;
mod run;
mod sync;

use std::collections::HashMap;
use std::mem::ManuallyDrop;
use std::rc::Rc;

use leptos::prelude::*;
use serde_json::Value;

pub use crate::session::hitl::{HitlError, PendingCall};
#[cfg(feature = "inspector")]
pub use crate::session::inspector::TraceFormat;
pub use crate::session::threads::{ThreadError, ThreadSummary};
pub use crate::session::{AgentConfig, RunOptions};
pub use crate::view::failure::{Notice, TransportError};
pub use crate::view::feedback::{Feedback, Rating};
pub use crate::view::rows::Row;
pub use crate::view::run::RunView;
pub use crate::view::tool::ToolView;
pub use browser::{browser_locale, BrowserEnv, BrowserStorage};

#[cfg(feature = "inspector")]
use crate::event_log::{EventLog, LogError};
use crate::i18n::{Locale, Strings};
use crate::protocol::types::{Message, ResumeEntry};
use crate::protocol::Thread;
use crate::session::branches::Switcher;
use crate::session::{Flush, Route, RunRequest, Session};
use crate::split::{drive, split, Handoff, LoadFailed};
#[cfg(feature = "inspector")]
use crate::trace::{self, Trace};
use crate::transport::AbortHandle;

/// The longest pause honoured between two events of a timed replay.
#[cfg(feature = "inspector")]
const MAX_REPLAY_GAP_MS: f64 = 10_000.0;

/// The reactive side of the thread list and the branches.
#[derive(Clone, Copy)]
pub struct ThreadSignals {
    /// Every conversation, newest activity first (the open one included).
    pub list: RwSignal<Vec<ThreadSummary>>,
    /// The id of the open conversation.
    pub active: RwSignal<String>,
    /// Bumped when the forks of the open conversation change.
    pub branches: RwSignal<u64>,
    /// The switchers of the forks on screen.
    pub switchers: Memo<Vec<Switcher>>,
}

/// The shell's own state: the signals it hands out, the frame flush, the run's abort handle.
struct Shell {
    row_versions: HashMap<String, RwSignal<u64>>,
    tool_versions: HashMap<String, RwSignal<u64>>,
    path_signals: HashMap<String, RwSignal<(u64, bool)>>,
    hitl_version: Option<RwSignal<u64>>,
    threads: Option<ThreadSignals>,
    frame_scheduled: bool,
    abort: Option<AbortHandle>,
    /// When the timer of the next call to the site's thread store fires ([`sync`]).
    sync_at: Option<f64>,
    /// The page's hiding saves this store's waiting changes ([`sync`]).
    hide_watched: bool,
    /// What to try again, in order, after a part could not be loaded
    /// ([`AgentStore::part_error`]).
    retry_parts: Vec<Rc<dyn Fn()>>,
    /// Owns the lazily created per-row, per-tool and per-path signals. They are created on
    /// first use inside some component, but must outlive it: a remounted component (or a
    /// flush) reuses them, and a signal owned by a disposed component panics when read.
    owner: Owner,
}

/// A chat's session, as the store keeps it. Its drop glue — freeing the pipeline, the decoders,
/// the runs: 12 KB of code — is not in the lean widget's main module: a session is freed by
/// the `run` module's code ([`free_session`]). A session of a page where `run` never came
/// (nobody wrote, nothing was restored) is left as the main module made it: its config and an
/// empty thread, and at most the list of a site's thread store (`run` shows and fills a
/// conversation).
struct Held(Option<ManuallyDrop<Box<Session>>>);

impl Drop for Held {
    fn drop(&mut self) {
        if let Some(session) = self.0.take() {
            if crate::split::run_came() {
                drive(free_session(session), |_| ());
            }
        }
    }
}

split!(run, data:
    /// Frees a session ([`Held`]).
    fn free_session(session: ManuallyDrop<Box<Session>>) -> () {
        drop(ManuallyDrop::into_inner(session));
    }
);

/// The store; `Copy`, provided as context to every component.
#[derive(Clone, Copy)]
pub struct AgentStore {
    session: StoredValue<Held, LocalStorage>,
    shell: StoredValue<Shell, LocalStorage>,
    /// The message rows, in order.
    pub(crate) rows: RwSignal<Vec<Row>>,
    /// Bumped when the state is replaced wholesale (snapshot).
    pub(crate) state_version: RwSignal<u64>,
    /// Bumped once per flush in which the state changed at all (snapshot or delta): for
    /// observers of the whole state (the widget's `agui:state-changed` event).
    pub(crate) state_changes: RwSignal<u64>,
    pub(crate) run: RwSignal<RunView>,
    pub(crate) warnings: RwSignal<Vec<Notice>>,
    /// A run is in flight.
    pub(crate) running: RwSignal<bool>,
    pub(crate) config: RwSignal<AgentConfig>,
    /// The event inspector is shown (an embedding page may set it).
    pub(crate) inspector_open: RwSignal<bool>,
    /// Bumped when the open thread's event log changed, while the inspector is open.
    pub(crate) log_version: RwSignal<u64>,
    /// The last feedback the person gave on an answer (the widget dispatches `agui:feedback`).
    pub(crate) feedback: RwSignal<Option<Feedback>>,
    /// The messages waiting for the agent ([`Session::queued`]).
    pub(crate) queue: RwSignal<Vec<Message>>,
    /// A part of the chat could not be loaded (a module of the lean widget, for an action that
    /// needs it): the error banner says so, and its Retry tries the action again.
    pub(crate) part_error: RwSignal<bool>,
    /// What is saved is being read (the lean widget waits for its `run` module for that): the
    /// transcript shows no welcome meanwhile.
    pub(crate) restoring: RwSignal<bool>,
    /// A message sent before the lean widget's `run` module is here: the transcript shows it,
    /// pending, until it goes out.
    pub(crate) sending: RwSignal<Option<String>>,
}

impl AgentStore {
    /// A store on a fresh thread (nothing saved).
    pub fn new(config: AgentConfig) -> Self {
        Self::on(Session::new(config, BrowserEnv))
    }

    /// A store continuing an existing thread (nothing saved).
    pub fn continuing(config: AgentConfig, thread: Thread, thread_id: String) -> Self {
        Self::on(Session::continuing(config, BrowserEnv, thread, thread_id))
    }

    /// The app's start path (also what a reload runs): the conversations saved in
    /// `localStorage` under `prefix`, the one that was open reopened (see
    /// [`Session::restore`]).
    pub fn restore(config: AgentConfig, prefix: &str) -> Self {
        Self::restore_in(config, BrowserStorage::default(), prefix, None)
    }

    /// [`AgentStore::restore`] from `storage` (`localStorage` or `sessionStorage`), within a
    /// budget of `budget` bytes (`None`: [`crate::session::threads::DEFAULT_STORAGE_BUDGET`]).
    pub fn restore_in(
        config: AgentConfig,
        storage: BrowserStorage,
        prefix: &str,
        budget: Option<usize>,
    ) -> Self {
        let mut session = Session::new(config, BrowserEnv);
        if let Some(max_bytes) = budget {
            session.set_storage_budget(crate::session::threads::StorageBudget {
                max_bytes,
                ..Default::default()
            });
        }
        let saved = Session::has_saved(&storage, prefix);
        session.attach_storage(storage, prefix);
        let store = Self::on(session);
        // `on` read what the fresh session shows (no flush: the lean widget's main module has
        // none — it is in `run`, which every change of the session comes from).
        store.publish();
        // What is saved is read by the `run` module (the lean widget fetches it now, and not
        // at all for a visitor with nothing saved); a run the page left in flight is asked
        // for again (AI SDK resumable streams).
        if saved {
            store.restoring.set(true);
            store.in_module(move || run::read_saved(store));
        }
        store
    }

    /// The shell around a session.
    pub fn on(session: Session) -> Self {
        let config = session.config().clone();
        let rows = session.rows().to_vec();
        let queue = session.queued().to_vec();
        let warnings = session.notices();
        AgentStore {
            session: StoredValue::new_local(Held(Some(ManuallyDrop::new(Box::new(session))))),
            shell: StoredValue::new_local(Shell {
                row_versions: HashMap::new(),
                tool_versions: HashMap::new(),
                path_signals: HashMap::new(),
                hitl_version: None,
                threads: None,
                frame_scheduled: false,
                sync_at: None,
                hide_watched: false,
                abort: None,
                retry_parts: Vec::new(),
                owner: Owner::new(),
            }),
            rows: RwSignal::new(rows),
            state_version: RwSignal::new(0),
            state_changes: RwSignal::new(0),
            run: RwSignal::new(RunView::default()),
            warnings: RwSignal::new(warnings),
            running: RwSignal::new(false),
            config: RwSignal::new(config),
            inspector_open: RwSignal::new(false),
            log_version: RwSignal::new(0),
            feedback: RwSignal::new(None),
            queue: RwSignal::new(queue),
            part_error: RwSignal::new(false),
            restoring: RwSignal::new(false),
            sending: RwSignal::new(None),
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

    // ---- what a page reads and sets (the fields are the chat's own) --------------------

    /// Whether a run is in flight.
    pub fn running(&self) -> Signal<bool> {
        self.running.into()
    }

    /// The last run: status, error, steps, open interrupts.
    pub fn run_view(&self) -> Signal<RunView> {
        self.run.into()
    }

    /// What the chat warns about (bad options, storage, protocol notices).
    pub fn warnings(&self) -> Signal<Vec<Notice>> {
        self.warnings.into()
    }

    /// The configuration (endpoint, headers, language…).
    pub fn config(&self) -> Signal<AgentConfig> {
        self.config.into()
    }

    /// Changes the configuration in place (the next run uses it).
    pub fn update_config(&self, f: impl FnOnce(&mut AgentConfig)) {
        let mut config = self.config.get_untracked();
        f(&mut config);
        self.set_config(config);
    }

    /// Shows or hides the event inspector.
    pub fn set_inspector_open(&self, open: bool) {
        self.inspector_open.set(open);
    }

    /// Read the session (`None` once the chat is gone).
    pub fn try_with_session<R>(&self, f: impl FnOnce(&Session) -> R) -> Option<R> {
        self.session
            .try_with_value(|h| h.0.as_deref().map(|s| f(s)))
            .flatten()
    }

    /// Read the session. A chat that is gone reads as a default (never a panic).
    fn with_session<R: Default>(&self, f: impl FnOnce(&Session) -> R) -> R {
        self.try_with_session(f).unwrap_or_default()
    }

    /// Change the session (`None` once the chat is gone).
    fn update<R>(&self, f: impl FnOnce(&mut Session) -> R) -> Option<R> {
        self.session
            .try_update_value(|h| h.0.as_deref_mut().map(|s| f(s)))
            .flatten()
    }

    /// Change where the next run goes: the session's copy (what runs read) and the `config`
    /// signal (what the UI shows). A run in flight keeps its own settings.
    pub fn set_config(&self, config: AgentConfig) {
        let copy = config.clone();
        self.update(|s| s.set_config(copy));
        self.config.set(config);
    }

    /// The UI strings of `locale` to show (its catalog, with the page's own texts over it):
    /// every text re-renders. Nothing when they are in place already or the chat is gone.
    pub fn set_strings(&self, locale: Locale, strings: &'static Strings) {
        let Some(mut config) = self.config.try_get_untracked().filter(|c| {
            c.strings
                .is_none_or(|(l, s)| l != locale || !std::ptr::eq(s, strings))
        }) else {
            return;
        };
        config.strings = Some((locale, strings));
        self.set_config(config);
    }

    pub fn thread_id(&self) -> String {
        self.with_session(|s| s.thread_id().to_owned())
    }

    // ---- reading ------------------------------------------------------------------------

    /// The owner of the lazily created signals (see `Shell::owner`).
    fn signal_owner(&self) -> Owner {
        self.shell
            .try_with_value(|s| s.owner.clone())
            .unwrap_or_else(Owner::new)
    }

    /// Version signal of a row: bumps when that message's content changes.
    pub fn row_version(&self, key: &str) -> RwSignal<u64> {
        self.version_signal(|s| &mut s.row_versions, key)
    }

    /// Version signal of a tool card.
    pub fn tool_version(&self, tool_call_id: &str) -> RwSignal<u64> {
        self.version_signal(|s| &mut s.tool_versions, tool_call_id)
    }

    /// The version signal under `key` in the map `pick` selects, created on first use. A
    /// signal disposed with the component that created it is replaced, never handed out.
    fn version_signal(
        &self,
        pick: fn(&mut Shell) -> &mut HashMap<String, RwSignal<u64>>,
        key: &str,
    ) -> RwSignal<u64> {
        if let Some(v) = self
            .shell
            .try_update_value(|s| pick(s).get(key).copied())
            .flatten()
            .filter(|v| !v.is_disposed())
        {
            return v;
        }
        let v = self.signal_owner().with(|| RwSignal::new(0));
        self.shell
            .try_update_value(|s| pick(s).insert(key.to_owned(), v));
        v
    }

    /// Signal of one state path: (version, changed by the last delta).
    pub fn path_signal(&self, pointer: &str) -> RwSignal<(u64, bool)> {
        if let Some(v) = self
            .shell
            .try_with_value(|s| s.path_signals.get(pointer).copied())
            .flatten()
            .filter(|v| !v.is_disposed())
        {
            return v;
        }
        let changed = self.update(|s| s.watch_path(pointer)).unwrap_or(false);
        let v = self.signal_owner().with(|| RwSignal::new((0, changed)));
        self.shell
            .try_update_value(|s| s.path_signals.insert(pointer.to_owned(), v));
        v
    }

    /// While it stays the same, message texts only grow, so a view can append the new
    /// suffix without comparing the whole text.
    pub fn rewrite_epoch(&self) -> u64 {
        self.with_session(Session::rewrite_epoch)
    }

    /// Read the message of a row.
    pub fn with_message<R>(&self, key: &str, f: impl FnOnce(&Message) -> R) -> Option<R> {
        self.try_with_session(|s| s.message(key).map(f)).flatten()
    }

    /// Read the whole thread (tests, export).
    pub fn with_thread<R>(&self, f: impl FnOnce(&Thread) -> R) -> R {
        self.session.with_value(|h| match h.0.as_deref() {
            Some(s) => f(s.thread()),
            None => f(&Thread::new()),
        })
    }

    /// Read the state at a JSON pointer.
    pub fn with_state<R>(&self, pointer: &str, f: impl FnOnce(Option<&Value>) -> R) -> R {
        self.session
            .with_value(|h| f(h.0.as_deref().and_then(|s| s.state_at(pointer))))
    }

    /// Seconds a reasoning message took (None while streaming).
    pub fn reasoning_seconds(&self, message_id: &str) -> Option<f64> {
        self.with_session(|s| s.reasoning_seconds(message_id))
    }

    /// True while a reasoning message is still open.
    pub fn reasoning_open(&self, message_id: &str) -> bool {
        self.with_session(|s| s.reasoning_open(message_id))
    }

    /// The card view of one tool call.
    pub fn tool_view(&self, tool_call_id: &str) -> Option<ToolView> {
        self.with_session(|s| s.tool_view(tool_call_id))
    }

    /// The JSON body of the last request sent (tests and debugging).
    pub fn last_request(&self) -> Option<Value> {
        self.with_session(|s| s.last_request().cloned())
    }

    /// The `runId` of the last request sent (without copying the request's history).
    pub fn last_run_id(&self) -> Option<String> {
        self.with_session(|s| s.last_run_id().map(str::to_owned))
    }

    // ---- writing ------------------------------------------------------------------------

    /// Fold response bytes of whatever run is open (recorded streams, tests); schedule one
    /// flush per animation frame.
    pub fn push_bytes(&self, bytes: &[u8]) {
        if self.update(|s| s.push_bytes(bytes)).unwrap_or(0) > 0 {
            self.schedule_flush();
        }
    }

    /// A transport's bytes: ignored once its run is stopped or replaced.
    fn push_for(&self, generation: u64, bytes: &[u8]) {
        if self.update(|s| s.push(generation, bytes)).unwrap_or(0) > 0 {
            self.schedule_flush();
        }
    }

    fn schedule_flush(&self) {
        let schedule = self
            .shell
            .try_update_value(|s| !std::mem::replace(&mut s.frame_scheduled, true))
            .unwrap_or(false);
        if schedule {
            let store = *self;
            request_animation_frame(move || store.flush());
        }
    }

    /// Write everything that changed since the last flush to the signals.
    pub fn flush(&self) {
        let Some((out, running, hitl)) =
            self.update(|s| (s.flush(), s.running(), s.hitl_version()))
        else {
            return;
        };
        let Some(shell) = self.shell.try_update_value(|s| {
            s.frame_scheduled = false;
            Notify::collect(s, &out)
        }) else {
            return;
        };
        // Signals are written only after the session is released: components read it.
        if let Some(rows) = out.rows {
            self.rows.set(rows);
        }
        for b in shell.bumps {
            b.update(|v| *v += 1);
        }
        for (s, changed) in shell.paths {
            s.update(|(v, c)| {
                *v += 1;
                *c = changed;
            });
        }
        if out.state_replaced {
            self.state_version.update(|v| *v += 1);
        }
        if out.state_changed {
            self.state_changes.update(|v| *v += 1);
        }
        if let Some(run) = out.run {
            self.run.set(run);
        }
        if let Some(w) = out.warnings {
            self.warnings.set(w);
        }
        if let Some(q) = out.queue {
            self.queue.set(q);
        }
        if self.running.get_untracked() != running {
            self.running.set(running);
        }
        if let Some(v) = shell.hitl.filter(|v| v.get_untracked() != hitl) {
            v.set(hitl);
        }
        if out.log_changed && self.inspector_open.get_untracked() {
            self.log_version.update(|v| *v += 1);
        }
    }

    /// After an action: flush, publish the thread list, and send the run it asked for.
    fn after(&self, request: Option<RunRequest>) {
        self.flush();
        self.publish();
        if let Some(r) = request {
            self.execute(r);
        }
    }

    /// Run a request's transport: its bytes and its end go back to the session with its
    /// generation. In the lean widget the transport and everything that reads a response
    /// (the wire decoders, the pipeline, the reducer) are in the `run` module.
    fn execute(&self, request: RunRequest) {
        let store = *self;
        let request = Handoff::new(request);
        store.in_module(move || run::request(store, request.clone()));
    }

    /// A transport finished (cleanly or not).
    fn end_for(&self, generation: u64, result: Result<(), TransportError>) {
        self.ended(generation, |s| s.end_run(generation, result));
    }

    /// Run `generation` ends by `end` (when it is still the current run): the next queued
    /// message goes out (when nothing blocks it).
    fn ended(&self, generation: u64, end: impl FnOnce(&mut Session)) {
        let current = self.update(|s| s.is_current(generation)).unwrap_or(false);
        if !current {
            return;
        }
        self.update(end);
        self.shell.try_update_value(|s| s.abort = None);
        let next = self.update(Session::next_queued).flatten();
        self.after(next);
    }

    /// Send a user message and start a run.
    pub fn send(&self, text: String) {
        self.send_with(text, Vec::new());
    }

    /// Send a user message with attachments (content parts after the text).
    pub fn send_with(&self, text: String, parts: Vec<crate::protocol::types::ContentPart>) {
        let store = *self;
        // Shown until `run::send` takes it (at once when the module is here: never drawn).
        self.sending.set(Some(text.clone()));
        let message = Handoff::new((text, parts));
        store.in_module(move || run::send(store, message.clone()));
    }

    /// A message the person chose to send from an MCP App's `ui/message` (see
    /// [`Session::offer`]): `true` when it was sent or queued, `false` when it was refused
    /// and nothing changed.
    pub fn offer(&self, text: String) -> bool {
        use crate::session::Offered;
        match self.update(|s| s.offer(&text)) {
            Some(Offered::Sent(request)) => {
                self.after(request.map(|r| *r));
                true
            }
            Some(Offered::Queued) => {
                self.after(None);
                true
            }
            Some(Offered::Refused) | None => false,
        }
    }

    /// A person acted in an agent-drawn surface: a run carrying `forwarded` in its
    /// `forwardedProps` (see [`Session::send_action`]).
    pub fn send_action(&self, forwarded: Value) -> Option<String> {
        let request = self.update(|s| s.send_action(forwarded)).flatten();
        let run_id = request.as_ref().map(|r| r.run_id.clone());
        self.after(request);
        run_id
    }

    /// A2UI renderer→agent messages for the next run a person starts (see
    /// [`Session::queue_a2ui`]); never starts a run.
    pub fn queue_a2ui(&self, messages: Vec<Value>) {
        self.update(|s| s.queue_a2ui(messages));
    }

    /// An A2UI `callAgentFunction` with this id goes to the agent.
    pub fn expect_a2ui_call(&self, function_call_id: String) {
        self.update(|s| s.expect_a2ui_call(function_call_id));
    }

    /// Whether an `agentFunctionResponse` answers a call still open (then closed).
    pub fn answer_a2ui_call(&self, function_call_id: &str) -> bool {
        self.update(|s| s.answer_a2ui_call(function_call_id))
            .unwrap_or(false)
    }

    /// An MCP App View's model context for the following runs (see
    /// [`Session::set_app_context`]).
    pub fn set_app_context(&self, key: &str, context: Option<crate::protocol::types::Context>) {
        self.update(|s| s.set_app_context(key, context));
    }

    /// Run `run_id` of the open thread has ended: its `RUN_FINISHED.result` (`Some(None)`:
    /// ended without one). `None` while it runs or when it is not in this thread. Tracks
    /// the run.
    pub fn run_result(&self, run_id: &str) -> Option<Option<Value>> {
        self.run.track();
        self.running.track();
        use crate::protocol::RunStatus;
        self.with_session(
            |s| match s.thread().runs.iter().rev().find(|r| r.run_id == run_id) {
                Some(r) if r.status != RunStatus::Running => Some(r.result.clone()),
                Some(_) => None,
                // It failed before any event arrived.
                None if !s.running() => Some(None),
                None => None,
            },
        )
    }

    /// Room for one more message in the queue (see [`Session::can_queue`]).
    pub fn can_queue(&self) -> bool {
        self.with_session(Session::can_queue)
    }

    /// Change a queued message's text (empty: remove it).
    pub fn edit_queued(&self, id: &str, text: &str) {
        self.update(|s| s.edit_queued(id, text));
        self.flush();
    }

    /// Drop a queued message.
    pub fn remove_queued(&self, id: &str) {
        self.update(|s| s.remove_queued(id));
        self.flush();
    }

    /// Send a queued message now (no run in flight).
    pub fn send_queued(&self, id: &str) {
        let request = self.update(|s| s.send_queued(id)).flatten();
        self.after(request);
    }

    /// Retry after a failed run: drop what the failed run produced after the last user
    /// message and run again with a new run id (a failed resume resends its answers).
    pub fn retry(&self) {
        let store = *self;
        store.in_module(move || run::retry(store));
    }

    /// Stop the running run: it shows as stopped and keeps everything received. (Nothing
    /// runs before the `run` module is here, so nothing fetches it.)
    pub fn stop(&self) {
        if self.running.get_untracked() {
            let store = *self;
            store.in_module(move || run::stop(store));
        }
    }

    /// Start a run with the thread's history and state (and `options`).
    pub fn start_run(&self, options: RunOptions) {
        let request = self.update(|s| s.start_run(options)).flatten();
        self.after(request);
    }

    /// Start a run fed by the caller instead of a transport (recorded streams, tests, trace
    /// replay): push bytes with [`AgentStore::push_bytes`], then call [`AgentStore::end_external`].
    pub fn begin_external(&self) {
        self.update(Session::begin_external);
        self.flush();
    }

    /// End a run started with [`AgentStore::begin_external`]; `error` = the transport failed.
    pub fn end_external(&self, error: Option<String>) {
        self.update(|s| {
            s.end_external(match error {
                None => Ok(()),
                Some(e) => Err(TransportError::Network(e)),
            })
        });
        let next = self.update(Session::next_queued).flatten();
        self.after(next);
    }

    /// Show `notice` in the warnings list (once per distinct notice), worded by the catalog
    /// when shown. For problems outside the protocol, e.g. a widget attribute that could not
    /// be used.
    pub fn notice(&self, notice: Notice) {
        // Only the warnings change: written here, without a flush (a widget's problems are
        // noticed on mount, before anything else could have changed).
        if let Some(all) = self
            .update(|s| s.notice(notice).then(|| s.notices()))
            .flatten()
        {
            self.warnings.set(all);
        }
    }

    // ---- human in the loop ----------------------------------------------------------------

    /// Bumps whenever an interrupt answer is recorded, changed or sent (cards re-read their
    /// answer with [`AgentStore::interrupt_answer`]).
    pub fn hitl_version(&self) -> RwSignal<u64> {
        if let Some(v) = self
            .shell
            .try_with_value(|s| s.hitl_version)
            .flatten()
            .filter(|v| !v.is_disposed())
        {
            return v;
        }
        let now = self.with_session(Session::hitl_version);
        let v = self.signal_owner().with(|| RwSignal::new(now));
        self.shell.try_update_value(|s| s.hitl_version = Some(v));
        v
    }

    /// The answer recorded for an open interrupt, if any.
    pub fn interrupt_answer(&self, interrupt_id: &str) -> Option<ResumeEntry> {
        self.with_session(|s| s.interrupt_answer(interrupt_id).cloned())
    }

    /// (answered, open) interrupts of the thread.
    pub fn interrupt_progress(&self) -> (usize, usize) {
        self.with_session(Session::interrupt_progress)
    }

    /// Run a HITL action: flush what it changed and send the run it started, if any.
    fn hitl(
        &self,
        f: impl FnOnce(&mut Session) -> Result<Option<RunRequest>, HitlError>,
    ) -> Result<(), HitlError> {
        let result = self.update(f).ok_or(HitlError::Closed)?;
        match result {
            Ok(request) => {
                self.after(request);
                Ok(())
            }
            Err(e) => {
                self.flush();
                Err(e)
            }
        }
    }

    /// Record an answer (`resolved` with `payload`). A lone open interrupt is resumed right
    /// away; with several, the answers wait for [`AgentStore::send_answers`].
    pub fn answer_interrupt(&self, interrupt_id: &str, payload: Value) -> Result<(), HitlError> {
        self.hitl(|s| s.answer_interrupt(interrupt_id, payload))
    }

    /// Record that an interrupt is abandoned (`cancelled`; allowed also once expired).
    pub fn cancel_interrupt(&self, interrupt_id: &str) -> Result<(), HitlError> {
        self.hitl(|s| s.cancel_interrupt(interrupt_id))
    }

    /// Forget the answer to one interrupt (the person wants to change it before sending).
    pub fn clear_interrupt_answer(&self, interrupt_id: &str) {
        self.update(|s| s.clear_interrupt_answer(interrupt_id));
        self.flush();
    }

    /// Resume: a new run whose `resume` covers every open interrupt (see
    /// [`Session::send_answers`]).
    pub fn send_answers(&self) -> Result<(), HitlError> {
        self.hitl(Session::send_answers)
    }

    /// Abandon everything the agent is waiting for and resume.
    pub fn cancel_all_interrupts(&self) -> Result<(), HitlError> {
        self.hitl(Session::cancel_all_interrupts)
    }

    /// Answer a pending tool call (see [`Session::answer_tool_call`]).
    pub fn answer_tool_call(
        &self,
        tool_call_id: &str,
        result: Result<Value, String>,
    ) -> Result<(), HitlError> {
        self.hitl(|s| s.answer_tool_call(tool_call_id, result))
    }

    /// A handler's answer to a pending tool call (see
    /// [`Session::answer_tool_call_from_handler`]: runs started this way are capped).
    pub fn answer_tool_call_from_handler(
        &self,
        tool_call_id: &str,
        result: Result<Value, String>,
    ) -> Result<(), HitlError> {
        self.hitl(|s| s.answer_tool_call_from_handler(tool_call_id, result))
    }

    /// Handlers answered every call, the next run waits for a person (read under
    /// [`AgentStore::hitl_version`]).
    pub fn run_held(&self) -> bool {
        self.with_session(Session::run_held)
    }

    /// A person lets the held run go.
    pub fn continue_held_run(&self) {
        let store = *self;
        store.in_module(move || run::continue_held_run(store));
    }

    /// A part of the chat could not be loaded: shown by the error banner, whose Retry runs
    /// `retry` after what failed before it (see [`AgentStore::retry_part`]).
    pub fn part_failed(&self, retry: Rc<dyn Fn()>) {
        self.shell.try_update_value(|s| s.retry_parts.push(retry));
        self.part_error.set(true);
        self.restoring.set(false);
        self.sending.set(None);
    }

    /// Try again what could not be loaded ([`AgentStore::part_failed`]).
    pub fn retry_part(&self) {
        self.part_error.set(false);
        let retries = self
            .shell
            .try_update_value(|s| std::mem::take(&mut s.retry_parts))
            .unwrap_or_default();
        for retry in retries {
            retry();
        }
    }

    /// Rate an answer (see [`Session::rate`]); the feedback is published on
    /// `AgentStore::feedback` and returned for the page's callbacks.
    pub fn rate(&self, message_id: &str, rating: Rating, comment: &str) -> Option<Feedback> {
        let feedback = self
            .update(|s| s.rate(message_id, rating, comment))
            .flatten()?;
        self.feedback.set(Some(feedback.clone()));
        Some(feedback)
    }

    /// The agent's follow-up suggestions (see [`Session::agent_suggestions`]); tracks the run
    /// and the state.
    pub fn agent_suggestions(&self) -> Vec<crate::view::suggestions::Suggestion> {
        self.running.track();
        self.run.track();
        self.state_version.track();
        self.with_session(Session::agent_suggestions)
    }

    /// How the person rated an answer.
    pub fn rating(&self, message_id: &str) -> Option<Rating> {
        self.try_with_session(|s| s.rating(message_id)).flatten()
    }

    /// Frontend tool calls waiting for the browser.
    pub fn pending_frontend_calls(&self) -> Vec<PendingCall> {
        self.with_session(Session::pending_frontend_calls)
    }

    /// Claim a pending call for its handler: true the first time only.
    pub fn claim_tool_call(&self, tool_call_id: &str) -> bool {
        let claimed = self
            .update(|s| s.claim_tool_call(tool_call_id))
            .unwrap_or(false);
        if claimed {
            self.flush();
        }
        claimed
    }

    // ---- threads and branches -------------------------------------------------------------

    /// The thread list and branch signals (created on first use, owned by the store).
    pub fn threads(&self) -> ThreadSignals {
        if let Some(s) = self.shell.try_with_value(|s| s.threads).flatten() {
            return s;
        }
        let store = *self;
        let list = self.with_session(Session::summaries);
        let active = self.thread_id();
        let signals = self.signal_owner().with(|| {
            let branches = RwSignal::new(0u64);
            ThreadSignals {
                list: RwSignal::new(list),
                active: RwSignal::new(active),
                branches,
                switchers: Memo::new(move |_| {
                    store.rows.track();
                    branches.track();
                    store.with_session(Session::switchers)
                }),
            }
        });
        self.shell.try_update_value(|s| s.threads = Some(signals));
        signals
    }

    /// What the person typed in the open conversation and did not send
    /// ([`Session::draft`]).
    pub fn draft(&self) -> String {
        self.with_session(Session::draft)
    }

    /// Keep the open conversation's draft in memory ([`Session::set_draft`]);
    /// [`AgentStore::save_drafts`] writes it to storage.
    pub fn set_draft(&self, text: &str) {
        self.update(|s| s.set_draft(text));
    }

    /// The files attached in the composer of the open conversation ([`Session::set_draft_files`]).
    pub fn set_draft_files(&self, files: Vec<(String, u64)>) {
        self.update(|s| s.set_draft_files(files));
    }

    /// The files a draft had when the page was left ([`Session::draft_files_from_before`]).
    pub fn draft_files_from_before(&self) -> Vec<(String, u64)> {
        self.with_session(Session::draft_files_from_before)
    }

    /// Whether there are any ([`Session::has_draft_files_from_before`]).
    pub fn has_draft_files_from_before(&self) -> bool {
        self.with_session(Session::has_draft_files_from_before)
    }

    /// Write the drafts changed since the last call to storage ([`Session::save_drafts`]).
    pub fn save_drafts(&self) {
        // (In the `run` module, which a person who types has fetched.)
        let store = *self;
        store.in_module(move || run::save_drafts(store));
    }

    /// When message `id` arrived here ([`Session::arrived`]).
    pub fn arrived(&self, id: &str) -> Option<f64> {
        self.with_session(|s| s.arrived(id))
    }

    /// The person's earlier prompts in the open conversation, oldest first
    /// ([`Session::prompts`]).
    pub fn prompts(&self) -> Vec<String> {
        self.with_session(Session::prompts)
    }

    /// Whether conversations are saved in the browser (a store made by [`AgentStore::restore`]).
    pub fn persists(&self) -> bool {
        self.with_session(Session::persists)
    }

    /// After the thread on screen was replaced: flush every mark and publish the list.
    pub fn on_thread_switched(&self) {
        self.flush();
        self.publish();
    }

    /// Write the thread list, the active id and the branch version to their signals.
    fn publish(&self) {
        self.sync_soon();
        let Some(s) = self.shell.try_with_value(|s| s.threads).flatten() else {
            return;
        };
        let Some((list, active)) =
            self.try_with_session(|x| (x.summaries(), x.thread_id().to_owned()))
        else {
            return;
        };
        if s.list.get_untracked() != list {
            s.list.set(list);
        }
        if s.active.get_untracked() != active {
            s.active.set(active);
        }
        s.branches.update(|v| *v += 1);
    }

    /// Run a thread or branch action: flush, publish, send the run it started.
    fn thread_action<T>(
        &self,
        f: impl FnOnce(&mut Session) -> Result<T, ThreadError>,
        request: impl FnOnce(T) -> Option<RunRequest>,
    ) -> Result<(), ThreadError> {
        let result = self.update(f).ok_or(ThreadError::Closed)?;
        let out = result.map(request);
        match out {
            Ok(r) => {
                self.after(r);
                Ok(())
            }
            Err(e) => {
                self.flush();
                Err(e)
            }
        }
    }

    /// Start a new conversation (a new `threadId`); the open one is kept.
    pub fn new_thread(&self) -> Result<(), ThreadError> {
        self.thread_action(Session::new_thread, |_| None)
    }

    /// Open another conversation. Refused while a run is in flight (stop it first).
    pub fn switch_thread(&self, id: &str) -> Result<(), ThreadError> {
        self.thread_action(|s| s.switch_thread(id), |_| None)
    }

    /// Name a conversation; an empty name goes back to the automatic title.
    pub fn rename_thread(&self, id: &str, title: &str) -> Result<(), ThreadError> {
        self.thread_action(|s| s.rename_thread(id, title), |_| None)
    }

    /// Delete a conversation, from memory and storage.
    pub fn delete_thread(&self, id: &str) -> Result<(), ThreadError> {
        self.thread_action(|s| s.delete_thread(id), |_| None)
    }

    /// Regenerate the last answer (the old one is kept as a variant).
    pub fn regenerate(&self) -> Result<(), ThreadError> {
        self.thread_action(Session::regenerate, |r| r)
    }

    /// Edit an earlier user message: a new branch and a run.
    pub fn edit_message(&self, message_id: &str, text: &str) -> Result<(), ThreadError> {
        self.thread_action(|s| s.edit_message(message_id, text), |r| r)
    }

    /// Show variant `to` of the fork after `anchor` (`None` = the start).
    pub fn switch_branch(&self, anchor: Option<&str>, to: usize) -> Result<(), ThreadError> {
        self.thread_action(|s| s.switch_branch(anchor, to), |_| None)
    }

    /// The switcher on a message, if variants diverge there (reactive).
    pub fn switcher_on(&self, message_id: &str) -> Option<Switcher> {
        self.threads()
            .switchers
            .with(|s| s.iter().find(|s| s.message_id == message_id).cloned())
    }

    /// Whether branching is possible right now (idle, nothing waiting). Reactive on the run.
    pub fn can_branch(&self) -> bool {
        !self.running.get()
            && self
                .run
                .with(|r| r.interrupts.is_empty() && r.pending_tool_calls.is_empty())
    }
}

/// The event inspector's side (a bundle with the inspector).
#[cfg(feature = "inspector")]
impl AgentStore {
    /// Read the open thread's log (`None` once the chat is gone).
    pub fn with_log<R>(&self, f: impl FnOnce(&EventLog) -> R) -> Option<R> {
        self.try_with_session(|s| f(s.log()))
    }

    /// The open thread as it was after its first `k` logged events.
    pub fn thread_at(&self, k: usize) -> Result<Thread, LogError> {
        self.try_with_session(|s| s.thread_at(k))
            .unwrap_or(Err(LogError::Empty))
    }

    /// The open thread's trace as a file's bytes.
    pub fn export_trace(&self, format: TraceFormat) -> Vec<u8> {
        self.with_session(|s| s.export_trace(format))
    }

    /// Replay a trace into a new thread, with its original timing (`timed`) or at once.
    /// Refused while a run is in flight. Stop ends it like a run.
    pub async fn replay_trace(self, trace: Trace, timed: bool) -> Result<(), ThreadError> {
        self.thread_action(Session::begin_replay, |_| None)?;
        match trace {
            Trace::Sse(bytes) => {
                self.begin_external();
                self.push_bytes(&bytes);
                self.end_external(None);
            }
            Trace::Runs(runs) => {
                let mut last_at: Option<f64> = None;
                for run in runs {
                    self.update(|s| s.begin_replayed_run(&run));
                    self.flush();
                    for (at, event) in &run.events {
                        if timed {
                            let gap =
                                last_at.map_or(0.0, |l| (at - l).clamp(0.0, MAX_REPLAY_GAP_MS));
                            if gap >= 1.0 {
                                crate::transport::sleep(gap as u32).await;
                            }
                        }
                        last_at = Some(*at);
                        // Stopped (or the chat closed) while waiting: what arrived stays.
                        if !self.running.try_get_untracked().unwrap_or(false) {
                            return Ok(());
                        }
                        self.push_bytes(&trace::sse_frame(event));
                    }
                    self.end_external(None);
                }
            }
        }
        Ok(())
    }
}

/// The signals a flush notifies, collected from the shell's maps.
struct Notify {
    bumps: Vec<RwSignal<u64>>,
    paths: Vec<(RwSignal<(u64, bool)>, bool)>,
    hitl: Option<RwSignal<u64>>,
}

impl Notify {
    fn collect(shell: &Shell, out: &Flush) -> Notify {
        let mut bumps = Vec::new();
        if out.everything {
            bumps.extend(shell.row_versions.values().copied());
        } else {
            bumps.extend(
                out.rows_changed
                    .iter()
                    .filter_map(|k| shell.row_versions.get(k).copied()),
            );
        }
        if out.all_tools {
            bumps.extend(shell.tool_versions.values().copied());
        } else {
            bumps.extend(
                out.tools_changed
                    .iter()
                    .filter_map(|t| shell.tool_versions.get(t).copied()),
            );
        }
        let paths = out
            .paths
            .iter()
            .filter_map(|(p, changed)| shell.path_signals.get(p).map(|s| (*s, *changed)))
            .collect();
        Notify {
            bumps,
            paths,
            hitl: shell.hitl_version,
        }
    }
}

impl AgentStore {
    /// Runs `call` — a call of a `split!` function that returns nothing (an action: most are in
    /// `run`, adding files is in `attach`) — at once when its module is here (for `run`, always
    /// after the first run), else once it arrives, in the order asked for. A module that cannot
    /// be loaded is reported ([`AgentStore::part_failed`]) with `call` to try again. Without
    /// the split build the call is ready on its first poll: it runs now.
    pub fn in_module<F, Fut>(self, call: F)
    where
        F: Fn() -> Fut + 'static,
        Fut: std::future::Future<Output = Result<(), LoadFailed>> + 'static,
    {
        fn run_once<F, Fut>(store: AgentStore, call: Rc<F>)
        where
            F: Fn() -> Fut + 'static,
            Fut: std::future::Future<Output = Result<(), LoadFailed>> + 'static,
        {
            drive(call(), move |done| {
                if done.is_err() {
                    store.part_failed(Rc::new(move || run_once(store, call.clone())));
                }
            });
        }
        run_once(self, Rc::new(call));
    }
}
