//! Feature tests as fixtures: a text with `$0` where the cursor stands (twice around a
//! range), asked of any notation, and the answer written beside it with `expect-test`.
//! `UPDATE_EXPECT=1 cargo test` writes the answers anew; review the diff.
//!
//! ```text
//! check_hover(Format::Ppn, "1. S@b2 2. $0b2-c3\n", expect![[r#"..."#]]);
//! ```
//!
//! Each answer is written as a person reads it: ranges as the text they cover with its
//! line and column (1-based), boards by their label.

use std::fmt::Write as _;
use std::ops::Range;

use expect_test::Expect;

use crate::ide::analyze::analyze_as;
use crate::model::features::{Completion, Symbol};
use crate::model::format::Format;
use crate::model::notation_document::NotationDocument;

/// The marker of the cursor in a fixture.
pub const CURSOR: &str = "$0";

/// A fixture's text without its markers, and where they stood.
pub struct Fixture {
    pub text: String,
    /// The cursor; for a range, its start.
    pub offset: usize,
    /// Between two markers; empty at one.
    pub range: Range<usize>,
}

/// Reads a fixture: one `$0` for a cursor, two around a range.
pub fn fixture(marked: &str) -> Fixture {
    let first = marked
        .find(CURSOR)
        .unwrap_or_else(|| panic!("no {CURSOR} in the fixture {marked:?}"));
    let rest = &marked[first + CURSOR.len()..];
    let (text, range) = match rest.find(CURSOR) {
        Some(second) => (
            format!(
                "{}{}{}",
                &marked[..first],
                &rest[..second],
                &rest[second + 2..]
            ),
            first..first + second,
        ),
        None => (format!("{}{rest}", &marked[..first]), first..first),
    };
    assert!(
        !text.contains(CURSOR),
        "more than two {CURSOR} in {marked:?}"
    );
    Fixture {
        text,
        offset: range.start,
        range,
    }
}

/// `text` with its carriage returns shown (`␍`): an answer holds none, which a formatter
/// would take away.
fn visible(text: &str) -> String {
    text.replace('\r', "␍")
}

/// A fixture's text and its marked range, or the whole text where nothing is marked.
fn text_and_range(marked: &str) -> (String, Range<usize>) {
    if marked.contains(CURSOR) {
        let fixture = fixture(marked);
        (fixture.text, fixture.range)
    } else {
        (marked.to_string(), 0..marked.len())
    }
}

/// The analysis of `text` as `format`.
pub fn analysed(format: Format, text: &str) -> Box<dyn NotationDocument> {
    analyze_as(format, text.to_string())
}

/// `range` of `text` as a reader finds it: `2:4-2:9 "b2-c3"` (lines and columns from 1,
/// columns in characters).
pub fn spot(text: &str, range: &Range<usize>) -> String {
    let place = |offset: usize| {
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let column = before[before.rfind('\n').map_or(0, |i| i + 1)..]
            .chars()
            .count()
            + 1;
        format!("{line}:{column}")
    };
    format!(
        "{}-{} {:?}",
        place(range.start),
        place(range.end),
        &text[range.clone()]
    )
}

/// The hover at the cursor: the text it is about, its Markdown, and the board below it.
pub fn check_hover(format: Format, marked: &str, expect: Expect) {
    let fixture = fixture(marked);
    let document = analysed(format, &fixture.text);
    let shown = match document.hover(fixture.offset) {
        None => "no hover".to_string(),
        Some(hover) => {
            let markdown = hover.markdown.trim_end();
            let mut shown = format!("{}\n{markdown}\n", spot(&fixture.text, &hover.range));
            if let Some(board) = hover.board {
                let _ = write!(
                    shown,
                    "\nboard: {} (game {}, state {})",
                    board.label, board.state.game, board.state.index
                );
                if let Some(marked) = board.marked {
                    let _ = write!(shown, ", marked pieces {marked:?}");
                }
                shown.push('\n');
            }
            shown
        }
    };
    expect.assert_eq(&shown);
}

