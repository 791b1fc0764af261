//! `cargo bench -p ppn-ls --bench xiangqi`: a generated WXF record of 10,000 legal moves —
//! moves replayed per second, opening the file, and a one-character edit (at the middle
//! and near the end) analysed again, as the language server does on each keystroke.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ppn_ls::ide::document::{analyze, hover};
use ppn_ls::model::edit::TextEdit;
use ppn_ls::xiangqi::board::{Board, Side};
use ppn_ls::xiangqi::notation::write_move;
use ppn_ls::xiangqi::replay::play;
use ppn_ls::xiangqi::rules::{in_check, legal_moves};
use ppn_ls::xiangqi::wxf::read_wxf;

const MOVES: usize = 10_000;

/// Legal moves that capture nothing and give no check, chosen by a fixed-seed generator,
/// so that the game goes on for as long as wanted.
fn record() -> String {
    let mut seed: u64 = 7;
    let mut board = Board::initial();
    let mut side = Side::Red;
    let mut out = String::from("FORMAT  WXF\nGAME    generated\nSTART{\n");
    for index in 0..MOVES {
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
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let (from, to) = quiet[(seed >> 33) as usize % quiet.len()];
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

/// Replace the amount of the move at `at` (its last character) by another digit that
/// keeps the record legal, returning the edited text and the edit.
fn edited(text: &str, needle_from: usize) -> (String, TextEdit) {
    let document = analyze(Some(Path::new("g.wxf")), text.to_string());
    let clean = document.diagnostics().len();
    let starts: Vec<usize> = text
        .match_indices(|c: char| c.is_ascii_alphabetic())
        .map(|(i, _)| i)
        .filter(|&i| {
            i >= needle_from && text[i..].len() > 4 && text.as_bytes()[i + 4].is_ascii_whitespace()
        })
        .collect();
    for start in starts {
        let at = start + 3;
        let old = text.as_bytes()[at];
        for digit in b'1'..=b'9' {
            if digit == old {
                continue;
            }
            let mut new = text.to_string();
            new.replace_range(at..at + 1, &char::from(digit).to_string());
            let edit = TextEdit {
                start: at,
                old_end: at + 1,
                new_end: at + 1,
            };
            if document.update(new.clone(), &edit).diagnostics().len() == clean {
                return (new, edit);
            }
        }
    }
    panic!("no one-character edit keeps the record legal");
}

fn main() {
    let text = record();
    let path = Path::new("generated.wxf");
    let open = median(5, || {
        std::hint::black_box(analyze(Some(path), std::hint::black_box(text.clone())));
    });
    let document = analyze(Some(path), text.clone());
    assert!(
        document.diagnostics().is_empty(),
        "{:?}",
        &document.diagnostics()[..1]
    );
    let read = median(5, || {
        std::hint::black_box(read_wxf(std::hint::black_box(&text)));
    });
    let parsed = read_wxf(&text);
    let start = Arc::new(parsed.start.board());
    let replay = median(5, || {
        let mut played = Vec::new();
        play(&start, Side::Red, &parsed.moves, &mut played);
        std::hint::black_box(played);
    });
    let moves = document.main_line(0).len() - 1;
    println!(
        "xiangqi: a WXF record of {moves} moves, {} KiB",
        text.len() / 1024
    );
    println!(
        "xiangqi: open (read, replay with every move checked, diagnostics): {:.1} ms, {:.0} moves/s",
        ms(open),
        moves as f64 / open.as_secs_f64()
    );
    println!(
        "xiangqi: of which reading {:.1} ms, replaying {:.1} ms ({:.0} moves/s)",
        ms(read),
        ms(replay),
        moves as f64 / replay.as_secs_f64()
    );
    for (place, from) in [("middle", text.len() / 2), ("end", text.len() - 40)] {
        let (new_text, edit) = edited(&text, from);
        let update = median(5, || {
            std::hint::black_box(document.update(new_text.clone(), &edit));
        });
        let updated = document.update(new_text.clone(), &edit);
        let fresh = analyze(Some(path), new_text.clone());
        assert_eq!(updated.diagnostics(), fresh.diagnostics());
        let hover_time = median(5, || {
            std::hint::black_box(hover(&*updated, edit.start));
        });
        println!(
            "xiangqi: one-character edit at the {place}: {:.1} ms to analyse again, {:.2} ms for the hover there",
            ms(update),
            ms(hover_time)
        );
    }
}
