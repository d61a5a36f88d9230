// The types of the npm package `agui-leptos` (its entries `agui-leptos` and `agui-leptos/full`).
// The options and the events are generated from the option table (src/embed/table.rs) by
// tests/project/manifest.rs; the rest is written here.

/**
 * A language the chat speaks (`zh` is simplified Chinese; `ar` is written right to left). A
 * regional tag picks its language (`fr-CA` is `fr`); any other tag falls back to the browser's.
 */
export type AguiLang = 'en' | 'de' | 'fr' | 'es' | 'pt' | 'ja' | 'zh' | 'ar' | (string & {});

// @strings-begin from src/i18n/strings.rs (AGUI_BLESS=1 cargo test --test project manifest)
/**
 * Every UI string of the chat, by key: the `strings` option gives the page's own text for any
 * of them (`Partial<AguiStrings>`). A text keeps the English text's `{}` placeholders (filled in
 * order); it is shown as text, never as HTML.
 */
export interface AguiStrings {
  /**
   * The launcher's name when the panel is closed; `{}` is the widget's title.
   * English: “Open chat: {}”.
   */
  widget_open: string;
  /**
   * The launcher's name when the panel is open and the close button's; `{}` is the title.
   * English: “Close chat: {}”.
   */
  widget_close: string;
  /**
   * The widget's title when the page gives none.
   * English: “Chat”.
   */
  widget_default_title: string;
  /**
   * `aria-label` of the side column.
   * English: “Details and shared state”.
   */
  side_label: string;
  /**
   * `aria-label` of the transcript log.
   * English: “Conversation”.
   */
  transcript_label: string;
  /**
   * The empty state's title.
   * English: “How can I help?”.
   */
  hero_title: string;
  /**
   * The demo plug-in's welcome text (the empty state).
   * English: “You are talking to the built-in demo agent: it runs offline, in your browser, and
   * streams real AG-UI events — reasoning, tools, shared state and all.”.
   */
  hero_demo: string;
  /**
   * The empty state on a remote agent, where the agent picker is shown; `{}` is the endpoint (shown
   * as code).
   * English: “Connected to {}. Send a message to start a run.”.
   */
  hero_connected: string;
  /**
   * The typing indicator's accessible name.
   * English: “The agent is thinking”.
   */
  typing_label: string;
  /**
   * The "jump to the newest message" button.
   * English: “↓ Latest”.
   */
  jump_latest: string;
  /**
   * Before the suggestion chips.
   * English: “Try:”.
   */
  try_label: string;
  /**
   * The composer textarea's label.
   * English: “Message”.
   */
  message_label: string;
  /** English: “Message the agent…”. */
  composer_placeholder: string;
  /**
   * Placeholder while interrupts lock the composer.
   * English: “Answer the agent's request above first…”.
   */
  composer_placeholder_locked: string;
  /** English: “Send”. */
  send: string;
  /** English: “Stop”. */
  stop: string;
  /** English: “Enter to send · Shift+Enter for a new line”. */
  composer_hint: string;
  /**
   * The name of the list of the page's commands (typing `/` in the composer).
   * English: “Commands”.
   */
  commands_label: string;
  /**
   * Announced when the command list opens or changes; `{}` is how many match.
   * English: “Commands matching: {} (↑ ↓ to choose, Enter to pick, Escape to close)”.
   */
  commands_matching: string;
  /**
   * English: “The agent is waiting for your answer above. Answer it, or cancel to move on.”.
   */
  composer_locked: string;
  /** English: “Cancel all”. */
  cancel_all: string;
  /** English: “Ready”. */
  status_ready: string;
  /** English: “Thinking…”. */
  status_thinking: string;
  /** English: “Streaming…”. */
  status_streaming: string;
  /** English: “Working…”. */
  status_working: string;
  /** English: “Waiting for you”. */
  status_waiting: string;
  /** English: “Done”. */
  status_done: string;
  /** English: “Needs your input”. */
  status_interrupted: string;
  /** English: “Stopped”. */
  status_stopped: string;
  /** English: “Error”. */
  status_error: string;
  /** English: “Connection lost”. */
  status_connection_lost: string;
  /**
   * `{}` = a token count.
   * English: “{} tokens”.
   */
  usage_tokens: string;
  /** English: “{} in”. */
  usage_in: string;
  /** English: “{} out”. */
  usage_out: string;
  /** English: “{} reasoning”. */
  usage_reasoning: string;
  /**
   * Digit group separator of numbers.
   * English: “,”.
   */
  thousands_separator: string;
  /**
   * Separator between the whole and the fractional digits.
   * English: “.”.
   */
  decimal_separator: string;
  /**
   * An amount with a currency symbol: `{}` is the number, `¤` the symbol (`¤{}` → `€6,000`).
   * English: “¤{}”.
   */
  money_symbol: string;
  /** English: “Retry”. */
  retry: string;
  /**
   * A part of the chat fetched on first use (a wasm chunk) could not be loaded.
   * English: “This part of the chat could not be loaded.”.
   */
  lazy_failed: string;
  /** English: “Protocol warnings”. */
  warnings_title: string;
  /** English: “warning”. */
  warnings_one: string;
  /** English: “warnings”. */
  warnings_other: string;
  /**
   * Banner: the agent's `RUN_ERROR`; `{}` is its message (as sent).
   * English: “The agent reported an error: {}”.
   */
  error_agent: string;
  /**
   * Banner: the agent's `RUN_ERROR` with a code; `{}` message, `{}` code.
   * English: “The agent reported an error: {} ({})”.
   */
  error_agent_code: string;
  /**
   * Banner: a protocol violation; `{}` is the (English, technical) diagnostic.
   * English: “The stream broke the AG-UI protocol: {}”.
   */
  error_protocol: string;
  /**
   * Banner: the stream ended before the run finished.
   * English: “Connection lost: the stream ended before the run finished. What arrived is
   * kept.”.
   */
  error_connection_lost: string;
  /**
   * A run with neither an endpoint nor a local agent.
   * English: “No agent is configured: this chat has no endpoint.”.
   */
  error_no_agent: string;
  /**
   * A run that failed before the page was loaded; `{}` is the saved reason.
   * English: “The last run failed: {}”.
   */
  error_earlier: string;
  /**
   * Banner: the request could not be built; `{}` is the (technical) reason.
   * English: “could not build the request: {}”.
   */
  error_request: string;
  /**
   * Banner: a non-2xx answer; `{}` status, `{}` the body the agent sent.
   * English: “HTTP {}: {}”.
   */
  error_http: string;
  /**
   * Banner: not an SSE answer; `{}` is the content type (quoted).
   * English: “the agent answered with content type {}, not text/event-stream”.
   */
  error_not_sse: string;
  /**
   * Banner: the network failed; `{}` is the browser's message.
   * English: “network error: {}”.
   */
  error_network: string;
  /**
   * Banner: the answer had no body to stream.
   * English: “network error: response has no body”.
   */
  error_no_body: string;
  /**
   * The endpoint answered with a redirect, which the chat does not follow.
   * English: “The agent’s address redirected the chat elsewhere; redirects are not
   * followed.”.
   */
  error_redirected: string;
  /**
   * Banner: the page's headers function failed or took too long; `{}` is why.
   * English: “The page could not give this request its headers (sign-in?): {}”.
   */
  error_headers: string;
  /**
   * Banner: the endpoint is not http(s); `{}` is the endpoint.
   * English: “Not sent: {} is not an http(s) address.”.
   */
  error_endpoint_scheme: string;
  /**
   * Banner: the endpoint is outside the page's `allowed-endpoints`; `{}` is the endpoint.
   * English: “Not sent: this page does not allow the endpoint {}.”.
   */
  error_endpoint_not_allowed: string;
  /**
   * A transport stopped by the person.
   * English: “stopped”.
   */
  error_stopped: string;
  /**
   * Warning: no browser storage; `{}` is the browser's reason.
   * English: “Conversations will not survive a reload: browser storage is unavailable ({}).”.
   */
  notice_storage_unavailable: string;
  /**
   * Warning: a saved conversation could not be read; `{}` storage key, `{}` reason.
   * English: “A saved conversation could not be read ({}): {}”.
   */
  notice_record_unreadable: string;
  /**
   * Warning: a saved conversation was skipped; `{}` is the (technical) reason.
   * English: “A saved conversation was skipped: it is unreadable ({}).”.
   */
  notice_record_skipped: string;
  /**
   * Appended to `notice_record_skipped` when its data was moved; `{}` is the storage key.
   * English: “ Its data was kept under {}.”.
   */
  notice_record_kept: string;
  /**
   * Warning: the saved list was unreadable and rebuilt; `{}` is the reason.
   * English: “The saved list of conversations was unreadable ({}); it was rebuilt.”.
   */
  notice_index_unreadable: string;
  /**
   * Warning: the saved list could not be read; `{}` is the browser's reason.
   * English: “The saved list of conversations could not be read: {}”.
   */
  notice_index_read_failed: string;
  /**
   * Warning: a conversation could not be saved; `{}` title, `{}` the browser's reason.
   * English: “Could not save “{}”: {}. Deleting old conversations makes room.”.
   */
  notice_save_failed: string;
  /**
   * Warning: the list of conversations could not be saved; `{}` is the reason.
   * English: “Could not save the list of conversations: {}.”.
   */
  notice_index_save_failed: string;
  /**
   * Warning: a saved conversation could not be deleted; `{}` is the reason.
   * English: “Could not delete a saved conversation: {}.”.
   */
  notice_delete_failed: string;
  /**
   * Warning: a conversation is larger than the widget's storage budget; `{}` title, `{}` the budget
   * (a size).
   * English: ““{}” is larger than this chat may keep in the browser ({}): its latest part was
   * not saved.”.
   */
  notice_too_large_to_save: string;
  /**
   * Warning: an old conversation was removed to stay within the budget; `{}` its title.
   * English: “The oldest conversation, “{}”, was removed from this browser to make room.”.
   */
  notice_evicted: string;
  /**
   * Warning: a widget option could not be used; `{}` says which and why (technical).
   * English: “Widget option ignored: {}”.
   */
  notice_widget_option: string;
  /**
   * Warning: more warnings than are kept; `{}` how many more (a count).
   * English: “…and {} more warnings (not kept).”.
   */
  notice_omitted: string;
  /**
   * The group of an answer's actions (copy, rate).
   * English: “Answer actions”.
   */
  answer_actions: string;
  /**
   * Title of the button that copies a whole answer (its markdown).
   * English: “Copy the answer (markdown)”.
   */
  copy_answer: string;
  /**
   * An answer's action that reads it aloud (a toggle: pressed while it speaks).
   * English: “Read aloud”.
   */
  read_aloud: string;
  /**
   * Accessible names of the thumbs.
   * English: “Good answer”.
   */
  rate_up: string;
  /** English: “Bad answer”. */
  rate_down: string;
  /**
   * The optional comment after a thumb.
   * English: “Tell us more (optional)”.
   */
  feedback_comment_label: string;
  /** English: “Send feedback”. */
  feedback_send: string;
  /** English: “Skip”. */
  feedback_skip: string;
  /**
   * Shown once feedback was passed on.
   * English: “Thanks for your feedback”.
   */
  feedback_thanks: string;
  /**
   * The chat stopped after an internal error (the page keeps working).
   * English: “The chat stopped after an internal error. The page itself is fine.”.
   */
  crashed_text: string;
  /**
   * The button that starts the chat again.
   * English: “Reload the chat”.
   */
  crashed_reload: string;
  /**
   * The agent kept calling browser tools by itself: the next run waits for the person.
   * English: “The agent has used this page’s tools several times in a row on its own.
   * Continue?”.
   */
  held_run_text: string;
  /**
   * The button that lets that run go.
   * English: “Continue”.
   */
  held_run_continue: string;
  /**
   * Send's label while a run is live: the message waits in the queue.
   * English: “Queue”.
   */
  queue_button: string;
  /**
   * The list of messages waiting for the agent.
   * English: “Waiting to send”.
   */
  queue_label: string;
  /**
   * Under it: when they go out.
   * English: “Sent one by one when the agent is done.”.
   */
  queue_hint: string;
  /**
   * Under it when an answer (an interrupt, a tool call) must come first.
   * English: “Sent once the agent has your answer above.”.
   */
  queue_blocked: string;
  /**
   * Under it when the last run stopped or failed: nothing goes out by itself.
   * English: “Not sent: the last run did not finish. Send now or remove.”.
   */
  queue_held: string;
  /**
   * The actions on one queued message.
   * English: “Send now”.
   */
  queue_send_now: string;
  /** English: “Edit”. */
  queue_edit: string;
  /** English: “Save”. */
  queue_save: string;
  /** English: “Cancel”. */
  queue_cancel_edit: string;
  /** English: “Remove”. */
  queue_remove: string;
  /**
   * The toggles of a long code block.
   * English: “Line numbers”.
   */
  code_line_numbers: string;
  /** English: “Wrap”. */
  code_wrap: string;
  /**
   * The toggle of a code block the page draws itself (a diagram, a chart): show the highlighted
   * source instead of the drawing, and back.
   * English: “Source”.
   */
  code_source: string;
  /** English: “Diagram”. */
  code_diagram: string;
  /**
   * An agent-drawn (A2UI) component this chat does not render; `{}` its type.
   * English: “Unsupported component: {}”.
   */
  a2ui_unsupported: string;
  /**
   * A catalogue component whose properties break the catalogue's rules; `{}` its type, `{}` the
   * reason (technical).
   * English: “Invalid component {}: {}”.
   */
  a2ui_invalid: string;
  /**
   * The agent answered a function call of the interface with an error; `{}` its code, `{}` its
   * message (the agent's words).
   * English: “The agent could not do that ({}): {}”.
   */
  a2ui_call_failed: string;
  /**
   * The agent is still building its interface.
   * English: “Building the interface…”.
   */
  a2ui_building: string;
  /**
   * It could not; `{}` the agent's reason.
   * English: “The interface could not be built: {}”.
   */
  a2ui_failed: string;
  /**
   * An MCP App activity that cannot be shown; `{}` why (technical).
   * English: “This app cannot be shown: {}”.
   */
  mcp_app_unusable: string;
  /**
   * An MCP App whose HTML must be fetched through the agent's MCP proxy.
   * English: “This app’s interface is fetched from the agent, which a replayed conversation
   * does not do.”.
   */
  mcp_app_not_inline: string;
  /**
   * The app's View is being fetched through the agent.
   * English: “Loading the app…”.
   */
  mcp_app_loading: string;
  /**
   * The app was stopped (no handshake, a flood, misbehaviour).
   * English: “The app was stopped: it did not follow the MCP Apps protocol.”.
   */
  mcp_app_stopped: string;
  /**
   * A link the app asks to open; `{}` its host.
   * English: “The app suggests a link: open {}”.
   */
  mcp_app_link: string;
  /**
   * The page's `mcp-apps-proxy` is refused, so no View is shown; `{}` why (technical).
   * English: “This app is not shown: the page’s MCP Apps sandbox proxy is refused ({}).”.
   */
  mcp_app_proxy_refused: string;
  /**
   * A message the app suggests the person send (`ui/message`): the label above its text, and the
   * buttons that send it or dismiss it.
   * English: “The app suggests sending this message:”.
   */
  mcp_app_message: string;
  /** English: “Send”. */
  mcp_app_message_send: string;
  /** English: “Dismiss”. */
  mcp_app_message_dismiss: string;
  /**
   * The composer's attach button (accessible name) and the attachments list.
   * English: “Attach files”.
   */
  attach_button: string;
  /** English: “Attachments”. */
  attach_list_label: string;
  /**
   * Accessible name of an attachment's remove button; `{}` the file name.
   * English: “Remove {}”.
   */
  attach_remove: string;
  /**
   * Shown while files are dragged over the composer.
   * English: “Drop files to attach them”.
   */
  attach_drop_hint: string;
  /**
   * An attachment is being uploaded by the page's hook.
   * English: “Uploading…”.
   */
  attach_uploading: string;
  /**
   * Refusals: `{}` the file name (and sizes where named).
   * English: “{}: this type of file can’t be attached”.
   */
  attach_not_accepted: string;
  /**
   * `{}` name, `{}` its size, `{}` the limit.
   * English: “{} is too large ({}; at most {})”.
   */
  attach_file_too_large: string;
  /**
   * `{}` the total, `{}` the limit.
   * English: “The attachments are too large together ({}; at most {} per message)”.
   */
  attach_message_too_large: string;
  /**
   * `{}` the most files.
   * English: “At most {} files per message”.
   */
  attach_too_many: string;
  /** English: “{} is empty”. */
  attach_empty: string;
  /** English: “{} could not be read”. */
  attach_read_failed: string;
  /**
   * A file the draft had when the page was left: `{}` its name, `{}` its size; the file itself is
   * gone and must be attached again.
   * English: “{} ({}) was attached before: attach it again to send it”.
   */
  attach_again: string;
  /**
   * `{}` name, `{}` the hook's reason.
   * English: “{} could not be uploaded: {}”.
   */
  attach_upload_failed: string;
  /**
   * On a sent attachment whose bytes were not kept when the conversation was saved.
   * English: “not kept in this browser”.
   */
  attach_not_saved: string;
  /**
   * The composer's microphone button (accessible name; a toggle: pressed while recording).
   * English: “Dictate”.
   */
  voice_button: string;
  /**
   * Dictation: waiting for the browser's microphone (its permission prompt).
   * English: “Waiting for the microphone…”.
   */
  voice_waiting: string;
  /**
   * Dictation: recording (a clock follows it on screen).
   * English: “Recording…”.
   */
  voice_recording: string;
  /**
   * Dictation with the browser's speech recognition: listening.
   * English: “Listening…”.
   */
  voice_listening: string;
  /**
   * Dictation: the page turns the recording into text.
   * English: “Transcribing…”.
   */
  voice_transcribing: string;
  /**
   * The button that stops dictation and discards what was recorded.
   * English: “Cancel”.
   */
  voice_cancel: string;
  /**
   * Dictation failed: the person or the browser refused the microphone.
   * English: “The microphone is not allowed. Allow it in the browser’s settings for this
   * site.”.
   */
  voice_denied: string;
  /**
   * Dictation failed: no microphone; `{}` the browser's reason (technical).
   * English: “No microphone could be used ({}).”.
   */
  voice_no_microphone: string;
  /**
   * Dictation failed: the page offers dictation but gave no way to turn a recording into text.
   * English: “Dictation is not set up on this page.”.
   */
  voice_no_hook: string;
  /**
   * Dictation failed: the page's hook failed; `{}` its reason.
   * English: “The recording could not be turned into text: {}”.
   */
  voice_failed: string;
  /**
   * Dictation failed: the page's hook gave no text within a minute.
   * English: “Turning the recording into text took too long.”.
   */
  voice_timeout: string;
  /**
   * Dictation gave no words.
   * English: “No words were heard.”.
   */
  voice_empty: string;
  /**
   * The dictated text was cut; `{}` the most characters kept (a count).
   * English: “The dictated text was long: only its first {} characters were kept.”.
   */
  voice_cut: string;
  /**
   * A refusal: a run is in flight.
   * English: “a run is in progress”.
   */
  err_running: string;
  /**
   * A refusal (conversations): a run is in flight.
   * English: “a run is in progress: stop it first”.
   */
  err_running_stop: string;
  /**
   * A refusal: the chat was closed.
   * English: “the chat has been closed”.
   */
  err_closed: string;
  /**
   * `{}` is a conversation id.
   * English: “there is no conversation '{}'”.
   */
  err_unknown_thread: string;
  /**
   * Only user messages can be edited.
   * English: “only your own messages can be edited”.
   */
  err_not_editable: string;
  /**
   * An edit left the message empty.
   * English: “the message is empty”.
   */
  err_empty_text: string;
  /**
   * No answer to regenerate.
   * English: “there is no answer to regenerate yet”.
   */
  err_nothing_to_regenerate: string;
  /**
   * `{}` is a count.
   * English: “{} open interrupt(s) must be answered first”.
   */
  err_interrupts_open: string;
  /**
   * `{}` is a count.
   * English: “{} tool call(s) are still waiting for a result”.
   */
  err_tool_calls_waiting: string;
  /**
   * `{}` is a message id.
   * English: “message '{}' is not in the conversation”.
   */
  err_unknown_message: string;
  /**
   * Nothing after the fork point.
   * English: “there is nothing after the fork point to keep”.
   */
  err_empty_tail: string;
  /**
   * No branches at the start.
   * English: “no branches after the start”.
   */
  err_no_fork_start: string;
  /**
   * `{}` is a message id.
   * English: “no branches after message '{}'”.
   */
  err_no_fork_after: string;
  /**
   * `{}` index, `{}` count.
   * English: “there is no variant {} (of {})”.
   */
  err_no_variant: string;
  /**
   * `{}` is an interrupt id.
   * English: “interrupt '{}' is not open”.
   */
  err_interrupt_unknown: string;
  /**
   * `{}` is an interrupt id.
   * English: “interrupt '{}' has expired: it can only be cancelled”.
   */
  err_interrupt_expired: string;
  /**
   * `{}` is an interrupt id.
   * English: “interrupt '{}' is not answered yet (answer it or cancel it)”.
   */
  err_interrupt_missing: string;
  /**
   * `{}` is an interrupt id.
   * English: “interrupt '{}' answered twice”.
   */
  err_interrupt_duplicate: string;
  /**
   * No open interrupt.
   * English: “there is no open interrupt to resume”.
   */
  err_nothing_open: string;
  /**
   * `{}` is a tool call id.
   * English: “tool call '{}' is not waiting for an answer”.
   */
  err_tool_not_pending: string;
  /**
   * `{}` lists tool call ids.
   * English: “answer the pending tool call(s) first: {}”.
   */
  err_answer_tool_calls_first: string;
  /** English: “Conversations”. */
  threads_label: string;
  /**
   * The compact layout's menu button (conversations, inspector, settings).
   * English: “Menu”.
   */
  menu_label: string;
  /**
   * The compact layout's button that shows the side panels (trip, state).
   * English: “State”.
   */
  state_toggle: string;
  /** English: “+ New”. */
  thread_new: string;
  /** English: “Start a new conversation”. */
  thread_new_title: string;
  /**
   * A conversation without a user message or a name.
   * English: “New conversation”.
   */
  thread_untitled: string;
  /**
   * Above the thread list when the site keeps conversations (`threads-url`) and this browser has
   * some from before: how many (`{}`); they are not sent to the site unasked.
   * English: “Conversations only in this browser: {}”.
   */
  threads_local_only: string;
  /**
   * The button that sends them to the site's store.
   * English: “Keep them in your account”.
   */
  threads_upload: string;
  /**
   * The button that leaves them in the browser (not asked again).
   * English: “Not now”.
   */
  threads_not_now: string;
  /** English: “Rename”. */
  rename: string;
  /** English: “Delete”. */
  delete: string;
  /** English: “Save”. */
  save: string;
  /** English: “Cancel”. */
  cancel: string;
  /** English: “Conversation name”. */
  thread_name_label: string;
  /** English: “Save name”. */
  thread_save_name: string;
  /** English: “Confirm delete”. */
  thread_confirm_delete_label: string;
  /**
   * `{}` = the conversation's title.
   * English: “Delete “{}”?”.
   */
  thread_confirm_delete: string;
  /** English: “Demo agent (offline)”. */
  demo_agent_label: string;
  /** English: “Choose the agent”. */
  settings_toggle_title: string;
  /** English: “Agent settings”. */
  settings_label: string;
  /** English: “AG-UI endpoint URL”. */
  settings_endpoint_label: string;
  /** English: “Relative URLs work. Leave empty for the offline demo agent.”. */
  settings_endpoint_hint: string;
  /** English: “Headers (JSON object, optional)”. */
  settings_headers_label: string;
  /** English: “Protocol”. */
  settings_protocol_label: string;
  /** English: “Use the demo agent”. */
  settings_use_demo: string;
  /** English: “Apply”. */
  settings_apply: string;
  /**
   * `{}` = the JSON parser's message.
   * English: “Headers are not valid JSON: {}”.
   */
  headers_invalid_json: string;
  /** English: “Headers must be a JSON object, like {"Authorization": "Bearer …"}”. */
  headers_not_object: string;
  /**
   * `{}` = the header name.
   * English: ““{}” is not a valid header name”.
   */
  headers_bad_name: string;
  /** English: “The value of header “{}” must be a string”. */
  headers_value_not_string: string;
  /** English: “The value of header “{}” contains a line break”. */
  headers_value_line_break: string;
  /**
   * A header value the browser cannot send; `{}` is the name.
   * English: “The value of header “{}” has characters a header cannot carry”.
   */
  headers_value_invalid: string;
  /** English: “Versions”. */
  versions_label: string;
  /** English: “Previous version”. */
  version_previous: string;
  /** English: “Next version”. */
  version_next: string;
  /** English: “Edit”. */
  edit: string;
  /** English: “Edit this message (starts a new branch)”. */
  edit_title: string;
  /** English: “Edit message”. */
  edit_message_label: string;
  /** English: “Save & send”. */
  save_and_send: string;
  /** English: “↻ Regenerate”. */
  regenerate: string;
  /** English: “Ask again (the current answer is kept as a version)”. */
  regenerate_title: string;
  /** English: “Tool result”. */
  tool_result_label: string;
  /** English: “image”. */
  media_image: string;
  /** English: “audio”. */
  media_audio: string;
  /** English: “video”. */
  media_video: string;
  /** English: “document”. */
  media_document: string;
  /**
   * The alternative text of an image from the agent that names none.
   * English: “Image from the agent”.
   */
  media_from_agent: string;
  /**
   * A media part too large to show (after its size and type).
   * English: “too large to show”.
   */
  media_too_large: string;
  /**
   * A provider's file handle: the agent's provider keeps the file; nothing to open.
   * English: “kept by the agent's provider”.
   */
  media_provider_file: string;
  /**
   * A media part that cannot be shown or opened (not base64, or a link of another kind).
   * English: “can't be shown”.
   */
  media_unavailable: string;
  /**
   * A file from the agent to download (its accessible name); `{}` = the file's name.
   * English: “Download {}”.
   */
  media_download: string;
  /** English: “Thinking…”. */
  reasoning_thinking: string;
  /**
   * `{}` = whole seconds.
   * English: “Thought for {} s”.
   */
  reasoning_thought_for: string;
  /** English: “Thought”. */
  reasoning_thought: string;
  /** English: “Reasoning (encrypted)”. */
  reasoning_encrypted: string;
  /**
   * The name of a subagent that was not announced (`SUBAGENT_STARTED` never came).
   * English: “Subagent”.
   */
  subagent_unnamed: string;
  /**
   * A subagent's group of messages; `{}` = the subagent's name.
   * English: “{} (subagent)”.
   */
  subagent_group: string;
  /**
   * A message inside a subagent's group (its accessible name); `{}` = the subagent's name.
   * English: “Message from {}”.
   */
  subagent_message: string;
  /**
   * A subagent at work.
   * English: “Working…”.
   */
  subagent_running: string;
  /**
   * A subagent that finished.
   * English: “Done”.
   */
  subagent_finished: string;
  /**
   * A subagent paused, waiting on the person (a `suspended` outcome).
   * English: “Paused”.
   */
  subagent_suspended: string;
  /**
   * A subagent that failed (or whose run ended under it).
   * English: “Failed”.
   */
  subagent_failed: string;
  /** English: “Copy code”. */
  copy_code_label: string;
  /**
   * A markdown table's scroll region (it scrolls sideways when wider than the message).
   * English: “Table”.
   */
  table_label: string;
  /** English: “Copy”. */
  copy: string;
  /** English: “Copied”. */
  copied: string;
  /**
   * The toolbar under a finished table: its group's name; the buttons' descriptions, on hover (copy
   * as Markdown, copy as CSV, download a CSV file), and their visible texts, which are their
   * accessible names.
   * English: “Table actions”.
   */
  table_tools: string;
  /** English: “Copy table as Markdown”. */
  table_copy_markdown: string;
  /** English: “Copy table as CSV”. */
  table_copy_csv: string;
  /** English: “Download table as CSV”. */
  table_download_csv: string;
  /** English: “Copy Markdown”. */
  table_markdown: string;
  /** English: “Copy CSV”. */
  table_csv: string;
  /** English: “Download”. */
  table_download: string;
  /** English: “done”. */
  task_done: string;
  /** English: “not done”. */
  task_not_done: string;
  /** English: “Image”. */
  image_alt: string;
  /**
   * `{}` = the image's host.
   * English: “Load the image from {}”.
   */
  image_load_title: string;
  /** English: “Load image”. */
  image_load: string;
  /**
   * A formula whose TeX could not be shown as math (invalid, or over a budget): its source is shown
   * with this as the marker's title and accessible text.
   * English: “Formula not rendered (its TeX source is shown)”.
   */
  math_invalid: string;
  /**
   * The heading of an answer's numbered list of sources (web pages, documents).
   * English: “Sources”.
   */
  sources_title: string;
  /**
   * A citation marker's accessible name (`[1]` in the answer); `{}` = the source's number.
   * English: “Source {}”.
   */
  source_cite: string;
  /**
   * The heading of an answer's footnotes (GFM `[^1]: …` definitions).
   * English: “Notes”.
   */
  notes_title: string;
  /**
   * A footnote reference's accessible name; `{}` = the note's number.
   * English: “Note {}”.
   */
  note_ref: string;
  /** English: “Collapse”. */
  collapse: string;
  /** English: “Expand”. */
  expand: string;
  /** English: “tool”. */
  tool_fallback_name: string;
  /** English: “Pending”. */
  tool_pending: string;
  /** English: “Preparing”. */
  tool_preparing: string;
  /** English: “Running”. */
  tool_running: string;
  /** English: “Done”. */
  tool_done: string;
  /** English: “Failed”. */
  tool_failed: string;
  /** English: “Needs input”. */
  tool_needs_input: string;
  /** English: “Needs approval”. */
  tool_needs_approval: string;
  /** English: “Waiting for arguments…”. */
  tool_waiting_args: string;
  /** English: “No arguments”. */
  tool_no_args: string;
  /**
   * `{}` = a byte size.
   * English: “{} of arguments that are not valid JSON”.
   */
  tool_args_unparsed: string;
  /** English: “The run ended before this tool returned a result.”. */
  tool_no_result: string;
  /** English: “Waiting for your input…”. */
  tool_awaiting_input: string;
  /** English: “Waiting for your approval below…”. */
  tool_awaiting_approval: string;
  /** English: “(empty result)”. */
  tool_empty_result: string;
  /** English: “Result”. */
  tool_result: string;
  /** English: “Error”. */
  tool_error: string;
  /** English: “Show all”. */
  show_all: string;
  /**
   * Opens a person's long message that shows collapsed.
   * English: “Show more”.
   */
  show_more: string;
  /** English: “Show less”. */
  show_less: string;
  /** English: “line”. */
  line_one: string;
  /** English: “lines”. */
  line_other: string;
  /** English: “Tell the agent”. */
  tell_the_agent: string;
  /** English: “Payment requested”. */
  payment_requested: string;
  /** English: “an unknown amount”. */
  payment_unknown_amount: string;
  /**
   * `{}` = the amount.
   * English: “Pay {}”.
   */
  payment_pay: string;
  /**
   * English: “The agent's request is incomplete (amount or currency missing), so it can only be
   * declined.”.
   */
  payment_incomplete: string;
  /** English: “Nothing is charged unless you confirm.”. */
  payment_note: string;
  /** English: “Decline”. */
  decline: string;
  /**
   * `{}` = answered, `{}` = total.
   * English: “{} of {} answered”.
   */
  interrupts_progress: string;
  /** English: “Send answers”. */
  send_answers: string;
  /** English: “Approval needed”. */
  interrupt_approval: string;
  /** English: “Question”. */
  interrupt_question: string;
  /** English: “Input needed”. */
  interrupt_input: string;
  /** English: “Tool call”. */
  interrupt_tool_call: string;
  /** English: “Expired”. */
  interrupt_expired_badge: string;
  /**
   * `{}` = a countdown.
   * English: “Expires in {}”.
   */
  interrupt_expires_in: string;
  /** English: “Answered”. */
  interrupt_answered: string;
  /** English: “Approved”. */
  interrupt_approved: string;
  /** English: “Approved with edited arguments”. */
  interrupt_approved_edited: string;
  /** English: “Rejected”. */
  interrupt_rejected: string;
  /** English: “Cancelled”. */
  interrupt_cancelled: string;
  /** English: “Change”. */
  interrupt_change: string;
  /** English: “This request has expired: it can only be cancelled.”. */
  interrupt_expired: string;
  /** English: “Cancel this request”. */
  interrupt_cancel: string;
  /** English: “Reason (optional)”. */
  interrupt_reason: string;
  /** English: “Edit arguments”. */
  interrupt_edit_args: string;
  /** English: “Keep the original arguments”. */
  interrupt_keep_args: string;
  /** English: “Edited arguments (JSON, replaces the original)”. */
  interrupt_edited_args_label: string;
  /** English: “Approve”. */
  approve: string;
  /** English: “Reject”. */
  reject: string;
  /** English: “Submit”. */
  submit: string;
  /** English: “Write an answer first”. */
  interrupt_write_first: string;
  /** English: “Your answer”. */
  interrupt_your_answer: string;
  /** English: “Your answer…”. */
  interrupt_your_answer_placeholder: string;
  /**
   * `{}` = the action number, `{}` = its name.
   * English: “Choose a decision for action {} ({})”.
   */
  interrupt_choose_decision: string;
  /** English: “Submit decisions”. */
  interrupt_submit_decisions: string;
  /** English: “Action”. */
  interrupt_action: string;
  /** English: “Decision”. */
  interrupt_decision_label: string;
  /** English: “Edited arguments (JSON)”. */
  interrupt_edited_args_json: string;
  /** English: “Message to the agent (optional)”. */
  interrupt_message_label: string;
  /** English: “Why? (optional)”. */
  interrupt_message_placeholder: string;
  /** English: “The arguments must be a JSON object”. */
  interrupt_args_not_object: string;
  /**
   * `{}` = the JSON parser's message.
   * English: “The arguments are not valid JSON: {}”.
   */
  interrupt_args_invalid_json: string;
  /** English: “Shared state”. */
  state_label: string;
  /** English: “A state update could not be applied; showing the last good state.”. */
  state_patch_failed: string;
  /** English: “Dismiss”. */
  dismiss: string;
  /** English: “No shared state yet”. */
  state_empty: string;
  /** English: “less”. */
  state_less: string;
  /**
   * `{}` = a character count.
   * English: “{} chars”.
   */
  state_chars: string;
  /**
   * `{}` = how many more.
   * English: “Show {} more”.
   */
  state_show_more: string;
  /** English: “Travellers”. */
  trip_travellers: string;
  /** English: “Budget”. */
  trip_budget: string;
  /** English: “Plan”. */
  trip_plan: string;
  /**
   * `{}` = the total, `{}` = the share per person.
   * English: “{} (about {} each)”.
   */
  trip_budget_each: string;
  /** English: “Venues”. */
  trip_venues: string;
  /** English: “No venues chosen yet”. */
  trip_no_venues: string;
  /**
   * `{}` = done, `{}` = all.
   * English: “{} of {} done”.
   */
  trip_done_count: string;
  /** English: “to do”. */
  step_pending: string;
  /** English: “in progress”. */
  step_active: string;
  /** English: “done”. */
  step_done: string;
  /** English: “failed”. */
  step_failed: string;
  /** English: “skipped”. */
  step_skipped: string;
  /** English: “{} traveller”. */
  travellers_one: string;
  /** English: “{} travellers”. */
  travellers_other: string;
  /** English: “No venues matched.”. */
  venues_none_matched: string;
  /**
   * `{}` = the rating.
   * English: “Rated {} out of 5”.
   */
  venue_rated: string;
  /**
   * `{}` = a capacity.
   * English: “up to {}”.
   */
  venue_up_to: string;
  /**
   * Without a kind from the agent.
   * English: “venue”.
   */
  venue_kind_one: string;
  /** English: “venues”. */
  venue_kind_other: string;
  /**
   * Appended: `{}` = area and city.
   * English: “ in {}”.
   */
  venue_query_place: string;
  /**
   * Appended: `{}` = the party size.
   * English: “ for {}”.
   */
  venue_query_capacity: string;
  /**
   * Appended: `{}` = the price limit.
   * English: “, up to {}”.
   */
  venue_query_price: string;
  /**
   * `{}` = what is searched.
   * English: “Searching {}…”.
   */
  venue_searching: string;
  /** English: “Found {}”. */
  venue_found: string;
  /** English: “Found no {}”. */
  venue_found_none: string;
  /** English: “Unnamed venue”. */
  venue_unnamed: string;
  /** English: “Untitled step”. */
  trip_untitled_step: string;
  /** English: “Activity”. */
  activity_fallback: string;
  /** English: “Choose…”. */
  form_choose: string;
  /** English: “Answer”. */
  form_answer: string;
  /** English: “Required”. */
  form_required: string;
  /** English: “Pick one of the options”. */
  form_pick_one: string;
  /**
   * `{}` = a minimum length.
   * English: “At least {} characters”.
   */
  form_too_short: string;
  /**
   * `{}` = a maximum length.
   * English: “At most {} characters”.
   */
  form_too_long: string;
  /** English: “Must be a number”. */
  form_not_a_number: string;
  /** English: “Must be a whole number”. */
  form_not_whole: string;
  /**
   * `{}` = a bound.
   * English: “Must be at least {}”.
   */
  form_at_least: string;
  /** English: “Must be at most {}”. */
  form_at_most: string;
  /** English: “Must be more than {}”. */
  form_more_than: string;
  /** English: “Must be less than {}”. */
  form_less_than: string;
  /**
   * `{}` = the JSON parser's message.
   * English: “Not valid JSON: {}”.
   */
  form_invalid_json: string;
  /** English: “Must be a JSON object”. */
  form_json_object: string;
  /** English: “Must be a JSON array”. */
  form_json_array: string;
  /** English: “Must be a JSON string”. */
  form_json_string: string;
  /** English: “Must be a JSON number”. */
  form_json_number: string;
  /** English: “Must be a JSON integer”. */
  form_json_integer: string;
  /** English: “Must be a JSON boolean”. */
  form_json_boolean: string;
  /** English: “Must be a JSON value”. */
  form_json_value: string;
  /** English: “Too many fields or options for a form: enter the answer as JSON.”. */
  form_over_limit: string;
  /** English: “Inspector”. */
  inspector_toggle: string;
  /** English: “Event inspector”. */
  inspector_title: string;
  /** English: “Close the inspector”. */
  inspector_close: string;
  /** English: “Export trace (.jsonl)”. */
  inspector_export_jsonl: string;
  /** English: “Export raw (.sse)”. */
  inspector_export_sse: string;
  /** English: “Open a trace”. */
  inspector_open: string;
  /** English: “Replay with original timing”. */
  inspector_timed: string;
  /** English: “Drop a .jsonl or .sse trace here to replay it”. */
  inspector_drop: string;
  /**
   * The toolbar of step, play, scrubber, speed and Live.
   * English: “Time travel”.
   */
  inspector_timeline_label: string;
  /** English: “Step back”. */
  inspector_back: string;
  /** English: “Step forward”. */
  inspector_forward: string;
  /** English: “Play”. */
  inspector_play: string;
  /** English: “Pause”. */
  inspector_pause: string;
  /** English: “Speed”. */
  inspector_speed: string;
  /** English: “Position in the event log”. */
  inspector_scrubber: string;
  /**
   * The scrubber's spoken value: `{}` = the position, `{}` = all events.
   * English: “Event {} of {}”.
   */
  inspector_position: string;
  /**
   * Back to following new events.
   * English: “Live”.
   */
  inspector_live: string;
  /** English: “Event type”. */
  inspector_type_filter: string;
  /** English: “All types”. */
  inspector_all_types: string;
  /** English: “Search events”. */
  inspector_search: string;
  /**
   * The event list's name and the metrics column.
   * English: “Events”.
   */
  inspector_events: string;
  /** English: “No events yet: send a message or open a trace.”. */
  inspector_empty: string;
  /**
   * English: “Following new events. Select an event or move the scrubber to travel back in
   * time.”.
   */
  inspector_live_hint: string;
  /**
   * `{}` = recorded events, `{}` = the limit in MB.
   * English: “The inspector's log is full ({} events, limit {} MB): recording stopped. The
   * conversation goes on; the recorded events stay exact.”.
   */
  inspector_log_full: string;
  /**
   * `{}` = the index, `{}` = the event type, `{}` = milliseconds since the start.
   * English: “Event #{} · {} · +{} ms”.
   */
  inspector_event_title: string;
  /** English: “Raw frame”. */
  inspector_raw: string;
  /** English: “Conversation as of this event”. */
  inspector_chat: string;
  /** English: “State as of this event”. */
  inspector_state: string;
  /** English: “Change applied by this event”. */
  inspector_patch: string;
  /** English: “This event did not change the state.”. */
  inspector_no_state_change: string;
  /** English: “STATE_SNAPSHOT: the whole state was replaced.”. */
  inspector_snapshot: string;
  /** English: “… more values not shown”. */
  inspector_more_leaves: string;
  /** English: “(empty state)”. */
  inspector_no_state: string;
  /** English: “Runs”. */
  inspector_runs: string;
  /** English: “Run”. */
  inspector_run: string;
  /** English: “First token”. */
  inspector_ttft: string;
  /** English: “Chars/s”. */
  inspector_cps: string;
  /** English: “Tools”. */
  inspector_tools: string;
  /** English: “Usage”. */
  inspector_usage: string;
  /** English: “Warnings”. */
  inspector_warnings: string;
  /**
   * `{}` = the browser's reason.
   * English: “The trace could not be downloaded: {}”.
   */
  inspector_download_failed: string;
  /**
   * `{}` = the browser's reason.
   * English: “The file could not be read: {}”.
   */
  inspector_read_failed: string;
  /**
   * `{}` = the file name, `{}` = the parser's reason.
   * English: “This file is not a trace ({}): {}”.
   */
  inspector_not_a_trace: string;
  /**
   * `{}` = the reason.
   * English: “The trace cannot be replayed now: {}”.
   */
  inspector_replay_refused: string;
}
// @strings-end

