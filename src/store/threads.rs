//! Threads: several conversations, each saved in the browser and restored after a reload, and
//! branches inside each (regenerate an answer, edit an earlier message — [`crate::branches`]).
//!
//! **One conversation is open at a time**: its [`Thread`] is in the engine's pipeline, with its
//! `threadId` (stable for every run of it, spec digest §1.2), its branches and its title. The
//! others are parked as [`ThreadRecord`]s in memory, so the list works even where the browser
//! keeps nothing; storage is written through.
//!
//! **Storage** (`localStorage`, only for stores made with [`AgentStore::restore`]): one key per
//! conversation, `{prefix}:thread:{threadId}` → a [`ThreadRecord`] (messages, state, how the
//! last run ended — open interrupts and pending tool calls included — branches, title,
//! timestamps), and `{prefix}:index` → a [`ThreadIndex`] (the list and the thread to reopen).
//! The prefix ([`DEFAULT_STORAGE_PREFIX`] in the app) keeps several widgets on one page apart.
//! The thread keys are the truth: a conversation whose index write failed still loads. Saved:
//! when a run starts (the new user message is never lost) and ends, when it is stopped, and
//! after every action that changes history (regenerate, edit, switch a branch, rename,
//! delete). A failed write (quota) or an unreadable value is a warning in the warnings list,
//! never a panic; an unreadable conversation is moved aside to `{prefix}:unreadable:{id}`
//! (kept, not destroyed) and skipped — one saved by another format version is only skipped.
//!
//! **Switching conversations is refused while a run is in flight** ([`ThreadError::Running`]):
//! the person stops it first (the Stop button), so a run never ends up in a conversation it
//! was not started for, and nothing is cancelled behind their back. Interrupts and pending
//! tool calls belong to their conversation: they live in its `Thread` (and are saved with it),
//! and the HITL answers being collected are kept per thread id (`store/hitl.rs`).
//!
//! **Branches** are refused while a run is in flight, while interrupts are open and while a
//! frontend tool call waits for its result: a stored variant never carries any of those.

use leptos::prelude::*;

use super::*;
use crate::branches::{
    by_activity, display_title, parse_index, parse_record, BranchError, Branches, IndexEntry,
    RecordError, Switcher, ThreadIndex, ThreadRecord, VERSION,
};
use crate::protocol::reducer::{SavedRun, SavedThread};

/// The storage prefix the app uses.
pub use crate::embed::DEFAULT_STORAGE_PREFIX;

/// One line of the thread list.
#[derive(Debug, Clone, PartialEq)]
pub struct ThreadSummary {
    pub id: String,
    pub title: String,
    /// The person named it (the title no longer follows the first message).
    pub renamed: bool,
    /// Last activity, milliseconds since the epoch.
    pub updated_at: f64,
}

/// Why a thread or branch action was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ThreadError {
    #[error("a run is in progress: stop it first")]
    Running,
    #[error("there is no conversation '{0}'")]
    UnknownThread(String),
    #[error("only your own messages can be edited")]
    NotEditable,
    #[error("the message is empty")]
    EmptyText,
    #[error("there is no answer to regenerate yet")]
    NothingToRegenerate,
    #[error(transparent)]
    Branch(#[from] BranchError),
    #[error("the chat has been closed")]
    Closed,
}

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

/// The engine's thread bookkeeping.
#[derive(Default)]
pub(super) struct ThreadsState {
    /// Storage key prefix; `None` = nothing is persisted (conversations live for the page).
    prefix: Option<String>,
    /// The other conversations.
    parked: Vec<ThreadRecord>,
    /// The open conversation's name, if the person gave it one.
    title: Option<String>,
    created_at: f64,
    updated_at: f64,
    branches: Branches,
    /// Storage problems, shown in the warnings list before the protocol warnings.
    pub(super) notices: Vec<Notice>,
    signals: Option<ThreadSignals>,
}

impl ThreadsState {
    fn notice(&mut self, text: Notice) -> bool {
        if self.notices.contains(&text) {
            return false;
        }
        self.notices.push(text);
        true
    }
}

// ---- storage -------------------------------------------------------------------------------

fn thread_key(prefix: &str, id: &str) -> String {
    format!("{prefix}:thread:{id}")
}

fn index_key(prefix: &str) -> String {
    format!("{prefix}:index")
}

