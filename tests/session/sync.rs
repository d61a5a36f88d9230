//! A site's thread store, natively (`src/session/sync.rs`): two devices on one store, lazy
//! loading, debounced saves, a `412` merged and saved again, failures shown and retried, what
//! was not saved surviving a reload, a visitor's own conversations never sent unasked, and
//! `forget`. The store is played by [`Server`], which keeps the REST contract's rules
//! (`docs/dev/thread-store.md`: versions, compare-and-swap, newest first, paging).

use std::collections::BTreeMap;
use std::future::Future;
use std::rc::Rc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

use agui_leptos::demo::DemoAgent;
use agui_leptos::session::remote::{
    Expect, ListPage, Loaded, StoreFailure, StoreFuture, ThreadStore, ThreadStoreRef,
};
use agui_leptos::session::storage::MemoryStore;
use agui_leptos::session::sync::{SyncJob, SyncOutcome, SYNC_DEBOUNCE_MS};
use agui_leptos::session::{AgentConfig, Env, LocalAgentRef, Notice, Route, Session, TestEnv};
use serde_json::{json, Value};

const PREFIX: &str = "agui-sync";

/// The site's store as the chat calls it (every answer at once).
#[derive(Clone, Default)]
struct Site(Arc<Mutex<Server>>);

impl Site {
    fn server(&self) -> MutexGuard<'_, Server> {
        self.0.lock().unwrap()
    }
}

fn ready<T: 'static>(value: Result<T, StoreFailure>) -> StoreFuture<T> {
    Box::pin(std::future::ready(value))
}

impl ThreadStore for Site {
    fn list(&self, cursor: Option<&str>) -> StoreFuture<ListPage> {
        ready(self.server().list(cursor))
    }
    fn load(&self, id: &str) -> StoreFuture<Loaded> {
        ready(self.server().load(id))
    }
    fn save(&self, id: &str, record: &Value, expect: &Expect) -> StoreFuture<Option<String>> {
        ready(self.server().save(id, record, expect))
    }
    fn remove(&self, id: &str) -> StoreFuture<()> {
        ready(self.server().remove(id))
    }
}

fn config() -> AgentConfig {
    AgentConfig {
        local_agent: Some(LocalAgentRef::new(DemoAgent)),
        thread_store: Some(ThreadStoreRef::new(Site::default())),
        ..AgentConfig::default()
    }
}

/// The site's store: records by id with their version, the contract's rules.
#[derive(Default)]
struct Server {
    records: BTreeMap<String, (Value, String)>,
    version: u64,
    page: usize,
    /// Calls answered, by kind.
    calls: Vec<String>,
    /// Every call fails with this (the store is down).
    failing: Option<String>,
}

impl Server {
    /// A call: logged; failing when the store is down.
    fn call(&mut self, what: String) -> Result<(), StoreFailure> {
        self.calls.push(what);
        self.failing
            .clone()
            .map_or(Ok(()), |e| Err(StoreFailure::Failed(e)))
    }

    fn list(&mut self, cursor: Option<&str>) -> Result<ListPage, StoreFailure> {
        self.call("list".into())?;
        let mut rows: Vec<&(Value, String)> = self.records.values().collect();
        rows.sort_by(|a, b| {
            let at = |v: &Value| v["updatedAt"].as_str().unwrap_or("").to_owned();
            at(&b.0).cmp(&at(&a.0))
        });
        let from: usize = cursor.map_or(0, |c| c.parse().unwrap());
        let page = self.page.max(1);
        let entries = rows
            .iter()
            .skip(from)
            .take(page)
            .map(|(v, _)| json!({"id": v["id"], "title": v["title"], "updatedAt": v["updatedAt"]}))
            .collect();
        let next = (from + page < rows.len()).then(|| (from + page).to_string());
        Ok(ListPage { entries, next })
    }