/** A suggestion chip: its prompt (`prompt` or `title`) and an optional hint. */
export interface AguiSuggestion {
  prompt?: string;
  title?: string;
  hint?: string;
  description?: string;
}

/** A command of the page: typing `/name` at the start of the composer offers it. */
export interface AguiCommand {
  /** What is typed after `/` (no spaces). */
  name: string;
  description?: string;
  /** What the composer gets. */
  prompt: string;
  /** Send the prompt at once instead of filling the composer with it. */
  send?: boolean;
}

/** A frontend tool, executed in the page when the agent calls it. */
export interface AguiTool {
  name: string;
  description?: string;
  /** The JSON Schema of its arguments. */
  parameters?: Record<string, unknown>;
  /** Its result: a JSON value, or a promise of one; a throw is the tool's error result. */
  handler: (args: any) => unknown;
}

/** One line of a thread store's list. */
export interface AguiThreadEntry {
  id: string;
  title: string;
  /** ISO 8601. */
  updatedAt: string;
}

/**
 * The site's store of conversations in code (the `threads` option; `threads-url` is the REST
 * one). A throw or a rejection fails the call, which is tried again later; an error with
 * `status: 412` is a conflict (the chat loads, merges and saves again), `404` a missing one.
 */
export interface AguiThreadStore {
  /** A page of the list, newest first; `cursor` is the previous page's `next`. */
  list(
    cursor: string | null,
  ): AguiThreadEntry[] | { entries: AguiThreadEntry[]; next?: string | null }
    | Promise<AguiThreadEntry[] | { entries: AguiThreadEntry[]; next?: string | null }>;
  /** One conversation and its version; `null`: there is none. */
  load(id: string): { record: Record<string, unknown>; etag?: string } | null
    | Promise<{ record: Record<string, unknown>; etag?: string } | null>;
  /**
   * Save a conversation (`record` has `id`, `title`, `updatedAt`, `messages` and the chat's
   * own `chat`) if the stored version is `etag` (`null`: none yet; `'*'`: any); the new one.
   */
  save(
    id: string,
    record: Record<string, unknown>,
    expect: { etag: string | null },
  ): string | void | Promise<string | void>;
  remove(id: string): unknown;
}

