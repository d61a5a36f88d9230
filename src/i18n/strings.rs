//! The keys of the catalog: [`Strings`], one `&'static str` field per UI string, declared
//! once by `catalog!` with its doc comment (which says what the text is and what its `{}`
//! placeholders are filled with).

/// Declares [`Strings`] (a `&'static str` field per key), its [`Strings::KEYS`],
/// [`Strings::entries`], [`Strings::docs`], and the by-name access page overrides use
/// ([`Strings::get`], [`Strings::set`]).
macro_rules! catalog {
    ($($(#[doc = $doc:literal])* $key:ident,)*) => {
        /// Every UI string of one language.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct Strings {
            $($(#[doc = $doc])* pub $key: &'static str,)*
        }

        /// A key, for the by-name access: a match on it is a jump table, where a match on the
        /// names would compare hundreds of strings.
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy)]
        enum Key {
            $($key,)*
        }

        /// Every key, in the order of [`Strings::KEYS`].
        const ALL: &[Key] = &[$(Key::$key),*];

        impl Strings {
            /// Every key, in declaration order.
            pub const KEYS: &'static [&'static str] = &[$(stringify!($key)),*];

            /// Every `(key, text)` pair, in declaration order.
            pub fn entries(&self) -> Vec<(&'static str, &'static str)> {
                Self::KEYS.iter().zip(ALL).map(|(name, key)| (*name, self.text(*key))).collect()
            }

            /// Every key with its doc comment (its lines joined with `\n`; empty when it has
            /// none), in declaration order: what a translator or a page giving its own texts
            /// reads (the npm package's `AguiStrings` is generated from it).
            pub fn docs() -> &'static [(&'static str, &'static str)] {
                &[$((stringify!($key), concat!($($doc, "\n",)* ""))),*]
            }

            /// The text of `key` (`None`: no such key).
            pub fn get(&self, key: &str) -> Option<&'static str> {
                Self::key(key).map(|k| self.text(k))
            }

            /// Replaces the text of `key`; false when there is no such key.
            pub fn set(&mut self, key: &str, text: &'static str) -> bool {
                let Some(key) = Self::key(key) else {
                    return false;
                };
                *self.slot(key) = text;
                true
            }

            fn key(name: &str) -> Option<Key> {
                let i = Self::KEYS.iter().position(|k| *k == name)?;
                ALL.get(i).copied()
            }

            fn text(&self, key: Key) -> &'static str {
                match key {
                    $(Key::$key => self.$key,)*
                }
            }

            fn slot(&mut self, key: Key) -> &mut &'static str {
                match key {
                    $(Key::$key => &mut self.$key,)*
                }
            }
        }
    };
}

