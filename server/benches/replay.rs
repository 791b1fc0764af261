//! `cargo bench -p ppn-ls --bench replay`: moves replayed per second over the conformance
//! example and generated games, and the ratio to the reference's ~10 ms per move.
//!
//! Five figures, so that each part's share is visible:
//! - the whole pipeline (`replay_document`: games, metadata, setups, movetext, moves),
//!   with the cache of built setups warm; then for the example games and the generated
//!   stress games apart;
//! - the same with the setup cache emptied before every pass;
//! - the engine alone: the moves applied from tokens split beforehand, each game from
//!   its starting board;
//! - what a game costs before its first move (metadata, settings, setup, macros), from
//!   documents of the games' metadata blocks alone;
//! - the movetexts split into moves alone (`split`).
//!
//! On a shared machine the wall clock counts the time other processes hold the cores, so
//! each rate is also given per second of this thread's own CPU time
//! (`CLOCK_THREAD_CPUTIME_ID`). Allocates with mimalloc, as the `ppn-ls` binary does.
//! `PPN_BENCH_SECONDS` sets how long each figure is measured (default 5);
//! `PPN_BENCH_PART=whole,cold,engine,setup,split` chooses the figures (default: all);
//! `PPN_BENCH_FILES=a.ppn,b.ppn` measures those files instead of the conformance games (the
//! `lsp_performance` bench writes its long generated games with `PPN_BENCH_WRITE=folder`).

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ppn_ls::ppn::reader::games::split_games;
use ppn_ls::ppn::reader::movetext::split_movetext_resumable;
use ppn_ls::ppn::replay::replay_document;
use ppn_ls::ppn::rules::setups::clear_setup_cache;
use ppn_ls::ppn::rules::state::GameState;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const REFERENCE_SECONDS_PER_MOVE: f64 = 0.010;

/// How long this thread has run on a CPU; `None` where the system does not say.
fn thread_cpu_time() -> Option<Duration> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec for the call to fill.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    (status == 0).then(|| {
        Duration::new(
            u64::try_from(now.tv_sec).unwrap_or(0),
            u32::try_from(now.tv_nsec).unwrap_or(0),
        )
    })
}

/// The median wall-clock and thread-CPU time of many passes of `pass`: on a loaded
/// machine a pass that another process interrupted says nothing about the replay.
fn measure(seconds: f64, mut pass: impl FnMut()) -> (usize, Duration, Option<Duration>) {
    let mut wall = Vec::new();
    let mut cpu = Vec::new();
    let started = Instant::now();
    while started.elapsed().as_secs_f64() < seconds || wall.len() < 5 {
        let pass_started = Instant::now();
        let cpu_started = thread_cpu_time();
        pass();
        wall.push(pass_started.elapsed());
        if let (Some(before), Some(after)) = (cpu_started, thread_cpu_time()) {
            cpu.push(after.saturating_sub(before));
        }
    }
    let median = |mut samples: Vec<Duration>| {
        samples.sort();
        samples[samples.len() / 2]
    };
    let passes = wall.len();
    let cpu = (!cpu.is_empty()).then(|| median(cpu));
    (passes, median(wall), cpu)
}

fn report_moves(
    what: &str,
    moves: usize,
    (passes, wall, cpu): (usize, Duration, Option<Duration>),
) {
    println!("{what}: {moves} moves per pass, {passes} passes");
    for (clock, time) in [("wall clock", Some(wall)), ("thread CPU time", cpu)] {
        let Some(time) = time else { continue };
        let per_move = time.as_secs_f64() / moves as f64;
        println!(
            "  {clock}, median pass: {:.0} moves/s ({:.3} µs per move), {:.0}x faster than \
             the reference's 10 ms per move",
            1.0 / per_move,
            per_move * 1e6,
            REFERENCE_SECONDS_PER_MOVE / per_move
        );
    }
}

/// One game, split beforehand: its starting state and each move's tokens.
struct SplitGame {
    start: Arc<GameState>,
    moves: Vec<Vec<String>>,
}

