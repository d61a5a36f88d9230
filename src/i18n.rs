//! The catalog of every string the chat UI shows (pure: no web-sys, so its completeness is
//! tested natively in `tests/i18n.rs`).
//!
//! One [`Strings`] value per language; a field per key. A language that forgets a key does
//! not compile (a struct literal must name every field), and the test checks that no text is
//! empty and that every translation keeps the English placeholders. Parameters are positional
//! `{}` placeholders filled by [`fill`]; where a placeholder sits between elements (a `<code>`
//! in the middle of a sentence) the view splits the template with [`split_placeholder`].
//! Plurals are separate keys (`_one` / `_other`).
//!
//! English is the reference and the fallback; German proves the mechanism. Agent output,
//! tool names and the demo agent's trigger phrases are never translated.

/// One supported UI language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Locale {
    #[default]
    En,
    #[cfg(feature = "lang-de")]
    De,
}

impl Locale {
    /// Every shipped language (the bundle's features say which).
    #[cfg(feature = "lang-de")]
    pub const ALL: &'static [Locale] = &[Locale::En, Locale::De];
    /// Every shipped language (the bundle's features say which).
    #[cfg(not(feature = "lang-de"))]
    pub const ALL: &'static [Locale] = &[Locale::En];

    /// The BCP 47 tag, for `lang` attributes.
    pub fn tag(self) -> &'static str {
        match self {
            Locale::En => "en",
            #[cfg(feature = "lang-de")]
            Locale::De => "de",
        }
    }

    /// The language of a BCP 47 tag by its primary subtag (`de-AT`, `DE`, `de_CH` → German);
    /// `None` when it is not shipped.
    pub fn from_tag(tag: &str) -> Option<Locale> {
        let primary = tag.trim().split(['-', '_']).next().unwrap_or_default();
        Locale::ALL
            .iter()
            .copied()
            .find(|l| l.tag().eq_ignore_ascii_case(primary))
    }

    /// The first shipped language of a preference list (`navigator.languages`), else English.
    pub fn negotiate<'a>(preferred: impl IntoIterator<Item = &'a str>) -> Locale {
        preferred
            .into_iter()
            .find_map(Locale::from_tag)
            .unwrap_or_default()
    }

    /// The catalog of this language.
    pub fn strings(self) -> &'static Strings {
        match self {
            Locale::En => &EN,
            #[cfg(feature = "lang-de")]
            Locale::De => &DE,
        }
    }
}

/// Replaces each `{}` of `template`, in order, with the next argument (a missing argument
/// leaves nothing; extra arguments are ignored).
pub fn fill(template: &str, args: &[&dyn std::fmt::Display]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut args = args.iter();
    let mut pieces = template.split("{}");
    if let Some(first) = pieces.next() {
        out.push_str(first);
    }
    for piece in pieces {
        if let Some(arg) = args.next() {
            out.push_str(&arg.to_string());
        }
        out.push_str(piece);
    }
    out
}

/// The text before and after the first `{}` (all of it before when there is none).
pub fn split_placeholder(template: &str) -> (&str, &str) {
    template.split_once("{}").unwrap_or((template, ""))
}

/// The number of `{}` placeholders in a template.
pub fn placeholder_count(template: &str) -> usize {
    template.matches("{}").count()
}

