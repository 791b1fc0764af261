//! The syntax of a whole document, parsed a segment at a time and kept as what the editor
//! features read: syntax errors, the spans the grammar could not read, comments and the
//! kinds of the spans (semantic tokens).
//!
//! A syntax tree costs about a hundred bytes per byte of text, and re-parsing it after an
//! edit near the start of a long movetext visits the whole list of moves after the edit.
//! So the text is cut into segments of a few KiB at places where the grammar is between
//! two items of a movetext (a line start outside any comment), each segment is parsed on
//! its own and only its summary is kept. An edit re-parses the segments it touches; the
//! cuts are chosen by the text around them, so they fall again where they were once past
//! the edit, and every later segment is reused as it is.
//!
//! The cuts depend only on the text: a document analysed after any sequence of edits has
//! the summary a fresh analysis of its text has.

use std::ops::Range;
use std::sync::Arc;
use summary::{push_token, SegmentSyntax, TokenSpan};

use tree_sitter::Node;

use super::{parse, syntax_errors, SyntaxError};
use crate::model::features::TokenKind;
use crate::ppn::reader::games::GameSource;

/// Where a movetext is cut.
#[derive(Debug, Clone, Copy, PartialEq)]
struct CutLimits {
    /// A segment is not cut before it holds this many bytes...
    min_bytes: usize,
    /// ...and is cut at the first line start this far in, whatever the line holds.
    max_bytes: usize,
    /// Between the two, a segment ends before a line whose hash is a multiple of this:
    /// the cuts follow the text, not the distance from the previous cut, so that after an
    /// edit they soon fall where they fell before.
    line_modulus: u32,
}

impl CutLimits {
    /// Whether a segment of `size` bytes so far ends before `rest`, a place the grammar is
    /// between two items.
    fn cut_at(&self, size: usize, rest: &[u8]) -> bool {
        size >= self.min_bytes
            && (size >= self.max_bytes || line_hash(rest).is_multiple_of(self.line_modulus))
    }
}

const CUT_LIMITS: CutLimits = CutLimits {
    min_bytes: 512,
    max_bytes: 4 << 10,
    line_modulus: 4,
};

/// What a segment that starts inside a movetext is parsed after: a game with empty
/// metadata, whose movetext the segment continues.
const MOVETEXT_PREFIX: &str = "---\n...\n";

#[derive(Debug, Clone, PartialEq)]
struct PlacedSegment {
    range: Range<usize>,
    /// Whether the segment continues a movetext (parsed after [`MOVETEXT_PREFIX`]) rather
    /// than starting the document or a game.
    continues_movetext: bool,
    syntax: Arc<SegmentSyntax>,
}

/// The syntax of a document: its segments, in order, covering the whole text.
#[derive(Debug, Clone, PartialEq)]
pub struct DocumentSyntax {
    segments: Vec<PlacedSegment>,
    limits: CutLimits,
}

impl DocumentSyntax {
    /// Parses `text`, whose games are `games` (as `split_games` cuts them).
    pub fn parse(text: &str, games: &[GameSource]) -> DocumentSyntax {
        let cuts = cut(text, games, &CUT_LIMITS);
        DocumentSyntax::reusing(text, cuts, &CUT_LIMITS, |_| None)
    }

    /// The syntax of a text that was not read: no segments, so no errors, comments or
    /// token kinds.
    pub fn unread() -> DocumentSyntax {
        DocumentSyntax {
            segments: Vec::new(),
            limits: CUT_LIMITS,
        }
    }

    /// The syntax of `new_text`, which replaced `old_text[old_range]` of this syntax's text
    /// by `new_text[old_range.start..new_end]`: segments the edit left alone are reused.
    pub fn update(
        &self,
        new_text: &str,
        games: &[GameSource],
        old_range: Range<usize>,
        new_end: usize,
    ) -> DocumentSyntax {
        let shift = new_end as isize - old_range.end as isize;
        let cuts = self
            .cut_again(new_text, games, &old_range, new_end)
            .unwrap_or_else(|| cut(new_text, games, &self.limits));
        DocumentSyntax::reusing(new_text, cuts, &self.limits, |segment| {
            let old_start = if segment.range.end <= old_range.start {
                segment.range.start
            } else if segment.range.start >= new_end {
                segment.range.start.checked_add_signed(-shift)?
            } else {
                return None;
            };
            let index = self
                .segments
                .binary_search_by_key(&old_start, |old| old.range.start)
                .ok()?;
            let old = &self.segments[index];
            (old.range.len() == segment.range.len()
                && old.continues_movetext == segment.continues_movetext)
                .then(|| Arc::clone(&old.syntax))
        })
    }

