//! Interrupt cards (spec digest §4.11): one card per open interrupt at the end of the
//! transcript, each asking for one answer, plus "Send answers" when there are several.
//!
//! What a card asks for depends on the interrupt ([`card_kind`]):
//! - **LangChain human-in-the-loop** (`action_requests` + `review_configs`, in the legacy
//!   `on_interrupt` value or the metadata): one section per action request with its allowed
//!   decisions — approve, edit (a JSON editor prefilled with the args), reject (an optional
//!   message); the payload is `{"decisions": [...]}` in action order.
//! - **Approval** (the `responseSchema` has a boolean `approved`, the approve-with-edits
//!   convention of §4.11.5; or a `tool_call`/`confirmation` interrupt without a schema):
//!   Approve / Reject, an "Edit arguments" editor when the schema allows `editedArgs` (sent as
//!   a full replacement), a reason field when it has `reason`, and a generated form for any
//!   other properties.
//! - **Choice**: a legacy `{message, options}` value → one button per option.
//! - **Form**: any other `responseSchema` → a generated form ([`crate::ui::hitl::schema_form`]).
//! - **Free text**: nothing to go on (e.g. a plain-text legacy question) → a text answer.
//!
//! An interrupt with `expiresAt` shows a countdown; once expired the card only offers Cancel
//! (an expired interrupt can only be covered by `cancelled`). Answers are recorded in the
//! store ([`AgentStore::answer_interrupt`]); a card then shows "Answered" and can be changed
//! until the answers are sent. Focus moves to the first card when interrupts open.
//!
//! Everything here is agent output rendered as text: messages, schemas, arguments.

use leptos::html::Div;
use leptos::prelude::*;
use serde_json::{Map, Value};
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};

use crate::i18n::{fill, Strings};
use crate::protocol::resume::{is_expired, remaining_ms};
use crate::protocol::types::{Interrupt, ResumeStatus};
use crate::store::AgentStore;
use crate::store::HitlError;
use crate::ui::hitl::schema_form::{FormState, SchemaForm};
use crate::ui::lazy::split;
use crate::ui::{tr, tr_now};
use crate::view::format::format_countdown;
use crate::view::interrupt::{
    answer_summary, approval_payload, card_kind, hitl_payload, parse_args_object, pretty,
    ActionReview, ApprovalSpec, CardKind, Decision, DecisionAnswer,
};
use crate::view::tool::preview_of;
use crate::wording;

// ---- the list ----------------------------------------------------------------------------

/// Focus the first interrupt card inside `container`.
fn focus_first_card(container: NodeRef<Div>) {
    request_animation_frame(move || {
        let Some(Some(el)) = container.try_get_untracked() else {
            return;
        };
        if let Some(card) = el
            .query_selector(r#"[data-testid="interrupt"]"#)
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = card.focus();
        }
    });
}

split!(hitl:
    /// The open interrupts' cards (the lean widget fetches them when a run first asks).
    pub fn interrupt_list() -> AnyView {
        view! { <InterruptList /> }.into_any()
    }
);

/// The open interrupts of the thread, at the end of the transcript.
#[component]
pub fn InterruptList() -> impl IntoView {
    let store = AgentStore::expect();
    let hitl = store.hitl_version();
    let interrupts = Memo::new(move |_| store.run.with(|r| r.interrupts.clone()));
    let count = Memo::new(move |_| interrupts.with(Vec::len));
    let progress = Memo::new(move |_| {
        hitl.track();
        interrupts.track();
        store.interrupt_progress()
    });
    let error = RwSignal::new(None::<HitlError>);
    let container: NodeRef<Div> = NodeRef::new();

    // New interrupts: the person's attention (and keyboard) goes to the first card.
    Effect::new(move |prev: Option<Vec<String>>| {
        let ids: Vec<String> = interrupts.with(|is| is.iter().map(|i| i.id.clone()).collect());
        if !ids.is_empty() && prev.as_ref() != Some(&ids) {
            focus_first_card(container);
        }
        ids
    });

    let send = move |_| match store.send_answers() {
        Ok(()) => error.set(None),
        Err(e) => error.set(Some(e)),
    };

    view! {
        <div class="agui-interrupts" data-testid="interrupts" node_ref=container>
            <For
                each=move || interrupts.get()
                key=|i| serde_json::to_string(i).unwrap_or_else(|_| i.id.clone())
                children=|i| view! { <InterruptCard interrupt=i /> }
            />
            <Show when=move || { count.get() > 1 }>
                <div class="agui-interrupts__footer">
                    <span class="agui-interrupts__progress" data-testid="interrupt-progress">
                        {move || {
                            let (a, n) = progress.get();
                            fill(tr(store).interrupts_progress, &[&a, &n])
                        }}
                    </span>
                    <button
                        type="button"
                        class="agui-button agui-button--primary"
                        data-testid="interrupt-send-all"
                        disabled=move || {
                            let (a, n) = progress.get();
                            a < n || store.running.get()
                        }
                        on:click=send
                    >
                        {move || tr(store).send_answers}
                    </button>
                    {move || {
                        error
                            .get()
                            .map(|e| {
                                view! {
                                    <p class="agui-interrupt__error" data-testid="interrupt-error" role="alert">
                                        {move || wording::hitl_error(tr(store), &e)}
                                    </p>
                                }
                            })
                    }}
                </div>
            </Show>
        </div>
    }
}

