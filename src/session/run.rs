//! Starting, feeding and ending runs: what a run request is, the stream's bytes into the
//! thread, a run's end, retry and stop.

use super::*;

/// Extra inputs of one run beyond the history and state.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Answers to the open interrupts (complete by construction).
    pub resume: Option<CompleteResume>,
    /// Also send the answers the older way (`forwardedProps.command.resume`).
    pub legacy_resume: bool,
    /// No person asked for this run: frontend tool handlers answered every pending call.
    /// At most [`hitl::MAX_AUTO_RUNS`] of those follow each other before a person is asked.
    pub automatic: bool,
    /// Merged into `RunAgentInput.forwardedProps` (an A2UI action: `{"a2uiAction": …}`).
    pub forwarded_props: Option<Value>,
    /// The run answers the last user message again (retry, regenerate): an AI SDK request
    /// says `trigger: "regenerate-message"`, as `useChat`'s `regenerate()` does.
    pub regenerate: bool,
}

/// Where a run's request goes.
#[derive(Debug, Clone, PartialEq)]
pub enum Route {
    /// POST to an AG-UI endpoint.
    Http {
        endpoint: String,
        headers: Vec<(String, String)>,
        /// The page's computed headers ([`AgentConfig::header_source`]), when they serve this
        /// endpoint.
        header_source: Option<HeaderSource>,
        /// The page's `allowed-endpoints` ([`AgentConfig::allowed_endpoints`]).
        allowed: Option<Vec<String>>,
        fetch: FetchPolicy,
        /// A `GET` without a body (an AI SDK stream resumed), not the usual `POST`.
        get: bool,
        /// The `Accept` header ([`Wire::accept`]).
        accept: &'static str,
    },
    /// Played by a local agent at `speed`.
    Local { agent: LocalAgentRef, speed: f64 },
}

/// A run to start: the shell sends `body` along `route` and feeds what comes back to
/// [`Session::push`] / [`Session::end_run`] with `generation`.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRequest {
    pub generation: u64,
    pub run_id: String,
    /// The `RunAgentInput` JSON, prepared (enforced, defaults filled).
    pub body: Value,
    pub route: Route,
}

impl Session {
    // ---- the stream ---------------------------------------------------------------------

    /// Whether `generation` is the run in flight (its bytes and end still count).
    pub fn is_current(&self, generation: u64) -> bool {
        self.running && self.generation == generation
    }

    /// Fold response bytes of run `generation`; the number of events delivered (0 for a
    /// stale generation).
    pub fn push(&mut self, generation: u64, bytes: &[u8]) -> usize {
        if !self.is_current(generation) {
            return 0;
        }
        self.push_bytes(bytes)
    }

    /// Fold bytes whatever run is open (recorded streams and tests; a transport uses
    /// [`Session::push`]).
    pub fn push_bytes(&mut self, bytes: &[u8]) -> usize {
        let now = self.env.now_ms();
        let log = self.logs.log_mut(&self.thread_id);
        let out = log.push_through(&mut self.pipeline, &mut self.decoder, bytes, now);
        self.note(&out);
        out.len()
    }

    /// Run `generation`'s transport finished, cleanly (`Ok`) or not. Stale generations and
    /// a stop (`Aborted`, already handled by [`Session::stop`]) change nothing.
    pub fn end_run(&mut self, generation: u64, result: Result<(), TransportError>) {
        if self.is_current(generation) {
            self.end_external(result);
        }
    }

    /// End the open run, whatever its generation (a run fed with [`Session::push_bytes`]).
    pub fn end_external(&mut self, result: Result<(), TransportError>) {
        let now = self.env.now_ms();
        match result {
            Ok(()) => {
                let log = self.logs.log_mut(&self.thread_id);
                let out = log.finish_through(&mut self.pipeline, &mut self.decoder, now);
                self.note(&out);
            }
            Err(TransportError::Aborted) => {}
            Err(err) => {
                self.logs
                    .log_mut(&self.thread_id)
                    .note_error(err.to_string(), now);
                self.pipeline.thread.end_run(RunStatus::Failed {
                    error: err.to_string(),
                });
                self.pipeline.abort();
                self.failure = Some(RunFailure::Transport(err));
            }
        }
        self.running = false;
        self.dirty.run = true;
        self.dirty.warnings = true;
        self.dirty.all_tools = true;
        self.dirty
            .rows
            .extend(0..self.pipeline.thread.messages.len().min(4096));
        self.on_run_end();
    }