/** The agent's `AgentCapabilities` (AG-UI): omitted fields are unknown, never unsupported. */
export interface AguiCapabilities {
  identity?: { name?: string; [key: string]: unknown };
  multimodal?: {
    input?: { image?: boolean; audio?: boolean; video?: boolean; pdf?: boolean; file?: boolean };
    [key: string]: unknown;
  };
  tools?: { clientProvided?: boolean; [key: string]: unknown };
  [key: string]: unknown;
}

/** How a run ended. */
export type AguiRunStatus = 'success' | 'error' | 'cancelled' | 'truncated' | 'interrupted';

/** An open interrupt of a run (AG-UI `Interrupt`). */
export interface AguiInterrupt {
  id: string;
  reason: string;
  message?: string;
  toolCallId?: string;
  responseSchema?: Record<string, unknown>;
  expiresAt?: string;
  metadata?: Record<string, unknown>;
  subagentRunId?: string;
}

/** What a renderer element's `toolCall` property holds (see the `renderers` option). */
export interface AguiToolCall {
  id: string;
  name: string;
  status: 'streaming-args' | 'running' | 'success' | 'error' | 'awaiting-input' | 'awaiting-approval';
  /** The arguments so far: best-effort JSON while they stream. */
  args: unknown;
  result: unknown;
  error: string | null;
  durationMs: number | null;
}

