//! The `ReadableStream` conversions of wasm-streams 0.5 that Leptos's `server_fn` calls, with
//! the same signatures, built on closures and promises instead of exported classes (see
//! Cargo.toml for why). Nothing in agui-leptos calls them: the linker leaves them out.

use std::cell::RefCell;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use futures_util::stream::Stream;
use js_sys::{Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

/// A JS `ReadableStream`, to be read as a Rust [`Stream`] or made from one.
pub struct ReadableStream {
    raw: web_sys::ReadableStream,
}

pub mod readable {
    //! As in wasm-streams: the stream types under `readable`.
    pub use super::{IntoStream, ReadableStream};
}

type Chunks = Pin<Box<dyn Stream<Item = Result<JsValue, JsValue>>>>;

impl ReadableStream {
    /// Wraps a JS stream.
    pub fn from_raw(raw: web_sys::ReadableStream) -> Self {
        Self { raw }
    }

    /// A JS stream whose chunks `stream` gives, one per `pull`; an `Err` errors the stream.
    /// (Its pull handler lives as long as the page: the stream may outlive every Rust value.)
    pub fn from_stream<St>(stream: St) -> Self
    where
        St: Stream<Item = Result<JsValue, JsValue>> + 'static,
    {
        let chunks: Rc<RefCell<Chunks>> = Rc::new(RefCell::new(Box::pin(stream)));
        let pull = Closure::<dyn FnMut(JsValue) -> Promise>::new(move |controller: JsValue| {
            let chunks = chunks.clone();
            future_to_promise(async move {
                let controller: web_sys::ReadableStreamDefaultController =
                    controller.unchecked_into();
                let next =
                    std::future::poll_fn(|cx| chunks.borrow_mut().as_mut().poll_next(cx)).await;
                match next {
                    Some(Ok(chunk)) => controller.enqueue_with_chunk(&chunk)?,
                    Some(Err(e)) => return Err(e),
                    None => controller.close()?,
                }
                Ok(JsValue::UNDEFINED)
            })
        });
        let source = Object::new();
        let raw = Reflect::set(&source, &JsValue::from_str("pull"), pull.as_ref())
            .and_then(|_| web_sys::ReadableStream::new_with_underlying_source(&source));
        pull.forget();
        match raw {
            Ok(raw) => Self { raw },
            // Only where there is no ReadableStream: an empty one cannot be made either.
            Err(e) => wasm_bindgen::throw_val(e),
        }
    }

    /// The JS stream.
    pub fn into_raw(self) -> web_sys::ReadableStream {
        self.raw
    }

    /// The stream's chunks as a Rust [`Stream`] (the stream locked to its reader; the reader
    /// cancelled when the `IntoStream` is dropped before the end).
    pub fn into_stream(self) -> IntoStream<'static> {
        let reader = self.raw.get_reader().unchecked_into();
        IntoStream {
            reader: Some(reader),
            read: None,
            lifetime: PhantomData,
        }
    }
}

/// The chunks of a JS stream ([`ReadableStream::into_stream`]).
pub struct IntoStream<'reader> {
    reader: Option<web_sys::ReadableStreamDefaultReader>,
    read: Option<JsFuture>,
    lifetime: PhantomData<&'reader ()>,
}

impl Stream for IntoStream<'_> {
    type Item = Result<JsValue, JsValue>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        let Some(reader) = &this.reader else {
            return Poll::Ready(None);
        };
        let read = this
            .read
            .get_or_insert_with(|| JsFuture::from(reader.read()));
        let result = match Pin::new(read).poll(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(result) => result,
        };
        this.read = None;
        match result {
            Ok(result) => {
                let done = Reflect::get(&result, &JsValue::from_str("done"))
                    .map(|d| d.is_truthy())
                    .unwrap_or(true);
                if done {
                    this.reader = None;
                    return Poll::Ready(None);
                }
                let value = Reflect::get(&result, &JsValue::from_str("value"));
                Poll::Ready(Some(Ok(value.unwrap_or(JsValue::UNDEFINED))))
            }
            Err(e) => {
                this.reader = None;
                Poll::Ready(Some(Err(e)))
            }
        }
    }
}

impl Drop for IntoStream<'_> {
    fn drop(&mut self) {
        if let Some(reader) = self.reader.take() {
            let _ = reader.cancel();
        }
    }
}
