//! Endpoint settings: which agent the chat talks to (the offline demo agent, or an AG-UI
//! endpoint URL — relative URLs work) and optional request headers given as a JSON object.
//! Invalid input is reported inline and nothing is applied.

use leptos::prelude::*;
use serde_json::Value;
use web_sys::KeyboardEvent;

use crate::i18n::{fill, Strings};
use crate::store::AgentStore;
use crate::ui::{tr, tr_now};

/// Why the headers field was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HeaderError {
    /// Not JSON at all (the parser's message).
    InvalidJson(String),
    /// JSON, but not an object.
    NotAnObject,
    /// A name that is not an HTTP token.
    BadName(String),
    /// A value that is an object, an array or null.
    ValueNotString(String),
    /// A value with CR or LF (header injection).
    LineBreak(String),
}

impl HeaderError {
    /// The message in the UI language.
    pub fn message(&self, t: &Strings) -> String {
        match self {
            HeaderError::InvalidJson(e) => fill(t.headers_invalid_json, &[e]),
            HeaderError::NotAnObject => t.headers_not_object.to_owned(),
            HeaderError::BadName(n) => fill(t.headers_bad_name, &[n]),
            HeaderError::ValueNotString(n) => fill(t.headers_value_not_string, &[n]),
            HeaderError::LineBreak(n) => fill(t.headers_value_line_break, &[n]),
        }
    }
}

/// An HTTP header name (RFC 9110 `token`).
fn valid_header_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// Parse the headers field: empty, or a JSON object of string (or number/boolean) values.
pub fn parse_headers(text: &str) -> Result<Vec<(String, String)>, HeaderError> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let value: Value =
        serde_json::from_str(text).map_err(|e| HeaderError::InvalidJson(e.to_string()))?;
    let Value::Object(map) = value else {
        return Err(HeaderError::NotAnObject);
    };
    map.into_iter()
        .map(|(name, value)| {
            if !valid_header_name(&name) {
                return Err(HeaderError::BadName(name));
            }
            let value = match value {
                Value::String(s) => s,
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                _ => return Err(HeaderError::ValueNotString(name)),
            };
            if value.chars().any(|c| c == '\r' || c == '\n') {
                return Err(HeaderError::LineBreak(name));
            }
            Ok((name, value))
        })
        .collect()
}

/// The headers as the JSON object text the form edits.
fn headers_text(headers: &[(String, String)]) -> String {
    if headers.is_empty() {
        return String::new();
    }
    let map: serde_json::Map<String, Value> = headers
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    serde_json::to_string_pretty(&Value::Object(map)).unwrap_or_default()
}

/// Which agent is used, and a form to change it.
#[component]
pub fn EndpointSettings() -> impl IntoView {
    let store = AgentStore::expect();
    let (open, set_open) = signal(false);
    let (url, set_url) = signal(String::new());
    let (headers, set_headers) = signal(String::new());
    let (error, set_error) = signal(None::<String>);

    let label = move || {
        store
            .config
            .with(|c| c.endpoint.clone())
            .unwrap_or_else(|| tr(store).demo_agent_label.to_owned())
    };
    let on_demo = move || store.config.with(|c| c.endpoint.is_none());

    let toggle = move |_| {
        if !open.get_untracked() {
            // Start from what is in use.
            store.config.with_untracked(|c| {
                set_url.set(c.endpoint.clone().unwrap_or_default());
                set_headers.set(headers_text(&c.headers));
            });
            set_error.set(None);
        }
        set_open.update(|o| *o = !*o);
    };
    let apply = move || match parse_headers(&headers.get_untracked()) {
        Err(e) => set_error.set(Some(e.message(tr_now(store)))),
        Ok(parsed) => {
            let endpoint = url.with_untracked(|u| u.trim().to_owned());
            let mut config = store.config.get_untracked();
            config.endpoint = (!endpoint.is_empty()).then_some(endpoint);
            config.headers = parsed;
            store.set_config(config);
            set_error.set(None);
            set_open.set(false);
        }
    };
    let use_demo = move |_| {
        let mut config = store.config.get_untracked();
        config.endpoint = None;
        config.headers = Vec::new();
        store.set_config(config);
        set_error.set(None);
        set_open.set(false);
    };

    view! {
        <div
            class="agui-settings"
            data-testid="settings"
            on:keydown=move |ev: KeyboardEvent| {
                if ev.key() == "Escape" {
                    set_open.set(false);
                }
            }
        >
            <button
                type="button"
                class="agui-settings__toggle"
                data-testid="settings-toggle"
                aria-expanded=move || open.get().to_string()
                aria-haspopup="dialog"
                title=move || tr(store).settings_toggle_title
                on:click=toggle
            >
                <span
                    class="agui-settings__dot"
                    class:agui-settings__dot--remote=move || !on_demo()
                    aria-hidden="true"
                ></span>
                <span class="agui-settings__label" data-testid="agent-label">
                    {label}
                </span>
                <span class="agui-settings__chevron" aria-hidden="true">
                    "▾"
                </span>
            </button>
            <Show when=move || open.get()>
                <form
                    class="agui-settings__panel"
                    data-testid="settings-form"
                    role="dialog"
                    aria-label=move || tr(store).settings_label
                    on:submit=move |ev| {
                        ev.prevent_default();
                        apply();
                    }
                >
                    <label class="agui-field">
                        <span class="agui-field__label">{move || tr(store).settings_endpoint_label}</span>
                        <input
                            class="agui-field__input"
                            data-testid="settings-endpoint"
                            type="text"
                            inputmode="url"
                            placeholder="https://example.com/agent"
                            prop:value=move || url.get()
                            on:input=move |ev| set_url.set(event_target_value(&ev))
                        />
                        <span class="agui-field__hint">
                            {move || tr(store).settings_endpoint_hint}
                        </span>
                    </label>
                    <label class="agui-field">
                        <span class="agui-field__label">{move || tr(store).settings_headers_label}</span>
                        <textarea
                            class="agui-field__input agui-field__input--mono"
                            data-testid="settings-headers"
                            rows="3"
                            placeholder=r#"{"Authorization": "Bearer …"}"#
                            prop:value=move || headers.get()
                            on:input=move |ev| set_headers.set(event_target_value(&ev))
                        ></textarea>
                    </label>
                    {move || {
                        error
                            .get()
                            .map(|e| {
                                view! {
                                    <p class="agui-field__error" data-testid="settings-error" role="alert">
                                        {e}
                                    </p>
                                }
                            })
                    }}
                    <div class="agui-settings__actions">
                        <button
                            type="button"
                            class="agui-button agui-button--ghost"
                            data-testid="settings-demo"
                            on:click=use_demo
                        >
                            {move || tr(store).settings_use_demo}
                        </button>
                        <button
                            type="submit"
                            class="agui-button agui-button--primary"
                            data-testid="settings-apply"
                        >
                            {move || tr(store).settings_apply}
                        </button>
                    </div>
                </form>
            </Show>
        </div>
    }
}
