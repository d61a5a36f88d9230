#[cfg(target_arch = "wasm32")]
pub mod app;
pub mod protocol;
