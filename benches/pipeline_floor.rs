//! The pipeline against a bare "split on blank lines + parse to `serde_json::Value`" of the
//! same bytes, natively (the browser benchmark, `scripts/bench-browser.sh`, compares against
//! `JSON.parse` in the page; this is the quick loop for working on the pipeline):
//!
//!     cargo bench --profile release --bench pipeline_floor
use std::time::Instant;

use agui_leptos::protocol::{Pipeline, PipelineOptions, Thread};

#[path = "bench_support/workloads.rs"]
mod workloads;

fn floor(bytes: &[u8]) -> usize {
    let text = std::str::from_utf8(bytes).unwrap_or_default();
    let mut n = 0;
    for block in text.split("\n\n") {
        let Some(data) = block.lines().find_map(|l| l.strip_prefix("data: ")) else {
            continue;
        };
        if serde_json::from_str::<serde_json::Value>(data).is_ok() {
            n += 1;
        }
    }
    n
}

fn pipeline(bytes: &[u8]) -> usize {
    let mut p = Pipeline::new(Thread::new(), PipelineOptions::default());
    let mut n = p.push_bytes(bytes).len();
    n += p.finish().len();
    assert!(p.error().is_none(), "{:?}", p.error());
    n
}

fn median(f: impl Fn() -> usize, reps: usize) -> f64 {
    let mut t: Vec<f64> = (0..reps)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(f());
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[reps / 2]
}

fn main() {
    // `PROFILE=k`: only run workload k's pipeline, `REPS` times (default 20; for `perf record`).
    if let Some(k) = std::env::var("PROFILE")
        .ok()
        .and_then(|k| k.parse::<usize>().ok())
    {
        let bytes = &workloads::all()[k].1;
        let reps = std::env::var("REPS")
            .ok()
            .and_then(|r| r.parse().ok())
            .unwrap_or(20);
        for _ in 0..reps {
            std::hint::black_box(pipeline(bytes));
        }
        return;
    }
    println!("| workload | bytes | floor ms | pipeline ms | ratio |");
    println!("|---|---:|---:|---:|---:|");
    for (name, bytes) in workloads::all() {
        let f = median(|| floor(&bytes), 9);
        let p = median(|| pipeline(&bytes), 9);
        println!(
            "| {name} | {} | {f:.2} | {p:.2} | {:.1}× |",
            bytes.len(),
            p / f
        );
    }
}
