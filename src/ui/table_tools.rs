//! The toolbar of a finished Markdown table: copy it as Markdown, copy it as CSV, download it
//! as CSV (`view::table_export` writes both). Hidden while the table may still change (it is
//! in the open tail of a message that streams); every button is a real `<button>` with an
//! accessible name, in the tab order after the table.

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

use crate::markdown::Block;
use crate::ui::clipboard::copy_to_clipboard;
use crate::ui::lazy::split;
use crate::ui::tr_ctx;
use crate::view::table_export::TableRef;

/// The file a downloaded table is saved as.
const CSV_FILE: &str = "table.csv";

split!(tables:
    /// The toolbar under a table; `live`: the table may still change (no toolbar meanwhile).
    /// (The lean widget fetches the `tables` module with the first table.)
    pub(crate) fn table_toolbar(table: Block, live: Option<Signal<bool>>) -> AnyView {
        let table = StoredValue::new(table);
        let text = move |csv: bool| {
            table.with_value(|b| {
                TableRef::of(b)
                    .map(|t| if csv { t.csv() } else { t.markdown() })
                    .unwrap_or_default()
            })
        };
        let (md_copied, set_md_copied) = signal(false);
        let (csv_copied, set_csv_copied) = signal(false);
        let holder = NodeRef::<leptos::html::Div>::new();
        let tools = move || {
            view! {
                <div
                    class="agui-md__table-tools"
                    role="group"
                    aria-label=move || tr_ctx().table_tools
                    data-testid="table-tools"
                    node_ref=holder
                >
                    <button
                        type="button"
                        class="agui-md__table-tool"
                        data-testid="table-copy-markdown"
                        title=move || tr_ctx().table_copy_markdown
                        on:click=move |_| copy_to_clipboard(text(false), set_md_copied)
                    >
                        {move || if md_copied.get() { tr_ctx().copied } else { tr_ctx().table_markdown }}
                    </button>
                    <button
                        type="button"
                        class="agui-md__table-tool"
                        data-testid="table-copy-csv"
                        title=move || tr_ctx().table_copy_csv
                        on:click=move |_| copy_to_clipboard(text(true), set_csv_copied)
                    >
                        {move || if csv_copied.get() { tr_ctx().copied } else { tr_ctx().table_csv }}
                    </button>
                    <button
                        type="button"
                        class="agui-md__table-tool"
                        data-testid="table-download-csv"
                        title=move || tr_ctx().table_download_csv
                        on:click=move |_| {
                            if let Some(at) = holder.get_untracked() {
                                download_csv(&at, &text(true));
                            }
                        }
                    >
                        {move || tr_ctx().table_download}
                    </button>
                </div>
            }
        };
        match live {
            None => tools().into_any(),
            Some(live) => (move || (!live.get()).then(tools)).into_any(),
        }
    }
);

/// Saves `csv` as [`CSV_FILE`]: a Blob (UTF-8, with a byte order mark so spreadsheets read it
/// as UTF-8), its object URL on an `<a download>` clicked inside `at` (so the click stays in
/// the chat's tree) and removed, the URL revoked a moment later. Failures are ignored.
fn download_csv(at: &web_sys::Element, csv: &str) {
    let parts = js_sys::Array::of2(&JsValue::from_str("\u{feff}"), &JsValue::from_str(csv));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/csv;charset=utf-8");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    let anchor = at
        .owner_document()
        .and_then(|d| d.create_element("a").ok())
        .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok());
    if let Some(a) = anchor {
        a.set_href(&url);
        a.set_download(CSV_FILE);
        a.set_hidden(true);
        if at.append_child(&a).is_ok() {
            a.click();
            a.remove();
        }
    }
    leptos::task::spawn_local(async move {
        crate::transport::sleep(1000).await;
        let _ = web_sys::Url::revoke_object_url(&url);
    });
}
