//! `cargo bench -p ppn-ls --bench lsp_performance`: what the language server costs on a
//! generated piecepack game of 10,000 moves: opening it (full analysis), re-analysing it
//! after a one-character edit near its end, a hover-like look-up (the move at an offset
//! and its board), and the heap the analysis keeps.

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use ppn_ls::ide::analysis::{DocumentAnalysis, TextEdit};
use ppn_ls::ide::board::render_board;

/// Counts the bytes currently allocated, to measure what an analysis keeps alive.
struct CountingAllocator;

static ALLOCATED: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            ALLOCATED.fetch_add(layout.size(), Ordering::Relaxed);
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // SAFETY: `pointer` came from `alloc` above with this layout.
        unsafe { System.dealloc(pointer, layout) };
        ALLOCATED.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let moved = unsafe { System.realloc(pointer, layout, new_size) };
        if !moved.is_null() {
            ALLOCATED.fetch_sub(layout.size(), Ordering::Relaxed);
            ALLOCATED.fetch_add(new_size, Ordering::Relaxed);
        }
        moved
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

const MOVES: usize = 10_000;

const OPEN_TARGET: Duration = Duration::from_millis(100);
const EDIT_TARGET: Duration = Duration::from_millis(5);
const HOVER_TARGET: Duration = Duration::from_millis(2);
const MEMORY_TARGET_BYTES: usize = 100 * 1024 * 1024;

/// A small deterministic generator (SplitMix64), so every run benches the same game.
struct Prng(u64);

impl Prng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}

const FILES: [char; 8] = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const SUITS: [char; 4] = ['S', 'M', 'C', 'A'];

fn square(cell: (usize, usize)) -> String {
    format!("{}{}", FILES[cell.0], cell.1 + 1)
}

/// A piecepack game on an 8×8 board of sixteen tiles: coins are dropped, moved, captured
/// (`:`) and removed, stacks grow, and a die is rolled now and then. The generator keeps
/// its own count of the coins on each square, so every move is valid.
fn generate_game(moves: usize, seed: u64) -> String {
    let mut prng = Prng(seed);
    let mut text = String::from("---\nGameTitle: Generated piecepack game\n...\n");
    let tiles: Vec<String> = (0..16)
        .map(|i| format!("t@({}.5,{}.5)", 1 + 2 * (i % 4), 1 + 2 * (i / 4)))
        .collect();
    let _ = writeln!(text, "1. {} d@(10,1)", tiles.join(" "));
    let mut coins: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    let mut total = 0usize;
    for number in 1..moves {
        let label = if number % 2 == 1 {
            format!("{}...", number.div_ceil(2))
        } else {
            format!("{}.", number / 2 + 1)
        };
        let occupied: Vec<(usize, usize)> = coins.keys().copied().collect();
        let cell = (prng.below(8), prng.below(8));
        let choice = prng.below(10);
        let body = if occupied.len() < 4 || (choice < 3 && total < 40) {
            *coins.entry(cell).or_default() += 1;
            total += 1;
            let suit = SUITS[prng.below(4)];
            if prng.below(2) == 0 {
                format!("c{suit}{}@{}", prng.below(6), square(cell))
            } else {
                format!("{suit}@{}", square(cell))
            }
        } else {
            let from = occupied[prng.below(occupied.len())];
            let target = occupied[prng.below(occupied.len())];
            let remove = |coins: &mut BTreeMap<(usize, usize), usize>, at| {
                if let Some(count) = coins.get_mut(&at) {
                    *count -= 1;
                    if *count == 0 {
                        coins.remove(&at);
                    }
                }
            };
            match choice {
                3..=5 if from != cell => {
                    remove(&mut coins, from);
                    *coins.entry(cell).or_default() += 1;
                    format!("{}-{}", square(from), square(cell))
                }
                6 | 7 if from != target => {
                    remove(&mut coins, from);
                    total -= 1;
                    format!("{}:{}", square(from), square(target))
                }
                8 => {
                    remove(&mut coins, from);
                    total -= 1;
                    format!("*{}", square(from))
                }
                _ => format!("?d~{} {{rolled}}", prng.below(6) + 1),
            }
        };
        let _ = write!(text, "{label} {body}");
        text.push(if number % 2 == 0 { '\n' } else { ' ' });
    }
    text
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// Runs `work` repeatedly for about a second (at least three times); the median time.
fn measure(mut work: impl FnMut()) -> Duration {
    let mut samples = Vec::new();
    let started = Instant::now();
    while samples.len() < 3 || (started.elapsed() < Duration::from_secs(1) && samples.len() < 200) {
        let run = Instant::now();
        work();
        samples.push(run.elapsed());
    }
    median(samples)
}

fn verdict(ok: bool) -> &'static str {
    if ok {
        "ok"
    } else {
        "OVER TARGET"
    }
}

fn report(name: &str, took: Duration, target: Duration) {
    println!(
        "{name:<34} {:>9.3} ms   (target < {:>5.1} ms) {}",
        took.as_secs_f64() * 1e3,
        target.as_secs_f64() * 1e3,
        verdict(took < target)
    );
}

