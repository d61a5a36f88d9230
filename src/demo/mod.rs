//! The offline demo agent: a scripted AG-UI producer in pure Rust.
//!
//! The app runs on it by default. [`respond`] answers one request with the real SSE bytes of a
//! run (`data: <compact JSON>\n\n` per event, LF only), cut into timed [`DemoChunk`]s the way a
//! network delivers them — mostly one event per chunk, sometimes an event split across two
//! chunks, sometimes two events in one. The browser layer replays the chunks with their delays
//! into the same decoder and pipeline as a network stream, so the demo exercises the whole
//! client: reasoning, markdown, streamed tool arguments, backend and frontend tools, shared
//! state (`STATE_SNAPSHOT` / `STATE_DELTA`), activity, interrupts (standard and legacy), run
//! errors and a dropped connection.
//!
//! Pure and deterministic: no clock, no randomness source — timing and chunking vary with a
//! seed derived from the run id, so the same request always gives the same chunks.
//! [`TRIGGERS`] lists the phrases that pick a script, for the UI's "try:" hints.

mod content;
pub mod model;
mod request;
pub mod scripts;
pub mod stream;
#[cfg(target_arch = "wasm32")]
pub mod ui;

use serde_json::Value;

use crate::session::{LocalAgent, TimedChunk};

pub use request::DemoRequest;
pub use stream::DemoChunk;

/// The demo agent as a [`LocalAgent`]: what the demo plug-in installs.
#[derive(Debug, Clone, Copy, Default)]
pub struct DemoAgent;

impl LocalAgent for DemoAgent {
    fn respond(&self, input: &Value) -> Vec<TimedChunk> {
        respond(&DemoRequest::from_input(input))
    }
}

/// The scripts a user message can pick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scenario {
    Planner,
    UseTool,
    Think,
    Markdown,
    Error,
    Drop,
    AskMe,
    Approve,
    Pay,
    LegacyInterrupt,
    Long,
    /// "reserve a table": an A2UI booking form (issue 14).
    Reserve,
    /// "show the map": a small MCP App in a sandboxed frame (issue 14).
    Map,
}

/// Trigger phrases per scenario, checked in this order (whole words, case-insensitive).
const MATCHERS: &[(&[&str], Scenario)] = &[
    (&["legacy interrupt"], Scenario::LegacyInterrupt),
    (&["reserve", "reservation"], Scenario::Reserve),
    (&["map", "show the map"], Scenario::Map),
    (&["ask me"], Scenario::AskMe),
    (&["confirm payment", "pay", "payment"], Scenario::Pay),
    (&["approve", "book"], Scenario::Approve),
    (&["use a tool", "weather"], Scenario::UseTool),
    (&["markdown"], Scenario::Markdown),
    (&["error"], Scenario::Error),
    (&["drop", "disconnect"], Scenario::Drop),
    (&["long"], Scenario::Long),
    (&["think"], Scenario::Think),
    (&["plan", "lisbon", "offsite"], Scenario::Planner),
];

/// The trigger phrases, for the UI's "try:" hints: (phrase, description).
pub const TRIGGERS: &[(&str, &str)] = &[
    (
        "Plan a Lisbon offsite for 8 people, under $12,000",
        "the full planner: reasoning, a venue search tool, shared trip state, progress, a comparison table",
    ),
    ("use a tool", "a weather tool call with streamed arguments and its result"),
    ("think", "a long reasoning block, then a short answer"),
    ("markdown", "every markdown feature, plus hostile HTML and links the client must neutralise"),
    ("ask me", "the agent pauses with a form (an input_required interrupt)"),
    ("approve", "a booking that needs your approval (a tool-call interrupt)"),
    ("pay", "a frontend tool: confirm a deposit in the browser"),
    ("legacy interrupt", "a LangGraph-style on_interrupt event"),
    ("error", "the agent fails mid-answer (RUN_ERROR)"),
    ("drop", "the connection drops mid-answer (a truncated run)"),
    ("long", "a ~3,000-word answer, for scrolling"),
    ("reserve a table", "a booking form the agent describes (A2UI); its button goes back to the agent"),
    ("show the map", "a small MCP App: the venues on a map, in a sandboxed frame"),
];

