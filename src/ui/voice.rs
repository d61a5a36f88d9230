//! Voice (issue 31, item 6), the browser side of [`crate::view::voice`]: dictation into the
//! composer and an answer read aloud.
//!
//! **Dictation** ([`Dictation`]): the page's `voice` option shows a microphone button beside
//! attach. `transcribe` asks for the microphone (`getUserMedia`), records with
//! `MediaRecorder` until the button is pressed again (5 minutes at most), and hands the
//! recording to the page's hook ([`crate::plugins::Plugins::transcribe`]); `browser` listens
//! with the browser's `SpeechRecognition`. Either way the text goes into the composer at the
//! caret, through the same path typing takes (an `input` event: the draft, Send and the height
//! follow), and is never sent by itself. Cancel or Escape discards. What fails is a quiet line
//! under the composer. The microphone's tracks are stopped when the recording ends, is
//! cancelled, and when the composer goes.
//!
//! The button, the status line and what lets the microphone go are here, in the lean widget's
//! main module; what records, listens and transcribes ([`voice_press`]) is in its `run`
//! module, fetched when the person starts typing or presses the button.
//!
//! **Read aloud** ([`read_aloud_button`], in `run` with the answers): `speechSynthesis` reads
//! an answer's text (its Markdown's marks, code fences and link URLs left out) in the chat's
//! language; pressing it again, or another answer's, stops it; it stops when the answers go.
//!
//! Every browser object is reached by name (`Reflect`), so a browser without one of them only
//! lacks the button, and a test can stand in for them.

use std::future::Future;
use std::task::Poll;
use std::time::Duration;

use js_sys::{Array, Function, Object, Promise, Reflect};
use leptos::html::Textarea;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::KeyboardEvent;

use crate::plugins::TranscribeHook;
use crate::store::AgentStore;
use crate::ui::lazy::split;
use crate::ui::tr;
use crate::view::voice::{self as model, Voice, VoiceNote};

/// Where a dictation is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Idle,
    /// Asked for the microphone (the browser may be asking the person).
    Waiting,
    /// `MediaRecorder` records.
    Recording,
    /// The browser's speech recognition listens.
    Listening,
    /// The page's hook turns the recording into text.
    Transcribing,
}

impl Phase {
    /// The microphone is (about to be) on: the button is pressed.
    fn hearing(self) -> bool {
        matches!(self, Phase::Waiting | Phase::Recording | Phase::Listening)
    }
}

/// A handler given to a browser object (an event's).
type Handler = Closure<dyn FnMut(JsValue)>;

/// What the browser holds for the dictation under way.
#[derive(Default)]
struct Live {
    /// Bumped when a dictation starts and when one is let go: a callback or an answer of an
    /// earlier one finds another number and does nothing.
    generation: u32,
    stream: Option<JsValue>,
    /// The `MediaRecorder` or the `SpeechRecognition`.
    source: Option<JsValue>,
    handlers: Vec<Handler>,
    chunks: Vec<JsValue>,
    bytes: f64,
    /// Characters put into the composer by this dictation (the browser's, result by result).
    put: usize,
    clock: Option<IntervalHandle>,
    limit: Option<TimeoutHandle>,
}

/// The composer's dictation: its state, and what it holds of the browser.
#[derive(Clone, Copy)]
pub struct Dictation {
    mode: Voice,
    store: AgentStore,
    input: NodeRef<Textarea>,
    hook: StoredValue<Option<TranscribeHook>>,
    phase: RwSignal<Phase>,
    seconds: RwSignal<u32>,
    /// The browser's words not final yet (shown, not inserted).
    interim: RwSignal<String>,
    note: RwSignal<Option<VoiceNote>>,
    live: StoredValue<Live, LocalStorage>,
}

/// A property of a JS object (`undefined` when there is none or it cannot be read).
fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn set(target: &JsValue, key: &str, value: &JsValue) {
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}

/// Calls `target[method](...args)`.
fn call(target: &JsValue, method: &str, args: &Array) -> Result<JsValue, JsValue> {
    let f: Function = get(target, method)
        .dyn_into()
        .map_err(|_| JsValue::from_str(&format!("no {method}()")))?;
    f.apply(target, args)
}