fn main() {
    // As the `ppn-ls` binary does as a server (see its `main`).
    ppn_ls::memory::keep_to_small_pages();
    ppn_ls::memory::hold_freed_memory_until_idle();
    let seconds: f64 = std::env::var("PPN_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5.0);
    let parts = std::env::var("PPN_BENCH_PART").unwrap_or_default();
    let wanted = |part: &str| parts.is_empty() || parts.split(',').any(|p| p.trim() == part);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance");
    let mut texts = Vec::new();
    let files = std::env::var("PPN_BENCH_FILES").unwrap_or_default();
    for path in files.split(',').filter(|p| !p.trim().is_empty()) {
        texts.push(std::fs::read_to_string(path.trim()).expect("readable game"));
    }
    let folders: &[&str] = if texts.is_empty() {
        &["examples", "generated"]
    } else {
        &[]
    };
    // Which texts each folder gave, to measure the folders apart too.
    let mut folder_texts = Vec::new();
    for folder in folders {
        let first = texts.len();
        let mut paths: Vec<_> = std::fs::read_dir(root.join(folder))
            .expect("conformance folder")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ppn"))
            .collect();
        paths.sort();
        for path in paths {
            texts.push(std::fs::read_to_string(path).expect("readable game"));
        }
        folder_texts.push((*folder, first..texts.len()));
    }

    let mut games = Vec::new();
    let mut metadata_only = Vec::new();
    let mut moves_of_text = Vec::new();
    for text in &texts {
        let replayed = replay_document(text);
        moves_of_text.push(
            replayed
                .games
                .iter()
                .map(|g| g.moves().len())
                .sum::<usize>(),
        );
        for game in &replayed.games {
            games.push(SplitGame {
                start: game.game_state(0).expect("a starting state"),
                moves: game
                    .moves()
                    .iter()
                    .map(|record| record.tokens().map(|t| t.text.to_string()).collect())
                    .collect(),
            });
        }
        let mut document = String::new();
        for source in split_games(text) {
            if let Some(metadata) = source.metadata {
                document.push_str("---\n");
                document.push_str(&text[metadata]);
                document.push_str("\n...\n");
            }
        }
        metadata_only.push(document);
    }
    let moves_per_pass: usize = games.iter().map(|g| g.moves.len()).sum();
    println!(
        "{} files, {} games, {moves_per_pass} moves",
        texts.len(),
        games.len()
    );

    let whole = || {
        for text in &texts {
            std::hint::black_box(replay_document(std::hint::black_box(text)));
        }
    };
    if wanted("whole") {
        report_moves(
            "whole pipeline (replay_document), setup cache warm",
            moves_per_pass,
            measure(seconds, whole),
        );
        // The example games are games as people write them; the generated ones are stress
        // tests that use every form of the notation in every move.
        for (folder, range) in folder_texts.iter().filter(|_| folder_texts.len() > 1) {
            let texts = &texts[range.clone()];
            report_moves(
                &format!("whole pipeline, `{folder}` alone"),
                moves_of_text[range.clone()].iter().sum(),
                measure(seconds, || {
                    for text in texts {
                        std::hint::black_box(replay_document(std::hint::black_box(text)));
                    }
                }),
            );
        }
    }
    if wanted("cold") {
        report_moves(
            "whole pipeline, setup cache emptied before each pass",
            moves_per_pass,
            measure(seconds, || {
                clear_setup_cache();
                whole()
            }),
        );
    }

    let tokens: Vec<Vec<Vec<&str>>> = games
        .iter()
        .map(|g| {
            g.moves
                .iter()
                .map(|m| m.iter().map(String::as_str).collect())
                .collect()
        })
        .collect();
    if wanted("engine") {
        report_moves(
            "engine only (GameState::apply_move on tokens split beforehand)",
            moves_per_pass,
            measure(seconds, || {
                for (game, moves) in games.iter().zip(&tokens) {
                    let mut state = GameState::clone(&game.start);
                    for tokens in moves {
                        std::hint::black_box(state.apply_move(std::hint::black_box(tokens)));
                    }
                    std::hint::black_box(&state);
                }
            }),
        );
    }
    if wanted("split") {
        let movetexts: Vec<(&str, std::ops::Range<usize>)> = texts
            .iter()
            .flat_map(|text| {
                split_games(text)
                    .into_iter()
                    .map(move |game| (text.as_str(), game.movetext))
            })
            .collect();
        report_moves(
            "movetexts split into moves alone (split_movetext_resumable)",
            moves_per_pass,
            measure(seconds, || {
                for (text, movetext) in &movetexts {
                    std::hint::black_box(split_movetext_resumable(text, movetext.clone()));
                }
            }),
        );
    }
    if !wanted("setup") {
        return;
    }

    let games_with_metadata: usize = metadata_only.iter().map(|d| split_games(d).len()).sum();
    let (passes, wall, cpu) = measure(seconds, || {
        for text in &metadata_only {
            std::hint::black_box(replay_document(std::hint::black_box(text)));
        }
    });
    println!(
        "before the first move (metadata, settings, setup, macros; setup cache warm): \
         {games_with_metadata} games per pass, {passes} passes"
    );
    for (clock, time) in [("wall clock", Some(wall)), ("thread CPU time", cpu)] {
        let Some(time) = time else { continue };
        println!(
            "  {clock}, median pass: {:.2} µs per game",
            time.as_secs_f64() * 1e6 / games_with_metadata as f64
        );
    }
}
