//! `confirm_payment`, the demo's frontend tool with UI: the agent asks, the card shows the
//! amount and what it is for, and the person confirms or declines in the browser (spec digest
//! §4.12). The request is read by [`crate::demo::model::PaymentRequest`]; nothing is charged.

use leptos::prelude::*;
use serde_json::Value;

use crate::demo::model::{payment_approved, payment_declined, PaymentRequest};
use crate::i18n::fill;
use crate::plugins::FrontendToolCall;
use crate::store::AgentStore;
use crate::store::HitlError;
use crate::ui::tr;
use crate::wording;

/// `confirm_payment`'s card body: the amount and what it is for, Confirm and Decline.
#[component]
pub fn ConfirmPayment(
    /// The pending call.
    call: FrontendToolCall,
) -> impl IntoView {
    let store = AgentStore::expect();
    let request = PaymentRequest::from_args(&call.args);
    let valid = request.is_valid();
    let description = request.description.clone();
    let request = StoredValue::new(request);
    let error = RwSignal::new(None::<HitlError>);
    let call = StoredValue::new(call);
    let answer = move |value: Value| {
        if let Err(e) = call.with_value(|c| c.respond(Ok(value))) {
            error.set(Some(e));
        }
    };
    let amount = move || {
        let t = tr(store);
        request
            .with_value(|r| r.amount_text(t))
            .unwrap_or_else(|| t.payment_unknown_amount.to_owned())
    };
    let pay_label = move || fill(tr(store).payment_pay, &[&amount()]);
    view! {
        <div class="agui-frontend-tool agui-payment" data-testid="payment-request">
            <div class="agui-payment__label">{move || tr(store).payment_requested}</div>
            <div class="agui-payment__amount" data-testid="payment-amount">{amount}</div>
            {description.map(|d| view! {
                <p class="agui-payment__description" data-testid="payment-description">{d}</p>
            })}
            {(!valid).then(|| view! {
                <p class="agui-frontend-tool__problem" role="alert">
                    {move || tr(store).payment_incomplete}
                </p>
            })}
            <p class="agui-payment__note">{move || tr(store).payment_note}</p>
            <div class="agui-payment__actions">
                <button
                    type="button"
                    class="agui-button agui-button--primary"
                    data-testid="frontend-tool-approve"
                    disabled=move || !valid || store.running.get()
                    on:click=move |_| answer(payment_approved())
                >
                    {pay_label}
                </button>
                <button
                    type="button"
                    class="agui-button agui-button--secondary"
                    data-testid="frontend-tool-decline"
                    disabled=move || store.running.get()
                    on:click=move |_| answer(payment_declined())
                >
                    {move || tr(store).decline}
                </button>
            </div>
            {move || error.get().map(|e| view! {
                <p class="agui-frontend-tool__problem" data-testid="frontend-tool-error" role="alert">{move || wording::hitl_error(tr(store), &e)}</p>
            })}
        </div>
    }
}