    /// What [`cut`] gives for `new_text`, found by cutting again only from the last cut
    /// before the edit's line to the first cut after the edit where the old cuts, moved
    /// along, fell too: from there on, the cuts read the same text in the same state.
    /// `None` when the edit is on the first line.
    fn cut_again(
        &self,
        new_text: &str,
        games: &[GameSource],
        old_range: &Range<usize>,
        new_end: usize,
    ) -> Option<Vec<Cut>> {
        let shift = new_end as isize - old_range.end as isize;
        let old = &self.segments;
        // A cut is decided by the text before it and by its own line: those of the cuts
        // up to the end of the line before the edit are the same.
        let line_before_edit = memchr::memrchr(b'\n', new_text.as_bytes().get(..old_range.start)?)?;
        let kept = old.partition_point(|segment| segment.range.start <= line_before_edit);
        let resume = old.get(kept.checked_sub(1)?)?;
        let mut starts: Vec<(usize, bool)> = old[..kept]
            .iter()
            .map(|segment| (segment.range.start, segment.continues_movetext))
            .collect();
        // Where an old cut, moved along, is a cut of the same kind.
        let old_cut_at = |start: usize, continues_movetext: bool| -> Option<usize> {
            // A line start right at the edit's end may have had more of its line before it.
            let past_edit = start > new_end || (start == new_end && !continues_movetext);
            if !past_edit {
                return None;
            }
            let old_start = start.checked_add_signed(-shift)?;
            let index = old
                .binary_search_by_key(&old_start, |segment| segment.range.start)
                .ok()?;
            (old[index].continues_movetext == continues_movetext).then_some(index)
        };
        let mut in_step = None;
        let first_game = games.partition_point(|game| game.range.end <= resume.range.start);
        // The cut to resume from is where it was: a game's start, or inside its movetext.
        let resumes_alike = match games.get(first_game) {
            Some(game) if resume.continues_movetext => {
                game.movetext.start <= resume.range.start && resume.range.start < game.movetext.end
            }
            Some(game) => resume.range.start == 0 || game.range.start == resume.range.start,
            None => false,
        };
        if !resumes_alike {
            return None;
        }
        for game in &games[first_game..] {
            let scan = if resume.continues_movetext && game.range.start < resume.range.start {
                let bytes = new_text.as_bytes();
                ScanState {
                    at: resume.range.start,
                    last_cut: resume.range.start,
                    line_start: memchr::memrchr(b'\n', &bytes[..resume.range.start])
                        .map_or(0, |at| at + 1),
                }
            } else {
                if game.range.start > resume.range.start {
                    in_step = old_cut_at(game.range.start, false);
                    if in_step.is_some() {
                        break;
                    }
                    starts.push((game.range.start, false));
                }
                ScanState::at_start_of(new_text, game)
            };
            in_step = cut_movetext(new_text, game, &self.limits, scan, &mut starts, &mut |at| {
                old_cut_at(at, true)
            });
            if in_step.is_some() {
                break;
            }
        }
        if let Some(index) = in_step {
            starts.extend(old[index..].iter().map(|segment| {
                (
                    segment.range.start.saturating_add_signed(shift),
                    segment.continues_movetext,
                )
            }));
            // The cut found in step is in the old list too.
            starts.dedup();
        }
        Some(cuts_from_starts(new_text, &starts))
    }

