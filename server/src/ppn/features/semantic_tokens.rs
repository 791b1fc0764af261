//! Semantic tokens: a kind for every meaningful span of the file, from the syntax (moves)
//! and from the lines of the metadata (keys and values).

use std::ops::Range;

use crate::ppn::document::PpnDocument;
use crate::ppn::features::locate::games;

pub use crate::model::features::{SemanticToken, TokenKind};

/// Every token of the document in order; none overlaps another or spans a line end.
pub fn semantic_tokens(analysis: &PpnDocument) -> Vec<SemanticToken> {
    semantic_tokens_in(analysis, 0..analysis.text.len())
}

/// The tokens that overlap `range`: those [`semantic_tokens`] gives there, found without
/// looking at the rest of the document (the syntax's segments on other lines are skipped).
pub fn semantic_tokens_in(analysis: &PpnDocument, range: Range<usize>) -> Vec<SemanticToken> {
    let mut tokens = Vec::new();
    for_each_token_in(analysis, range, &mut |token| tokens.push(token));
    tokens
}

/// What [`semantic_tokens_in`] lists, given to `emit` in order as each token is found:
/// a long document's tokens are never gathered in between.
pub fn for_each_token_in(
    analysis: &PpnDocument,
    range: Range<usize>,
    emit: &mut dyn FnMut(SemanticToken),
) {
    let text = &analysis.text;
    // Whole lines: a token is cut at line ends, so what lies on other lines cannot change
    // the tokens of these.
    let lines = &analysis.line_index;
    let first_line = lines.line_of(range.start.min(text.len()));
    let last_line = lines.line_of(range.end.min(text.len()));
    let wanted = lines.line_range(text, first_line).start
        ..lines
            .line_range(text, last_line + 1)
            .start
            .max(lines.line_range(text, last_line).end);
    // The metadata's spans, in order: the syntax has none inside a game's metadata.
    let mut metadata_spans_wanted = Vec::new();
    for game in games(analysis) {
        if game.source.range.end < wanted.start || game.source.range.start > wanted.end {
            continue;
        }
        if let Some(metadata) = &game.source.metadata {
            metadata_spans(text, metadata.clone(), &mut metadata_spans_wanted);
        }
    }
    let mut metadata = metadata_spans_wanted.into_iter().peekable();
    let mut merging = Merging {
        analysis,
        pending: None,
        emit,
    };
    // Both lists are sorted: merging them keeps the document's order, the syntax's span
    // first where two start and end at the same place.
    for (range, kind) in analysis.syntax.token_spans(wanted) {
        while let Some((earlier, kind)) =
            metadata.next_if(|(earlier, _)| (earlier.start, earlier.end) < (range.start, range.end))
        {
            merging.add(earlier, kind);
        }
        merging.add(range, kind);
    }
    for (range, kind) in metadata {
        merging.add(range, kind);
    }
    merging.finish();
}

/// Spans in document order become tokens: neighbours of one kind (`&` and `a1` of `&a1`,
/// the parts of a macro) are one span, and a span is cut at line ends.
struct Merging<'a, 'e> {
    analysis: &'a PpnDocument,
    pending: Option<(Range<usize>, TokenKind)>,
    emit: &'e mut dyn FnMut(SemanticToken),
}

impl Merging<'_, '_> {
    fn add(&mut self, range: Range<usize>, kind: TokenKind) {
        let covered_to = self.pending.as_ref().map_or(0, |(last, _)| last.end);
        // Spans come from disjoint nodes and lines, but keep the output valid regardless.
        let start = range.start.max(covered_to);
        if start >= range.end {
            return;
        }
        match &mut self.pending {
            Some((last, last_kind)) if last.end == start && *last_kind == kind => {
                last.end = range.end;
            }
            pending => {
                if let Some((done, done_kind)) = pending.replace((start..range.end, kind)) {
                    split_lines(self.analysis, done, done_kind, self.emit);
                }
            }
        }
    }

    fn finish(mut self) {
        if let Some((done, kind)) = self.pending.take() {
            split_lines(self.analysis, done, kind, self.emit);
        }
    }
}

/// Keys and values of the YAML lines; comment lines as comments.
fn metadata_spans(text: &str, metadata: Range<usize>, spans: &mut Vec<(Range<usize>, TokenKind)>) {
    let Some(yaml) = text.get(metadata.clone()) else {
        return;
    };
    let mut line_start = metadata.start;
    for line in yaml.split_inclusive(['\n', '\r']) {
        let content = line.trim_end_matches(['\n', '\r']);
        let indent = content.len() - content.trim_start().len();
        let body = content.trim();
        let start = line_start + indent;
        line_start += line.len();
        if body.is_empty() {
            continue;
        }
        if body.starts_with('#') {
            spans.push((start..start + body.len(), TokenKind::Comment));
            continue;
        }
        let key_end = body
            .find(": ")
            .or_else(|| body.ends_with(':').then(|| body.len() - 1))
            .filter(|_| !body.starts_with(['-', '{', '[']));
        match key_end {
            Some(key_end) => {
                let key = body[..key_end].trim_end();
                spans.push((start..start + key.len(), TokenKind::Property));
                let value = &body[key_end + 1..];
                let value_start = start + key_end + 1 + (value.len() - value.trim_start().len());
                let value = value.trim();
                if !value.is_empty() {
                    spans.push((value_start..value_start + value.len(), TokenKind::String));
                }
            }
            None => spans.push((start..start + body.len(), TokenKind::String)),
        }
    }
}

