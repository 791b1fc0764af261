//! What the language server costs on one long record of a notation, measured as an editor
//! sees it: the real `serve` loop over an in-memory pipe, open → diagnostics published,
//! one-character edits (typed, then undone) → diagnostics published, hovers, semantic
//! tokens (whole document and one screen), folding, the outline, and the process's
//! resident memory after many edits with the analysis kept alive. The same in the library:
//! the analysis and each editor feature called directly, with the heap one analysis keeps.
//!
//! Shared by the OTN and WXF benches; each line prints the target and whether it is met.

#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mimalloc::MiMalloc;
use ppn_ls::ide::analyze::{analyze, hover};
use ppn_ls::model::edit::TextEdit;
use ppn_ls::model::notation_document::NotationDocument;
use serde_json::{json, Value};

#[path = "../../tests/integration/common/mod.rs"]
pub mod common;
use common::TestClient;

/// Counts the bytes currently allocated, to measure what an analysis keeps alive;
/// allocates with mimalloc, as the `ppn-ls` binary does.
pub struct CountingAllocator;

pub static ALLOCATED: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged to the server's allocator.
        let pointer = unsafe { MiMalloc.alloc(layout) };
        if !pointer.is_null() {
            ALLOCATED.fetch_add(layout.size(), Ordering::Relaxed);
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // SAFETY: `pointer` came from `alloc` above with this layout.
        unsafe { MiMalloc.dealloc(pointer, layout) };
        ALLOCATED.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged to the server's allocator.
        let moved = unsafe { MiMalloc.realloc(pointer, layout, new_size) };
        if !moved.is_null() {
            ALLOCATED.fetch_sub(layout.size(), Ordering::Relaxed);
            ALLOCATED.fetch_add(new_size, Ordering::Relaxed);
        }
        moved
    }
}

/// As the `ppn-ls` binary does as a server (see its `main`).
pub fn configure_allocator() {
    ppn_ls::memory::keep_to_small_pages();
    ppn_ls::memory::hold_freed_memory_until_idle();
}

/// A small deterministic generator (SplitMix64), so every run benches the same record.
pub struct Prng(pub u64);

impl Prng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound.max(1) as u64) as usize
    }
}

/// The targets for a record of `moves` moves.
pub struct Targets {
    pub open: Duration,
    pub edit_end: Duration,
    pub edit_anywhere: Duration,
    pub hover: Duration,
    pub tokens: Duration,
    pub tokens_range: Duration,
    pub folding: Duration,
    pub resident: usize,
}

pub fn targets(moves: usize) -> Targets {
    let ms = Duration::from_millis;
    if moves <= 10_000 {
        Targets {
            open: ms(20),
            edit_end: ms(1),
            edit_anywhere: ms(5),
            hover: Duration::from_micros(300),
            tokens: ms(5),
            tokens_range: Duration::from_micros(1_200),
            folding: ms(3),
            resident: 40 << 20,
        }
    } else {
        Targets {
            open: ms(200),
            edit_end: ms(10),
            edit_anywhere: ms(10),
            hover: Duration::from_micros(500),
            tokens: ms(50),
            tokens_range: Duration::from_micros(2_000),
            folding: ms(30),
            resident: 150 << 20,
        }
    }
}

/// A one-character edit: its name, where, and the character typed over the next
/// `replaced` bytes (then the text as it was again).
#[derive(Clone, Copy, Debug)]
pub struct Typing {
    pub name: &'static str,
    pub at: usize,
    pub typed: char,
    pub replaced: usize,
    /// Whether the target is the one for edits near the end.
    pub near_end: bool,
}

impl Typing {
    /// An `x` typed before the number that ends at `dot_end` (`12. ` → `x12. `): read as a
    /// mistyped number, not a move.
    pub fn before_number(name: &'static str, text: &str, dot_end: usize, near_end: bool) -> Typing {
        let digits = text[..dot_end - 1]
            .bytes()
            .rev()
            .take_while(u8::is_ascii_digit)
            .count();
        Typing {
            name,
            at: dot_end - 1 - digits,
            typed: 'x',
            replaced: 0,
            near_end,
        }
    }
}