// @generated-begin from src/embed/table.rs (AGUI_BLESS=1 cargo test --test project manifest)
/** The options of `mount()`, and the properties of `<agui-chat>`. */
export interface AguiChatOptions {
  /**
   * The agent's endpoint. Absent or empty: the built-in demo agent where the bundle has it (the CDN
   * loader, `agui-leptos/full`); the default npm entry says that no agent is configured.
   * Attribute: `endpoint`.
   */
  endpoint?: string;
  /**
   * The endpoint's wire: `ai-sdk` sends the AI SDK's `useChat` request to an AI SDK route. A
   * response is read by its own content type either way, and an endpoint that answered an AI SDK
   * stream gets that shape from then on.
   * Attribute: `protocol`. Default: `ag-ui`.
   */
  protocol?: 'ag-ui' | 'ai-sdk';
  /**
   * With `protocol="ai-sdk"`: a run the visitor left in flight (a reload; Stop is not leaving) is
   * asked for again with `GET {endpoint}/{chatId}/stream` (the AI SDK's resumable streams; `204` =
   * nothing in flight).
   * Attribute: `resume`. Default: `false`.
   */
  resume?: boolean;
  /**
   * `protobuf` admits the AG-UI protobuf binding in `Accept` (`text/event-stream,
   * application/vnd.ag-ui.event+proto`); a response whose content type is exactly
   * `application/vnd.ag-ui.event+proto` is read as length-prefixed protobuf frames, anything else
   * as SSE. The lean widget fetches the protobuf decoder, a module of its own, when such a widget's
   * run starts.
   * Attribute: `transport`. Default: `sse`.
   */
  transport?: 'sse' | 'protobuf';
  /**
   * Extra request headers (authentication). A bad value is shown as a warning and ignored; an
   * endpoint that came from the page's URL is sent none. In JS it may be a function (async or not)
   * called before every request with `{refresh}` (an expiring token): after a `401`/`403` it is
   * called again with `refresh: true` and the request goes once more; one that throws or takes over
   * 10 s fails the request with a notice. Its headers go only to the page's own `endpoint`.
   * Attribute: `headers`.
   */
  headers?: Record<string, string> | ((ask: { refresh: boolean }) => Record<string, string> | Promise<Record<string, string>>);
  /**
   * `inline` fills the element (give it a height); `popup` is a floating launcher that opens a
   * panel (Escape closes it, the focus returns to the launcher); `sidebar` docks to the inline-end
   * edge and collapses to the launcher; `page` is the whole page.
   * Attribute: `mode`. Default: `inline`.
   */
  mode?: 'inline' | 'popup' | 'sidebar' | 'page';
  /**
   * `auto` follows `prefers-color-scheme`. A change applies in place.
   * Attribute: `theme`. Default: `auto`.
   */
  theme?: 'auto' | 'light' | 'dark';
  /**
   * The event inspector starts open (a bundle with the inspector: the CDN loader loads the full
   * build for it, or `agui-leptos/full`).
   * Attribute: `inspector`. Default: `false`.
   */
  inspector?: boolean;
  /**
   * Where conversations are saved (storage prefix `agui-leptos:v1:w:<key>`): widgets with different
   * keys keep separate conversation lists.
   * Attribute: `thread-key`.
   */
  threadKey?: string;
  /**
   * Where conversations are kept: `localStorage`, `sessionStorage` (until the tab closes) or
   * nowhere (memory only).
   * Attribute: `persist`. Default: `local`.
   */
  persist?: 'local' | 'session' | 'none';
  /**
   * How much this widget keeps in storage: the least recently active conversations are removed
   * first, with a notice (also at most 50 conversations).
   * Attribute: `storage-budget`. Default: `1000000`.
   */
  storageBudget?: number;
  /**
   * The UI language: `en`, `de`, `fr`, `es`, `pt`, `ja`, `zh` (simplified; `zh-TW`, `zh-Hant`,
   * `zh-HK` are not it) or `ar` (right to left: the chat gets `dir="rtl"` unless the page sets
   * `dir` on the element or above it). Default: the first of the browser's languages the chat
   * speaks, else English. The lean bundle fetches each catalog but English when first used.
   * Attribute: `lang`.
   */
  lang?: AguiLang;
  /**
   * A popup starts closed unless `open`; a sidebar starts open unless `open="false"`. A change
   * applies in place.
   * Attribute: `open`.
   */
  open?: boolean;
  /**
   * The launcher's and the panel's accessible name, and the header's title.
   * Attribute: `title`.
   */
  title?: string;
  /**
   * The demo agent's playback speed (`0` = instant).
   * Attribute: `speed`. Default: `1`.
   */
  speed?: number;
  /**
   * The built-in demo's plug-ins (agent, venue and trip cards, `confirm_payment`, chips) also with
   * an `endpoint`; a widget without `endpoint` is the demo anyway where the bundle has it.
   * Attribute: `demo`. Default: `false`.
   */
  demo?: boolean;
  /**
   * Show the agent picker (endpoint and headers) in the header; always shown in `page` mode, never
   * otherwise: a widget's endpoint comes from its page, not from its visitors.
   * Attribute: `settings`. Default: `false`.
   */
  settings?: boolean;
  /**
   * Follow-up chips that send their prompt.
   * Attribute: `suggestions`.
   */
  suggestions?: Array<string | AguiSuggestion>;
  /**
   * Commands offered when the person types `/` at the start of the composer, filtered as they type
   * (names first, then descriptions), picked with the keyboard or a click: the composer gets the
   * command's `prompt`, or it is sent at once with `send: true`. At most 100; a name with a space,
   * an empty prompt or a repeated name is shown as a warning and skipped.
   * Attribute: `commands`.
   */
  commands?: AguiCommand[];
  /**
   * Math in answers, shown as MathML with the system's math font: `on` reads `$$…$$`, `\\[…\\]`
   * and `\\(…\\)`; `dollars` also `$…$` (then "$5 and $10" would be a formula); `off` leaves
   * them as text. The lean widget fetches the math module with the first formula.
   * Attribute: `math`. Default: `on`.
   */
  math?: 'on' | 'dollars' | 'off';
  /**
   * The page's own words for any UI string, by key (`{"composer_placeholder": "Ask Acme…"}`; the
   * keys and what each text is are `AguiStrings`); every other key keeps the language's text. A
   * text must keep the English text's `{}` placeholders; an unknown key, a changed placeholder
   * count, an empty text or one over 2,000 characters is shown as a warning and ignored (at most
   * 500 texts). Shown as text, never as HTML.
   * Attribute: `strings`.
   */
  strings?: Partial<AguiStrings>;
  /**
   * Whether requests carry the browser's cookies and HTTP authentication (`include`: cross-origin
   * too; the agent must allow it with CORS).
   * Attribute: `credentials`. Default: `same-origin`.
   */
  credentials?: 'same-origin' | 'include' | 'omit';
  /**
   * A redirect from the endpoint fails the run with its own message; `follow` lets it through (with
   * the page's headers).
   * Attribute: `redirects`. Default: `error`.
   */
  redirects?: 'error' | 'follow';
  /**
   * Lets the page's URL set those options (`?endpoint=…&theme=dark`); absent, the URL sets
   * nothing. Never headers, the mode, storage, the allow-list or the MCP Apps proxy. An endpoint
   * from the URL must be http(s) or relative and is sent no headers from the page.
   * Attribute: `url-options`.
   */
  urlOptions?: boolean | string;
  /**
   * The only endpoints a run may go to, whoever set the endpoint: `https://agent.example` allows
   * that origin, `/api/agui` that path and below on the page's origin.
   * Attribute: `allowed-endpoints`.
   */
  allowedEndpoints?: string | string[];
  /**
   * MCP Apps run in the site's sandbox proxy at that URL instead of the opaque `srcdoc` frame.
   * Never from the page's URL; a refused URL shows a notice and no View.
   * Attribute: `mcp-apps-proxy`.
   */
  mcpAppsProxy?: string;
  /**
   * The site's own store of conversations, a small REST contract (`GET` the list,
   * `GET`/`PUT`/`DELETE` one by id, saves by compare-and-swap on its `ETag`; the repository's
   * `examples/threads-server` implements it): the list comes from it, a conversation is loaded when
   * opened, every change is saved to it (debounced; a conflict with another device is merged, never
   * lost; a failure is shown and retried). The browser's storage is its cache; conversations the
   * visitor had before are kept and not sent unasked. Gets the page's `headers` (a function too)
   * and `credentials`; checked against `allowed-endpoints`; never from the page's URL.
   * Attribute: `threads-url`.
   */
  threadsUrl?: string;
  /**
   * `off` (JS: `false`): Send waits while the agent answers. By default what is sent meanwhile
   * waits in a queue (editable, removable) and goes out when the run ends.
   * Attribute: `queue`. Default: `on`.
   */
  queue?: boolean | 'off';
  /**
   * What may be attached (`image/*,.pdf,application/json`).
   * Attribute: `accept`. Default: `images, audio, video, PDF, text, Markdown, CSV, JSON`.
   */
  accept?: string;
  /**
   * The largest file (binary units; at most 100 MB).
   * Attribute: `max-file-bytes`. Default: `10MB`.
   */
  maxFileBytes?: number | string;
  /**
   * All the files of one message together (at most 100 MB).
   * Attribute: `max-message-bytes`. Default: `20MB`.
   */
  maxMessageBytes?: number | string;
  /**
   * Files per message (at most 100).
   * Attribute: `max-files`. Default: `10`.
   */
  maxFiles?: number;
  /**
   * `off` (JS: `false`): no attach button, no drop or paste of files.
   * Attribute: `attachments`. Default: `on`.
   */
  attachments?: boolean | 'off';
  /**
   * Dictation: a microphone button in the composer. `transcribe` records with `MediaRecorder` and
   * hands the recording to the page's `transcribe` hook, whose text goes into the composer (never
   * sent by itself); `browser` uses the browser's own speech recognition (`SpeechRecognition`; no
   * button where the browser has none — Chrome sends that audio to Google's servers). Needs an
   * https page; a recording stops by itself after 5 minutes.
   * Attribute: `voice`. Default: `off`.
   */
  voice?: 'off' | 'transcribe' | 'browser';
  /**
   * The agent's capabilities (AG-UI `AgentCapabilities`): `multimodal.input` narrows what may be
   * attached, `tools.clientProvided: false` offers the agent none of the page's frontend tools,
   * `identity.name` is the title when there is no `title`. Omitted means unknown, never
   * unsupported.
   * Attribute: `capabilities`.
   */
  capabilities?: AguiCapabilities;
  /**
   * When a collapsed popup or sidebar loads the chat: `intent` (the pointer over the launcher, its
   * focus, or a click), `idle` (when the browser is idle after the page's load), `eager` (at once),
   * `none` (on a click).
   * Attribute: `preload`. Default: `intent`.
   */
  preload?: 'intent' | 'idle' | 'eager' | 'none';
  /**
   * Frontend tools executed in the page: `{name, description, parameters, handler}`;
   * `handler(args)` returns a value or a promise (a throw is the tool's error result). The agent is
   * offered exactly these.
   * JS only.
   */
  tools?: AguiTool[];
  /**
   * Tool cards drawn by the page's own custom elements: `{tool_name: 'element-name'}`. The chat
   * creates the element in the card (by name, never from HTML) and sets its `toolCall` property on
   * every change, streaming arguments included.
   * JS only.
   */
  renderers?: Record<string, string>;
  /**
   * Fenced code blocks drawn by the page's own custom elements, by language: `{mermaid:
   * 'my-mermaid-element'}`. The chat creates the element (by name, never from HTML) in the block's
   * card and sets its `code` (the block's text) and `complete` (`false` while the fence is still
   * open) properties on every change; the bar keeps Copy, and a Source toggle shows the highlighted
   * code. A language matches a fence's first word, case ignored; only valid custom element names
   * are taken. The agent's output only picks among these.
   * JS only.
   */
  codeRenderers?: Record<string, string>;
  /**
   * Uploads an attached file and returns its URL; the message then carries the URL instead of the
   * file's bytes.
   * JS only.
   */
  upload?: (file: File) => string | Promise<string>;
  /**
   * The site's store of conversations in code, instead of `threads-url`: `{list(cursor), load(id),
   * save(id, record, {etag}), remove(id)}`, each returning a value or a promise. `list` gives
   * `{entries: [{id, title, updatedAt}], next}` (or the array alone); `load` gives `{record, etag}`
   * (`null`: no such conversation); `save` gives the new version (`etag` is the one it expects:
   * `null` for a new conversation); an error with `status: 412` is a conflict (the chat loads,
   * merges and saves again), `404` a missing conversation.
   * JS only.
   */
  threads?: AguiThreadStore;
  /**
   * With `voice="transcribe"`: turns a recording (the browser's `MediaRecorder` audio, its type on
   * the `Blob`) into text, which the composer inserts at the caret. A throw, a rejection, an empty
   * text or no answer within 60 s shows a quiet message; a text over 20,000 characters is cut.
   * JS only.
   */
  transcribe?: (audio: Blob) => string | Promise<string>;
}

