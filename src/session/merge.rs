//! Two versions of one conversation as one (issue 31 item 1, issue 32 item 3). The chat holds its
//! copy of a [`ThreadRecord`] (`ours`) and learns another one (`theirs`): the copy a site's
//! server stored when a `PUT` with `If-Match` came back `412`, or the one another tab of the
//! browser saved. [`merge_records`] writes one record that keeps every message of both. Pure
//! (no web-sys or leptos), tested natively in `tests/session/merge.rs`.
//!
//! ## The rule
//!
//! A record is read as a tree of messages keyed by id: the conversation on screen is a path from
//! the start, and each [`Fork`] adds the paths of its stored variants after its anchor (branches
//! are the client's own, spec digest §1.2; a message's id is its only identity, §3). The two
//! trees are laid over each other — a message with the same id after the same messages is one
//! message — and the tree is written back in the [`Branches`] form the switcher reads:
//!
//! - **What is shown.** When one side only appended to the other (same ids in order, more
//!   after), the longer conversation is shown. When they part after a common prefix (both sent a
//!   message; or one regenerated an answer or edited a message the other continued), the
//!   *primary* side's is: the one with the newer `updated_at`. The other tail is a variant of the
//!   fork after the last common message — what an edit (a user message first) or a regenerate
//!   (an answer first) would have made there — listed before the shown one, as older variants
//!   are: the switcher reads `2/2`, and `1/2` is the other device's.
//! - **Primary**: newer `updated_at`; equal times: the side whose shown ids sort last, then the
//!   one whose shown messages are more complete. When even those are equal (a rename in two tabs
//!   does not touch `updated_at`), every choice below takes the larger value (text, id, JSON)
//!   instead of the primary's, so both devices still write the same record.
//! - **One message, two contents** (an answer saved mid-stream on one side, finished on the
//!   other): the more complete copy — more tool calls, then more bytes of text and tool-call
//!   arguments; equally complete: the primary's copy (no primary: the one whose JSON text sorts
//!   last). Never both.
//! - **Forks and variants**: the union — forks by anchor, variants by their first message id,
//!   an empty variant (what a run that said nothing left, e.g. a failed regenerate) by that
//!   run's id. A variant that is the older copy of another (one side continued it) is that
//!   variant, not a second one. Each side's order is kept: when one side's list contains the
//!   other's in order it is taken as is, else the other side's extra variants come first (the
//!   older ones), then the primary's. The variant shown is the conversation's on the path shown,
//!   elsewhere the primary's choice.
//! - **The rest**: `title` the primary's, but a title wins over none; `created_at` the earliest,
//!   `updated_at` the latest; `state` and `last_run` those of the conversation shown (where its
//!   path ends); `replayed` if either; `queued` the union by id, the primary's first, without
//!   what the conversation already holds (a queued message goes out with its own id, so a
//!   message sent on one device is not queued again by the other); `subagents` the union by run
//!   id (the primary's copy of one both have); the remembered run-start states the union, for
//!   the messages still there.
//! - **Budgets**: at most [`MAX_VARIANTS`] variants a fork — past it the oldest go (first in the
//!   list, never the one shown, never a message of the conversation shown), each with all its
//!   messages, counted in [`Merged::dropped_variants`]; the queue's
//!   [`MAX_QUEUED`](super::queue::MAX_QUEUED) (counted in [`Merged::dropped_queued`]) and the
//!   thread's [`MAX_SUBAGENTS`] hold. Otherwise the result is never larger than both records
//!   together; the storage budget applies when it is written (`threads.rs`).
//!
//! Merge only a conversation that is not running: the caller holds a merge until the run in
//! flight has ended (a run streams into the thread on screen, which the merge replaces).
//!
//! Linear in the messages of both records: one hash-keyed tree, no recursion on data, every
//! message written out once. Records of two different conversations give `ours` back unchanged
//! (the caller's mistake, not a panic).
//! `merge(merge(a, b), b) == merge(a, b)` and `merge(a, b) == merge(b, a)`, so two devices that
//! keep merging agree after one round; the only exception is a budget that cuts: which variant
//! or queued message goes can then depend on the order the merges happened in.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use serde_json::Value;

use super::branches::{Branches, Fork, ThreadRecord, Variant};
use crate::protocol::reducer::{SavedRun, SavedThread, Subagent, MAX_SUBAGENTS};
use crate::protocol::types::{Content, ContentPart, Message};