/// `"QuotaExceededError: …"` from a thrown DOMException, or whatever text the value has.
fn js_text(e: &wasm_bindgen::JsValue) -> String {
    let field = |k: &str| {
        js_sys::Reflect::get(e, &wasm_bindgen::JsValue::from_str(k))
            .ok()
            .and_then(|v| v.as_string())
            .filter(|s| !s.is_empty())
    };
    match (field("name"), field("message")) {
        (Some(n), Some(m)) => format!("{n}: {m}"),
        (Some(t), None) | (None, Some(t)) => t,
        (None, None) => e.as_string().unwrap_or_else(|| "unknown error".to_owned()),
    }
}

/// The page's `localStorage`, or why there is none (blocked, sandboxed, not a window).
fn local_storage() -> Result<web_sys::Storage, String> {
    let window = web_sys::window().ok_or_else(|| "no window".to_owned())?;
    match window.local_storage() {
        Ok(Some(s)) => Ok(s),
        Ok(None) => Err("localStorage is not available".to_owned()),
        Err(e) => Err(js_text(&e)),
    }
}

fn write(key: &str, value: &str) -> Result<(), String> {
    local_storage()?
        .set_item(key, value)
        .map_err(|e| js_text(&e))
}

fn remove(key: &str) -> Result<(), String> {
    local_storage()?.remove_item(key).map_err(|e| js_text(&e))
}

/// Everything saved under a prefix.
struct Loaded {
    records: Vec<ThreadRecord>,
    active: Option<String>,
    notices: Vec<Notice>,
}

fn load(prefix: &str) -> Loaded {
    let mut out = Loaded {
        records: Vec::new(),
        active: None,
        notices: Vec::new(),
    };
    let storage = match local_storage() {
        Ok(s) => s,
        Err(e) => {
            out.notices.push(Notice::StorageUnavailable(e));
            return out;
        }
    };
    let thread_prefix = format!("{prefix}:thread:");
    let count = storage.length().unwrap_or(0);
    let ids: Vec<String> = (0..count)
        .filter_map(|i| storage.key(i).ok().flatten())
        .filter_map(|k| k.strip_prefix(&thread_prefix).map(str::to_owned))
        .collect();
    for id in ids {
        let key = thread_key(prefix, &id);
        let text = match storage.get_item(&key) {
            Ok(Some(t)) => t,
            Ok(None) => continue,
            Err(e) => {
                out.notices.push(Notice::RecordUnreadable {
                    key,
                    reason: js_text(&e),
                });
                continue;
            }
        };
        match parse_record(&id, &text) {
            Ok(r) => out.records.push(r),
            Err(err) => {
                // Kept for whoever wants to recover it, but out of the way of the next load.
                // A record from another format version stays where it is: the version that
                // wrote it can still read it.
                let aside = format!("{prefix}:unreadable:{id}");
                let moved = !matches!(err, RecordError::Version(_))
                    && storage.set_item(&aside, &text).is_ok()
                    && {
                        let _ = storage.remove_item(&key);
                        true
                    };
                out.notices.push(Notice::RecordSkipped {
                    reason: err.to_string(),
                    kept_under: moved.then_some(aside),
                });
            }
        }
    }
    match storage.get_item(&index_key(prefix)) {
        Ok(Some(text)) => match parse_index(&text) {
            Ok(index) => out.active = index.active,
            Err(err) => out.notices.push(Notice::IndexUnreadable(err.to_string())),
        },
        Ok(None) => {}
        Err(e) => out.notices.push(Notice::IndexReadFailed(js_text(&e))),
    }
    out
}

// ---- the engine side -------------------------------------------------------------------------

impl Engine {
    /// The open conversation as a record.
    fn current_record(&self) -> ThreadRecord {
        ThreadRecord {
            version: VERSION,
            id: self.thread_id.clone(),
            title: self.threads.title.clone(),
            created_at: self.threads.created_at,
            updated_at: self.threads.updated_at,
            thread: self.pipeline.thread.saved(),
            branches: self.threads.branches.clone(),
        }
    }

    /// Replace the thread on screen. The pipeline is stopped until the next run starts, so
    /// nothing late can fold into it; every row, tool card, state path and the run view is
    /// marked for the next flush. `keep_warnings`: the same conversation (a branch switch).
    fn install(&mut self, saved: SavedThread, keep_warnings: bool) {
        let old = std::mem::take(&mut self.pipeline.thread);
        let mut thread = Thread::from_saved(saved);
        if keep_warnings {
            thread.warnings = old.warnings;
            thread.subagents = old.subagents;
        }
        self.warnings_seen = thread.warnings.len();
        let mut pipeline = Pipeline::new(thread, PipelineOptions::default());
        pipeline.abort();
        self.pipeline = pipeline;
        self.transport_error = None;
        self.mark_everything();
    }

