//! Threads: several conversations, each saved and restored after a reload, and branches inside
//! each (regenerate an answer, edit an earlier message — [`super::branches`]).
//!
//! **One conversation is open at a time**: its [`Thread`] is in the session's pipeline, with
//! its `threadId` (stable for every run of it, spec digest §1.2), its branches and its title.
//! The others are parked as [`ThreadRecord`]s in memory, so the list works even where nothing
//! is kept; storage is written through.
//!
//! **Storage** (a [`KeyValue`] — `localStorage` in the browser — only for sessions made with
//! [`Session::restore`]): one key per conversation, `{prefix}:thread:{threadId}` → a
//! [`ThreadRecord`] (messages, state, how the last run ended — open interrupts and pending tool
//! calls included — branches, title, timestamps), and `{prefix}:index` → a [`ThreadIndex`]
//! (the list and the thread to reopen). The prefix keeps several widgets on one page apart.
//! The thread keys are the truth: a conversation whose index write failed still loads. Saved:
//! when a run starts (the new user message is never lost) and ends, when it is stopped, and
//! after every action that changes history (regenerate, edit, switch a branch, rename,
//! delete). A failed write (quota) or an unreadable value is a notice in the warnings list,
//! never a panic; an unreadable conversation is moved aside to `{prefix}:unreadable:{id}`
//! (kept, not destroyed) and skipped — one saved by another format version is only skipped.
//! Inlined attachments larger than [`crate::view::attachments::STORED_INLINE_BYTES`] are left
//! out of the stored copy (marked `dropped`, [`crate::view::attachments::shrink_for_storage`]);
//! the open conversation keeps them, so its next runs still send them.
//!
//! **A budget per widget** ([`StorageBudget`]: bytes of saved records and a number of
//! conversations, [`Session::set_storage_budget`]): localStorage is the host origin's, shared
//! with the host page and every other widget, and a few megabytes at most. Before a record is
//! written, the oldest other conversations are removed (from storage and from the list, with
//! a [`Notice::Evicted`]) until it fits; a write the browser refuses for its quota evicts the
//! next oldest and tries again; a conversation larger than the whole budget is not written
//! ([`Notice::TooLargeToSave`]: the last copy that fitted stays).
//!
//! **Drafts**: what the person typed and did not send is kept per conversation
//! ([`Session::draft`]), in memory and under `{prefix}:draft:{id}` — one key, `new`, for a
//! conversation with no message yet — at most [`DRAFT_BYTES`] each, within what the
//! conversations leave of the storage budget (a draft that does not fit is kept in memory
//! only); removed with its conversation, never a warning.
//!
//! **Switching conversations is refused while a run is in flight** ([`ThreadError::Running`]):
//! the person stops it first, so a run never ends up in a conversation it was not started for.
//! Interrupts and pending tool calls belong to their conversation (they live in its `Thread`
//! and are saved with it); the HITL answers being collected are kept per thread id.
//!
//! **Branches** are refused while a run is in flight, while interrupts are open and while a
//! frontend tool call waits for its result: a stored variant never carries any of those.

use serde_json::Value;

use super::branches::{
    by_activity, display_title, parse_index, parse_record, BranchError, Branches, IndexEntry,
    RecordError, Switcher, ThreadIndex, ThreadRecord, UNTITLED, VERSION,
};
use super::storage::KeyValue;
use super::{AgentConfig, Env, Route, RunOptions, RunRequest, Session};
use crate::protocol::reducer::{SavedRun, SavedThread};
use crate::protocol::types::{Message, Role};
use crate::protocol::{Pipeline, PipelineOptions, RunStatus, Thread, Wire};
use crate::view::attachments::{needs_shrinking, shrink_for_storage, STORED_INLINE_BYTES};
use crate::view::failure::Notice;

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

/// How much one widget may keep in storage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StorageBudget {
    /// Bytes of saved conversation records (their JSON text; the small index is not counted).
    pub max_bytes: usize,
    /// Saved conversations.
    pub max_threads: usize,
}

/// Default: 1 MB and 50 conversations — a fifth of the 5 MB a browser gives an origin's
/// `localStorage`, which the host page and its other widgets share.
pub const DEFAULT_STORAGE_BUDGET: StorageBudget = StorageBudget {
    max_bytes: 1_000_000,
    max_threads: 50,
};

impl Default for StorageBudget {
    fn default() -> Self {
        DEFAULT_STORAGE_BUDGET
    }
}

