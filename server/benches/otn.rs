//! `cargo bench -p ppn-ls --bench otn`: OTN replay speed on real records (OpenTafl's
//! replays and real Copenhagen games), and opening and editing a generated 10,000-move
//! record.

use std::path::Path;
use std::time::{Duration, Instant};

use ppn_ls::model::edit::TextEdit;
use ppn_ls::otn::document::OtnDocument;

const COPENHAGEN: &str = "dim:11 name:Copenhagen atkf:y tfr:w corh:tT sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

fn real_records() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/otn");
    let mut texts: Vec<String> = std::fs::read_dir(root.join("opentafl"))
        .expect("tests/otn/opentafl")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "otg"))
        .map(|p| std::fs::read_to_string(p).expect("readable record"))
        .collect();
    let csv = std::fs::read_to_string(root.join("copenhagen.csv")).expect("copenhagen.csv");
    for line in csv.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let moves: Vec<String> = line
            .split(',')
            .next()
            .unwrap_or("")
            .split(' ')
            .filter(|m| !m.is_empty() && *m != "timeout")
            .map(|m| {
                let mut parts = m.split('x');
                let movement = parts.next().unwrap_or("").to_string();
                let captures: Vec<&str> = parts.collect();
                if captures.is_empty() {
                    movement
                } else {
                    format!("{movement}x{}", captures.join("/"))
                }
            })
            .collect();
        let mut text = format!("[rules:{COPENHAGEN}]\n\n");
        for (turn, pair) in moves.chunks(2).enumerate() {
            text.push_str(&format!("{}. {}\n", turn + 1, pair.join(" ")));
        }
        texts.push(text);
    }
    texts
}

/// A legal record of `moves` moves: two men shuttling on a Copenhagen board where
/// repetitions are ignored.
fn long_record(moves: usize) -> String {
    let rules = COPENHAGEN.replace("tfr:w", "tfr:i");
    let mut text = format!("[rules:{rules}]\n\n");
    for turn in 0..moves / 2 {
        let pair = if turn % 2 == 0 {
            "a4-b4 f4-f3"
        } else {
            "b4-a4 f3-f4"
        };
        text.push_str(&format!("{}. {pair}\n", turn + 1));
    }
    text
}

fn time<T>(mut run: impl FnMut() -> T) -> (Duration, u32) {
    let mut passes = 0u32;
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(2) || passes < 3 {
        std::hint::black_box(run());
        passes += 1;
    }
    (started.elapsed() / passes, passes)
}

fn main() {
    let records = real_records();
    let moves: usize = records
        .iter()
        .map(|t| OtnDocument::new(t.clone()).replay.state_count() - 1)
        .sum();
    let (per_pass, passes) = time(|| {
        for text in &records {
            std::hint::black_box(OtnDocument::new(text.clone()));
        }
    });
    let per_move = per_pass.as_secs_f64() / moves as f64;
    println!(
        "otn replay: {} records, {moves} moves per pass, {passes} passes, {:.0} moves/s ({:.2} µs per move, {:.1} µs per record)",
        records.len(),
        1.0 / per_move,
        per_move * 1e6,
        per_pass.as_secs_f64() * 1e6 / records.len() as f64
    );

    let text = long_record(10_000);
    let (open, _) = time(|| OtnDocument::new(text.clone()));
    let document = OtnDocument::new(text.clone());
    assert!(
        document.diagnostics.is_empty(),
        "{:?}",
        &document.diagnostics[..1]
    );
    assert_eq!(document.replay.lines[0].plies.len(), 10_001);
    println!(
        "otn open: a 10,000-move record in {:.2} ms",
        open.as_secs_f64() * 1e3
    );
    for (name, at) in [
        ("near the end", text.len() - 4),
        ("near the start", text.find("1. a4").unwrap_or(0) + 1),
    ] {
        // One character replaced: the digit of a turn number or a square stays a digit.
        let mut edited = text.clone();
        let old = edited.as_bytes()[at];
        let new = if old == b'4' { "3" } else { "4" };
        edited.replace_range(at..at + 1, new);
        let edit = TextEdit {
            start: at,
            old_end: at + 1,
            new_end: at + 1,
        };
        let (update, _) = time(|| document.updated(edited.clone(), &edit));
        println!(
            "otn edit {name}: one character of a 10,000-move record re-analysed in {:.2} ms",
            update.as_secs_f64() * 1e3
        );
    }
}
