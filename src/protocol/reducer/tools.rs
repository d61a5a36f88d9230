//! Tool calls (spec digest §"Tool call events"): `TOOL_CALL_START` … `ARGS` … `END` …
//! `RESULT`, with the arguments parsed incrementally as they stream. Every change names its
//! call ([`Change::ToolCall`]).

use super::{merge_md, Change, Cx, Thread, ToolArgs, WarningKind};
use crate::protocol::event::{ToolCallArgs, ToolCallResult, ToolCallStart};
use crate::protocol::partial_json::PartialJson;
use crate::protocol::types::{FunctionCall, Message, Role, ToolCall};

impl Thread {
    /// `TOOL_CALL_START`: the call in its parent assistant message (or a message of its own),
    /// with a fresh parsed-args view; a repeated start of a held call is idempotent.
    pub(super) fn tool_call_start(&mut self, s: &ToolCallStart, cx: Cx) -> Change {
        Change::tool(&s.tool_call_id, self.start_call(s, cx))
    }

    fn start_call(&mut self, s: &ToolCallStart, cx: Cx) -> Change {
        let run_id = self
            .runs
            .last()
            .map(|r| r.run_id.clone())
            .unwrap_or_default();
        if let Some(run) = self.current_run() {
            // A reopened call (START again after its END) is still one call.
            if !run.tool_call_ids.contains(&s.tool_call_id) {
                run.tool_call_ids.push(s.tool_call_id.clone());
            }
        }
        self.tool_args.insert(
            s.tool_call_id.clone(),
            ToolArgs {
                parser: PartialJson::new(),
                ended: false,
                run_id,
            },
        );
        // Idempotent replay of a call we already hold.
        if let Some(&i) = self.tool_index.get(&s.tool_call_id) {
            let mut renamed = None;
            if let Some(call) = self
                .messages
                .get_mut(i)
                .and_then(|m| m.tool_calls.as_mut())
                .and_then(|cs| cs.iter_mut().find(|c| c.id == s.tool_call_id))
            {
                if call.function.name != s.tool_call_name {
                    renamed = Some(std::mem::replace(
                        &mut call.function.name,
                        s.tool_call_name.clone(),
                    ));
                }
                merge_md(&mut call.metadata, cx.md);
                if let Some(args) = self.tool_args.get_mut(&s.tool_call_id) {
                    args.parser.push(&call.function.arguments);
                }
            }
            if let Some(old) = renamed {
                self.warn(
                    WarningKind::ToolRenamed(s.tool_call_id.clone()),
                    cx.t,
                    format!(
                        "tool call '{}' renamed from '{old}' to '{}'",
                        s.tool_call_id, s.tool_call_name
                    ),
                );
            }
            return Change::Message(i);
        }
        let parent = s
            .parent_message_id
            .as_ref()
            .and_then(|p| self.position(p).map(|i| (p, i)));
        let (i, change) = match (&s.parent_message_id, parent) {
            (Some(_), Some((_, i)))
                if self
                    .messages
                    .get(i)
                    .is_some_and(|m| m.role == Role::Assistant) =>
            {
                (i, Change::Message(i))
            }
            (Some(p), Some(_)) => {
                self.warn(
                    WarningKind::BadParent(p.clone()),
                    cx.t,
                    format!("parentMessageId '{p}' is not an assistant message; the call gets its own message"),
                );
                let mut m = Message::new(s.tool_call_id.clone(), Role::Assistant);
                m.subagent_run_id = cx.owner.clone();
                let i = self.push_message(m);
                (i, Change::Appended(i))
            }
            (Some(p), None) => {
                let mut m = Message::new(p.clone(), Role::Assistant);
                m.subagent_run_id = cx.owner.clone();
                let i = self.push_message(m);
                (i, Change::Appended(i))
            }
            (None, _) => {
                let mut m = Message::new(s.tool_call_id.clone(), Role::Assistant);
                m.subagent_run_id = cx.owner.clone();
                let i = self.push_message(m);
                (i, Change::Appended(i))
            }
        };
        if let Some(m) = self.messages.get_mut(i) {
            let mut call = ToolCall {
                id: s.tool_call_id.clone(),
                kind: "function".into(),
                function: FunctionCall {
                    name: s.tool_call_name.clone(),
                    arguments: String::new(),
                },
                encrypted_value: None,
                encrypted_value_type: None,
                metadata: None,
            };
            merge_md(&mut call.metadata, cx.md);
            m.tool_calls.get_or_insert_with(Vec::new).push(call);
            self.tool_index.entry(s.tool_call_id.clone()).or_insert(i);
        }
        change
    }

    /// An arguments delta: appended to the call's text and fed to its parser.
    pub(super) fn tool_call_args(&mut self, a: &ToolCallArgs, cx: Cx) -> Change {
        let Some(&i) = self.tool_index.get(&a.tool_call_id) else {
            return self.warn(
                WarningKind::UnknownTarget(a.tool_call_id.clone()),
                cx.t,
                format!("no tool call with id '{}'", a.tool_call_id),
            );
        };
        let Some(call) = self.tool_call_mut(&a.tool_call_id) else {
            return Change::Nothing;
        };
        call.function.arguments.push_str(&a.delta);
        merge_md(&mut call.metadata, cx.md);
        if let Some(args) = self.tool_args.get_mut(&a.tool_call_id) {
            args.parser.push(&a.delta);
        }
        Change::tool(&a.tool_call_id, Change::Message(i))
    }

    pub(super) fn tool_call_end(&mut self, id: &str, cx: Cx) -> Change {
        if let Some(args) = self.tool_args.get_mut(id) {
            args.ended = true;
        }
        let Some(&i) = self.tool_index.get(id) else {
            return Change::Nothing;
        };
        if let Some(call) = self.tool_call_mut(id) {
            merge_md(&mut call.metadata, cx.md);
        }
        Change::tool(id, Change::Message(i))
    }

    /// The result: a tool message right after its call (and after earlier results of the same
    /// message), or at the end for a call this thread never saw.
    pub(super) fn tool_call_result(&mut self, r: &ToolCallResult, cx: Cx) -> Change {
        if let Some(run) = self.current_run() {
            run.answered.insert(r.tool_call_id.clone());
        }
        if let Some(args) = self.tool_args.get_mut(&r.tool_call_id) {
            args.ended = true;
        }
        let mut m = Message::new(r.message_id.clone(), Role::Tool);
        m.tool_call_id = Some(r.tool_call_id.clone());
        m.content = Some(r.content.clone());
        m.subagent_run_id = cx.owner.clone();
        merge_md(&mut m.metadata, cx.md);
        let rows = match self.tool_index.get(&r.tool_call_id).copied() {
            None => Change::Appended(self.push_message(m)),
            Some(i) => {
                let mut at = i + 1;
                while self.messages.get(at).is_some_and(|m| m.role == Role::Tool) {
                    at += 1;
                }
                if at >= self.messages.len() {
                    Change::Appended(self.push_message(m))
                } else {
                    self.messages.insert(at, m);
                    self.reindex_from(at);
                    Change::Messages
                }
            }
        };
        Change::tool(&r.tool_call_id, rows)
    }
}