    fn reusing(
        text: &str,
        cuts: Vec<Cut>,
        limits: &CutLimits,
        mut reuse: impl FnMut(&Cut) -> Option<Arc<SegmentSyntax>>,
    ) -> DocumentSyntax {
        let segments = cuts
            .into_iter()
            .map(|cut| {
                let syntax = reuse(&cut).unwrap_or_else(|| Arc::new(parse_segment(text, &cut)));
                PlacedSegment {
                    range: cut.range,
                    continues_movetext: cut.continues_movetext,
                    syntax,
                }
            })
            .collect();
        DocumentSyntax {
            segments,
            limits: *limits,
        }
    }

    /// Every syntax error, in document order.
    pub fn errors(&self) -> impl Iterator<Item = SyntaxError> + '_ {
        self.segments.iter().flat_map(|segment| {
            segment.syntax.errors.iter().map(|error| SyntaxError {
                range: error.range.start + segment.range.start
                    ..error.range.end + segment.range.start,
                code: error.code,
                message: error.message.clone(),
            })
        })
    }

    /// The spans the grammar could not read: its ERROR nodes, and the nodes holding a
    /// MISSING token (an unclosed comment spans all the words it swallowed).
    pub fn broken_spans(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        self.segments.iter().flat_map(|segment| {
            segment
                .syntax
                .broken
                .iter()
                .map(|span| absolute(segment, span))
        })
    }

    /// Every comment (from its `{` through its `}`), in document order.
    pub fn comments(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        self.segments.iter().flat_map(|segment| {
            segment
                .syntax
                .comments
                .iter()
                .map(|span| absolute(segment, span))
        })
    }

    /// The kinds of the spans of the syntax tree (metadata excepted) that overlap `wanted`,
    /// in document order; a span is a node's text outside its children that have a kind of
    /// their own.
    pub fn token_spans(
        &self,
        wanted: Range<usize>,
    ) -> impl Iterator<Item = (Range<usize>, TokenKind)> + '_ {
        let first = self
            .segments
            .partition_point(|segment| segment.range.end < wanted.start);
        let (from, to) = (wanted.start, wanted.end);
        self.segments[first..]
            .iter()
            .take_while(move |segment| segment.range.start <= to)
            .flat_map(|segment| {
                let start = segment.range.start;
                segment.syntax.tokens.iter().map(move |token| {
                    (
                        start + token.start as usize..start + token.end as usize,
                        token.kind,
                    )
                })
            })
            .filter(move |(range, _)| range.end >= from && range.start <= to)
    }

    /// How many segments the text is parsed in.
    pub fn segment_count(&self) -> usize {
        self.segments.len()
    }
}

fn absolute(segment: &PlacedSegment, span: &Range<u32>) -> Range<usize> {
    segment.range.start + span.start as usize..segment.range.start + span.end as usize
}

/// A segment to parse.
struct Cut {
    range: Range<usize>,
    continues_movetext: bool,
}

/// The segments of `text`: each game starts one, and a movetext is cut at line starts
/// outside any comment (see the constants above).
fn cut(text: &str, games: &[GameSource], limits: &CutLimits) -> Vec<Cut> {
    let mut starts: Vec<(usize, bool)> = vec![(0, false)];
    for game in games {
        if game.range.start > 0 {
            starts.push((game.range.start, false));
        }
        let scan = ScanState::at_start_of(text, game);
        cut_movetext(text, game, limits, scan, &mut starts, &mut |_| None::<()>);
    }
    cuts_from_starts(text, &starts)
}

fn cuts_from_starts(text: &str, starts: &[(usize, bool)]) -> Vec<Cut> {
    let mut cuts = Vec::with_capacity(starts.len());
    for (index, &(start, continues_movetext)) in starts.iter().enumerate() {
        let end = starts.get(index + 1).map_or(text.len(), |next| next.0);
        if end > start {
            cuts.push(Cut {
                range: start..end,
                continues_movetext,
            });
        }
    }
    cuts
}

/// Where the cutting of a movetext stands: what decides the cuts after `at`.
struct ScanState {
    at: usize,
    last_cut: usize,
    line_start: usize,
}

impl ScanState {
    fn at_start_of(text: &str, game: &GameSource) -> ScanState {
        let bytes = text.as_bytes();
        let at = game.movetext.start;
        let end = game.movetext.end.min(bytes.len());
        ScanState {
            at,
            last_cut: game.range.start,
            line_start: memchr::memrchr(b'\n', &bytes[..at.min(end)]).map_or(0, |at| at + 1),
        }
    }
}

