//! The transcript's rows: one per message, keyed uniquely even when a producer reuses a
//! message id (`id`, `id#1`, …), so a keyed list re-renders one row per changed message.

use std::collections::HashMap;

use crate::protocol::types::{Message, Role};

/// One rendered message row. `key` is unique even when a producer reuses a message id.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Row {
    pub key: String,
    pub id: String,
    pub role: Role,
    /// The subagent run it belongs to (`subagentRunId`), if any.
    pub subagent: Option<String>,
}

/// The rows of a message list.
pub fn row_keys(messages: &[Message]) -> Vec<Row> {
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
                subagent: m.subagent_run_id.clone(),
            }
        })
        .collect()
}

/// Whether `key` is the last answer of the conversation: an assistant row with no user
/// message after it. Walks back from the end, so it stops at the first user or assistant row.
pub fn is_last_answer(rows: &[Row], key: &str) -> bool {
    for r in rows.iter().rev() {
        match r.role {
            Role::User => return false,
            Role::Assistant => return r.key == key,
            _ => {}
        }
    }
    false
}