/// Lower-case words of `text`, space-separated with a space at each end.
fn normalise(text: &str) -> String {
    let mut out = String::from(" ");
    for w in text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        out.push_str(&w.to_lowercase());
        out.push(' ');
    }
    out
}

/// The scenario a user message picks (the planner when nothing matches).
pub fn scenario_for(text: &str) -> Scenario {
    let norm = normalise(text);
    MATCHERS
        .iter()
        .find(|(phrases, _)| {
            phrases
                .iter()
                .any(|p| norm.contains(&format!(" {} ", normalise(p).trim())))
        })
        .map_or(Scenario::Planner, |(_, s)| *s)
}

/// The scripted reply: SSE bytes split into timed chunks. Pure and deterministic for a given
/// request.
///
/// A request carrying `resume` answers the previous run's interrupt; one whose last message is
/// a `tool` message answers a frontend tool call; otherwise the last user message picks the
/// script ([`scenario_for`]).
pub fn respond(req: &DemoRequest) -> Vec<DemoChunk> {
    if !req.resume().is_empty() {
        return scripts::resume(req);
    }
    if let Some(tool) = req.trailing_tool_message() {
        return scripts::tool_follow_up(req, tool);
    }
    if let Some(answer) = legacy_command_resume(req) {
        return scripts::legacy_resumed(req, answer);
    }
    if let Some(proxied) = req
        .input
        .get("forwardedProps")
        .and_then(|p| p.get("__proxiedMCPRequest"))
    {
        return scripts::mcp_proxied(req, proxied);
    }
    if let Some(action) = req
        .input
        .get("forwardedProps")
        .and_then(|p| p.get("a2uiAction"))
        .and_then(|a| a.get("userAction"))
    {
        return scripts::reserved(req, action);
    }
    match scenario_for(req.last_user_text) {
        Scenario::Planner => scripts::planner(req),
        Scenario::UseTool => scripts::use_a_tool(req),
        Scenario::Think => scripts::think(req),
        Scenario::Markdown => scripts::markdown(req),
        Scenario::Error => scripts::error(req),
        Scenario::Drop => scripts::drop(req),
        Scenario::AskMe => scripts::ask_me(req),
        Scenario::Approve => scripts::approve(req),
        Scenario::Pay => scripts::pay(req),
        Scenario::LegacyInterrupt => scripts::legacy_interrupt(req),
        Scenario::Long => scripts::long(req),
        Scenario::Reserve => scripts::reserve(req),
        Scenario::Map => scripts::map_app(req),
    }
}

/// The deprecated LangGraph resume channel, `forwardedProps.command.resume`.
fn legacy_command_resume<'a>(req: &DemoRequest<'a>) -> Option<&'a Value> {
    req.input
        .get("forwardedProps")
        .and_then(|p| p.get("command"))
        .and_then(|c| c.get("resume"))
        .filter(|v| !v.is_null())
}

/// Total playing time of a reply, in milliseconds.
pub fn duration_ms(chunks: &[DemoChunk]) -> u64 {
    chunks.iter().map(|c| u64::from(c.delay_ms)).sum()
}

/// The whole body of a reply.
pub fn body(chunks: &[DemoChunk]) -> Vec<u8> {
    chunks
        .iter()
        .flat_map(|c| c.bytes.iter().copied())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phrases_pick_scenarios() {
        assert_eq!(scenario_for("Please USE A TOOL"), Scenario::UseTool);
        assert_eq!(scenario_for("can you think about it?"), Scenario::Think);
        assert_eq!(scenario_for("ask me first"), Scenario::AskMe);
        assert_eq!(scenario_for("display it"), Scenario::Planner);
        assert_eq!(scenario_for("confirm payment"), Scenario::Pay);
        assert_eq!(scenario_for("hello"), Scenario::Planner);
        assert_eq!(scenario_for("legacy interrupt"), Scenario::LegacyInterrupt);
        assert_eq!(scenario_for("show an error"), Scenario::Error);
        assert_eq!(scenario_for("disconnect"), Scenario::Drop);
        assert_eq!(scenario_for("plan our Lisbon offsite"), Scenario::Planner);
    }
}
