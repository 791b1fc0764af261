//! `cargo bench -p ppn-ls --bench lsp_performance`: what the language server costs on
//! generated piecepack games of 10,000 and 100,000 moves (`PPN_BENCH_MOVES=10000` picks
//! sizes), measured two ways:
//!
//! - through the server: the real `serve` loop over an in-memory pipe, as an editor talks
//!   to it: open → diagnostics published, one-character edits near the start, the middle
//!   and the end (in a move and in a comment) → diagnostics published, hover, semantic
//!   tokens (whole document and one screen), folding; and the process's resident memory
//!   after 1,000 edits, with the analysis kept alive;
//! - in the library: the analysis and each editor feature called directly, with the heap
//!   one analysis keeps.
//!
//! Medians of repeated runs; each line shows the target and whether it is met.
//! `PPN_BENCH_PART=server` or `library` runs only one of the two; `PPN_BENCH_TYPING=middle`
//! only the edits whose name holds `middle`; `PPN_BENCH_EDITS` sets
//! how many edits come before the memory is read (1,000). `PPN_BENCH_WRITE=FOLDER` only
//! writes the generated games there (`generated-N.ppn`), for timing the CLI on them.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use ppn_ls::ppn::document::PpnDocument;
use ppn_ls::ppn::reader::games::split_games;
use ppn_ls::ppn::reader::syntax::segments::DocumentSyntax;
use ppn_ls::ppn::replay::replay_document;
use serde_json::json;

mod lsp_scenarios;
use lsp_scenarios::{
    heap_of, measure, mebibytes, median, report, type_and_undo, typing_wanted, Prng, Scenario,
    ServerSession, Typing, ALLOCATED,
};

// Counts tree-sitter's allocations too (see `tree_sitter_allocations`).
#[global_allocator]
static GLOBAL: lsp_scenarios::CountingAllocator = lsp_scenarios::CountingAllocator;

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

/// An `x` typed at `at`; the edits whose name starts with `end` have the target for edits
/// near the end.
fn x_typed(name: &'static str, at: usize) -> Typing {
    Typing {
        name,
        at,
        typed: 'x',
        replaced: 0,
        near_end: name.starts_with("end"),
    }
}

/// Offsets to type at: in a move and in a comment, near the start, the middle and the end.
fn typing_places(text: &str) -> Vec<Typing> {
    let near = |fraction: f64, needle: &str, skip: usize| {
        let from = ((text.len() as f64 * fraction) as usize).min(text.len() - 1);
        let from = (from..text.len())
            .find(|&at| text.is_char_boundary(at))
            .unwrap_or(0);
        text[from..]
            .find(needle)
            .map_or(from, |found| from + found + skip)
    };
    vec![
        // After `1... c`: the coin no longer reads, and the boards differ until it would
        // have left the board.
        x_typed("start, in a move", near(0.0, "\n1... ", 7)),
        x_typed("start, in the first MoveNumber", near(0.0, "\n1. ", 2)),
        // The first tile no longer reads: it is missing from every later board, and every
        // later move is replayed.
        x_typed("start, in the first tile", near(0.0, "t@(1.5,1.5)", 1)),
        x_typed("start, in a comment", near(0.0, "{rolled}", 1)),
        x_typed("middle, in a move", near(0.5, "...", 5)),
        x_typed("middle, in a comment", near(0.5, "{rolled}", 1)),
        x_typed("end, in a move", near(0.97, "...", 5)),
        x_typed("end, in a comment", near(0.97, "{rolled}", 1)),
    ]
}

/// The generated game as the shared server scenario sees it: its edits and hovers.
fn scenario(text: String, moves: usize) -> Scenario {
    let hovers = vec![
        (
            "hover near the start",
            text.find("1. ").map_or(0, |at| at + 4),
        ),
        (
            "hover in the middle",
            text[text.len() / 2..]
                .find('@')
                .map_or(0, |at| at + text.len() / 2 - 1),
        ),
        ("hover near the end", text.len() - 30),
    ];
    Scenario {
        uri: "file:///bench/generated.ppn",
        typing: typing_places(&text),
        hovers,
        moves,
        text,
    }
}