    /// Stop the run in flight: it shows as stopped and keeps everything received; whatever
    /// its transport still delivers is ignored.
    pub fn stop(&mut self) {
        self.generation += 1;
        self.pipeline.abort();
        self.dirty.run = true;
        self.dirty.all_tools = true;
        let was = std::mem::replace(&mut self.running, false);
        if was {
            self.on_run_end();
        }
    }

    /// Start a run fed by the caller instead of a transport (recorded streams, tests, trace
    /// replay): push with the returned generation, then [`Session::end_run`].
    pub fn begin_external(&mut self) -> u64 {
        self.begin_external_as(Wire::AgUi)
    }

    /// [`Session::begin_external`] for bytes of another wire.
    pub fn begin_external_as(&mut self, wire: Wire) -> u64 {
        let run_id = self.env.new_id("run");
        self.open_pipeline(wire, run_id);
        self.generation += 1;
        self.running = true;
        self.dirty.run = true;
        self.generation
    }

    /// A fresh pipeline on the thread (run `run_id` starts, its response expected in
    /// `wire`), with the log told.
    pub(super) fn open_pipeline(&mut self, wire: Wire, run_id: String) {
        let thread = std::mem::take(&mut self.pipeline.thread);
        let options = PipelineOptions::default();
        self.decoder = Decoder::new(wire, &options, &self.thread_id, &run_id);
        self.run_id = run_id;
        self.pipeline = Pipeline::new(thread, options);
        let now = self.env.now_ms();
        self.logs
            .log_mut(&self.thread_id)
            .begin_run(&self.pipeline.thread, now);
        self.failure = None;
    }

    // ---- runs ---------------------------------------------------------------------------

    /// Send a user message: the request to send, or `None` (nothing to send, interrupts
    /// open — they must be answered or cancelled first, §4.11 — or a run in flight: then the
    /// message waits in the [`queue`] when it is on). A frontend tool call left unanswered is
    /// closed first, so the history never carries a call without a result.
    pub fn send(&mut self, text: &str) -> Option<RunRequest> {
        self.send_parts(text, Vec::new())
    }

    /// [`Session::send`] with attachments: content parts after the text (spec digest §3;
    /// built by [`crate::view::attachments`]). A message may be only attachments.
    pub fn send_parts(
        &mut self,
        text: &str,
        parts: Vec<crate::protocol::types::ContentPart>,
    ) -> Option<RunRequest> {
        let text = text.trim();
        if text.is_empty() && parts.is_empty() {
            return None;
        }
        self.files_sent();
        let id = self.env.new_id("msg");
        let message = crate::view::attachments::user_message(id, text, parts);
        if self.running {
            self.enqueue(message);
            return None;
        }
        self.send_message(message)
    }

    /// A person's run may start: none in flight, no interrupt open (those are answered or
    /// cancelled first, §4.11).
    pub(super) fn can_start(&self) -> bool {
        !self.running && self.pipeline.thread.open_interrupts().is_empty()
    }

    /// Append a person's message and start its run (see [`Session::send`]).
    pub(super) fn send_message(&mut self, message: Message) -> Option<RunRequest> {
        if !self.can_start() {
            return None;
        }
        let thread = &mut self.pipeline.thread;
        let env = &self.env;
        if !thread
            .cancel_pending_tool_calls("cancelled by user", || env.new_id("tool"))
            .is_empty()
        {
            self.dirty.restructured = true;
        }
        // The person takes over: a replayed trace's calls are closed above, the thread lives.
        self.threads.replayed = false;
        self.pipeline.thread.append(message);
        self.dirty.appended = true;
        self.note_arrival(self.pipeline.thread.messages.len().saturating_sub(1));
        self.start_run(RunOptions::default())
    }

    /// An MCP App View's `ui/update-model-context` (`key` names the View, e.g. its activity
    /// message id): `context` replaces what that View said before, `None` removes it. The
    /// following runs of this thread carry it in `RunAgentInput.context` (spec digest §3).
    /// The oldest View's goes when more than [`MAX_APP_CONTEXTS`] have one.
    pub fn set_app_context(&mut self, key: &str, context: Option<Context>) {
        self.app_context.retain(|(k, _)| k != key);
        if let Some(c) = context {
            if self.app_context.len() >= MAX_APP_CONTEXTS {
                self.app_context.remove(0);
            }
            self.app_context.push((key.to_owned(), c));
        }
    }