catalog! {
    // the embedded widget's frame
    /// The launcher's name when the panel is closed; `{}` is the widget's title.
    widget_open,
    /// The launcher's name when the panel is open and the close button's; `{}` is the title.
    widget_close,
    /// The widget's title when the page gives none.
    widget_default_title,
    // chat layout
    /// `aria-label` of the side column.
    side_label,
    // transcript
    /// `aria-label` of the transcript log.
    transcript_label,
    /// The empty state's title.
    hero_title,
    /// The demo plug-in's welcome text (the empty state).
    hero_demo,
    /// The empty state on a remote agent, where the agent picker is shown; `{}` is the
    /// endpoint (shown as code).
    hero_connected,
    /// The typing indicator's accessible name.
    typing_label,
    /// The "jump to the newest message" button.
    jump_latest,
    // composer
    /// Before the suggestion chips.
    try_label,
    /// The composer textarea's label.
    message_label,
    composer_placeholder,
    /// Placeholder while interrupts lock the composer.
    composer_placeholder_locked,
    send,
    stop,
    composer_hint,
    /// The name of the list of the page's commands (typing `/` in the composer).
    commands_label,
    /// Announced when the command list opens or changes; `{}` is how many match.
    commands_matching,
    composer_locked,
    cancel_all,
    // run status
    status_ready,
    status_thinking,
    status_streaming,
    status_working,
    status_waiting,
    status_done,
    status_interrupted,
    status_stopped,
    status_error,
    status_connection_lost,
    /// `{}` = a token count.
    usage_tokens,
    usage_in,
    usage_out,
    usage_reasoning,
    // number conventions (every number, duration, size and amount shown)
    /// Digit group separator of numbers.
    thousands_separator,
    /// Separator between the whole and the fractional digits.
    decimal_separator,
    /// An amount with a currency symbol: `{}` is the number, `¤` the symbol (`¤{}` → `€6,000`).
    money_symbol,
    // error banner, warnings
    retry,
    /// A part of the chat fetched on first use (a wasm chunk) could not be loaded.
    lazy_failed,
    warnings_title,
    warnings_one,
    warnings_other,
    // texts built outside the components (store, transport, widget), worded when shown
    /// Banner: the agent's `RUN_ERROR`; `{}` is its message (as sent).
    error_agent,
    /// Banner: the agent's `RUN_ERROR` with a code; `{}` message, `{}` code.
    error_agent_code,
    /// Banner: a protocol violation; `{}` is the (English, technical) diagnostic.
    error_protocol,
    /// Banner: the stream ended before the run finished.
    error_connection_lost,
    /// A run with neither an endpoint nor a local agent.
    error_no_agent,
    /// A run that failed before the page was loaded; `{}` is the saved reason.
    error_earlier,
    /// Banner: the request could not be built; `{}` is the (technical) reason.
    error_request,
    /// Banner: a non-2xx answer; `{}` status, `{}` the body the agent sent.
    error_http,
    /// Banner: not an SSE answer; `{}` is the content type (quoted).
    error_not_sse,
    /// Banner: the network failed; `{}` is the browser's message.
    error_network,
    /// Banner: the answer had no body to stream.
    error_no_body,
    /// The endpoint answered with a redirect, which the chat does not follow.
    error_redirected,
    /// Banner: the page's headers function failed or took too long; `{}` is why.
    error_headers,
    /// Banner: the endpoint is not http(s); `{}` is the endpoint.
    error_endpoint_scheme,
    /// Banner: the endpoint is outside the page's `allowed-endpoints`; `{}` is the endpoint.
    error_endpoint_not_allowed,
    /// A transport stopped by the person.
    error_stopped,
    /// Warning: no browser storage; `{}` is the browser's reason.
    notice_storage_unavailable,
    /// Warning: a saved conversation could not be read; `{}` storage key, `{}` reason.
    notice_record_unreadable,
    /// Warning: a saved conversation was skipped; `{}` is the (technical) reason.
    notice_record_skipped,
    /// Appended to `notice_record_skipped` when its data was moved; `{}` is the storage key.
    notice_record_kept,
    /// Warning: the saved list was unreadable and rebuilt; `{}` is the reason.
    notice_index_unreadable,
    /// Warning: the saved list could not be read; `{}` is the browser's reason.
    notice_index_read_failed,
    /// Warning: a conversation could not be saved; `{}` title, `{}` the browser's reason.
    notice_save_failed,
    /// Warning: the list of conversations could not be saved; `{}` is the reason.
    notice_index_save_failed,
    /// Warning: a saved conversation could not be deleted; `{}` is the reason.
    notice_delete_failed,
    /// Warning: a conversation is larger than the widget's storage budget; `{}` title, `{}`
    /// the budget (a size).
    notice_too_large_to_save,
    /// Warning: an old conversation was removed to stay within the budget; `{}` its title.
    notice_evicted,
    /// Warning: a widget option could not be used; `{}` says which and why (technical).
    notice_widget_option,
    /// Warning: more warnings than are kept; `{}` how many more (a count).
    notice_omitted,
    /// The group of an answer's actions (copy, rate).
    answer_actions,
    /// Title of the button that copies a whole answer (its markdown).
    copy_answer,
    /// An answer's action that reads it aloud (a toggle: pressed while it speaks).
    read_aloud,
    /// Accessible names of the thumbs.
    rate_up,
    rate_down,
    /// The optional comment after a thumb.
    feedback_comment_label,
    feedback_send,
    feedback_skip,
    /// Shown once feedback was passed on.
    feedback_thanks,
    /// The chat stopped after an internal error (the page keeps working).
    crashed_text,
    /// The button that starts the chat again.
    crashed_reload,
    /// The agent kept calling browser tools by itself: the next run waits for the person.
    held_run_text,
    /// The button that lets that run go.
    held_run_continue,
    /// Send's label while a run is live: the message waits in the queue.
    queue_button,
    /// The list of messages waiting for the agent.
    queue_label,
    /// Under it: when they go out.
    queue_hint,
    /// Under it when an answer (an interrupt, a tool call) must come first.
    queue_blocked,
    /// Under it when the last run stopped or failed: nothing goes out by itself.
    queue_held,
    /// The actions on one queued message.
    queue_send_now,
    queue_edit,
    queue_save,
    queue_cancel_edit,
    queue_remove,
    /// The toggles of a long code block.
    code_line_numbers,
    code_wrap,
    /// The toggle of a code block the page draws itself (a diagram, a chart): show the
    /// highlighted source instead of the drawing, and back.
    code_source,
    code_diagram,
    /// An agent-drawn (A2UI) component this chat does not render; `{}` its type.
    a2ui_unsupported,
    /// A catalogue component whose properties break the catalogue's rules; `{}` its type,
    /// `{}` the reason (technical).
    a2ui_invalid,
    /// The agent answered a function call of the interface with an error; `{}` its code,
    /// `{}` its message (the agent's words).
    a2ui_call_failed,
    /// The agent is still building its interface.
    a2ui_building,
    /// It could not; `{}` the agent's reason.
    a2ui_failed,
    /// An MCP App activity that cannot be shown; `{}` why (technical).
    mcp_app_unusable,
    /// An MCP App whose HTML must be fetched through the agent's MCP proxy.
    mcp_app_not_inline,
    /// The app's View is being fetched through the agent.
    mcp_app_loading,
    /// The app was stopped (no handshake, a flood, misbehaviour).
    mcp_app_stopped,
    /// A link the app asks to open; `{}` its host.
    mcp_app_link,
    /// The page's `mcp-apps-proxy` is refused, so no View is shown; `{}` why (technical).
    mcp_app_proxy_refused,
    /// A message the app suggests the person send (`ui/message`): the label above its text,
    /// and the buttons that send it or dismiss it.
    mcp_app_message,
    mcp_app_message_send,
    mcp_app_message_dismiss,
    /// The composer's attach button (accessible name) and the attachments list.
    attach_button,
    attach_list_label,
    /// Accessible name of an attachment's remove button; `{}` the file name.
    attach_remove,
    /// Shown while files are dragged over the composer.
    attach_drop_hint,
    /// An attachment is being uploaded by the page's hook.
    attach_uploading,
    /// Refusals: `{}` the file name (and sizes where named).
    attach_not_accepted,
    /// `{}` name, `{}` its size, `{}` the limit.
    attach_file_too_large,
    /// `{}` the total, `{}` the limit.
    attach_message_too_large,
    /// `{}` the most files.
    attach_too_many,
    attach_empty,
    attach_read_failed,
    /// A file the draft had when the page was left: `{}` its name, `{}` its size; the file
    /// itself is gone and must be attached again.
    attach_again,
    /// `{}` name, `{}` the hook's reason.
    attach_upload_failed,
    /// On a sent attachment whose bytes were not kept when the conversation was saved.
    attach_not_saved,
    // voice (dictation in the composer; reading an answer aloud)
    /// The composer's microphone button (accessible name; a toggle: pressed while recording).
    voice_button,
    /// Dictation: waiting for the browser's microphone (its permission prompt).
    voice_waiting,
    /// Dictation: recording (a clock follows it on screen).
    voice_recording,
    /// Dictation with the browser's speech recognition: listening.
    voice_listening,
    /// Dictation: the page turns the recording into text.
    voice_transcribing,
    /// The button that stops dictation and discards what was recorded.
    voice_cancel,
    /// Dictation failed: the person or the browser refused the microphone.
    voice_denied,
    /// Dictation failed: no microphone; `{}` the browser's reason (technical).
    voice_no_microphone,
    /// Dictation failed: the page offers dictation but gave no way to turn a recording into
    /// text.
    voice_no_hook,
    /// Dictation failed: the page's hook failed; `{}` its reason.
    voice_failed,
    /// Dictation failed: the page's hook gave no text within a minute.
    voice_timeout,
    /// Dictation gave no words.
    voice_empty,
    /// The dictated text was cut; `{}` the most characters kept (a count).
    voice_cut,
    // refusals of the store's actions (thread, branch and human-in-the-loop errors)
    /// A refusal: a run is in flight.
    err_running,
    /// A refusal (conversations): a run is in flight.
    err_running_stop,
    /// A refusal: the chat was closed.
    err_closed,
    /// `{}` is a conversation id.
    err_unknown_thread,
    /// Only user messages can be edited.
    err_not_editable,
    /// An edit left the message empty.
    err_empty_text,
    /// No answer to regenerate.
    err_nothing_to_regenerate,
    /// `{}` is a count.
    err_interrupts_open,
    /// `{}` is a count.
    err_tool_calls_waiting,
    /// `{}` is a message id.
    err_unknown_message,
    /// Nothing after the fork point.
    err_empty_tail,
    /// No branches at the start.
    err_no_fork_start,
    /// `{}` is a message id.
    err_no_fork_after,
    /// `{}` index, `{}` count.
    err_no_variant,
    /// `{}` is an interrupt id.
    err_interrupt_unknown,
    /// `{}` is an interrupt id.
    err_interrupt_expired,
    /// `{}` is an interrupt id.
    err_interrupt_missing,
    /// `{}` is an interrupt id.
    err_interrupt_duplicate,
    /// No open interrupt.
    err_nothing_open,
    /// `{}` is a tool call id.
    err_tool_not_pending,
    /// `{}` lists tool call ids.
    err_answer_tool_calls_first,
    // thread list
    threads_label,
    /// The compact layout's menu button (conversations, inspector, settings).
    menu_label,
    /// The compact layout's button that shows the side panels (trip, state).
    state_toggle,
    thread_new,
    thread_new_title,
    /// A conversation without a user message or a name.
    thread_untitled,
    /// Above the thread list when the site keeps conversations (`threads-url`) and this
    /// browser has some from before: how many (`{}`); they are not sent to the site unasked.
    threads_local_only,
    /// The button that sends them to the site's store.
    threads_upload,
    /// The button that leaves them in the browser (not asked again).
    threads_not_now,
    rename,
    delete,
    save,
    cancel,
    thread_name_label,
    thread_save_name,
    thread_confirm_delete_label,
    /// `{}` = the conversation's title.
    thread_confirm_delete,
    // settings
    demo_agent_label,
    settings_toggle_title,
    settings_label,
    settings_endpoint_label,
    settings_endpoint_hint,
    settings_headers_label,
    settings_protocol_label,
    settings_use_demo,
    settings_apply,
    /// `{}` = the JSON parser's message.
    headers_invalid_json,
    headers_not_object,
    /// `{}` = the header name.
    headers_bad_name,
    headers_value_not_string,
    headers_value_line_break,
    /// A header value the browser cannot send; `{}` is the name.
    headers_value_invalid,
    // messages, branches, reasoning
    versions_label,
    version_previous,
    version_next,
    edit,
    edit_title,
    edit_message_label,
    save_and_send,
    regenerate,
    regenerate_title,
    tool_result_label,
    media_image,
    media_audio,
    media_video,
    media_document,
    /// The alternative text of an image from the agent that names none.
    media_from_agent,
    /// A media part too large to show (after its size and type).
    media_too_large,
    /// A provider's file handle: the agent's provider keeps the file; nothing to open.
    media_provider_file,
    /// A media part that cannot be shown or opened (not base64, or a link of another kind).
    media_unavailable,
    /// A file from the agent to download (its accessible name); `{}` = the file's name.
    media_download,
    reasoning_thinking,
    /// `{}` = whole seconds.
    reasoning_thought_for,
    reasoning_thought,
    reasoning_encrypted,
    // subagents (a group of the transcript: who is speaking)
    /// The name of a subagent that was not announced (`SUBAGENT_STARTED` never came).
    subagent_unnamed,
    /// A subagent's group of messages; `{}` = the subagent's name.
    subagent_group,
    /// A message inside a subagent's group (its accessible name); `{}` = the subagent's name.
    subagent_message,
    /// A subagent at work.
    subagent_running,
    /// A subagent that finished.
    subagent_finished,
    /// A subagent paused, waiting on the person (a `suspended` outcome).
    subagent_suspended,
    /// A subagent that failed (or whose run ended under it).
    subagent_failed,
    // markdown
    copy_code_label,
    /// A markdown table's scroll region (it scrolls sideways when wider than the message).
    table_label,
    copy,
    copied,
    /// The toolbar under a finished table: its group's name; the buttons' descriptions, on
    /// hover (copy as Markdown, copy as CSV, download a CSV file), and their visible texts,
    /// which are their accessible names.
    table_tools,
    table_copy_markdown,
    table_copy_csv,
    table_download_csv,
    table_markdown,
    table_csv,
    table_download,
    task_done,
    task_not_done,
    image_alt,
    /// `{}` = the image's host.
    image_load_title,
    image_load,
    /// A formula whose TeX could not be shown as math (invalid, or over a budget): its source
    /// is shown with this as the marker's title and accessible text.
    math_invalid,
    // sources and footnotes (under an answer)
    /// The heading of an answer's numbered list of sources (web pages, documents).
    sources_title,
    /// A citation marker's accessible name (`[1]` in the answer); `{}` = the source's number.
    source_cite,
    /// The heading of an answer's footnotes (GFM `[^1]: …` definitions).
    notes_title,
    /// A footnote reference's accessible name; `{}` = the note's number.
    note_ref,
    // tool cards
    collapse,
    expand,
    tool_fallback_name,
    tool_pending,
    tool_preparing,
    tool_running,
    tool_done,
    tool_failed,
    tool_needs_input,
    tool_needs_approval,
    tool_waiting_args,
    tool_no_args,
    /// `{}` = a byte size.
    tool_args_unparsed,
    tool_no_result,
    tool_awaiting_input,
    tool_awaiting_approval,
    tool_empty_result,
    tool_result,
    tool_error,
    show_all,
    /// Opens a person's long message that shows collapsed.
    show_more,
    show_less,
    line_one,
    line_other,
    // frontend tools
    tell_the_agent,
    payment_requested,
    payment_unknown_amount,
    /// `{}` = the amount.
    payment_pay,
    payment_incomplete,
    payment_note,
    decline,
    // interrupts
    /// `{}` = answered, `{}` = total.
    interrupts_progress,
    send_answers,
    interrupt_approval,
    interrupt_question,
    interrupt_input,
    interrupt_tool_call,
    interrupt_expired_badge,
    /// `{}` = a countdown.
    interrupt_expires_in,
    interrupt_answered,
    interrupt_approved,
    interrupt_approved_edited,
    interrupt_rejected,
    interrupt_cancelled,
    interrupt_change,
    interrupt_expired,
    interrupt_cancel,
    interrupt_reason,
    interrupt_edit_args,
    interrupt_keep_args,
    interrupt_edited_args_label,
    approve,
    reject,
    submit,
    interrupt_write_first,
    interrupt_your_answer,
    interrupt_your_answer_placeholder,
    /// `{}` = the action number, `{}` = its name.
    interrupt_choose_decision,
    interrupt_submit_decisions,
    interrupt_action,
    interrupt_decision_label,
    interrupt_edited_args_json,
    interrupt_message_label,
    interrupt_message_placeholder,
    interrupt_args_not_object,
    /// `{}` = the JSON parser's message.
    interrupt_args_invalid_json,
    // state panel, trip panel
    state_label,
    state_patch_failed,
    dismiss,
    state_empty,
    state_less,
    /// `{}` = a character count.
    state_chars,
    /// `{}` = how many more.
    state_show_more,
    trip_travellers,
    trip_budget,
    trip_plan,
    /// `{}` = the total, `{}` = the share per person.
    trip_budget_each,
    trip_venues,
    trip_no_venues,
    /// `{}` = done, `{}` = all.
    trip_done_count,
    step_pending,
    step_active,
    step_done,
    step_failed,
    step_skipped,
    travellers_one,
    travellers_other,
    venues_none_matched,
    /// `{}` = the rating.
    venue_rated,
    /// `{}` = a capacity.
    venue_up_to,
    /// Without a kind from the agent.
    venue_kind_one,
    venue_kind_other,
    /// Appended: `{}` = area and city.
    venue_query_place,
    /// Appended: `{}` = the party size.
    venue_query_capacity,
    /// Appended: `{}` = the price limit.
    venue_query_price,
    /// `{}` = what is searched.
    venue_searching,
    venue_found,
    venue_found_none,
    venue_unnamed,
    trip_untitled_step,
    activity_fallback,
    // schema forms
    form_choose,
    form_answer,
    form_required,
    form_pick_one,
    /// `{}` = a minimum length.
    form_too_short,
    /// `{}` = a maximum length.
    form_too_long,
    form_not_a_number,
    form_not_whole,
    /// `{}` = a bound.
    form_at_least,
    form_at_most,
    form_more_than,
    form_less_than,
    /// `{}` = the JSON parser's message.
    form_invalid_json,
    form_json_object,
    form_json_array,
    form_json_string,
    form_json_number,
    form_json_integer,
    form_json_boolean,
    form_json_value,
    form_over_limit,
    // the event inspector (event type names, JSON and ids are never translated)
    inspector_toggle,
    inspector_title,
    inspector_close,
    inspector_export_jsonl,
    inspector_export_sse,
    inspector_open,
    inspector_timed,
    inspector_drop,
    /// The toolbar of step, play, scrubber, speed and Live.
    inspector_timeline_label,
    inspector_back,
    inspector_forward,
    inspector_play,
    inspector_pause,
    inspector_speed,
    inspector_scrubber,
    /// The scrubber's spoken value: `{}` = the position, `{}` = all events.
    inspector_position,
    /// Back to following new events.
    inspector_live,
    inspector_type_filter,
    inspector_all_types,
    inspector_search,
    /// The event list's name and the metrics column.
    inspector_events,
    inspector_empty,
    inspector_live_hint,
    /// `{}` = recorded events, `{}` = the limit in MB.
    inspector_log_full,
    /// `{}` = the index, `{}` = the event type, `{}` = milliseconds since the start.
    inspector_event_title,
    inspector_raw,
    inspector_chat,
    inspector_state,
    inspector_patch,
    inspector_no_state_change,
    inspector_snapshot,
    inspector_more_leaves,
    inspector_no_state,
    inspector_runs,
    inspector_run,
    inspector_ttft,
    inspector_cps,
    inspector_tools,
    inspector_usage,
    inspector_warnings,
    /// `{}` = the browser's reason.
    inspector_download_failed,
    /// `{}` = the browser's reason.
    inspector_read_failed,
    /// `{}` = the file name, `{}` = the parser's reason.
    inspector_not_a_trace,
    /// `{}` = the reason.
    inspector_replay_refused,
}
