//! Brace expansion of the movetext's tokens, in the reference parser's order: each
//! whitespace-separated token is expanded where it stands, within caps on what all the
//! expansions of one game may produce, and every character keeps its place in the file.

use std::ops::Range;

use super::records::{MovetextProblem, MovetextProblemCode, SplitStart};
use super::scan::{char_at, is_movetext_whitespace};
use super::working_text::WorkingText;
use crate::diagnostic::Severity;
use crate::ppn::reader::braces::{expand_token_located, expands_to_itself};

/// The most strings all brace expansions of one game may produce together; past it,
/// tokens stay unexpanded so a hostile file cannot exhaust memory.
pub const MAX_MOVETEXT_EXPANSIONS: usize = 100_000;

/// The most bytes of text all brace expansions of one game may produce together.
pub const MAX_MOVETEXT_EXPANDED_BYTES: usize = 1 << 20;

#[derive(Debug)]
pub(super) struct SourceToken {
    pub(super) range: Range<usize>,
    pub(super) expanded: bool,
    /// The token starts after an unclosed `{`.
    pub(super) in_comment: bool,
    /// How many strings the brace expansions before the token gave.
    pub(super) expanded_strings_before: usize,
    /// How many bytes of text they gave.
    pub(super) expanded_bytes_before: usize,
    pub(super) over_cap_before: bool,
}

/// The token that starts at byte `start` of the file, looked for from `tokens[*from]` on:
/// labels come in file order, so each token is passed once for all of a split's labels.
pub(super) fn token_starting_at<'t>(
    tokens: &'t [SourceToken],
    from: &mut usize,
    start: usize,
) -> Option<&'t SourceToken> {
    if *from > 0
        && tokens
            .get(*from - 1)
            .is_some_and(|token| token.range.start >= start)
    {
        // A label before the last one asked about: not what labels do, but kept right.
        *from = tokens.partition_point(|token| token.range.start < start);
    }
    while tokens
        .get(*from)
        .is_some_and(|token| token.range.start < start)
    {
        *from += 1;
    }
    tokens.get(*from).filter(|token| token.range.start == start)
}

