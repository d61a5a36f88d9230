//! A form generated from a JSON Schema (an interrupt's `responseSchema`, spec digest §2.5 and
//! §4.11.5): the payload the person sends should validate against it. The model — which input
//! each schema gets, what is checked — is [`crate::view::form`]; this component only renders
//! it and keeps the raw input texts.
//!
//! The schema comes from the agent: titles, descriptions and enum values reach the DOM only as
//! text nodes and attribute values, never as markup.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};

use leptos::prelude::*;
use serde_json::Value;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

use crate::store::AgentStore;
use crate::ui::tr;
use crate::view::form::{
    choice_label, collect, fmt_num, form_fields, initial_inputs, Field, FieldError, FieldKind,
};

// ---- the component ---------------------------------------------------------------------------

/// A unique id prefix per rendered form (labels point at inputs by id).
fn next_form_id() -> u32 {
    static NEXT: AtomicU32 = AtomicU32::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A form's model, raw input texts and current errors. `Copy`: the form and the buttons that
/// submit it share one.
#[derive(Clone, Copy)]
pub struct FormState {
    root: StoredValue<Field>,
    inputs: StoredValue<HashMap<String, String>>,
    errors: RwSignal<Vec<FieldError>>,
    id: u32,
}

impl FormState {
    /// A form for `schema`, prefilled from `initial` (an earlier answer) and the defaults.
    pub fn new(schema: &Value, initial: Option<&Value>) -> Self {
        let root = form_fields(schema);
        let inputs = initial_inputs(&root, initial);
        FormState {
            root: StoredValue::new(root),
            inputs: StoredValue::new(inputs),
            errors: RwSignal::new(Vec::new()),
            id: next_form_id(),
        }
    }

    /// Validate: the payload, or `None` with the errors shown next to their fields.
    pub fn submit(&self) -> Option<Value> {
        let result = self
            .root
            .with_value(|root| self.inputs.with_value(|inputs| collect(root, inputs)));
        match result {
            Ok(v) => {
                self.errors.set(Vec::new());
                Some(v)
            }
            Err(e) => {
                self.errors.set(e);
                None
            }
        }
    }

    fn set(&self, pointer: &str, value: String) {
        self.inputs.update_value(|m| {
            m.insert(pointer.to_owned(), value);
        });
        if self
            .errors
            .with_untracked(|es| es.iter().any(|e| e.pointer == pointer))
        {
            self.errors.update(|es| es.retain(|e| e.pointer != pointer));
        }
    }

    fn raw(&self, pointer: &str) -> String {
        self.inputs
            .with_value(|m| m.get(pointer).cloned())
            .unwrap_or_default()
    }

    /// The element id of a field: this form's number and the field's index path.
    fn dom_id(&self, f: &Field) -> String {
        format!("agui-form-{}{}", self.id, f.id)
    }
}

/// The generated form. Inputs are disabled while `disabled` is true.
#[component]
pub fn SchemaForm(
    /// The form's model and inputs (create with [`FormState::new`]).
    state: FormState,
    /// Disable every input (while a run is in flight, or once answered).
    #[prop(into)]
    disabled: Signal<bool>,
) -> impl IntoView {
    let root = state.root.get_value();
    let body = match root.kind {
        FieldKind::Object(fields) => fields
            .into_iter()
            .map(|f| field_view(f, state, disabled))
            .collect_view()
            .into_any(),
        _ => field_view(root, state, disabled),
    };
    view! { <div class="agui-form" data-testid="schema-form">{body}</div> }
}

fn field_view(f: Field, state: FormState, disabled: Signal<bool>) -> AnyView {
    let store = AgentStore::expect();
    let pointer = f.pointer.clone();
    let dom_id = state.dom_id(&f);
    let err_id = format!("{dom_id}-error");
    let error = {
        let pointer = pointer.clone();
        Memo::new(move |_| {
            state.errors.with(|es| {
                es.iter()
                    .find(|e| e.pointer == pointer)
                    .map(|e| e.problem.message(tr(store)))
            })
        })
    };
    let invalid = move || error.with(Option::is_some).to_string();
    let described = err_id.clone();
    let error_view = move || {
        error.get().map(|m| {
            view! {
                <p class="agui-form__error" data-testid="field-error" id=described.clone() role="alert">
                    {m}
                </p>
            }
        })
    };
    let hint = f.description.clone().map(|d| {
        view! { <p class="agui-form__hint">{d}</p> }
    });
    let label_text = {
        let label = f.label.clone();
        move || {
            if label.is_empty() {
                tr(store).form_answer.to_owned()
            } else {
                label.clone()
            }
        }
    };
    let required = f.required;
    let required_mark = required.then(|| {
        view! { <span class="agui-form__required" aria-hidden="true">" *"</span> }
    });
    let initial = state.raw(&pointer);
    let p = pointer.clone();
    let set = move |v: String| state.set(&p, v);

    let control = match f.kind {
        FieldKind::Object(children) => {
            let inner = children
                .into_iter()
                .map(|c| field_view(c, state, disabled))
                .collect_view();
            return view! {
                <fieldset class="agui-form__fieldset" data-testid="schema-fieldset" data-pointer=pointer>
                    <legend class="agui-form__legend">{label_text} {required_mark}</legend>
                    {hint}
                    {inner}
                    {error_view}
                </fieldset>
            }
            .into_any();
        }
        FieldKind::Bool => {
            let checked = initial == "true";
            let wrapper_pointer = pointer.clone();
            return view! {
                <div class="agui-form__field agui-form__field--bool" data-testid="schema-field" data-pointer=wrapper_pointer>
                    <label class="agui-form__check">
                        <input
                            type="checkbox"
                            id=dom_id
                            name=pointer
                            prop:checked=checked
                            disabled=move || disabled.get()
                            on:change=move |ev| {
                                let el: HtmlInputElement = event_target(&ev);
                                set(el.checked().to_string());
                            }
                        />
                        <span>{label_text}</span>
                    </label>
                    {hint}
                    {error_view}
                </div>
            }
            .into_any();
        }
        FieldKind::Choice(options) => {
            let opts = options
                .iter()
                .enumerate()
                .map(|(i, o)| {
                    let selected = initial == i.to_string();
                    view! { <option value=i.to_string() selected=selected>{choice_label(o)}</option> }
                })
                .collect_view();
            let none_label = move || {
                if required {
                    tr(store).form_choose
                } else {
                    "—"
                }
            };
            view! {
                <select
                    class="agui-form__select"
                    id=dom_id.clone()
                    name=pointer.clone()
                    required=required
                    aria-invalid=invalid
                    aria-describedby=err_id.clone()
                    disabled=move || disabled.get()
                    on:change=move |ev| {
                        let el: HtmlSelectElement = event_target(&ev);
                        set(el.value());
                    }
                >
                    <option value="" selected=initial.is_empty()>{none_label}</option>
                    {opts}
                </select>
            }
            .into_any()
        }
        FieldKind::Text {
            input_type,
            min_length,
            max_length,
        } => view! {
            <input
                class="agui-form__input"
                type=input_type
                id=dom_id.clone()
                name=pointer.clone()
                value=initial
                required=required
                minlength=min_length.map(|m| m.to_string())
                maxlength=max_length.map(|m| m.to_string())
                autocomplete="off"
                aria-invalid=invalid
                aria-describedby=err_id.clone()
                disabled=move || disabled.get()
                on:input=move |ev| {
                    let el: HtmlInputElement = event_target(&ev);
                    set(el.value());
                }
            />
        }
        .into_any(),
        FieldKind::Number {
            integer,
            minimum,
            maximum,
            ..
        } => view! {
            <input
                class="agui-form__input agui-form__input--number"
                type="number"
                id=dom_id.clone()
                name=pointer.clone()
                value=initial
                required=required
                min=minimum.map(fmt_num)
                max=maximum.map(fmt_num)
                step=if integer { "1" } else { "any" }
                inputmode=if integer { "numeric" } else { "decimal" }
                aria-invalid=invalid
                aria-describedby=err_id.clone()
                disabled=move || disabled.get()
                on:input=move |ev| {
                    let el: HtmlInputElement = event_target(&ev);
                    set(el.value());
                }
            />
        }
        .into_any(),
        FieldKind::Json { expect, over_limit } => {
            let placeholder = match expect.as_deref() {
                Some("array") => "[ … ] (JSON)",
                Some("object") => "{ … } (JSON)",
                _ => "JSON value",
            };
            // Too many fields or options for a form: say why it is JSON.
            let note = over_limit.then(|| {
                view! {
                    <p class="agui-form__hint" data-testid="form-over-limit">
                        {move || tr(store).form_over_limit}
                    </p>
                }
            });
            view! {
                {note}
                <textarea
                    class="agui-form__json"
                    id=dom_id.clone()
                    name=pointer.clone()
                    rows="4"
                    spellcheck="false"
                    placeholder=placeholder
                    required=required
                    aria-invalid=invalid
                    aria-describedby=err_id.clone()
                    disabled=move || disabled.get()
                    prop:value=initial
                    on:input=move |ev| {
                        let el: HtmlTextAreaElement = event_target(&ev);
                        set(el.value());
                    }
                ></textarea>
            }
            .into_any()
        }
    };
    view! {
        <div class="agui-form__field" data-testid="schema-field" data-pointer=pointer>
            <label class="agui-form__label" for=dom_id>
                {label_text}
                {required_mark}
            </label>
            {hint}
            {control}
            {error_view}
        </div>
    }
    .into_any()
}