    fn load(&mut self, id: &str) -> Result<Loaded, StoreFailure> {
        self.call(format!("load {id}"))?;
        let (record, etag) = self.records.get(id).ok_or(StoreFailure::NotFound)?;
        Ok(Loaded {
            record: record.clone(),
            etag: Some(etag.clone()),
        })
    }

    fn save(
        &mut self,
        id: &str,
        record: &Value,
        expect: &Expect,
    ) -> Result<Option<String>, StoreFailure> {
        self.call(format!("save {id}"))?;
        let stored = self.records.get(id).map(|(_, e)| e.clone());
        match (expect, &stored) {
            (Expect::New, None) | (Expect::Any, Some(_)) => {}
            (Expect::Version(v), Some(s)) if v == s => {}
            (Expect::Version(_), None) => return Err(StoreFailure::NotFound),
            _ => return Err(StoreFailure::Conflict),
        }
        self.version += 1;
        let etag = format!("\"v{}\"", self.version);
        self.records
            .insert(id.to_owned(), (record.clone(), etag.clone()));
        Ok(Some(etag))
    }

    fn remove(&mut self, id: &str) -> Result<(), StoreFailure> {
        self.call(format!("remove {id}"))?;
        self.records
            .remove(id)
            .map(|_| ())
            .ok_or(StoreFailure::NotFound)
    }

    fn messages(&self, id: &str) -> Vec<String> {
        self.records[id].0["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["content"].as_str().unwrap_or("").to_owned())
            .collect()
    }
}

/// Send `text` and play the demo agent's run to its end.
fn turn(s: &mut Session, text: &str) {
    let req = s.send(text).expect("a request");
    let Route::Local { agent, .. } = &req.route else {
        panic!("a local route");
    };
    for chunk in agent.respond(&req.body) {
        s.push(req.generation, &chunk.bytes);
    }
    s.end_run(req.generation, Ok(()));
}

/// A device: a browser's storage and clock, and its chat.
struct Device {
    env: Rc<TestEnv>,
    local: MemoryStore,
    s: Session,
}

fn device() -> Device {
    thread_local!(static DEVICES: std::cell::Cell<u32> = const { std::cell::Cell::new(0) });
    let env = Rc::new(TestEnv::default());
    // Each device's ids are its own (a browser's are random).
    for _ in 0..DEVICES.replace(DEVICES.get() + 1) * 1_000 {
        env.new_id("other-device");
    }
    let local = MemoryStore::new();
    let s = Session::restore(config(), env.clone(), local.clone(), PREFIX);
    Device { env, local, s }
}

impl Device {
    /// The page reloads: a new session on the same storage.
    fn reload(&mut self) {
        self.s = Session::restore(config(), self.env.clone(), self.local.clone(), PREFIX);
    }

    fn turn(&mut self, text: &str) {
        turn(&mut self.s, text);
    }

