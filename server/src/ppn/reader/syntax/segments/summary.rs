//! What is kept of a segment's parse: its errors, the spans it could not read, its comments
//! and its tokens' kinds, with byte ranges relative to the segment's start.

use std::ops::Range;

use crate::model::features::TokenKind;
use crate::ppn::reader::syntax::SyntaxError;

/// The summary of a parse of one segment, with byte ranges relative to its start.
#[derive(Debug, Default, PartialEq)]
pub(super) struct SegmentSyntax {
    pub(super) errors: Vec<SyntaxError>,
    pub(super) broken: Vec<Range<u32>>,
    pub(super) comments: Vec<Range<u32>>,
    pub(super) tokens: Vec<TokenSpan>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct TokenSpan {
    pub(super) start: u32,
    pub(super) end: u32,
    pub(super) kind: TokenKind,
}

/// Appends a span, merged with the last one when they touch and are of one kind (`&` and
/// `a1` of `&a1`, the parts of a macro or a comment).
pub(super) fn push_token(tokens: &mut Vec<TokenSpan>, start: u32, end: u32, kind: TokenKind) {
    match tokens.last_mut() {
        Some(last) if last.end == start && last.kind == kind => last.end = end,
        _ => tokens.push(TokenSpan { start, end, kind }),
    }
}