// ---- one card ----------------------------------------------------------------------------

/// What every body needs: how to record an answer, and when the controls are off.
#[derive(Clone, Copy)]
struct Ctx {
    store: AgentStore,
    id: StoredValue<String>,
    error: RwSignal<Option<HitlError>>,
    /// Controls are off: a run is in flight or the answer is recorded.
    locked: Signal<bool>,
}

impl Ctx {
    fn answer(&self, payload: Value) {
        let id = self.id.get_value();
        match self.store.answer_interrupt(&id, payload) {
            Ok(()) => self.error.set(None),
            Err(e) => self.error.set(Some(e)),
        }
    }

    fn cancel(&self) {
        let id = self.id.get_value();
        match self.store.cancel_interrupt(&id) {
            Ok(()) => self.error.set(None),
            Err(e) => self.error.set(Some(e)),
        }
    }
}

/// The gated tool call of an interrupt: (name, arguments) from the thread.
fn gated_call(store: AgentStore, i: &Interrupt) -> Option<(String, Value)> {
    let id = i.tool_call_id.as_deref()?;
    store.with_thread(|t| {
        let (_, call) = t.tool_call(id)?;
        let text = call.function.arguments.trim();
        let args = if text.is_empty() {
            Value::Object(Map::new())
        } else {
            serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
        };
        Some((call.function.name.clone(), args))
    })
}