/// Cuts the movetext into tokens, expands each, and joins the expansions with spaces.
pub(super) fn expand_tokens(
    file_text: &str,
    slice: &str,
    movetext: &Range<usize>,
    start: &SplitStart,
    problems: &mut Vec<MovetextProblem>,
) -> (WorkingText, Vec<SourceToken>, (usize, usize, bool)) {
    let offset = movetext.start;
    let mut ranges = Vec::new();
    let mut token_start = None;
    // Which of `{`, `}` and `\` the token being read holds: most tokens can only expand
    // to themselves, which these tell without reading the token again.
    let mut marks = 0u8;
    let mut comment_depth = 0usize;
    // Where the comment that opened at depth 0 last opened: the one left open at the end.
    let mut outermost_open = 0;
    // Whitespace, braces and backslashes are ASCII, and no byte of a character of several
    // bytes is ASCII: runs of the other bytes are skipped in a tight loop, and only the
    // bytes that end them (and, when not ASCII, the character they start) need a look.
    let bytes = slice.as_bytes();
    let mut previous = 0u8;
    let mut index = 0;
    while index < bytes.len() {
        let run_start = index;
        while index < bytes.len() && !SPLIT_SPECIAL[usize::from(bytes[index])] {
            index += 1;
        }
        if index > run_start {
            if token_start.is_none() {
                token_start = Some((run_start, comment_depth > 0));
            }
            previous = bytes[index - 1];
        }
        let Some(&byte) = bytes.get(index) else {
            break;
        };
        let (whitespace, width) = if byte.is_ascii() {
            (is_movetext_whitespace(char::from(byte)), 1)
        } else {
            let c = char_at(slice, index);
            (is_movetext_whitespace(c), c.len_utf8())
        };
        if whitespace {
            if let Some((start, in_comment)) = token_start.take() {
                ranges.push((offset + start..offset + index, in_comment, marks));
            }
            marks = 0;
        } else {
            if token_start.is_none() {
                token_start = Some((index, comment_depth > 0));
            }
            marks |= mark_of(byte);
        }
        if previous != b'\\' {
            match byte {
                b'{' => {
                    if comment_depth == 0 {
                        outermost_open = index;
                    }
                    comment_depth += 1;
                }
                b'}' if comment_depth == 0 => problems.push(MovetextProblem {
                    range: offset + index..offset + index + 1,
                    code: MovetextProblemCode::UnopenedComment,
                    severity: Severity::Warning,
                    message: "`}` without a `{` before it".to_string(),
                }),
                b'}' => comment_depth -= 1,
                _ => {}
            }
        }
        previous = byte;
        index += width;
    }
    if let Some((start, in_comment)) = token_start {
        ranges.push((offset + start..offset + slice.len(), in_comment, marks));
    }
    if comment_depth > 0 {
        problems.push(MovetextProblem {
            range: offset + outermost_open..offset + slice.len(),
            code: MovetextProblemCode::UnclosedComment,
            severity: Severity::Error,
            message: "comment `{` is never closed".to_string(),
        });
    }

    let mut working = WorkingText::with_capacity(slice.len() + ranges.len());
    let mut tokens = Vec::with_capacity(ranges.len());
    let mut first = true;
    let mut expanded_strings = start.expanded_strings;
    let mut expanded_bytes = start.expanded_bytes;
    let mut over_cap = start.over_cap;
    for (range, in_comment, marks) in ranges {
        let expanded_strings_before = expanded_strings;
        let expanded_bytes_before = expanded_bytes;
        let over_cap_before = over_cap;
        let written = &file_text[range.clone()];
        // Only braces expand and only backslashes unescape: most tokens have neither, or
        // not both braces.
        let plain = marks & BACKSLASH == 0 && marks & (OPEN | CLOSE) != OPEN | CLOSE;
        if plain || expands_to_itself(written) {
            separate(&mut working, &mut first);
            working.push_written(written, range.start);
            tokens.push(SourceToken {
                range,
                expanded: false,
                in_comment,
                expanded_strings_before,
                expanded_bytes_before,
                over_cap_before,
            });
            continue;
        }
        let mut expansions = expand_token_located(written).unwrap_or_else(|error| {
            // At the braces that ask for too much, not the whole word.
            problems.push(MovetextProblem {
                range: range.start + error.at.start..range.start + error.at.end,
                code: MovetextProblemCode::BraceExpansion,
                severity: Severity::Error,
                message: error.to_string(),
            });
            vec![written.to_string()]
        });
        if expansions.len() > 1 {
            expanded_strings += expansions.len();
            expanded_bytes += expansions.iter().map(String::len).sum::<usize>();
            if expanded_strings > MAX_MOVETEXT_EXPANSIONS
                || expanded_bytes > MAX_MOVETEXT_EXPANDED_BYTES
            {
                if !over_cap {
                    let budget = if expanded_strings > MAX_MOVETEXT_EXPANSIONS {
                        format!("{MAX_MOVETEXT_EXPANSIONS} strings")
                    } else {
                        format!("{MAX_MOVETEXT_EXPANDED_BYTES} bytes of text")
                    };
                    problems.push(MovetextProblem {
                        range: range.clone(),
                        code: MovetextProblemCode::BraceExpansion,
                        severity: Severity::Error,
                        message: format!(
                            "brace expansions in this game give more than {budget}; from \
                             here on braces are not expanded"
                        ),
                    });
                }
                over_cap = true;
                expansions = vec![written.to_string()];
            }
        }
        let expanded = !(expansions.len() == 1 && expansions[0] == written);
        if expanded {
            for expansion in &expansions {
                separate(&mut working, &mut first);
                working.push_expansion(expansion, range.clone());
            }
        } else {
            separate(&mut working, &mut first);
            working.push_written(written, range.start);
        }
        tokens.push(SourceToken {
            range,
            expanded,
            in_comment,
            expanded_strings_before,
            expanded_bytes_before,
            over_cap_before,
        });
    }
    (
        working,
        tokens,
        (expanded_strings, expanded_bytes, over_cap),
    )
}

/// Expansions are joined with single spaces that stand for nothing in the file (also
/// around expansions that are empty).
pub(super) fn separate(working: &mut WorkingText, first: &mut bool) {
    if !*first {
        working.push_separator();
    }
    *first = false;
}

pub(super) const OPEN: u8 = 1;
pub(super) const CLOSE: u8 = 2;
pub(super) const BACKSLASH: u8 = 4;

/// The bytes the splitter's first pass looks at: ASCII whitespace, braces, backslashes,
/// and the first bytes of characters of several bytes (which may be whitespace).
pub(super) const SPLIT_SPECIAL: [bool; 256] = {
    let mut special = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        special[byte] = matches!(
            byte as u8,
            b'\t' | b'\n' | 0x0C | b'\r' | b' ' | b'{' | b'}' | b'\\' | 0xC0..=0xFF
        );
        byte += 1;
    }
    special
};

/// The mark of a byte of a token: whether it is a `{`, a `}` or a `\`.
pub(super) fn mark_of(byte: u8) -> u8 {
    match byte {
        b'{' => OPEN,
        b'}' => CLOSE,
        b'\\' => BACKSLASH,
        _ => 0,
    }
}
