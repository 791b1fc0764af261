//! What the web page's worker does, timed natively: opening a document (its analysis,
//! its diagnostics and every state's label, as JSON), a character typed near its end, and
//! one board's picture. The same operations timed in the browser (web/bench/bench.mjs)
//! show what WebAssembly costs.
//!
//! `cargo bench -p ppn-ls-web --bench session -- GAME.ppn`

use std::time::Instant;

use ppn_ls_web::Session;

fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let Some(path) = std::env::args().skip(1).find(|arg| !arg.starts_with('-')) else {
        eprintln!("usage: cargo bench -p ppn-ls-web --bench session -- GAME.ppn");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).expect("the game is readable");
    let name = std::path::Path::new(&path)
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let runs = 9;
    let mut session = Session::new();
    let opens: Vec<f64> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            std::hint::black_box(session.open(&name, text.clone()));
            started.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    println!(
        "open (analysis, diagnostics, every state's label): {:.2} ms",
        median(opens)
    );
    let games: Vec<f64> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            std::hint::black_box(session.summary(true));
            started.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    println!(
        "of which the diagnostics and states as JSON: {:.2} ms",
        median(games)
    );
    let at = text.encode_utf16().count() as u32 - 20;
    for with_games in [false, true] {
        let typed: Vec<f64> = (0..runs)
            .map(|run| {
                let started = Instant::now();
                let (from, to, insert) = if run % 2 == 0 {
                    (at, at, "x")
                } else {
                    (at, at + 1, "")
                };
                std::hint::black_box(session.edit(from, to, insert, with_games));
                started.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        let what = if with_games { "with" } else { "without" };
        println!(
            "a character typed near the end (and taken out), {what} the states: {:.2} ms",
            median(typed)
        );
    }
    let pictures: Vec<f64> = (0..runs)
        .map(|run| {
            let started = Instant::now();
            std::hint::black_box(session.picture(0, 100 + run, false));
            started.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    println!("one board's picture: {:.2} ms", median(pictures));

    // A move entered on the last board (e2-e4, as web/bench/move-entry.mjs makes it): the
    // move written, the text edited, and the new board's squares and picture.
    let games: serde_json::Value = serde_json::from_str(&session.games()).expect("games");
    let last = games[0]["states"]
        .as_array()
        .and_then(|states| states.last())
        .and_then(|state| state["ref"].as_u64())
        .expect("a game with states") as u32;
    let original = text.clone();
    let entered: Vec<f64> = (0..runs)
        .map(|_| {
            session.open(&name, original.clone());
            let started = Instant::now();
            let answer: serde_json::Value =
                serde_json::from_str(&session.enter_move(0, last, "e2", "e4", -1, ""))
                    .expect("an answer");
            let edit = &answer["edit"];
            session.edit(
                edit["from"].as_u64().expect("an edit") as u32,
                edit["to"].as_u64().expect("an edit") as u32,
                edit["text"].as_str().expect("an edit"),
                true,
            );
            std::hint::black_box(session.grid(0, last + 1, false));
            std::hint::black_box(session.picture(0, last + 1, false));
            started.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    println!(
        "a move entered on the last board (written, analysed, its board's squares and picture): {:.2} ms",
        median(entered)
    );
}
