//! Conversations kept by the site ([`AgentConfig::thread_store`](super::AgentConfig)): the
//! session's side of a [`ThreadStore`], pure. The browser shell asks [`Session::sync_next`]
//! for the next call to make, makes it, and hands the answer to [`Session::sync_done`]; tests
//! play the store natively (`tests/session/sync.rs`).
//!
//! - **The list first, a conversation when opened.** The store's list (pages up to the
//!   storage budget's number of conversations) becomes lines of the thread list; a
//!   conversation listed and not here, or saved there at another time than here (clocks of
//!   devices differ: never "newer"), is loaded when it is opened
//!   — the open one at once. A device that has no conversation of its own opens the newest
//!   listed one.
//! - **Saving is debounced** ([`SYNC_DEBOUNCE_MS`] after the first unsaved change; the chat
//!   writes at a run's start and end and after each change of history, never per token; at
//!   once when the page is hidden, [`Session::sync_hurry`]) and waits while the open
//!   conversation's run is in flight. Every save is a compare-and-swap on
//!   the version last seen; a `412` loads the stored copy, merges the two
//!   ([`merge_records`]: no message of either is lost) and saves again over the new version.
//! - **A failure is shown and retried** (a [`Notice::SaveFailed`] naming the store's answer;
//!   again after 2, 4, 8 … at most [`SYNC_RETRY_MAX_MS`] seconds), and forgotten once a call
//!   goes through. What is not saved yet survives a reload: the versions seen and the
//!   conversations still to save or delete are kept under `{prefix}:sync`.
//! - **What a visitor already had is theirs**: conversations in this browser from before the
//!   store was configured are not sent to it by themselves: the thread list offers them
//!   ([`Session::upload_offer`]: until the person sends them or says "Not now"),
//!   [`Session::upload_local`] sends them (the person's answer, or the page's call).
//! - [`Session::forget`] clears everything this chat keeps in the browser (the site signs the
//!   person out).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::branches::ThreadRecord;
use super::merge::merge_records;
use super::remote::{
    from_wire, list_entry, to_wire, Expect, ListPage, Loaded, StoreFailure, ThreadStore,
};
use super::Session;
use crate::view::failure::Notice;

/// How long after the first unsaved change a conversation is saved to the store (ms).
pub const SYNC_DEBOUNCE_MS: f64 = 1_500.0;
/// The longest wait before a failed call is tried again (ms).
pub const SYNC_RETRY_MAX_MS: f64 = 60_000.0;

/// A call to make to the site's store.
#[derive(Debug, Clone, PartialEq)]
pub enum SyncJob {
    List {
        cursor: Option<String>,
    },
    Load {
        id: String,
    },
    Save {
        id: String,
        record: Value,
        expect: Expect,
        change: u64,
    },
    Remove {
        id: String,
    },
}

impl SyncJob {
    /// Make this call to `store`: its answer, for [`Session::sync_done`].
    pub async fn run(self, store: &dyn ThreadStore) -> SyncOutcome {
        match self {
            SyncJob::List { cursor } => SyncOutcome::Listed(store.list(cursor.as_deref()).await),
            SyncJob::Load { id } => {
                let result = store.load(&id).await;
                SyncOutcome::Loaded { id, result }
            }
            SyncJob::Save {
                id,
                record,
                expect,
                change,
            } => {
                let result = store.save(&id, &record, &expect).await;
                SyncOutcome::Saved { id, change, result }
            }
            SyncJob::Remove { id } => {
                let result = store.remove(&id).await;
                SyncOutcome::Removed { id, result }
            }
        }
    }
}

/// What the store answered a [`SyncJob`].
#[derive(Debug, Clone, PartialEq)]
pub enum SyncOutcome {
    Listed(Result<ListPage, StoreFailure>),
    Loaded {
        id: String,
        result: Result<Loaded, StoreFailure>,
    },
    Saved {
        id: String,
        change: u64,
        result: Result<Option<String>, StoreFailure>,
    },
    Removed {
        id: String,
        result: Result<(), StoreFailure>,
    },
}