/// The session's thread bookkeeping.
#[derive(Default)]
pub(super) struct Threads {
    /// Where conversations are saved, under which prefix; `None` = nothing is persisted.
    pub(super) store: Option<(Box<dyn KeyValue>, String)>,
    pub(super) budget: StorageBudget,
    /// The size of each saved record (thread id → bytes of its JSON), as written or read.
    pub(super) stored: std::collections::HashMap<String, usize>,
    /// The other conversations.
    pub(super) parked: Vec<ThreadRecord>,
    /// The open conversation's name, if the person gave it one.
    pub(super) title: Option<String>,
    created_at: f64,
    pub(super) updated_at: f64,
    branches: Branches,
    /// The open conversation is a replayed trace ([`ThreadRecord::replayed`]).
    pub(super) replayed: bool,
    /// Messages waiting for the agent ([`super::queue`]).
    pub(super) queued: Vec<crate::protocol::types::Message>,
    /// Storage problems (and widget notices), shown in the warnings list first.
    pub(super) notices: Vec<Notice>,
    /// What the person typed and did not send, per conversation ([`Session::draft`]); the
    /// stored copy is under `{prefix}:draft:{id}`.
    /// (A list: at most [`MAX_DRAFTS`], and small code in the lean widget's main module.)
    pub(super) drafts: Vec<(String, String)>,
    /// When each message of the open conversation arrived ([`Session::arrived`]).
    times: std::collections::BTreeMap<String, f64>,
    /// The drafts changed since they were last written to storage ([`Session::save_drafts`]).
    pub(super) unsaved_drafts: Vec<String>,
    /// The size of each draft in storage (bytes of its text): drafts use what the
    /// conversations leave of the budget.
    pub(super) draft_bytes: Vec<(String, usize)>,
    /// The files attached to each draft in this page (name, bytes): stored with it under
    /// `{prefix}:draft-files:{id}` ([`Session::set_draft_files`]).
    pub(super) draft_files: Vec<(String, Vec<(String, u64)>)>,
}

impl Threads {
    pub(super) fn notice(&mut self, notice: Notice) -> bool {
        if self.notices.contains(&notice) {
            return false;
        }
        self.notices.push(notice);
        true
    }
}

/// The copy of `record` to store when it holds inlined attachments larger than
/// [`STORED_INLINE_BYTES`] (its messages and its branches' — [`shrink_for_storage`]); `None`
/// when it can be stored as it is.
pub(super) fn for_storage(record: &ThreadRecord) -> Option<ThreadRecord> {
    let variants = || record.branches.forks.iter().flat_map(|f| &f.variants);
    let over = |ms: &[Message]| needs_shrinking(ms, STORED_INLINE_BYTES);
    if !over(&record.thread.messages)
        && !over(&record.queued)
        && !variants().any(|v| over(&v.messages))
    {
        return None;
    }
    let mut copy = record.clone();
    shrink_for_storage(&mut copy.thread.messages, STORED_INLINE_BYTES);
    shrink_for_storage(&mut copy.queued, STORED_INLINE_BYTES);
    for fork in &mut copy.branches.forks {
        for variant in &mut fork.variants {
            shrink_for_storage(&mut variant.messages, STORED_INLINE_BYTES);
        }
    }
    Some(copy)
}

fn thread_key(prefix: &str, id: &str) -> String {
    format!("{prefix}:thread:{id}")
}

fn draft_key(prefix: &str, id: &str) -> String {
    format!("{prefix}:draft:{id}")
}

fn draft_files_key(prefix: &str, id: &str) -> String {
    format!("{prefix}:draft-files:{id}")
}

/// The most files noted with one draft.
const MAX_DRAFT_FILES: usize = 20;

/// The most of a draft kept (bytes of UTF-8); a longer one is kept to that length.
pub const DRAFT_BYTES: usize = 32 * 1024;

/// The most drafts kept in memory at once (conversations have their own budget in storage).
const MAX_DRAFTS: usize = 200;

/// The draft key of a conversation that has no message yet: one such draft, which a reload
/// finds again although the new conversation's id is not saved.
const NEW_DRAFT: &str = "new";

fn index_key(prefix: &str) -> String {
    format!("{prefix}:index")
}

/// Everything saved under a prefix.
struct Loaded {
    records: Vec<ThreadRecord>,
    /// Each draft's stored size.
    drafts: Vec<(String, usize)>,
    /// Each record's stored size.
    sizes: Vec<(String, usize)>,
    active: Option<String>,
    notices: Vec<Notice>,
}