/// Cuts `game`'s movetext from `scan` on, until `in_step` says yes at a cut at a line
/// start (what it says is returned).
fn cut_movetext<T>(
    text: &str,
    game: &GameSource,
    limits: &CutLimits,
    scan: ScanState,
    starts: &mut Vec<(usize, bool)>,
    in_step: &mut dyn FnMut(usize) -> Option<T>,
) -> Option<T> {
    let bytes = text.as_bytes();
    let end = game.movetext.end.min(bytes.len());
    let ScanState {
        mut at,
        mut last_cut,
        mut line_start,
    } = scan;
    loop {
        let stop = memchr::memchr2(b'{', b'\n', &bytes[at.min(end)..end]).map(|found| at + found);
        // What lies between here and the next `{` or line end is outside any comment.
        cut_inside_line(
            bytes,
            at..stop.unwrap_or(end),
            end,
            line_start,
            limits,
            &mut last_cut,
            starts,
        );
        let Some(found) = stop else { break };
        at = found;
        if bytes[at] == b'{' {
            // A comment runs to its `}`, or is left open before the next `{`; treating
            // every `{` so keeps cuts out of comments (a brace expansion holds no line end).
            let close = memchr::memchr2(b'}', b'{', &bytes[at + 1..end])
                .map_or(end, |offset| at + 1 + offset);
            at = if close < end && bytes[close] == b'}' {
                close + 1
            } else {
                close
            };
            // A comment over several lines ends on a later line.
            if let Some(last_end) = memchr::memrchr(b'\n', &bytes[found..at]) {
                line_start = found + last_end + 1;
            }
            continue;
        }
        at += 1;
        line_start = at;
        if at < end && limits.cut_at(at - last_cut, &bytes[at..end]) {
            starts.push((at, true));
            last_cut = at;
            if let Some(found) = in_step(at) {
                return Some(found);
            }
        }
    }
    None
}

/// Cuts inside a line once it has run `max_bytes` from its start, before MoveNumbers (a
/// MoveNumber is a whole word, so the grammar is between two moves there), with the rule
/// cuts at line starts follow: a game written on one long line is still parsed a few KiB
/// at a time. `stretch` is outside any comment.
fn cut_inside_line(
    bytes: &[u8],
    stretch: Range<usize>,
    movetext_end: usize,
    line_start: usize,
    limits: &CutLimits,
    last_cut: &mut usize,
    starts: &mut Vec<(usize, bool)>,
) {
    let from = stretch.start.max(line_start + limits.max_bytes).max(1);
    for at in from..stretch.end {
        if !bytes[at].is_ascii_digit()
            || !matches!(bytes[at - 1], b' ' | b'\t')
            || !starts_move_number(&bytes[at..movetext_end])
        {
            continue;
        }
        if limits.cut_at(at - *last_cut, &bytes[at..movetext_end]) {
            starts.push((at, true));
            *last_cut = at;
        }
    }
}

/// Whether `rest` opens with a MoveNumber word: letters, digits, `_` and `.` ending in
/// `.`, then whitespace or the end.
fn starts_move_number(rest: &[u8]) -> bool {
    let word = rest
        .iter()
        .take_while(|&&byte| byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'.'))
        .count();
    word > 0
        && rest[word - 1] == b'.'
        && rest
            .get(word)
            .is_none_or(|byte| matches!(byte, b' ' | b'\t' | b'\r' | b'\n'))
}