    /// Everything on screen must be read again.
    fn mark_everything(&mut self) {
        self.dirty.restructured = true;
        self.dirty.state_all = true;
        self.dirty.run = true;
        self.dirty.warnings = true;
        self.dirty.tools.extend(self.tool_versions.keys().cloned());
    }

    /// Open a parked or fresh conversation in place of the current one (which is parked).
    fn open(&mut self, record: ThreadRecord) {
        let current = self.current_record();
        self.park(current);
        self.thread_id = record.id;
        self.threads.title = record.title;
        self.threads.created_at = record.created_at;
        self.threads.updated_at = record.updated_at;
        self.threads.branches = record.branches;
        self.install(record.thread, false);
    }

    /// Keep a conversation in memory (only if it is worth keeping).
    fn park(&mut self, record: ThreadRecord) {
        self.threads.parked.retain(|r| r.id != record.id);
        if record.worth_saving() {
            self.threads.parked.push(record);
        }
    }

    fn take_parked(&mut self, id: &str) -> Option<ThreadRecord> {
        let i = self.threads.parked.iter().position(|r| r.id == id)?;
        Some(self.threads.parked.remove(i))
    }

    /// The list: every parked conversation and the open one, newest activity first.
    fn summaries(&self) -> Vec<ThreadSummary> {
        let mut list: Vec<ThreadSummary> = self
            .threads
            .parked
            .iter()
            .map(|r| ThreadSummary {
                id: r.id.clone(),
                title: r.display_title(),
                renamed: r.title.is_some(),
                updated_at: r.updated_at,
            })
            .collect();
        list.push(ThreadSummary {
            id: self.thread_id.clone(),
            title: display_title(
                self.threads.title.as_deref(),
                &self.pipeline.thread.messages,
            ),
            renamed: self.threads.title.is_some(),
            updated_at: self.threads.updated_at,
        });
        list.sort_by(|a, b| by_activity((a.updated_at, &a.id), (b.updated_at, &b.id)));
        list
    }

    fn index(&self) -> ThreadIndex {
        ThreadIndex {
            version: VERSION,
            active: Some(self.thread_id.clone()),
            threads: self
                .summaries()
                .into_iter()
                .map(|s| IndexEntry {
                    id: s.id,
                    title: s.title,
                    updated_at: s.updated_at,
                })
                .collect(),
        }
    }

    /// Write one record (or remove it when there is nothing worth keeping). A failure is a
    /// notice; returns whether the warnings changed.
    fn write_record(&mut self, record: &ThreadRecord) -> bool {
        let Some(prefix) = self.threads.prefix.clone() else {
            return false;
        };
        let key = thread_key(&prefix, &record.id);
        let result = if record.worth_saving() {
            serde_json::to_string(record)
                .map_err(|e| e.to_string())
                .and_then(|text| write(&key, &text))
        } else {
            remove(&key)
        };
        match result {
            Ok(()) => false,
            Err(e) => self.threads.notice(Notice::SaveFailed {
                // The automatic title is worded when shown (`None`).
                title: Some(record.display_title())
                    .filter(|t| record.title.is_some() || t != crate::branches::UNTITLED),
                reason: e,
            }),
        }
    }

    fn write_index(&mut self) -> bool {
        let Some(prefix) = self.threads.prefix.clone() else {
            return false;
        };
        let result = serde_json::to_string(&self.index())
            .map_err(|e| e.to_string())
            .and_then(|text| write(&index_key(&prefix), &text));
        match result {
            Ok(()) => false,
            Err(e) => self.threads.notice(Notice::IndexSaveFailed(e)),
        }
    }

    /// Save the open conversation and the index. `touch`: this is activity (the list order).
    fn save_current(&mut self, touch: bool) -> bool {
        self.save_with(touch, None)
    }

    /// [`Engine::save_current`]; `in_flight`: the id of a run being sent right now. It is
    /// saved as running, so a reload mid-run shows the run as cut off (with Retry) instead of
    /// a question that silently never got an answer. Interrupts it resumes stay open until it
    /// has finished.
    fn save_with(&mut self, touch: bool, in_flight: Option<String>) -> bool {
        if touch {
            self.threads.updated_at = now_ms();
        }
        let messages = std::mem::take(&mut self.pipeline.thread.messages);
        self.threads.branches.prune(&messages);
        self.pipeline.thread.messages = messages;
        let mut record = self.current_record();
        if let Some(run_id) = in_flight {
            let interrupts = record
                .thread
                .last_run
                .take()
                .map(|r| r.interrupts)
                .unwrap_or_default();
            record.thread.last_run = Some(SavedRun {
                run_id,
                status: RunStatus::Running.name().to_owned(),
                interrupts,
                pending_tool_calls: Vec::new(),
                error: None,
            });
        }
        let a = self.write_record(&record);
        let b = self.write_index();
        if a || b {
            self.dirty.warnings = true;
        }
        a || b
    }