/// What survives a reload (`{prefix}:sync`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct Kept {
    /// The version last seen of each conversation the store has (`""`: it gave none).
    #[serde(default)]
    versions: BTreeMap<String, String>,
    /// Conversations with changes the store has not taken yet.
    #[serde(default)]
    unsaved: BTreeSet<String>,
    /// Conversations deleted here and not yet there.
    #[serde(default)]
    deleted: BTreeSet<String>,
    /// The person left this browser's own conversations where they are ("Not now").
    #[serde(default)]
    declined: bool,
}

/// The session's bookkeeping of the store.
#[derive(Debug, Default)]
pub(super) struct Sync {
    kept: Kept,
    /// `{prefix}:sync` was read (at the first call).
    started: bool,
    /// The change counter; each unsaved conversation's latest change.
    change: u64,
    changes: BTreeMap<String, u64>,
    /// When the first unsaved change may be saved.
    due: Option<f64>,
    /// Conversations to load before they are shown or saved again (listed, saved at another
    /// time there, or answered `412`).
    stale: BTreeSet<String>,
    /// Listed and not loaded: no message here yet.
    stubs: BTreeSet<String>,
    /// The list: not asked yet (`None` after the last page), and where the next page is.
    list: Option<Option<String>>,
    listed: usize,
    /// A call is out.
    busy: bool,
    /// The call out was made before [`Session::forget`]: its answer is dropped.
    forgotten: bool,
    /// Failed calls in a row, and not before when the next may go.
    failures: u32,
    retry_at: f64,
    /// Conversations of this browser from before the store (not sent by themselves).
    local_only: BTreeSet<String>,
}

fn sync_key(prefix: &str) -> String {
    format!("{prefix}:sync")
}

/// The longest version kept (a store's `ETag`, a page's `save` answer); a longer one is kept
/// as none (`If-Match: *`).
const MAX_VERSION_CHARS: usize = 256;
/// The most conversations `{prefix}:sync` names in each of its lists.
const MAX_KEPT: usize = 1_000;

fn kept_version(version: Option<String>) -> String {
    version
        .filter(|v| v.len() <= MAX_VERSION_CHARS)
        .unwrap_or_default()
}

impl Session {
    /// Whether the chat keeps its conversations in a site's store.
    pub fn syncs(&self) -> bool {
        self.config.thread_store.is_some()
    }

    /// The first call: what the last page left (`{prefix}:sync`), and what was here before.
    fn sync_start(&mut self) {
        let sync = &mut self.sync;
        if sync.started {
            return;
        }
        sync.started = true;
        sync.list = Some(None);
        if let Some((store, prefix)) = &self.threads.store {
            if let Ok(Some(text)) = store.get(&sync_key(prefix)) {
                // (Another version's or a damaged value reads as nothing kept.)
                let kept: Kept = serde_json::from_str(&text).unwrap_or_default();
                sync.kept.versions.extend(kept.versions);
                sync.kept.unsaved.extend(kept.unsaved);
                sync.kept.deleted.extend(kept.deleted);
                sync.kept.declined |= kept.declined;
            }
        }
        for id in sync.kept.unsaved.clone() {
            sync.change += 1;
            sync.changes.insert(id, sync.change);
        }
        if !sync.changes.is_empty() {
            sync.due = Some(0.0);
        }
        // Saved here, never there, and not waiting to be: from before the store.
        let mine: Vec<String> = self
            .threads
            .stored
            .keys()
            .filter(|id| !sync.kept.versions.contains_key(*id) && !sync.changes.contains_key(*id))
            .cloned()
            .collect();
        sync.local_only.extend(mine);
    }