/// One open interrupt.
#[component]
pub fn InterruptCard(
    /// The interrupt to answer.
    interrupt: Interrupt,
) -> impl IntoView {
    let store = AgentStore::expect();
    let hitl = store.hitl_version();
    let id = interrupt.id.clone();
    let kind = card_kind(&interrupt);
    let gated = gated_call(store, &interrupt);

    let answer = {
        let id = id.clone();
        Memo::new(move |_| {
            hitl.track();
            store.interrupt_answer(&id)
        })
    };
    // Expiry: a clock ticking once a second, only for interrupts that expire.
    let now = RwSignal::new(js_sys::Date::now());
    if interrupt.expires_at.is_some() {
        if let Ok(handle) = set_interval_with_handle(
            move || {
                now.try_set(js_sys::Date::now());
            },
            std::time::Duration::from_millis(1000),
        ) {
            on_cleanup(move || handle.clear());
        }
    }
    let expiring = interrupt.clone();
    let expired = Memo::new(move |_| is_expired(&expiring, now.get()));
    let counting = interrupt.clone();
    let remaining = Memo::new(move |_| remaining_ms(&counting, now.get()));

    let answered = Memo::new(move |_| answer.with(Option::is_some));
    let locked = Signal::derive(move || store.running.get() || answered.get());
    let ctx = Ctx {
        store,
        id: StoredValue::new(id.clone()),
        error: RwSignal::new(None),
        locked,
    };

    let state = move || {
        if answered.get() {
            "answered"
        } else if expired.get() {
            "expired"
        } else {
            "open"
        }
    };
    let title_of = match &kind {
        CardKind::Hitl(_) | CardKind::Approval(_) => |t: &Strings| t.interrupt_approval,
        CardKind::Choice(_) => |t: &Strings| t.interrupt_question,
        CardKind::Form(_) | CardKind::FreeText => |t: &Strings| t.interrupt_input,
    };
    let title = move || title_of(tr(store));
    let title_id = format!("agui-interrupt-{}", sanitize(&id));
    let message = interrupt.message.clone().filter(|m| !m.trim().is_empty());
    let reason = interrupt.reason.clone();

    let gated_view = gated.clone().map(|(name, args)| {
        let text = pretty(&args);
        let shown = preview_of(&text).unwrap_or(text);
        view! {
            <div class="agui-interrupt__call" data-testid="interrupt-tool-call">
                <div class="agui-interrupt__call-name">
                    <span class="agui-interrupt__call-label">{move || tr(store).interrupt_tool_call}</span>
                    <code data-testid="interrupt-tool-name">{name}</code>
                </div>
                <pre class="agui-interrupt__call-args" data-testid="interrupt-tool-args">{shown}</pre>
            </div>
        }
    });

    let body = match kind {
        CardKind::Hitl(reviews) => hitl_body(ctx, reviews),
        CardKind::Approval(spec) => approval_body(ctx, spec, gated.map(|(_, a)| a)),
        CardKind::Choice(options) => choice_body(ctx, options),
        CardKind::Form(schema) => form_body(ctx, &schema),
        CardKind::FreeText => free_text_body(ctx),
    };

    let countdown = move || {
        remaining.get().map(|ms| {
            let t = tr(store);
            let text = if ms <= 0.0 {
                t.interrupt_expired_badge.to_owned()
            } else {
                fill(t.interrupt_expires_in, &[&format_countdown(ms, t)])
            };
            view! {
                <span
                    class="agui-interrupt__expiry"
                    class:agui-interrupt__expiry--over=move || expired.get()
                    data-testid="interrupt-expiry"
                >
                    {text}
                </span>
            }
        })
    };

    let clear_id = id.clone();
    let answered_view = move || {
        answer.get().map(|entry| {
            let summary = answer_summary(&entry, tr(store));
            let cancelled = entry.status == ResumeStatus::Cancelled;
            let clear_id = clear_id.clone();
            view! {
                <div class="agui-interrupt__answered" data-testid="interrupt-answered">
                    <span class="agui-interrupt__answered-label">
                        {move || {
                            let t = tr(store);
                            if cancelled { t.interrupt_cancelled } else { t.interrupt_answered }
                        }}
                    </span>
                    <span class="agui-interrupt__answered-summary">{summary}</span>
                    <button
                        type="button"
                        class="agui-button agui-button--ghost"
                        data-testid="interrupt-change"
                        disabled=move || store.running.get()
                        on:click=move |_| store.clear_interrupt_answer(&clear_id)
                    >
                        {move || tr(store).interrupt_change}
                    </button>
                </div>
            }
        })
    };

    let reason_attr = reason.clone();
    let labelled_by = title_id.clone();
    view! {
        <section
            class="agui-interrupt"
            data-testid="interrupt"
            data-interrupt-id=id
            data-reason=reason_attr
            data-state=state
            tabindex="-1"
            role="group"
            aria-labelledby=labelled_by
        >
            <header class="agui-interrupt__header">
                <span class="agui-interrupt__icon" aria-hidden="true"></span>
                <h3 class="agui-interrupt__title" id=title_id>{title}</h3>
                <span class="agui-interrupt__reason" data-testid="interrupt-reason">{reason}</span>
                {countdown}
            </header>
            {message.map(|m| view! {
                <p class="agui-interrupt__message" data-testid="interrupt-message">{m}</p>
            })}
            {gated_view}
            {answered_view}
            <Show when=move || expired.get() && !answered.get()>
                <p class="agui-interrupt__expired" data-testid="interrupt-expired">
                    {move || tr(store).interrupt_expired}
                </p>
            </Show>
            <div
                class="agui-interrupt__body"
                hidden=move || answered.get() || expired.get()
            >
                {move || (!expired.get()).then(|| body.run())}
            </div>
            {move || {
                ctx.error
                    .get()
                    .map(|e| {
                        view! {
                            <p class="agui-interrupt__error" data-testid="interrupt-error" role="alert">
                                {move || wording::hitl_error(tr(ctx.store), &e)}
                            </p>
                        }
                    })
            }}
            <Show when=move || !answered.get()>
                <div class="agui-interrupt__footer">
                    <button
                        type="button"
                        class="agui-button agui-button--ghost agui-interrupt__cancel"
                        data-testid="interrupt-cancel"
                        disabled=move || store.running.get()
                        on:click=move |_| ctx.cancel()
                    >
                        {move || tr(store).interrupt_cancel}
                    </button>
                </div>
            </Show>
        </section>
    }
}

fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// A value the card bodies share between renders (the body is re-mounted when expiry flips,
/// never otherwise).
type Body = ViewFn;

fn approval_body(ctx: Ctx, spec: ApprovalSpec, args: Option<Value>) -> Body {
    let extra = spec
        .extra
        .as_ref()
        .map(|schema| FormState::new(schema, None));
    let reason = RwSignal::new(String::new());
    let editing = RwSignal::new(false);
    let edited = RwSignal::new(pretty(&args.unwrap_or_else(|| Value::Object(Map::new()))));
    let edit_error = RwSignal::new(None::<String>);
    let ApprovalSpec {
        edit_args,
        reason: has_reason,
        ..
    } = spec;
    let locked = ctx.locked;

    let decide = move |approved: bool| {
        let extra_value = match extra {
            Some(form) if approved => match form.submit() {
                Some(v) => Some(v),
                None => return,
            },
            _ => None,
        };
        let edited_args = if approved && edit_args && editing.get_untracked() {
            match parse_args_object(&edited.get_untracked(), tr_now(ctx.store)) {
                Ok(v) => Some(v),
                Err(e) => {
                    edit_error.set(Some(e));
                    return;
                }
            }
        } else {
            None
        };
        edit_error.set(None);
        let reason = has_reason.then(|| reason.get_untracked());
        ctx.answer(approval_payload(approved, edited_args, reason, extra_value));
    };

    ViewFn::from(move || {
        view! {
            <div class="agui-interrupt__approval">
                {extra.map(|state| view! { <SchemaForm state disabled=locked /> })}
                {has_reason.then(|| view! {
                    <label class="agui-form__label agui-interrupt__reason-label">
                        {move || tr(ctx.store).interrupt_reason}
                        <input
                            class="agui-form__input"
                            type="text"
                            data-testid="interrupt-reason-input"
                            autocomplete="off"
                            disabled=move || locked.get()
                            on:input=move |ev| {
                                let el: HtmlInputElement = event_target(&ev);
                                reason.set(el.value());
                            }
                        />
                    </label>
                })}
                {edit_args.then(|| {
                    view! {
                        <div class="agui-interrupt__edit">
                            <button
                                type="button"
                                class="agui-button agui-button--ghost"
                                data-testid="interrupt-edit-args"
                                aria-expanded=move || editing.get().to_string()
                                disabled=move || locked.get()
                                on:click=move |_| editing.update(|e| *e = !*e)
                            >
                                {move || {
                                    let t = tr(ctx.store);
                                    if editing.get() { t.interrupt_keep_args } else { t.interrupt_edit_args }
                                }}
                            </button>
                            <Show when=move || editing.get()>
                                <textarea
                                    class="agui-form__json agui-interrupt__args-editor"
                                    data-testid="interrupt-edited-args"
                                    aria-label=move || tr(ctx.store).interrupt_edited_args_label
                                    rows="6"
                                    spellcheck="false"
                                    disabled=move || locked.get()
                                    prop:value=edited.get_untracked()
                                    on:input=move |ev| {
                                        let el: HtmlTextAreaElement = event_target(&ev);
                                        edited.set(el.value());
                                        edit_error.set(None);
                                    }
                                ></textarea>
                            </Show>
                            {move || edit_error.get().map(|e| view! {
                                <p class="agui-form__error" data-testid="field-error" role="alert">{e}</p>
                            })}
                        </div>
                    }
                })}
                <div class="agui-interrupt__actions">
                    <button
                        type="button"
                        class="agui-button agui-button--primary"
                        data-testid="interrupt-approve"
                        disabled=move || locked.get()
                        on:click=move |_| decide(true)
                    >
                        {move || tr(ctx.store).approve}
                    </button>
                    <button
                        type="button"
                        class="agui-button agui-button--secondary"
                        data-testid="interrupt-reject"
                        disabled=move || locked.get()
                        on:click=move |_| decide(false)
                    >
                        {move || tr(ctx.store).reject}
                    </button>
                </div>
            </div>
        }
        .into_any()
    })
}

