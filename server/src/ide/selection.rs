//! Selection ranges and document highlights, for every notation, from what a
//! [`NotationDocument`] answers: its tokens, its moves, its games and its references.

use std::ops::Range;

use crate::model::features::TokenKind;
use crate::model::notation_document::{pair_key, NotationDocument};

/// The ranges to select around `offset`, each holding the one before: the token, the
/// word, the move, the move pair, the game.
pub fn selection_ranges(document: &dyn NotationDocument, offset: usize) -> Vec<Range<usize>> {
    let text = document.text();
    let mut candidates: Vec<Range<usize>> = Vec::new();
    if let Some(token) = document
        .semantic_tokens(offset..offset + 1)
        .into_iter()
        .find(|token| token.range.start <= offset && offset < token.range.end.max(offset + 1))
    {
        candidates.push(token.range);
    }
    candidates.extend(word_at(text, offset));
    if let Some(at) = document.move_at(offset, false) {
        if let Some(range) = &at.range {
            candidates.push(range.clone());
        }
        let line = document.main_line(at.state.game);
        if let Some(position) = line.iter().position(|state| state.state == at.state) {
            let key = pair_key(&line[position].label);
            let same = |state: &&crate::model::notation_document::LineState| {
                state.range.is_some() && pair_key(&state.label) == key
            };
            let first = line[..position].iter().rev().take_while(same).count();
            let last = line[position + 1..].iter().take_while(same).count();
            let pair = &line[position - first..=position + last];
            if let (Some(Some(start)), Some(Some(end))) = (
                pair.first().map(|state| state.range.clone()),
                pair.last().map(|state| state.range.clone()),
            ) {
                candidates.push(start.start..end.end);
            }
        }
    }
    if let Some(game) = document
        .games()
        .into_iter()
        .find(|game| game.range.start <= offset && offset <= game.range.end)
    {
        candidates.push(game.range);
    }
    // Each range must hold the one before it and be larger.
    let mut chain: Vec<Range<usize>> = Vec::new();
    for range in candidates {
        let holds = chain.last().is_none_or(|inner| {
            range.start <= inner.start && inner.end <= range.end && range != *inner
        });
        if holds && range.start <= offset && offset <= range.end {
            chain.push(range);
        }
    }
    chain
}

/// The whitespace-free run of text around `offset`.
fn word_at(text: &str, offset: usize) -> Option<Range<usize>> {
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return None;
    }
    let start = text[..offset]
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace())
        .map_or(0, |(at, c)| at + c.len_utf8());
    let end = text[offset..]
        .char_indices()
        .find(|(_, c)| c.is_whitespace())
        .map_or(text.len(), |(at, _)| offset + at);
    (start < end).then_some(start..end)
}

/// How a highlighted range is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HighlightKind {
    /// Where a name is defined.
    Definition,
    /// Where it is used, or where a square is written.
    Use,
}

/// A range to highlight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Highlight {
    pub range: Range<usize>,
    pub kind: HighlightKind,
}

/// What to highlight for the cursor at `offset`: a name's definition and uses (a PPN
/// macro), or every place the game writes the square under the cursor, in the moves
/// that touch it.
pub fn highlights(document: &dyn NotationDocument, offset: usize) -> Vec<Highlight> {
    let uses = document.references(offset, true);
    if !uses.is_empty() {
        let definition = document.definition(offset);
        return uses
            .into_iter()
            .map(|range| Highlight {
                kind: if Some(&range) == definition.as_ref() {
                    HighlightKind::Definition
                } else {
                    HighlightKind::Use
                },
                range,
            })
            .collect();
    }
    square_highlights(document, offset)
}

/// A square's name, as the notations write one: `e4`, `aa12`, `(2.5,-3)`.
fn is_square(written: &str) -> bool {
    let letters = written.bytes().take_while(u8::is_ascii_lowercase).count();
    let digits = &written[letters..];
    let algebraic = letters > 0 && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    let cartesian = written.starts_with('(')
        && written.ends_with(')')
        && written[1..written.len() - 1]
            .split(',')
            .all(|part| !part.is_empty() && part.parse::<f64>().is_ok())
        && written.matches(',').count() == 1;
    algebraic || cartesian
}