/// The completions at the cursor that an editor keeps for what is typed before it (those
/// whose label starts with the first letter of the replaced text up to the cursor and has
/// its other letters in order, in any case), in the order it lists them (by their sort
/// key), a line each: the label, what it inserts where it differs, and its detail; then how
/// many it leaves out, the text they replace, and beside any completion that replaces other
/// text, that text.
pub fn check_completions(format: Format, marked: &str, expect: Expect) {
    let fixture = fixture(marked);
    let document = analysed(format, &fixture.text);
    let mut completions = document.completions(fixture.offset);
    completions.sort_by(|a, b| a.sort.cmp(&b.sort));
    let replaced = completions.first().map(|first| first.replace.clone());
    let typed = |completion: &Completion| {
        let range = &completion.replace;
        fixture
            .text
            .get(range.start..fixture.offset.clamp(range.start, range.end))
            .unwrap_or_default()
            .to_lowercase()
    };
    let (kept, left_out): (Vec<&Completion>, Vec<&Completion>) = completions
        .iter()
        .partition(|completion| matches_typed(&completion.label, &typed(completion)));
    let mut shown = String::new();
    for completion in kept {
        shown.push_str(&completion.label);
        if completion.insert != completion.label {
            let _ = write!(shown, " => {:?}", completion.insert);
        }
        if let Some(detail) = &completion.detail {
            let _ = write!(shown, " — {detail}");
        }
        if replaced.as_ref() != Some(&completion.replace) {
            let _ = write!(
                shown,
                " (replacing {})",
                spot(&fixture.text, &completion.replace)
            );
        }
        shown.push('\n');
    }
    if !left_out.is_empty() {
        let _ = writeln!(
            shown,
            "and {} more not matching {:?}",
            left_out.len(),
            typed(left_out[0])
        );
    }
    if let Some(replaced) = replaced {
        let _ = writeln!(shown, "replacing {}", spot(&fixture.text, &replaced));
    }
    expect.assert_eq(&shown);
}

/// Whether an editor keeps `label` for `typed` (in lower case): the same first letter, and
/// the others in order.
fn matches_typed(label: &str, typed: &str) -> bool {
    let label = label.to_lowercase();
    let mut letters = label.chars();
    let mut wanted = typed.chars();
    match wanted.next() {
        None => true,
        Some(first) => {
            letters.next() == Some(first) && wanted.all(|letter| letters.any(|l| l == letter))
        }
    }
}

/// Every diagnostic of `text`: its code, where, and its message.
pub fn check_diagnostics(format: Format, text: &str, expect: Expect) {
    let document = analysed(format, text);
    let mut shown = String::new();
    for diagnostic in document.diagnostics() {
        let _ = writeln!(
            shown,
            "{} {} {}: {}",
            diagnostic.severity.name(),
            diagnostic.code,
            spot(text, &diagnostic.range),
            diagnostic.message
        );
    }
    expect.assert_eq(&shown);
}

/// The codes of `text`'s diagnostics, in order: what a test of which problems a text has,
/// and not how they are worded, compares.
pub fn diagnostic_codes(format: Format, text: &str) -> Vec<&'static str> {
    analysed(format, text)
        .diagnostics()
        .iter()
        .map(|diagnostic| diagnostic.code)
        .collect()
}

/// The text with its inlay hints written in, between `‹` and `›`: the hint's kind and
/// label, and its tooltip after a `|` if it has one (carriage returns shown as `␍`). With
/// two `$0` around a range, only the hints asked for in that range (the markers are left
/// out of the answer).
pub fn check_inlay_hints(format: Format, marked: &str, expect: Expect) {
    let (text, range) = text_and_range(marked);
    let document = analysed(format, &text);
    let mut shown = String::new();
    let mut at = 0;
    for hint in document.inlay_hints(range) {
        shown.push_str(&text[at..hint.offset]);
        let _ = write!(shown, "‹{:?}: {}", hint.kind, hint.label);
        if let Some(tooltip) = &hint.tooltip {
            let _ = write!(shown, " | {tooltip}");
        }
        shown.push('›');
        at = hint.offset;
    }
    shown.push_str(&text[at..]);
    expect.assert_eq(&visible(&shown));
}