    fn write_sync(&mut self) {
        if let Some((store, prefix)) = &self.threads.store {
            let sync = &mut self.sync;
            sync.kept.unsaved = sync.changes.keys().cloned().collect();
            // Within its budget: the versions of conversations no longer here go first.
            let here = |id: &String| {
                *id == self.thread_id || self.threads.parked.iter().any(|r| r.id == *id)
            };
            if sync.kept.versions.len() > MAX_KEPT {
                sync.kept.versions.retain(|id, _| here(id));
            }
            for list in [&mut sync.kept.unsaved, &mut sync.kept.deleted] {
                while list.len() > MAX_KEPT {
                    list.pop_first();
                }
            }
            while sync.kept.versions.len() > MAX_KEPT {
                sync.kept.versions.pop_first();
            }
            if let Ok(text) = serde_json::to_string(&sync.kept) {
                let _ = store.set(&sync_key(prefix), &text);
            }
        }
    }

    /// A conversation changed here (written locally): to be saved to the store.
    pub(super) fn sync_changed(&mut self, id: &str) {
        if !self.syncs() || self.sync.local_only.contains(id) {
            return;
        }
        let now = self.env.now_ms();
        let sync = &mut self.sync;
        sync.change += 1;
        sync.changes.insert(id.to_owned(), sync.change);
        sync.kept.deleted.remove(id);
        sync.due.get_or_insert(now + SYNC_DEBOUNCE_MS);
        self.write_sync();
    }

    /// A conversation was deleted here: to be deleted there.
    pub(super) fn sync_deleted(&mut self, id: &str) {
        if !self.syncs() {
            return;
        }
        let sync = &mut self.sync;
        sync.changes.remove(id);
        sync.stale.remove(id);
        sync.stubs.remove(id);
        sync.local_only.remove(id);
        if sync.kept.versions.remove(id).is_some() {
            sync.kept.deleted.insert(id.to_owned());
        }
        self.write_sync();
    }

    /// Conversation `id` leaves the browser's storage (its budget): when the store has all
    /// of it, it stays listed and is loaded again when opened (`true`); else it goes.
    pub(super) fn sync_unload(&mut self, id: &str) -> bool {
        let sync = &mut self.sync;
        if self.config.thread_store.is_none()
            || !sync.kept.versions.contains_key(id)
            || sync.changes.contains_key(id)
        {
            return false;
        }
        sync.stubs.insert(id.to_owned());
        sync.stale.insert(id.to_owned());
        true
    }

    /// Listed and not loaded yet: kept out of the browser's storage (there is nothing in it).
    pub(super) fn is_stub(&self, id: &str) -> bool {
        self.sync.stubs.contains(id)
    }

    /// The open conversation is being loaded from the store (nothing of it is here yet).
    pub fn loading_open(&self) -> bool {
        self.syncs() && self.sync.stubs.contains(&self.thread_id)
    }

    /// When [`Session::sync_next`] may have a call to make (ms since the epoch; `None`:
    /// nothing to do until something changes).
    pub fn sync_wake_at(&self) -> Option<f64> {
        let sync = &self.sync;
        if !self.syncs() || sync.busy {
            return None;
        }
        if !sync.started {
            return Some(0.0);
        }
        let now_work = sync
            .list
            .as_ref()
            .is_some_and(|l| l.is_some() || sync.listed == 0)
            || !sync.kept.deleted.is_empty()
            || sync.stale.contains(&self.thread_id);
        let at = if now_work { Some(0.0) } else { sync.due };
        at.map(|t| {
            t.max(if sync.failures > 0 {
                sync.retry_at
            } else {
                0.0
            })
        })
    }

    /// The page is going away (hidden): what waits for its debounce is due now.
    pub fn sync_hurry(&mut self) {
        let now = self.env.now_ms();
        if let Some(due) = self.sync.due.as_mut() {
            *due = due.min(now);
        }
    }

