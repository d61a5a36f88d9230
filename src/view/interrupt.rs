//! What an interrupt card asks for and what it answers, pure (spec digest §4.11): the card kind
//! read from the interrupt ([`card_kind`]: a LangChain human-in-the-loop review, an approval
//! in the approve-with-edits convention, a choice, a generated form, free text) and the
//! payloads the answers become ([`approval_payload`], [`hitl_payload`]). The cards are
//! `ui::hitl::interrupt_card`.

use serde_json::{json, Map, Value};

use crate::i18n::{fill, Strings};
use crate::protocol::types::{Interrupt, ResumeEntry, ResumeStatus};
use crate::view::format::truncate_chars;

/// The longest answer summary shown on an answered card.
const SUMMARY_CHARS: usize = 160;

/// A decision a LangChain HITL review allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Decision {
    Approve,
    Edit,
    Reject,
}

impl Decision {
    pub fn name(self) -> &'static str {
        match self {
            Decision::Approve => "approve",
            Decision::Edit => "edit",
            Decision::Reject => "reject",
        }
    }

    /// The decision's button text.
    pub fn label(self, t: &Strings) -> &'static str {
        match self {
            Decision::Approve => t.approve,
            Decision::Edit => t.edit,
            Decision::Reject => t.reject,
        }
    }

    fn parse(s: &str) -> Option<Self> {
        match s {
            "approve" | "accept" => Some(Decision::Approve),
            "edit" => Some(Decision::Edit),
            "reject" | "respond" => Some(Decision::Reject),
            _ => None,
        }
    }
}

/// One action request of a LangChain HITL interrupt, with the decisions its review allows.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionReview {
    pub name: String,
    pub args: Value,
    pub description: Option<String>,
    pub allowed: Vec<Decision>,
}

/// The approve-with-edits convention, read from a `responseSchema`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ApprovalSpec {
    /// The schema has `editedArgs`: offer to edit the gated call's arguments.
    pub edit_args: bool,
    /// The schema has a string `reason`.
    pub reason: bool,
    /// The rest of the schema (properties other than `approved`, `editedArgs`, `reason`).
    pub extra: Option<Value>,
}

/// What a card asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum CardKind {
    Hitl(Vec<ActionReview>),
    Approval(ApprovalSpec),
    Choice(Vec<Value>),
    Form(Value),
    FreeText,
}

/// The legacy `on_interrupt` value, as the reducer parsed it.
fn legacy_value(i: &Interrupt) -> Option<&Value> {
    i.metadata.as_ref().and_then(|m| m.get("value"))
}

/// The LangChain HITL request (`{action_requests, review_configs}`) an interrupt carries: in
/// the legacy value, in a LangGraph interrupt wrapper (`{value: …}` or `[{value: …}]`), or in
/// the metadata itself.
pub fn hitl_request(i: &Interrupt) -> Option<Value> {
    let has = |v: &&Value| v.get("action_requests").is_some_and(Value::is_array);
    let value = legacy_value(i);
    let candidates = [
        value,
        value.and_then(|v| v.get("value")),
        value.and_then(|v| v.get(0)).and_then(|v| v.get("value")),
    ];
    if let Some(found) = candidates.into_iter().flatten().find(has) {
        return Some(found.clone());
    }
    i.metadata
        .as_ref()
        .filter(|m| m.get("action_requests").is_some_and(Value::is_array))
        .map(|m| Value::Object(m.clone()))
}

/// The action requests of a HITL request with their allowed decisions: from the review config
/// naming the action (`action_name`), else the one at the same index, else a top-level
/// `allowed_decisions`, else approve and reject.
pub fn action_reviews(request: &Value) -> Vec<ActionReview> {
    let actions = request
        .get("action_requests")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let configs = request
        .get("review_configs")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let decisions = |v: Option<&Value>| -> Option<Vec<Decision>> {
        let list: Vec<Decision> = v?
            .as_array()?
            .iter()
            .filter_map(Value::as_str)
            .filter_map(Decision::parse)
            .fold(Vec::new(), |mut acc, d| {
                if !acc.contains(&d) {
                    acc.push(d);
                }
                acc
            });
        (!list.is_empty()).then_some(list)
    };
    actions
        .iter()
        .enumerate()
        .map(|(n, a)| {
            let name = a
                .get("name")
                .or_else(|| a.get("action"))
                .and_then(Value::as_str)
                .unwrap_or("action")
                .to_owned();
            let config = configs
                .iter()
                .find(|c| c.get("action_name").and_then(Value::as_str) == Some(name.as_str()))
                .or_else(|| configs.get(n));
            let allowed = decisions(config.and_then(|c| c.get("allowed_decisions")))
                .or_else(|| decisions(request.get("allowed_decisions")))
                .unwrap_or_else(|| vec![Decision::Approve, Decision::Reject]);
            ActionReview {
                args: a
                    .get("args")
                    .or_else(|| a.get("arguments"))
                    .cloned()
                    .unwrap_or_else(|| Value::Object(Map::new())),
                description: a
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                allowed,
                name,
            }
        })
        .collect()
}

