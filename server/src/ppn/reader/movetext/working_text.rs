//! The text the splitter works on: the movetext's tokens, brace-expanded and joined by
//! single spaces, with `;` turned into ` . `; and which file bytes each of its characters
//! stands for.
//!
//! The text is a `String` and its origins are kept per stretch, not per character: most
//! tokens are copied as written, so one stretch says where all of a token's characters
//! come from, and every pass reads bytes.

use std::cell::Cell;
use std::ops::Range;

/// A working text and the file bytes each stretch of it stands for.
#[derive(Debug, Default)]
pub(super) struct WorkingText {
    pub(super) text: String,
    /// In the text's order, none empty, none overlapping. Text outside every stretch (the
    /// spaces that join tokens and expansions) stands for nothing in the file.
    stretches: Vec<Stretch>,
    /// The stretch last looked up: the splitter asks about places near each other, mostly
    /// in order, so a lookup starts there.
    looked_up: Cell<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stretch {
    /// Where the stretch lies in the working text.
    start: usize,
    end: usize,
    origin: StretchOrigin,
}

impl Stretch {
    /// The file bytes that the characters at `range` (inside the stretch) stand for.
    fn file_bytes(&self, range: Range<usize>) -> Range<usize> {
        match self.origin {
            StretchOrigin::Written { file_start } => {
                file_start + range.start - self.start..file_start + range.end - self.start
            }
            StretchOrigin::Whole {
                file_start,
                file_end,
            } => file_start..file_end,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StretchOrigin {
    /// Copied as written from this file offset on: each character stands for its own bytes.
    Written { file_start: usize },
    /// An expansion, or the ` . ` of a `;`: every character stands for all these bytes.
    Whole { file_start: usize, file_end: usize },
}

impl WorkingText {
    pub(super) fn with_capacity(bytes: usize) -> WorkingText {
        WorkingText {
            text: String::with_capacity(bytes),
            ..WorkingText::default()
        }
    }

    /// Adds `written`, which starts at byte `file_start` of the file, as it is written.
    pub(super) fn push_written(&mut self, written: &str, file_start: usize) {
        self.push(written, StretchOrigin::Written { file_start });
    }

    /// Adds an expansion of the token at `file` in the file.
    pub(super) fn push_expansion(&mut self, expansion: &str, file: Range<usize>) {
        self.push(
            expansion,
            StretchOrigin::Whole {
                file_start: file.start,
                file_end: file.end,
            },
        );
    }

    /// Adds a space that stands for nothing in the file.
    pub(super) fn push_separator(&mut self) {
        self.text.push(' ');
    }

    fn push(&mut self, text: &str, origin: StretchOrigin) {
        let start = self.text.len();
        self.text.push_str(text);
        self.add_stretch(start..self.text.len(), origin);
    }

    /// Notes that the characters at `range` of the text (already there) stand for `origin`.
    fn add_stretch(&mut self, range: Range<usize>, origin: StretchOrigin) {
        if !range.is_empty() {
            self.stretches.push(Stretch {
                start: range.start,
                end: range.end,
                origin,
            });
        }
    }

    /// The first stretch that ends after byte `at`: its index, or the count of stretches.
    fn first_ending_after(&self, at: usize) -> usize {
        let mut index = self.looked_up.get().min(self.stretches.len());
        while index > 0 && self.stretches[index - 1].end > at {
            index -= 1;
        }
        while index < self.stretches.len() && self.stretches[index].end <= at {
            index += 1;
        }
        self.looked_up.set(index);
        index
    }

    /// Where the first character of `range` that stands for file bytes starts in the file.
    pub(super) fn first_origin_start(&self, range: Range<usize>) -> Option<usize> {
        if range.is_empty() {
            return None;
        }
        let stretch = self.stretches.get(self.first_ending_after(range.start))?;
        (stretch.start < range.end).then(|| {
            stretch
                .file_bytes(range.start.max(stretch.start)..stretch.end)
                .start
        })
    }

    /// Where the last character of `range` that stands for file bytes ends in the file.
    pub(super) fn last_origin_end(&self, range: Range<usize>) -> Option<usize> {
        if range.is_empty() {
            return None;
        }
        // The first stretch that reaches the range's last byte, or the one before it.
        let mut index = self.first_ending_after(range.end - 1);
        if self
            .stretches
            .get(index)
            .is_none_or(|stretch| stretch.start >= range.end)
        {
            index = index.checked_sub(1)?;
        }
        let stretch = self.stretches[index];
        (stretch.end > range.start).then(|| {
            stretch
                .file_bytes(stretch.start..range.end.min(stretch.end))
                .end
        })
    }

    /// The file bytes that the characters of consecutive ranges of the text stand for.
    /// Origins never go back in the text (tokens follow each other in the file, and all
    /// characters of an expansion stand for the whole token), so they run from the first
    /// origin to the last.
    pub(super) fn source_span(&self, ranges: &[Range<usize>]) -> Option<Range<usize>> {
        let first = ranges
            .iter()
            .find_map(|range| self.first_origin_start(range.clone()))?;
        let last = ranges
            .iter()
            .rev()
            .find_map(|range| self.last_origin_end(range.clone()))?;
        Some(first..last)
    }

    /// The file bytes that the characters of `range` stand for.
    pub(super) fn span(&self, range: Range<usize>) -> Option<Range<usize>> {
        // Most ranges asked about lie inside one stretch (a word copied as written): one
        // lookup answers for both ends.
        if !range.is_empty() {
            let index = self.first_ending_after(range.start);
            if let Some(stretch) = self.stretches.get(index) {
                if stretch.start <= range.start && range.end <= stretch.end {
                    return Some(stretch.file_bytes(range));
                }
            }
        }
        self.source_span(std::slice::from_ref(&range))
    }

    /// Every `;` outside a comment becomes ` . `, each of whose characters stands for the
    /// `;`. The ` . ` holds no brace, nor did the `;`: every position of the new text is
    /// inside a comment exactly when the position it comes from was.
    pub(super) fn semicolons_to_move_numbers(&mut self) {
        let bytes = self.text.as_bytes();
        let mut braces = NextFound::default();
        let outside: Vec<usize> = memchr::memchr_iter(b';', bytes)
            .filter(|&at| !closes_first(bytes, &mut braces, at + 1))
            .collect();
        if outside.is_empty() {
            return;
        }
        // The text is copied between the `;`s; stretches without one are moved along by
        // two bytes for each `;` before them, and only those with one are cut.
        let mut text = String::with_capacity(self.text.len() + 2 * outside.len());
        let mut copied = 0;
        for &at in &outside {
            text.push_str(&self.text[copied..at]);
            text.push_str(" . ");
            copied = at + 1;
        }
        text.push_str(&self.text[copied..]);
        let mut replaced = WorkingText {
            text,
            stretches: Vec::with_capacity(self.stretches.len() + 2 * outside.len()),
            ..WorkingText::default()
        };
        let mut semicolons = outside.iter().copied().peekable();
        let mut shift = 0;
        for stretch in &self.stretches {
            if semicolons.peek().is_none_or(|&at| at >= stretch.end) {
                replaced.stretches.push(Stretch {
                    start: stretch.start + shift,
                    end: stretch.end + shift,
                    origin: stretch.origin,
                });
                continue;
            }
            let part_origin = |at: usize| match stretch.origin {
                StretchOrigin::Written { file_start } => StretchOrigin::Written {
                    file_start: file_start + at - stretch.start,
                },
                whole @ StretchOrigin::Whole { .. } => whole,
            };
            let mut from = stretch.start;
            while let Some(at) = semicolons.next_if(|&at| at < stretch.end) {
                replaced.add_stretch(from + shift..at + shift, part_origin(from));
                let origin = match part_origin(at) {
                    StretchOrigin::Written { file_start } => StretchOrigin::Whole {
                        file_start,
                        file_end: file_start + 1,
                    },
                    whole => whole,
                };
                replaced.add_stretch(at + shift..at + shift + 3, origin);
                shift += 2;
                from = at + 1;
            }
            replaced.add_stretch(from + shift..stretch.end + shift, part_origin(from));
        }
        *self = replaced;
    }
}

/// Whether, reading from `at`, a `}` comes before any `{`: how the reference tells that
/// a position is inside a comment. `braces` remembers the last brace found, for positions
/// asked about in order.
pub(super) fn closes_first(bytes: &[u8], braces: &mut NextFound, at: usize) -> bool {
    braces
        .at_or_after(at, |from| {
            memchr::memchr2(b'{', b'}', bytes.get(from..)?).map(|found| from + found)
        })
        .is_some_and(|brace| bytes[brace] == b'}')
}

/// The first of something at or after an offset, searched again only when the offset has
/// passed the last one found: positions asked about in order search the text once.
#[derive(Default)]
pub(super) struct NextFound {
    /// Where the last search started, and what it found (`None`: nothing to the end).
    last: Option<(usize, Option<usize>)>,
}

impl NextFound {
    pub(super) fn at_or_after(
        &mut self,
        offset: usize,
        search: impl FnOnce(usize) -> Option<usize>,
    ) -> Option<usize> {
        match self.last {
            Some((from, found)) if from <= offset && found.is_none_or(|at| offset <= at) => found,
            _ => {
                let found = search(offset);
                self.last = Some((offset, found));
                found
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each character's file bytes, worked out character by character.
    fn origins_by_character(working: &WorkingText) -> Vec<(usize, Option<Range<usize>>)> {
        working
            .text
            .char_indices()
            .map(|(at, ch)| {
                let origin = working
                    .stretches
                    .iter()
                    .find(|s| s.start <= at && at < s.end)
                    .map(|s| match s.origin {
                        StretchOrigin::Written { file_start } => {
                            let start = file_start + at - s.start;
                            start..start + ch.len_utf8()
                        }
                        StretchOrigin::Whole {
                            file_start,
                            file_end,
                        } => file_start..file_end,
                    });
                (at, origin)
            })
            .collect()
    }

    fn sample() -> WorkingText {
        let mut working = WorkingText::default();
        working.push_written("b2-c4", 10);
        working.push_separator();
        working.push_written("♠@a1;x", 16);
        for expansion in ["t@b2", "", "t@d2;"] {
            working.push_separator();
            working.push_expansion(expansion, 25..37);
        }
        working.push_separator();
        working.push_written("x‿y", 40);
        working
    }

    #[test]
    fn every_range_runs_from_its_first_characters_origin_to_its_last() {
        let working = sample();
        let characters = origins_by_character(&working);
        let ends: Vec<usize> = characters
            .iter()
            .map(|(at, _)| *at)
            .chain([working.text.len()])
            .collect();
        for (i, &start) in ends.iter().enumerate() {
            for &end in &ends[i..] {
                let inside: Vec<&Range<usize>> = characters
                    .iter()
                    .filter(|(at, _)| start <= *at && *at < end)
                    .filter_map(|(_, origin)| origin.as_ref())
                    .collect();
                assert_eq!(
                    working.first_origin_start(start..end),
                    inside.first().map(|origin| origin.start),
                    "{start}..{end}"
                );
                assert_eq!(
                    working.last_origin_end(start..end),
                    inside.last().map(|origin| origin.end),
                    "{start}..{end}"
                );
                assert_eq!(
                    working.span(start..end),
                    inside
                        .first()
                        .zip(inside.last())
                        .map(|(first, last)| first.start..last.end),
                    "{start}..{end}"
                );
            }
        }
    }

    #[test]
    fn a_semicolon_becomes_a_lone_dot_standing_for_it_unless_inside_a_comment() {
        for text in [
            "",
            ";",
            "a;b",
            "{;}",
            "{a;b} c;d",
            "1. a; b {x;} ;",
            "};{",
            "{;",
            ";}",
            "x{y};z}",
            "{{;}};",
            "a ; {b ; c} ; d",
            "é;‿",
        ] {
            let mut working = WorkingText::default();
            working.push_written(text, 100);
            working.semicolons_to_move_numbers();
            // A `;` is outside comments when no `}` comes before the next `{` after it.
            let mut expected = String::new();
            let mut origins = Vec::new();
            for (at, ch) in text.char_indices() {
                let rest = &text[at + ch.len_utf8()..];
                let closes = rest
                    .find(['{', '}'])
                    .is_some_and(|b| rest[b..].starts_with('}'));
                if ch == ';' && !closes {
                    expected.push_str(" . ");
                    origins.extend(std::iter::repeat_n(Some(100 + at..101 + at), 3));
                } else {
                    expected.push(ch);
                    origins.push(Some(100 + at..100 + at + ch.len_utf8()));
                }
            }
            assert_eq!(working.text, expected, "{text}");
            let found: Vec<_> = origins_by_character(&working)
                .into_iter()
                .map(|(_, origin)| origin)
                .collect();
            assert_eq!(found, origins, "{text}");
        }
    }

    #[test]
    fn replacing_semicolons_keeps_expansions_and_joining_spaces() {
        let mut working = sample();
        let before = working.text.clone();
        working.semicolons_to_move_numbers();
        assert_eq!(working.text, before.replace(';', " . "));
        let characters = origins_by_character(&working);
        let origin_of = |needle: &str| {
            let at = working.text.find(needle).expect("in the text");
            characters
                .iter()
                .find(|(c, _)| *c == at)
                .cloned()
                .and_then(|(_, o)| o)
        };
        // The `;` written at byte 22 of the file; the one of an expansion is the token.
        assert_eq!(origin_of(" . x"), Some(22..23));
        assert_eq!(origin_of("x "), Some(23..24));
        assert_eq!(origin_of(" . "), Some(22..23));
        assert_eq!(origin_of("d2"), Some(25..37));
        let spaces: Vec<_> = characters
            .iter()
            .filter(|(at, _)| working.text[*at..].starts_with(' '))
            .collect();
        assert_eq!(spaces.iter().filter(|(_, o)| o.is_none()).count(), 5);
    }

    #[test]
    fn found_positions_are_remembered_only_while_they_hold() {
        let bytes = b"a{b}c}d{";
        let mut searches = 0;
        let mut next = NextFound::default();
        let mut closes = |at: usize, searches: &mut usize| {
            next.at_or_after(at, |from| {
                *searches += 1;
                memchr::memchr2(b'{', b'}', &bytes[from..]).map(|f| from + f)
            })
        };
        assert_eq!(closes(0, &mut searches), Some(1));
        assert_eq!(closes(1, &mut searches), Some(1));
        assert_eq!(searches, 1);
        assert_eq!(closes(2, &mut searches), Some(3));
        assert_eq!(closes(0, &mut searches), Some(1));
        assert_eq!(closes(8, &mut searches), None);
        assert_eq!(closes(9, &mut searches), None);
        assert_eq!(searches, 4);
    }
}