    /// The next call to make to the store, if one is due now.
    pub fn sync_next(&mut self) -> Option<SyncJob> {
        if !self.syncs() || self.sync.busy {
            return None;
        }
        self.sync_start();
        let now = self.env.now_ms();
        let sync = &self.sync;
        if sync.failures > 0 && now < sync.retry_at {
            return None;
        }
        let job = if let Some(cursor) = sync
            .list
            .clone()
            .filter(|c| c.is_some() || sync.listed == 0)
        {
            Some(SyncJob::List { cursor })
        } else if let Some(id) = self.load_wanted() {
            Some(SyncJob::Load { id })
        } else if let Some(id) = sync.kept.deleted.iter().next() {
            Some(SyncJob::Remove { id: id.clone() })
        } else if sync.due.is_some_and(|d| now >= d) {
            self.save_job()
        } else {
            None
        };
        self.sync.busy = job.is_some();
        job
    }

    /// A conversation to load: the open one when it is stale (not while its run is in
    /// flight), else one answered `412` that has changes to save.
    fn load_wanted(&self) -> Option<String> {
        let sync = &self.sync;
        if sync.stale.contains(&self.thread_id) && !self.running {
            return Some(self.thread_id.clone());
        }
        sync.stale
            .iter()
            .find(|id| **id != self.thread_id && sync.changes.contains_key(*id))
            .cloned()
    }

    /// The next conversation to save (the open one not while its run is in flight).
    fn save_job(&mut self) -> Option<SyncJob> {
        let sync = &self.sync;
        let (id, change) = sync
            .changes
            .iter()
            .find(|(id, _)| !(sync.stale.contains(*id) || self.running && **id == self.thread_id))
            .map(|(id, c)| (id.clone(), *c))?;
        let record = if id == self.thread_id {
            self.current_record()
        } else {
            match self.threads.parked.iter().find(|r| r.id == id) {
                Some(r) => r.clone(),
                None => {
                    // Gone here (evicted from the list): nothing to save.
                    let sync = &mut self.sync;
                    sync.changes.remove(&id);
                    if sync.changes.is_empty() {
                        sync.due = None;
                    }
                    return None;
                }
            }
        };
        let shrunk = super::threads::for_storage(&record);
        let expect = match sync.kept.versions.get(&id) {
            None => Expect::New,
            Some(v) if v.is_empty() => Expect::Any,
            Some(v) => Expect::Version(v.clone()),
        };
        Some(SyncJob::Save {
            record: to_wire(shrunk.as_ref().unwrap_or(&record)),
            id,
            expect,
            change,
        })
    }

    /// The store's answer to the last [`SyncJob`].
    pub fn sync_done(&mut self, outcome: SyncOutcome) {
        self.sync.busy = false;
        if std::mem::take(&mut self.sync.forgotten) {
            return;
        }
        let failure = match outcome {
            SyncOutcome::Listed(Ok(page)) => {
                self.listed(page);
                None
            }
            SyncOutcome::Listed(Err(e)) => Some((None, e)),
            SyncOutcome::Loaded {
                id,
                result: Ok(loaded),
            } => {
                self.loaded(&id, loaded);
                None
            }
            SyncOutcome::Loaded {
                id,
                result: Err(StoreFailure::NotFound),
            } => {
                self.gone_there(&id);
                None
            }
            SyncOutcome::Loaded { id, result: Err(e) } => Some((Some(id), e)),
            SyncOutcome::Saved {
                id,
                change,
                result: Ok(version),
            } => {
                let sync = &mut self.sync;
                sync.kept.versions.insert(id.clone(), kept_version(version));
                if sync.changes.get(&id) == Some(&change) {
                    sync.changes.remove(&id);
                }
                if sync.changes.is_empty() {
                    sync.due = None;
                }
                self.write_sync();
                None
            }
            SyncOutcome::Saved {
                id,
                result: Err(StoreFailure::Conflict),
                ..
            } => {
                self.sync.stale.insert(id);
                None
            }
            // Deleted there: saved again as new.
            SyncOutcome::Saved {
                id,
                result: Err(StoreFailure::NotFound),
                ..
            } => {
                self.sync.kept.versions.remove(&id);
                None
            }
            SyncOutcome::Saved {
                id, result: Err(e), ..
            } => Some((Some(id), e)),
            SyncOutcome::Removed {
                id,
                result: Ok(()) | Err(StoreFailure::NotFound),
            } => {
                self.sync.kept.deleted.remove(&id);
                self.write_sync();
                None
            }
            SyncOutcome::Removed { id, result: Err(e) } => Some((Some(id), e)),
        };
        match failure {
            None => self.sync.failures = 0,
            Some((id, e)) => self.sync_failed(id.as_deref(), e),
        }
    }

