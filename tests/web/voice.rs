//! Browser tests of voice (headless Chromium; `src/ui/voice.rs`): dictation through a fake
//! microphone (`navigator.mediaDevices.getUserMedia`) and a fake `MediaRecorder`, the page's
//! `transcribe` hook (JS and Rust), the browser's speech recognition (a fake), and Read aloud
//! through a fake `speechSynthesis`. Nothing is ever sent by dictation.
#![cfg(target_arch = "wasm32")]

#[path = "support/mod.rs"]
mod web_support;

use agui_leptos::plugins::{Plugins, Voice};
use agui_leptos::transport::sleep;
use agui_leptos::{AgentConfig, AgentStore};
use serde_json::json;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

use web_support::{
    click_testid, composer, document, keydown, mount_chat_with, now, play_external, q_all, settle,
    testid, text_of, type_text, wait_until,
};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
const log = { gum: 0, recorders: 0, stopped: 0, slice: null, hook: [], fetches: 0,
              speak: [], cancel: 0, recognitions: 0 };
const saved = {};
function keep(name) { if (!(name in saved)) saved[name] = Object.getOwnPropertyDescriptor(globalThis, name); }
function replace(name, value) { keep(name); Object.defineProperty(globalThis, name, { value, configurable: true, writable: true }); }
export function reset_log() {
  Object.assign(log, { gum: 0, recorders: 0, stopped: 0, slice: null, hook: [], fetches: 0,
                       speak: [], cancel: 0, recognitions: 0 });
}
// A microphone: `deny` refuses it as a person would. Its stream's one track counts stops.
export function install_microphone(deny) {
  const devices = {
    async getUserMedia(constraints) {
      log.gum += 1;
      if (!constraints || constraints.audio !== true) throw new TypeError('audio expected');
      if (deny) throw new DOMException('Permission denied', 'NotAllowedError');
      const track = { kind: 'audio', stop() { log.stopped += 1; } };
      return { getTracks() { return [track]; } };
    },
  };
  Object.defineProperty(navigator, 'mediaDevices', { value: devices, configurable: true });
  // A recorder that hands over a small piece of audio, then `stop`, when stopped.
  replace('MediaRecorder', class {
    constructor(stream) { this.stream = stream; this.state = 'inactive'; this.mimeType = 'audio/webm;codecs=opus'; log.recorders += 1; }
    start(slice) { this.state = 'recording'; log.slice = slice; }
    stop() {
      if (this.state === 'inactive') throw new DOMException('not recording', 'InvalidStateError');
      this.state = 'inactive';
      setTimeout(() => {
        if (this.ondataavailable) this.ondataavailable({ data: new Blob(['fake opus audio'], { type: 'audio/webm' }) });
        if (this.onstop) this.onstop({});
      }, 5);
    }
  });
  // Nothing may be sent: every fetch is counted (and fails).
  keep('fetch');
  globalThis.fetch = async () => { log.fetches += 1; return new Response('no', { status: 500 }); };
}
export function restore() {
  delete navigator.mediaDevices;
  for (const [name, d] of Object.entries(saved)) {
    if (d) Object.defineProperty(globalThis, name, d); else delete globalThis[name];
    delete saved[name];
  }
}
export function log_of(key) { return log[key]; }
export function hook_calls() { return JSON.stringify(log.hook); }
export function speak_calls() { return JSON.stringify(log.speak); }
// The page's hook, JS: what it was given is kept.
export function mount_widget(el, answer) {
  return window.AguiChat.mount(el, {
    endpoint: '/voice-agent', threadKey: 'voice-' + Math.random(), voice: 'transcribe',
    transcribe: async (audio) => {
      log.hook.push([audio instanceof Blob, audio.type, audio.size]);
      if (answer === null) throw new Error('quota exceeded');
      return answer;
    },
  });
}
// A speech recognition: `start` says "book a" (not final yet), then "book a table" (final);
// `stop` ends it.
export function install_recognition() {
  replace('webkitSpeechRecognition', undefined);
  replace('SpeechRecognition', class {
    constructor() { log.recognitions += 1; this.started = false; }
    start() {
      this.started = true;
      log.lang = this.lang; log.interim = this.interimResults;
      const r = (text, isFinal) => Object.assign([{ transcript: text, confidence: 0.9 }], { isFinal });
      setTimeout(() => this.onresult && this.onresult({ resultIndex: 0, results: [r('book a', false)] }), 5);
      setTimeout(() => this.onresult && this.onresult({ resultIndex: 0, results: [r('book a table', true)] }), 40);
    }
    stop() { setTimeout(() => this.onend && this.onend({}), 5); }
    abort() { log.aborted = true; }
  });
}
export function remove_recognition() {
  replace('SpeechRecognition', undefined);
  replace('webkitSpeechRecognition', undefined);
}
// A speech synthesis that records what it is asked; `finish()` ends the utterance speaking.
let speaking = null;
export function install_synthesis() {
  speaking = null;
  replace('speechSynthesis', {
    speak(u) { log.speak.push([u.text, u.lang]); speaking = u; },
    cancel() { log.cancel += 1; const u = speaking; speaking = null; if (u && u.onerror) setTimeout(() => u.onerror({ error: 'canceled' }), 0); },
  });
  replace('SpeechSynthesisUtterance', class { constructor(text) { this.text = text; this.lang = ''; } });
}
export function finish_speaking() { const u = speaking; speaking = null; if (u && u.onend) u.onend({}); }
export function remove_synthesis() { replace('speechSynthesis', undefined); }
"#)]
extern "C" {
    fn reset_log();
    fn install_microphone(deny: bool);
    fn restore();
    fn log_of(key: &str) -> JsValue;
    fn hook_calls() -> String;
    fn speak_calls() -> String;
    fn mount_widget(el: &HtmlElement, answer: JsValue) -> JsValue;
    fn install_recognition();
    fn remove_recognition();
    fn install_synthesis();
    fn finish_speaking();
    fn remove_synthesis();
}

