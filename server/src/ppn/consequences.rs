//! Diagnostics that point at the cause: one mistake is reported once, where it is, and
//! what only follows from it is folded into it or marked as following from it.
//!
//! - A game whose setup failed (unknown `GameType`, broken metadata) has every move fail
//!   on an empty board: those errors become one note, "moves not checked".
//! - Metadata lines with nothing to end them are read as moves: one error with a fix
//!   instead of an error per word.
//! - An error in a later move that touches a square an earlier failed move touched is
//!   marked as following from it (LSP related information).
//! - Forms of older PPN versions (see [`crate::ppn::versions`]) replace the errors they
//!   cause; a comment holding braces and a checkers jump written with `:` say so.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::ppn::reader::metadata::scalar_text;
use crate::ppn::replay::{Replay, ReplayedGame};
use crate::ppn::rules::setups::normalize_name;
use crate::ppn::versions;

/// Metadata problems after which a game has no setup.
const SETUP_FAILURES: &[&str] = &[
    "yaml-error",
    "metadata-not-mapping",
    "metadata-too-large",
    "metadata-too-deep",
    "unknown-game",
    "unknown-system",
    "bad-setup",
    "bad-setup-argument",
];

type Identity = (usize, usize, &'static str);

fn identity(d: &Diagnostic) -> Identity {
    (d.range.start, d.range.end, d.code)
}

/// Rework `diagnostics` (every diagnostic of the document: syntax and replay) so each
/// mistake is said once, at its cause. Linear in the diagnostics and the moves: a hostile
/// file may hold a hundred thousand of each.
pub fn refine(text: &str, replay: &Replay, diagnostics: &mut Vec<Diagnostic>) {
    // What the replay of each game's moves reported, by identity.
    let engine: HashSet<Identity> = replay
        .games
        .iter()
        .flat_map(|game| game.all_move_diagnostics())
        .map(|d| identity(&d))
        .collect();

    let old = versions::old_forms(text, replay, diagnostics);
    if !old.explained.is_empty() {
        let explained = Spans::new(old.explained);
        diagnostics.retain(|d| !(engine.contains(&identity(d)) && explained.covers(&d.range)));
    }
    diagnostics.extend(old.diagnostics);

    let mut failed_setups: Vec<(usize, Range<usize>)> = Vec::new();
    let mut unended_lines = Vec::new();
    let mut unended_games = Vec::new();
    for (index, game) in replay.games.iter().enumerate() {
        if let Some(unended) = metadata_without_end(text, game) {
            unended_lines.push(unended.range.start..line_block_end(text, &unended));
            unended_games.push(game.range.clone());
            failed_setups.push((index, unended.range.clone()));
            diagnostics.push(unended);
        } else if let Some(failure) = game
            .metadata_diagnostics
            .iter()
            .find(|d| d.severity == Severity::Error && SETUP_FAILURES.contains(&d.code))
        {
            failed_setups.push((index, failure.range.clone()));
        }
    }
    if !unended_lines.is_empty() {
        let lines = Spans::new(unended_lines);
        let games = Spans::new(unended_games);
        diagnostics.retain(|d| {
            d.code == "metadata-without-end"
                || !(lines.covers(&d.range)
                    || (d.code == "unterminated-metadata" && games.covers(&d.range)))
        });
    }
    fold_moves_of_games_without_setup(replay, &failed_setups, diagnostics);

    let mut at: HashMap<Identity, Vec<usize>> = HashMap::new();
    for (i, d) in diagnostics.iter().enumerate() {
        if d.severity == Severity::Error && engine.contains(&identity(d)) {
            at.entry(identity(d)).or_default().push(i);
        }
    }
    let failed: HashSet<usize> = failed_setups.iter().map(|(game, _)| *game).collect();
    for (index, game) in replay.games.iter().enumerate() {
        if !failed.contains(&index) {
            mark_consequences(text, game, &at, diagnostics);
            checkers_jumps(text, game, &at, diagnostics);
        }
    }
    comments_holding_braces(text, replay, diagnostics);
}

/// Byte ranges, merged, to ask in logarithmic time whether one of them holds a range.
struct Spans(Vec<Range<usize>>);

impl Spans {
    fn new(mut ranges: Vec<Range<usize>>) -> Spans {
        ranges.sort_by_key(|r| r.start);
        let mut merged: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
        for range in ranges {
            match merged.last_mut() {
                Some(last) if range.start <= last.end => last.end = last.end.max(range.end),
                _ => merged.push(range),
            }
        }
        Spans(merged)
    }

    fn covers(&self, range: &Range<usize>) -> bool {
        let after = self.0.partition_point(|span| span.start <= range.start);
        after
            .checked_sub(1)
            .is_some_and(|i| range.end <= self.0[i].end)
    }
}

/// The end of the lines a `metadata-without-end` error stands for: where its fix inserts.
fn line_block_end(text: &str, unended: &Diagnostic) -> usize {
    unended
        .fixes
        .first()
        .and_then(|fix| fix.edits.first())
        .map_or(unended.range.end, |(range, _)| range.start.min(text.len()))
}

fn contains(outer: &Range<usize>, inner: &Range<usize>) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// `GameType: Chess` on the first lines of a game that has no metadata block: the lines
/// that look like metadata, as an error with a fix that ends the block.
fn metadata_without_end(text: &str, game: &ReplayedGame) -> Option<Diagnostic> {
    if game.metadata.source.is_some() {
        return None;
    }
    let movetext_start = game.first_move_start().unwrap_or(game.range.end);
    let first_line_start = text[..movetext_start]
        .rfind(['\n', '\r'])
        .map_or(0, |i| i + 1)
        .max(game.range.start);
    let mut end = first_line_start;
    let mut lines = 0;
    for line in text[first_line_start..game.range.end].split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        let indented = content.starts_with([' ', '\t']) && !content.trim().is_empty();
        if looks_like_metadata(content) || (lines > 0 && indented) {
            end += line.len();
            lines += 1;
        } else {
            break;
        }
    }
    if lines == 0 {
        return None;
    }
    let first_line = text[first_line_start..end]
        .lines()
        .next()
        .unwrap_or_default()
        .trim();
    let shown_end = first_line_start + text[first_line_start..end].trim_end().len();
    let insert = if text[..end].ends_with('\n') {
        "...\n".to_string()
    } else {
        "\n...\n".to_string()
    };
    Some(
        Diagnostic::error(
            first_line_start..shown_end,
            "metadata-without-end",
            format!(
                "`{first_line}` looks like metadata, but no `...` line (or empty line) ends \
                 it, so it is read as moves: add a line `...` after the metadata"
            ),
        )
        .with_fix(Fix {
            title: "end the metadata with `...`".to_string(),
            edits: vec![(end..end, insert)],
        }),
    )
}

