//! The human in the loop (spec digest §4.11, §4.12): frontend tools answered in the browser,
//! interrupt cards with forms generated from `responseSchema`.

pub mod frontend_tools;
pub mod interrupt_card;
pub mod schema_form;
