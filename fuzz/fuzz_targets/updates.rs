//! An analysis updated by edits must answer as a fresh analysis of the edited text does,
//! in every notation: diagnostics, main lines and their boards, symbols, folds and
//! semantic tokens.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;
use common::notation_and_rest;
use ppn_ls::ide::analyze::analyze_as;
use ppn_ls::model::notation_document::NotationDocument;
use ppn_ls::model::edit::TextEdit;
use ppn_ls::model::editor_diagnostics::Shown;

/// What the edits type: the characters each notation gives meaning to.
const TYPED: &[&str] = &[
    " ", "\n", "\r\n", "x", "1", "2", ".", "+", "-", "@", "{", "}", "[", "]", "|", ":", "/", "H",
    "N", "t", "K", "`", "END", "START{", "}END", "\n---\n", "...\n", "é",
];

fn same(updated: &dyn NotationDocument, fresh: &dyn NotationDocument, context: &str) {
    assert_eq!(updated.diagnostics(), fresh.diagnostics(), "{context}");
    // What an editor is shown, however a notation finds it, is picked from all of them.
    for most in [0, 3, usize::MAX] {
        assert_eq!(
            updated.diagnostics_shown(most),
            Shown::of(fresh.diagnostics(), most),
            "{context}: {most} at most"
        );
    }
    let games = fresh.games();
    assert_eq!(updated.games(), games, "{context}");
    for game in 0..games.len() {
        let line = fresh.main_line(game);
        assert_eq!(updated.main_line(game), line, "{context}");
        for state in line.iter().take(64) {
            assert_eq!(
                updated.scene(state.state),
                fresh.scene(state.state),
                "{context}"
            );
        }
    }
    assert_eq!(updated.symbols(), fresh.symbols(), "{context}");
    assert_eq!(updated.folds(), fresh.folds(), "{context}");
    let whole = 0..fresh.text().len();
    assert_eq!(
        updated.semantic_tokens(whole.clone()),
        fresh.semantic_tokens(whole),
        "{context}"
    );
}

fuzz_target!(|data: &[u8]| {
    // As in `analyze`, then the edits from the input's last bytes, two per edit.
    let (format, rest) = notation_and_rest(data);
    let edit_bytes = rest.len().min(16) & !1;
    let (text, edits) = rest.split_at(rest.len() - edit_bytes);
    let mut text = String::from_utf8_lossy(text).into_owned();
    let mut document = analyze_as(format, text.clone());
    for pair in edits.chunks(2) {
        let (place, what) = (usize::from(pair[0]), usize::from(pair[1]));
        let boundaries: Vec<usize> = (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        // Spread the 256 places over the text.
        let at = boundaries[place * (boundaries.len() - 1) / 255];
        let removed = if what & 1 == 1 {
            text[at..]
                .chars()
                .take(1 + (what >> 6))
                .map(char::len_utf8)
                .sum()
        } else {
            0
        };
        let inserted = if what & 2 == 2 || removed == 0 {
            TYPED[(what >> 2) % TYPED.len()]
        } else {
            ""
        };
        text.replace_range(at..at + removed, inserted);
        let edit = TextEdit {
            start: at,
            old_end: at + removed,
            new_end: at + inserted.len(),
        };
        document = document.update(text.clone(), &edit);
        let fresh = analyze_as(format, text.clone());
        same(&*document, &*fresh, &format!("{format:?} {text:?}"));
    }
});