fn form_body(ctx: Ctx, schema: &Value) -> Body {
    let form = FormState::new(schema, None);
    let locked = ctx.locked;
    let submit = move || {
        if let Some(payload) = form.submit() {
            ctx.answer(payload);
        }
    };
    ViewFn::from(move || {
        answer_form(
            ctx,
            submit,
            view! { <SchemaForm state=form disabled=locked /> }.into_any(),
        )
    })
}

/// A form that answers the interrupt: `fields`, then the submit button.
fn answer_form(ctx: Ctx, submit: impl Fn() + 'static, fields: AnyView) -> AnyView {
    let locked = ctx.locked;
    view! {
        <form
            class="agui-interrupt__form"
            novalidate=true
            on:submit=move |ev| {
                ev.prevent_default();
                submit();
            }
        >
            {fields}
            <div class="agui-interrupt__actions">
                <button
                    type="submit"
                    class="agui-button agui-button--primary"
                    data-testid="interrupt-submit"
                    disabled=move || locked.get()
                >
                    {move || tr(ctx.store).submit}
                </button>
            </div>
        </form>
    }
    .into_any()
}

fn choice_body(ctx: Ctx, options: Vec<Value>) -> Body {
    let locked = ctx.locked;
    ViewFn::from(move || {
        let buttons = options
            .iter()
            .map(|o| {
                let label = crate::view::form::choice_label(o);
                let option_attr = label.clone();
                let value = o.clone();
                view! {
                    <button
                        type="button"
                        class="agui-button agui-button--secondary agui-interrupt__option"
                        data-testid="interrupt-option"
                        data-option=option_attr
                        disabled=move || locked.get()
                        on:click=move |_| ctx.answer(value.clone())
                    >
                        {label}
                    </button>
                }
            })
            .collect_view();
        view! { <div class="agui-interrupt__options" role="group">{buttons}</div> }.into_any()
    })
}

fn free_text_body(ctx: Ctx) -> Body {
    let text = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let locked = ctx.locked;
    let submit = move || {
        let t = text.get_untracked();
        if t.trim().is_empty() {
            error.set(Some(tr_now(ctx.store).interrupt_write_first.to_owned()));
            return;
        }
        error.set(None);
        ctx.answer(Value::String(t.trim().to_owned()));
    };
    ViewFn::from(move || {
        let fields = view! {
            <textarea
                class="agui-form__input agui-interrupt__text"
                data-testid="interrupt-text"
                aria-label=move || tr(ctx.store).interrupt_your_answer
                rows="2"
                placeholder=move || tr(ctx.store).interrupt_your_answer_placeholder
                disabled=move || locked.get()
                prop:value=text.get_untracked()
                on:input=move |ev| {
                    let el: HtmlTextAreaElement = event_target(&ev);
                    text.set(el.value());
                }
            ></textarea>
            {move || error.get().map(|e| view! {
                <p class="agui-form__error" data-testid="field-error" role="alert">{e}</p>
            })}
        };
        answer_form(ctx, submit, fields.into_any())
    })
}

/// One action request's decision state.
#[derive(Clone, Copy)]
struct ActionState {
    decision: RwSignal<Option<Decision>>,
    edited: RwSignal<String>,
    message: RwSignal<String>,
}