fn global(name: &str) -> JsValue {
    get(&js_sys::global(), name)
}

/// The browser's speech recognition constructor (`SpeechRecognition`, or Chrome's and
/// Safari's `webkitSpeechRecognition`).
fn recognition() -> Option<Function> {
    ["SpeechRecognition", "webkitSpeechRecognition"]
        .iter()
        .find_map(|name| global(name).dyn_into::<Function>().ok())
}

/// A JS error's message (or the value as text).
fn reason(e: &JsValue) -> String {
    match e.dyn_ref::<js_sys::Error>() {
        Some(err) => String::from(err.message()),
        None => e
            .as_string()
            .or_else(|| get(e, "message").as_string())
            .unwrap_or_else(|| "unknown error".to_owned()),
    }
}

/// Stops every track of a `MediaStream` (the browser's microphone indicator goes off).
fn stop_tracks(stream: &JsValue) {
    if let Ok(tracks) = call(stream, "getTracks", &Array::new()) {
        if let Some(tracks) = tracks.dyn_ref::<Array>() {
            for track in tracks.iter() {
                let _ = call(&track, "stop", &Array::new());
            }
        }
    }
}

impl Dictation {
    /// The composer's dictation, when the page asked for one this browser can give (the
    /// browser's recognition needs `SpeechRecognition`). The microphone is let go when the
    /// composer goes.
    pub fn new(
        store: AgentStore,
        mode: Voice,
        hook: Option<TranscribeHook>,
        input: NodeRef<Textarea>,
    ) -> Option<Dictation> {
        let usable = match mode {
            Voice::Off => false,
            Voice::Transcribe => true,
            Voice::Browser => recognition().is_some(),
        };
        if !usable {
            return None;
        }
        let d = Dictation {
            mode,
            store,
            input,
            hook: StoredValue::new(hook),
            phase: RwSignal::new(Phase::Idle),
            seconds: RwSignal::new(0),
            interim: RwSignal::new(String::new()),
            note: RwSignal::new(None),
            live: StoredValue::new_local(Live::default()),
        };
        on_cleanup(move || {
            d.release();
        });
        Some(d)
    }

    /// Whether callbacks of dictation number `generation` still count.
    fn is(self, generation: u32) -> bool {
        self.live
            .try_with_value(|l| l.generation == generation)
            .unwrap_or(false)
    }

    /// Lets go of everything the browser holds for a dictation: the recorder or recognition
    /// stopped (its handlers first taken off, so what it still reports goes nowhere), the
    /// microphone's tracks stopped, the timers cleared, the audio dropped. Returns the new
    /// dictation number (what is still on its way for the old one does nothing).
    fn release(self) -> u32 {
        let Some(live) = self.live.try_update_value(std::mem::take) else {
            return 0;
        };
        let generation = live.generation.wrapping_add(1);
        self.live.update_value(|l| l.generation = generation);
        if let Some(source) = &live.source {
            for event in ["ondataavailable", "onstop", "onerror", "onresult", "onend"] {
                set(source, event, &JsValue::NULL);
            }
            if get(source, "state").as_string().as_deref() != Some("inactive") {
                // The recorder's `stop`, the recognition's `abort` (a recorder has none).
                let method = if self.mode == Voice::Browser {
                    "abort"
                } else {
                    "stop"
                };
                let _ = call(source, method, &Array::new());
            }
        }
        if let Some(stream) = &live.stream {
            stop_tracks(stream);
        }
        if let Some(clock) = live.clock {
            clock.clear();
        }
        if let Some(limit) = live.limit {
            limit.clear();
        }
        // A handler may be what runs now: it is dropped once it has returned.
        let handlers = live.handlers;
        if !handlers.is_empty() {
            leptos::task::spawn_local(async move { drop(handlers) });
        }
        generation
    }

    /// Discards the dictation under way (Cancel, Escape).
    pub fn cancel(self) {
        self.release();
        self.phase.try_set(Phase::Idle);
        self.interim.try_set(String::new());
    }