    /// A2UI renderer→agent messages (validation errors, function calls) for the next run a
    /// person starts ([`a2ui_out`]); returns how many were kept.
    pub fn queue_a2ui(&mut self, messages: Vec<Value>) -> usize {
        let mut kept = 0;
        for m in messages {
            kept += usize::from(self.a2ui_out.queue(m));
        }
        kept
    }

    /// An A2UI `callAgentFunction` with this id goes to the agent ([`a2ui_out`]).
    pub fn expect_a2ui_call(&mut self, function_call_id: String) {
        self.a2ui_out.expect_call(function_call_id);
    }

    /// Whether an `agentFunctionResponse`'s id answers a call still open (then closed).
    pub fn answer_a2ui_call(&mut self, function_call_id: &str) -> bool {
        self.a2ui_out.answer(function_call_id)
    }

    /// The A2UI messages waiting for the next run.
    pub fn a2ui_pending(&self) -> &[Value] {
        self.a2ui_out.pending()
    }

    /// A person acted in a surface the agent drew (an A2UI button): the next run carries
    /// `forwarded` in its `forwardedProps`. Refused while a run is in flight or interrupts
    /// are open (they must be answered first, §4.11).
    pub fn send_action(&mut self, forwarded: Value) -> Option<RunRequest> {
        if !self.can_start() {
            return None;
        }
        self.threads.replayed = false;
        self.start_run(RunOptions {
            forwarded_props: Some(forwarded),
            ..RunOptions::default()
        })
    }

    /// Retry after a failed run: drop what the failed run produced after the last user
    /// message and run again with a new run id. A failed resume run leaves its interrupts open
    /// (§4.11): then the same answers are sent again (never a run without them), or nothing
    /// when there are none to resend (the cards are answered again).
    pub fn retry(&mut self) -> Option<RunRequest> {
        if self.running {
            return None;
        }
        if !self.pipeline.thread.open_interrupts().is_empty() {
            let again = self.retry_resume();
            if again.is_none() {
                self.dirty.run = true;
            }
            return again;
        }
        let thread = &mut self.pipeline.thread;
        if let Some(i) = thread.messages.iter().rposition(|m| m.role == Role::User) {
            thread.truncate(i + 1);
            self.dirty.restructured = true;
        }
        self.start_run(RunOptions {
            regenerate: true,
            ..RunOptions::default()
        })
    }

    /// Start a run with the thread's history and state (and `options`): the request, or
    /// `None` when it cannot be sent (the failure is recorded and shown: no agent, a request
    /// the schema refuses).
    pub fn start_run(&mut self, options: RunOptions) -> Option<RunRequest> {
        self.hitl.count_run(options.automatic);
        self.agent_suggestions.clear();
        let run_id = self.env.new_id("run");
        let wire = self.request_wire();
        let ai_sdk_body = (wire == Wire::AiSdk)
            .then(|| {
                crate::protocol::wire::ai_sdk_request(
                    &self.thread_id,
                    &mut self.pipeline.thread,
                    options.resume.as_ref().map(|r| r.entries()),
                    options.regenerate,
                )
            })
            .flatten();
        self.open_pipeline(wire, run_id.clone());
        let thread = &self.pipeline.thread;
        let input = RunAgentInput {
            thread_id: self.thread_id.clone(),
            run_id: run_id.clone(),
            protocol_version: None,
            parent_run_id: None,
            state: Some(thread.state.clone()),
            messages: history_for_request(&thread.messages),
            // An agent that declares it takes no client tools is not offered the page's.
            tools: Some(match &self.config.capabilities {
                Some(c) if c.client_tools == Some(false) => Vec::new(),
                _ => self.config.tools.clone(),
            }),
            context: Some(self.app_context.iter().map(|(_, c)| c.clone()).collect()),
            forwarded_props: merge_props(
                match &options.resume {
                    Some(r) if options.legacy_resume || self.config.legacy_resume => {
                        Some(r.legacy_command())
                    }
                    _ => None,
                },
                // What the renderer owes the agent goes with a run a person starts, never
                // with one the chat starts by itself.
                if options.automatic {
                    options.forwarded_props.clone()
                } else {
                    a2ui_out::attach(options.forwarded_props.clone(), self.a2ui_out.take())
                },
            ),
            resume: options.resume.as_ref().map(|r| r.entries().to_vec()),
        };
        self.dirty.run = true;
        let body = match ai_sdk_body {
            Some(body) => Ok((body, Vec::new())),
            None => prepare_request(&input, None),
        };
        let body = match body {
            Ok((body, warnings)) => {
                self.note_request_warnings(warnings);
                body
            }
            Err(err) => {
                self.fail_before_sending(RunFailure::Request(err));
                return None;
            }
        };
        let route = match (&self.config.endpoint, &self.config.local_agent) {
            (Some(endpoint), _) => Route::Http {
                endpoint: endpoint.clone(),
                headers: self.config.headers.clone(),
                header_source: self.config.header_source_for(endpoint),
                allowed: self.config.allowed_endpoints.clone(),
                fetch: self.config.fetch,
                get: false,
                accept: Wire::accept(self.config.protobuf && wire == Wire::AgUi),
            },
            (None, Some(agent)) => Route::Local {
                agent: agent.clone(),
                speed: self.config.demo_speed,
            },
            (None, None) => {
                self.hitl.last_request = Some(body);
                self.fail_before_sending(RunFailure::NoAgent);
                return None;
            }
        };
        self.hitl.last_request = Some(body.clone());
        self.generation += 1;
        self.running = true;
        self.on_run_start(&run_id);
        Some(RunRequest {
            generation: self.generation,
            run_id,
            body,
            route,
        })
    }

