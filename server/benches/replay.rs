//! `cargo bench -p ppn-ls --bench replay`: moves replayed per second over the conformance
//! example and generated games, and the ratio to the reference's ~10 ms per move.
//!
//! On a shared machine the wall clock counts the time other processes hold the cores, so
//! the rate is also given per second of this thread's own CPU time
//! (`/proc/thread-self/schedstat`).

use std::path::Path;
use std::time::{Duration, Instant};

use ppn_ls::ppn::engine::replay::replay_document;

const REFERENCE_SECONDS_PER_MOVE: f64 = 0.010;

/// Nanoseconds this thread has run on a CPU; `None` where the kernel does not say.
fn thread_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanoseconds = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanoseconds))
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance");
    let mut texts = Vec::new();
    for folder in ["examples", "generated"] {
        let mut paths: Vec<_> = std::fs::read_dir(root.join(folder))
            .expect("conformance folder")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ppn"))
            .collect();
        paths.sort();
        for path in paths {
            texts.push(std::fs::read_to_string(path).expect("readable game"));
        }
    }
    let moves_per_pass: usize = texts
        .iter()
        .map(|t| {
            replay_document(t)
                .games
                .iter()
                .map(|g| g.move_count())
                .sum::<usize>()
        })
        .sum();

    // The median of many short passes: on a loaded machine a pass that another process
    // interrupted says nothing about the replay.
    let mut wall = Vec::new();
    let mut cpu = Vec::new();
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(5) || wall.len() < 5 {
        let pass_started = Instant::now();
        let cpu_started = thread_cpu_time();
        for text in &texts {
            std::hint::black_box(replay_document(std::hint::black_box(text)));
        }
        wall.push(pass_started.elapsed());
        if let (Some(before), Some(after)) = (cpu_started, thread_cpu_time()) {
            cpu.push(after.saturating_sub(before));
        }
    }
    println!(
        "replay: {} files, {moves_per_pass} moves per pass, {} passes",
        texts.len(),
        wall.len()
    );
    let median = |mut samples: Vec<Duration>| {
        samples.sort();
        samples[samples.len() / 2]
    };
    for (clock, samples) in [("wall clock", wall), ("thread CPU time", cpu)] {
        if samples.is_empty() {
            continue;
        }
        let per_move = median(samples).as_secs_f64() / moves_per_pass as f64;
        println!(
            "replay ({clock}, median pass): {:.0} moves/s ({:.2} µs per move), {:.0}x faster \
             than the reference's 10 ms per move",
            1.0 / per_move,
            per_move * 1e6,
            REFERENCE_SECONDS_PER_MOVE / per_move
        );
    }
}
