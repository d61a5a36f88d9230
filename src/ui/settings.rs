//! Endpoint settings: which agent the chat talks to (the offline demo agent, or an
//! endpoint URL — relative URLs work), optional request headers given as a JSON object, and
//! the protocol its requests use where the bundle speaks more than one (AG-UI, AG-UI with
//! protobuf admitted, the AI SDK's UI message stream). Invalid input is reported inline and
//! nothing is applied.

use leptos::prelude::*;
use serde_json::Value;
use web_sys::KeyboardEvent;

pub use crate::embed::parse_headers;
use crate::protocol::Wire;
use crate::session::AgentConfig;
use crate::store::AgentStore;
use crate::ui::lazy::split;
use crate::ui::{tr, tr_now};

/// The protocols this bundle speaks, as the form offers them: `(value, label)`.
fn protocols() -> Vec<(&'static str, &'static str)> {
    let mut all = vec![("ag-ui", "AG-UI")];
    if Wire::Proto.available() {
        all.push(("protobuf", "AG-UI, protobuf allowed"));
    }
    if Wire::AiSdk.available() {
        all.push(("ai-sdk", "AI SDK UI message stream"));
    }
    all
}

/// The form's protocol value for a configuration, and back.
fn protocol_of(wire: Wire, protobuf: bool) -> &'static str {
    match (wire, protobuf) {
        (Wire::AiSdk, _) => "ai-sdk",
        (_, true) => "protobuf",
        _ => "ag-ui",
    }
}

fn set_protocol(config: &mut AgentConfig, value: &str) {
    (config.wire, config.protobuf) = match value {
        "ai-sdk" if Wire::AiSdk.available() => (Wire::AiSdk, false),
        "protobuf" if Wire::Proto.available() => (Wire::AgUi, true),
        _ => (Wire::AgUi, false),
    };
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

split!(settings:
    /// The agent picker (the lean widget fetches it where the page shows it).
    pub fn endpoint_settings() -> AnyView {
        view! { <EndpointSettings /> }.into_any()
    }
);

/// Which agent is used, and a form to change it.
#[component]
pub fn EndpointSettings() -> impl IntoView {
    let store = AgentStore::expect();
    let (open, set_open) = signal(false);
    let (url, set_url) = signal(String::new());
    let (headers, set_headers) = signal(String::new());
    let (protocol, set_protocol_value) = signal("ag-ui");
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
                set_protocol_value.set(protocol_of(c.wire, c.protobuf));
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
            set_protocol(&mut config, protocol.get_untracked());
            store.set_config(config);
            set_error.set(None);
            set_open.set(false);
        }
    };
    // Only where this bundle speaks more than one.
    let protocol_field = move || {
        let choices = protocols();
        (choices.len() > 1).then(|| view! {
            <label class="agui-field">
                <span class="agui-field__label">{move || tr(store).settings_protocol_label}</span>
                <select
                    class="agui-field__input"
                    data-testid="settings-protocol"
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        let known = protocols().into_iter().find(|(k, _)| *k == v);
                        set_protocol_value.set(known.map_or("ag-ui", |(k, _)| k));
                    }
                >
                    {choices
                        .into_iter()
                        .map(|(value, label)| {
                            view! {
                                <option value=value selected=move || protocol.get() == value>
                                    {label}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
        })
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
                    {protocol_field}
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