    /// The state the run of user message `message_id` started from (the current state when
    /// it was not recorded): where a regenerated or edited run starts again.
    fn run_start_state(&self, message_id: &str) -> Value {
        self.threads
            .branches
            .base_state(message_id)
            .cloned()
            .unwrap_or_else(|| self.pipeline.thread.state.clone())
    }

    /// No branch while anything waits: a run, an open interrupt, a pending tool call.
    fn check_branchable(&self) -> Result<(), ThreadError> {
        let thread = &self.pipeline.thread;
        if self.pipeline.run_active() {
            return Err(ThreadError::Running);
        }
        let open = thread.open_interrupts().len();
        if open > 0 {
            return Err(BranchError::InterruptsOpen(open).into());
        }
        let pending = thread.pending_tool_calls().len();
        if pending > 0 {
            return Err(BranchError::ToolCallsPending(pending).into());
        }
        Ok(())
    }
}

// ---- the store API -------------------------------------------------------------------------

impl AgentStore {
    /// Show `text` in the warnings list (with the storage notices; once per distinct text),
    /// worded by the catalog when shown. For problems outside the protocol, e.g. a widget
    /// attribute that could not be used.
    pub fn notice(&self, text: Notice) {
        let added = self
            .engine
            .try_update_value(|e| {
                let added = e.threads.notice(text);
                e.dirty.warnings |= added;
                added
            })
            .unwrap_or(false);
        if added {
            self.flush();
        }
    }

    /// The app's start path (also what a reload runs): load the conversations saved under
    /// `prefix` and reopen the one that was open — with its open interrupts and pending tool
    /// calls — or the most recent one, or a fresh conversation. Unreadable data becomes
    /// warnings; nothing here panics.
    pub fn restore(config: AgentConfig, prefix: &str) -> Self {
        let loaded = load(prefix);
        let mut records = loaded.records;
        records.sort_by(|a, b| by_activity((a.updated_at, &a.id), (b.updated_at, &b.id)));
        let pick = loaded
            .active
            .as_deref()
            .and_then(|id| records.iter().position(|r| r.id == id))
            .or(if records.is_empty() { None } else { Some(0) });
        let opened = pick.map(|i| records.remove(i));
        let now = now_ms();
        let record = opened.unwrap_or_else(|| ThreadRecord::empty(new_id("thread"), now));
        let store = AgentStore::continuing(config, Thread::new(), record.id.clone());
        store.engine.update_value(|e| {
            e.threads.prefix = Some(prefix.to_owned());
            e.threads.notices = loaded.notices;
            e.threads.parked = records;
            e.threads.title = record.title;
            e.threads.created_at = record.created_at;
            e.threads.updated_at = record.updated_at;
            e.threads.branches = record.branches;
            e.install(record.thread, false);
        });
        store.on_thread_switched();
        store
    }