/// The most variants one fork keeps after a merge (each device may have regenerated the same
/// answer; the oldest go first).
pub const MAX_VARIANTS: usize = 32;

/// What [`merge_records`] wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    /// The conversation to keep: on screen and in storage.
    pub record: ThreadRecord,
    /// It differs from `ours`: the screen must be refreshed.
    pub changed_ours: bool,
    /// It differs from `theirs`: it must be written back.
    pub changed_theirs: bool,
    /// Variants left out by [`MAX_VARIANTS`] (each with all its messages).
    pub dropped_variants: usize,
    /// Queued messages left out by the queue's budget (or not the person's own).
    pub dropped_queued: usize,
}

/// One record written from `ours` and `theirs` that loses no message of either (the rule and
/// its budgets: the module docs). Two records of different conversations give `ours` back,
/// unchanged.
pub fn merge_records(ours: &ThreadRecord, theirs: &ThreadRecord) -> Merged {
    if ours.id != theirs.id {
        return Merged {
            record: ours.clone(),
            changed_ours: false,
            changed_theirs: false,
            dropped_variants: 0,
            dropped_queued: 0,
        };
    }
    let (p, o, tie) = match priority(ours, theirs) {
        std::cmp::Ordering::Less => (theirs, ours, false),
        std::cmp::Ordering::Greater => (ours, theirs, false),
        std::cmp::Ordering::Equal => (ours, theirs, true),
    };
    let mut tree = Tree::new(tie);
    let paths = [tree.add(PRIMARY, p), tree.add(OTHER, o)];
    let shown = shown_line(&paths, p, o);
    let (plan, dropped_variants) = tree.plan(shown);
    let written = tree.write(&plan, [&p.branches, &o.branches]);

    let mut record = ThreadRecord {
        version: ours.version,
        id: ours.id.clone(),
        title: pick_title(p.title.as_ref(), o.title.as_ref(), tie),
        created_at: ours.created_at.min(theirs.created_at),
        updated_at: ours.updated_at.max(theirs.updated_at),
        thread: SavedThread {
            messages: written.messages,
            state: written.state,
            last_run: written.last_run,
            subagents: subagents(&p.thread.subagents, &o.thread.subagents, tie),
        },
        branches: Branches {
            forks: written.forks,
            bases: Default::default(),
        },
        replayed: ours.replayed || theirs.replayed,
        queued: Vec::new(),
        times: arrival_times(&ours.times, &theirs.times),
    };
    // The remembered run-start states of the messages still there (`Branches::prune`'s rule).
    for (side, r) in [p, o].into_iter().enumerate() {
        for (id, state) in &r.branches.bases {
            if !written.ids.contains(id.as_str()) {
                continue;
            }
            let bases = &mut record.branches.bases;
            match bases.get(id) {
                None => {
                    bases.insert(id.clone(), state.clone());
                }
                Some(kept) if tie && side == OTHER && json_text(state) > json_text(kept) => {
                    bases.insert(id.clone(), state.clone());
                }
                Some(_) => {}
            }
        }
    }
    let (queued, dropped_queued) = queued(&p.queued, &o.queued, &written.ids, tie);
    record.queued = queued;

    Merged {
        changed_ours: record != *ours,
        changed_theirs: record != *theirs,
        record,
        dropped_variants,
        dropped_queued,
    }
}

// ---- which side leads ----------------------------------------------------------------------

const PRIMARY: usize = 0;
const OTHER: usize = 1;

/// Which record leads: newer `updated_at`, then the shown ids (sorting last), then the more
/// complete shown messages. `Equal`: no side leads (each choice takes the larger value).
fn priority(a: &ThreadRecord, b: &ThreadRecord) -> std::cmp::Ordering {
    fn ids(r: &ThreadRecord) -> Vec<&str> {
        r.thread.messages.iter().map(|m| m.id.as_str()).collect()
    }
    let complete = |r: &ThreadRecord| {
        r.thread
            .messages
            .iter()
            .map(completeness)
            .fold((0usize, 0usize), |(c, b), (c2, b2)| {
                (c.saturating_add(c2), b.saturating_add(b2))
            })
    };
    a.updated_at
        .total_cmp(&b.updated_at)
        .then_with(|| ids(a).cmp(&ids(b)))
        .then_with(|| complete(a).cmp(&complete(b)))
}