/// Everything through the language server, as an editor sees it: the steps every
/// notation's bench takes, and two of PPN's own.
async fn through_the_server(scenario: &Scenario, edits_for_memory: usize) {
    let mut session = ServerSession::open(scenario).await;
    session.type_and_undo_each().await;
    session.hover_each().await;
    session.tokens_and_folding().await;
    tokens_of_one_line(&mut session).await;
    tokens_since_the_last_answer(&mut session).await;
    session.resident_after(edits_for_memory).await;
}

/// The same game with its movetext on one line: every token on it is placed from the one
/// before, not counted from the line's start.
async fn tokens_of_one_line(session: &mut ServerSession<'_>) {
    let text = &session.scenario.text;
    let client = &mut session.client;
    let one_line_uri = "file:///bench/one-line.ppn";
    let one_line = match text.find("\n...\n") {
        Some(end) => format!("{}{}", &text[..end + 5], text[end + 5..].replace('\n', " ")),
        None => text.replace('\n', " "),
    };
    client.open(one_line_uri, 1, &one_line).await;
    client.diagnostics_of_version(one_line_uri, 1).await;
    let mut samples = Vec::new();
    let started = Instant::now();
    while samples.len() < 3 || (started.elapsed() < Duration::from_secs(1) && samples.len() < 100) {
        let sent = Instant::now();
        let numbers = client.full_semantic_tokens(one_line_uri).await;
        samples.push(sent.elapsed());
        assert!(!numbers.is_empty() && numbers.len() % 5 == 0);
    }
    report(
        "semanticTokens/full, movetext on one line",
        median(samples),
        None,
    );
    client
        .notify(
            "textDocument/didClose",
            json!({ "textDocument": { "uri": one_line_uri } }),
        )
        .await;
}

/// What an editor asks after each keystroke: the tokens since its last result.
async fn tokens_since_the_last_answer(session: &mut ServerSession<'_>) {
    let scenario = session.scenario;
    let document = json!({ "textDocument": { "uri": scenario.uri } });
    let mut result_id = session
        .client
        .request("textDocument/semanticTokens/full", document)
        .await["result"]["resultId"]
        .clone();
    let middle = (scenario.typing.iter())
        .find(|typing| typing.name == "middle, in a move")
        .map_or(scenario.text.len() / 2, |typing| typing.at);
    let mut samples = Vec::new();
    let started = Instant::now();
    while samples.len() < 6 || (started.elapsed() < Duration::from_secs(2) && samples.len() < 60) {
        for (change, _, _) in type_and_undo(&x_typed("", middle), &scenario.text) {
            session.change(change).await;
            let params = json!({
                "textDocument": { "uri": scenario.uri },
                "previousResultId": result_id
            });
            let sent = Instant::now();
            let response = session
                .client
                .request("textDocument/semanticTokens/full/delta", params)
                .await;
            samples.push(sent.elapsed());
            assert!(response["result"]["edits"].is_array(), "{response}");
            result_id = response["result"]["resultId"].clone();
        }
    }
    report(
        "semanticTokens/full/delta after an edit",
        median(samples),
        None,
    );
}