fn count(key: &str) -> u32 {
    log_of(key).as_f64().unwrap_or(-1.0) as u32
}

fn store() -> AgentStore {
    AgentStore::new(AgentConfig {
        endpoint: Some("/voice-agent".into()),
        ..AgentConfig::default()
    })
}

fn pressed(root: &Element, id: &str) -> Option<String> {
    testid(root, id).and_then(|b| b.get_attribute("aria-pressed"))
}

fn status(root: &Element) -> String {
    testid(root, "voice-status")
        .map(|s| text_of(&s))
        .unwrap_or_default()
}

fn bar_hidden(root: &Element) -> bool {
    testid(root, "voice-bar").is_some_and(|b| b.has_attribute("hidden"))
}

fn focused_is_composer(root: &Element) -> bool {
    let active = document().active_element();
    active.is_some() && active == testid(root, "composer-input")
}

/// The chat with dictation, its hook (Rust) answering `answer` (an `Err` rejects).
fn dictation(answer: Result<&'static str, &'static str>) -> Plugins {
    Plugins::new()
        .no_attachments()
        .voice(Voice::Transcribe)
        .transcribe(move |audio: web_sys::Blob| async move {
            assert!(audio.size() > 0.0, "the recording is handed over");
            answer.map(str::to_owned).map_err(str::to_owned)
        })
}