/// How far along a message is: its tool calls, then the bytes of its text and of its tool
/// calls' arguments (both only grow while it streams).
fn completeness(m: &Message) -> (usize, usize) {
    let calls = m.tool_calls.as_deref().unwrap_or_default();
    let args: usize = calls.iter().map(|c| c.function.arguments.len()).sum();
    let text = match &m.content {
        None | Some(Content::Object(_)) => 0,
        Some(Content::Text(s)) => s.len(),
        Some(Content::Parts(parts)) => parts
            .iter()
            .map(|p| match p {
                ContentPart::Text { text, .. } => text.len(),
                _ => 1,
            })
            .sum(),
    };
    (calls.len(), text.saturating_add(args))
}

/// A value's JSON text, for the "larger value" choices when no side leads.
fn json_text<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Of two copies of one message: the more complete; equal: the primary's (`a` when `a_primary`),
/// or with no side leading the larger JSON.
fn better<'a>(a: &'a Message, b: &'a Message, a_primary: bool, tie: bool) -> &'a Message {
    if a == b {
        return a;
    }
    match completeness(a).cmp(&completeness(b)) {
        std::cmp::Ordering::Greater => a,
        std::cmp::Ordering::Less => b,
        std::cmp::Ordering::Equal if tie => {
            if json_text(b) > json_text(a) {
                b
            } else {
                a
            }
        }
        std::cmp::Ordering::Equal if a_primary => a,
        std::cmp::Ordering::Equal => b,
    }
}

fn pick_title(p: Option<&String>, o: Option<&String>, tie: bool) -> Option<String> {
    match (p, o) {
        (Some(p), Some(o)) if tie => Some(p.max(o).clone()),
        (Some(t), _) | (None, Some(t)) => Some(t.clone()),
        (None, None) => None,
    }
}

/// The path shown: the longer one when one extends the other, else the primary's.
fn shown_line<'p>(paths: &'p [Vec<usize>; 2], p: &ThreadRecord, o: &ThreadRecord) -> &'p [usize] {
    let (pm, om) = (&p.thread.messages, &o.thread.messages);
    let common = pm.iter().zip(om).take_while(|(a, b)| a.id == b.id).count();
    if common == pm.len() && om.len() > pm.len() {
        &paths[OTHER]
    } else {
        &paths[PRIMARY]
    }
}

/// Where the other side's extra items go when [`join`] cannot keep both orders.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Extras {
    /// Before the primary's (variants and forks: the other side's are the older ones).
    First,
    /// After them (the queue and the subagents: what the primary has goes first, and a budget
    /// cuts the other's).
    Last,
}

/// `p` (the primary's list) and `o` as one: as is when one contains the other in order, else
/// `p` with `o`'s extra items before or after it; with no side leading (`tie`) and neither
/// containing the other, sorted. Items are unique in each list. Unless sorted, the result
/// contains `p` in order: joined again, leading or not, it comes back as it is.
fn join<K: Copy + Eq + Ord + std::hash::Hash>(
    p: &[K],
    o: &[K],
    tie: bool,
    extras: Extras,
) -> Vec<K> {
    if contains_in_order(p, o) {
        return p.to_vec();
    }
    if contains_in_order(o, p) {
        return o.to_vec();
    }
    let in_p: HashSet<K> = p.iter().copied().collect();
    let rest = o.iter().copied().filter(|k| !in_p.contains(k));
    let mut out: Vec<K> = match extras {
        Extras::First => rest.chain(p.iter().copied()).collect(),
        Extras::Last => p.iter().copied().chain(rest).collect(),
    };
    if tie {
        out.sort_unstable();
    }
    out
}

/// `sub`'s items all appear in `list`, in the same order.
fn contains_in_order<K: PartialEq>(list: &[K], sub: &[K]) -> bool {
    let mut it = list.iter();
    sub.iter().all(|k| it.any(|l| l == k))
}

/// `items` without a second item of the same key.
fn unique<'a, T, K: Copy + Eq + std::hash::Hash>(
    items: &'a [T],
    key: impl Fn(&'a T) -> K,
) -> Vec<K> {
    let mut seen = HashSet::with_capacity(items.len());
    items.iter().map(key).filter(|k| seen.insert(*k)).collect()
}