    fn texts(&self) -> Vec<String> {
        self.s
            .thread()
            .messages
            .iter()
            .filter(|m| m.role.as_str() == "user")
            .map(|m| m.text().into_owned())
            .collect()
    }
}

/// Make every call that is due now; the calls made.
/// The site's answer to `job` (it answers at once).
fn answer(job: SyncJob, site: &Site) -> SyncOutcome {
    let mut call = std::pin::pin!(job.run(site));
    let Poll::Ready(outcome) = call.as_mut().poll(&mut Context::from_waker(Waker::noop())) else {
        panic!("the site answers at once");
    };
    outcome
}

fn pump(d: &mut Device, site: &Site) -> usize {
    let mut n = 0;
    while let Some(job) = d.s.sync_next() {
        d.s.sync_done(answer(job, site));
        n += 1;
        assert!(n < 100, "the session keeps calling");
    }
    n
}

/// Let the debounce pass, then make the calls.
fn settle(d: &mut Device, server: &Site) -> usize {
    d.env.advance(SYNC_DEBOUNCE_MS + 1.0);
    pump(d, server)
}

/// A laptop whose one conversation ("plan our Lisbon offsite") is saved to `server`.
fn one_saved(server: &Site) -> (Device, String) {
    let mut laptop = device();
    pump(&mut laptop, server);
    laptop.turn("plan our Lisbon offsite");
    let id = laptop.s.thread_id().to_owned();
    settle(&mut laptop, server);
    (laptop, id)
}

fn user_texts(server: &Server, id: &str) -> Vec<String> {
    server.records[id].0["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "user")
        .map(|m| m["content"].as_str().unwrap_or("").to_owned())
        .collect()
}

#[test]
fn a_conversation_started_on_one_device_continues_on_another() {
    let server = Site::default();
    let mut laptop = device();
    pump(&mut laptop, &server);
    laptop.turn("plan our Lisbon offsite");
    let id = laptop.s.thread_id().to_owned();
    // Debounced: nothing goes before the pause, one save after it (not one per event).
    assert_eq!(pump(&mut laptop, &server), 0, "not before the pause");
    server.server().calls.clear();
    settle(&mut laptop, &server);
    assert_eq!(server.server().calls, [format!("save {id}")]);
    assert_eq!(
        user_texts(&server.server(), &id),
        ["plan our Lisbon offsite"]
    );
    let state = laptop.s.thread().state.clone();

    // The phone has nothing of its own: it lists, opens the newest and loads it.
    let mut phone = device();
    pump(&mut phone, &server);
    assert_eq!(phone.s.thread_id(), id);
    assert_eq!(phone.texts(), ["plan our Lisbon offsite"]);
    assert_eq!(phone.s.thread().state, state, "with its state");
    phone.env.advance(60_000.0);
    phone.turn("and the budget?");
    settle(&mut phone, &server);
    assert_eq!(
        user_texts(&server.server(), &id),
        ["plan our Lisbon offsite", "and the budget?"]
    );
    assert!(phone.s.notices().is_empty(), "{:?}", phone.s.notices());

    // Back on the laptop, after a reload: newer there, so it is loaded again.
    laptop.reload();
    pump(&mut laptop, &server);
    assert_eq!(
        laptop.texts(),
        ["plan our Lisbon offsite", "and the budget?"]
    );
    // And its next save goes over the version it loaded (no conflict).
    laptop.turn("book it");
    server.server().calls.clear();
    settle(&mut laptop, &server);
    assert_eq!(server.server().calls, [format!("save {id}")]);
}

#[test]
fn the_list_comes_first_and_a_conversation_is_loaded_when_opened() {
    let server = Site::default();
    let mut laptop = device();
    pump(&mut laptop, &server);
    let mut ids = Vec::new();
    for text in ["first", "second", "third"] {
        laptop.s.new_thread().unwrap();
        laptop.turn(text);
        ids.push(laptop.s.thread_id().to_owned());
        laptop.env.advance(60_000.0);
        settle(&mut laptop, &server);
    }
    server.server().page = 2;
    server.server().calls.clear();
    let mut phone = device();
    pump(&mut phone, &server);
    // Two pages of the list, the newest conversation loaded, no other.
    assert_eq!(
        server.server().calls,
        ["list", "list", &format!("load {}", ids[2])]
    );
    let listed: Vec<String> = phone.s.summaries().into_iter().map(|s| s.title).collect();
    assert_eq!(listed, ["third", "second", "first"]);
    assert_eq!(phone.texts(), ["third"]);
    // Opening another loads it, once.
    phone.s.switch_thread(&ids[0]).unwrap();
    assert!(phone.s.loading_open());
    pump(&mut phone, &server);
    assert!(!phone.s.loading_open());
    assert_eq!(phone.texts(), ["first"]);
    assert_eq!(
        server.server().calls.last().unwrap(),
        &format!("load {}", ids[0])
    );
    phone.s.switch_thread(&ids[2]).unwrap();
    assert_eq!(pump(&mut phone, &server), 0, "loaded already");
    // A listed conversation that was never opened is not written to the browser.
    assert!(phone
        .local
        .peek(&format!("{PREFIX}:thread:{}", ids[1]))
        .is_none());
}

#[test]
fn a_conflict_is_merged_and_saved_again_losing_nothing() {
    let server = Site::default();
    let (mut laptop, id) = one_saved(&server);
    let mut phone = device();
    pump(&mut phone, &server);
    assert_eq!(phone.s.thread_id(), id);

    // Both continue the same conversation; the phone saves first.
    phone.turn("and Porto?");
    laptop.env.advance(10.0);
    laptop.turn("and the budget?");
    settle(&mut phone, &server);
    server.server().calls.clear();
    settle(&mut laptop, &server);
    // 412, load, merge, save over the new version.
    assert_eq!(
        server.server().calls,
        [
            format!("save {id}"),
            format!("load {id}"),
            format!("save {id}")
        ]
    );
    // Both questions are in the stored record: one shown, the other a variant.
    let text = server.server().records[&id].0.to_string();
    assert!(text.contains("and Porto?"), "{text}");
    assert!(text.contains("and the budget?"), "{text}");
    assert_eq!(
        laptop.s.switchers().len(),
        1,
        "the other device's answer is a branch"
    );
    assert!(laptop.s.notices().is_empty(), "{:?}", laptop.s.notices());
    assert_eq!(
        server.server().messages(&id).len(),
        laptop.s.thread().messages.len()
    );
}

#[test]
fn a_failed_save_is_shown_and_retried_and_survives_a_reload() {
    let server = Site::default();
    let mut laptop = device();
    pump(&mut laptop, &server);
    server.server().failing = Some("HTTP 503".into());
    laptop.turn("plan our Lisbon offsite");
    let id = laptop.s.thread_id().to_owned();
    settle(&mut laptop, &server);
    assert!(
        laptop.s.notices().iter().any(|n| matches!(
            n,
            Notice::SaveFailed { reason, .. } if reason.contains("thread store: HTTP 503")
        )),
        "{:?}",
        laptop.s.notices()
    );
    // Not again at once: after a wait that grows.
    assert_eq!(pump(&mut laptop, &server), 0);
    laptop.env.advance(2_001.0);
    assert_eq!(pump(&mut laptop, &server), 1, "tried again");
    assert_eq!(pump(&mut laptop, &server), 0);
    laptop.env.advance(2_001.0);
    assert_eq!(pump(&mut laptop, &server), 0, "the wait doubled");
    // The page goes away before the store is back: the change is not lost.
    laptop.reload();
    server.server().failing = None;
    server.server().calls.clear();
    pump(&mut laptop, &server);
    assert!(
        server.server().calls.contains(&format!("save {id}")),
        "{:?}",
        server.server().calls
    );
    assert_eq!(
        user_texts(&server.server(), &id),
        ["plan our Lisbon offsite"]
    );
}

#[test]
fn a_visitors_own_conversations_are_offered_never_sent_unasked() {
    let server = Site::default();
    // Before the site had a store: a conversation in this browser.
    let local = MemoryStore::new();
    let env = Rc::new(TestEnv::default());
    {
        let plain = AgentConfig {
            thread_store: None,
            ..config()
        };
        let mut s = Session::restore(plain, env.clone(), local.clone(), PREFIX);
        turn(&mut s, "mine alone");
    }
    let s = Session::restore(config(), env.clone(), local.clone(), PREFIX);
    let mut d = Device { env, local, s };
    settle(&mut d, &server);
    assert!(server.server().records.is_empty(), "sent unasked");
    let mine = d.s.local_only();
    assert_eq!(mine.len(), 1);
    assert_eq!(d.texts(), ["mine alone"], "still here");
    // Offered to the person; "Not now" holds across a reload; the page may still send them.
    assert_eq!(d.s.upload_offer(), 1);
    d.s.decline_upload();
    assert_eq!(d.s.upload_offer(), 0);
    d.reload();
    settle(&mut d, &server);
    assert_eq!(d.s.upload_offer(), 0, "not asked again");
    assert!(server.server().records.is_empty(), "sent unasked");
    d.s.upload_local();
    settle(&mut d, &server);
    assert_eq!(user_texts(&server.server(), &mine[0]), ["mine alone"]);
    assert!(d.s.local_only().is_empty());
}

#[test]
fn a_deleted_conversation_is_deleted_there_and_forget_clears_the_browser() {
    let server = Site::default();
    let (mut laptop, id) = one_saved(&server);
    laptop.s.delete_thread(&id).unwrap();
    pump(&mut laptop, &server);
    assert!(server.server().records.is_empty());

    laptop.turn("a secret");
    laptop.s.set_draft("half a thought");
    laptop.s.save_drafts();
    settle(&mut laptop, &server);
    assert!(!laptop.local.all_keys().is_empty());
    // A save is out when the person signs out: its answer is dropped.
    laptop.turn("one more");
    laptop.env.advance(SYNC_DEBOUNCE_MS + 1.0);
    let out = laptop.s.sync_next().expect("a save");
    laptop.s.forget().unwrap();
    laptop.s.sync_done(answer(out, &server));
    assert!(
        laptop.local.all_keys().is_empty(),
        "{:?}",
        laptop.local.all_keys()
    );
    assert!(laptop.s.thread().messages.is_empty());
    assert_eq!(laptop.s.summaries().len(), 1, "a fresh conversation");
    assert_eq!(laptop.s.draft(), "");
    // The store keeps what it has: forgetting is the browser's.
    assert_eq!(server.server().records.len(), 1);
}

#[test]
fn the_next_page_is_read_from_the_link_header() {
    use agui_leptos::session::remote::next_link;
    let link = r#"</api/threads?cursor=WyIy&limit=50>; rel="next""#;
    assert_eq!(
        next_link(link).as_deref(),
        Some("/api/threads?cursor=WyIy&limit=50")
    );
    let two =
        r#"<https://a.example/t?p=1>; rel="prev", <https://a.example/t?p=3>; rel="next last""#;
    assert_eq!(next_link(two).as_deref(), Some("https://a.example/t?p=3"));
    assert_eq!(next_link(r#"</t?p=1>; rel="prev""#), None);
    assert_eq!(next_link("garbage"), None);
    assert_eq!(next_link(""), None);
    assert_eq!(next_link("<x>; REL=next").as_deref(), Some("x"));
}

#[test]
fn a_hidden_page_saves_at_once_and_what_leaves_the_browser_stays_listed() {
    use agui_leptos::session::threads::StorageBudget;
    let server = Site::default();
    let mut laptop = device();
    laptop.s.set_storage_budget(StorageBudget {
        max_bytes: 1_000_000,
        max_threads: 2,
    });
    pump(&mut laptop, &server);
    laptop.turn("first");
    // The page is hidden: no waiting for the pause.
    laptop.s.sync_hurry();
    assert_eq!(pump(&mut laptop, &server), 1, "saved at once");
    let first = laptop.s.thread_id().to_owned();
    for text in ["second", "third"] {
        laptop.env.advance(60_000.0);
        laptop.s.new_thread().unwrap();
        laptop.turn(text);
        settle(&mut laptop, &server);
    }
    // The browser keeps two: the first left its storage, not the list (the store has it).
    assert!(laptop
        .local
        .peek(&format!("{PREFIX}:thread:{first}"))
        .is_none());
    assert!(laptop.s.summaries().iter().any(|s| s.id == first));
    assert!(
        !laptop
            .s
            .notices()
            .iter()
            .any(|n| matches!(n, Notice::Evicted { .. })),
        "{:?}",
        laptop.s.notices()
    );
    laptop.s.switch_thread(&first).unwrap();
    pump(&mut laptop, &server);
    assert_eq!(laptop.texts(), ["first"], "loaded from the store");
}
