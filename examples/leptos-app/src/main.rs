//! A Leptos app that uses agui-leptos as a library, through its public surface only: the
//! [`AgentChat`] component on an [`AgentConfig`], with [`Plugins`] of its own — a card for its
//! `get_weather` tool that fills in while the arguments stream, a side panel bound to the
//! agent state at `/forecast`, a suggestion chip, and a small local agent so it runs offline.
//!
//! Point it at a real AG-UI endpoint at build time: `AGENT_ENDPOINT=/api/agent trunk serve`.

#[cfg(target_arch = "wasm32")]
mod app {
    use agui_leptos::session::{LocalAgent, TimedChunk};
    use agui_leptos::{AgentChat, AgentConfig, AgentStore, Plugins, ToolCallView, ToolStatus};
    use leptos::prelude::*;
    use serde_json::{json, Value};

    /// The weather agent: answers any question with a `get_weather` call (its arguments
    /// streamed in pieces), the forecast as a state delta, and a sentence.
    struct WeatherAgent;

    impl LocalAgent for WeatherAgent {
        fn respond(&self, input: &Value) -> Vec<TimedChunk> {
            let get = |k: &str| input.get(k).and_then(Value::as_str).unwrap_or_default();
            let (thread, run) = (get("threadId"), get("runId"));
            let asked = input
                .get("messages")
                .and_then(Value::as_array)
                .and_then(|m| m.iter().rev().find(|m| m["role"] == "user"))
                .and_then(|m| m["content"].as_str())
                .unwrap_or_default();
            let city = ["Lisbon", "Porto", "Berlin", "Tokyo"]
                .into_iter()
                .find(|c| asked.to_lowercase().contains(&c.to_lowercase()))
                .unwrap_or("Lisbon");
            let (call, text) = (format!("w-{run}"), format!("t-{run}"));
            let forecast = json!({"city": city, "tempC": 21, "sky": "sunny"});
            let events = [
                json!({"type": "RUN_STARTED", "threadId": thread, "runId": run}),
                json!({"type": "STATE_SNAPSHOT", "snapshot": {"forecast": null}}),
                json!({"type": "TOOL_CALL_START", "toolCallId": call, "toolCallName": "get_weather"}),
                json!({"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": "{\"city\": \""}),
                json!({"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": &city[..2]}),
                json!({"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": format!("{}\"}}", &city[2..])}),
                json!({"type": "TOOL_CALL_END", "toolCallId": call}),
                json!({"type": "TOOL_CALL_RESULT", "messageId": format!("r-{run}"), "toolCallId": call, "content": forecast.to_string()}),
                json!({"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/forecast", "value": forecast}]}),
                json!({"type": "TEXT_MESSAGE_START", "messageId": text, "role": "assistant"}),
                json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": text, "delta": format!("It is **21 °C** and sunny in {city}.")}),
                json!({"type": "TEXT_MESSAGE_END", "messageId": text}),
                json!({"type": "RUN_FINISHED", "threadId": thread, "runId": run}),
            ];
            events
                .into_iter()
                .map(|e| TimedChunk {
                    delay_ms: 250,
                    bytes: format!("data: {e}\n\n").into_bytes(),
                })
                .collect()
        }
    }

    /// The card for `get_weather`: the city as soon as it streams, then the forecast.
    #[component]
    fn WeatherCard(
        /// The tool call's live view.
        call: ToolCallView,
    ) -> impl IntoView {
        let view = call.view;
        let city = move || {
            view.with(|v| {
                v.as_ref()
                    .and_then(|v| v.args.as_ref()?.get("city")?.as_str().map(str::to_owned))
            })
            .unwrap_or_else(|| "…".to_owned())
        };
        let done = move || view.with(|v| v.as_ref().map(|v| v.status)) == Some(ToolStatus::Success);
        let temperature = move || {
            view.with(|v| {
                let text = v.as_ref()?.result.as_ref()?.text().into_owned();
                let value: Value = serde_json::from_str(&text).ok()?;
                Some(format!("{} °C, {}", value["tempC"], value["sky"].as_str()?))
            })
        };
        view! {
            <div class="weather-card" data-testid="weather-card">
                <div>"Weather in " <strong data-testid="weather-city">{city}</strong></div>
                <div class="weather-card__temp" data-testid="weather-temp">
                    {move || if done() { temperature() } else { Some("looking it up…".to_owned()) }}
                </div>
            </div>
        }
    }

    /// A side panel bound to `/forecast`: re-rendered only when that path changes.
    #[component]
    fn ForecastPanel() -> impl IntoView {
        let store = AgentStore::expect();
        let path = store.path_signal("/forecast");
        let summary = Memo::new(move |_| {
            path.track();
            store.with_state("/forecast", |v| {
                let v = v?;
                Some(format!("{}: {} °C", v["city"].as_str()?, v["tempC"]))
            })
        });
        view! {
            <section class="forecast-panel" data-testid="forecast-panel" aria-label="Forecast">
                <h3>"Forecast"</h3>
                <p>{move || summary.get().unwrap_or_else(|| "Ask about a city.".to_owned())}</p>
            </section>
        }
    }

    pub fn main() {
        console_error_panic_hook::set_once();
        let config = AgentConfig {
            endpoint: option_env!("AGENT_ENDPOINT").map(str::to_owned),
            // The local agent's chunks carry its timing: play them as they are.
            demo_speed: 1.0,
            ..AgentConfig::default()
        };
        let plugins = Plugins::new()
            .local_agent(WeatherAgent)
            .tool_renderer("get_weather", |call| {
                view! { <WeatherCard call /> }.into_any()
            })
            .side_panel(|| view! { <ForecastPanel /> }.into_any())
            .suggestion("What's the weather in Lisbon?", None)
            .welcome(|_| "Ask about the weather in any city.".to_owned());
        mount_to_body(move || {
            view! {
                <AgentChat
                    config=config.clone()
                    plugins=plugins.clone()
                    storage_prefix="weather-desk"
                    title="Weather desk"
                    page=true
                />
            }
        });
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {
    app::main();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    println!("a browser app: `cd examples/leptos-app && trunk serve`");
}