    /// Escape while the microphone is on (or the text is on its way) discards it; the key
    /// goes no further (a popup stays open).
    pub fn escape(self, ev: &KeyboardEvent) {
        if ev.key() == "Escape" && self.phase.get_untracked() != Phase::Idle {
            ev.prevent_default();
            ev.stop_propagation();
            self.cancel();
        }
    }

    /// The person typed: a note of an earlier dictation goes.
    pub fn typed(self) {
        if self.note.with_untracked(Option::is_some) {
            self.note.set(None);
        }
    }

    /// Ends the dictation with `note` shown.
    fn fail(self, note: VoiceNote) {
        self.release();
        self.phase.try_set(Phase::Idle);
        self.interim.try_set(String::new());
        self.note.try_set(Some(note));
    }
}

/// The microphone button (a toggle: pressed while the microphone is on).
pub fn voice_button(d: Dictation, locked: Memo<bool>) -> impl IntoView {
    let store = d.store;
    view! {
        <button
            type="button"
            class="agui-composer__voice"
            data-testid="voice"
            aria-label=move || tr(store).voice_button
            title=move || tr(store).voice_button
            aria-pressed=move || d.phase.get().hearing().to_string()
            // While the text is on its way a press does nothing; the button keeps the focus.
            aria-disabled=move || (d.phase.get() == Phase::Transcribing).then_some("true")
            disabled=move || locked.get()
            // (Fetches the `run` module first, when it is not here yet.)
            on:click=move |_| store.in_module(move || voice_press(d))
        >
            <svg class="agui-icon agui-composer__voice-icon" viewBox="0 0 24 24" aria-hidden="true">
                <rect x="9" y="3" width="6" height="11" rx="3" />
                <path d="M5 11a7 7 0 0 0 14 0M12 18v3" />
            </svg>
        </button>
    }
}

/// Under the composer: what dictation is doing (the clock and the browser's interim words are
/// for the eyes only: a screen reader hears the phase once), Cancel while it runs, and its
/// note.
pub fn voice_bar(d: Dictation) -> impl IntoView {
    let store = d.store;
    let phase = move || d.phase.get();
    let status = move || {
        let t = tr(store);
        match phase() {
            Phase::Idle => d
                .note
                .with(|n| n.as_ref().map(|n| crate::wording::voice_note(t, n)))
                .unwrap_or_default(),
            Phase::Waiting => t.voice_waiting.to_owned(),
            Phase::Recording => t.voice_recording.to_owned(),
            Phase::Listening => t.voice_listening.to_owned(),
            Phase::Transcribing => t.voice_transcribing.to_owned(),
        }
    };
    view! {
        <div
            class="agui-voice"
            class:agui-voice--on=move || phase().hearing()
            data-testid="voice-bar"
            hidden=move || phase() == Phase::Idle && d.note.with(Option::is_none)
        >
            <span class="agui-voice__dot" aria-hidden="true"></span>
            <span class="agui-voice__status" data-testid="voice-status" role="status">
                {status}
            </span>
            <span class="agui-voice__clock" data-testid="voice-clock" aria-hidden="true">
                {move || (phase() == Phase::Recording).then(|| model::clock(d.seconds.get()))}
            </span>
            <span class="agui-voice__interim" aria-hidden="true">{move || d.interim.get()}</span>
            <Show when=move || phase() != Phase::Idle>
                <button
                    type="button"
                    class="agui-button agui-button--secondary agui-voice__cancel"
                    data-testid="voice-cancel"
                    on:click=move |_| {
                        d.cancel();
                        if let Some(el) = d.input.get_untracked() {
                            let _ = el.focus();
                        }
                    }
                >
                    {move || tr(store).voice_cancel}
                </button>
            </Show>
        </div>
    }
}

split!(run:
    /// The microphone button was pressed: start (recording or listening), or stop and take
    /// the text (the lean widget's `run` module).
    pub fn voice_press(d: Dictation) -> () {
        press(d)
    }
);

fn press(d: Dictation) {
    match d.phase.get_untracked() {
        Phase::Idle => {
            d.note.set(None);
            match d.mode {
                Voice::Transcribe => record(d),
                Voice::Browser => listen(d),
                Voice::Off => {}
            }
        }
        Phase::Recording | Phase::Listening => stop(d),
        Phase::Waiting => d.cancel(),
        Phase::Transcribing => {}
    }
}