fn hitl_body(ctx: Ctx, reviews: Vec<ActionReview>) -> Body {
    let states: Vec<ActionState> = reviews
        .iter()
        .map(|r| ActionState {
            // A lone allowed decision is pre-selected.
            decision: RwSignal::new(match r.allowed.as_slice() {
                [only] => Some(*only),
                _ => None,
            }),
            edited: RwSignal::new(pretty(&r.args)),
            message: RwSignal::new(String::new()),
        })
        .collect();
    let error = RwSignal::new(None::<String>);
    let locked = ctx.locked;
    let reviews = StoredValue::new(reviews);
    let states = StoredValue::new(states);

    let submit = move || {
        let mut answers = Vec::new();
        let problem = reviews.with_value(|reviews| {
            states.with_value(|states| {
                for (n, (r, s)) in reviews.iter().zip(states).enumerate() {
                    let answer = match s.decision.get_untracked() {
                        None => {
                            return Some(fill(
                                tr_now(ctx.store).interrupt_choose_decision,
                                &[&(n + 1), &r.name],
                            ))
                        }
                        Some(Decision::Approve) => DecisionAnswer::Approve,
                        Some(Decision::Reject) => DecisionAnswer::Reject {
                            message: Some(s.message.get_untracked()),
                        },
                        Some(Decision::Edit) => {
                            match parse_args_object(&s.edited.get_untracked(), tr_now(ctx.store)) {
                                Ok(args) => DecisionAnswer::Edit {
                                    name: r.name.clone(),
                                    args,
                                },
                                Err(e) => return Some(format!("{} ({}): {e}", n + 1, r.name)),
                            }
                        }
                    };
                    answers.push(answer);
                }
                None
            })
        });
        match problem {
            Some(p) => error.set(Some(p)),
            None => {
                error.set(None);
                ctx.answer(hitl_payload(&answers));
            }
        }
    };

    ViewFn::from(move || {
        let sections = reviews.with_value(|reviews| {
            states.with_value(|states| {
                reviews
                    .iter()
                    .zip(states.iter().copied())
                    .enumerate()
                    .map(|(n, (r, s))| action_view(n, r.clone(), s, locked))
                    .collect_view()
            })
        });
        view! {
            <div class="agui-interrupt__hitl">
                {sections}
                {move || error.get().map(|e| view! {
                    <p class="agui-form__error" data-testid="field-error" role="alert">{e}</p>
                })}
                <div class="agui-interrupt__actions">
                    <button
                        type="button"
                        class="agui-button agui-button--primary"
                        data-testid="interrupt-submit"
                        disabled=move || locked.get()
                        on:click=move |_| submit()
                    >
                        {move || tr(ctx.store).interrupt_submit_decisions}
                    </button>
                </div>
            </div>
        }
        .into_any()
    })
}

fn action_view(n: usize, r: ActionReview, s: ActionState, locked: Signal<bool>) -> impl IntoView {
    let store = AgentStore::expect();
    let args_text = pretty(&r.args);
    let args_shown = preview_of(&args_text).unwrap_or(args_text);
    let buttons = r
        .allowed
        .iter()
        .map(|d| {
            let d = *d;
            view! {
                <button
                    type="button"
                    class="agui-button agui-button--secondary agui-interrupt__decision"
                    class:agui-interrupt__decision--chosen=move || s.decision.get() == Some(d)
                    data-testid=format!("hitl-{}", d.name())
                    data-decision=d.name()
                    aria-pressed=move || (s.decision.get() == Some(d)).to_string()
                    disabled=move || locked.get()
                    on:click=move |_| s.decision.set(Some(d))
                >
                    {move || d.label(tr(store))}
                </button>
            }
        })
        .collect_view();
    view! {
        <div
            class="agui-interrupt__action"
            data-testid="hitl-action"
            data-action-index=n.to_string()
            data-action-name=r.name.clone()
        >
            <div class="agui-interrupt__call-name">
                <span class="agui-interrupt__call-label">{move || tr(store).interrupt_action}</span>
                <code>{r.name.clone()}</code>
            </div>
            {r.description.clone().map(|d| view! { <p class="agui-interrupt__action-description">{d}</p> })}
            <pre class="agui-interrupt__call-args" data-testid="hitl-args">{args_shown}</pre>
            <div class="agui-interrupt__decisions" role="group" aria-label=move || tr(store).interrupt_decision_label>{buttons}</div>
            <Show when=move || s.decision.get() == Some(Decision::Edit)>
                <textarea
                    class="agui-form__json agui-interrupt__args-editor"
                    data-testid="hitl-edit-args"
                    aria-label=move || tr(store).interrupt_edited_args_json
                    rows="6"
                    spellcheck="false"
                    disabled=move || locked.get()
                    prop:value=s.edited.get_untracked()
                    on:input=move |ev| {
                        let el: HtmlTextAreaElement = event_target(&ev);
                        s.edited.set(el.value());
                    }
                ></textarea>
            </Show>
            <Show when=move || s.decision.get() == Some(Decision::Reject)>
                <input
                    class="agui-form__input"
                    type="text"
                    data-testid="hitl-reject-message"
                    aria-label=move || tr(store).interrupt_message_label
                    placeholder=move || tr(store).interrupt_message_placeholder
                    autocomplete="off"
                    disabled=move || locked.get()
                    prop:value=s.message.get_untracked()
                    on:input=move |ev| {
                        let el: HtmlInputElement = event_target(&ev);
                        s.message.set(el.value());
                    }
                />
            </Show>
        </div>
    }
}
