//! The summary of a movetext segment written only in the most common shapes, read without
//! the grammar: a long game is mostly move numbers, one-line comments and moves such as
//! `S@b2`, `cA3@(1.5,2)`, `b2-c3`, `d2:g7`, `*h6` and `?d~1`. Any other text (and any
//! character outside ASCII) is left to the grammar, and a test checks that what is read
//! here is what the grammar reads.

use super::summary::{push_token, SegmentSyntax, TokenSpan};
use crate::model::features::TokenKind;

/// The summary of `segment` (a part of a movetext starting between two items), if every
/// item of it has one of the shapes this module reads.
pub(super) fn summarize(segment: &str) -> Option<SegmentSyntax> {
    let bytes = segment.as_bytes();
    if u32::try_from(bytes.len()).is_err() {
        return None;
    }
    let mut tokens: Vec<TokenSpan> = Vec::with_capacity(bytes.len() / 3);
    let mut comments = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        if is_space(byte) {
            at += 1;
            continue;
        }
        if byte == b'{' {
            let close = at
                + 1
                + bytes[at + 1..]
                    .iter()
                    .position(|&b| b == b'}' || b == b'{')?;
            let after = close + 1;
            let content = &bytes[at + 1..close];
            if bytes[close] != b'}'
                || content.is_empty()
                || !content
                    .iter()
                    .all(|&b| b.is_ascii() && (b >= b' ' || is_space(b)))
                || bytes.get(after).is_some_and(|&b| !is_space(b))
            {
                return None;
            }
            comments.push(at as u32..after as u32);
            push_token(&mut tokens, at as u32, after as u32, TokenKind::Comment);
            at = after;
            continue;
        }
        let end = bytes[at..]
            .iter()
            .position(|&b| is_space(b))
            .map_or(bytes.len(), |length| at + length);
        word(&bytes[at..end], at as u32, &mut tokens)?;
        at = end;
    }
    tokens.shrink_to_fit();
    Some(SegmentSyntax {
        errors: Vec::new(),
        broken: Vec::new(),
        comments,
        tokens,
    })
}

fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

/// The spans of one whitespace-free word at `at`, if it has a shape read here.
fn word(word: &[u8], at: u32, tokens: &mut Vec<TokenSpan>) -> Option<()> {
    let mut push = |from: usize, to: usize, kind| {
        push_token(tokens, at + from as u32, at + to as u32, kind);
    };
    // `1.`, `12...`: a MoveNumber.
    if word.last() == Some(&b'.')
        && word
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
    {
        push(0, word.len(), TokenKind::Number);
        return Some(());
    }
    match word {
        // `*h6`
        [b'*', location @ ..] if location_len(location) == Some(location.len()) => {
            push(0, 1, TokenKind::Operator);
            push(1, word.len(), TokenKind::Variable);
        }
        // `?d~1`
        [b'?', rest @ ..] => {
            let spec = piece_spec_len(rest)?;
            let (&tilde, value) = rest[spec..].split_first()?;
            if tilde != b'~' || value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
                return None;
            }
            push(0, 1, TokenKind::Variable);
            push(1, 1 + spec, TokenKind::Type);
            push(1 + spec, 2 + spec, TokenKind::Operator);
            push(2 + spec, word.len(), TokenKind::Type);
        }
        _ => {
            // `b2-c3`, `d2:g7`
            if let Some(from) = square_len(word) {
                let (&operator, to) = word[from..].split_first()?;
                if !matches!(operator, b'-' | b':') || square_len(to) != Some(to.len()) {
                    return None;
                }
                push(0, from, TokenKind::Variable);
                push(from, from + 1, TokenKind::Operator);
                push(from + 1, word.len(), TokenKind::Variable);
                return Some(());
            }
            // `S@b2`, `cA3@(1.5,2)`
            let spec = piece_spec_len(word)?;
            let (&operator, location) = word[spec..].split_first()?;
            if operator != b'@' || location_len(location) != Some(location.len()) {
                return None;
            }
            push(0, spec, TokenKind::Type);
            push(spec, spec + 1, TokenKind::Operator);
            push(spec + 1, word.len(), TokenKind::Variable);
        }
    }
    Some(())
}

/// A PieceSpec no other token can take: one letter (`S`, `t`), or a lower-case letter, an
/// upper-case letter and a digit (`cA3`).
fn piece_spec_len(text: &[u8]) -> Option<usize> {
    match text {
        [a, b, c, ..] if a.is_ascii_lowercase() && b.is_ascii_uppercase() && c.is_ascii_digit() => {
            Some(3)
        }
        [a, ..] if a.is_ascii_alphabetic() => Some(1),
        _ => None,
    }
}

/// A chess-style square at the start of `text` (`e4`, `aa12`).
fn square_len(text: &[u8]) -> Option<usize> {
    let letters = text.iter().take_while(|b| b.is_ascii_lowercase()).count();
    let digits = text[letters..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    (letters > 0 && digits > 0).then_some(letters + digits)
}

/// A square or Cartesian coordinates (`(1.5,-2)`) at the start of `text`.
fn location_len(text: &[u8]) -> Option<usize> {
    if text.first() != Some(&b'(') {
        return square_len(text);
    }
    let mut at = 1;
    for (index, closer) in [b',', b')'].into_iter().enumerate() {
        at += usize::from(text.get(at) == Some(&b'-'));
        let number = decimal_len(&text[at.min(text.len())..])?;
        at += number;
        if text.get(at) != Some(&closer) {
            return None;
        }
        at += 1;
        if index == 1 {
            return Some(at);
        }
    }
    None
}

/// `12` or `1.5`.
fn decimal_len(text: &[u8]) -> Option<usize> {
    let whole = text.iter().take_while(|b| b.is_ascii_digit()).count();
    if whole == 0 {
        return None;
    }
    if text.get(whole) != Some(&b'.') {
        return Some(whole);
    }
    let fraction = text[whole + 1..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    (fraction > 0).then_some(whole + 1 + fraction)
}