/// The recorder or the recognition asked to stop: the recorder then hands its audio over
/// (`stop`), the recognition its last words (`end`).
fn stop(d: Dictation) {
    if let Some(source) = d.live.with_value(|l| l.source.clone()) {
        let _ = call(&source, "stop", &Array::new());
    }
}

/// A handler of dictation number `generation`: `f` runs only while it is the one under way.
fn handler(d: Dictation, generation: u32, f: impl Fn(Dictation, JsValue) + 'static) -> Handler {
    Closure::new(move |event: JsValue| {
        if d.is(generation) {
            f(d, event);
        }
    })
}

/// The clock ticks, and the budget stops the dictation by itself after
/// [`model::MAX_RECORDING_MS`].
fn start_clock(d: Dictation, generation: u32) {
    let started = js_sys::Date::now();
    d.seconds.set(0);
    let clock = set_interval_with_handle(
        move || {
            if d.is(generation) {
                let seconds = ((js_sys::Date::now() - started) / 1000.0).max(0.0) as u32;
                d.seconds.try_set(seconds);
            }
        },
        Duration::from_millis(1000),
    )
    .ok();
    let limit = set_timeout_with_handle(
        move || {
            if d.is(generation) {
                stop(d);
            }
        },
        Duration::from_millis(u64::from(model::MAX_RECORDING_MS)),
    )
    .ok();
    d.live.update_value(|l| {
        l.clock = clock;
        l.limit = limit;
    });
}

/// `navigator.mediaDevices.getUserMedia({audio: true})`.
async fn microphone() -> Result<JsValue, JsValue> {
    let devices = get(&global("navigator"), "mediaDevices");
    if devices.is_undefined() || devices.is_null() {
        return Err(JsValue::from_str(
            "this page cannot use a microphone (it must be https)",
        ));
    }
    let constraints = Object::new();
    set(&constraints, "audio", &JsValue::TRUE);
    let asked = call(&devices, "getUserMedia", &Array::of1(&constraints))?;
    JsFuture::from(Promise::resolve(&asked)).await
}

/// Records with `MediaRecorder` once the microphone is there.
fn record(d: Dictation) {
    let Some(hook) = d.hook.get_value() else {
        d.fail(VoiceNote::NoHook);
        return;
    };
    let generation = d.release();
    d.phase.set(Phase::Waiting);
    leptos::task::spawn_local(async move {
        let stream = match microphone().await {
            Ok(stream) => stream,
            Err(e) => {
                if d.is(generation) {
                    let name = get(&e, "name").as_string().unwrap_or_default();
                    d.fail(match name.as_str() {
                        "NotAllowedError" | "SecurityError" => VoiceNote::Denied,
                        _ => VoiceNote::no_microphone(&reason(&e)),
                    });
                }
                return;
            }
        };
        if !d.is(generation) {
            // Cancelled (or the composer went) while the browser asked.
            stop_tracks(&stream);
            return;
        }
        d.live.update_value(|l| l.stream = Some(stream.clone()));
        if let Err(e) = start_recorder(d, generation, &stream, hook) {
            d.fail(VoiceNote::no_microphone(&reason(&e)));
        }
    });
}

fn start_recorder(
    d: Dictation,
    generation: u32,
    stream: &JsValue,
    hook: TranscribeHook,
) -> Result<(), JsValue> {
    let constructor: Function = global("MediaRecorder")
        .dyn_into()
        .map_err(|_| JsValue::from_str("this browser cannot record (no MediaRecorder)"))?;
    let recorder = Reflect::construct(&constructor, &Array::of1(stream))?;
    let data = handler(d, generation, |d, event| {
        let chunk = get(&event, "data");
        let size = get(&chunk, "size").as_f64().unwrap_or(0.0);
        if size <= 0.0 {
            return;
        }
        let bytes = d.live.with_value(|l| l.bytes) + size;
        d.live.update_value(|l| {
            l.chunks.push(chunk);
            l.bytes = bytes;
        });
        if bytes >= model::MAX_RECORDING_BYTES {
            stop(d);
        }
    });
    let stopped = handler(d, generation, move |d, _| transcribe(d, hook.clone()));
    let failed = handler(d, generation, |d, event| {
        let e = get(&event, "error");
        d.fail(VoiceNote::no_microphone(&reason(&e)));
    });
    set(&recorder, "ondataavailable", data.as_ref());
    set(&recorder, "onstop", stopped.as_ref());
    set(&recorder, "onerror", failed.as_ref());
    d.live.update_value(|l| {
        l.source = Some(recorder.clone());
        l.handlers.extend([data, stopped, failed]);
    });
    // A piece of audio every second (the byte budget is checked as it grows).
    call(&recorder, "start", &Array::of1(&JsValue::from_f64(1000.0)))?;
    d.phase.set(Phase::Recording);
    start_clock(d, generation);
    Ok(())
}