fn split_lines(
    analysis: &PpnDocument,
    range: Range<usize>,
    kind: TokenKind,
    emit: &mut dyn FnMut(SemanticToken),
) {
    let text = &analysis.text;
    // Most tokens are a few printable ASCII characters: nothing to cut or trim.
    let printable = |byte: &u8| (b'!'..=b'~').contains(byte);
    if let Some(bytes) = text.as_bytes().get(range.clone()) {
        if bytes.iter().all(printable) && !bytes.is_empty() {
            emit(SemanticToken { range, kind });
            return;
        }
    }
    if let Some(piece) = text
        .get(range.clone())
        .filter(|piece| !piece.contains(['\n', '\r']))
    {
        // On one line: only its blanks at either end to leave out.
        let start = range.start + (piece.len() - piece.trim_start().len());
        let end = start + piece.trim().len();
        if start < end {
            emit(SemanticToken {
                range: start..end,
                kind,
            });
        }
        return;
    }
    let index = &analysis.line_index;
    let first = index.line_of(range.start);
    let last = index.line_of(range.end.saturating_sub(1).max(range.start));
    for line in first..=last {
        let line_range = index.line_range(text, line);
        let start = range.start.max(line_range.start);
        let end = range.end.min(line_range.end);
        // Leading and trailing blanks of a line are not part of anything.
        let piece = text.get(start..end).unwrap_or_default();
        let start = start + (piece.len() - piece.trim_start().len());
        let end = start + piece.trim().len();
        if start < end {
            emit(SemanticToken {
                range: start..end,
                kind,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;
    use crate::fixture::check_semantic_tokens;
    use crate::model::format::Format::Ppn;

    #[test]
    fn moves_are_split_into_their_parts() {
        check_semantic_tokens(
            Ppn,
            "1. S@b2 `q'@c3 {a\nb} 2. ?S-&a1 b2@>90\n",
            expect![[r#"
                Number "1."
                Type "S"
                Operator "@"
                Variable "b2"
                Macro "`q'"
                Operator "@"
                Variable "c3"
                Comment "{a"
                Comment "b}"
                Number "2."
                Variable "?"
                Type "S"
                Operator "-"
                Variable "&a1"
                Variable "b2"
                Operator "@>"
                Number "90"
            "#]],
        );
    }

    #[test]
    fn metadata_keys_and_values() {
        check_semantic_tokens(
            Ppn,
            "---\nGameType: Tablut\n# note\nSetUp:\n  Seed: 42\n...\n1. b2-b3\n",
            expect![[r##"
                Keyword "---"
                Property "GameType"
                String "Tablut"
                Comment "# note"
                Property "SetUp"
                Property "Seed"
                String "42"
                Keyword "..."
                Number "1."
                Variable "b2"
                Operator "-"
                Variable "b3"
            "##]],
        );
    }

    #[test]
    fn the_tokens_of_a_range_are_those_of_the_whole_document_there() {
        let text =
            "---\nEvent: 🂡\nMacros:\n  x: S@a1\n...\n1. 🂡@b2 {🁣\n🁣 long} 2. t@{b,d}{2..4} ;\r\n\
                    3. ^a2-a3 `x'\n4. b2-c3 {one\ntwo\nthree} 5. *c3\n6. c3-d4 7. d4-e5 {x}\n\
                    8. e5:f6 9. *f6 10. S@a1 {y\nz} 11. a1-b1 12. ?S-a2\n---\n...\n1. S@a1\n";
        let analysis = PpnDocument::new(text.to_string());
        let all = semantic_tokens(&analysis);
        let offsets: Vec<usize> = (0..=text.len())
            .filter(|&at| text.is_char_boundary(at))
            .collect();
        for (index, &start) in offsets.iter().enumerate() {
            for &end in offsets[index..].iter().step_by(3) {
                let mut want = all.clone();
                want.retain(|token| token.range.end > start && token.range.start < end);
                let mut got = semantic_tokens_in(&analysis, start..end);
                got.retain(|token| token.range.end > start && token.range.start < end);
                assert_eq!(got, want, "{start}..{end}");
            }
        }
    }

    #[test]
    fn tokens_never_overlap_nor_cross_lines() {
        let text = "---\nEvent: 🂡\n...\n1. 🂡@b2 {🁣\n🁣} 2. t@{b,d}{2..4} ;\r\n3. ^a2-a3\n";
        let analysis = PpnDocument::new(text.to_string());
        let tokens = semantic_tokens(&analysis);
        assert!(!tokens.is_empty());
        for pair in tokens.windows(2) {
            assert!(pair[0].range.end <= pair[1].range.start, "{pair:?}");
        }
        for token in &tokens {
            assert!(
                !text[token.range.clone()].contains(['\n', '\r']),
                "{token:?}"
            );
        }
        let card = text.find("🂡@").unwrap();
        assert!(tokens.contains(&SemanticToken {
            range: card..card + 4,
            kind: TokenKind::Type
        }));
    }
}
