//! What the demo agent is asked ([`DemoRequest`]): the parts of the `RunAgentInput` JSON the
//! scripts read.

use serde_json::Value;

/// What the demo agent is asked: enough of `RunAgentInput` to script a reply.
#[derive(Debug, Clone, Copy)]
pub struct DemoRequest<'a> {
    pub thread_id: &'a str,
    pub run_id: &'a str,
    /// Text of the last user message (empty if none).
    pub last_user_text: &'a str,
    /// The state sent with the request (`null` when absent).
    pub state: &'a Value,
    /// The full `RunAgentInput` JSON as it would be POSTed (messages, resume, tools, …).
    pub input: &'a Value,
}

static NULL: Value = Value::Null;

impl<'a> DemoRequest<'a> {
    /// Read a request out of the `RunAgentInput` JSON the app would POST.
    pub fn from_input(input: &'a Value) -> Self {
        let str_field = |k: &str| input.get(k).and_then(Value::as_str).unwrap_or("");
        DemoRequest {
            thread_id: str_field("threadId"),
            run_id: str_field("runId"),
            last_user_text: last_user_text(input),
            state: input.get("state").unwrap_or(&NULL),
            input,
        }
    }

    /// `input.messages` (empty when absent).
    pub fn messages(&self) -> &'a [Value] {
        self.input
            .get("messages")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }

    /// `input.resume` entries (empty when absent).
    pub fn resume(&self) -> &'a [Value] {
        self.input
            .get("resume")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }

    /// The last message when it is a `tool` message (a frontend tool's answer).
    pub fn trailing_tool_message(&self) -> Option<&'a Value> {
        self.messages()
            .last()
            .filter(|m| m.get("role").and_then(Value::as_str) == Some("tool"))
    }

    /// The tool call with this id in the history: (name, arguments text).
    pub fn find_tool_call(&self, tool_call_id: &str) -> Option<(&'a str, &'a str)> {
        self.messages()
            .iter()
            .filter_map(|m| m.get("toolCalls").and_then(Value::as_array))
            .flatten()
            .find(|c| c.get("id").and_then(Value::as_str) == Some(tool_call_id))
            .map(|c| {
                let f = c.get("function");
                let get = |k: &str| f.and_then(|f| f.get(k)).and_then(Value::as_str);
                (get("name").unwrap_or(""), get("arguments").unwrap_or(""))
            })
    }
}

/// The text of the last user message in `input.messages`: the string content, or the last
/// text part of a parts list.
fn last_user_text(input: &Value) -> &str {
    let Some(messages) = input.get("messages").and_then(Value::as_array) else {
        return "";
    };
    let Some(user) = messages
        .iter()
        .rev()
        .find(|m| m.get("role").and_then(Value::as_str) == Some("user"))
    else {
        return "";
    };
    match user.get("content") {
        Some(Value::String(s)) => s,
        Some(Value::Array(parts)) => parts
            .iter()
            .rev()
            .find_map(|p| {
                (p.get("type").and_then(Value::as_str) == Some("text"))
                    .then(|| p.get("text").and_then(Value::as_str))
                    .flatten()
            })
            .unwrap_or(""),
        _ => "",
    }
}