#[wasm_bindgen_test]
async fn dictation_puts_the_text_at_the_caret_keeps_the_draft_and_sends_nothing() {
    reset_log();
    install_microphone(false);
    let store = store();
    let (container, root, handle) = mount_chat_with(store, dictation(Ok("hello from the mic")));
    settle(&store).await;
    type_text(&root, "Please say");
    let mic = testid(&root, "voice").expect("the microphone button");
    assert_eq!(mic.get_attribute("aria-label").as_deref(), Some("Dictate"));
    assert_eq!(pressed(&root, "voice").as_deref(), Some("false"));
    assert!(q_all(&mic, "svg.agui-icon").len() == 1, "an inline icon");
    assert!(bar_hidden(&root), "nothing to say yet");

    click_testid(&root, "voice");
    wait_until(&store, "the recording", || {
        pressed(&root, "voice").as_deref() == Some("true") && status(&root).contains("Recording")
    })
    .await;
    assert_eq!(count("gum"), 1);
    assert_eq!(count("recorders"), 1);
    assert_eq!(
        count("slice"),
        1000,
        "audio comes in pieces (the byte budget)"
    );
    assert_eq!(
        testid(&root, "voice-status")
            .and_then(|s| s.get_attribute("role"))
            .as_deref(),
        Some("status")
    );
    assert_eq!(
        text_of(&testid(&root, "voice-clock").expect("the clock")),
        "0:00"
    );
    assert!(
        testid(&root, "voice-cancel").is_some(),
        "Cancel while recording"
    );
    assert!(!bar_hidden(&root));

    click_testid(&root, "voice");
    wait_until(&store, "the text in the composer", || {
        composer(&root).value() == "Please say hello from the mic"
    })
    .await;
    assert_eq!(pressed(&root, "voice").as_deref(), Some("false"));
    assert_eq!(count("stopped"), 1, "the microphone's track is stopped");
    assert!(
        focused_is_composer(&root),
        "the keyboard is back in the text box"
    );
    let caret = composer(&root).selection_start().ok().flatten();
    assert_eq!(caret, Some("Please say hello from the mic".len() as u32));
    // Through the path typing takes: the draft has it, Send can send it.
    assert_eq!(store.draft(), "Please say hello from the mic");
    let send = testid(&root, "composer-send").expect("send");
    assert!(!send.has_attribute("disabled"), "Send is enabled");
    // Never sent.
    sleep(50).await;
    settle(&store).await;
    assert_eq!(count("fetches"), 0, "nothing was sent");
    assert!(store.last_request().is_none());
    assert!(q_all(&root, r#"[data-testid="message"]"#).is_empty());
    assert!(bar_hidden(&root), "nothing left to say");

    drop(handle);
    container.remove();
    restore();
}

#[wasm_bindgen_test]
async fn the_page_s_js_hook_gets_the_recording_in_the_widget() {
    reset_log();
    install_microphone(false);
    agui_leptos::widget::start_with_demo(agui_leptos::demo::ui::plugins);
    let el: HtmlElement = document()
        .create_element("div")
        .unwrap()
        .dyn_into()
        .unwrap();
    document().body().unwrap().append_child(&el).unwrap();
    mount_widget(&el, JsValue::from_str("hello from the mic"));
    let frame = || {
        el.shadow_root()
            .and_then(|s| s.query_selector(".agui-frame").ok().flatten())
    };
    let deadline = now() + 5000.0;
    while frame().and_then(|f| testid(&f, "voice")).is_none() {
        assert!(now() < deadline, "the widget's microphone button");
        sleep(10).await;
    }
    let root = frame().expect("the frame");
    click_testid(&root, "voice");
    let deadline = now() + 5000.0;
    while pressed(&root, "voice").as_deref() != Some("true") {
        assert!(now() < deadline, "recording");
        sleep(10).await;
    }
    click_testid(&root, "voice");
    let deadline = now() + 5000.0;
    while composer(&root).value() != "hello from the mic" {
        assert!(now() < deadline, "the text: {:?}", composer(&root).value());
        sleep(10).await;
    }
    assert_eq!(
        hook_calls(),
        r#"[[true,"audio/webm;codecs=opus",15]]"#,
        "one Blob, the recorder's type"
    );
    assert_eq!(count("stopped"), 1);
    assert_eq!(count("fetches"), 0, "nothing was sent");
    window_unmount(&el);
    el.remove();

    // A hook that rejects: its reason under the composer, nothing inserted.
    let el: HtmlElement = document()
        .create_element("div")
        .unwrap()
        .dyn_into()
        .unwrap();
    document().body().unwrap().append_child(&el).unwrap();
    mount_widget(&el, JsValue::NULL);
    let frame = || {
        el.shadow_root()
            .and_then(|s| s.query_selector(".agui-frame").ok().flatten())
    };
    let deadline = now() + 5000.0;
    while frame().and_then(|f| testid(&f, "voice")).is_none() {
        assert!(now() < deadline, "the second widget's microphone button");
        sleep(10).await;
    }
    let root = frame().expect("the frame");
    click_testid(&root, "voice");
    let deadline = now() + 5000.0;
    while pressed(&root, "voice").as_deref() != Some("true") {
        assert!(now() < deadline, "recording");
        sleep(10).await;
    }
    click_testid(&root, "voice");
    let deadline = now() + 5000.0;
    while !status(&root).contains("quota exceeded") {
        assert!(now() < deadline, "the rejection: {:?}", status(&root));
        sleep(10).await;
    }
    assert_eq!(composer(&root).value(), "");
    assert_eq!(count("stopped"), 2);
    window_unmount(&el);
    el.remove();
    restore();
}

#[wasm_bindgen_test]
async fn a_long_transcription_is_cut_with_a_note() {
    reset_log();
    install_microphone(false);
    let store = store();
    let long: &'static str = Box::leak("word ".repeat(5_000).into_boxed_str());
    let (container, root, handle) = mount_chat_with(store, dictation(Ok(long)));
    settle(&store).await;
    click_testid(&root, "voice");
    wait_until(&store, "recording", || {
        pressed(&root, "voice").as_deref() == Some("true")
    })
    .await;
    click_testid(&root, "voice");
    wait_until(&store, "the text", || !composer(&root).value().is_empty()).await;
    let chars = composer(&root).value().chars().count();
    assert!(
        (19_990..=20_000).contains(&chars),
        "{chars} characters kept"
    );
    assert!(
        status(&root).contains("first 20,000 characters"),
        "{:?}",
        status(&root)
    );
    drop(handle);
    container.remove();
    restore();
}

fn window_unmount(el: &HtmlElement) {
    let api = js_sys::Reflect::get(&web_sys::window().unwrap(), &"AguiChat".into()).unwrap();
    let f: js_sys::Function = js_sys::Reflect::get(&api, &"unmount".into())
        .unwrap()
        .dyn_into()
        .unwrap();
    f.call1(&api, el).unwrap();
}

#[wasm_bindgen_test]
async fn cancel_and_escape_discard_the_recording_and_let_the_microphone_go() {
    reset_log();
    install_microphone(false);
    let store = store();
    let (container, root, handle) = mount_chat_with(store, dictation(Ok("never shown")));
    settle(&store).await;
    type_text(&root, "kept");

    click_testid(&root, "voice");
    wait_until(&store, "recording", || {
        pressed(&root, "voice").as_deref() == Some("true")
    })
    .await;
    click_testid(&root, "voice-cancel");
    settle(&store).await;
    assert_eq!(pressed(&root, "voice").as_deref(), Some("false"));
    assert_eq!(count("stopped"), 1, "the track is stopped");
    assert!(testid(&root, "voice-cancel").is_none());
    sleep(60).await;
    settle(&store).await;
    assert_eq!(composer(&root).value(), "kept", "nothing was inserted");
    assert!(bar_hidden(&root));

    // Escape while recording, from the text box.
    click_testid(&root, "voice");
    wait_until(&store, "recording again", || {
        pressed(&root, "voice").as_deref() == Some("true")
    })
    .await;
    let esc = keydown("Escape");
    composer(&root).dispatch_event(&esc).unwrap();
    assert!(esc.default_prevented(), "the key was the dictation's");
    settle(&store).await;
    assert_eq!(pressed(&root, "voice").as_deref(), Some("false"));
    assert_eq!(count("stopped"), 2);
    sleep(60).await;
    settle(&store).await;
    assert_eq!(composer(&root).value(), "kept");
    // An Escape with nothing recording is not taken.
    let esc = keydown("Escape");
    composer(&root).dispatch_event(&esc).unwrap();
    assert!(!esc.default_prevented());

    drop(handle);
    container.remove();
    restore();
}

#[wasm_bindgen_test]
async fn a_failing_hook_or_a_refused_microphone_says_so_quietly() {
    reset_log();
    install_microphone(false);
    let store = store();
    let (container, root, handle) = mount_chat_with(store, dictation(Err("quota exceeded")));
    settle(&store).await;
    click_testid(&root, "voice");
    wait_until(&store, "recording", || {
        pressed(&root, "voice").as_deref() == Some("true")
    })
    .await;
    click_testid(&root, "voice");
    wait_until(&store, "the hook's failure", || {
        status(&root).contains("could not be turned into text: quota exceeded")
    })
    .await;
    assert_eq!(composer(&root).value(), "", "nothing inserted");
    assert_eq!(pressed(&root, "voice").as_deref(), Some("false"));
    assert_eq!(count("stopped"), 1);
    assert!(testid(&root, "voice-cancel").is_none());
    // Typing takes the note away.
    type_text(&root, "x");
    settle(&store).await;
    assert!(bar_hidden(&root));
    drop(handle);
    container.remove();
    restore();

    // A refused microphone: no recorder.
    reset_log();
    install_microphone(true);
    let store = self::store();
    let (container, root, handle) = mount_chat_with(store, dictation(Ok("unused")));
    settle(&store).await;
    click_testid(&root, "voice");
    wait_until(&store, "the refusal", || {
        status(&root).contains("The microphone is not allowed")
    })
    .await;
    assert_eq!(count("recorders"), 0);
    assert_eq!(pressed(&root, "voice").as_deref(), Some("false"));
    drop(handle);
    container.remove();
    restore();

    // No hook: the microphone is not even asked for.
    reset_log();
    install_microphone(false);
    let store = self::store();
    let plugins = Plugins::new().voice(Voice::Transcribe);
    let (container, root, handle) = mount_chat_with(store, plugins);
    settle(&store).await;
    click_testid(&root, "voice");
    wait_until(&store, "no hook", || status(&root).contains("not set up")).await;
    assert_eq!(count("gum"), 0);
    drop(handle);
    container.remove();
    restore();
}

#[wasm_bindgen_test]
async fn leaving_while_recording_lets_the_microphone_go() {
    reset_log();
    install_microphone(false);
    let store = store();
    let (container, root, handle) = mount_chat_with(store, dictation(Ok("unused")));
    settle(&store).await;
    click_testid(&root, "voice");
    wait_until(&store, "recording", || {
        pressed(&root, "voice").as_deref() == Some("true")
    })
    .await;
    assert_eq!(count("stopped"), 0);
    drop(handle);
    assert_eq!(count("stopped"), 1, "unmounted: the track is stopped");
    container.remove();
    sleep(50).await;
    restore();
}

#[wasm_bindgen_test]
async fn no_button_unless_the_page_asks_and_the_browser_can() {
    reset_log();
    let store = store();
    let (container, root, handle) = mount_chat_with(store, Plugins::new());
    settle(&store).await;
    assert!(testid(&root, "voice").is_none(), "voice is off by default");
    assert!(testid(&root, "voice-bar").is_none());
    drop(handle);
    container.remove();

    remove_recognition();
    let store = self::store();
    let (container, root, handle) = mount_chat_with(store, Plugins::new().voice(Voice::Browser));
    settle(&store).await;
    assert!(
        testid(&root, "voice").is_none(),
        "no speech recognition in this browser: no button"
    );
    drop(handle);
    container.remove();
    restore();
}

#[wasm_bindgen_test]
async fn the_browser_s_recognition_inserts_its_final_words() {
    reset_log();
    install_microphone(false);
    install_recognition();
    let store = AgentStore::new(AgentConfig {
        endpoint: Some("/voice-agent".into()),
        locale: agui_leptos::i18n::Locale::De,
        ..AgentConfig::default()
    });
    let (container, root, handle) = mount_chat_with(store, Plugins::new().voice(Voice::Browser));
    settle(&store).await;
    click_testid(&root, "voice");
    wait_until(&store, "listening", || {
        pressed(&root, "voice").as_deref() == Some("true")
    })
    .await;
    assert_eq!(
        log_of("lang").as_string().as_deref(),
        Some("de"),
        "the chat's language"
    );
    assert_eq!(log_of("interim").as_bool(), Some(true));
    wait_until(&store, "the final words", || {
        composer(&root).value() == "book a table"
    })
    .await;
    assert_eq!(
        pressed(&root, "voice").as_deref(),
        Some("true"),
        "still listening"
    );
    click_testid(&root, "voice");
    wait_until(&store, "the end", || {
        pressed(&root, "voice").as_deref() == Some("false")
    })
    .await;
    assert_eq!(composer(&root).value(), "book a table");
    assert_eq!(
        count("gum"),
        0,
        "the browser asks for the microphone itself"
    );
    assert_eq!(count("fetches"), 0);
    drop(handle);
    container.remove();
    restore();
}

// ---- read aloud -------------------------------------------------------------------------------

fn answers(store: &AgentStore) {
    let thread_id = store.thread_id();
    play_external(
        store,
        [
            json!({"type": "RUN_STARTED", "threadId": thread_id, "runId": "r-1"}),
            json!({"type": "TEXT_MESSAGE_START", "messageId": "a-1", "role": "assistant"}),
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a-1",
                   "delta": "Try **Bar Azul** ([site](https://azul.example))."}),
            json!({"type": "TEXT_MESSAGE_END", "messageId": "a-1"}),
            json!({"type": "TEXT_MESSAGE_START", "messageId": "a-2", "role": "assistant"}),
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a-2", "delta": "Second answer."}),
            json!({"type": "TEXT_MESSAGE_END", "messageId": "a-2"}),
            json!({"type": "RUN_FINISHED", "threadId": thread_id, "runId": "r-1"}),
        ],
    );
}