/// FNV-1a of the line's first 64 bytes.
fn line_hash(rest: &[u8]) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for &byte in rest.iter().take_while(|&&byte| byte != b'\n').take(64) {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

fn parse_segment(text: &str, cut: &Cut) -> SegmentSyntax {
    let segment = &text[cut.range.clone()];
    if cut.continues_movetext {
        simple::summarize(segment).unwrap_or_else(|| parse_movetext_segment(segment))
    } else {
        summarize(segment, 0)
    }
}

/// The summary of a segment that continues a movetext, parsed by the grammar.
fn parse_movetext_segment(segment: &str) -> SegmentSyntax {
    let mut prefixed = String::with_capacity(MOVETEXT_PREFIX.len() + segment.len());
    prefixed.push_str(MOVETEXT_PREFIX);
    prefixed.push_str(segment);
    summarize(&prefixed, MOVETEXT_PREFIX.len())
}

/// The summary of `text`'s parse, for the part after its first `skip` bytes.
fn summarize(text: &str, skip: usize) -> SegmentSyntax {
    let tree = parse(text, None);
    let relative = |range: Range<usize>| -> Option<Range<u32>> {
        let start = u32::try_from(range.start.checked_sub(skip)?).ok()?;
        let end = u32::try_from(range.end.checked_sub(skip)?).ok()?;
        Some(start..end)
    };
    let errors = syntax_errors(&tree, text)
        .into_iter()
        .filter(|error| error.range.start >= skip)
        .map(|error| SyntaxError {
            range: error.range.start - skip..error.range.end - skip,
            ..error
        })
        .collect();
    let mut broken = Vec::new();
    let mut comments = Vec::new();
    let mut cursor = tree.walk();
    // Each node with its parent: asking a node for its parent walks down from the root.
    let mut pending = vec![(tree.root_node(), None)];
    while let Some((node, parent)) = pending.pop() {
        if node.kind() == "comment" {
            comments.extend(relative(node.byte_range()));
        }
        if node.is_error() {
            broken.extend(relative(node.byte_range()));
            continue;
        }
        if node.is_missing() {
            let holder = parent.unwrap_or(node);
            broken.extend(relative(holder.byte_range()));
            continue;
        }
        if node.has_error() || node.kind() != "comment" {
            pending.extend(node.children(&mut cursor).map(|child| (child, Some(node))));
        }
    }
    broken.sort_by_key(|span| (span.start, span.end));
    comments.sort_by_key(|span| span.start);
    let mut spans = Vec::new();
    collect_token_spans(tree.root_node(), &mut spans);
    spans.sort_by_key(|(range, _)| (range.start, range.end));
    let mut tokens: Vec<TokenSpan> = Vec::with_capacity(spans.len());
    for (range, kind) in spans {
        let Some(range) = relative(range) else {
            continue;
        };
        push_token(&mut tokens, range.start, range.end, kind);
    }
    tokens.shrink_to_fit();
    SegmentSyntax {
        errors,
        broken,
        comments,
        tokens,
    }
}

/// The kind of a syntax node's span, if it has one.
fn kind_of_node(kind: &str) -> Option<TokenKind> {
    Some(match kind {
        "comment" => TokenKind::Comment,
        "move_number" | "semicolon" | "number" | "degrees" | "slice_indices" | "range" => {
            TokenKind::Number
        }
        "move_token" => TokenKind::Operator,
        "piece_spec" => TokenKind::Type,
        "piece_id" | "location" | "count_square" => TokenKind::Variable,
        "macro" => TokenKind::Macro,
        "game_separator" | "metadata_end" => TokenKind::Keyword,
        _ => return None,
    })
}

/// Spans of each node not covered by children with a kind of their own take the node's
/// kind (or the kind it inherits). A stack rather than recursion: nested braces make the
/// tree as deep as the text is long.
fn collect_token_spans(root: Node<'_>, spans: &mut Vec<(Range<usize>, TokenKind)>) {
    let mut pending = vec![(root, None)];
    while let Some((node, inherited)) = pending.pop() {
        if node.is_error() || node.is_missing() || node.kind() == "metadata" {
            continue;
        }
        let kind = kind_of_node(node.kind()).or(inherited);
        let mut at = node.start_byte();
        let mut cursor = node.walk();
        let mut more = cursor.goto_first_child();
        while more {
            let child = cursor.node();
            if let Some(kind) = kind {
                if child.start_byte() > at {
                    spans.push((at..child.start_byte(), kind));
                }
            }
            pending.push((child, kind));
            at = at.max(child.end_byte());
            more = cursor.goto_next_sibling();
        }
        if let Some(kind) = kind {
            if node.end_byte() > at {
                spans.push((at..node.end_byte(), kind));
            }
        }
    }
}

mod simple;
mod summary;
#[cfg(test)]
mod tests;