fn main() {
    let text = generate_game(MOVES, 7);
    let fresh = DocumentAnalysis::new(text.clone());
    let moves: usize = fresh
        .replay
        .games
        .iter()
        .map(|game| game.states.len() - 1)
        .sum();
    assert!(
        fresh.diagnostics.is_empty(),
        "the generated game must be valid: {:?}",
        &fresh.diagnostics[..fresh.diagnostics.len().min(5)]
    );
    let pieces = fresh.replay.games[0]
        .states
        .last()
        .map_or(0, |state| state.pieces().len());
    println!(
        "lsp_performance: {moves} moves, {} KiB of text, {pieces} pieces on the last board",
        text.len() / 1024
    );
    drop(fresh);

    let before = ALLOCATED.load(Ordering::Relaxed);
    let kept = DocumentAnalysis::new(text.clone());
    let heap = ALLOCATED.load(Ordering::Relaxed).saturating_sub(before);
    println!(
        "{:<34} {:>9.1} MB   (target < {:>5.1} MB) {}",
        "analysis heap",
        heap as f64 / 1e6,
        MEMORY_TARGET_BYTES as f64 / 1e6,
        verdict(heap < MEMORY_TARGET_BYTES)
    );

    if std::env::var_os("PPN_BREAKDOWN").is_some() {
        let t = measure(|| {
            std::hint::black_box(ppn_ls::syntax::parse(&text, None));
        });
        println!("parse {t:?}");
        let tree = ppn_ls::syntax::parse(&text, None);
        let t = measure(|| {
            std::hint::black_box(ppn_ls::syntax::syntax_errors(&tree, &text));
        });
        println!("syntax errors {t:?}");
        let t = measure(|| {
            std::hint::black_box(ppn_ls::notation::document::split_games_checked(&text));
        });
        println!("split games {t:?}");
        let games = ppn_ls::notation::document::split_games(&text);
        let t = measure(|| {
            std::hint::black_box(ppn_ls::notation::movetext::split_movetext(
                &text,
                games[0].movetext.clone(),
            ));
        });
        println!("split movetext {t:?}");
        let t = measure(|| {
            std::hint::black_box(ppn_ls::engine::replay::replay_document(&text));
        });
        println!("replay document {t:?}");
        let t = measure(|| {
            std::hint::black_box(ppn_ls::ide::line_index::LineIndex::new(&text));
        });
        println!("line index {t:?}");
        let at = text.rfind("?d~").unwrap() + 3;
        let mut edited = text.clone();
        edited.insert(at, '1');
        let replay = ppn_ls::engine::replay::replay_document(&text);
        let edit = TextEdit {
            start: at,
            old_end: at,
            new_end: at + 1,
        };
        let t = measure(|| {
            std::hint::black_box(replay.update(&text, &edited, &edit));
        });
        println!("replay update {t:?}");
        let point = |t: &str, offset: usize| {
            let before = &t[..offset];
            let row = before.matches('\n').count();
            let column = offset - before.rfind('\n').map_or(0, |i| i + 1);
            tree_sitter::Point { row, column }
        };
        let t = measure(|| {
            std::hint::black_box(ppn_ls::syntax::parse(&text, Some(&tree)));
        });
        println!("reparse unchanged {t:?}");
        let input = tree_sitter::InputEdit {
            start_byte: at,
            old_end_byte: at,
            new_end_byte: at + 1,
            start_position: point(&text, at),
            old_end_position: point(&text, at),
            new_end_position: point(&edited, at + 1),
        };
        let mut edited_tree = tree.clone();
        edited_tree.edit(&input);
        let reparsed = ppn_ls::syntax::parse(&edited, Some(&edited_tree));
        println!(
            "changed ranges {:?}",
            reparsed.changed_ranges(&edited_tree).collect::<Vec<_>>()
        );
        let t = measure(|| {
            std::hint::black_box(ppn_ls::syntax::parse(&edited, Some(&edited_tree)));
        });
        println!("incremental parse {t:?}");
        for at in [60usize, 1000, 60000, text.len() - 200, text.len() - 1] {
            let at = (at..)
                .find(|&i| text.is_char_boundary(i) && text.as_bytes()[i] == b' ')
                .unwrap_or(text.len());
            let mut edited = text.clone();
            edited.insert(at, ' ');
            let input = tree_sitter::InputEdit {
                start_byte: at,
                old_end_byte: at,
                new_end_byte: at + 1,
                start_position: point(&text, at),
                old_end_position: point(&text, at),
                new_end_position: point(&edited, at + 1),
            };
            let mut edited_tree = tree.clone();
            edited_tree.edit(&input);
            let t = measure(|| {
                std::hint::black_box(ppn_ls::syntax::parse(&edited, Some(&edited_tree)));
            });
            println!("space inserted at {at}: incremental parse {t:?}");
        }
    }
    let open = measure(|| {
        std::hint::black_box(DocumentAnalysis::new(std::hint::black_box(text.clone())));
    });
    report("open (full analysis)", open, OPEN_TARGET);

    // Type one character into the comment of a move near the end; then one that changes
    // what that move does, so the game is replayed from there.
    let comment_at = text.rfind("{rolled}").map_or(text.len() - 20, |i| i + 1);
    let die_at = text.rfind("?d~").map_or(text.len() - 20, |i| i + 3);
    for (name, at, typed) in [
        ("edit a comment → diagnostics", comment_at, "x"),
        ("edit a move → diagnostics", die_at, "1"),
    ] {
        let mut edited = text.clone();
        edited.insert_str(at, typed);
        let edit = TextEdit {
            start: at,
            old_end: at,
            new_end: at + typed.len(),
        };
        let fresh = DocumentAnalysis::new(edited.clone());
        let updated = kept.update(edited.clone(), &edit);
        assert_eq!(updated.diagnostics, fresh.diagnostics);
        drop((fresh, updated));
        let took = measure(|| {
            let updated = kept.update(std::hint::black_box(edited.clone()), &edit);
            std::hint::black_box(updated.diagnostics.len());
        });
        report(name, took, EDIT_TARGET);
    }

    let offset = text.len() - 30;
    let hover = measure(|| {
        let state = kept.state_at(std::hint::black_box(offset));
        let board = state.and_then(|(_, state)| state.map(|state| render_board(state.pieces())));
        std::hint::black_box(board);
    });
    report("hover (move at offset + board)", hover, HOVER_TARGET);
}