fn read_buttons(root: &Element) -> Vec<Element> {
    q_all(root, r#"[data-testid="read-aloud"]"#)
}

fn pressed_list(root: &Element) -> Vec<String> {
    read_buttons(root)
        .iter()
        .map(|b| b.get_attribute("aria-pressed").unwrap_or_default())
        .collect()
}

#[wasm_bindgen_test]
async fn read_aloud_speaks_one_answer_at_a_time_and_stops() {
    reset_log();
    install_synthesis();
    let store = store();
    let (container, root, handle) = mount_chat_with(store, Plugins::new());
    answers(&store);
    wait_until(&store, "two answers with their actions", || {
        read_buttons(&root).len() == 2
    })
    .await;
    let first = read_buttons(&root)[0].clone();
    assert_eq!(
        first.get_attribute("aria-label").as_deref(),
        Some("Read aloud")
    );
    assert_eq!(pressed_list(&root), ["false", "false"]);

    web_support::click(&first);
    settle(&store).await;
    assert_eq!(
        speak_calls(),
        r#"[["Try Bar Azul (site).","en"]]"#,
        "its text, without Markdown or the URL, in the chat's language"
    );
    assert_eq!(pressed_list(&root), ["true", "false"]);

    // Again: it stops.
    web_support::click(&first);
    settle(&store).await;
    assert_eq!(count("cancel"), 1);
    assert_eq!(pressed_list(&root), ["false", "false"]);

    // The first, then the second: the first stops.
    web_support::click(&first);
    settle(&store).await;
    web_support::click(&read_buttons(&root)[1]);
    sleep(20).await;
    settle(&store).await;
    assert_eq!(count("cancel"), 2);
    assert_eq!(pressed_list(&root), ["false", "true"]);
    assert!(speak_calls().ends_with(r#"["Second answer.","en"]]"#));

    // Done speaking: not pressed any more.
    finish_speaking();
    settle(&store).await;
    assert_eq!(pressed_list(&root), ["false", "false"]);

    // Leaving while it speaks stops it.
    web_support::click(&first);
    settle(&store).await;
    let cancels = count("cancel");
    drop(handle);
    assert_eq!(count("cancel"), cancels + 1, "unmounted: speech cancelled");
    container.remove();
    sleep(20).await;
    restore();

    // No speech synthesis: no button.
    reset_log();
    remove_synthesis();
    let store = self::store();
    let (container, root, handle) = mount_chat_with(store, Plugins::new());
    answers(&store);
    wait_until(&store, "the answers' actions", || {
        testid(&root, "copy-answer").is_some()
    })
    .await;
    assert!(read_buttons(&root).is_empty());
    drop(handle);
    container.remove();
    restore();
}