/** The `detail` of `agui:run-started`: A run started. */
export interface AguiRunStartedDetail {
  /** The conversation. */
  threadId: string;
  /** The run. */
  runId: string;
}

/**
 * The `detail` of `agui:state-changed`: The agent's state changed (at most once per animation
 * frame); read it with `element.state`.
 */
export interface AguiStateChangedDetail {
  /** The conversation. */
  threadId: string;
}

/**
 * The `detail` of `agui:interrupt`: New interrupts opened (their cards are shown and focused).
 */
export interface AguiInterruptDetail {
  /** The conversation. */
  threadId: string;
  /** The run's open interrupts. */
  interrupts: AguiInterrupt[];
}

/** The `detail` of `agui:run-finished`: A run ended. */
export interface AguiRunFinishedDetail {
  /** The conversation. */
  threadId: string;
  /** The run. */
  runId: string;
  /** How it ended. */
  status: AguiRunStatus;
  /** The error, worded as the chat shows it. */
  error: string | null;
}

/**
 * The `detail` of `agui:feedback`: The person rated an answer. The chat sends feedback nowhere
 * itself (AG-UI has no event for it).
 */
export interface AguiFeedbackDetail {
  /** The conversation. */
  threadId: string;
  /** The rated answer. */
  messageId: string;
  /** The rating. */
  rating: 'up' | 'down';
  /** The person's comment. */
  comment: string | null;
}

