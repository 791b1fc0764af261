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
use ppn_ls::ppn::engine::replay::replay_document;
use ppn_ls::ppn::notation::document::split_games;
use ppn_ls::ppn::notation::movetext::split_movetext;
use ppn_ls::ppn::syntax;

/// Counts the bytes currently allocated (tree-sitter's too), to measure what an analysis
/// keeps alive.
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

/// tree-sitter's C library allocates with `malloc`; these route it through the counting
/// allocator, with the size kept in a header because `free` is not told it.
mod tree_sitter_allocations {
    use std::alloc::{GlobalAlloc, Layout};
    use std::ffi::c_void;

    use super::GLOBAL;

    const HEADER: usize = 16;

    fn layout(size: usize) -> Option<Layout> {
        Layout::from_size_align(size.checked_add(HEADER)?, HEADER).ok()
    }

    unsafe fn finish(block: *mut u8, size: usize) -> *mut c_void {
        if block.is_null() {
            return block.cast();
        }
        // SAFETY: the block is at least HEADER bytes long and aligned for a usize.
        unsafe {
            block.cast::<usize>().write(size);
            block.add(HEADER).cast()
        }
    }

    unsafe extern "C" fn malloc(size: usize) -> *mut c_void {
        let Some(layout) = layout(size) else {
            return std::ptr::null_mut();
        };
        // SAFETY: the layout has a non-zero size.
        unsafe { finish(GLOBAL.alloc(layout), size) }
    }

    unsafe extern "C" fn calloc(count: usize, size: usize) -> *mut c_void {
        let Some(layout) = count.checked_mul(size).and_then(layout) else {
            return std::ptr::null_mut();
        };
        // SAFETY: the layout has a non-zero size.
        unsafe { finish(GLOBAL.alloc_zeroed(layout), layout.size() - HEADER) }
    }

    unsafe fn header(pointer: *mut c_void) -> (*mut u8, usize) {
        // SAFETY: `pointer` came from `finish`, HEADER bytes into a block holding its size.
        unsafe {
            let block = pointer.cast::<u8>().sub(HEADER);
            (block, block.cast::<usize>().read())
        }
    }

    unsafe extern "C" fn realloc(pointer: *mut c_void, size: usize) -> *mut c_void {
        if pointer.is_null() {
            // SAFETY: as `malloc`.
            return unsafe { malloc(size) };
        }
        let Some(new_layout) = layout(size) else {
            return std::ptr::null_mut();
        };
        // SAFETY: the block was allocated by `malloc` or `calloc` with its recorded size.
        unsafe {
            let (block, old_size) = header(pointer);
            let old_layout = Layout::from_size_align_unchecked(old_size + HEADER, HEADER);
            finish(GLOBAL.realloc(block, old_layout, new_layout.size()), size)
        }
    }

    unsafe extern "C" fn free(pointer: *mut c_void) {
        if pointer.is_null() {
            return;
        }
        // SAFETY: the block was allocated by `malloc` or `calloc` with its recorded size.
        unsafe {
            let (block, size) = header(pointer);
            GLOBAL.dealloc(
                block,
                Layout::from_size_align_unchecked(size + HEADER, HEADER),
            );
        }
    }

    /// Must run before anything else uses tree-sitter.
    pub fn count() {
        // SAFETY: called first thing in `main`, before any tree-sitter object exists; the
        // four functions form one allocator family and align blocks as `malloc` does.
        unsafe {
            tree_sitter::set_allocator(Some(tree_sitter::Allocator {
                malloc,
                calloc,
                realloc,
                free,
            }));
        }
    }
}

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

fn report(name: &str, took: Duration, target: Option<Duration>) {
    let milliseconds = |duration: Duration| duration.as_secs_f64() * 1e3;
    match target {
        Some(target) => println!(
            "{name:<36} {:>9.3} ms   (target < {:>5.1} ms) {}",
            milliseconds(took),
            milliseconds(target),
            verdict(took < target)
        ),
        None => println!("  {name:<34} {:>9.3} ms", milliseconds(took)),
    }
}

/// The same edit for the analysis and for tree-sitter.
fn tree_edit(old_text: &str, new_text: &str, edit: &TextEdit) -> tree_sitter::InputEdit {
    let point = |text: &str, offset: usize| {
        let before = &text[..offset];
        tree_sitter::Point {
            row: before.matches('\n').count(),
            column: offset - before.rfind('\n').map_or(0, |newline| newline + 1),
        }
    };
    tree_sitter::InputEdit {
        start_byte: edit.start,
        old_end_byte: edit.old_end,
        new_end_byte: edit.new_end,
        start_position: point(old_text, edit.start),
        old_end_position: point(old_text, edit.old_end),
        new_end_position: point(new_text, edit.new_end),
    }
}

