//! Every safe fix at once (`ppn-ls check --fix`, the `source.fixAll.ppn-ls` code action):
//! the fixes that can only mean one thing, made round after round, the text checked again
//! after each round, until a round finds nothing more to fix.
//!
//! A fix is safe when its diagnostic has that one fix and its code is one whose fix is
//! mechanical: the forms of older PPN versions rewritten (what `ppn-ls migrate` does), a
//! missing `...` or version line added, a record's annotations (captures, the mover's
//! letter, check marks) made to say what its moves do, `=` written as `.`. A guess, such
//! as a misspelt setup argument, stays a quick fix to take one at a time.

use std::ops::Range;
use std::path::Path;

use crate::diagnostic::Diagnostic;
use crate::ide::analyze::check_as;
use crate::model::format::Format;
use crate::ppn::versions::OLD_FORM_CODES;

/// Codes whose single fix is made by a fix-all (besides the older PPN forms).
const SAFE_FIX_CODES: &[&str] = &[
    // PPN: metadata read as moves for want of its end; braces inside a comment.
    "metadata-without-end",
    "unclosed-comment",
    // OpenTafl: annotations that disagree with the moves (the moves decide).
    "mover-mismatch",
    "move-type-mismatch",
    "capture-not-made",
    "capture-mismatch",
    "missing-capture",
    "info-mismatch",
    // xiangqi-setup files.
    "wxf-equals-sideways",
    "annofen-missing-prefix",
    "xay-missing-version",
    "xay-not-a-list",
];

/// Whether fix-all makes `diagnostic`'s fix.
pub fn is_safe(diagnostic: &Diagnostic) -> bool {
    diagnostic.fixes.len() == 1
        && (OLD_FORM_CODES.contains(&diagnostic.code) || SAFE_FIX_CODES.contains(&diagnostic.code))
}

/// A fix made, where it was made in the text given to [`fix_all`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppliedFix {
    pub code: &'static str,
    pub title: String,
    pub range: Range<usize>,
}

/// The text with every safe fix made, and the fixes made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixedText {
    pub text: String,
    pub applied: Vec<AppliedFix>,
}

/// The most rounds: a fix that makes another safe fix appear is rare, and a chain of them
/// must end.
const MOST_ROUNDS: usize = 8;

/// Every safe fix of `text`, read as the file at `path`.
pub fn fix_all(path: Option<&Path>, text: &str) -> FixedText {
    let format = Format::detect(path, text);
    fix_all_as(format, text, check_as(format, text))
}

/// [`fix_all`] of `text` in `format`, whose diagnostics are `diagnostics`.
pub fn fix_all_as(format: Format, text: &str, diagnostics: Vec<Diagnostic>) -> FixedText {
    let mut current = text.to_string();
    let mut applied = Vec::new();
    // The edits of each round, to place a later round's fixes in the text given.
    let mut rounds: Vec<Vec<(Range<usize>, usize)>> = Vec::new();
    let mut diagnostics = diagnostics;
    for _ in 0..MOST_ROUNDS {
        let mut edits: Vec<(Range<usize>, String)> = Vec::new();
        let mut safe: Vec<&Diagnostic> = diagnostics.iter().filter(|d| is_safe(d)).collect();
        safe.sort_by_key(|d| d.range.start);
        for diagnostic in safe {
            let fix = &diagnostic.fixes[0];
            let fits = fix.edits.iter().all(|(range, _)| {
                range.start <= range.end
                    && current.get(range.clone()).is_some()
                    && edits
                        .iter()
                        .all(|(taken, _)| range.end <= taken.start || taken.end <= range.start)
                    // Two insertions at one place would depend on their order.
                    && !edits.iter().any(|(taken, _)| {
                        taken.is_empty() && range.is_empty() && taken.start == range.start
                    })
            });
            if !fits {
                continue;
            }
            edits.extend(fix.edits.iter().cloned());
            applied.push(AppliedFix {
                code: diagnostic.code,
                title: fix.title.clone(),
                range: to_given(&rounds, diagnostic.range.clone()),
            });
        }
        if edits.is_empty() {
            break;
        }
        edits.sort_by_key(|(range, _)| (range.start, range.end));
        rounds.push(
            edits
                .iter()
                .map(|(range, new)| (range.clone(), new.len()))
                .collect(),
        );
        current = crate::model::edit::with_replacements(&current, &edits);
        diagnostics = check_as(format, &current);
    }
    FixedText {
        text: current,
        applied,
    }
}

/// Where `range`, in the text after `rounds` of edits, was in the text before them (a place
/// inside a replaced stretch goes to the stretch's start).
fn to_given(rounds: &[Vec<(Range<usize>, usize)>], range: Range<usize>) -> Range<usize> {
    let back = |mut offset: usize| {
        for edits in rounds.iter().rev() {
            let mut shift: isize = 0;
            let mut mapped = None;
            for (old, new_len) in edits {
                let new_start = old.start.saturating_add_signed(shift);
                if offset < new_start {
                    break;
                }
                if offset < new_start + new_len {
                    mapped = Some(old.start);
                    break;
                }
                shift += *new_len as isize - old.len() as isize;
            }
            offset = mapped.unwrap_or_else(|| offset.saturating_add_signed(-shift));
        }
        offset
    };
    let start = back(range.start);
    start..back(range.end).max(start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_safe_fix_is_made_and_listed() {
        // An old capture (`b1*b3`), metadata without its end, and a misspelt setup argument
        // (a guess, left alone).
        let text = "---\nGameType: {Name: Tablut, Die Widht: 0.5}\n...\n1. d1-d3 1... e7-c7\n";
        let fixed = fix_all(None, text);
        assert_eq!(fixed.text, text, "no safe fix here: {:?}", fixed.applied);
        let old = "GameType: Four Field Kono\n1. b1*b3\n";
        let fixed = fix_all(None, old);
        let codes: Vec<&str> = fixed.applied.iter().map(|fix| fix.code).collect();
        assert!(
            codes.contains(&"metadata-without-end"),
            "{:?}",
            fixed.applied
        );
        assert!(!crate::ppn::diagnostics::check_text(&fixed.text)
            .iter()
            .any(|d| d.code == "metadata-without-end"));
        for fix in &fixed.applied {
            assert!(fix.range.end <= old.len(), "{fix:?} lies in the text given");
        }
    }

    #[test]
    fn the_forms_of_older_versions_are_migrated() {
        let text = "---\nGameType: Four Field Kono\n...\n1. b1*b3 1... d3*b3\n";
        let fixed = fix_all(None, text);
        assert_eq!(
            fixed.text,
            "---\nGameType: Four Field Kono\n...\n1. b1:b3 1... d3:b3\n"
        );
        assert_eq!(fixed.applied.len(), 2);
        assert!(fixed.applied.iter().all(|fix| fix.code == "old-capture"));
        assert_eq!(&text[fixed.applied[1].range.clone()], "d3*b3");
    }

    #[test]
    fn places_of_later_rounds_are_found_in_the_text_given() {
        // A round replaced 2..4 by six bytes and inserted three at 10.
        let rounds = vec![vec![(2..4, 6), (10..10, 3)]];
        assert_eq!(to_given(&rounds, 0..1), 0..1);
        assert_eq!(to_given(&rounds, 3..5), 2..2);
        assert_eq!(to_given(&rounds, 8..9), 4..5);
        assert_eq!(to_given(&rounds, 18..19), 11..12);
    }
}