/** The events `<agui-chat>` dispatches (`bubbles`, `composed`), by name. */
export interface AguiChatEventMap {
  /** A run started. */
  'agui:run-started': CustomEvent<AguiRunStartedDetail>;
  /**
   * The agent's state changed (at most once per animation frame); read it with `element.state`.
   */
  'agui:state-changed': CustomEvent<AguiStateChangedDetail>;
  /** New interrupts opened (their cards are shown and focused). */
  'agui:interrupt': CustomEvent<AguiInterruptDetail>;
  /** A run ended. */
  'agui:run-finished': CustomEvent<AguiRunFinishedDetail>;
  /**
   * The person rated an answer. The chat sends feedback nowhere itself (AG-UI has no event for it).
   */
  'agui:feedback': CustomEvent<AguiFeedbackDetail>;
}
// @generated-end

/** What `mount()` returns. */
export interface AguiChatHandle {
  element: HTMLElement;
  /** Stops a run in flight and empties the element. */
  unmount(): Promise<boolean>;
  /** The agent's state now (a copy). */
  state(): unknown;
}

/** The chat's API, as `ready` resolves it and as `window.AguiChat` holds it. */
export interface AguiChatApi {
  mount(element: HTMLElement, options?: AguiChatOptions): AguiChatHandle;
  unmount(element: HTMLElement): Promise<boolean>;
  scan(root?: ParentNode): Promise<void>;
  /**
   * Sign-out: every chat of the page forgets its conversations, drafts and unsaved changes in
   * this browser and shows a fresh conversation (a site's thread store keeps its copy).
   * Works before the chat is loaded; how many chats were mounted.
   */
  forget(): number;
  /** Sends the conversations this browser had before the site's thread store to it. */
  uploadLocal(): Promise<number>;
  readonly version: string;
}