fn main() {
    tree_sitter_allocations::count();
    let text = generate_game(MOVES, 7);
    let before = ALLOCATED.load(Ordering::Relaxed);
    let analysis = DocumentAnalysis::new(text.clone());
    let heap = ALLOCATED.load(Ordering::Relaxed).saturating_sub(before);
    assert!(
        analysis.diagnostics.is_empty(),
        "the generated game must be valid: {:?}",
        &analysis.diagnostics[..analysis.diagnostics.len().min(5)]
    );
    let game = &analysis.replay.games[0];
    println!(
        "lsp_performance: a game of {} moves, {} KiB, {} pieces on its last board",
        game.move_count(),
        text.len() / 1024,
        game.game_state(game.move_count())
            .map_or(0, |state| state.pieces().len())
    );
    let mebibytes = |bytes: usize| bytes as f64 / (1024.0 * 1024.0);
    println!(
        "{:<36} {:>9.1} MiB  (target < {:>5.1} MiB) {}",
        "analysis heap",
        mebibytes(heap),
        mebibytes(MEMORY_TARGET_BYTES),
        verdict(heap < MEMORY_TARGET_BYTES)
    );

    let open = measure(|| {
        std::hint::black_box(DocumentAnalysis::new(std::hint::black_box(text.clone())));
    });
    report("open (full analysis)", open, Some(OPEN_TARGET));
    let parse = measure(|| {
        std::hint::black_box(syntax::parse(&text, None));
    });
    report("of which: tree-sitter parse", parse, None);
    let replay = measure(|| {
        std::hint::black_box(replay_document(&text));
    });
    report("of which: replay (parallel to it)", replay, None);
    let movetext = split_games(&text)[0].movetext.clone();
    let split = measure(|| {
        std::hint::black_box(split_movetext(&text, movetext.clone()));
    });
    report("of which: movetext split", split, None);

    // One character typed into the comment of a move near the end; one typed into a move
    // near the end, which is then replayed again with every move after it.
    let comment_at = text.rfind("{rolled}").map_or(text.len(), |at| at + 1);
    let move_at = text.rfind("?d~").map_or(text.len(), |at| at + 3);
    for (name, at, typed) in [
        ("edit a comment → diagnostics", comment_at, "x"),
        ("edit a move → diagnostics", move_at, "1"),
    ] {
        let mut edited = text.clone();
        edited.insert_str(at, typed);
        let edit = TextEdit {
            start: at,
            old_end: at,
            new_end: at + typed.len(),
        };
        let updated = analysis.update(edited.clone(), &edit);
        let fresh = DocumentAnalysis::new(edited.clone());
        assert_eq!(updated.diagnostics, fresh.diagnostics);
        drop((updated, fresh));
        let took = measure(|| {
            let updated = analysis.update(std::hint::black_box(edited.clone()), &edit);
            std::hint::black_box(updated.diagnostics.len());
        });
        report(name, took, Some(EDIT_TARGET));
        let mut edited_tree = analysis.tree.clone();
        edited_tree.edit(&tree_edit(&text, &edited, &edit));
        let reparse = measure(|| {
            std::hint::black_box(syntax::parse(&edited, Some(&edited_tree)));
        });
        report("of which: tree-sitter re-parse", reparse, None);
        let replay = measure(|| {
            std::hint::black_box(analysis.replay.update(&text, &edited, &edit));
        });
        report("of which: replay update (parallel)", replay, None);
    }

    // A short game before the long one: an edit there shifts every move of the long game.
    let short_game = "---\nGameTitle: Warm-up\n...\n1. S@b2 2. b2-b3\n";
    let two_games = format!("{short_game}{text}");
    let first = DocumentAnalysis::new(two_games.clone());
    let at = short_game.find("b3").map_or(0, |at| at + 1);
    let mut edited = two_games.clone();
    edited.insert(at, '4');
    let edit = TextEdit {
        start: at,
        old_end: at,
        new_end: at + 1,
    };
    let replay = measure(|| {
        std::hint::black_box(first.replay.update(&two_games, &edited, &edit));
    });
    report("edit a game before the long one", replay, None);
    drop(first);

    let offset = text.len() - 30;
    let hover = measure(|| {
        let found = analysis.state_at(std::hint::black_box(offset));
        let board = found.and_then(|(_, state)| state.map(|state| render_board(state.pieces())));
        std::hint::black_box(board);
    });
    report("hover (move at offset + board)", hover, Some(HOVER_TARGET));

    // The language server's own hover, inlay hints and board request near the end.
    let lsp_hover = measure(|| {
        std::hint::black_box(ppn_ls::ide::hover::hover(
            &analysis,
            std::hint::black_box(offset),
        ));
    });
    report(
        "textDocument/hover near the end",
        lsp_hover,
        Some(HOVER_TARGET),
    );
    // The first request on a new revision also lays out its moves once.
    let mut first_hovers = Vec::new();
    for _ in 0..5 {
        let revision = DocumentAnalysis::new(text.clone());
        let started = Instant::now();
        std::hint::black_box(ppn_ls::ide::hover::hover(&revision, offset));
        first_hovers.push(started.elapsed());
    }
    report(
        "first hover on a new revision",
        median(first_hovers),
        Some(HOVER_TARGET),
    );
    let start_offset = text.find("1. ").map_or(0, |at| at + 4);
    let hover_start = measure(|| {
        std::hint::black_box(ppn_ls::ide::hover::hover(
            &analysis,
            std::hint::black_box(start_offset),
        ));
    });
    report(
        "textDocument/hover near the start",
        hover_start,
        Some(HOVER_TARGET),
    );
    let tokens = measure(|| {
        std::hint::black_box(ppn_ls::ide::semantic_tokens::semantic_tokens(&analysis));
    });
    report("  semantic tokens, whole document", tokens, None);
    let folds = measure(|| {
        std::hint::black_box(ppn_ls::ide::folding::folding_ranges(&analysis));
    });
    report("  folding ranges, whole document", folds, None);
    let board_at = measure(|| {
        std::hint::black_box(ppn_ls::ide::locate::board_at(
            &analysis,
            std::hint::black_box(offset),
        ));
    });
    report("ppn/boardAt near the end", board_at, Some(HOVER_TARGET));
    let hints = measure(|| {
        std::hint::black_box(ppn_ls::ide::inlay_hints::inlay_hints(
            &analysis,
            text.len() - 2000..text.len(),
        ));
    });
    report("inlay hints, last screenful", hints, None);
}