/// Read the approve-with-edits convention from a schema: `Some` when it has a boolean
/// `approved` property.
pub fn approval_spec(schema: &Value) -> Option<ApprovalSpec> {
    let props = schema.get("properties")?.as_object()?;
    let approved = props.get("approved")?;
    if approved.get("type").and_then(Value::as_str) != Some("boolean") {
        return None;
    }
    let reason = props
        .get("reason")
        .is_some_and(|r| r.get("type").and_then(Value::as_str) == Some("string"));
    let mut rest = Map::new();
    for (k, v) in props {
        if k != "approved" && k != "editedArgs" && !(k == "reason" && reason) {
            rest.insert(k.clone(), v.clone());
        }
    }
    let extra = (!rest.is_empty()).then(|| {
        let required: Vec<Value> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| {
                r.iter()
                    .filter(|k| k.as_str().is_some_and(|k| rest.contains_key(k)))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        json!({"type": "object", "properties": rest, "required": required})
    });
    Some(ApprovalSpec {
        edit_args: props.contains_key("editedArgs"),
        reason,
        extra,
    })
}

/// What the card for `i` asks for (see the module docs for the order).
pub fn card_kind(i: &Interrupt) -> CardKind {
    if let Some(request) = hitl_request(i) {
        let reviews = action_reviews(&request);
        if !reviews.is_empty() {
            return CardKind::Hitl(reviews);
        }
    }
    if let Some(options) = legacy_value(i)
        .and_then(|v| v.get("options"))
        .and_then(Value::as_array)
        // Past the form's option cap a question is answered as free text.
        .filter(|o| !o.is_empty() && o.len() <= crate::view::form::MAX_OPTIONS)
    {
        return CardKind::Choice(options.clone());
    }
    if let Some(schema) = &i.response_schema {
        let schema = Value::Object(schema.clone());
        return match approval_spec(&schema) {
            Some(spec) => CardKind::Approval(spec),
            None => CardKind::Form(schema),
        };
    }
    if i.reason == "tool_call" || i.reason == "confirmation" {
        return CardKind::Approval(ApprovalSpec::default());
    }
    CardKind::FreeText
}

/// The payload of an approval: `{"approved", "editedArgs"?, "reason"?, …extra}`.
pub fn approval_payload(
    approved: bool,
    edited_args: Option<Value>,
    reason: Option<String>,
    extra: Option<Value>,
) -> Value {
    let mut out = match extra {
        Some(Value::Object(m)) => m,
        _ => Map::new(),
    };
    out.insert("approved".into(), Value::Bool(approved));
    if let Some(args) = edited_args.filter(|_| approved) {
        out.insert("editedArgs".into(), args);
    }
    if let Some(r) = reason.filter(|r| !r.trim().is_empty()) {
        out.insert("reason".into(), Value::String(r.trim().to_owned()));
    }
    Value::Object(out)
}

/// The person's decision on one action request.
#[derive(Debug, Clone, PartialEq)]
pub enum DecisionAnswer {
    Approve,
    Edit { name: String, args: Value },
    Reject { message: Option<String> },
}

/// The LangChain HITL resume payload: `{"decisions": [...]}`, one per action request.
pub fn hitl_payload(answers: &[DecisionAnswer]) -> Value {
    let decisions: Vec<Value> = answers
        .iter()
        .map(|a| match a {
            DecisionAnswer::Approve => json!({"type": "approve"}),
            DecisionAnswer::Edit { name, args } => {
                json!({"type": "edit", "edited_action": {"name": name, "args": args}})
            }
            DecisionAnswer::Reject { message } => match message {
                Some(m) if !m.trim().is_empty() => json!({"type": "reject", "message": m.trim()}),
                _ => json!({"type": "reject"}),
            },
        })
        .collect();
    json!({ "decisions": decisions })
}

/// Parse an edited-arguments text: a JSON object, or why not.
pub fn parse_args_object(text: &str, t: &Strings) -> Result<Value, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err(t.interrupt_args_not_object.to_owned()),
        Err(e) => Err(fill(t.interrupt_args_invalid_json, &[&e])),
    }
}

/// A one-line summary of a recorded answer.
pub fn answer_summary(entry: &ResumeEntry, t: &Strings) -> String {
    match entry.status {
        ResumeStatus::Cancelled => t.interrupt_cancelled.to_owned(),
        ResumeStatus::Resolved => match &entry.payload {
            Some(Value::String(s)) => truncate_chars(s, SUMMARY_CHARS),
            Some(Value::Object(o)) if o.get("approved") == Some(&Value::Bool(true)) => {
                if o.contains_key("editedArgs") {
                    t.interrupt_approved_edited.to_owned()
                } else {
                    t.interrupt_approved.to_owned()
                }
            }
            Some(Value::Object(o)) if o.get("approved") == Some(&Value::Bool(false)) => {
                t.interrupt_rejected.to_owned()
            }
            Some(v) => truncate_chars(&v.to_string(), SUMMARY_CHARS),
            None => t.interrupt_answered.to_owned(),
        },
    }
}

pub fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}