/// Both sides' subagents, by run id: the primary's copy of one both have (no side leading: the
/// larger JSON); at most [`MAX_SUBAGENTS`].
fn subagents(p: &[Subagent], o: &[Subagent], tie: bool) -> Vec<Subagent> {
    let by_id = |list: &[Subagent]| -> HashMap<String, Subagent> {
        let mut map = HashMap::with_capacity(list.len());
        for s in list {
            map.entry(s.id.clone()).or_insert_with(|| s.clone());
        }
        map
    };
    let (pm, om) = (by_id(p), by_id(o));
    let order = join(
        &unique(p, |s| s.id.as_str()),
        &unique(o, |s| s.id.as_str()),
        tie,
        Extras::Last,
    );
    order
        .into_iter()
        .filter_map(|id| match (pm.get(id), om.get(id)) {
            (Some(a), Some(b)) if tie && json_text(b) > json_text(a) => Some(b.clone()),
            (Some(a), _) => Some(a.clone()),
            (None, b) => b.cloned(),
        })
        .take(MAX_SUBAGENTS)
        .collect()
}

/// Both queues by message id, without the messages the conversation holds (sent), held to the
/// queue's budget. The count left out by the budget.
fn queued(p: &[Message], o: &[Message], sent: &HashSet<&str>, tie: bool) -> (Vec<Message>, usize) {
    fn waiting<'m>(list: &'m [Message], sent: &HashSet<&str>) -> Vec<&'m str> {
        unique(list, |m| m.id.as_str())
            .into_iter()
            .filter(|id| !sent.contains(id))
            .collect()
    }
    let pi: HashMap<&str, &Message> = p.iter().rev().map(|m| (m.id.as_str(), m)).collect();
    let oi: HashMap<&str, &Message> = o.iter().rev().map(|m| (m.id.as_str(), m)).collect();
    let order = join(&waiting(p, sent), &waiting(o, sent), tie, Extras::Last);
    let all: Vec<Message> = order
        .into_iter()
        .filter_map(|id| match (pi.get(id), oi.get(id)) {
            (Some(a), Some(b)) if tie && json_text(b) > json_text(a) => Some((*b).clone()),
            (Some(a), _) => Some((*a).clone()),
            (None, b) => b.map(|m| (*m).clone()),
        })
        .collect();
    let before = all.len();
    let kept = super::queue::bounded(all);
    let dropped = before.saturating_sub(kept.len());
    (kept, dropped)
}

// ---- the tree ------------------------------------------------------------------------------

/// What comes after a message (or the start): another message, or one of the ends of a path
/// there (by its index in [`Node::ends`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Opt {
    End(usize),
    Child(usize),
}

/// The end of a path that ends without a known place (nothing was laid there).
const NO_END: usize = usize::MAX;

/// What identifies an option on both sides: a message by its id, an end by the run that ended
/// there (an empty variant is what a run that said nothing left, e.g. a failed regenerate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Key<'a> {
    End(Option<&'a str>),
    Child(&'a str),
}

/// Where a path ends: the state and the last run there.
#[derive(Clone, Copy)]
struct End<'a> {
    state: &'a Value,
    last_run: &'a Option<SavedRun>,
}

impl<'a> End<'a> {
    fn run(self) -> Option<&'a str> {
        self.last_run.as_ref().map(|r| r.run_id.as_str())
    }
}

/// One end of a path at a node, as each side had it.
struct EndSlot<'a> {
    run: Option<&'a str>,
    data: [Option<End<'a>>; 2],
    /// A side's fork lists it: an empty variant, not the older copy of a longer path.
    declared: bool,
}

/// One message (the root: none) at one place in the tree, and what each side says about it.
struct Node<'a> {
    msg: Option<&'a Message>,
    /// The side whose copy `msg` is.
    msg_side: usize,
    children: Vec<usize>,
    /// The side put this node there.
    by: [bool; 2],
    /// What follows it on the side's path through it (the variant that side shows).
    cont: [Option<Opt>; 2],
    /// The side's fork after this node: its variants, in order.
    fork: [Option<Vec<Opt>>; 2],
    /// The paths that end here.
    ends: Vec<EndSlot<'a>>,
}

const ROOT: usize = 0;

struct Tree<'a> {
    nodes: Vec<Node<'a>>,
    /// (parent, message id) → node.
    index: HashMap<(usize, &'a str), usize>,
    /// (node, run id) → its end.
    end_index: HashMap<(usize, Option<&'a str>), usize>,
    tie: bool,
}

/// What the tree decided for one reachable node: its options in order (after the budget) and
/// the one shown.
#[derive(Clone)]
struct Decided {
    order: Vec<Opt>,
    current: Opt,
}

/// What the plan decided for node `i` (`None`: not reached).
fn decided(plan: &[Option<Decided>], i: usize) -> Option<&Decided> {
    plan.get(i).and_then(Option::as_ref)
}

/// The record's conversation and branches, written out.
struct Written<'a> {
    messages: Vec<Message>,
    state: Value,
    last_run: Option<SavedRun>,
    forks: Vec<Fork>,
    ids: HashSet<&'a str>,
}