    fn sync_failed(&mut self, id: Option<&str>, e: StoreFailure) {
        let now = self.env.now_ms();
        let sync = &mut self.sync;
        sync.failures = sync.failures.saturating_add(1);
        let wait = 1_000.0 * f64::from(1u32 << sync.failures.min(6));
        sync.retry_at = now + wait.min(SYNC_RETRY_MAX_MS);
        let reason = match e {
            StoreFailure::Failed(reason) => reason,
            other => format!("{other:?}"),
        };
        let title = id.and_then(|id| {
            self.summaries()
                .into_iter()
                .find(|s| s.id == id)
                .map(|s| s.title)
        });
        self.notice(Notice::SaveFailed {
            title,
            reason: format!("the site's thread store: {reason}"),
        });
    }

    /// A page of the store's list: lines for what is not here, stale marks for what is newer
    /// there; the next page while the list is within the budget.
    fn listed(&mut self, page: ListPage) {
        let max = self.threads.budget.max_threads;
        let first = self.sync.listed == 0;
        let mut newest: Option<(f64, String)> = None;
        for entry in page.entries.iter().filter_map(list_entry) {
            let (id, title, updated) = entry;
            if self.sync.listed >= max {
                break;
            }
            self.sync.listed += 1;
            if self.sync.kept.deleted.contains(&id) {
                continue;
            }
            if newest.as_ref().is_none_or(|(t, _)| updated > *t) {
                newest = Some((updated, id.clone()));
            }
            let here = if id == self.thread_id {
                Some(self.threads.updated_at)
            } else {
                self.threads
                    .parked
                    .iter()
                    .find(|r| r.id == id)
                    .map(|r| r.updated_at)
            };
            self.sync.local_only.remove(&id);
            match here {
                // The same save (its time, to the millisecond the record keeps).
                Some(at) if (at - updated).abs() < 1.0 => {}
                Some(_) => {
                    self.sync.stale.insert(id);
                }
                None => {
                    let mut stub = ThreadRecord::empty(id.clone(), updated);
                    stub.title = Some(title).filter(|t| !t.trim().is_empty());
                    self.threads.parked.push(stub);
                    self.sync.stale.insert(id.clone());
                    self.sync.stubs.insert(id);
                }
            }
        }
        let more = page.next.filter(|_| self.sync.listed < max);
        self.sync.list = more.map(Some);
        // A device with nothing of its own opens the newest conversation it has.
        let fresh = self.pipeline.thread.messages.is_empty() && self.threads.title.is_none();
        if first && fresh && !self.running {
            if let Some((_, id)) = newest.filter(|(_, id)| *id != self.thread_id) {
                if let Some(record) = self.take_parked(&id) {
                    self.open(record);
                }
            }
        }
        self.dirty.warnings = true;
    }