/// The recording is over: the microphone goes, the audio goes to the page's hook, its text
/// into the composer.
fn transcribe(d: Dictation, hook: TranscribeHook) {
    let recorder = d.live.with_value(|l| l.source.clone());
    let chunks = d
        .live
        .with_value(|l| l.chunks.iter().cloned().collect::<Array>());
    let generation = d.release();
    if chunks.length() == 0 {
        d.fail(VoiceNote::Empty);
        return;
    }
    let options = web_sys::BlobPropertyBag::new();
    if let Some(kind) = recorder.and_then(|r| get(&r, "mimeType").as_string()) {
        options.set_type(&kind);
    }
    let audio = match web_sys::Blob::new_with_blob_sequence_and_options(&chunks, &options) {
        Ok(audio) => audio,
        Err(e) => {
            d.fail(VoiceNote::failed(&reason(&e)));
            return;
        }
    };
    d.phase.set(Phase::Transcribing);
    leptos::task::spawn_local(async move {
        let mut text = hook(audio);
        let mut timeout = Box::pin(crate::transport::sleep(model::TRANSCRIBE_TIMEOUT_MS));
        let answer = std::future::poll_fn(|cx| {
            if let Poll::Ready(r) = text.as_mut().poll(cx) {
                return Poll::Ready(Some(r));
            }
            timeout.as_mut().poll(cx).map(|()| None)
        })
        .await;
        if !d.is(generation) {
            return;
        }
        d.phase.set(Phase::Idle);
        match answer {
            Some(Ok(text)) => put(d, &text, model::MAX_TRANSCRIPT_CHARS),
            Some(Err(e)) => d.fail(VoiceNote::failed(&e)),
            None => d.fail(VoiceNote::TimedOut),
        }
    });
}

/// Listens with the browser's speech recognition: final words go into the composer as they
/// come, the others show in the status line.
fn listen(d: Dictation) {
    let Some(constructor) = recognition() else {
        d.fail(VoiceNote::no_microphone("no speech recognition"));
        return;
    };
    let generation = d.release();
    let recognizer = match Reflect::construct(&constructor, &Array::new()) {
        Ok(r) => r,
        Err(e) => {
            d.fail(VoiceNote::no_microphone(&reason(&e)));
            return;
        }
    };
    let lang = d.store.config.with_untracked(|c| c.locale.tag());
    set(&recognizer, "lang", &JsValue::from_str(lang));
    set(&recognizer, "interimResults", &JsValue::TRUE);
    set(&recognizer, "continuous", &JsValue::TRUE);
    let result = handler(d, generation, heard);
    let failed = handler(d, generation, |d, event| {
        let code = get(&event, "error").as_string().unwrap_or_default();
        match code.as_str() {
            "not-allowed" | "service-not-allowed" => d.fail(VoiceNote::Denied),
            "no-speech" => d.fail(VoiceNote::Empty),
            "audio-capture" => d.fail(VoiceNote::no_microphone(&code)),
            "aborted" => d.cancel(),
            // `network`, `language-not-supported`…: the recognition failed.
            _ => d.fail(VoiceNote::failed(&code)),
        }
    });
    let ended = handler(d, generation, |d, _| {
        let heard_nothing = d.live.with_value(|l| l.put == 0);
        d.cancel();
        if heard_nothing {
            d.note.set(Some(VoiceNote::Empty));
        }
    });
    set(&recognizer, "onresult", result.as_ref());
    set(&recognizer, "onerror", failed.as_ref());
    set(&recognizer, "onend", ended.as_ref());
    d.live.update_value(|l| {
        l.source = Some(recognizer.clone());
        l.handlers.extend([result, failed, ended]);
    });
    d.phase.set(Phase::Waiting);
    if let Err(e) = call(&recognizer, "start", &Array::new()) {
        d.fail(VoiceNote::no_microphone(&reason(&e)));
        return;
    }
    d.phase.set(Phase::Listening);
    start_clock(d, generation);
}