/// `Key: value` with a capitalised key, as metadata is written; no move looks like that
/// (a MoveNumber ends with `.`).
fn looks_like_metadata(line: &str) -> bool {
    let Some((key, rest)) = line.split_once(':') else {
        return false;
    };
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ' ')
        && (rest.is_empty() || rest.starts_with([' ', '\t']))
}

/// Replace the move errors of each game without a setup by one note at the first of them.
fn fold_moves_of_games_without_setup(
    replay: &Replay,
    failed_setups: &[(usize, Range<usize>)],
    diagnostics: &mut Vec<Diagnostic>,
) {
    if failed_setups.is_empty() {
        return;
    }
    // The identities of each failed game's move errors, with the game they belong to.
    let mut of_game: HashMap<Identity, usize> = HashMap::new();
    for (slot, (game, _)) in failed_setups.iter().enumerate() {
        for d in replay.games[*game]
            .all_move_diagnostics()
            .filter(|d| d.severity == Severity::Error)
        {
            of_game.insert(identity(&d), slot);
        }
    }
    let mut first: Vec<Option<Range<usize>>> = vec![None; failed_setups.len()];
    let mut folded = vec![0usize; failed_setups.len()];
    diagnostics.retain(|d| {
        let slot = (d.severity == Severity::Error)
            .then(|| of_game.get(&identity(d)))
            .flatten();
        if let Some(&slot) = slot {
            folded[slot] += 1;
            if first[slot].as_ref().is_none_or(|f| d.range.start < f.start) {
                first[slot] = Some(d.range.clone());
            }
        }
        slot.is_none()
    });
    for (slot, (_, cause)) in failed_setups.iter().enumerate() {
        let Some(at) = first[slot].clone() else {
            continue;
        };
        let count = folded[slot];
        diagnostics.push(
            Diagnostic::new(
                at,
                Severity::Information,
                "moves-not-checked",
                format!(
                    "moves not checked: this game has no setup, see above ({count} move \
                     error{} on the empty board left out)",
                    if count == 1 { "" } else { "s" }
                ),
            )
            .with_related(cause.clone(), "why this game has no setup"),
        );
    }
}

