//! Maps keyed by the ids of a stream (message, tool call, activity ids), looked up several
//! times per event: a word-at-a-time multiplicative hash instead of std's SipHash-1-3, which
//! was ~8% of the pipeline's time on a real run (`benches/pipeline_floor.rs`).
//!
//! The ids come from the agent, so the hash is keyed: each map's seed comes from std's
//! `RandomState` (random natively; in the browser std has no randomness either and keys
//! SipHash from allocation addresses — this is as strong there). What bounds an agent that
//! crafts colliding ids anyway is the budgets on how many it can open.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hasher};

/// A map from id to `V`.
pub type IdMap<V> = HashMap<String, V, IdState>;
/// A set of ids.
pub type IdSet = HashSet<String, IdState>;

/// The hasher's seed (one per map).
#[derive(Clone, Debug)]
pub struct IdState(u64);

impl Default for IdState {
    fn default() -> Self {
        Self(RandomState::new().hash_one(0x243f_6a88_85a3_08d3_u64))
    }
}

impl BuildHasher for IdState {
    type Hasher = IdHasher;
    fn build_hasher(&self) -> IdHasher {
        IdHasher(self.0)
    }
}

/// Eight bytes at a time: add, multiply by an odd constant; rotated at the end so the low bits
/// the table indexes by depend on the high ones.
#[derive(Clone, Copy, Debug)]
pub struct IdHasher(u64);

const K: u64 = 0xf135_7aea_2e62_a9c5;

impl IdHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(K).rotate_left(23);
    }
}

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            // The length in the top byte: "a" and "a\0" differ.
            self.add(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 59));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n) | 0x100);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0.wrapping_mul(K).rotate_left(29)
    }
}