    /// The wire of the next request: AG-UI for the local agent; for the endpoint, the
    /// configured one, or the AI SDK's when the endpoint answered that way before.
    pub(super) fn request_wire(&self) -> Wire {
        match &self.config.endpoint {
            None => Wire::AgUi,
            Some(_) if !Wire::AiSdk.available() => Wire::AgUi,
            Some(e) if self.detected.as_ref() == Some(e) => Wire::AiSdk,
            Some(_) => self.config.wire,
        }
    }

    /// Run `generation`'s response arrived in `wire` (its headers, before any byte): its
    /// bytes are read that way, and an endpoint that answers an AI SDK stream gets AI SDK
    /// requests from now on. The core reads AG-UI's SSE and the AI SDK's stream; a protobuf
    /// response is read by the decoder made for it ([`Session::open_response_with`]).
    pub fn open_response(&mut self, generation: u64, wire: Wire) {
        if !self.is_current(generation) {
            return;
        }
        if wire != self.decoder.wire() {
            self.decoder = Decoder::new(
                wire,
                &PipelineOptions::default(),
                &self.thread_id,
                &self.run_id,
            );
        }
        self.detected_by(wire);
    }

    /// Run `generation`'s response is read by `front`, a decoder the core does not make
    /// itself: protobuf's ([`crate::protocol::proto::ProtoDecoder`]), which the lean widget
    /// fetches as a module of its own when such a response comes.
    pub fn open_response_with(&mut self, generation: u64, front: Box<dyn WireFront>) {
        if !self.is_current(generation) {
            return;
        }
        let wire = front.wire();
        self.decoder = Decoder::with_front(front);
        self.detected_by(wire);
    }

    /// The endpoint answered in `wire`: an AI SDK stream makes its next requests the AI
    /// SDK's.
    pub(super) fn detected_by(&mut self, wire: Wire) {
        self.detected = match wire {
            Wire::AiSdk => self.config.endpoint.clone(),
            Wire::AgUi | Wire::Proto => None,
        };
    }

    /// The run could not even be sent: it shows as failed with `failure`.
    pub(super) fn fail_before_sending(&mut self, failure: RunFailure) {
        let error = match &failure {
            RunFailure::Request(e) => e.to_string(),
            _ => "no agent is configured".to_owned(),
        };
        self.failure = Some(failure);
        self.pipeline.thread.end_run(RunStatus::Failed { error });
        self.dirty.run = true;
        self.on_run_end();
    }

    pub(super) fn note_request_warnings(&mut self, warnings: Vec<crate::protocol::Warning>) {
        for w in warnings {
            let notice = Notice::Protocol(w);
            if !self.request_warnings.contains(&notice) {
                self.request_warnings.push(notice);
                self.dirty.warnings = true;
            }
        }
    }

    /// The JSON body of the last request (tests and debugging).
    pub fn last_request(&self) -> Option<&Value> {
        self.hitl.last_request.as_ref()
    }

    /// The `runId` of the last request.
    pub fn last_run_id(&self) -> Option<&str> {
        let body = self.hitl.last_request.as_ref()?;
        // An AI SDK request names no run: the session's id for it.
        body.get("runId")
            .and_then(Value::as_str)
            .or((!self.run_id.is_empty()).then_some(self.run_id.as_str()))
    }
}