/// The squares a token names as Locations or PieceIds: `b4`, `(2,3)`; not PieceSpecs.
fn squares(token: &str) -> Vec<&str> {
    token
        .split(|c: char| "@-_:#*=~%&!\\+$|‿;".contains(c))
        .filter_map(|part| {
            let part = part.trim_start_matches(|c: char| c.is_ascii_digit() || c == '^');
            let part = part.split('[').next().unwrap_or(part);
            let is_square = if part.starts_with('(') {
                part.ends_with(')') && part.contains(',')
            } else {
                let letters = part.bytes().take_while(u8::is_ascii_lowercase).count();
                letters > 0
                    && part.len() > letters
                    && part.bytes().skip(letters).all(|b| b.is_ascii_digit())
            };
            is_square.then_some(part)
        })
        .collect()
}

/// Mark errors of later moves that touch a square an earlier failed move touched.
fn mark_consequences(
    text: &str,
    game: &ReplayedGame,
    at: &HashMap<Identity, Vec<usize>>,
    diagnostics: &mut [Diagnostic],
) {
    if at.is_empty() {
        return;
    }
    // Nothing is tainted before the first move with an error: start there, so that one
    // error at the end of a long game costs no look at the moves before it.
    let first_failed = game.indexed_move_diagnostics().find_map(|(index, d)| {
        (d.severity == Severity::Error && at.contains_key(&identity(&d))).then_some(index)
    });
    let Some(first_failed) = first_failed else {
        return;
    };
    let by_move = game.diagnostics_by_move_from(first_failed);
    // Each square an earlier failed move touched, with that move (its label and range).
    let mut tainted: HashMap<String, (String, Range<usize>)> = HashMap::new();
    for (record, move_diagnostics) in game.moves()[first_failed..].iter().zip(by_move) {
        let touched: Vec<&str> = record
            .tokens()
            .flat_map(|token| squares(token.text))
            .collect();
        let origin = touched
            .iter()
            .find_map(|square| tainted.get(*square))
            .cloned();
        // Each identity once: a move whose expansions repeat one error thousands of times
        // would otherwise list every copy once per copy.
        let mut identities = HashSet::new();
        let errors: Vec<usize> = move_diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(identity)
            .filter(|found| identities.insert(*found))
            .filter_map(|found| at.get(&found))
            .flatten()
            .copied()
            .collect();
        let own = (
            crate::ppn::reader::movetext::user_label(record.label()),
            record.source().clone(),
        );
        if let Some((label, range)) = &origin {
            for &i in &errors {
                let d = &mut diagnostics[i];
                if d.related.iter().any(|r| r.range == *range) {
                    continue;
                }
                d.message.push_str(&format!(
                    " (this may follow from move `{label}` above, which failed)"
                ));
                d.related.push(crate::diagnostic::Related {
                    range: range.clone(),
                    message: format!(
                        "move `{label}` failed here: `{}`",
                        text.get(range.clone()).unwrap_or_default().trim()
                    ),
                });
            }
        }
        if !errors.is_empty() || origin.is_some() {
            let cause = origin.unwrap_or(own);
            for square in touched {
                tainted
                    .entry(square.to_string())
                    .or_insert_with(|| cause.clone());
            }
        }
    }
}

