//! The AI SDK (v5–v7) UI message stream, sans-IO: a response that carries
//! `x-vercel-ai-ui-message-stream: v1` ([`is_ai_sdk_response`]) is SSE whose every `data` is one
//! JSON chunk (vercel/ai `packages/ai/src/ui-message-stream/ui-message-chunks.ts`), ending with
//! `data: [DONE]`. [`AiSdkDecoder`] turns each chunk into the AG-UI events the rest of the client
//! already folds (spec digest §2.2–2.3), so the reducer, the cards, the inspector and the tests
//! see an ordinary AG-UI run; [`AiSdkStream`] is the byte-level entry point (SSE → decoder →
//! [`Pipeline::push_event`](super::Pipeline::push_event)) that a transport uses instead of
//! [`Pipeline::push_bytes`](super::Pipeline::push_bytes). [`request_body`] builds the AI SDK's
//! request from the thread's AG-UI messages.
//!
//! ## Mapping (chunk → events)
//!
//! `mid` is the stream's UI message id (`start.messageId`, else the run id). Minted ids never
//! repeat within a stream nor reuse an id the thread holds (a `~n` suffix is added).
//!
//! | Chunk | Events |
//! |---|---|
//! | `start{messageId?, messageMetadata?}` | `RUN_STARTED` (thread and run ids from the caller); metadata → `CUSTOM ai-sdk:message-metadata`. Any other first chunk opens the run too. |
//! | `start-step` / `finish-step` | `STEP_STARTED` / `STEP_FINISHED` `step-<n>`; `finish-step` ends open text and reasoning blocks (as the AI SDK does). |
//! | `text-start{id}` / `-delta` / `-end` | `TEXT_MESSAGE_START/CONTENT/END`, one assistant message per block, id `mid:id`. Interleaved blocks cannot share one message (the reducer appends deltas to one string), and a block after a tool result must come after it in the transcript, so every block is its own message. |
//! | `reasoning-start{id}` / `-delta` / `-end` | `REASONING_START` + `REASONING_MESSAGE_START`, `…_CONTENT`, `…_MESSAGE_END` + `REASONING_END` (span and message share the id, §2.3). |
//! | `tool-input-start{toolCallId, toolName, inputEncoding?}` | `TOOL_CALL_START`, parent = the step's latest text block (else the call gets its own message, §5). With `inputEncoding: "text"` the raw text is streamed as a JSON string (`"` first, escaped deltas, `"` last) so the arguments stay JSON. |
//! | `tool-input-delta{inputTextDelta}` | `TOOL_CALL_ARGS`. |
//! | `tool-input-available{input}` | (`TOOL_CALL_START` if none came) + the input as one `TOOL_CALL_ARGS` if no delta came + `TOOL_CALL_END`. A call the thread already holds (a continued message) emits nothing. Streamed text that differs from the final `input` stands. |
//! | `tool-input-error{input, errorText}` | as `tool-input-available`, then an error result (below). |
//! | `tool-output-available{output}` | `TOOL_CALL_RESULT`, content = the output's JSON text. `preliminary: true` outputs → `CUSTOM ai-sdk:preliminary-output` only (a result cannot be replaced). |
//! | `tool-output-error{errorText}` | `TOOL_CALL_RESULT` content = errorText, metadata `aiSdkState: "output-error"`, `aiSdkErrorText`; [`AiSdkStream`] copies the text into the tool message's `error` (how the thread marks a failed tool, §4.12). |
//! | `tool-output-denied` | the same with `aiSdkState: "output-denied"` and [`DENIED`]. A result for a call an earlier run's `tool-approval-request` paused on carries `aiSdkApprovalId`, so later requests restate the part's `approval` (the AI SDK's schema requires it on `output-denied`). |
//! | `tool-approval-request{approvalId, toolCallId}` | an [`Interrupt`](super::types::Interrupt) `{id: approvalId, reason: "tool_call", toolCallId, responseSchema: {approved, reason}}` (the approval card's convention), raised by the closing `RUN_FINISHED` as `outcome: interrupt` (§4.11). `isAutomatic` ones → `CUSTOM ai-sdk:tool-approval-request`. Answer with [`approval_responses`] + [`request_body`]. |
//! | `tool-approval-response` | nothing (the client sent it). |
//! | `data-*{id?, data, transient?}` | `ACTIVITY_SNAPSHOT` activityType = the chunk type, content `{data, id?}`, message `mid:type:id`, so the same id updates in place (as `useChat` reconciles by type + id); without id a new activity. `transient` → `CUSTOM` named by the type, value `{data, id?}`, never stored. |
//! | `source-url`, `source-document`, `file`, `reasoning-file`, `custom` | `ACTIVITY_SNAPSHOT` activityType = the chunk type, content = the chunk's fields: a visible card that survives into the next request (source parts are listed under their answer instead, [`crate::view::sources`]). |
//! | `message-metadata{messageMetadata}` | `CUSTOM ai-sdk:message-metadata`. |
//! | `reset-step` | ends open blocks and calls, then `MESSAGES_SNAPSHOT` of the thread without what the step minted (authoritative for activities); see [`AiSdkStream`] for the two repairs the snapshot rules need. Data parts of earlier steps updated in this step stay updated (as in the AI SDK). |
//! | `finish{finishReason?, messageMetadata?}` | ends what is open, `RUN_FINISHED` (metadata `aiSdkFinishReason`); interrupt outcome when approvals are pending, else absent (success; pending frontend calls derived, §4.12). |
//! | `abort{reason?}` | ends what is open, `RUN_FINISHED` `outcome: cancelled` (§2.4), metadata `aiSdkAbortReason`. |
//! | `error{errorText}` | `RUN_ERROR{message: errorText}`; later chunks are ignored (only `RUN_STARTED` may follow, §4.3). |
//! | `data: [DONE]` | the end: a still open run is finished as by `finish`; later chunks ignored. |
//! | unknown type | dropped with a [`WarningKind::UnknownEvent`](super::WarningKind::UnknownEvent) warning (§4.2). |
//!
//! A known chunk whose field has the wrong type, a delta or end for a block or call that is not
//! open (the AI SDK client throws for these too), or more than [`MAX_PARTS`] parts fails the
//! stream with an [`AiSdkError`] ([`ProtocolError::AiSdk`](super::ProtocolError::AiSdk)).
//! Unknown fields are ignored (the schema's objects are loose). Metadata keys `aiSdk*` keep what
//! the request needs back (`aiSdkMessageId`, `aiSdkProviderMetadata`, `aiSdkTool`).
//!
//! Not here: resumable streams (a `GET` replay would need the decoder to rebuild from the first
//! `start`), and the transport/UI wiring.
//!
//! The files, bottom up: `error.rs` ([`AiSdkError`]), `decode.rs` (chunk → events, the table
//! above), `front.rs` (bytes → thread: [`AiSdkFront`], [`AiSdkStream`]), `request.rs` (the
//! request and its approval answers). This file only re-exports them.

mod decode;
mod error;
mod front;
mod request;

pub use decode::{AiSdkDecoder, DENIED, MAX_PARTS};
pub use error::AiSdkError;
pub use front::{is_ai_sdk_response, AiSdkFront, AiSdkStream, HEADER};
pub use request::{
    approval_responses, record_approvals, request_body, resume_url, ApprovalResponse, Trigger,
};