/// At most this many results of one recognition event are read.
const MAX_RESULTS_PER_EVENT: u32 = 100;

/// A recognition `result` event: its final results inserted, the rest shown.
fn heard(d: Dictation, event: JsValue) {
    let results = get(&event, "results");
    let len = get(&results, "length").as_f64().unwrap_or(0.0) as u32;
    let from = get(&event, "resultIndex").as_f64().unwrap_or(0.0) as u32;
    let mut interim = String::new();
    for i in from..len.min(from.saturating_add(MAX_RESULTS_PER_EVENT)) {
        let result = Reflect::get_u32(&results, i).unwrap_or(JsValue::UNDEFINED);
        let best = Reflect::get_u32(&result, 0).unwrap_or(JsValue::UNDEFINED);
        let Some(text) = get(&best, "transcript").as_string() else {
            continue;
        };
        if get(&result, "isFinal").as_bool() == Some(true) {
            let left = model::MAX_TRANSCRIPT_CHARS.saturating_sub(d.live.with_value(|l| l.put));
            put(d, &text, left);
            if !d.phase.get_untracked().hearing() {
                // The budget is spent: the recognition was stopped.
                return;
            }
        } else if interim.chars().count() < model::MAX_INTERIM_CHARS {
            interim.push_str(&text);
        }
    }
    let (shown, _) = model::cut(&interim, model::MAX_INTERIM_CHARS);
    d.interim.set(shown.to_owned());
}

/// Puts a transcript into the composer at the caret (at most `left` characters: past them the
/// text is cut, with a note, and a recognition stops), through the path typing takes: the
/// `input` event updates the draft, Send and the height. The keyboard goes back to the text
/// box. Nothing is sent.
fn put(d: Dictation, text: &str, left: usize) {
    let (text, was_cut) = model::cut(text, left);
    let Some(el) = d.input.get_untracked() else {
        return;
    };
    if !text.is_empty() {
        let value = el.value();
        let end = value.encode_utf16().count() as u32;
        let start = el.selection_start().ok().flatten().unwrap_or(end);
        let stop = el.selection_end().ok().flatten().unwrap_or(start);
        let inserted = model::insert(&value, start, stop, text);
        el.set_value(&inserted.value);
        let _ = el.set_selection_range(inserted.caret, inserted.caret);
        if let Ok(input) = web_sys::Event::new("input") {
            let _ = el.dispatch_event(&input);
        }
        let _ = el.focus();
        let put = text.chars().count();
        d.live.update_value(|l| l.put = l.put.saturating_add(put));
    }
    if was_cut {
        if d.mode == Voice::Browser {
            d.cancel();
        }
        d.note
            .set(Some(VoiceNote::Cut(model::MAX_TRANSCRIPT_CHARS)));
    } else if text.is_empty() && d.mode == Voice::Transcribe {
        d.note.set(Some(VoiceNote::Empty));
    }
}

// ---- read aloud ------------------------------------------------------------------------------

/// An utterance being spoken, with the handler of its end.
type Utterance = (JsValue, Handler);

/// The answers' reader: which answer is being read (its row key and the utterance's number),
/// and the utterance with its handler.
#[derive(Clone, Copy)]
pub struct Speaker {
    speaking: RwSignal<Option<(String, u32)>>,
    utterance: StoredValue<Option<Utterance>, LocalStorage>,
    next: StoredValue<u32>,
}

/// The browser's `speechSynthesis` and `SpeechSynthesisUtterance`, when it has both.
fn synthesis() -> Option<(JsValue, Function)> {
    let synth = global("speechSynthesis");
    let utterance = global("SpeechSynthesisUtterance")
        .dyn_into::<Function>()
        .ok()?;
    (synth.is_object()).then_some((synth, utterance))
}