fn square_highlights(document: &dyn NotationDocument, offset: usize) -> Vec<Highlight> {
    let text = document.text();
    let Some(token) = document
        .semantic_tokens(offset..offset + 1)
        .into_iter()
        .find(|token| {
            token.kind == TokenKind::Variable
                && token.range.start <= offset
                && offset <= token.range.end
                && text.get(token.range.clone()).is_some_and(is_square)
        })
    else {
        return Vec::new();
    };
    let square = &text[token.range.clone()];
    let Some(game) = document
        .games()
        .into_iter()
        .find(|game| game.range.start <= offset && offset <= game.range.end)
    else {
        return Vec::new();
    };
    document
        .semantic_tokens(game.range)
        .into_iter()
        .filter(|other| {
            other.kind == TokenKind::Variable && text.get(other.range.clone()) == Some(square)
        })
        // Only squares within moves: not the metadata's values.
        .filter(|other| {
            document
                .move_at(other.range.start, false)
                .is_some_and(|at| at.range.is_some())
        })
        .map(|other| Highlight {
            range: other.range,
            kind: HighlightKind::Use,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ide::analyze::analyze;
    use std::path::Path;

    const TEXT: &str = "---\nEvent: Demo\nMacros:\n  home: S@a1\n...\n\
                        1. `home' 1... M@b2\n2. a1-b1 2... b2-a2\n3. b1:a2 {a2 again}\n";

    fn at(text: &str, needle: &str, n: usize) -> usize {
        text.match_indices(needle).nth(n).expect("in the text").0
    }

    #[test]
    fn pair_keys() {
        for (label, key) in [
            ("12.", "12"),
            ("12...", "12"),
            ("3S.", "3"),
            ("3T.", "3"),
            ("Round2.", "Round2"),
            ("setup.", "setup"),
            ("start", "start"),
        ] {
            assert_eq!(pair_key(label), key, "{label}");
        }
    }

    #[test]
    fn selections_grow_from_the_token_to_the_game() {
        let document = analyze(None, TEXT.to_string());
        let b1 = at(TEXT, "a1-b1", 0) + 3;
        let chain: Vec<&str> = selection_ranges(&*document, b1)
            .into_iter()
            .map(|range| &TEXT[range])
            .collect();
        assert_eq!(chain[0], "b1");
        assert_eq!(chain[1], "a1-b1");
        assert_eq!(chain[2], "2. a1-b1");
        assert_eq!(chain[3], "2. a1-b1 2... b2-a2");
        assert!(chain[4].starts_with("---\nEvent: Demo"), "{chain:?}");
        assert_eq!(chain.len(), 5);
    }

    #[test]
    fn a_square_highlights_where_the_game_writes_it() {
        let document = analyze(None, TEXT.to_string());
        let found: Vec<usize> = highlights(&*document, at(TEXT, "a2", 0) + 1)
            .into_iter()
            .map(|highlight| {
                assert_eq!(highlight.kind, HighlightKind::Use);
                assert_eq!(&TEXT[highlight.range.clone()], "a2");
                highlight.range.start
            })
            .collect();
        // Not the one in the comment.
        assert_eq!(found, [at(TEXT, "a2", 0), at(TEXT, "a2", 1)]);
    }

    #[test]
    fn a_macro_highlights_its_key_and_its_uses() {
        let document = analyze(None, TEXT.to_string());
        let found = highlights(&*document, at(TEXT, "`home'", 0) + 2);
        assert_eq!(
            found,
            [
                Highlight {
                    range: at(TEXT, "home:", 0)..at(TEXT, "home:", 0) + 4,
                    kind: HighlightKind::Definition
                },
                Highlight {
                    range: at(TEXT, "`home'", 0)..at(TEXT, "`home'", 0) + 6,
                    kind: HighlightKind::Use
                },
            ]
        );
    }

    #[test]
    fn squares_of_an_opentafl_record_highlight_too() {
        let text =
            "[rules:dim:7 start:/3t3/3t3/tTTKTTt/3T3/3t3/7/7/]\n1. d5-f5 b4-b2\n2. f5-f2 b2-c2\n";
        let document = analyze(Some(Path::new("g.otn")), text.to_string());
        let found = highlights(&*document, at(text, "f5", 1) + 1);
        let places: Vec<usize> = found.iter().map(|h| h.range.start).collect();
        assert_eq!(places, [at(text, "f5", 0), at(text, "f5", 1)], "{found:?}");
    }
}