/// A record and what to do with it.
pub struct Scenario {
    pub uri: &'static str,
    pub text: String,
    pub moves: usize,
    pub typing: Vec<Typing>,
    pub hovers: Vec<(&'static str, usize)>,
}

pub fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// Runs `work` repeatedly for about a second (at least three times); the median time.
pub fn measure(mut work: impl FnMut()) -> Duration {
    let mut samples = Vec::new();
    let started = Instant::now();
    while samples.len() < 3 || (started.elapsed() < Duration::from_secs(1) && samples.len() < 200) {
        let run = Instant::now();
        work();
        samples.push(run.elapsed());
    }
    median(samples)
}

pub fn verdict(ok: bool) -> &'static str {
    if ok {
        "ok"
    } else {
        "OVER TARGET"
    }
}

pub fn report(name: &str, took: Duration, target: Option<Duration>) {
    let milliseconds = |duration: Duration| duration.as_secs_f64() * 1e3;
    match target {
        Some(target) => println!(
            "{name:<48} {:>9.3} ms   (target < {:>6.1} ms) {}",
            milliseconds(took),
            milliseconds(target),
            verdict(took < target)
        ),
        None => println!("  {name:<46} {:>9.3} ms", milliseconds(took)),
    }
}

pub fn mebibytes(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

/// The process's resident memory, from `/proc/self/status`.
pub fn resident_bytes() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    let kilobytes: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}

/// The LSP position of a byte offset (the records are ASCII: columns are bytes).
pub fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let column = before.len() - before.rfind('\n').map_or(0, |at| at + 1);
    json!({ "line": line, "character": column })
}

/// A space typed at the end of `text` (where it changes nothing but the text).
pub fn space_at_the_end(text: &str) -> Typing {
    Typing {
        name: "a space at the end",
        at: text.len(),
        typed: ' ',
        replaced: 0,
        near_end: true,
    }
}

/// Types `typed` over `replaced` bytes at `at`, then puts the text back as it was: two
/// changes, each with its edit and the text it makes.
pub fn type_and_undo(typing: &Typing, text: &str) -> [(Value, TextEdit, String); 2] {
    let (at, typed) = (typing.at, typing.typed);
    let old_end = at + typing.replaced;
    let start = position(text, at);
    let old = position(text, old_end);
    let mut edited = text.to_string();
    edited.replace_range(at..old_end, &typed.to_string());
    let end = position(&edited, at + typed.len_utf8());
    [
        (
            json!([{ "range": { "start": start, "end": old }, "text": typed.to_string() }]),
            TextEdit {
                start: at,
                old_end,
                new_end: at + typed.len_utf8(),
            },
            edited,
        ),
        (
            json!([{ "range": { "start": start, "end": end }, "text": &text[at..old_end] }]),
            TextEdit {
                start: at,
                old_end: at + typed.len_utf8(),
                new_end: old_end,
            },
            text.to_string(),
        ),
    ]
}

/// Everything through the language server, as an editor sees it.
pub async fn through_the_server(scenario: &Scenario, edits_for_memory: usize) {
    let mut session = ServerSession::open(scenario).await;
    session.type_and_undo_each().await;
    session.hover_each().await;
    session.tokens_and_folding().await;
    session.resident_after(edits_for_memory).await;
}

/// A scenario's record open in a server, as an editor has it: each step times one kind of
/// request. A notation's bench may add steps of its own between them.
pub struct ServerSession<'a> {
    pub scenario: &'a Scenario,
    pub client: TestClient,
    /// The record's last version sent.
    version: i64,
    targets: Targets,
}