fn load(store: &dyn KeyValue, prefix: &str) -> Loaded {
    let mut out = Loaded {
        records: Vec::new(),
        drafts: Vec::new(),
        sizes: Vec::new(),
        active: None,
        notices: Vec::new(),
    };
    let keys = match store.keys() {
        Ok(k) => k,
        Err(e) => {
            out.notices.push(Notice::StorageUnavailable(e));
            return out;
        }
    };
    // A draft's size: its text and its files' names.
    let (draft_prefix, files_prefix) =
        (format!("{prefix}:draft:"), format!("{prefix}:draft-files:"));
    for key in &keys {
        let Some(id) = key
            .strip_prefix(&draft_prefix)
            .or_else(|| key.strip_prefix(&files_prefix))
        else {
            continue;
        };
        if let Ok(Some(text)) = store.get(key) {
            match out.drafts.iter_mut().find(|(k, _)| k == id) {
                Some((_, n)) => *n += text.len(),
                None => out.drafts.push((id.to_owned(), text.len())),
            }
        }
    }
    let thread_prefix = format!("{prefix}:thread:");
    let mut ids: Vec<String> = keys
        .iter()
        .filter_map(|k| k.strip_prefix(&thread_prefix).map(str::to_owned))
        .collect();
    ids.sort();
    for id in ids {
        let key = thread_key(prefix, &id);
        let text = match store.get(&key) {
            Ok(Some(t)) => t,
            Ok(None) => continue,
            Err(reason) => {
                out.notices.push(Notice::RecordUnreadable { key, reason });
                continue;
            }
        };
        match parse_record(&id, &text) {
            Ok(r) => {
                out.sizes.push((id.clone(), text.len()));
                out.records.push(r);
            }
            Err(err) => {
                // Kept for whoever wants to recover it, but out of the way of the next load.
                // A record from another format version stays where it is: the version that
                // wrote it can still read it.
                let aside = format!("{prefix}:unreadable:{id}");
                let moved = !matches!(err, RecordError::Version(_))
                    && store.set(&aside, &text).is_ok()
                    && {
                        let _ = store.remove(&key);
                        true
                    };
                out.notices.push(Notice::RecordSkipped {
                    reason: err.to_string(),
                    kept_under: moved.then_some(aside),
                });
            }
        }
    }
    match store.get(&index_key(prefix)) {
        Ok(Some(text)) => match parse_index(&text) {
            Ok(index) => out.active = index.active,
            Err(err) => out.notices.push(Notice::IndexUnreadable(err.to_string())),
        },
        Ok(None) => {}
        Err(e) => out.notices.push(Notice::IndexReadFailed(e)),
    }
    out
}

// ---- inside the session ----------------------------------------------------------------------

impl Session {
    /// The start path (also what a reload runs): load the conversations saved in `store`
    /// under `prefix` and reopen the one that was open — with its open interrupts and pending
    /// tool calls — or the most recent one, or a fresh conversation. Unreadable data becomes
    /// notices; nothing here panics. ([`Session::attach_storage`] then
    /// [`Session::read_saved`].)
    pub fn restore(
        config: AgentConfig,
        env: impl Env + 'static,
        store: impl KeyValue + 'static,
        prefix: &str,
    ) -> Self {
        let mut s = Session::continuing(config, env, Thread::new(), String::new());
        s.attach_storage(store, prefix);
        s.read_saved();
        s
    }

    /// Whether `store` holds anything under `prefix` for [`Session::read_saved`] to read:
    /// a saved conversation, or no answer at all (storage unavailable, which it reports).
    pub fn has_saved(store: &dyn KeyValue, prefix: &str) -> bool {
        let thread_prefix = format!("{prefix}:thread:");
        store.keys().map_or(true, |keys| {
            keys.iter().any(|k| k.starts_with(&thread_prefix))
        })
    }

    /// Saves this session's conversations in `store` under `prefix` from now on, without
    /// reading what is there yet ([`Session::read_saved`] does): a widget whose storage holds
    /// nothing starts without the code that reads it (the lean widget's `run` module).
    pub fn attach_storage(&mut self, store: impl KeyValue + 'static, prefix: &str) {
        self.threads.store = Some((Box::new(store), prefix.to_owned()));
    }

    /// Opens what the attached storage holds in place of this session's conversation (a
    /// fresh one, which is then dropped; one with messages would be listed with the others):
    /// the conversation that was open (else the most recent one, else a fresh one), the others
    /// parked, unreadable data as notices. Nothing happens without storage.
    pub fn read_saved(&mut self) {
        let Some((store, prefix)) = self.threads.store.as_ref() else {
            return;
        };
        let loaded = load(store.as_ref(), prefix);
        let mut records = loaded.records;
        records.sort_by(|a, b| by_activity((a.updated_at, &a.id), (b.updated_at, &b.id)));
        let pick = loaded
            .active
            .as_deref()
            .and_then(|id| records.iter().position(|r| r.id == id))
            .or(if records.is_empty() { None } else { Some(0) });
        let opened = pick.map(|i| records.remove(i));
        let now = self.env.now_ms();
        let record = opened.unwrap_or_else(|| ThreadRecord::empty(self.env.new_id("thread"), now));
        self.threads.stored = loaded.sizes.into_iter().collect();
        self.threads.draft_bytes = loaded.drafts;
        for notice in loaded.notices {
            self.threads.notice(notice);
        }
        self.threads.parked = records;
        self.cut_off = record
            .thread
            .last_run
            .as_ref()
            .filter(|r| r.status == RunStatus::Running.name())
            .map(|r| r.run_id.clone());
        // The fresh conversation is not worth keeping, so nothing is parked for it.
        self.open(record);
    }

    /// Whether conversations are saved (a session made by [`Session::restore`]).
    pub fn persists(&self) -> bool {
        self.threads.store.is_some()
    }

    /// The open conversation is a replayed trace: a recording, never continued by itself.
    pub fn is_replay(&self) -> bool {
        self.threads.replayed
    }

    /// How much this session may keep in storage (applied from the next save on).
    pub fn set_storage_budget(&mut self, budget: StorageBudget) {
        self.threads.budget = budget;
    }

    /// Bytes of conversation records this session has in storage.
    pub fn stored_bytes(&self) -> usize {
        self.threads.stored.values().sum()
    }

