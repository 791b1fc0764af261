//! `cargo bench -p ppn-ls --bench otn`: OpenTafl records.
//!
//! - Replay speed on real records (OpenTafl's replays and real Copenhagen games), in the
//!   library.
//! - A generated Copenhagen game of 10,000 and 100,000 moves (`PPN_BENCH_MOVES` picks the
//!   sizes): through the language server (open, one-character edits near the start, the
//!   middle and the end, in a move and in a commentary, hovers, semantic tokens, folding,
//!   resident memory after 1,000 edits) and in the library (see `lsp_scenarios`).
//!
//! `PPN_BENCH_WRITE=FOLDER` only writes the generated records there
//! (`generated-N.otg`), for timing the CLI on them.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use ppn_ls::otn::board::{other_side, Census, Man, Square, TaflMan, TaflSide};
use ppn_ls::otn::document::OtnDocument;
use ppn_ls::otn::reader::moves::capture_record;
use ppn_ls::otn::rules::{apply, check_move, man_at, verdict};
use ppn_ls::otn::variant::parse_rules;

mod lsp_scenarios;
use lsp_scenarios::{Prng, Scenario, Typing};

#[global_allocator]
static GLOBAL: lsp_scenarios::CountingAllocator = lsp_scenarios::CountingAllocator;

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

/// A position's identity for the generator's repetition count.
fn position_key(cells: &[u8], side: TaflSide) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    cells.hash(&mut hasher);
    (side == TaflSide::Defenders).hash(&mut hasher);
    hasher.finish()
}