    /// The thread list and branch signals (created on first use, owned by the store).
    pub fn threads(&self) -> ThreadSignals {
        if let Some(s) = self.engine.try_with_value(|e| e.threads.signals).flatten() {
            return s;
        }
        let store = *self;
        let list = self.engine.with_value(Engine::summaries);
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
                    store
                        .engine
                        .try_with_value(|e| {
                            e.threads.branches.switchers(&e.pipeline.thread.messages)
                        })
                        .unwrap_or_default()
                }),
            }
        });
        self.engine
            .update_value(|e| e.threads.signals = Some(signals));
        signals
    }

    /// Whether conversations are saved in the browser (a store made by [`AgentStore::restore`]).
    pub fn persists(&self) -> bool {
        self.engine.with_value(|e| e.threads.prefix.is_some())
    }

    /// After the thread on screen was replaced (another conversation, another branch, a
    /// restore): flush every mark [`Engine::install`] set, and publish the list, the active
    /// id and the branches. The HITL answers are kept per thread id and re-checked against
    /// the open interrupts (`store/hitl.rs`), so they need no reset here.
    pub fn on_thread_switched(&self) {
        self.flush();
        self.publish();
    }

    /// Write the thread list, the active id and the branch version to their signals.
    fn publish(&self) {
        let Some((list, active, signals)) = self
            .engine
            .try_with_value(|e| (e.summaries(), e.thread_id.clone(), e.threads.signals))
        else {
            return;
        };
        let Some(s) = signals else {
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

    /// Save the open conversation now. `touch`: counts as activity (moves it up the list).
    fn save(&self, touch: bool) {
        let warned = self
            .engine
            .try_update_value(|e| e.save_current(touch))
            .unwrap_or(false);
        if warned {
            self.flush();
        }
        self.publish();
    }

    /// Hook: a run is about to be sent (`start_run`). Remembers the state it starts from
    /// (for regenerate / edit later) and saves, so the new user message survives a reload.
    pub(super) fn on_run_start(&self) {
        let run_id = self.last_run_id().unwrap_or_default();
        let warned = self
            .engine
            .try_update_value(|e| {
                let thread = &e.pipeline.thread;
                e.threads
                    .branches
                    .note_run_start(&thread.messages, &thread.state);
                e.save_with(true, Some(run_id))
            })
            .unwrap_or(false);
        if warned {
            self.flush();
        }
        self.publish();
    }

    /// Hook: a run ended (finished, failed, stopped). Saves the conversation.
    pub(super) fn on_run_end(&self) {
        self.save(true);
    }

    // ---- conversations ---------------------------------------------------------------------

    /// Start a new conversation (a new `threadId`). The open one is kept; an empty open one
    /// is simply reused.
    pub fn new_thread(&self) -> Result<(), ThreadError> {
        if self.running.get_untracked() {
            return Err(ThreadError::Running);
        }
        let fresh = self
            .engine
            .try_update_value(|e| {
                if e.pipeline.thread.messages.is_empty() && e.threads.title.is_none() {
                    return false;
                }
                e.save_current(false);
                e.open(ThreadRecord::empty(new_id("thread"), now_ms()));
                e.write_index();
                true
            })
            .ok_or(ThreadError::Closed)?;
        if fresh {
            self.on_thread_switched();
        }
        Ok(())
    }

    /// Open another conversation. Refused while a run is in flight (stop it first).
    pub fn switch_thread(&self, id: &str) -> Result<(), ThreadError> {
        if self.thread_id() == id {
            return Ok(());
        }
        if self.running.get_untracked() {
            return Err(ThreadError::Running);
        }
        self.engine
            .try_update_value(|e| -> Result<(), ThreadError> {
                let record = e
                    .take_parked(id)
                    .ok_or_else(|| ThreadError::UnknownThread(id.to_owned()))?;
                e.save_current(false);
                e.open(record);
                e.write_index();
                Ok(())
            })
            .ok_or(ThreadError::Closed)??;
        self.on_thread_switched();
        Ok(())
    }

    /// Name a conversation; an empty name goes back to the automatic title.
    pub fn rename_thread(&self, id: &str, title: &str) -> Result<(), ThreadError> {
        let title = title.split_whitespace().collect::<Vec<_>>().join(" ");
        let title = (!title.is_empty()).then_some(title);
        let warned = self
            .engine
            .try_update_value(|e| -> Result<bool, ThreadError> {
                if e.thread_id == id {
                    e.threads.title = title;
                    return Ok(e.save_current(false));
                }
                let i = e
                    .threads
                    .parked
                    .iter()
                    .position(|r| r.id == id)
                    .ok_or_else(|| ThreadError::UnknownThread(id.to_owned()))?;
                let record = {
                    let r = &mut e.threads.parked[i];
                    r.title = title;
                    r.clone()
                };
                let a = e.write_record(&record);
                let b = e.write_index();
                if a || b {
                    e.dirty.warnings = true;
                }
                Ok(a || b)
            })
            .ok_or(ThreadError::Closed)??;
        if warned {
            self.flush();
        }
        self.publish();
        Ok(())
    }

    /// Delete a conversation, from memory and storage. Deleting the open one opens the most
    /// recent other one (or a fresh one); refused while its run is in flight.
    pub fn delete_thread(&self, id: &str) -> Result<(), ThreadError> {
        let is_current = self.thread_id() == id;
        if is_current && self.running.get_untracked() {
            return Err(ThreadError::Running);
        }
        let warned = self
            .engine
            .try_update_value(|e| -> Result<bool, ThreadError> {
                let mut warned = false;
                if is_current {
                    let next = e
                        .summaries()
                        .into_iter()
                        .find(|s| s.id != id)
                        .and_then(|s| e.take_parked(&s.id))
                        .unwrap_or_else(|| ThreadRecord::empty(new_id("thread"), now_ms()));
                    // The deleted conversation is not parked: it is replaced, then dropped.
                    e.pipeline.thread.messages.clear();
                    e.threads.title = None;
                    e.open(next);
                    e.threads.parked.retain(|r| r.id != id);
                } else if e.take_parked(id).is_none() {
                    return Err(ThreadError::UnknownThread(id.to_owned()));
                }
                e.inspector.forget(id);
                if let Some(prefix) = e.threads.prefix.clone() {
                    if let Err(err) = remove(&thread_key(&prefix, id)) {
                        warned |= e.threads.notice(Notice::DeleteFailed(err));
                    }
                }
                warned |= e.write_index();
                if warned {
                    e.dirty.warnings = true;
                }
                Ok(warned)
            })
            .ok_or(ThreadError::Closed)??;
        if is_current || warned {
            self.on_thread_switched();
        } else {
            self.publish();
        }
        Ok(())
    }

    // ---- branches --------------------------------------------------------------------------

    /// Regenerate the last answer: the tail after the last user message is kept as a variant
    /// and a new run (same user message, a new `runId`, the state that message's run started
    /// from) produces another.
    pub fn regenerate(&self) -> Result<(), ThreadError> {
        if self.running.get_untracked() {
            return Err(ThreadError::Running);
        }
        self.engine
            .try_update_value(|e| -> Result<(), ThreadError> {
                e.check_branchable()?;
                let thread = &e.pipeline.thread;
                let i = thread
                    .messages
                    .iter()
                    .rposition(|m| m.role == Role::User)
                    .ok_or(ThreadError::NothingToRegenerate)?;
                let anchor = thread.messages[i].id.clone();
                if i + 1 == thread.messages.len() {
                    // Nothing came back last time: nothing to keep, just run again.
                    return Ok(());
                }
                let start = e.run_start_state(&anchor);
                let saved = thread.saved();
                let cut = e.threads.branches.branch(saved, Some(&anchor), start)?;
                e.install(cut, true);
                Ok(())
            })
            .ok_or(ThreadError::Closed)??;
        self.on_thread_switched();
        self.start_run(RunOptions::default());
        Ok(())
    }

    /// Edit an earlier user message: the tail from it on is kept as a variant and `text`, as
    /// a **new** message (new id), starts a new branch and a run.
    pub fn edit_message(&self, message_id: &str, text: &str) -> Result<(), ThreadError> {
        if self.running.get_untracked() {
            return Err(ThreadError::Running);
        }
        let text = text.trim();
        if text.is_empty() {
            return Err(ThreadError::EmptyText);
        }
        self.engine
            .try_update_value(|e| -> Result<(), ThreadError> {
                e.check_branchable()?;
                let thread = &e.pipeline.thread;
                let i = thread
                    .position(message_id)
                    .ok_or_else(|| BranchError::UnknownMessage(message_id.to_owned()))?;
                if thread.messages.get(i).map(|m| m.role) != Some(Role::User) {
                    return Err(ThreadError::NotEditable);
                }
                let anchor = i
                    .checked_sub(1)
                    .and_then(|j| thread.messages.get(j))
                    .map(|m| m.id.clone());
                let start = e.run_start_state(message_id);
                let saved = thread.saved();
                let mut cut = e.threads.branches.branch(saved, anchor.as_deref(), start)?;
                cut.messages.push(Message::user(new_id("msg"), text));
                e.install(cut, true);
                Ok(())
            })
            .ok_or(ThreadError::Closed)??;
        self.on_thread_switched();
        self.start_run(RunOptions::default());
        Ok(())
    }

    /// Show variant `to` of the fork after `anchor` (`None` = the start): its messages and
    /// the state at its end.
    pub fn switch_branch(&self, anchor: Option<&str>, to: usize) -> Result<(), ThreadError> {
        if self.running.get_untracked() {
            return Err(ThreadError::Running);
        }
        self.engine
            .try_update_value(|e| -> Result<(), ThreadError> {
                e.check_branchable()?;
                let saved = e.pipeline.thread.saved();
                let restored = e.threads.branches.switch(saved, anchor, to)?;
                e.install(restored, true);
                Ok(())
            })
            .ok_or(ThreadError::Closed)??;
        self.on_thread_switched();
        self.save(false);
        Ok(())
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
