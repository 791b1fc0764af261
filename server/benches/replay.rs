//! `cargo bench -p ppn-ls --bench replay`: moves replayed per second over the conformance
//! example and generated games, and the ratio to the reference's ~10 ms per move.

use std::path::Path;
use std::time::{Duration, Instant};

use ppn_ls::ppn::engine::replay::replay_document;

const REFERENCE_SECONDS_PER_MOVE: f64 = 0.010;

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

    let mut passes = 0u32;
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(3) || passes < 3 {
        for text in &texts {
            std::hint::black_box(replay_document(std::hint::black_box(text)));
        }
        passes += 1;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let moves = moves_per_pass as f64 * f64::from(passes);
    let per_move = elapsed / moves;
    println!(
        "replay: {} files, {moves_per_pass} moves per pass, {passes} passes in {elapsed:.2} s",
        texts.len()
    );
    println!(
        "replay: {:.0} moves/s ({:.1} µs per move), {:.0}x faster than the reference's 10 ms per move",
        1.0 / per_move,
        per_move * 1e6,
        REFERENCE_SECONDS_PER_MOVE / per_move
    );
}