    /// The open conversation as a record.
    pub(super) fn current_record(&self) -> ThreadRecord {
        ThreadRecord {
            version: VERSION,
            id: self.thread_id.clone(),
            title: self.threads.title.clone(),
            created_at: self.threads.created_at,
            updated_at: self.threads.updated_at,
            thread: self.pipeline.thread.saved(),
            branches: self.threads.branches.clone(),
            replayed: self.threads.replayed,
            queued: self.threads.queued.clone(),
            times: self.threads.times.clone(),
        }
    }

    /// Replace the thread on screen. The pipeline is stopped until the next run starts, so
    /// nothing late can fold into it; everything on screen is marked for the next flush.
    /// `keep_warnings`: the same conversation (a branch switch).
    pub(super) fn install(&mut self, saved: SavedThread, keep_warnings: bool) {
        self.agent_suggestions.clear();
        let old = std::mem::take(&mut self.pipeline.thread);
        let mut thread = Thread::from_saved(saved);
        if keep_warnings {
            thread.warnings = old.warnings;
        }
        self.warnings_seen = thread.warnings.len() + thread.warnings_omitted;
        let mut pipeline = Pipeline::new(thread, PipelineOptions::default());
        pipeline.abort();
        self.pipeline = pipeline;
        self.failure = None;
        self.mark_everything();
    }

    /// Open a parked or fresh conversation in place of the current one (which is parked).
    pub(super) fn open(&mut self, record: ThreadRecord) {
        let current = self.current_record();
        self.park(current);
        self.replace_open(record);
    }

    /// Show `record` in place of the open conversation, which is dropped (the same one,
    /// loaded from the site's store; or nothing is kept).
    pub(super) fn replace_open(&mut self, record: ThreadRecord) {
        self.thread_id = record.id;
        self.threads.title = record.title;
        self.threads.created_at = record.created_at;
        self.threads.updated_at = record.updated_at;
        self.threads.branches = record.branches;
        self.threads.replayed = record.replayed;
        self.threads.queued = super::queue::bounded(record.queued);
        self.threads.times = record.times;
        // What another thread's Views told the model is not this thread's.
        self.app_context.clear();
        self.a2ui_out.clear();
        self.install(record.thread, false);
    }

    /// Keep a conversation in memory (only if it is worth keeping).
    fn park(&mut self, record: ThreadRecord) {
        self.threads.parked.retain(|r| r.id != record.id);
        if record.worth_saving() {
            self.threads.parked.push(record);
        }
    }

    pub(super) fn take_parked(&mut self, id: &str) -> Option<ThreadRecord> {
        let i = self.threads.parked.iter().position(|r| r.id == id)?;
        Some(self.threads.parked.remove(i))
    }