/// The same in the library, without the protocol.
fn in_the_library(text: &str) {
    let before = ALLOCATED.load(Ordering::Relaxed);
    let analysis = PpnDocument::new(text.to_string());
    let heap = ALLOCATED.load(Ordering::Relaxed).saturating_sub(before);
    assert!(
        analysis.diagnostics.is_empty(),
        "the generated game must be valid: {:?}",
        &analysis.diagnostics[..analysis.diagnostics.len().min(5)]
    );
    println!(
        "  {:<46} {:>9.1} MiB",
        "heap of one analysis",
        mebibytes(heap)
    );
    for (name, heap) in [
        (
            "of which: syntax",
            heap_of(|| Box::new(DocumentSyntax::parse(text, &split_games(text)))),
        ),
        (
            "of which: replay",
            heap_of(|| Box::new(replay_document(text))),
        ),
    ] {
        println!("  {name:<46} {:>9.1} MiB", mebibytes(heap));
    }
    let open = measure(|| {
        std::hint::black_box(PpnDocument::new(std::hint::black_box(text.to_string())));
    });
    report("analysis (library)", open, None);
    let parse = measure(|| {
        std::hint::black_box(DocumentSyntax::parse(text, &split_games(text)));
    });
    report("of which: syntax (in parallel)", parse, None);
    let replay = measure(|| {
        std::hint::black_box(replay_document(text));
    });
    report("of which: replay", replay, None);
    for typing in typing_places(text)
        .into_iter()
        .filter(|typing| typing_wanted(typing.name))
    {
        let [(_, edit, edited), _] = type_and_undo(&typing, text);
        let updated = analysis.update(edited.clone(), &edit);
        assert_eq!(
            updated.diagnostics,
            PpnDocument::new(edited.clone()).diagnostics
        );
        // The revisions are kept until the measurement ends: freeing them is not the
        // edit's cost (the server frees a revision when a newer one has replaced it).
        let mut kept = Vec::new();
        let took = measure(|| {
            kept.push(analysis.replay.update(text, &edited, &edit));
        });
        drop(kept);
        report(&format!("replay update, {}", typing.name), took, None);
        let mut kept = Vec::new();
        let took = measure(|| {
            kept.push(analysis.update(edited.clone(), &edit));
        });
        drop(kept);
        report(&format!("analysis update, {}", typing.name), took, None);
    }
    let tokens = measure(|| {
        std::hint::black_box(ppn_ls::ppn::features::semantic_tokens::semantic_tokens(
            &analysis,
        ));
    });
    report("semantic tokens (library)", tokens, None);
    let folds = measure(|| {
        std::hint::black_box(ppn_ls::ppn::features::folding::folding_ranges(&analysis));
    });
    report("folding ranges (library)", folds, None);
}

fn main() {
    // As the `ppn-ls` binary does as a server (see its `main`).
    ppn_ls::memory::keep_to_small_pages();
    ppn_ls::memory::hold_freed_memory_until_idle();
    tree_sitter_allocations::count();
    let sizes = lsp_scenarios::sizes();
    let runtime = lsp_scenarios::runtime();
    if let Ok(folder) = std::env::var("PPN_BENCH_WRITE") {
        for moves in sizes {
            let path = std::path::Path::new(&folder).join(format!("generated-{moves}.ppn"));
            std::fs::write(&path, generate_game(moves, 7)).expect("the game is written");
            println!("{}", path.display());
        }
        return;
    }
    for moves in sizes {
        let text = generate_game(moves, 7);
        println!(
            "\n== a generated piecepack game of {moves} moves, {} KiB ==",
            text.len() / 1024
        );
        let part = std::env::var("PPN_BENCH_PART").unwrap_or_default();
        if part != "library" {
            let edits = std::env::var("PPN_BENCH_EDITS")
                .ok()
                .and_then(|edits| edits.parse().ok())
                .unwrap_or(1_000);
            runtime.block_on(through_the_server(&scenario(text.clone(), moves), edits));
        }
        if part != "server" {
            in_the_library(&text);
            other_shapes(&text);
        }
    }
}

/// Edits of documents shaped otherwise: the same game with its movetext on one line, and a
/// collection of as many short games (each edit is typed and measured in the library).
fn other_shapes(game: &str) {
    let games = game.matches('\n').count();
    let one_line = match game.find("\n...\n") {
        Some(end) => format!("{}{}", &game[..end + 5], game[end + 5..].replace('\n', " ")),
        None => game.replace('\n', " "),
    };
    let collection: String = (0..games)
        .map(|number| {
            format!(
                "---\nGameType: Chess\nEvent: game {number}\n...\n\
                 1. e2-e4 1... e7-e5 2. g1-f3 {{a knight}} 2... b8-c6\n"
            )
        })
        .collect();
    println!("  (other shapes)");
    for (name, text, near) in [
        ("one-line movetext, middle", one_line.as_str(), "M@"),
        ("many short games, middle", collection.as_str(), "g1-f3"),
    ] {
        let middle = text.len() / 2;
        let at = middle + text[middle..].find(near).unwrap_or(0) + 1;
        let [(_, edit, edited), _] = type_and_undo(&x_typed(name, at), text);
        let analysis = PpnDocument::new(text.to_string());
        assert_eq!(
            analysis.update(edited.clone(), &edit).diagnostics,
            PpnDocument::new(edited.clone()).diagnostics
        );
        let mut kept = Vec::new();
        let took = measure(|| {
            kept.push(analysis.update(edited.clone(), &edit));
        });
        drop(kept);
        report(&format!("analysis update, {name}"), took, None);
    }
}
