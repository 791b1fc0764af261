//! `cargo bench -p ppn-ls --bench formatting`: how long the formatter takes on a long game.
//!
//! A generated game of `PPN_BENCH_MOVES` moves (default 100,000: eight coins going up and
//! down their files, a comment every ten moves), written untidily (several move pairs a
//! line, runs of spaces and tabs, trailing blanks), then:
//! - the layout alone (`format_text` given the diagnostics), of the untidy text and of the
//!   text already laid out (which gives no edit);
//! - what `ppn-ls fmt` does in the library: the check that tells whether the file parses
//!   (`check_as`), then the layout;
//! - `ppn-ls fmt --check FILE` and `ppn-ls fmt FILE` run as processes (the release binary);
//! - `textDocument/formatting` through the language server, once the document is open.
//!
//! Medians of passes run for `PPN_BENCH_SECONDS` seconds each (default 3).

#[path = "../tests/integration/common/mod.rs"]
mod common;

use std::fmt::Write as _;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ppn_ls::ide::analyze::check_as;
use ppn_ls::ide::formatting::{format_text, FormatOptions};
use ppn_ls::lsp::{Analyzer, IncrementalAnalyzer};
use ppn_ls::model::format::Format;
use serde_json::json;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// An untidy but legal game of `moves` moves.
fn untidy_game(moves: usize) -> String {
    let mut text = String::from("---\nEvent: Formatting bench   \n...\n1. S@{a..h}1\t\n");
    // Each coin's row and direction.
    let mut rows = [1usize; 8];
    let mut up = [true; 8];
    let files = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    for number in 1..moves {
        let coin = number % 8;
        let from = rows[coin];
        if (up[coin] && from == 8) || (!up[coin] && from == 1) {
            up[coin] = !up[coin];
        }
        let to = if up[coin] { from + 1 } else { from - 1 };
        rows[coin] = to;
        let label = if number % 2 == 1 {
            format!("{}...", number.div_ceil(2))
        } else {
            format!("{}.", number / 2 + 1)
        };
        let file = files[coin];
        let _ = write!(text, "{label}  {file}{from}-{file}{to}");
        if number % 10 == 0 {
            text.push_str(" {a comment on this move}");
        }
        text.push_str(match number % 7 {
            0 => " \n",
            3 => "\t",
            _ => "   ",
        });
    }
    text.push('\n');
    text
}

fn median(seconds: f64, mut pass: impl FnMut()) -> (usize, Duration) {
    let mut times = Vec::new();
    let started = Instant::now();
    while started.elapsed().as_secs_f64() < seconds || times.len() < 3 {
        let pass_started = Instant::now();
        pass();
        times.push(pass_started.elapsed());
    }
    times.sort();
    (times.len(), times[times.len() / 2])
}

fn report(what: &str, (passes, time): (usize, Duration)) {
    println!(
        "{what}: {:.1} ms (median of {passes})",
        time.as_secs_f64() * 1e3
    );
}

fn main() {
    let moves: usize = std::env::var("PPN_BENCH_MOVES")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(100_000);
    let seconds: f64 = std::env::var("PPN_BENCH_SECONDS")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(3.0);
    let options = FormatOptions::default();
    let untidy = untidy_game(moves);
    let diagnostics = check_as(Format::Ppn, &untidy);
    assert!(
        diagnostics.is_empty(),
        "the generated game is legal: {:?}",
        &diagnostics[..diagnostics.len().min(3)]
    );
    let formatted = format_text(Format::Ppn, &untidy, &diagnostics, &options).expect("it parses");
    let tidy = formatted.apply(&untidy);
    println!(
        "{moves} moves: {:.2} MB untidy, {} edits, {:.2} MB laid out",
        untidy.len() as f64 / 1e6,
        formatted.edits.len(),
        tidy.len() as f64 / 1e6
    );
    report(
        "layout of the untidy text",
        median(seconds, || {
            let layout = format_text(Format::Ppn, &untidy, &[], &options).expect("it parses");
            std::hint::black_box(layout.apply(&untidy));
        }),
    );
    report(
        "layout of the text already laid out (no edit)",
        median(seconds, || {
            let layout = format_text(Format::Ppn, &tidy, &[], &options).expect("it parses");
            assert!(layout.changes_nothing());
        }),
    );
    report(
        "check, then layout (what `fmt` does, in the library)",
        median(seconds, || {
            let diagnostics = check_as(Format::Ppn, &untidy);
            let layout =
                format_text(Format::Ppn, &untidy, &diagnostics, &options).expect("it parses");
            std::hint::black_box(layout.apply(&untidy));
        }),
    );
    let folder = std::env::temp_dir().join(format!("ppn-ls-fmt-bench-{}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("a scratch folder");
    let file = folder.join("long.ppn");
    let binary = env!("CARGO_BIN_EXE_ppn-ls");
    report(
        "`ppn-ls fmt --check` of the untidy file, a process",
        median(seconds, || {
            std::fs::write(&file, &untidy).expect("written");
            let status = Command::new(binary)
                .args(["fmt", "--check"])
                .arg(&file)
                .output()
                .expect("ppn-ls runs");
            assert_eq!(status.status.code(), Some(1));
        }),
    );
    report(
        "`ppn-ls fmt` rewriting the untidy file, a process",
        median(seconds, || {
            std::fs::write(&file, &untidy).expect("written");
            let status = Command::new(binary)
                .arg("fmt")
                .arg(&file)
                .output()
                .expect("ppn-ls runs");
            assert_eq!(status.status.code(), Some(0));
        }),
    );
    let _ = std::fs::remove_dir_all(&folder);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let analyzer: Analyzer = Arc::new(IncrementalAnalyzer::default());
        let (mut client, _) = common::TestClient::start(None, analyzer).await;
        let uri = "file:///long.ppn";
        client.open(uri, 1, &untidy).await;
        client.diagnostics(uri).await;
        let mut times = Vec::new();
        let started = Instant::now();
        while started.elapsed().as_secs_f64() < seconds || times.len() < 3 {
            let pass_started = Instant::now();
            let answer = client
                .request_text(
                    "textDocument/formatting",
                    json!({ "textDocument": { "uri": uri },
                            "options": { "tabSize": 4, "insertSpaces": true } }),
                )
                .await;
            times.push(pass_started.elapsed());
            assert!(answer.len() > untidy.len() / 2, "an edit of the text");
        }
        times.sort();
        report(
            "`textDocument/formatting` through the server (one edit of the whole text)",
            (times.len(), times[times.len() / 2]),
        );
    });
}