impl<'a> Tree<'a> {
    fn new(tie: bool) -> Self {
        Tree {
            nodes: vec![Node::new(None, PRIMARY)],
            index: HashMap::new(),
            end_index: HashMap::new(),
            tie,
        }
    }

    fn node(&self, i: usize) -> Option<&Node<'a>> {
        self.nodes.get(i)
    }

    /// The identity of option `opt` after node `n`.
    fn key(&self, n: &Node<'a>, opt: Opt) -> Key<'a> {
        match opt {
            Opt::End(j) => Key::End(n.ends.get(j).and_then(|e| e.run)),
            Opt::Child(c) => Key::Child(
                self.node(c)
                    .and_then(|c| c.msg)
                    .map_or("", |m| m.id.as_str()),
            ),
        }
    }

    /// The node for `m` after `parent`, made or found (then the better copy is kept).
    fn child(&mut self, parent: usize, m: &'a Message, side: usize) -> usize {
        let tie = self.tie;
        if let Some(&c) = self.index.get(&(parent, m.id.as_str())) {
            if let Some(node) = self.nodes.get_mut(c) {
                node.by[side] = true;
                if let Some(old) = node.msg {
                    if node.msg_side != side {
                        let kept = better(old, m, node.msg_side == PRIMARY, tie);
                        if !std::ptr::eq(kept, old) {
                            node.msg = Some(kept);
                            node.msg_side = side;
                        }
                    }
                }
            }
            return c;
        }
        let c = self.nodes.len();
        let mut node = Node::new(Some(m), side);
        node.by[side] = true;
        self.nodes.push(node);
        self.index.insert((parent, m.id.as_str()), c);
        if let Some(p) = self.nodes.get_mut(parent) {
            p.children.push(c);
        }
        c
    }

    /// The end of a path at node `at` (one per run id), with the side's copy of it.
    fn end_here(&mut self, at: usize, side: usize, end: End<'a>) -> Opt {
        let run = end.run();
        let Some(node) = self.nodes.get_mut(at) else {
            return Opt::End(NO_END);
        };
        let j = *self.end_index.entry((at, run)).or_insert_with(|| {
            node.ends.push(EndSlot {
                run,
                data: [None, None],
                declared: false,
            });
            node.ends.len() - 1
        });
        if let Some(slot) = node.ends.get_mut(j) {
            if slot.data[side].is_none() {
                slot.data[side] = Some(end);
            }
        }
        Opt::End(j)
    }

    /// Lay `msgs` after `start`, ending with `end`; `live`: the side shows this path through
    /// `start` (its conversation, not a stored variant). Ids met for the first time go into
    /// `ids` and `fresh`. The nodes of the path, and the option it takes after `start`.
    #[allow(clippy::too_many_arguments)]
    fn lay(
        &mut self,
        side: usize,
        start: usize,
        msgs: &'a [Message],
        end: End<'a>,
        live: bool,
        ids: &mut HashMap<&'a str, usize>,
        fresh: &mut Vec<&'a str>,
    ) -> (Vec<usize>, Opt) {
        let mut path = Vec::with_capacity(msgs.len());
        let mut at = start;
        for m in msgs {
            let c = self.child(at, m, side);
            if live || at != start {
                self.note_cont(at, side, Opt::Child(c));
            }
            if !ids.contains_key(m.id.as_str()) {
                ids.insert(m.id.as_str(), c);
                fresh.push(m.id.as_str());
            }
            path.push(c);
            at = c;
        }
        let last = self.end_here(at, side, end);
        if live || at != start {
            self.note_cont(at, side, last);
        }
        let first = path.first().map_or(last, |&c| Opt::Child(c));
        (path, first)
    }

    fn note_cont(&mut self, at: usize, side: usize, opt: Opt) {
        if let Some(node) = self.nodes.get_mut(at) {
            if node.cont[side].is_none() {
                node.cont[side] = Some(opt);
            }
        }
    }

    /// Lay one record: its conversation, then every fork whose anchor is known (a fork inside a
    /// stored variant once that variant is laid). The nodes of its conversation.
    fn add(&mut self, side: usize, r: &'a ThreadRecord) -> Vec<usize> {
        let mut ids: HashMap<&'a str, usize> = HashMap::new();
        let mut fresh = Vec::new();
        let end = End {
            state: &r.thread.state,
            last_run: &r.thread.last_run,
        };
        let (shown, _) = self.lay(
            side,
            ROOT,
            &r.thread.messages,
            end,
            true,
            &mut ids,
            &mut fresh,
        );
        let forks = &r.branches.forks;
        let mut waiting: HashMap<&'a str, Vec<usize>> = HashMap::new();
        let mut ready: VecDeque<usize> = VecDeque::new();
        for (i, f) in forks.iter().enumerate() {
            match f.anchor.as_deref() {
                Some(a) if !ids.contains_key(a) => waiting.entry(a).or_default().push(i),
                _ => ready.push_back(i),
            }
        }
        // A fork whose anchor never turns up cannot be reached (`Branches::prune` drops it).
        while let Some(i) = ready.pop_front() {
            let Some(fork) = forks.get(i) else { continue };
            let at = match fork.anchor.as_deref() {
                None => ROOT,
                Some(a) => match ids.get(a) {
                    Some(&n) => n,
                    None => continue,
                },
            };
            let live = self.node(at).and_then(|n| n.cont[side]);
            let mut order: Vec<Opt> = Vec::with_capacity(fork.variants.len() + 1);
            let mut listed: HashSet<Opt> = HashSet::with_capacity(fork.variants.len() + 1);
            let mut push = |opt: Opt, order: &mut Vec<Opt>| {
                if listed.insert(opt) {
                    order.push(opt);
                }
            };
            for (slot, v) in fork.variants.iter().enumerate() {
                if slot == fork.current {
                    if let Some(opt) = live {
                        push(opt, &mut order);
                    }
                    // The slot of the variant shown is empty (the thread holds it); one that is
                    // not (a damaged record) is kept as a variant too.
                    if *v == Variant::default() {
                        continue;
                    }
                }
                let end = End {
                    state: &v.state,
                    last_run: &v.last_run,
                };
                fresh.clear();
                let (_, first) = self.lay(side, at, &v.messages, end, false, &mut ids, &mut fresh);
                push(first, &mut order);
                for id in fresh.drain(..) {
                    if let Some(list) = waiting.remove(id) {
                        ready.extend(list);
                    }
                }
            }
            if fork.current >= fork.variants.len() {
                if let Some(opt) = live {
                    push(opt, &mut order);
                }
            }
            if let Some(node) = self.nodes.get_mut(at) {
                for opt in &order {
                    if let Opt::End(j) = opt {
                        if let Some(e) = node.ends.get_mut(*j) {
                            e.declared = true;
                        }
                    }
                }
                if node.fork[side].is_none() {
                    node.fork[side] = Some(order);
                }
            }
        }
        shown
    }

    /// The ends that are options after node `n`: those a side's fork lists; else, when nothing
    /// follows the node, one — the primary's (no side leading: the larger run id). An end no
    /// fork lists where messages follow is the older copy of a longer path: not an option.
    fn ends(&self, n: &Node<'a>) -> Vec<usize> {
        let declared: Vec<usize> = (0..n.ends.len())
            .filter(|&j| n.ends.get(j).is_some_and(|e| e.declared))
            .collect();
        if !declared.is_empty() || !n.children.is_empty() {
            return declared;
        }
        let lone = if self.tie {
            (0..n.ends.len()).max_by_key(|&j| n.ends.get(j).and_then(|e| e.run))
        } else {
            n.ends
                .iter()
                .position(|e| e.data[PRIMARY].is_some())
                .or((!n.ends.is_empty()).then_some(0))
        };
        lone.into_iter().collect()
    }

    /// The options after node `n`, in order, before the budget: each side's list (its fork's
    /// variants, else what it put there), joined.
    fn options(&self, n: &Node<'a>) -> Vec<Opt> {
        let ends = self.ends(n);
        if n.children.len() + ends.len() <= 1 {
            // One way on (most nodes), or none: no order to find.
            let children = n.children.iter().map(|&c| Opt::Child(c));
            return children.chain(ends.iter().map(|&j| Opt::End(j))).collect();
        }
        let present: Vec<Opt> = n
            .children
            .iter()
            .map(|&c| Opt::Child(c))
            .chain(ends.iter().map(|&j| Opt::End(j)))
            .collect();
        let by_key: HashMap<Key<'a>, Opt> = present.iter().map(|&o| (self.key(n, o), o)).collect();
        let list = |side: usize| -> Vec<Key<'a>> {
            let opts: Vec<Opt> = match &n.fork[side] {
                Some(fork) => fork.clone(),
                None => n
                    .children
                    .iter()
                    .copied()
                    .filter(|&c| self.node(c).is_some_and(|c| c.by[side]))
                    .map(Opt::Child)
                    .chain(
                        (0..n.ends.len())
                            .filter(|&j| n.ends.get(j).is_some_and(|e| e.data[side].is_some()))
                            .map(Opt::End),
                    )
                    .collect(),
            };
            opts.into_iter()
                .map(|o| self.key(n, o))
                .filter(|k| by_key.contains_key(k))
                .collect()
        };
        let keys = join(&list(PRIMARY), &list(OTHER), self.tie, Extras::First);
        let mut order: Vec<Opt> = keys.iter().filter_map(|k| by_key.get(k).copied()).collect();
        if order.len() < present.len() {
            // Options neither side listed (not in a well-formed record): after, by key.
            let listed: HashSet<Opt> = order.iter().copied().collect();
            let mut rest: Vec<Opt> = present
                .into_iter()
                .filter(|o| !listed.contains(o))
                .collect();
            rest.sort_unstable_by_key(|&o| self.key(n, o));
            order.extend(rest);
        }
        order
    }

    /// Of `among`, the option shown after node `n`: the primary's, else the other's; with no
    /// side leading the larger key. Else the first.
    fn current(&self, n: &Node<'a>, among: &[Opt]) -> Opt {
        let mut candidates = n.cont.iter().flatten().filter(|o| among.contains(o));
        let chosen = if self.tie {
            candidates.max_by_key(|o| self.key(n, **o))
        } else {
            candidates.next()
        };
        chosen
            .or_else(|| among.first())
            .copied()
            .unwrap_or(Opt::End(NO_END))
    }

    /// Decide every reachable node, from the start: the path `shown` is on screen, a fork over
    /// [`MAX_VARIANTS`] loses its oldest variants. The decisions, and how many variants went.
    fn plan(&self, shown: &[usize]) -> (Vec<Option<Decided>>, usize) {
        let mut forced: HashMap<usize, Opt> = HashMap::with_capacity(shown.len() + 1);
        let mut prev = ROOT;
        for &n in shown {
            forced.insert(prev, Opt::Child(n));
            prev = n;
        }
        let last = prev;
        let mut plan: Vec<Option<Decided>> = vec![None; self.nodes.len()];
        let mut dropped = 0;
        let mut stack = vec![ROOT];
        while let Some(i) = stack.pop() {
            let Some(n) = self.node(i) else { continue };
            let mut order = self.options(n);
            let ends: Vec<Opt> = order
                .iter()
                .copied()
                .filter(|o| matches!(o, Opt::End(_)))
                .collect();
            let current = match forced.get(&i) {
                Some(&opt) => opt,
                // The conversation shown ends here when an end is an option.
                None if i == last && !ends.is_empty() => self.current(n, &ends),
                None => self.current(n, &order),
            };
            while order.len() > MAX_VARIANTS {
                let Some(oldest) = order.iter().position(|o| *o != current) else {
                    break;
                };
                order.remove(oldest);
                dropped += 1;
            }
            stack.extend(order.iter().filter_map(|o| match o {
                Opt::Child(c) => Some(*c),
                Opt::End(_) => None,
            }));
            if let Some(slot) = plan.get_mut(i) {
                *slot = Some(Decided { order, current });
            }
        }
        (plan, dropped)
    }

    /// End `j` of node `at`: the primary's copy, else the other's; with no side leading the
    /// larger JSON.
    fn end_at(&self, at: usize, j: usize) -> (Value, Option<SavedRun>) {
        let data = self
            .node(at)
            .and_then(|n| n.ends.get(j))
            .map_or([None, None], |e| e.data);
        let chosen = match data {
            [Some(a), Some(b)] if self.tie => {
                let text = |e: End| json_text(&(e.state, e.last_run));
                if text(b) > text(a) {
                    Some(b)
                } else {
                    Some(a)
                }
            }
            [Some(a), _] => Some(a),
            [None, b] => b,
        };
        match chosen {
            Some(e) => (e.state.clone(), e.last_run.clone()),
            None => (Value::Object(Default::default()), None),
        }
    }

    /// The messages from option `opt` after node `at`, following the options shown, and where
    /// they end.
    fn follow(
        &self,
        plan: &[Option<Decided>],
        at: usize,
        opt: Opt,
    ) -> (Vec<Message>, Value, Option<SavedRun>) {
        let mut messages = Vec::new();
        let (mut at, mut opt) = (at, opt);
        // Every step goes to a node made after the one before: at most one step per node.
        for _ in 0..=self.nodes.len() {
            match opt {
                Opt::End(j) => {
                    let (state, last_run) = self.end_at(at, j);
                    return (messages, state, last_run);
                }
                Opt::Child(c) => {
                    if let Some(m) = self.node(c).and_then(|n| n.msg) {
                        messages.push(m.clone());
                    }
                    at = c;
                    opt = decided(plan, c).map_or(Opt::End(NO_END), |d| d.current);
                }
            }
        }
        (messages, Value::Object(Default::default()), None)
    }

    /// The record's conversation and forks from the plan; forks in the sides' order (joined),
    /// new ones after, by anchor.
    fn write(&self, plan: &[Option<Decided>], sides: [&'a Branches; 2]) -> Written<'a> {
        let root = decided(plan, ROOT).map_or(Opt::End(NO_END), |d| d.current);
        let (messages, state, last_run) = self.follow(plan, ROOT, root);
        let mut ids = HashSet::with_capacity(plan.len());
        let mut forks: Vec<(Option<&'a str>, usize, Fork)> = Vec::new();
        for (i, decided) in plan.iter().enumerate() {
            let (Some(n), Some(decided)) = (self.node(i), decided) else {
                continue;
            };
            if let Some(m) = n.msg {
                ids.insert(m.id.as_str());
            }
            if decided.order.len() < 2 {
                continue;
            }
            let mut current = 0;
            let variants = decided
                .order
                .iter()
                .enumerate()
                .map(|(slot, &opt)| {
                    if opt == decided.current {
                        current = slot;
                        return Variant::default();
                    }
                    let (messages, state, last_run) = self.follow(plan, i, opt);
                    Variant {
                        messages,
                        state,
                        last_run,
                    }
                })
                .collect();
            let anchor = n.msg.map(|m| m.id.as_str());
            let fork = Fork {
                anchor: anchor.map(str::to_owned),
                variants,
                current,
            };
            forks.push((anchor, i, fork));
        }
        let here: HashSet<Option<&str>> = forks.iter().map(|(a, _, _)| *a).collect();
        let listed = |b: &'a Branches| -> Vec<Option<&'a str>> {
            unique(&b.forks, |f| f.anchor.as_deref())
                .into_iter()
                .filter(|a| here.contains(a))
                .collect()
        };
        let order = join(
            &listed(sides[PRIMARY]),
            &listed(sides[OTHER]),
            self.tie,
            Extras::First,
        );
        let rank: HashMap<Option<&str>, usize> =
            order.iter().enumerate().map(|(i, a)| (*a, i)).collect();
        forks.sort_unstable_by(|a, b| {
            let ra = rank.get(&a.0).copied().unwrap_or(usize::MAX);
            let rb = rank.get(&b.0).copied().unwrap_or(usize::MAX);
            ra.cmp(&rb).then_with(|| a.0.cmp(&b.0)).then(a.1.cmp(&b.1))
        });
        Written {
            messages,
            state,
            last_run,
            forks: forks.into_iter().map(|(_, _, f)| f).collect(),
            ids,
        }
    }
}

impl<'a> Node<'a> {
    fn new(msg: Option<&'a Message>, side: usize) -> Self {
        Node {
            msg,
            msg_side: side,
            children: Vec::new(),
            by: [false; 2],
            cont: [None; 2],
            fork: [None, None],
            ends: Vec::new(),
        }
    }
}

/// When each message arrived, by either side: the earlier of two times for one message; at
/// most [`MAX_TIMES`](super::threads::MAX_TIMES), the latest kept.
fn arrival_times(a: &BTreeMap<String, f64>, b: &BTreeMap<String, f64>) -> BTreeMap<String, f64> {
    let mut out = a.clone();
    for (id, t) in b {
        out.entry(id.clone())
            .and_modify(|mine| *mine = mine.min(*t))
            .or_insert(*t);
    }
    let max = super::threads::MAX_TIMES;
    if out.len() > max {
        let mut all: Vec<(f64, String)> = out.iter().map(|(k, v)| (*v, k.clone())).collect();
        all.sort_by(|x, y| y.0.total_cmp(&x.0).then_with(|| x.1.cmp(&y.1)));
        out = all.into_iter().take(max).map(|(t, k)| (k, t)).collect();
    }
    out
}