impl Speaker {
    /// Puts a reader in context for the answers below, when the browser can speak; it stops
    /// when they go.
    pub fn provide() {
        if synthesis().is_none() {
            return;
        }
        let speaker = Speaker {
            speaking: RwSignal::new(None),
            utterance: StoredValue::new_local(None),
            next: StoredValue::new(0),
        };
        on_cleanup(move || speaker.stop());
        provide_context(speaker);
    }

    /// Whether the answer `key` is being read (tracked).
    fn reads(self, key: &str) -> bool {
        self.speaking
            .with(|s| s.as_ref().is_some_and(|(k, _)| k == key))
    }

    /// Stops reading (nothing to cancel when nothing is read).
    fn stop(self) {
        if let Some(Some((utterance, handler))) = self.utterance.try_update_value(Option::take) {
            set(&utterance, "onend", &JsValue::NULL);
            set(&utterance, "onerror", &JsValue::NULL);
            // It may be what runs now: dropped once it has returned.
            leptos::task::spawn_local(async move { drop(handler) });
        }
        if self.speaking.try_with_untracked(Option::is_some) == Some(true) {
            if let Some((synth, _)) = synthesis() {
                let _ = call(&synth, "cancel", &Array::new());
            }
            self.speaking.try_set(None);
        }
    }

    /// Reads the answer `key` aloud, or stops when it is the one being read.
    fn toggle(self, store: AgentStore, key: &str) {
        let was_reading = self
            .speaking
            .with_untracked(|s| s.as_ref().is_some_and(|(k, _)| k == key));
        self.stop();
        if was_reading {
            return;
        }
        let text = store
            .with_message(key, |m| model::speakable(&m.text()))
            .unwrap_or_default();
        let Some((synth, constructor)) = synthesis().filter(|_| !text.is_empty()) else {
            return;
        };
        let Ok(utterance) =
            Reflect::construct(&constructor, &Array::of1(&JsValue::from_str(&text)))
        else {
            return;
        };
        let lang = store.config.with_untracked(|c| c.locale.tag());
        set(&utterance, "lang", &JsValue::from_str(lang));
        let n = self.next.get_value().wrapping_add(1);
        self.next.set_value(n);
        let speaking = self.speaking;
        let done = Closure::new(move |_: JsValue| {
            if speaking.try_with_untracked(|s| s.as_ref().map(|(_, m)| *m)) == Some(Some(n)) {
                speaking.try_set(None);
            }
        });
        set(&utterance, "onend", done.as_ref());
        set(&utterance, "onerror", done.as_ref());
        self.utterance.set_value(Some((utterance.clone(), done)));
        self.speaking.set(Some((key.to_owned(), n)));
        if call(&synth, "speak", &Array::of1(&utterance)).is_err() {
            self.stop();
        }
    }
}

/// "Read aloud" on a finished answer (a toggle: pressed while it is read); `None` where the
/// browser cannot speak. It stops when the answer goes.
pub fn read_aloud_button(store: AgentStore, key: String) -> Option<impl IntoView> {
    let speaker = use_context::<Speaker>()?;
    let key = StoredValue::new(key);
    on_cleanup(move || {
        let mine = key.try_with_value(|k| {
            speaker
                .speaking
                .try_with_untracked(|s| s.as_ref().is_some_and(|(r, _)| r == k))
        });
        if mine.flatten() == Some(true) {
            speaker.stop();
        }
    });
    Some(view! {
        <button
            type="button"
            class="agui-message__action agui-answer-actions__read"
            data-testid="read-aloud"
            aria-label=move || tr(store).read_aloud
            title=move || tr(store).read_aloud
            aria-pressed=move || key.with_value(|k| speaker.reads(k)).to_string()
            on:click=move |_| key.with_value(|k| speaker.toggle(store, k))
        >
            <svg class="agui-icon" viewBox="0 0 24 24" aria-hidden="true">
                <path d="M4 9v6h4l5 4V5L8 9zM16 9a4 4 0 0 1 0 6M18.5 6.5a7.5 7.5 0 0 1 0 11" />
            </svg>
        </button>
    })
}
