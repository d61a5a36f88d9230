//! The demo as a plug-in: the offline Lisbon agent, its cards (venues, the trip panel,
//! `confirm_payment`), its suggestion chips and its welcome text, registered through the same
//! [`Plugins`] API a site or a Leptos app uses. The app's page (and a widget without an
//! `endpoint`) installs [`plugins`]; nothing generic imports this module.

pub mod payment;
pub mod trip_panel;
pub mod venue_card;

use leptos::prelude::*;

use crate::demo::model::{confirm_payment_tool, VENUE_TOOL_NAMES};
use crate::demo::{DemoAgent, TRIGGERS};
use crate::plugins::Plugins;
use payment::ConfirmPayment;
use trip_panel::TripPanel;
use venue_card::VenueResults;

/// Everything the demo adds to a chat.
pub fn plugins() -> Plugins {
    let mut p = Plugins::new()
        .local_agent(DemoAgent)
        .frontend_tool(confirm_payment_tool(), |call| {
            view! { <ConfirmPayment call /> }.into_any()
        })
        .side_panel(|| view! { <TripPanel /> }.into_any())
        .welcome(|t| t.hero_demo.to_owned());
    for name in VENUE_TOOL_NAMES {
        p = p.tool_renderer(*name, |call| view! { <VenueResults call /> }.into_any());
    }
    for (prompt, hint) in TRIGGERS {
        p = p.suggestion(*prompt, Some(*hint));
    }
    p
}
