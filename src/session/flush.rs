//! What changed since the last flush, for the store to publish: [`Flush`] and the session's
//! bookkeeping of dirty rows, paths and warnings.

use super::*;

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
pub(super) struct Dirty {
    pub(super) rows: HashSet<usize>,
    pub(super) appended: bool,
    pub(super) restructured: bool,
    pub(super) tools: HashSet<String>,
    pub(super) all_tools: bool,
    pub(super) state_all: bool,
    pub(super) state_paths: Vec<String>,
    pub(super) run: bool,
    pub(super) warnings: bool,
    pub(super) queue: bool,
}

/// Arrival times (the session clock) the views show as durations.
#[derive(Debug, Default)]
pub(super) struct Timings {
    pub(super) tool_end: HashMap<String, f64>,
    pub(super) tool_result: HashMap<String, f64>,
    pub(super) reasoning_start: HashMap<String, f64>,
    pub(super) reasoning_end: HashMap<String, f64>,
}

impl Session {
    // ---- what changed -------------------------------------------------------------------

    /// Record what delivered events changed, for the next flush.
    pub(super) fn note(&mut self, delivered: &[Delivered]) {
        let now = self.env.now_ms();
        for d in delivered {
            if let Change::ToolCall { id, .. } = &d.change {
                self.dirty.tools.insert(id.clone());
            }
            match d.change.rows() {
                Some(Rows::InPlace(i)) => {
                    self.dirty.rows.insert(i);
                }
                Some(Rows::Appended(i)) => {
                    self.dirty.appended = true;
                    self.note_arrival(i);
                }
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
    pub(super) fn mark_everything(&mut self) {
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