/**
 * The `<agui-chat>` element. Every option is also a property (`title` and `lang` are
 * HTMLElement's own, reflecting their attributes); a property wins over its attribute.
 */
export interface AguiChatElement extends HTMLElement, Omit<AguiChatOptions, 'title' | 'lang'> {
  /** The agent's state now (a copy); undefined before the chat is mounted. */
  readonly state: unknown;
  addEventListener<K extends keyof AguiChatEventMap>(
    type: K,
    listener: (this: AguiChatElement, ev: AguiChatEventMap[K]) => any,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener<K extends keyof HTMLElementEventMap>(
    type: K,
    listener: (this: AguiChatElement, ev: HTMLElementEventMap[K]) => any,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof AguiChatEventMap>(
    type: K,
    listener: (this: AguiChatElement, ev: AguiChatEventMap[K]) => any,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener<K extends keyof HTMLElementEventMap>(
    type: K,
    listener: (this: AguiChatElement, ev: HTMLElementEventMap[K]) => any,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

declare global {
  interface HTMLElementTagNameMap {
    'agui-chat': AguiChatElement;
  }
}

/** The package's version (the crate's). */
export declare const version: string;
/**
 * Mounts a chat into `element` (an `<agui-chat>`: its options become its properties; any
 * other element gets a shadow root of its own). Works before the chat is loaded, and loads it.
 */
export declare function mount(element: HTMLElement, options?: AguiChatOptions): AguiChatHandle;
/** Unmounts the chat in `element`. */
export declare function unmount(element: HTMLElement): Promise<boolean>;
/** Mounts every `[data-agui-endpoint]` element under `root` (default: the document). */
export declare function scan(root?: ParentNode): Promise<void>;
/** Sign-out: every chat forgets what it keeps in this browser (see `AguiChatApi.forget`). */
export declare function forget(): number;
/** Sends the conversations this browser had before the site's thread store to it. */
export declare function uploadLocal(): Promise<number>;
/** `await ready` loads the chat and gives its API; importing it loads nothing. */
export declare const ready: PromiseLike<AguiChatApi>;
/**
 * Where the chat's files are served from, for a site that serves the package's `dist/cdn/`
 * folder itself (a CDN): a URL of that folder. Call it before the first chat loads; by
 * default the files are where the bundler put them.
 */
export declare function setAssetPath(url: string | URL): void;