/// The outline: each symbol's kind, name and detail, what is selected when it is chosen,
/// and all it covers (its text too where that is one line), indented under its parent.
pub fn check_symbols(format: Format, text: &str, expect: Expect) {
    fn write_symbols(text: &str, symbols: &[Symbol], depth: usize, shown: &mut String) {
        for symbol in symbols {
            let _ = write!(
                shown,
                "{}{:?} {}",
                "  ".repeat(depth),
                symbol.kind,
                symbol.name
            );
            if let Some(detail) = &symbol.detail {
                let _ = write!(shown, " ({detail})");
            }
            let _ = write!(shown, " at {}, covering ", spot(text, &symbol.selection));
            let covered = spot(text, &symbol.range);
            if text[symbol.range.clone()].contains('\n') {
                shown.push_str(covered.split(' ').next().unwrap_or_default());
            } else {
                shown.push_str(&covered);
            }
            shown.push('\n');
            write_symbols(text, &symbol.children, depth + 1, shown);
        }
    }
    let document = analysed(format, text);
    let mut shown = String::new();
    write_symbols(text, &document.symbols(), 0, &mut shown);
    expect.assert_eq(&shown);
}

/// The folds: their kind and their first and last lines (from 1).
pub fn check_folds(format: Format, text: &str, expect: Expect) {
    let document = analysed(format, text);
    let mut shown = String::new();
    for fold in document.folds() {
        let _ = writeln!(
            shown,
            "{:?} lines {}-{}",
            fold.kind,
            fold.start_line + 1,
            fold.end_line + 1
        );
    }
    expect.assert_eq(&shown);
}

/// The semantic tokens of the whole text, a line each: the kind and the text it covers.
/// With two `$0` around a range, the tokens asked for in that range.
pub fn check_semantic_tokens(format: Format, marked: &str, expect: Expect) {
    let (text, range) = text_and_range(marked);
    let document = analysed(format, &text);
    let mut shown = String::new();
    for token in document.semantic_tokens(range) {
        let _ = writeln!(shown, "{:?} {:?}", token.kind, &text[token.range]);
    }
    expect.assert_eq(&shown);
}

/// The definition of what the cursor is on, and every use of it (the definition too).
pub fn check_navigation(format: Format, marked: &str, expect: Expect) {
    let fixture = fixture(marked);
    let document = analysed(format, &fixture.text);
    let mut shown = String::new();
    match document.definition(fixture.offset) {
        Some(range) => {
            let _ = writeln!(shown, "defined at {}", spot(&fixture.text, &range));
        }
        None => shown.push_str("no definition\n"),
    }
    for range in document.references(fixture.offset, true) {
        let _ = writeln!(shown, "used at {}", spot(&fixture.text, &range));
    }
    expect.assert_eq(&shown);
}

/// What a rename at the cursor would select (or why it cannot be renamed), then the text
/// after renaming it to `new_name` (carriage returns shown as `␍`), or why it cannot be.
pub fn check_rename(format: Format, marked: &str, new_name: &str, expect: Expect) {
    let fixture = fixture(marked);
    let document = analysed(format, &fixture.text);
    let mut shown = match document.prepare_rename(fixture.offset) {
        Ok(Some((range, name))) => format!("renames {name:?} at {}\n", spot(&fixture.text, &range)),
        Ok(None) => "nothing to rename\n".to_string(),
        Err(why) => format!("cannot rename: {why}\n"),
    };
    match document.rename(fixture.offset, new_name) {
        Ok(edits) => {
            shown.push_str(&visible(&crate::model::edit::with_replacements(
                &fixture.text,
                &edits,
            )));
        }
        Err(why) => {
            let _ = writeln!(shown, "refused: {why}");
        }
    }
    expect.assert_eq(&shown);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixture_marks_a_cursor_or_a_range() {
        let cursor = fixture("1. S@$0b2\n");
        assert_eq!((cursor.text.as_str(), cursor.offset), ("1. S@b2\n", 5));
        let range = fixture("1. $0S@b2$0\n");
        assert_eq!((range.text.as_str(), range.range), ("1. S@b2\n", 3..7));
        assert_eq!(spot("a\nb2-c3\n", &(2..7)), "2:1-2:6 \"b2-c3\"");
    }
}