/// A legal Copenhagen game of `moves` moves that never ends: random moves of random men,
/// captures written as the engine makes them while each side keeps at least ten men,
/// never a move that ends the game or repeats a position a third time, and a commentary
/// line after every eighth turn.
fn generated_record(moves: usize, seed: u64) -> String {
    let mut diagnostics = Vec::new();
    let rules = parse_rules(COPENHAGEN, 0, &mut diagnostics).rules;
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let dim = rules.dim;
    let mut prng = Prng(seed);
    let mut cells = rules.start.cells.clone();
    let mut side = TaflSide::Attackers;
    let mut seen: HashMap<u64, u8> = HashMap::new();
    *seen.entry(position_key(&cells, side)).or_default() += 1;
    let mut text = format!("[event:Generated game]\n[rules:{COPENHAGEN}]\n\n");
    let mut line = String::new();
    let directions: [(isize, isize); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    for index in 0..moves {
        let men: Vec<usize> = (0..cells.len())
            .filter(|i| man_at(&cells, *i).is_some_and(|m| m.side == side))
            .collect();
        let count = |cells: &[u8], side: TaflSide| {
            cells
                .iter()
                .filter(|c| Man::from_code(**c).is_some_and(|m| m.side == side))
                .count()
        };
        let mut attempts = 0;
        let (from, to, after, captures) = loop {
            attempts += 1;
            assert!(attempts < 100_000, "no move found at {index}");
            let from = men[prng.below(men.len())];
            let (dx, dy) = directions[prng.below(4)];
            let distance = 1 + prng.below(dim - 1) as isize;
            let (x, y) = ((from % dim) as isize, (from / dim) as isize);
            let (tx, ty) = (x + dx * distance, y + dy * distance);
            if tx < 0 || ty < 0 || tx >= dim as isize || ty >= dim as isize {
                continue;
            }
            let to = ty as usize * dim + tx as usize;
            if check_move(&rules, &cells, from, to) != Ok(false) {
                continue;
            }
            let mut after = cells.clone();
            let outcome = apply(&rules, &mut after, from, to);
            if !outcome.captures.is_empty() && count(&after, other_side(side)) < 10 {
                continue;
            }
            if verdict(&rules, &after, Census::of(&after), side, true, false).is_some() {
                continue;
            }
            let key = position_key(&after, other_side(side));
            if seen.get(&key).copied().unwrap_or(0) >= 2 {
                continue;
            }
            *seen.entry(key).or_default() += 1;
            break (from, to, after, outcome.captures);
        };
        let mover = man_at(&cells, from).expect("a man moves");
        if index % 2 == 0 {
            if index > 0 {
                text.push_str(line.trim_end());
                text.push('\n');
                line.clear();
                if (index / 2) % 8 == 0 {
                    let _ = writeln!(
                        text,
                        "[the attackers open a file|the defenders answer on rank {}]",
                        1 + prng.below(dim)
                    );
                }
            }
            let _ = write!(line, "{}. ", index / 2 + 1);
        }
        let letter = if mover.kind == TaflMan::Taflman {
            String::new()
        } else {
            mover.letter().to_string()
        };
        let captured: Vec<(Square, Man)> = captures
            .iter()
            .map(|(i, m)| (Square::of_index(*i, dim), *m))
            .collect();
        let _ = write!(
            line,
            "{letter}{}-{}{} ",
            Square::of_index(from, dim).name(),
            Square::of_index(to, dim).name(),
            capture_record(&captured)
        );
        cells = after;
        side = other_side(side);
    }
    text.push_str(line.trim_end());
    text.push('\n');
    text
}

/// Where to type: in a move (a letter that breaks it, and a `+` that only adds a claim)
/// and in a commentary, near the start, the middle and the end.
fn typing_places(text: &str) -> Vec<Typing> {
    let near = |fraction: f64, needle: &str, skip: usize| {
        let from = (text.len() as f64 * fraction) as usize;
        text[from..]
            .find(needle)
            .map_or(from, |found| from + found + skip)
    };
    let mut places = Vec::new();
    for (fraction, name_move, name_claim, name_comment, near_end) in [
        (
            0.0,
            "start, in a move",
            "start, `+` after a move",
            "start, in a commentary",
            false,
        ),
        (
            0.5,
            "middle, in a move",
            "middle, `+` after a move",
            "middle, in a commentary",
            false,
        ),
        (
            0.97,
            "end, in a move",
            "end, `+` after a move",
            "end, in a commentary",
            true,
        ),
    ] {
        // The first move of a turn: `12. ` then the move; its second character.
        let turn = near(fraction, ". ", 2);
        let move_end = turn + text[turn..].find(' ').unwrap_or(0);
        places.push(Typing {
            name: name_move,
            at: turn + 1,
            typed: 'x',
            replaced: 0,
            near_end,
        });
        if fraction == 0.5 {
            // A letter typed before a turn's number: still that turn, with an error.
            places.push(Typing::before_number(
                "middle, before a turn number",
                text,
                turn - 1,
                near_end,
            ));
        }
        places.push(Typing {
            name: name_claim,
            at: move_end,
            typed: '+',
            replaced: 0,
            near_end,
        });
        places.push(Typing {
            name: name_comment,
            at: near(fraction, "[the attackers", 5),
            typed: 'x',
            replaced: 0,
            near_end,
        });
    }
    places
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

fn replay_speed() {
    let records = real_records();
    let moves: usize = records
        .iter()
        .map(|t| {
            OtnDocument::new(t.clone())
                .main_line(0)
                .len()
                .saturating_sub(1)
        })
        .sum();
    let (per_pass, passes) = time(|| {
        for text in &records {
            std::hint::black_box(OtnDocument::new(text.clone()));
        }
    });
    let per_move = per_pass.as_secs_f64() / moves as f64;
    println!(
        "otn replay: {} records, {moves} main-line moves per pass, {passes} passes, {:.0} moves/s ({:.2} µs per move, {:.1} µs per record)",
        records.len(),
        1.0 / per_move,
        per_move * 1e6,
        per_pass.as_secs_f64() * 1e6 / records.len() as f64
    );
}

use ppn_ls::model::notation_document::NotationDocument;

fn main() {
    lsp_scenarios::configure_allocator();
    let sizes = lsp_scenarios::sizes();
    if let Ok(folder) = std::env::var("PPN_BENCH_WRITE") {
        for moves in sizes {
            let path = Path::new(&folder).join(format!("generated-{moves}.otg"));
            std::fs::write(&path, generated_record(moves, 7)).expect("the record is written");
            println!("{}", path.display());
        }
        return;
    }
    if !matches!(
        std::env::var("PPN_BENCH_PART").unwrap_or_default().as_str(),
        "server" | "updates"
    ) {
        replay_speed();
    }
    let runtime = lsp_scenarios::runtime();
    for moves in sizes {
        let text = generated_record(moves, 7);
        let middle = text.len() / 2 + text[text.len() / 2..].find(". ").unwrap_or(0) + 3;
        let scenario = Scenario {
            uri: "file:///bench/generated.otg",
            moves,
            typing: typing_places(&text),
            hovers: vec![
                ("a move near the start", text.find("1. ").unwrap_or(0) + 4),
                ("a move in the middle", middle),
                ("a move near the end", text.len() - 4),
                ("the rules", text.find("efe").unwrap_or(0)),
            ],
            text,
        };
        lsp_scenarios::run(&runtime, &scenario);
    }
}
