//! `cargo bench -p ppn-ls --bench xiangqi`: WXF records.
//!
//! - Reading and replaying a generated record of legal moves, in the library (moves per
//!   second).
//! - The same record of 10,000 and 100,000 moves (`PPN_BENCH_MOVES` picks the sizes)
//!   through the language server (open, one-character edits near the start, the middle and
//!   the end: in the header, a letter typed into a move, a piece letter replaced by its
//!   alias; hovers, semantic tokens, folding, resident memory after 1,000 edits) and in the
//!   library (see `lsp_scenarios`).
//!
//! `PPN_BENCH_WRITE=FOLDER` only writes the generated records there (`generated-N.wxf`).

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ppn_ls::ide::analyze::analyze;
use ppn_ls::xiangqi::board::{Board, Side};
use ppn_ls::xiangqi::reader::wxf::read_wxf;
use ppn_ls::xiangqi::replay::play;
use ppn_ls::xiangqi::rules::{in_check, legal_moves};
use ppn_ls::xiangqi::wxf_move::write_move;

mod lsp_scenarios;
use lsp_scenarios::{Prng, Scenario, Typing};

#[global_allocator]
static GLOBAL: lsp_scenarios::CountingAllocator = lsp_scenarios::CountingAllocator;

/// Legal moves that capture nothing and give no check, chosen by a fixed-seed generator,
/// so that the game goes on for as long as wanted; five moves a line.
fn record(moves: usize) -> String {
    let mut prng = Prng(7);
    let mut board = Board::initial();
    let mut side = Side::Red;
    let mut out = String::from(
        "FORMAT  WXF\nGAME    generated\nRED     red player\nBLACK   black player\nSTART{\n",
    );
    for index in 0..moves {
        let quiet: Vec<_> = legal_moves(&board, side)
            .into_iter()
            .filter(|(from, to)| {
                let mut after = board.clone();
                after.put(*to, after.get(*from));
                after.put(*from, None);
                board.get(*to).is_none() && !in_check(&after, side.other())
            })
            .collect();
        assert!(
            !quiet.is_empty(),
            "the generated game ran out of quiet moves at {index}"
        );
        let (from, to) = quiet[prng.below(quiet.len())];
        let text = write_move(&board, from, to).expect("a legal move is written");
        if side == Side::Red {
            out.push_str(&format!("{:>5}. {text}", index / 2 + 1));
        } else {
            out.push_str(&format!(" {text}\n"));
        }
        let man = board.get(from);
        board.put(to, man);
        board.put(from, None);
        side = side.other();
    }
    out.push_str("\n}END\n");
    out
}

/// Median time of `runs` calls of `f`.
fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            f();
            started.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}

/// Where to type: in the header; a letter typed into a move (which it breaks: every later
/// move is read for the other side); a horse's `H` replaced by its alias `N` (the same
/// move), near the start, the middle and the end.
fn typing_places(text: &str) -> Vec<Typing> {
    let mut places = vec![Typing {
        name: "start, in the header",
        at: text.find("generated").unwrap_or(0) + 4,
        typed: 'x',
        replaced: 0,
        near_end: false,
    }];
    for (fraction, name_move, name_alias, near_end) in [
        (0.0, "start, in a move", "start, `H` → `N`", false),
        (0.5, "middle, in a move", "middle, `H` → `N`", false),
        (0.97, "end, in a move", "end, `H` → `N`", true),
    ] {
        let from = (text.len() as f64 * fraction) as usize;
        let from = from + text[from..].find(". ").unwrap_or(0) + 2;
        places.push(Typing {
            name: name_move,
            at: from + 1,
            typed: 'x',
            replaced: 0,
            near_end,
        });
        if fraction == 0.0 {
            // A letter typed before the first move number: a word that is no move, and takes
            // no move's place.
            places.push(Typing::before_number(
                "start, before a move number",
                text,
                from - 1,
                near_end,
            ));
        }
        let horse = from + text[from..].find('H').unwrap_or(0);
        places.push(Typing {
            name: name_alias,
            at: horse,
            typed: 'N',
            replaced: 1,
            near_end,
        });
    }
    places
}

fn replay_speed(text: &str, moves: usize) {
    let path = Path::new("generated.wxf");
    let open = median(5, || {
        std::hint::black_box(analyze(Some(path), std::hint::black_box(text.to_string())));
    });
    let read = median(5, || {
        std::hint::black_box(read_wxf(std::hint::black_box(text)));
    });
    let parsed = read_wxf(text);
    let start = Arc::new(parsed.start.board());
    let replay = median(5, || {
        let mut played = ppn_ls::model::chunked::ChunkedVec::new();
        play(&start, Side::Red, &parsed.moves, &mut played);
        std::hint::black_box(played);
    });
    println!(
        "xiangqi: open {moves} moves (read, replay with every move checked, diagnostics): {:.1} ms, {:.0} moves/s",
        ms(open),
        moves as f64 / open.as_secs_f64()
    );
    println!(
        "xiangqi: of which reading {:.1} ms, replaying {:.1} ms ({:.0} moves/s)",
        ms(read),
        ms(replay),
        moves as f64 / replay.as_secs_f64()
    );
}

fn main() {
    lsp_scenarios::configure_allocator();
    let sizes = lsp_scenarios::sizes();
    if let Ok(folder) = std::env::var("PPN_BENCH_WRITE") {
        for moves in sizes {
            let path = Path::new(&folder).join(format!("generated-{moves}.wxf"));
            std::fs::write(&path, record(moves)).expect("the record is written");
            println!("{}", path.display());
        }
        return;
    }
    let runtime = lsp_scenarios::runtime();
    for moves in sizes {
        let text = record(moves);
        if !matches!(
            std::env::var("PPN_BENCH_PART").unwrap_or_default().as_str(),
            "server" | "updates"
        ) {
            replay_speed(&text, moves);
        }
        let middle = text.len() / 2 + text[text.len() / 2..].find(". ").unwrap_or(0) + 3;
        let scenario = Scenario {
            uri: "file:///bench/generated.wxf",
            moves,
            typing: typing_places(&text),
            hovers: vec![
                ("a move near the start", text.find("1. ").unwrap_or(0) + 4),
                ("a move in the middle", middle),
                ("a move near the end", text.len() - 12),
                ("a header key", 1),
            ],
            text,
        };
        lsp_scenarios::run(&runtime, &scenario);
    }
}
