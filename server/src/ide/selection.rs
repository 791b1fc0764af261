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
    use expect_test::expect;

    use super::*;
    use crate::fixture::{fixture, spot};
    use crate::ide::analyze::analyze;
    use std::path::Path;

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

    /// The highlights at the cursor of `marked`, read as the notation of a file named
    /// `name`: a line each, their kind and where.
    fn highlights_at(name: &str, marked: &str) -> String {
        let fixture = fixture(marked);
        let document = analyze(Some(Path::new(name)), fixture.text.clone());
        highlights(&*document, fixture.offset)
            .iter()
            .map(|highlight| {
                format!(
                    "{:?} {}\n",
                    highlight.kind,
                    spot(&fixture.text, &highlight.range)
                )
            })
            .collect()
    }

    #[test]
    fn selections_grow_from_the_token_to_the_game() {
        let fixture = fixture(
            "---\nEvent: Demo\nMacros:\n  home: S@a1\n...\n\
             1. `home' 1... M@b2\n2. a1-$0b1 2... b2-a2\n3. b1:a2 {a2 again}\n",
        );
        let document = analyze(None, fixture.text.clone());
        let chain: String = selection_ranges(&*document, fixture.offset)
            .iter()
            .map(|range| format!("{}\n", spot(&fixture.text, range)))
            .collect();
        expect![[r#"
            7:7-7:9 "b1"
            7:4-7:9 "a1-b1"
            7:1-7:9 "2. a1-b1"
            7:1-7:20 "2. a1-b1 2... b2-a2"
            1:1-8:20 "---\nEvent: Demo\nMacros:\n  home: S@a1\n...\n1. `home' 1... M@b2\n2. a1-b1 2... b2-a2\n3. b1:a2 {a2 again}"
        "#]].assert_eq(&chain);
    }

    #[test]
    fn a_square_highlights_where_the_game_writes_it() {
        // Not the one in the comment.
        expect![[r#"
            Use 7:18-7:20 "a2"
            Use 8:7-8:9 "a2"
        "#]]
        .assert_eq(&highlights_at(
            "g.ppn",
            "---\nEvent: Demo\nMacros:\n  home: S@a1\n...\n\
             1. `home' 1... M@b2\n2. a1-b1 2... b2-a$02\n3. b1:a2 {a2 again}\n",
        ));
    }

    #[test]
    fn a_macro_highlights_its_key_and_its_uses() {
        expect![[r#"
            Definition 4:3-4:7 "home"
            Use 6:4-6:10 "`home'"
        "#]]
        .assert_eq(&highlights_at(
            "g.ppn",
            "---\nEvent: Demo\nMacros:\n  home: S@a1\n...\n\
             1. `h$0ome' 1... M@b2\n2. a1-b1 2... b2-a2\n3. b1:a2 {a2 again}\n",
        ));
    }

    #[test]
    fn squares_of_an_opentafl_record_highlight_too() {
        expect![[r#"
            Use 2:7-2:9 "f5"
            Use 3:4-3:6 "f5"
        "#]]
        .assert_eq(&highlights_at(
            "g.otn",
            "[rules:dim:7 start:/3t3/3t3/tTTKTTt/3T3/3t3/7/7/]\n1. d5-f5 b4-b2\n2. f$05-f2 b2-c2\n",
        ));
    }
}
