//! Edit sequences the `updates` fuzz target found where an updated analysis did not answer
//! as a fresh analysis of the same text; each is replayed edit by edit and checked after
//! every edit.

use ppn_ls::ide::analyze::analyze_as;
use ppn_ls::model::edit::TextEdit;
use ppn_ls::model::format::Format;

/// Applies `edits` (`start..old_end` replaced by the text) one after the other, checking
/// each update against a fresh analysis.
fn assert_updates_like_fresh(format: Format, start: &str, edits: &[(usize, usize, &str)]) {
    let mut text = start.to_string();
    let mut document = analyze_as(format, text.clone());
    for (step, &(at, old_end, inserted)) in edits.iter().enumerate() {
        text.replace_range(at..old_end, inserted);
        let edit = TextEdit {
            start: at,
            old_end,
            new_end: at + inserted.len(),
        };
        document = document.update(text.clone(), &edit);
        let fresh = analyze_as(format, text.clone());
        let context = format!("edit {step}: {text:?}");
        assert_eq!(document.diagnostics(), fresh.diagnostics(), "{context}");
        for game in 0..fresh.games().len() {
            let line = fresh.main_line(game);
            assert_eq!(document.main_line(game), line, "{context}");
            for state in &line {
                assert_eq!(
                    document.scene(state.state),
                    fresh.scene(state.state),
                    "{context}"
                );
            }
        }
        assert_eq!(document.symbols(), fresh.symbols(), "{context}");
        let whole = 0..text.len();
        assert_eq!(
            document.semantic_tokens(whole.clone()),
            fresh.semantic_tokens(whole),
            "{context}"
        );
    }
}

/// Two turns numbered alike (`5 f1-f7 5 f6-f7`), a claim typed after the last move and line
/// breaks typed before the turns.
#[test]
fn otn_edits_around_turns_numbered_alike() {
    assert_updates_like_fresh(
        Format::Otn,
        "rao\n[rules:]5 f1-f7 5 f6-f7",
        &[
            (1, 1, "|"),
            (3, 3, " "),
            (21, 21, "\r\n"),
            (31, 31, "+"),
            (1, 1, "\r\n"),
            (25, 25, "\r\n"),
            (36, 36, "+"),
            (1, 1, "\r\n"),
        ],
    );
}
