//! The analysis of a document in every notation ppn-ls reads, and every editor feature
//! asked about it: none may panic, and every range it reports must lie in the text.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;
use common::notation_and_rest;
use ppn_ls::ide::analyze::{analyze_as, board_at, hover, quick_fixes};
use ppn_ls::model::notation_document::StateRef;

fuzz_target!(|data: &[u8]| {
    let (format, rest) = notation_and_rest(data);
    let text = String::from_utf8_lossy(rest).into_owned();
    let length = text.len();
    let document = analyze_as(format, text);
    let in_text = |range: &std::ops::Range<usize>| range.start <= range.end && range.end <= length;

    for diagnostic in document.diagnostics() {
        assert!(in_text(&diagnostic.range), "{diagnostic:?}");
    }
    let games = document.games();
    for (game, summary) in games.iter().enumerate() {
        assert!(in_text(&summary.range), "{summary:?}");
        for state in document.main_line(game).iter().take(64) {
            let _ = document.scene(state.state);
        }
        let _ = document.scene(StateRef {
            game,
            index: usize::MAX,
        });
    }
    for symbol in document.symbols() {
        assert!(in_text(&symbol.range), "{symbol:?}");
    }
    let _ = document.folds();
    for token in document.semantic_tokens(0..length) {
        assert!(in_text(&token.range), "{token:?}");
    }
    let _ = document.inlay_hints(0..length);
    // A few places to ask about: spread over the text, plus its end and past it.
    let probes = (0..8).map(|k| length * k / 8).chain([length, length + 3]);
    for offset in probes {
        if let Some(found) = hover(&*document, offset) {
            assert!(in_text(&found.range), "{found:?}");
        }
        let _ = board_at(&*document, offset);
        let _ = document.completions(offset);
        let _ = document.definition(offset);
        let _ = document.references(offset, true);
        let _ = quick_fixes(&*document, offset..offset);
    }
});