/// Declares [`Strings`] (a `&'static str` field per key) and its [`Strings::entries`].
macro_rules! catalog {
    ($($(#[doc = $doc:literal])* $key:ident,)*) => {
        /// Every UI string of one language.
        #[derive(Debug)]
        pub struct Strings {
            $($(#[doc = $doc])* pub $key: &'static str,)*
        }

        impl Strings {
            /// Every `(key, text)` pair, in declaration order.
            pub fn entries(&self) -> Vec<(&'static str, &'static str)> {
                vec![$((stringify!($key), self.$key)),*]
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
    /// `{}` name, `{}` the hook's reason.
    attach_upload_failed,
    /// On a sent attachment whose bytes were not kept when the conversation was saved.
    attach_not_saved,
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
    reasoning_thinking,
    /// `{}` = whole seconds.
    reasoning_thought_for,
    reasoning_thought,
    reasoning_encrypted,
    // markdown
    copy_code_label,
    /// A markdown table's scroll region (it scrolls sideways when wider than the message).
    table_label,
    copy,
    copied,
    task_done,
    task_not_done,
    image_alt,
    /// `{}` = the image's host.
    image_load_title,
    image_load,
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

/// English (the reference language and the fallback).
pub static EN: Strings = Strings {
    widget_open: "Open chat: {}",
    widget_close: "Close chat: {}",
    widget_default_title: "Chat",
    side_label: "Details and shared state",
    transcript_label: "Conversation",
    hero_title: "How can I help?",
    hero_demo: "You are talking to the built-in demo agent: it runs offline, in your browser, and streams real AG-UI events — reasoning, tools, shared state and all.",
    hero_connected: "Connected to {}. Send a message to start a run.",
    typing_label: "The agent is thinking",
    jump_latest: "↓ Latest",
    try_label: "Try:",
    message_label: "Message",
    composer_placeholder: "Message the agent…",
    composer_placeholder_locked: "Answer the agent's request above first…",
    send: "Send",
    stop: "Stop",
    composer_hint: "Enter to send · Shift+Enter for a new line",
    composer_locked: "The agent is waiting for your answer above. Answer it, or cancel to move on.",
    cancel_all: "Cancel all",
    status_ready: "Ready",
    status_thinking: "Thinking…",
    status_streaming: "Streaming…",
    status_working: "Working…",
    status_waiting: "Waiting for you",
    status_done: "Done",
    status_interrupted: "Needs your input",
    status_stopped: "Stopped",
    status_error: "Error",
    status_connection_lost: "Connection lost",
    usage_tokens: "{} tokens",
    usage_in: "{} in",
    usage_out: "{} out",
    usage_reasoning: "{} reasoning",
    thousands_separator: ",",
    decimal_separator: ".",
    money_symbol: "¤{}",
    retry: "Retry",
    lazy_failed: "This part of the chat could not be loaded.",
    warnings_title: "Protocol warnings",
    warnings_one: "warning",
    warnings_other: "warnings",
    error_agent: "The agent reported an error: {}",
    error_agent_code: "The agent reported an error: {} ({})",
    error_protocol: "The stream broke the AG-UI protocol: {}",
    error_connection_lost: "Connection lost: the stream ended before the run finished. What arrived is kept.",
    error_no_agent: "No agent is configured: this chat has no endpoint.",
    error_earlier: "The last run failed: {}",
    error_request: "could not build the request: {}",
    error_http: "HTTP {}: {}",
    error_not_sse: "the agent answered with content type {}, not text/event-stream",
    error_network: "network error: {}",
    error_no_body: "network error: response has no body",
    error_redirected: "The agent’s address redirected the chat elsewhere; redirects are not followed.",
    error_endpoint_scheme: "Not sent: {} is not an http(s) address.",
    error_endpoint_not_allowed: "Not sent: this page does not allow the endpoint {}.",
    error_stopped: "stopped",
    notice_storage_unavailable: "Conversations will not survive a reload: browser storage is unavailable ({}).",
    notice_record_unreadable: "A saved conversation could not be read ({}): {}",
    notice_record_skipped: "A saved conversation was skipped: it is unreadable ({}).",
    notice_record_kept: " Its data was kept under {}.",
    notice_index_unreadable: "The saved list of conversations was unreadable ({}); it was rebuilt.",
    notice_index_read_failed: "The saved list of conversations could not be read: {}",
    notice_save_failed: "Could not save “{}”: {}. Deleting old conversations makes room.",
    notice_index_save_failed: "Could not save the list of conversations: {}.",
    notice_delete_failed: "Could not delete a saved conversation: {}.",
    held_run_text: "The agent has used this page’s tools several times in a row on its own. Continue?",
    held_run_continue: "Continue",
    queue_button: "Queue",
    queue_label: "Waiting to send",
    queue_hint: "Sent one by one when the agent is done.",
    queue_blocked: "Sent once the agent has your answer above.",
    queue_held: "Not sent: the last run did not finish. Send now or remove.",
    queue_send_now: "Send now",
    queue_edit: "Edit",
    queue_save: "Save",
    queue_cancel_edit: "Cancel",
    queue_remove: "Remove",
    code_line_numbers: "Line numbers",
    code_wrap: "Wrap",
    a2ui_unsupported: "Unsupported component: {}",
    a2ui_invalid: "Invalid component {}: {}",
    a2ui_call_failed: "The agent could not do that ({}): {}",
    a2ui_building: "Building the interface…",
    a2ui_failed: "The interface could not be built: {}",
    mcp_app_unusable: "This app cannot be shown: {}",
    mcp_app_not_inline: "This app’s interface is fetched from the agent, which a replayed conversation does not do.",
    mcp_app_loading: "Loading the app…",
    mcp_app_stopped: "The app was stopped: it did not follow the MCP Apps protocol.",
    mcp_app_link: "The app suggests a link: open {}",
    mcp_app_proxy_refused: "This app is not shown: the page’s MCP Apps sandbox proxy is refused ({}).",
    mcp_app_message: "The app suggests sending this message:",
    mcp_app_message_send: "Send",
    mcp_app_message_dismiss: "Dismiss",
    attach_button: "Attach files",
    attach_list_label: "Attachments",
    attach_remove: "Remove {}",
    attach_drop_hint: "Drop files to attach them",
    attach_uploading: "Uploading…",
    attach_not_accepted: "{}: this type of file can’t be attached",
    attach_file_too_large: "{} is too large ({}; at most {})",
    attach_message_too_large: "The attachments are too large together ({}; at most {} per message)",
    attach_too_many: "At most {} files per message",
    attach_empty: "{} is empty",
    attach_read_failed: "{} could not be read",
    attach_upload_failed: "{} could not be uploaded: {}",
    attach_not_saved: "not kept in this browser",
    answer_actions: "Answer actions",
    copy_answer: "Copy the answer (markdown)",
    rate_up: "Good answer",
    rate_down: "Bad answer",
    feedback_comment_label: "Tell us more (optional)",
    feedback_send: "Send feedback",
    feedback_skip: "Skip",
    feedback_thanks: "Thanks for your feedback",
    crashed_text: "The chat stopped after an internal error. The page itself is fine.",
    crashed_reload: "Reload the chat",
    notice_omitted: "…and {} more warnings (not kept).",
    notice_too_large_to_save: "“{}” is larger than this chat may keep in the browser ({}): its latest part was not saved.",
    notice_evicted: "The oldest conversation, “{}”, was removed from this browser to make room.",
    notice_widget_option: "Widget option ignored: {}",
    err_running: "a run is in progress",
    err_running_stop: "a run is in progress: stop it first",
    err_closed: "the chat has been closed",
    err_unknown_thread: "there is no conversation '{}'",
    err_not_editable: "only your own messages can be edited",
    err_empty_text: "the message is empty",
    err_nothing_to_regenerate: "there is no answer to regenerate yet",
    err_interrupts_open: "{} open interrupt(s) must be answered first",
    err_tool_calls_waiting: "{} tool call(s) are still waiting for a result",
    err_unknown_message: "message '{}' is not in the conversation",
    err_empty_tail: "there is nothing after the fork point to keep",
    err_no_fork_start: "no branches after the start",
    err_no_fork_after: "no branches after message '{}'",
    err_no_variant: "there is no variant {} (of {})",
    err_interrupt_unknown: "interrupt '{}' is not open",
    err_interrupt_expired: "interrupt '{}' has expired: it can only be cancelled",
    err_interrupt_missing: "interrupt '{}' is not answered yet (answer it or cancel it)",
    err_interrupt_duplicate: "interrupt '{}' answered twice",
    err_nothing_open: "there is no open interrupt to resume",
    err_tool_not_pending: "tool call '{}' is not waiting for an answer",
    err_answer_tool_calls_first: "answer the pending tool call(s) first: {}",
    threads_label: "Conversations",
    menu_label: "Menu",
    state_toggle: "State",
    thread_new: "+ New",
    thread_new_title: "Start a new conversation",
    thread_untitled: "New conversation",
    rename: "Rename",
    delete: "Delete",
    save: "Save",
    cancel: "Cancel",
    thread_name_label: "Conversation name",
    thread_save_name: "Save name",
    thread_confirm_delete_label: "Confirm delete",
    thread_confirm_delete: "Delete “{}”?",
    demo_agent_label: "Demo agent (offline)",
    settings_toggle_title: "Choose the agent",
    settings_label: "Agent settings",
    settings_endpoint_label: "AG-UI endpoint URL",
    settings_endpoint_hint: "Relative URLs work. Leave empty for the offline demo agent.",
    settings_headers_label: "Headers (JSON object, optional)",
    settings_protocol_label: "Protocol",
    settings_use_demo: "Use the demo agent",
    settings_apply: "Apply",
    headers_invalid_json: "Headers are not valid JSON: {}",
    headers_not_object: r#"Headers must be a JSON object, like {"Authorization": "Bearer …"}"#,
    headers_bad_name: "“{}” is not a valid header name",
    headers_value_not_string: "The value of header “{}” must be a string",
    headers_value_line_break: "The value of header “{}” contains a line break",
    headers_value_invalid: "The value of header “{}” has characters a header cannot carry",
    versions_label: "Versions",
    version_previous: "Previous version",
    version_next: "Next version",
    edit: "Edit",
    edit_title: "Edit this message (starts a new branch)",
    edit_message_label: "Edit message",
    save_and_send: "Save & send",
    regenerate: "↻ Regenerate",
    regenerate_title: "Ask again (the current answer is kept as a version)",
    tool_result_label: "Tool result",
    media_image: "image",
    media_audio: "audio",
    media_video: "video",
    media_document: "document",
    reasoning_thinking: "Thinking…",
    reasoning_thought_for: "Thought for {} s",
    reasoning_thought: "Thought",
    reasoning_encrypted: "Reasoning (encrypted)",
    copy_code_label: "Copy code",
    table_label: "Table",
    copy: "Copy",
    copied: "Copied",
    task_done: "done",
    task_not_done: "not done",
    image_alt: "Image",
    image_load_title: "Load the image from {}",
    image_load: "Load image",
    collapse: "Collapse",
    expand: "Expand",
    tool_fallback_name: "tool",
    tool_pending: "Pending",
    tool_preparing: "Preparing",
    tool_running: "Running",
    tool_done: "Done",
    tool_failed: "Failed",
    tool_needs_input: "Needs input",
    tool_needs_approval: "Needs approval",
    tool_waiting_args: "Waiting for arguments…",
    tool_no_args: "No arguments",
    tool_args_unparsed: "{} of arguments that are not valid JSON",
    tool_no_result: "The run ended before this tool returned a result.",
    tool_awaiting_input: "Waiting for your input…",
    tool_awaiting_approval: "Waiting for your approval below…",
    tool_empty_result: "(empty result)",
    tool_result: "Result",
    tool_error: "Error",
    show_all: "Show all",
    show_less: "Show less",
    line_one: "line",
    line_other: "lines",
    tell_the_agent: "Tell the agent",
    payment_requested: "Payment requested",
    payment_unknown_amount: "an unknown amount",
    payment_pay: "Pay {}",
    payment_incomplete: "The agent's request is incomplete (amount or currency missing), so it can only be declined.",
    payment_note: "Nothing is charged unless you confirm.",
    decline: "Decline",
    interrupts_progress: "{} of {} answered",
    send_answers: "Send answers",
    interrupt_approval: "Approval needed",
    interrupt_question: "Question",
    interrupt_input: "Input needed",
    interrupt_tool_call: "Tool call",
    interrupt_expired_badge: "Expired",
    interrupt_expires_in: "Expires in {}",
    interrupt_answered: "Answered",
    interrupt_approved: "Approved",
    interrupt_approved_edited: "Approved with edited arguments",
    interrupt_rejected: "Rejected",
    interrupt_cancelled: "Cancelled",
    interrupt_change: "Change",
    interrupt_expired: "This request has expired: it can only be cancelled.",
    interrupt_cancel: "Cancel this request",
    interrupt_reason: "Reason (optional)",
    interrupt_edit_args: "Edit arguments",
    interrupt_keep_args: "Keep the original arguments",
    interrupt_edited_args_label: "Edited arguments (JSON, replaces the original)",
    approve: "Approve",
    reject: "Reject",
    submit: "Submit",
    interrupt_write_first: "Write an answer first",
    interrupt_your_answer: "Your answer",
    interrupt_your_answer_placeholder: "Your answer…",
    interrupt_choose_decision: "Choose a decision for action {} ({})",
    interrupt_submit_decisions: "Submit decisions",
    interrupt_action: "Action",
    interrupt_decision_label: "Decision",
    interrupt_edited_args_json: "Edited arguments (JSON)",
    interrupt_message_label: "Message to the agent (optional)",
    interrupt_message_placeholder: "Why? (optional)",
    interrupt_args_not_object: "The arguments must be a JSON object",
    interrupt_args_invalid_json: "The arguments are not valid JSON: {}",
    state_label: "Shared state",
    state_patch_failed: "A state update could not be applied; showing the last good state.",
    dismiss: "Dismiss",
    state_empty: "No shared state yet",
    state_less: "less",
    state_chars: "{} chars",
    state_show_more: "Show {} more",
    trip_travellers: "Travellers",
    trip_budget: "Budget",
    trip_plan: "Plan",
    trip_budget_each: "{} (about {} each)",
    trip_venues: "Venues",
    trip_no_venues: "No venues chosen yet",
    trip_done_count: "{} of {} done",
    step_pending: "to do",
    step_active: "in progress",
    step_done: "done",
    step_failed: "failed",
    step_skipped: "skipped",
    travellers_one: "{} traveller",
    travellers_other: "{} travellers",
    venues_none_matched: "No venues matched.",
    venue_rated: "Rated {} out of 5",
    venue_up_to: "up to {}",
    venue_kind_one: "venue",
    venue_kind_other: "venues",
    venue_query_place: " in {}",
    venue_query_capacity: " for {}",
    venue_query_price: ", up to {}",
    venue_searching: "Searching {}…",
    venue_found: "Found {}",
    venue_found_none: "Found no {}",
    venue_unnamed: "Unnamed venue",
    trip_untitled_step: "Untitled step",
    activity_fallback: "Activity",
    form_choose: "Choose…",
    form_answer: "Answer",
    form_required: "Required",
    form_pick_one: "Pick one of the options",
    form_too_short: "At least {} characters",
    form_too_long: "At most {} characters",
    form_not_a_number: "Must be a number",
    form_not_whole: "Must be a whole number",
    form_at_least: "Must be at least {}",
    form_at_most: "Must be at most {}",
    form_more_than: "Must be more than {}",
    form_less_than: "Must be less than {}",
    form_invalid_json: "Not valid JSON: {}",
    form_json_object: "Must be a JSON object",
    form_json_array: "Must be a JSON array",
    form_json_string: "Must be a JSON string",
    form_json_number: "Must be a JSON number",
    form_json_integer: "Must be a JSON integer",
    form_json_boolean: "Must be a JSON boolean",
    form_json_value: "Must be a JSON value",
    form_over_limit: "Too many fields or options for a form: enter the answer as JSON.",
    inspector_toggle: "Inspector",
    inspector_title: "Event inspector",
    inspector_close: "Close the inspector",
    inspector_export_jsonl: "Export trace (.jsonl)",
    inspector_export_sse: "Export raw (.sse)",
    inspector_open: "Open a trace",
    inspector_timed: "Replay with original timing",
    inspector_drop: "Drop a .jsonl or .sse trace here to replay it",
    inspector_timeline_label: "Time travel",
    inspector_back: "Step back",
    inspector_forward: "Step forward",
    inspector_play: "Play",
    inspector_pause: "Pause",
    inspector_speed: "Speed",
    inspector_scrubber: "Position in the event log",
    inspector_position: "Event {} of {}",
    inspector_live: "Live",
    inspector_type_filter: "Event type",
    inspector_all_types: "All types",
    inspector_search: "Search events",
    inspector_events: "Events",
    inspector_empty: "No events yet: send a message or open a trace.",
    inspector_live_hint: "Following new events. Select an event or move the scrubber to travel back in time.",
    inspector_log_full: "The inspector's log is full ({} events, limit {} MB): recording stopped. The conversation goes on; the recorded events stay exact.",
    inspector_event_title: "Event #{} · {} · +{} ms",
    inspector_raw: "Raw frame",
    inspector_chat: "Conversation as of this event",
    inspector_state: "State as of this event",
    inspector_patch: "Change applied by this event",
    inspector_no_state_change: "This event did not change the state.",
    inspector_snapshot: "STATE_SNAPSHOT: the whole state was replaced.",
    inspector_more_leaves: "… more values not shown",
    inspector_no_state: "(empty state)",
    inspector_runs: "Runs",
    inspector_run: "Run",
    inspector_ttft: "First token",
    inspector_cps: "Chars/s",
    inspector_tools: "Tools",
    inspector_usage: "Usage",
    inspector_warnings: "Warnings",
    inspector_download_failed: "The trace could not be downloaded: {}",
    inspector_read_failed: "The file could not be read: {}",
    inspector_not_a_trace: "This file is not a trace ({}): {}",
    inspector_replay_refused: "The trace cannot be replayed now: {}",
};

/// German.
#[cfg(feature = "lang-de")]
pub static DE: Strings = Strings {
    widget_open: "Chat öffnen: {}",
    widget_close: "Chat schließen: {}",
    widget_default_title: "Chat",
    side_label: "Details und gemeinsamer Zustand",
    transcript_label: "Unterhaltung",
    hero_title: "Wie kann ich helfen?",
    hero_demo: "Sie sprechen mit dem eingebauten Demo-Agenten: Er läuft offline in Ihrem Browser und sendet echte AG-UI-Ereignisse — Denkprozess, Werkzeuge, gemeinsamer Zustand und mehr.",
    hero_connected: "Verbunden mit {}. Senden Sie eine Nachricht, um einen Lauf zu starten.",
    typing_label: "Der Agent denkt nach",
    jump_latest: "↓ Neueste",
    try_label: "Probieren Sie:",
    message_label: "Nachricht",
    composer_placeholder: "Nachricht an den Agenten…",
    composer_placeholder_locked: "Beantworten Sie zuerst die Anfrage oben…",
    send: "Senden",
    stop: "Stopp",
    composer_hint: "Enter zum Senden · Umschalt+Enter für eine neue Zeile",
    composer_locked: "Der Agent wartet oben auf Ihre Antwort. Antworten Sie oder brechen Sie ab, um weiterzumachen.",
    cancel_all: "Alle abbrechen",
    status_ready: "Bereit",
    status_thinking: "Denkt nach…",
    status_streaming: "Schreibt…",
    status_working: "Arbeitet…",
    status_waiting: "Wartet auf Sie",
    status_done: "Fertig",
    status_interrupted: "Braucht Ihre Eingabe",
    status_stopped: "Gestoppt",
    status_error: "Fehler",
    status_connection_lost: "Verbindung verloren",
    usage_tokens: "{} Tokens",
    usage_in: "{} ein",
    usage_out: "{} aus",
    usage_reasoning: "{} Denken",
    thousands_separator: ".",
    decimal_separator: ",",
    money_symbol: "{} ¤",
    retry: "Erneut versuchen",
    lazy_failed: "Dieser Teil des Chats konnte nicht geladen werden.",
    warnings_title: "Protokollwarnungen",
    warnings_one: "Warnung",
    warnings_other: "Warnungen",
    error_agent: "Der Agent hat einen Fehler gemeldet: {}",
    error_agent_code: "Der Agent hat einen Fehler gemeldet: {} ({})",
    error_protocol: "Der Datenstrom verletzt das AG-UI-Protokoll: {}",
    error_connection_lost: "Verbindung verloren: Der Datenstrom endete, bevor der Lauf fertig war. Was angekommen ist, bleibt erhalten.",
    error_no_agent: "Kein Agent eingerichtet: Dieser Chat hat keinen Endpunkt.",
    error_earlier: "Der letzte Lauf ist fehlgeschlagen: {}",
    error_request: "Die Anfrage konnte nicht erstellt werden: {}",
    error_http: "HTTP {}: {}",
    error_not_sse: "Der Agent antwortete mit dem Inhaltstyp {} statt text/event-stream",
    error_network: "Netzwerkfehler: {}",
    error_no_body: "Netzwerkfehler: Die Antwort hat keinen Inhalt",
    error_redirected: "Die Adresse des Agenten hat den Chat woandershin umgeleitet; Umleitungen werden nicht verfolgt.",
    error_endpoint_scheme: "Nicht gesendet: {} ist keine http(s)-Adresse.",
    error_endpoint_not_allowed: "Nicht gesendet: Diese Seite erlaubt den Endpunkt {} nicht.",
    error_stopped: "angehalten",
    notice_storage_unavailable: "Unterhaltungen überstehen kein Neuladen: Der Browserspeicher ist nicht verfügbar ({}).",
    notice_record_unreadable: "Eine gespeicherte Unterhaltung konnte nicht gelesen werden ({}): {}",
    notice_record_skipped: "Eine gespeicherte Unterhaltung wurde übersprungen: Sie ist unlesbar ({}).",
    notice_record_kept: " Ihre Daten wurden unter {} aufbewahrt.",
    notice_index_unreadable: "Die gespeicherte Liste der Unterhaltungen war unlesbar ({}); sie wurde neu aufgebaut.",
    notice_index_read_failed: "Die gespeicherte Liste der Unterhaltungen konnte nicht gelesen werden: {}",
    notice_save_failed: "„{}“ konnte nicht gespeichert werden: {}. Das Löschen alter Unterhaltungen schafft Platz.",
    notice_index_save_failed: "Die Liste der Unterhaltungen konnte nicht gespeichert werden: {}.",
    notice_delete_failed: "Eine gespeicherte Unterhaltung konnte nicht gelöscht werden: {}.",
    held_run_text: "Der Agent hat die Werkzeuge dieser Seite mehrmals hintereinander selbstständig benutzt. Fortfahren?",
    held_run_continue: "Fortfahren",
    queue_button: "Einreihen",
    queue_label: "Wartet auf den Versand",
    queue_hint: "Wird nacheinander gesendet, sobald der Agent fertig ist.",
    queue_blocked: "Wird gesendet, sobald der Agent Ihre Antwort oben hat.",
    queue_held: "Nicht gesendet: Der letzte Lauf wurde nicht beendet. Jetzt senden oder entfernen.",
    queue_send_now: "Jetzt senden",
    queue_edit: "Bearbeiten",
    queue_save: "Speichern",
    queue_cancel_edit: "Abbrechen",
    queue_remove: "Entfernen",
    code_line_numbers: "Zeilennummern",
    code_wrap: "Umbrechen",
    a2ui_unsupported: "Nicht unterstützte Komponente: {}",
    a2ui_invalid: "Ungültige Komponente {}: {}",
    a2ui_call_failed: "Der Agent konnte das nicht ausführen ({}): {}",
    a2ui_building: "Die Oberfläche wird aufgebaut…",
    a2ui_failed: "Die Oberfläche konnte nicht aufgebaut werden: {}",
    mcp_app_unusable: "Diese App kann nicht angezeigt werden: {}",
    mcp_app_not_inline: "Die Oberfläche dieser App wird beim Agenten abgerufen; in einer wiedergegebenen Unterhaltung geschieht das nicht.",
    mcp_app_loading: "Die App wird geladen…",
    mcp_app_stopped: "Die App wurde angehalten: Sie hat das MCP-Apps-Protokoll nicht eingehalten.",
    mcp_app_link: "Die App schlägt einen Link vor: {} öffnen",
    mcp_app_proxy_refused: "Diese App wird nicht angezeigt: Der MCP-Apps-Sandbox-Proxy der Seite wird abgelehnt ({}).",
    mcp_app_message: "Die App schlägt vor, diese Nachricht zu senden:",
    mcp_app_message_send: "Senden",
    mcp_app_message_dismiss: "Verwerfen",
    attach_button: "Dateien anhängen",
    attach_list_label: "Anhänge",
    attach_remove: "{} entfernen",
    attach_drop_hint: "Dateien hier ablegen, um sie anzuhängen",
    attach_uploading: "Wird hochgeladen…",
    attach_not_accepted: "{}: Dieser Dateityp kann nicht angehängt werden",
    attach_file_too_large: "{} ist zu groß ({}; höchstens {})",
    attach_message_too_large: "Die Anhänge sind zusammen zu groß ({}; höchstens {} pro Nachricht)",
    attach_too_many: "Höchstens {} Dateien pro Nachricht",
    attach_empty: "{} ist leer",
    attach_read_failed: "{} konnte nicht gelesen werden",
    attach_upload_failed: "{} konnte nicht hochgeladen werden: {}",
    attach_not_saved: "nicht in diesem Browser gespeichert",
    answer_actions: "Aktionen zur Antwort",
    copy_answer: "Antwort kopieren (Markdown)",
    rate_up: "Gute Antwort",
    rate_down: "Schlechte Antwort",
    feedback_comment_label: "Mehr dazu (optional)",
    feedback_send: "Feedback senden",
    feedback_skip: "Überspringen",
    feedback_thanks: "Danke für Ihr Feedback",
    crashed_text: "Der Chat wurde nach einem internen Fehler angehalten. Die Seite selbst ist nicht betroffen.",
    crashed_reload: "Chat neu laden",
    notice_omitted: "…und {} weitere Warnungen (nicht aufbewahrt).",
    notice_too_large_to_save: "„{}“ ist größer, als dieser Chat im Browser behalten darf ({}): der neueste Teil wurde nicht gespeichert.",
    notice_evicted: "Die älteste Unterhaltung, „{}“, wurde aus diesem Browser entfernt, um Platz zu schaffen.",
    notice_widget_option: "Widget-Option ignoriert: {}",
    err_running: "ein Lauf ist im Gange",
    err_running_stop: "ein Lauf ist im Gange: Halten Sie ihn zuerst an",
    err_closed: "der Chat wurde geschlossen",
    err_unknown_thread: "es gibt keine Unterhaltung „{}“",
    err_not_editable: "nur Ihre eigenen Nachrichten können bearbeitet werden",
    err_empty_text: "die Nachricht ist leer",
    err_nothing_to_regenerate: "es gibt noch keine Antwort, die neu erzeugt werden könnte",
    err_interrupts_open: "zuerst müssen {} offene Rückfrage(n) beantwortet werden",
    err_tool_calls_waiting: "{} Werkzeugaufruf(e) warten noch auf ein Ergebnis",
    err_unknown_message: "die Nachricht „{}“ ist nicht in der Unterhaltung",
    err_empty_tail: "nach dem Verzweigungspunkt gibt es nichts zu behalten",
    err_no_fork_start: "nach dem Anfang gibt es keine Verzweigungen",
    err_no_fork_after: "nach der Nachricht „{}“ gibt es keine Verzweigungen",
    err_no_variant: "es gibt keine Variante {} (von {})",
    err_interrupt_unknown: "die Rückfrage „{}“ ist nicht offen",
    err_interrupt_expired: "die Rückfrage „{}“ ist abgelaufen: Sie kann nur noch abgebrochen werden",
    err_interrupt_missing: "die Rückfrage „{}“ ist noch nicht beantwortet (beantworten oder abbrechen)",
    err_interrupt_duplicate: "die Rückfrage „{}“ wurde zweimal beantwortet",
    err_nothing_open: "es gibt keine offene Rückfrage, mit der fortgefahren werden könnte",
    err_tool_not_pending: "der Werkzeugaufruf „{}“ wartet nicht auf eine Antwort",
    err_answer_tool_calls_first: "beantworten Sie zuerst die offenen Werkzeugaufrufe: {}",
    threads_label: "Unterhaltungen",
    menu_label: "Menü",
    state_toggle: "Zustand",
    thread_new: "+ Neu",
    thread_new_title: "Neue Unterhaltung beginnen",
    thread_untitled: "Neue Unterhaltung",
    rename: "Umbenennen",
    delete: "Löschen",
    save: "Speichern",
    cancel: "Abbrechen",
    thread_name_label: "Name der Unterhaltung",
    thread_save_name: "Namen speichern",
    thread_confirm_delete_label: "Löschen bestätigen",
    thread_confirm_delete: "„{}“ löschen?",
    demo_agent_label: "Demo-Agent (offline)",
    settings_toggle_title: "Agenten auswählen",
    settings_label: "Agent-Einstellungen",
    settings_endpoint_label: "AG-UI-Endpunkt-URL",
    settings_endpoint_hint: "Relative URLs funktionieren. Leer lassen für den Offline-Demo-Agenten.",
    settings_headers_label: "Header (JSON-Objekt, optional)",
    settings_protocol_label: "Protokoll",
    settings_use_demo: "Demo-Agenten verwenden",
    settings_apply: "Übernehmen",
    headers_invalid_json: "Die Header sind kein gültiges JSON: {}",
    headers_not_object: r#"Die Header müssen ein JSON-Objekt sein, etwa {"Authorization": "Bearer …"}"#,
    headers_bad_name: "„{}“ ist kein gültiger Header-Name",
    headers_value_not_string: "Der Wert des Headers „{}“ muss ein String sein",
    headers_value_line_break: "Der Wert des Headers „{}“ enthält einen Zeilenumbruch",
    headers_value_invalid: "Der Wert des Headers „{}“ enthält Zeichen, die ein Header nicht tragen kann",
    versions_label: "Versionen",
    version_previous: "Vorherige Version",
    version_next: "Nächste Version",
    edit: "Bearbeiten",
    edit_title: "Diese Nachricht bearbeiten (beginnt einen neuen Zweig)",
    edit_message_label: "Nachricht bearbeiten",
    save_and_send: "Speichern & senden",
    regenerate: "↻ Neu erzeugen",
    regenerate_title: "Erneut fragen (die aktuelle Antwort bleibt als Version erhalten)",
    tool_result_label: "Werkzeugergebnis",
    media_image: "Bild",
    media_audio: "Audio",
    media_video: "Video",
    media_document: "Dokument",
    reasoning_thinking: "Denkt nach…",
    reasoning_thought_for: "{} s nachgedacht",
    reasoning_thought: "Nachgedacht",
    reasoning_encrypted: "Denkprozess (verschlüsselt)",
    copy_code_label: "Code kopieren",
    table_label: "Tabelle",
    copy: "Kopieren",
    copied: "Kopiert",
    task_done: "erledigt",
    task_not_done: "offen",
    image_alt: "Bild",
    image_load_title: "Das Bild von {} laden",
    image_load: "Bild laden",
    collapse: "Einklappen",
    expand: "Ausklappen",
    tool_fallback_name: "Werkzeug",
    tool_pending: "Ausstehend",
    tool_preparing: "Wird vorbereitet",
    tool_running: "Läuft",
    tool_done: "Fertig",
    tool_failed: "Fehlgeschlagen",
    tool_needs_input: "Braucht Eingabe",
    tool_needs_approval: "Braucht Freigabe",
    tool_waiting_args: "Warte auf Argumente…",
    tool_no_args: "Keine Argumente",
    tool_args_unparsed: "{} Argumente, die kein gültiges JSON sind",
    tool_no_result: "Der Lauf endete, bevor dieses Werkzeug ein Ergebnis lieferte.",
    tool_awaiting_input: "Warte auf Ihre Eingabe…",
    tool_awaiting_approval: "Warte unten auf Ihre Freigabe…",
    tool_empty_result: "(leeres Ergebnis)",
    tool_result: "Ergebnis",
    tool_error: "Fehler",
    show_all: "Alles zeigen",
    show_less: "Weniger zeigen",
    line_one: "Zeile",
    line_other: "Zeilen",
    tell_the_agent: "Dem Agenten melden",
    payment_requested: "Zahlung angefordert",
    payment_unknown_amount: "ein unbekannter Betrag",
    payment_pay: "{} bezahlen",
    payment_incomplete: "Die Anfrage des Agenten ist unvollständig (Betrag oder Währung fehlt) und kann nur abgelehnt werden.",
    payment_note: "Es wird nichts belastet, solange Sie nicht bestätigen.",
    decline: "Ablehnen",
    interrupts_progress: "{} von {} beantwortet",
    send_answers: "Antworten senden",
    interrupt_approval: "Freigabe nötig",
    interrupt_question: "Frage",
    interrupt_input: "Eingabe nötig",
    interrupt_tool_call: "Werkzeugaufruf",
    interrupt_expired_badge: "Abgelaufen",
    interrupt_expires_in: "Läuft ab in {}",
    interrupt_answered: "Beantwortet",
    interrupt_approved: "Freigegeben",
    interrupt_approved_edited: "Mit bearbeiteten Argumenten freigegeben",
    interrupt_rejected: "Abgelehnt",
    interrupt_cancelled: "Abgebrochen",
    interrupt_change: "Ändern",
    interrupt_expired: "Diese Anfrage ist abgelaufen: Sie kann nur noch abgebrochen werden.",
    interrupt_cancel: "Diese Anfrage abbrechen",
    interrupt_reason: "Begründung (optional)",
    interrupt_edit_args: "Argumente bearbeiten",
    interrupt_keep_args: "Ursprüngliche Argumente behalten",
    interrupt_edited_args_label: "Bearbeitete Argumente (JSON, ersetzt das Original)",
    approve: "Freigeben",
    reject: "Ablehnen",
    submit: "Absenden",
    interrupt_write_first: "Schreiben Sie zuerst eine Antwort",
    interrupt_your_answer: "Ihre Antwort",
    interrupt_your_answer_placeholder: "Ihre Antwort…",
    interrupt_choose_decision: "Wählen Sie eine Entscheidung für Aktion {} ({})",
    interrupt_submit_decisions: "Entscheidungen absenden",
    interrupt_action: "Aktion",
    interrupt_decision_label: "Entscheidung",
    interrupt_edited_args_json: "Bearbeitete Argumente (JSON)",
    interrupt_message_label: "Nachricht an den Agenten (optional)",
    interrupt_message_placeholder: "Warum? (optional)",
    interrupt_args_not_object: "Die Argumente müssen ein JSON-Objekt sein",
    interrupt_args_invalid_json: "Die Argumente sind kein gültiges JSON: {}",
    state_label: "Gemeinsamer Zustand",
    state_patch_failed: "Eine Zustandsänderung konnte nicht angewendet werden; angezeigt wird der letzte gültige Zustand.",
    dismiss: "Schließen",
    state_empty: "Noch kein gemeinsamer Zustand",
    state_less: "weniger",
    state_chars: "{} Zeichen",
    state_show_more: "{} weitere zeigen",
    trip_travellers: "Reisende",
    trip_budget: "Budget",
    trip_plan: "Plan",
    trip_budget_each: "{} (etwa {} pro Person)",
    trip_venues: "Orte",
    trip_no_venues: "Noch keine Orte ausgewählt",
    trip_done_count: "{} von {} erledigt",
    step_pending: "offen",
    step_active: "in Arbeit",
    step_done: "erledigt",
    step_failed: "fehlgeschlagen",
    step_skipped: "übersprungen",
    travellers_one: "{} Person",
    travellers_other: "{} Personen",
    venues_none_matched: "Keine passenden Orte gefunden.",
    venue_rated: "Bewertet mit {} von 5",
    venue_up_to: "bis zu {}",
    venue_kind_one: "Ort",
    venue_kind_other: "Orte",
    venue_query_place: " in {}",
    venue_query_capacity: " für {}",
    venue_query_price: ", bis {}",
    venue_searching: "Suche {}…",
    venue_found: "Gefunden: {}",
    venue_found_none: "Keine {} gefunden",
    venue_unnamed: "Ort ohne Namen",
    trip_untitled_step: "Schritt ohne Titel",
    activity_fallback: "Aktivität",
    form_choose: "Auswählen…",
    form_answer: "Antwort",
    form_required: "Pflichtfeld",
    form_pick_one: "Wählen Sie eine der Optionen",
    form_too_short: "Mindestens {} Zeichen",
    form_too_long: "Höchstens {} Zeichen",
    form_not_a_number: "Muss eine Zahl sein",
    form_not_whole: "Muss eine ganze Zahl sein",
    form_at_least: "Muss mindestens {} sein",
    form_at_most: "Darf höchstens {} sein",
    form_more_than: "Muss größer als {} sein",
    form_less_than: "Muss kleiner als {} sein",
    form_invalid_json: "Kein gültiges JSON: {}",
    form_json_object: "Muss ein JSON-Objekt sein",
    form_json_array: "Muss ein JSON-Array sein",
    form_json_string: "Muss ein JSON-String sein",
    form_json_number: "Muss eine JSON-Zahl sein",
    form_json_integer: "Muss eine ganze JSON-Zahl sein",
    form_json_boolean: "Muss ein JSON-Wahrheitswert sein",
    form_json_value: "Muss ein JSON-Wert sein",
    form_over_limit: "Zu viele Felder oder Optionen für ein Formular: Antwort als JSON eingeben.",
    inspector_toggle: "Inspektor",
    inspector_title: "Ereignis-Inspektor",
    inspector_close: "Inspektor schließen",
    inspector_export_jsonl: "Aufzeichnung exportieren (.jsonl)",
    inspector_export_sse: "Rohdaten exportieren (.sse)",
    inspector_open: "Aufzeichnung öffnen",
    inspector_timed: "Im Originaltempo wiedergeben",
    inspector_drop: "Ziehen Sie eine .jsonl- oder .sse-Aufzeichnung hierher, um sie wiederzugeben",
    inspector_timeline_label: "Zeitreise",
    inspector_back: "Einen Schritt zurück",
    inspector_forward: "Einen Schritt vor",
    inspector_play: "Abspielen",
    inspector_pause: "Anhalten",
    inspector_speed: "Tempo",
    inspector_scrubber: "Position im Ereignisprotokoll",
    inspector_position: "Ereignis {} von {}",
    inspector_live: "Live",
    inspector_type_filter: "Ereignistyp",
    inspector_all_types: "Alle Typen",
    inspector_search: "Ereignisse durchsuchen",
    inspector_events: "Ereignisse",
    inspector_empty: "Noch keine Ereignisse: Senden Sie eine Nachricht oder öffnen Sie eine Aufzeichnung.",
    inspector_live_hint: "Neue Ereignisse werden verfolgt. Wählen Sie ein Ereignis oder bewegen Sie den Regler, um in der Zeit zurückzugehen.",
    inspector_log_full: "Das Protokoll des Inspektors ist voll ({} Ereignisse, Grenze {} MB): Die Aufzeichnung wurde beendet. Die Unterhaltung geht weiter; die aufgezeichneten Ereignisse bleiben exakt.",
    inspector_event_title: "Ereignis #{} · {} · +{} ms",
    inspector_raw: "Rohdaten",
    inspector_chat: "Unterhaltung bis zu diesem Ereignis",
    inspector_state: "Zustand nach diesem Ereignis",
    inspector_patch: "Änderung durch dieses Ereignis",
    inspector_no_state_change: "Dieses Ereignis hat den Zustand nicht geändert.",
    inspector_snapshot: "STATE_SNAPSHOT: Der gesamte Zustand wurde ersetzt.",
    inspector_more_leaves: "… weitere Werte nicht angezeigt",
    inspector_no_state: "(leerer Zustand)",
    inspector_runs: "Läufe",
    inspector_run: "Lauf",
    inspector_ttft: "Erstes Token",
    inspector_cps: "Zeichen/s",
    inspector_tools: "Werkzeuge",
    inspector_usage: "Verbrauch",
    inspector_warnings: "Warnungen",
    inspector_download_failed: "Die Aufzeichnung konnte nicht heruntergeladen werden: {}",
    inspector_read_failed: "Die Datei konnte nicht gelesen werden: {}",
    inspector_not_a_trace: "Diese Datei ist keine Aufzeichnung ({}): {}",
    inspector_replay_refused: "Die Aufzeichnung kann gerade nicht wiedergegeben werden: {}",
};
