//! A Leptos app that uses agui-leptos as a library, through its prelude only: an [`AgentProvider`]
//! on an [`AgentConfig`] holds the conversation; inside it, a bar of the page's own beside the chat
//! sends with `use_agent().send` and follows the state at `/forecast` with `use_agent_state`, and
//! the [`AgentChat`] gets [`Plugins`] of the app's — a card for its `get_weather` tool that fills
//! in while the arguments stream (`use_tool_call(id).args()`), a side panel, a suggestion chip, and
//! a small local agent so it runs offline.
//!
//! Point it at a real AG-UI endpoint at build time: `AGENT_ENDPOINT=/api/agent trunk serve`.

#[cfg(target_arch = "wasm32")]
mod app {
    use agui_leptos::prelude::*;
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
        /// The tool call's id.
        id: String,
    ) -> impl IntoView {
        // Re-read only when this call changes: its arguments as they stream, then its result.
        let call = use_tool_call(&id);
        let (args, status) = (call.clone(), call.clone());
        let city = move || {
            args.args()
                .and_then(|a| a.get("city")?.as_str().map(str::to_owned))
                .unwrap_or_else(|| "…".to_owned())
        };
        let done = move || status.status() == Some(ToolStatus::Success);
        let view = call.view;
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

    /// The forecast at `/forecast` in words (`None` before there is one).
    fn summary(forecast: Option<Value>) -> Option<String> {
        let v = forecast?;
        Some(format!("{}: {} °C", v["city"].as_str()?, v["tempC"]))
    }

    /// A side panel in the chat, bound to `/forecast`: re-rendered only when that path changes.
    #[component]
    fn ForecastPanel() -> impl IntoView {
        let forecast = use_agent_state("/forecast");
        view! {
            <section class="forecast-panel" data-testid="forecast-panel" aria-label="Forecast">
                <h3>"Forecast"</h3>
                <p>{move || summary(forecast.get()).unwrap_or_else(|| "Ask about a city.".to_owned())}</p>
            </section>
        }
    }

    /// The page's own bar beside the chat (outside it, under the same provider): a button that
    /// asks the agent, busy while a run is under way, and the forecast the state holds.
    #[component]
    fn QuickAsk() -> impl IntoView {
        let agent = use_agent();
        let forecast = use_agent_state("/forecast");
        view! {
            <nav class="quick-ask" aria-label="Quick questions">
                <button
                    data-testid="ask-porto"
                    disabled=move || agent.is_running.get()
                    on:click=move |_| agent.send.run("What's the weather in Porto?".to_owned())
                >
                    "Weather in Porto"
                </button>
                <span data-testid="quick-forecast">
                    {move || summary(forecast.get()).unwrap_or_default()}
                </span>
            </nav>
        }
    }

    pub fn main() {
        console_error_panic_hook::set_once();
        let config = AgentConfig {
            endpoint: option_env!("AGENT_ENDPOINT").map(str::to_owned),
            ..AgentConfig::default()
        };
        let plugins = Plugins::new()
            .local_agent(WeatherAgent)
            .tool_renderer("get_weather", |call| {
                let id = call.id.to_string();
                view! { <WeatherCard id /> }.into_any()
            })
            .side_panel(|| view! { <ForecastPanel /> }.into_any())
            .suggestion("What's the weather in Lisbon?", None)
            .welcome(|_| "Ask about the weather in any city.".to_owned());
        mount_to_body(move || {
            view! {
                <AgentProvider config=config.clone() storage_prefix="weather-desk">
                    <QuickAsk />
                    <AgentChat plugins=plugins.clone() title="Weather desk" page=true />
                </AgentProvider>
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