impl<'a> ServerSession<'a> {
    /// Opens the record a few times (each open timed until its diagnostics come), then
    /// keeps it open; the generated record must have no diagnostics.
    pub async fn open(scenario: &'a Scenario) -> ServerSession<'a> {
        let targets = targets(scenario.moves);
        let (uri, text) = (scenario.uri, scenario.text.as_str());
        let (mut client, _) = TestClient::start(
            None,
            std::sync::Arc::new(ppn_ls::lsp::IncrementalAnalyzer::default()),
        )
        .await;
        let version = 1;
        let mut opens = Vec::new();
        for _ in 0..5 {
            let started = Instant::now();
            client.open(uri, version, text).await;
            client.diagnostics_of_version(uri, version).await;
            opens.push(started.elapsed());
            client
                .notify(
                    "textDocument/didClose",
                    json!({ "textDocument": { "uri": uri } }),
                )
                .await;
            client.diagnostics(uri).await;
        }
        report("open → diagnostics", median(opens), Some(targets.open));
        client.open(uri, version, text).await;
        let published = client.diagnostics_of_version(uri, version).await;
        assert_eq!(
            published["diagnostics"].as_array().map(Vec::len),
            Some(0),
            "the generated record must be clean: {}",
            published["diagnostics"][0]
        );
        ServerSession {
            scenario,
            client,
            version,
            targets,
        }
    }

    /// Sends `change` as the record's next version; the time until its diagnostics come.
    pub async fn change(&mut self, change: Value) -> Duration {
        let uri = self.scenario.uri;
        self.version += 1;
        let sent = Instant::now();
        self.client.change(uri, self.version, change).await;
        self.client.diagnostics_of_version(uri, self.version).await;
        sent.elapsed()
    }

    /// Sends `typing`'s two changes (typed, then undone), each with the time until its
    /// diagnostics come.
    pub async fn type_and_undo(&mut self, typing: &Typing) -> [Duration; 2] {
        let [(typed, _, _), (undone, _, _)] = type_and_undo(typing, &self.scenario.text);
        [self.change(typed).await, self.change(undone).await]
    }

    /// Each of the scenario's edits, typed and undone many times.
    pub async fn type_and_undo_each(&mut self) {
        let scenario = self.scenario;
        for typing in scenario
            .typing
            .iter()
            .filter(|typing| typing_wanted(typing.name))
        {
            let mut typed = Vec::new();
            let mut undone = Vec::new();
            let started = Instant::now();
            while typed.len() < 5
                || (started.elapsed() < Duration::from_secs(2) && typed.len() < 60)
            {
                let [typing_took, undoing_took] = self.type_and_undo(typing).await;
                typed.push(typing_took);
                undone.push(undoing_took);
                // A space typed and taken out at the end, not measured: the server keeps the
                // revision before last for an edit undone, and the next edit typed must not
                // be one.
                self.type_and_undo(&space_at_the_end(&scenario.text)).await;
            }
            let target = if typing.near_end {
                self.targets.edit_end
            } else {
                self.targets.edit_anywhere
            };
            // Typing and undoing each within the target.
            let slower = median(typed.clone()).max(median(undone.clone()));
            report(
                &format!("edit {} → diagnostics", typing.name),
                slower,
                Some(target),
            );
            report(
                &format!("typing `{}` / undoing it", typing.typed),
                median(typed),
                None,
            );
            report("", median(undone), None);
        }
    }

    /// A hover at each of the scenario's places.
    pub async fn hover_each(&mut self) {
        let (uri, text) = (self.scenario.uri, self.scenario.text.as_str());
        for (name, at) in &self.scenario.hovers {
            let params = json!({ "textDocument": { "uri": uri }, "position": position(text, *at) });
            let mut samples = Vec::new();
            let started = Instant::now();
            while samples.len() < 5
                || (started.elapsed() < Duration::from_secs(1) && samples.len() < 200)
            {
                let sent = Instant::now();
                let response = self
                    .client
                    .request("textDocument/hover", params.clone())
                    .await;
                samples.push(sent.elapsed());
                assert!(response.get("error").is_none(), "{response}");
                assert!(!response["result"].is_null(), "no hover at {at}");
            }
            report(
                &format!("textDocument/hover, {name}"),
                median(samples),
                Some(self.targets.hover),
            );
        }
    }

    /// Semantic tokens (the whole record and one screen), folding and the outline.
    pub async fn tokens_and_folding(&mut self) {
        let (uri, text) = (self.scenario.uri, self.scenario.text.as_str());
        let document = json!({ "textDocument": { "uri": uri } });
        let middle = position(text, text.len() / 2);
        let line = middle["line"].as_u64().unwrap_or(0);
        // Read as an editor with the protocol's types reads it (as a JSON tree, it takes the
        // client longer than the server: the line after shows it).
        let mut samples = Vec::new();
        let started = Instant::now();
        while samples.len() < 3
            || (started.elapsed() < Duration::from_secs(1) && samples.len() < 100)
        {
            let sent = Instant::now();
            let numbers = self.client.full_semantic_tokens(uri).await;
            samples.push(sent.elapsed());
            assert!(!numbers.is_empty() && numbers.len() % 5 == 0);
        }
        report(
            "semanticTokens/full",
            median(samples),
            Some(self.targets.tokens),
        );
        for (name, method, params, target) in [
            (
                "  semanticTokens/full, read into a JSON tree",
                "textDocument/semanticTokens/full",
                document.clone(),
                None,
            ),
            (
                "semanticTokens/range (one screen, middle)",
                "textDocument/semanticTokens/range",
                json!({ "textDocument": { "uri": uri }, "range": {
                    "start": { "line": line, "character": 0 },
                    "end": { "line": line + 60, "character": 0 } } }),
                Some(self.targets.tokens_range),
            ),
            (
                "foldingRange",
                "textDocument/foldingRange",
                document.clone(),
                Some(self.targets.folding),
            ),
            (
                "documentSymbol",
                "textDocument/documentSymbol",
                document.clone(),
                None,
            ),
        ] {
            let mut samples = Vec::new();
            let started = Instant::now();
            while samples.len() < 3
                || (started.elapsed() < Duration::from_secs(1) && samples.len() < 100)
            {
                let sent = Instant::now();
                let response = self.client.request(method, params.clone()).await;
                samples.push(sent.elapsed());
                assert!(response.get("error").is_none(), "{response}");
            }
            report(name, median(samples), target);
        }
    }

    /// Typing goes on (`edits` changes, the scenario's edits in turn); the server keeps the
    /// newest analysis and frees the earlier ones. Then the process's resident memory, and
    /// the session ends.
    pub async fn resident_after(mut self, edits: usize) {
        let scenario = self.scenario;
        for round in 0..edits / 2 {
            let typing = scenario.typing[round % scenario.typing.len()];
            for (change, _, _) in type_and_undo(&typing, &scenario.text) {
                self.version += 1;
                self.client.change(scenario.uri, self.version, change).await;
            }
            self.client
                .diagnostics_of_version(scenario.uri, self.version)
                .await;
        }
        // As a user would see it a moment after typing: the server returns what its
        // analyses freed once it has been idle for a second.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let resident = resident_bytes().unwrap_or(0);
        println!(
            "{:<48} {:>9.1} MiB  (target < {:>6.1} MiB) {}",
            format!("resident memory after {edits} edits"),
            mebibytes(resident),
            mebibytes(self.targets.resident),
            verdict(resident < self.targets.resident)
        );
        self.client.shutdown_and_exit().await;
    }
}

/// Whether the edit called `name` is measured: all of them, or those whose name holds
/// `PPN_BENCH_TYPING` (to profile one kind of edit).
pub fn typing_wanted(name: &str) -> bool {
    std::env::var("PPN_BENCH_TYPING").map_or(true, |wanted| name.contains(wanted.as_str()))
}

/// The bytes `make` leaves allocated while its result lives.
pub fn heap_of<T>(make: impl FnOnce() -> T) -> usize {
    let before = ALLOCATED.load(Ordering::Relaxed);
    let made = make();
    let heap = ALLOCATED.load(Ordering::Relaxed).saturating_sub(before);
    drop(made);
    heap
}

/// The same in the library, without the protocol.
pub fn in_the_library(scenario: &Scenario) {
    let path = scenario.uri.rsplit('/').next().map(Path::new);
    let text = &scenario.text;
    let heap = heap_of(|| analyze(path, text.clone()));
    println!(
        "  {:<46} {:>9.1} MiB ({:.0} bytes per move)",
        "heap of one analysis",
        mebibytes(heap),
        heap as f64 / scenario.moves as f64
    );
    let open = measure(|| {
        std::hint::black_box(analyze(path, std::hint::black_box(text.clone())));
    });
    report("analysis (library)", open, None);
    let analysis = analyze(path, text.clone());
    updates_in_the_library(scenario, &*analysis);
    for (name, at) in &scenario.hovers {
        let took = measure(|| {
            std::hint::black_box(hover(&*analysis, *at));
        });
        report(&format!("hover, {name} (library)"), took, None);
    }
    let tokens = measure(|| {
        std::hint::black_box(analysis.semantic_tokens(0..text.len()));
    });
    report("semantic tokens (library)", tokens, None);
    let folds = measure(|| {
        std::hint::black_box(analysis.folds());
    });
    report("folding ranges (library)", folds, None);
    let symbols = measure(|| {
        std::hint::black_box(analysis.symbols());
    });
    report("symbols (library)", symbols, None);
}

/// Each edit typed and undone, in the library: the update's time (the revisions kept
/// until the measurement ends), checked against a fresh analysis.
pub fn updates_in_the_library(scenario: &Scenario, analysis: &dyn NotationDocument) {
    let path = scenario.uri.rsplit('/').next().map(Path::new);
    let text = &scenario.text;
    for typing in scenario
        .typing
        .iter()
        .filter(|typing| typing_wanted(typing.name))
    {
        let [(_, typing_edit, typed), (_, undo_edit, _)] = type_and_undo(typing, text);
        let typed_analysis = analysis.update(typed.clone(), &typing_edit);
        for (step, base, edit, edited) in [
            (0, analysis, typing_edit, &typed),
            (1, &*typed_analysis, undo_edit, text),
        ] {
            let updated = base.update(edited.clone(), &edit);
            let fresh = analyze(path, edited.clone());
            assert_eq!(
                updated.diagnostics(),
                fresh.diagnostics(),
                "{}: the update differs from a fresh analysis",
                typing.name
            );
            // The revisions are kept until the measurement ends: freeing them is not the
            // edit's cost (the server frees a revision when a newer one has replaced it).
            let mut kept: Vec<Box<dyn NotationDocument>> = Vec::new();
            let took = measure(|| kept.push(base.update(edited.clone(), &edit)));
            drop(kept);
            report(
                &format!(
                    "update, {} ({}, {} diagnostics)",
                    typing.name,
                    if step == 0 { "typed" } else { "undone" },
                    updated.diagnostics().len()
                ),
                took,
                None,
            );
        }
    }
}

/// Runs the scenario through the server and in the library, as `PPN_BENCH_PART` says
/// (`server`, `library`, `updates` for the library's edits alone, or both); `PPN_BENCH_EDITS` edits before the memory is read;
/// `PPN_BENCH_TYPING` picks edits by name.
pub fn run(runtime: &tokio::runtime::Runtime, scenario: &Scenario) {
    println!(
        "\n== {} of {} moves, {} KiB ==",
        scenario.uri,
        scenario.moves,
        scenario.text.len() / 1024
    );
    let part = std::env::var("PPN_BENCH_PART").unwrap_or_default();
    if part.is_empty() || part == "server" {
        let edits = std::env::var("PPN_BENCH_EDITS")
            .ok()
            .and_then(|edits| edits.parse().ok())
            .unwrap_or(1_000);
        runtime.block_on(through_the_server(scenario, edits));
    }
    match part.as_str() {
        "server" => {}
        // Only the edits, for a profile of them.
        "updates" => {
            let path = scenario.uri.rsplit('/').next().map(Path::new);
            updates_in_the_library(scenario, &*analyze(path, scenario.text.clone()));
        }
        _ => in_the_library(scenario),
    }
}

/// The record sizes to bench: `PPN_BENCH_MOVES=10000,100000` (the default).
pub fn sizes() -> Vec<usize> {
    std::env::var("PPN_BENCH_MOVES")
        .ok()
        .map(|sizes| {
            sizes
                .split(',')
                .filter_map(|size| size.trim().parse().ok())
                .collect()
        })
        .unwrap_or_else(|| vec![10_000, 100_000])
}

pub fn runtime() -> tokio::runtime::Runtime {
    ppn_ls::lsp::server_runtime().expect("a tokio runtime")
}