    /// A conversation from the store: shown as it is there when nothing of it was here, else
    /// merged with what is here (a `412`, or saved at another time there): what either has is kept.
    fn loaded(&mut self, id: &str, loaded: Loaded) {
        let theirs = match from_wire(id, &loaded.record) {
            Ok(r) => r,
            Err(e) => {
                self.sync.stale.remove(id);
                self.sync.stubs.remove(id);
                self.notice(Notice::RecordSkipped {
                    reason: format!("the site's thread store: {e}"),
                    kept_under: None,
                });
                return;
            }
        };
        let open = id == self.thread_id;
        if open && self.running {
            // Loaded again once the run has ended.
            return;
        }
        let sync = &mut self.sync;
        sync.stale.remove(id);
        let stub = sync.stubs.remove(id);
        sync.local_only.remove(id);
        sync.kept
            .versions
            .insert(id.to_owned(), kept_version(loaded.etag));
        let ours = if open {
            Some(self.current_record())
        } else {
            self.threads.parked.iter().find(|r| r.id == id).cloned()
        };
        let (record, save) = match ours.filter(|o| !(stub && o.thread.messages.is_empty())) {
            None => (theirs, false),
            Some(ours) => {
                let merged = merge_records(&ours, &theirs);
                (merged.record, merged.changed_theirs)
            }
        };
        if open {
            self.replace_open(record.clone());
        } else if let Some(r) = self.threads.parked.iter_mut().find(|r| r.id == id) {
            *r = record.clone();
        } else {
            self.threads.parked.push(record.clone());
        }
        self.write_record(&record);
        self.write_index();
        if save {
            self.sync_changed(id);
        } else {
            self.sync.changes.remove(id);
            self.write_sync();
        }
    }

    /// A conversation the store no longer has: a line that was only listed goes.
    fn gone_there(&mut self, id: &str) {
        let sync = &mut self.sync;
        sync.stale.remove(id);
        sync.kept.versions.remove(id);
        if sync.stubs.remove(id) && id != self.thread_id {
            self.threads.parked.retain(|r| r.id != id);
        }
        self.write_sync();
    }

    /// Conversations of this browser from before the store was configured: the store has
    /// never seen them, and they are not sent by themselves.
    pub fn local_only(&self) -> Vec<String> {
        self.sync.local_only.iter().cloned().collect()
    }

    /// How many of this browser's own conversations to offer for upload: none once the
    /// person said "Not now" ([`Session::decline_upload`]) or sent them.
    pub fn upload_offer(&self) -> usize {
        if !self.syncs() || self.sync.kept.declined {
            return 0;
        }
        self.sync.local_only.len()
    }

    /// "Not now": this browser's own conversations stay here, and are not offered again (the
    /// page's [`Session::upload_local`] still sends them).
    pub fn decline_upload(&mut self) {
        self.sync.kept.declined = true;
        self.write_sync();
    }

    /// Send this browser's own conversations ([`Session::local_only`]) to the store.
    pub fn upload_local(&mut self) {
        let ids = std::mem::take(&mut self.sync.local_only);
        for id in ids {
            self.sync_changed(&id);
        }
    }

    /// Clear everything this chat keeps in the browser — conversations, drafts, what was
    /// still to be saved to the store — and open a fresh conversation (the site signed the
    /// person out). Refused while a run is in flight.
    pub fn forget(&mut self) -> Result<(), super::threads::ThreadError> {
        if self.running {
            return Err(super::threads::ThreadError::Running);
        }
        if let Some((store, prefix)) = &self.threads.store {
            let mine = format!("{prefix}:");
            for key in store.keys().unwrap_or_default() {
                if key.starts_with(&mine) {
                    let _ = store.remove(&key);
                }
            }
        }
        let fresh = ThreadRecord::empty(self.env.new_id("thread"), self.env.now_ms());
        self.threads.parked.clear();
        self.threads.stored.clear();
        self.threads.drafts.clear();
        self.threads.unsaved_drafts.clear();
        self.threads.draft_bytes.clear();
        self.threads.draft_files.clear();
        // (A call still out answers for what is forgotten.)
        self.sync = Sync {
            forgotten: self.sync.busy,
            busy: self.sync.busy,
            ..Sync::default()
        };
        self.replace_open(fresh);
        Ok(())
    }
}