/// `f6:d4` in a checkers game where `d4` is empty: `:` captures on its target square; a
/// jump over `e5` is `f6-d4*e5`.
fn checkers_jumps(
    text: &str,
    game: &ReplayedGame,
    at: &HashMap<Identity, Vec<usize>>,
    diagnostics: &mut [Diagnostic],
) {
    let no_piece = |d: &Diagnostic| d.code == "no-piece";
    if !is_checkers(game) || !game.indexed_move_diagnostics().any(|(_, d)| no_piece(&d)) {
        return;
    }
    for (record, move_diagnostics) in game.moves().iter().zip(game.diagnostics_by_move_from(0)) {
        let failed: Vec<usize> = move_diagnostics
            .iter()
            .filter(|d| no_piece(d))
            .filter_map(|d| at.get(&identity(d)))
            .flatten()
            .copied()
            .collect();
        if failed.is_empty() {
            continue;
        }
        for token in record.tokens() {
            let Some(written) = text.get(token.source.clone()) else {
                continue;
            };
            let Some((from, to)) = written.split_once(':') else {
                continue;
            };
            let (Some(a), Some(b)) = (square_xy(from), square_xy(to)) else {
                continue;
            };
            if (a.0 - b.0).abs() != 2 || (a.1 - b.1).abs() != 2 {
                continue;
            }
            let over = format!(
                "{}{}",
                (b'a' + ((a.0 + b.0) / 2 - 1) as u8) as char,
                (a.1 + b.1) / 2
            );
            let jump = format!("{from}-{to}*{over}");
            let target = token.source.end - to.len()..token.source.end;
            for &i in &failed {
                let d = &mut diagnostics[i];
                let here = d.range == target || contains(&token.source, &d.range);
                if here {
                    d.message.push_str(&format!(
                        "; `:` captures the piece on its target square: a checkers jump over \
                         `{over}` is written `{jump}`"
                    ));
                    d.fixes.push(Fix {
                        title: format!("write the jump `{jump}`"),
                        edits: vec![(token.source.clone(), jump.clone())],
                    });
                }
            }
        }
    }
}

fn square_xy(square: &str) -> Option<(i32, i32)> {
    let file = square
        .as_bytes()
        .first()
        .filter(|b| b.is_ascii_lowercase())?;
    let rank: i32 = square.get(1..)?.parse().ok()?;
    Some((i32::from(file - b'a') + 1, rank))
}

fn is_checkers(game: &ReplayedGame) -> bool {
    let parser = game
        .metadata
        .get("MovetextParser")
        .and_then(|value| match value {
            serde_yaml::Value::Mapping(mapping) => mapping
                .iter()
                .find(|(k, _)| scalar_text(k).is_some_and(|k| normalize_name(&k) == "name"))
                .and_then(|(_, v)| scalar_text(v)),
            other => scalar_text(other),
        })
        .is_some_and(|name| normalize_name(&name) == "checker");
    let named = ["SetUp", "GameType"].iter().any(|key| {
        let text = match game.metadata.get(key) {
            Some(serde_yaml::Value::Mapping(mapping)) => mapping
                .iter()
                .find(|(k, _)| scalar_text(k).is_some_and(|k| normalize_name(&k) == "name"))
                .and_then(|(_, v)| scalar_text(v)),
            Some(other) => scalar_text(other),
            None => None,
        };
        text.is_some_and(|name| normalize_name(&name).contains("checkers"))
    });
    parser || named
}