    /// The thread list: every parked conversation and the open one, newest activity first.
    pub fn summaries(&self) -> Vec<ThreadSummary> {
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

    /// Write one record (or remove it when there is nothing worth keeping), within the
    /// storage budget (see the module docs). A failure is a notice.
    pub(super) fn write_record(&mut self, record: &ThreadRecord) {
        // Listed by the site's store and not loaded: nothing of it is here to write.
        if self.is_stub(&record.id) {
            return;
        }
        if record.worth_saving() {
            self.sync_changed(&record.id);
        }
        let Some((_, prefix)) = &self.threads.store else {
            return;
        };
        let key = thread_key(prefix, &record.id);
        // The automatic title is worded when shown (`None`).
        let title =
            Some(record.display_title()).filter(|t| record.title.is_some() || t != UNTITLED);
        if !record.worth_saving() {
            self.threads.stored.remove(&record.id);
            if let Some((store, _)) = &self.threads.store {
                if let Err(reason) = store.remove(&key) {
                    self.notice(Notice::SaveFailed { title, reason });
                }
            }
            return;
        }
        // Inlined attachments above the budget are not stored (the live thread keeps them).
        let shrunk = for_storage(record);
        let text = match serde_json::to_string(shrunk.as_ref().unwrap_or(record)) {
            Ok(t) => t,
            Err(e) => {
                let reason = e.to_string();
                self.notice(Notice::SaveFailed { title, reason });
                return;
            }
        };
        let budget = self.threads.budget;
        if text.len() > budget.max_bytes {
            self.notice(Notice::TooLargeToSave {
                title,
                budget: budget.max_bytes,
            });
            return;
        }
        // Room first: the oldest other conversations go until this one fits.
        loop {
            let stored = &self.threads.stored;
            let others: usize = stored
                .iter()
                .filter(|(id, _)| **id != record.id)
                .map(|(_, n)| *n)
                .sum();
            let count = stored.len() + usize::from(!stored.contains_key(&record.id));
            if others + text.len() <= budget.max_bytes && count <= budget.max_threads {
                break;
            }
            if !self.evict_oldest(&record.id) {
                break;
            }
        }
        loop {
            let Some((store, _)) = &self.threads.store else {
                return;
            };
            match store.set(&key, &text) {
                Ok(()) => {
                    self.threads.stored.insert(record.id.clone(), text.len());
                    return;
                }
                // The browser's quota (the origin's, shared with the page): make room, again.
                Err(reason) => {
                    if !(is_quota(&reason) && self.evict_oldest(&record.id)) {
                        self.notice(Notice::SaveFailed { title, reason });
                        return;
                    }
                }
            }
        }
    }

    /// Remove the least recently active saved conversation other than `keep` and the open
    /// one, from storage and from the list, with a notice. False when there is none.
    fn evict_oldest(&mut self, keep: &str) -> bool {
        let victim = self
            .threads
            .parked
            .iter()
            .filter(|r| r.id != keep && r.id != self.thread_id)
            .filter(|r| self.threads.stored.contains_key(&r.id))
            .min_by(|a, b| a.updated_at.total_cmp(&b.updated_at).then(a.id.cmp(&b.id)))
            .map(|r| (r.id.clone(), r.display_title(), r.title.is_some()));
        let Some((id, title, renamed)) = victim else {
            return false;
        };
        self.threads.stored.remove(&id);
        // Kept by the site's store: only this browser's copy goes; it stays in the list and
        // is loaded again when opened.
        let kept_there = self.sync_unload(&id);
        if kept_there {
            if let Some(r) = self.threads.parked.iter_mut().find(|r| r.id == id) {
                let mut stub = ThreadRecord::empty(id.clone(), r.updated_at);
                stub.title = Some(r.display_title());
                *r = stub;
            }
        } else {
            self.threads.parked.retain(|r| r.id != id);
            self.logs.forget(&id);
            self.drop_draft(&id);
        }
        if let Some((store, prefix)) = &self.threads.store {
            if let Err(err) = store.remove(&thread_key(prefix, &id)) {
                self.notice(Notice::DeleteFailed(err));
            }
        }
        if kept_there {
            return true;
        }
        let title = Some(title).filter(|t| renamed || t != UNTITLED);
        // One notice per eviction: they are distinct conversations.
        self.notice(Notice::Evicted { title, id });
        true
    }

    pub(super) fn write_index(&mut self) {
        let Some((store, prefix)) = &self.threads.store else {
            return;
        };
        let result = serde_json::to_string(&self.index())
            .map_err(|e| e.to_string())
            .and_then(|text| store.set(&index_key(prefix), &text));
        if let Err(e) = result {
            self.notice(Notice::IndexSaveFailed(e));
        }
    }

    /// Save the open conversation and the index. `touch`: this is activity (the list order).
    pub(super) fn save(&mut self, touch: bool) {
        self.save_with(touch, None);
    }

    /// [`Session::save`]; `in_flight`: the id of a run being sent right now. It is saved as
    /// running, so a reload mid-run shows the run as cut off (with Retry) instead of a
    /// question that silently never got an answer. Interrupts it resumes stay open until it
    /// has finished.
    fn save_with(&mut self, touch: bool, in_flight: Option<&str>) {
        if touch {
            self.threads.updated_at = self.env.now_ms();
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
                run_id: run_id.to_owned(),
                status: RunStatus::Running.name().to_owned(),
                interrupts,
                pending_tool_calls: Vec::new(),
                error: None,
            });
        }
        self.write_record(&record);
        self.write_index();
    }

    /// A run is about to be sent: remember the state it starts from (for regenerate / edit
    /// later) and save, so the new user message survives a reload.
    pub(super) fn on_run_start(&mut self, run_id: &str) {
        let thread = &self.pipeline.thread;
        self.threads
            .branches
            .note_run_start(&thread.messages, &thread.state);
        self.save_with(true, Some(run_id));
    }

    /// The AI SDK's resumable streams (with [`AgentConfig::resume`] on an AI SDK endpoint):
    /// when the page went away while a run was in flight (not stopped: a stopped run is
    /// saved as stopped), ask for it again — `GET {endpoint}/{chatId}/stream`. The server
    /// replays the stream from its start, so it is folded as that same run onto the thread
    /// as it was sent (saved at the run's start: no answer text yet, nothing doubles); `204`
    /// means nothing is in flight and the run stays cut off (Retry). Once per restore.
    pub fn resume_stream(&mut self) -> Option<RunRequest> {
        let run_id = self.cut_off.take()?;
        if self.running || !self.config.resume || self.request_wire() != Wire::AiSdk {
            return None;
        }
        let endpoint = crate::protocol::wire::ai_sdk_resume_url(
            self.config.endpoint.as_deref()?,
            &self.thread_id,
        )?;
        self.open_pipeline(Wire::AiSdk, run_id.clone());
        self.generation += 1;
        self.running = true;
        self.dirty.run = true;
        self.save_with(false, Some(&run_id));
        Some(RunRequest {
            generation: self.generation,
            run_id,
            body: Value::Null,
            route: Route::Http {
                endpoint,
                headers: self.config.headers.clone(),
                // The resume URL is under the page's endpoint: its headers are the endpoint's.
                header_source: self
                    .config
                    .endpoint
                    .as_deref()
                    .and_then(|e| self.config.header_source_for(e)),
                allowed: self.config.allowed_endpoints.clone(),
                fetch: self.config.fetch,
                get: true,
                accept: Wire::accept(false),
            },
        })
    }

    /// A run ended (finished, failed, stopped): save the conversation.
    pub(super) fn on_run_end(&mut self) {
        self.save(true);
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
        if self.running || self.pipeline.run_active() {
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

    // ---- conversations ------------------------------------------------------------------

    /// Start a new conversation (a new `threadId`). The open one is kept; an empty open one
    /// is simply reused. `Ok(true)` when another conversation is now open.
    pub fn new_thread(&mut self) -> Result<bool, ThreadError> {
        if self.running {
            return Err(ThreadError::Running);
        }
        if self.pipeline.thread.messages.is_empty() && self.threads.title.is_none() {
            return Ok(false);
        }
        self.save(false);
        let fresh = ThreadRecord::empty(self.env.new_id("thread"), self.env.now_ms());
        self.open(fresh);
        self.write_index();
        Ok(true)
    }

    /// Open another conversation. Refused while a run is in flight (stop it first).
    /// `Ok(true)` when another conversation is now open.
    pub fn switch_thread(&mut self, id: &str) -> Result<bool, ThreadError> {
        if self.thread_id == id {
            return Ok(false);
        }
        if self.running {
            return Err(ThreadError::Running);
        }
        let record = self
            .take_parked(id)
            .ok_or_else(|| ThreadError::UnknownThread(id.to_owned()))?;
        self.save(false);
        self.open(record);
        self.write_index();
        Ok(true)
    }

    /// Name a conversation; an empty name goes back to the automatic title.
    pub fn rename_thread(&mut self, id: &str, title: &str) -> Result<(), ThreadError> {
        let title = title.split_whitespace().collect::<Vec<_>>().join(" ");
        let title = (!title.is_empty()).then_some(title);
        if self.thread_id == id {
            self.threads.title = title;
            self.save(false);
            return Ok(());
        }
        let record = {
            let r = self
                .threads
                .parked
                .iter_mut()
                .find(|r| r.id == id)
                .ok_or_else(|| ThreadError::UnknownThread(id.to_owned()))?;
            r.title = title;
            r.clone()
        };
        self.write_record(&record);
        self.write_index();
        Ok(())
    }

    /// Delete a conversation, from memory and storage. Deleting the open one opens the most
    /// recent other one (or a fresh one); refused while its run is in flight. `Ok(true)` when
    /// another conversation is now open.
    pub fn delete_thread(&mut self, id: &str) -> Result<bool, ThreadError> {
        let is_current = self.thread_id == id;
        if is_current && self.running {
            return Err(ThreadError::Running);
        }
        if is_current {
            let next = self
                .summaries()
                .into_iter()
                .find(|s| s.id != id)
                .and_then(|s| self.take_parked(&s.id))
                .unwrap_or_else(|| {
                    ThreadRecord::empty(self.env.new_id("thread"), self.env.now_ms())
                });
            // The deleted conversation is not parked: it is replaced, then dropped.
            self.pipeline.thread.messages.clear();
            self.threads.title = None;
            self.open(next);
            self.threads.parked.retain(|r| r.id != id);
        } else if self.take_parked(id).is_none() {
            return Err(ThreadError::UnknownThread(id.to_owned()));
        }
        self.logs.forget(id);
        self.threads.stored.remove(id);
        self.drop_draft(id);
        self.sync_deleted(id);
        if let Some((store, prefix)) = &self.threads.store {
            if let Err(err) = store.remove(&thread_key(prefix, id)) {
                self.notice(Notice::DeleteFailed(err));
            }
        }
        self.write_index();
        Ok(is_current)
    }

    // ---- branches -----------------------------------------------------------------------

    /// Regenerate the last answer: the tail after the last user message is kept as a variant
    /// and a new run (same user message, a new `runId`, the state that message's run started
    /// from) produces another. The request to send.
    pub fn regenerate(&mut self) -> Result<Option<RunRequest>, ThreadError> {
        if self.running {
            return Err(ThreadError::Running);
        }
        self.check_branchable()?;
        let thread = &self.pipeline.thread;
        let i = thread
            .messages
            .iter()
            .rposition(|m| m.role == Role::User)
            .ok_or(ThreadError::NothingToRegenerate)?;
        if i + 1 < thread.messages.len() {
            let anchor = thread.messages[i].id.clone();
            let start = self.run_start_state(&anchor);
            let saved = self.pipeline.thread.saved();
            let cut = self.threads.branches.branch(saved, Some(&anchor), start)?;
            self.install(cut, true);
        }
        // Else nothing came back last time: nothing to keep, just run again.
        Ok(self.start_run(RunOptions {
            regenerate: true,
            ..RunOptions::default()
        }))
    }

    /// Edit an earlier user message: the tail from it on is kept as a variant and `text`, as
    /// a **new** message (new id), starts a new branch and a run. The request to send.
    pub fn edit_message(
        &mut self,
        message_id: &str,
        text: &str,
    ) -> Result<Option<RunRequest>, ThreadError> {
        if self.running {
            return Err(ThreadError::Running);
        }
        let text = text.trim();
        if text.is_empty() {
            return Err(ThreadError::EmptyText);
        }
        self.check_branchable()?;
        let thread = &self.pipeline.thread;
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
        let start = self.run_start_state(message_id);
        let saved = thread.saved();
        let mut cut = self
            .threads
            .branches
            .branch(saved, anchor.as_deref(), start)?;
        cut.messages
            .push(Message::user(self.env.new_id("msg"), text));
        self.install(cut, true);
        Ok(self.start_run(RunOptions::default()))
    }

    /// Show variant `to` of the fork after `anchor` (`None` = the start): its messages and
    /// the state at its end.
    pub fn switch_branch(&mut self, anchor: Option<&str>, to: usize) -> Result<(), ThreadError> {
        if self.running {
            return Err(ThreadError::Running);
        }
        self.check_branchable()?;
        let saved = self.pipeline.thread.saved();
        let restored = self.threads.branches.switch(saved, anchor, to)?;
        self.install(restored, true);
        self.save(false);
        Ok(())
    }

    /// The switchers of the forks on screen.
    pub fn switchers(&self) -> Vec<Switcher> {
        self.threads
            .branches
            .switchers(&self.pipeline.thread.messages)
    }
}

/// Whether a storage failure is the browser's quota (`QuotaExceededError`, Firefox's
/// `NS_ERROR_DOM_QUOTA_REACHED`).
fn is_quota(reason: &str) -> bool {
    let r = reason.to_ascii_lowercase();
    r.contains("quota")
}

// ---- drafts ---------------------------------------------------------------------------------

impl Session {
    /// The key of the open conversation's draft: its id, or one key for every conversation
    /// that has no message yet (a new one's id is not saved before its first message).
    fn draft_id(&self) -> String {
        if self.pipeline.thread.messages.is_empty() {
            NEW_DRAFT.to_owned()
        } else {
            self.thread_id.clone()
        }
    }

    /// What the person typed in the open conversation and did not send (kept across thread
    /// switches and, with storage, reloads); empty when nothing.
    pub fn draft(&self) -> String {
        let id = self.draft_id();
        if let Some((_, text)) = self.threads.drafts.iter().find(|(k, _)| *k == id) {
            return text.clone();
        }
        if self.threads.unsaved_drafts.contains(&id) {
            return String::new();
        }
        match &self.threads.store {
            Some((store, prefix)) => store
                .get(&draft_key(prefix, &id))
                .ok()
                .flatten()
                .map(|text| cut_draft(&text).to_owned())
                .unwrap_or_default(),
            None => String::new(),
        }
    }

    /// Keep `text` as the open conversation's draft (empty: none), in memory; storage gets it
    /// with [`Session::save_drafts`] (the composer calls it when typing pauses, not per
    /// keystroke). At most [`DRAFT_BYTES`] of it.
    pub fn set_draft(&mut self, text: &str) {
        let id = self.draft_id();
        let text = cut_draft(text);
        let drafts = &mut self.threads.drafts;
        let at = drafts.iter().position(|(k, _)| *k == id);
        match at {
            Some(i) if drafts[i].1 == text => return,
            Some(i) if text.is_empty() => {
                drafts.remove(i);
            }
            Some(i) => drafts[i].1 = text.to_owned(),
            None if text.is_empty() || drafts.len() >= MAX_DRAFTS => {}
            None => drafts.push((id.clone(), text.to_owned())),
        }
        if !self.threads.unsaved_drafts.contains(&id) {
            self.threads.unsaved_drafts.push(id);
        }
    }

    /// Write the drafts changed since the last call to storage (each under its own
    /// conversation, whichever is open now). A storage that refuses one keeps it in memory: a
    /// draft is never a warning.
    pub fn save_drafts(&mut self) {
        let ids = std::mem::take(&mut self.threads.unsaved_drafts);
        let Some((store, prefix)) = &self.threads.store else {
            return;
        };
        let records: usize = self.threads.stored.values().sum();
        for id in ids {
            let sizes = &mut self.threads.draft_bytes;
            sizes.retain(|(k, _)| *k != id);
            let others: usize = sizes.iter().map(|(_, n)| n).sum();
            let text = self
                .threads
                .drafts
                .iter()
                .find(|(k, _)| *k == id)
                .map_or("", |(_, t)| t.as_str());
            // The files attached to it: their names and sizes (the files themselves cannot be
            // kept), shown after a reload to be attached again.
            let files = self
                .threads
                .draft_files
                .iter()
                .find(|(k, f)| *k == id && !f.is_empty())
                .and_then(|(_, f)| serde_json::to_string(f).ok())
                .unwrap_or_default();
            // Within what the conversations leave of the budget; else kept in memory only
            // (for as long as the page is open).
            let size = text.len() + files.len();
            let fits = records + others + size <= self.threads.budget.max_bytes;
            let mut written = true;
            for (key, value) in [
                (draft_key(prefix, &id), text),
                (draft_files_key(prefix, &id), files.as_str()),
            ] {
                written &= match value {
                    value if fits && !value.is_empty() => store.set(&key, value).is_ok(),
                    _ => store.remove(&key).is_ok() && fits,
                };
            }
            if written && size > 0 {
                sizes.push((id, size));
            }
        }
    }

    /// Forget conversation `id`'s draft, in memory and storage (the conversation is gone).
    fn drop_draft(&mut self, id: &str) {
        self.threads.drafts.retain(|(k, _)| k != id);
        self.threads.draft_bytes.retain(|(k, _)| k != id);
        self.threads.draft_files.retain(|(k, _)| k != id);
        self.threads.unsaved_drafts.retain(|k| k != id);
        if let Some((store, prefix)) = &self.threads.store {
            let _ = store.remove(&draft_key(prefix, id));
            let _ = store.remove(&draft_files_key(prefix, id));
        }
    }

    /// The files attached in the composer of the open conversation (name, bytes), as it has
    /// them now: kept with its draft ([`Session::save_drafts`] writes them).
    pub fn set_draft_files(&mut self, files: Vec<(String, u64)>) {
        let id = self.draft_id();
        let mut files = files;
        files.truncate(MAX_DRAFT_FILES);
        for (name, _) in &mut files {
            *name = cut_draft(name).chars().take(200).collect();
        }
        let list = &mut self.threads.draft_files;
        list.retain(|(k, _)| *k != id);
        if list.len() < MAX_DRAFTS {
            list.push((id.clone(), files));
        }
        if !self.threads.unsaved_drafts.contains(&id) {
            self.threads.unsaved_drafts.push(id);
        }
    }

    /// The files a draft of the open conversation had when the page was left (name, bytes):
    /// not this page's (it has its own), from storage; to be attached again.
    pub fn draft_files_from_before(&self) -> Vec<(String, u64)> {
        let id = self.draft_id();
        if self.threads.draft_files.iter().any(|(k, _)| *k == id) {
            return Vec::new();
        }
        let Some((store, prefix)) = &self.threads.store else {
            return Vec::new();
        };
        let text = store.get(&draft_files_key(prefix, &id)).ok().flatten();
        let mut files: Vec<(String, u64)> = text
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        files.truncate(MAX_DRAFT_FILES);
        files
    }

    /// Whether [`Session::draft_files_from_before`] has any (without reading them).
    pub fn has_draft_files_from_before(&self) -> bool {
        let id = self.draft_id();
        !self.threads.draft_files.iter().any(|(k, _)| *k == id)
            && self.threads.store.as_ref().is_some_and(|(store, prefix)| {
                store
                    .get(&draft_files_key(prefix, &id))
                    .ok()
                    .flatten()
                    .is_some()
            })
    }

    /// A message was sent: the open draft's files went with it.
    pub(super) fn files_sent(&mut self) {
        let id = self.draft_id();
        self.set_draft_files(Vec::new());
        if let Some((store, prefix)) = &self.threads.store {
            let _ = store.remove(&draft_files_key(prefix, &id));
        }
    }

    /// The person's earlier prompts in the open conversation, oldest first (text only; the
    /// same prompt twice in a row once; at most [`MAX_PROMPTS`] of the latest): what ↑ in the
    /// composer goes back through.
    pub fn prompts(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for m in self.pipeline.thread.messages.iter().rev() {
            if out.len() == MAX_PROMPTS {
                break;
            }
            if m.role != crate::protocol::types::Role::User {
                continue;
            }
            let text = m.text();
            if text.trim().is_empty() || out.last().is_some_and(|last| *last == text) {
                continue;
            }
            out.push(text.into_owned());
        }
        out.reverse();
        out
    }
}

/// How many earlier prompts ↑ reaches.
pub const MAX_PROMPTS: usize = 100;

/// `text` cut to [`DRAFT_BYTES`] on a character.
fn cut_draft(text: &str) -> &str {
    if text.len() <= DRAFT_BYTES {
        return text;
    }
    let mut end = DRAFT_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

// ---- arrival times --------------------------------------------------------------------------

/// The most arrival times a conversation keeps (the oldest go first).
pub const MAX_TIMES: usize = 5_000;

impl Session {
    /// When message `id` arrived here (the session clock, milliseconds since the epoch), if
    /// this chat saw it arrive — not for messages it only ever loaded or was handed.
    pub fn arrived(&self, id: &str) -> Option<f64> {
        self.threads.times.get(id).copied()
    }

    /// Message `index` of the open conversation just arrived.
    pub(super) fn note_arrival(&mut self, index: usize) {
        let Some(id) = self.pipeline.thread.messages.get(index).map(|m| &m.id) else {
            return;
        };
        if self.threads.times.contains_key(id) {
            return;
        }
        let times = &mut self.threads.times;
        if times.len() >= MAX_TIMES {
            if let Some(oldest) = times
                .iter()
                .min_by(|a, b| a.1.total_cmp(b.1))
                .map(|(k, _)| k.clone())
            {
                times.remove(&oldest);
            }
        }
        times.insert(id.clone(), self.env.now_ms());
    }
}