/// `{a comment {with} braces}`: say that comments hold no braces, at the inner one, and
/// drop the error for the closing brace that follows from it. A comment ends with its game.
fn comments_holding_braces(text: &str, replay: &Replay, diagnostics: &mut Vec<Diagnostic>) {
    let mut follow_ons = Vec::new();
    for d in diagnostics.iter_mut() {
        if d.code != "unclosed-comment" || !text[d.range.start..].starts_with('{') {
            continue;
        }
        let open = d.range.start;
        let game_end = replay
            .games
            .iter()
            .find(|game| game.range.contains(&open))
            .map_or(text.len(), |game| game.range.end);
        let text = &text[..game_end];
        let Some(inner) = text[open + 1..].find(['{', '}']).map(|i| open + 1 + i) else {
            continue;
        };
        if text.as_bytes()[inner] != b'{' {
            continue;
        }
        let Some(inner_close) = text[inner + 1..].find('}').map(|i| inner + 1 + i) else {
            continue;
        };
        let outer_close = text[inner_close + 1..]
            .find(['{', '}'])
            .map(|i| inner_close + 1 + i)
            .filter(|&i| text.as_bytes()[i] == b'}');
        d.message = "a comment cannot hold braces: the `{` inside this comment opens \
                     nothing, and its `}` ends the comment early"
            .to_string();
        d.related.push(crate::diagnostic::Related {
            range: inner..inner + 1,
            message: "the brace inside the comment".to_string(),
        });
        d.fixes.push(Fix {
            title: "write the inner braces as parentheses".to_string(),
            edits: vec![
                (inner..inner + 1, "(".to_string()),
                (inner_close..inner_close + 1, ")".to_string()),
            ],
        });
        if let Some(close) = outer_close {
            follow_ons.push(close);
        }
    }
    diagnostics.retain(|d| {
        !(d.severity == Severity::Error
            && d.range.len() == 1
            && follow_ons.contains(&d.range.start)
            && matches!(d.code, "unexpected-token" | "unopened-comment"))
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::diagnostic_codes;
    use crate::model::edit::with_replacements;
    use crate::model::format::Format::Ppn;
    use crate::ppn::diagnostics::check_text;

    #[test]
    fn spans_merge_and_cover() {
        let spans = Spans::new(vec![10..20, 0..5, 15..30, 40..41]);
        assert!(spans.covers(&(12..28)));
        assert!(spans.covers(&(0..5)));
        assert!(!spans.covers(&(4..6)));
        assert!(!spans.covers(&(35..36)));
        assert!(spans.covers(&(40..41)));
    }

    #[test]
    fn each_game_without_setup_is_folded_on_its_own() {
        let game = "---\nGameType: Chesss\n...\n1. e2-e4 e7-e5\n";
        let text = format!("{game}---\n...\n1. *z9\n{game}");
        let codes = diagnostic_codes(Ppn, &text);
        assert_eq!(
            codes,
            [
                "unknown-game",
                "moves-not-checked",
                "no-piece",
                "unknown-game",
                "moves-not-checked"
            ]
        );
    }

    #[test]
    fn a_game_without_setup_says_so_once() {
        let text = "---\nGameType: Chesss\n...\n1. e2-e4 e7-e5 2. g1-f3 b8-c6\n";
        assert_eq!(
            diagnostic_codes(Ppn, text),
            ["unknown-game", "moves-not-checked"]
        );
        let diagnostics = check_text(text);
        let note = &diagnostics[1];
        assert_eq!(note.severity, Severity::Information);
        assert!(note
            .message
            .starts_with("moves not checked: this game has no setup"));
        assert!(note.message.contains("4 move errors"), "{}", note.message);
        assert_eq!(&text[note.related[0].range.clone()], "Chesss");
    }

    #[test]
    fn broken_metadata_says_so_once() {
        let text = "---\nGameType: \"Chess\nEvent: x\n...\n1. e2-e4 e7-e5\n";
        assert_eq!(
            diagnostic_codes(Ppn, text),
            ["yaml-error", "moves-not-checked"]
        );
    }

    #[test]
    fn metadata_without_an_end_is_one_error_with_a_fix() {
        let text = "GameType: Chess\n1. e2-e4\n";
        assert_eq!(
            diagnostic_codes(Ppn, text),
            ["metadata-without-end", "moves-not-checked"]
        );
        let diagnostics = check_text(text);
        assert_eq!(&text[diagnostics[0].range.clone()], "GameType: Chess");
        let fixed = with_replacements(text, &diagnostics[0].fixes[0].edits);
        assert_eq!(fixed, "GameType: Chess\n...\n1. e2-e4\n");
        assert!(check_text(&fixed).is_empty(), "{:?}", check_text(&fixed));
        let dashed = "---\nGameType: Chess\nEvent: x\n1. e2-e4\n";
        assert_eq!(
            diagnostic_codes(Ppn, dashed),
            ["metadata-without-end", "moves-not-checked"]
        );
    }

    /// Each diagnostic's code, text, and how many places it is related to.
    fn marked<'a>(
        text: &'a str,
        diagnostics: &[Diagnostic],
    ) -> Vec<(&'static str, &'a str, usize)> {
        diagnostics
            .iter()
            .map(|d| (d.code, &text[d.range.clone()], d.related.len()))
            .collect()
    }

    #[test]
    fn errors_after_a_failed_move_are_marked_as_following_from_it() {
        let text = "---\n...\n1. S@b2 2. b5-b4 3. b4-b3 4. *b2\n";
        let diagnostics = check_text(text);
        assert_eq!(
            marked(text, &diagnostics),
            [("no-piece", "b5", 0), ("no-piece", "b4", 1)]
        );
        assert_eq!(&text[diagnostics[1].related[0].range.clone()], "2. b5-b4");
        assert!(diagnostics[1].message.contains("may follow from move `2.`"));
    }

    #[test]
    fn a_failed_move_many_chunks_into_a_game_marks_the_errors_after_it() {
        let quiet: String = (1..=60).map(|n| format!("{n}. S@a1 ")).collect();
        let text = format!("---\n...\n{quiet}61. b5-b4 62. b4-b3 63. *a1\n");
        let diagnostics = check_text(&text);
        assert_eq!(
            marked(&text, &diagnostics),
            [("no-piece", "b5", 0), ("no-piece", "b4", 1)]
        );
        assert_eq!(&text[diagnostics[1].related[0].range.clone()], "61. b5-b4");
    }

    #[test]
    fn a_checkers_jump_written_with_a_colon_gets_a_hint() {
        let text = "---\nGameType: American Checkers\n...\n1. c3-d4 1... f6-e5 2. d4:f6\n";
        let diagnostics = check_text(text);
        let jump = diagnostics
            .iter()
            .find(|d| d.code == "no-piece")
            .expect("the capture fails");
        assert!(
            jump.message.contains("written `d4-f6*e5`"),
            "{}",
            jump.message
        );
        let fixed = with_replacements(text, &jump.fixes[0].edits);
        assert!(fixed.ends_with("2. d4-f6*e5\n"), "{fixed}");
        assert!(check_text(&fixed).is_empty(), "{:?}", check_text(&fixed));
    }

    #[test]
    fn a_comment_holding_braces_says_so() {
        let text = "1. S@a1 {a comment {with} braces} 2. S@b2\n";
        let diagnostics = check_text(text);
        assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
        assert!(diagnostics[0]
            .message
            .starts_with("a comment cannot hold braces"));
        let fixed = with_replacements(text, &diagnostics[0].fixes[0].edits);
        assert_eq!(fixed, "1. S@a1 {a comment (with) braces} 2. S@b2\n");
        assert!(check_text(&fixed).is_empty());
    }
}
