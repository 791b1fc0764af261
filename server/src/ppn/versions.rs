//! Forms written by older versions of PPN whose spelling or meaning changed by PPN 0.14,
//! found in a replayed document: each becomes a diagnostic naming the version and the
//! new spelling, with a quick fix that rewrites it. `docs/ppn-versions.md` lists every
//! change between the versions, including those that need nothing.
//!
//! The forms found:
//! - `b1*b3`, a capture in the first drafts (before 0.5): `b1:b3` since 0.5;
//! - `△`, an icehouse pyramid in 0.5 (red unless a colour is given): `▲` with a colour
//!   since 0.11;
//! - braces in a macro's value, expanded after the macro in 0.11 and never since 0.14:
//!   the value written in the movetext instead;
//! - an American Checkers game whose moves fit the board of the setup of PPN 0.11's time
//!   (men mirrored left to right): every file mirrored.

use std::ops::Range;

use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::model::edit::with_replacements;
use crate::ppn::reader::metadata::scalar_text;
use crate::ppn::replay::{replay_document, Replay, ReplayedGame};
use crate::ppn::rules::setups::normalize_name;

/// The codes of the diagnostics this module gives.
pub const OLD_FORM_CODES: &[&str] = &[
    "old-capture",
    "old-icehouse-pyramid",
    "braces-in-macro",
    "mirrored-checkers",
];

/// What the old forms of a document explain.
#[derive(Debug, Default)]
pub struct OldForms {
    pub diagnostics: Vec<Diagnostic>,
    /// Byte ranges whose replay diagnostics the old forms explain (they go).
    pub explained: Vec<Range<usize>>,
}

/// The old forms in `text`. `diagnostics` are the document's other diagnostics: a form
/// that is still valid PPN 0.14 with another meaning is reported only where it caused one.
pub fn old_forms(text: &str, replay: &Replay, diagnostics: &[Diagnostic]) -> OldForms {
    let errors = ErrorIndex::new(diagnostics);
    let mut found = OldForms::default();
    for game in &replay.games {
        let mut macros_with_braces = Vec::new();
        if let Some(serde_yaml::Value::Mapping(mapping)) = game.metadata.get("Macros") {
            for (name, value) in mapping {
                if let (Some(name), Some(value)) = (scalar_text(name), scalar_text(value)) {
                    if has_brace_expansion(&value) {
                        macros_with_braces.push((name, value));
                    }
                }
            }
        }
        // Only a token holding a `*` after a location, an old pyramid or the start of an
        // error can be an old form: look at those, not at every token of a long game.
        let game_text = text.get(game.range.clone()).unwrap_or_default();
        let bytes = game_text.as_bytes();
        let mut candidates: Vec<usize> = memchr::memchr_iter(b'*', bytes)
            .filter(|&at| at > 0 && (bytes[at - 1].is_ascii_digit() || bytes[at - 1] == b')'))
            .map(|at| game.range.start + at)
            .chain(
                game_text
                    .match_indices(OLD_ICEHOUSE_PYRAMID)
                    .map(|(at, _)| game.range.start + at),
            )
            .collect();
        if !macros_with_braces.is_empty() {
            candidates.extend(errors.starts_in(&game.range));
        }
        candidates.sort_unstable();
        candidates.dedup();
        // A game moved along by an edit elsewhere makes its moves' new places on first
        // use: most games have no candidate and need none.
        if !candidates.is_empty() {
            let moves = game.moves();
            let mut candidate_moves: Vec<usize> = candidates
                .iter()
                .filter_map(|&at| {
                    let index = moves
                        .partition_point(|record| record.source().start <= at)
                        .checked_sub(1)?;
                    moves[index].source().contains(&at).then_some(index)
                })
                .collect();
            candidate_moves.dedup();
            for record in candidate_moves.into_iter().map(|index| &moves[index]) {
                for token in record.tokens() {
                    let from = candidates.partition_point(|&at| at < token.source.start);
                    if candidates
                        .get(from)
                        .is_none_or(|&at| at >= token.source.end)
                    {
                        continue;
                    }
                    let Some(written) = text.get(token.source.clone()) else {
                        continue;
                    };
                    old_capture(written, token.source.start, &mut found);
                    old_icehouse_pyramids(written, token.source.start, &mut found);
                    braces_in_macros(
                        written,
                        token.source.clone(),
                        &macros_with_braces,
                        &errors,
                        &mut found,
                    );
                }
            }
        }
        mirrored_checkers(text, game, &errors, &mut found);
    }
    found
}

/// Where the errors are, sorted, to count those in a range in logarithmic time (a file
/// may hold a hundred thousand of them).
struct ErrorIndex {
    starts: Vec<usize>,
}

impl ErrorIndex {
    fn new(diagnostics: &[Diagnostic]) -> ErrorIndex {
        let mut starts: Vec<usize> = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.range.start)
            .collect();
        starts.sort_unstable();
        ErrorIndex { starts }
    }

    /// Where the errors that start in `range` start.
    fn starts_in(&self, range: &Range<usize>) -> impl Iterator<Item = usize> + '_ {
        let from = self.starts.partition_point(|&s| s < range.start);
        let to = self.starts.partition_point(|&s| s < range.end);
        self.starts[from..to].iter().copied()
    }

    /// How many errors start in `range`.
    fn count_in(&self, range: &Range<usize>) -> usize {
        let from = self.starts.partition_point(|&s| s < range.start);
        let to = self.starts.partition_point(|&s| s < range.end);
        to - from
    }
}

/// A location at the start of `text`: `b4`, `aa12` or `(2.5,-3)`; its length.
fn location_len(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    if bytes.first() == Some(&b'(') {
        let close = text.find(')')?;
        let inside = &text[1..close];
        let (x, y) = inside.split_once(',')?;
        let number = |s: &str| s.trim().parse::<f64>().is_ok();
        return (number(x) && number(y)).then_some(close + 1);
    }
    let letters = bytes.iter().take_while(|b| b.is_ascii_lowercase()).count();
    let digits = bytes[letters..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    (letters > 0 && digits > 0).then_some(letters + digits)
}

/// `b1*b3` (also with a count, `2b1*b3`): a capture before PPN 0.5.
fn old_capture(written: &str, start: usize, found: &mut OldForms) {
    let count = written.bytes().take_while(u8::is_ascii_digit).count();
    let Some(from) = location_len(&written[count..]) else {
        return;
    };
    let star = count + from;
    if written.as_bytes().get(star) != Some(&b'*') {
        return;
    }
    let rest = &written[star + 1..];
    if location_len(rest) != Some(rest.len()) {
        return;
    }
    let range = start..start + written.len();
    let new = format!("{}:{rest}", &written[..star]);
    found.explained.push(range.clone());
    found.diagnostics.push(
        Diagnostic::error(
            range,
            "old-capture",
            format!(
                "`{written}` is a capture as the first PPN drafts wrote it (before PPN 0.5); \
                 PPN 0.5 and later write `{new}` (`*` alone only removes a piece)"
            ),
        )
        .with_fix(Fix {
            title: format!("write `{new}`"),
            edits: vec![(start + star..start + star + 1, ":".to_string())],
        }),
    );
}

const OLD_ICEHOUSE_PYRAMID: char = '△';
const COLOURS: &[char] = &['R', 'K', 'G', 'B', 'Y', 'W'];
/// Characters that end a PieceSpec inside a move.
const SPEC_ENDS: &[char] = &[
    '@', '-', '_', ':', '#', '*', '=', '~', '%', '&', '!', '\\', '+', '$', '|', '‿', '?', '/',
];

/// `△` (PPN 0.5's icehouse pyramid, red unless a colour is given) as `▲` with a colour.
fn old_icehouse_pyramids(written: &str, start: usize, found: &mut OldForms) {
    for (at, _) in written.match_indices(OLD_ICEHOUSE_PYRAMID) {
        let spec_start = written[..at].rfind(SPEC_ENDS).map_or(0, |i| i + 1);
        let after = at + OLD_ICEHOUSE_PYRAMID.len_utf8();
        let spec_end = written[after..]
            .find(SPEC_ENDS)
            .map_or(written.len(), |i| after + i);
        let spec = &written[spec_start..spec_end];
        let coloured = spec.contains(COLOURS);
        let replacement = if coloured { "▲" } else { "▲R" };
        let new_spec = spec.replacen(OLD_ICEHOUSE_PYRAMID, replacement, 1);
        let spec_range = start + spec_start..start + spec_end;
        found.explained.push(spec_range.clone());
        found.diagnostics.push(
            Diagnostic::warning(
                spec_range,
                "old-icehouse-pyramid",
                format!(
                    "`△` is PPN 0.5's icehouse pyramid{}; since PPN 0.11 it is `▲` with a \
                     colour: write `{new_spec}`",
                    if coloured {
                        ""
                    } else {
                        " (red when no colour is given)"
                    }
                ),
            )
            .with_fix(Fix {
                title: format!("write `{new_spec}`"),
                edits: vec![(start + at..start + after, replacement.to_string())],
            }),
        );
    }
}

/// Whether `text` holds a brace group that bash would expand: `{a,b}` or `{1..3}`.
fn has_brace_expansion(text: &str) -> bool {
    let mut from = 0;
    while let Some(open) = text[from..].find('{').map(|i| i + from) {
        let Some(close) = text[open..].find('}').map(|i| i + open) else {
            return false;
        };
        let inside = &text[open + 1..close];
        if inside.contains(',') || inside.contains("..") {
            return true;
        }
        from = open + 1;
    }
    false
}

/// A macro whose value holds braces, used in a token that went wrong: PPN 0.11 expanded
/// the braces after substituting the macro; PPN 0.14 and the reference never do.
fn braces_in_macros(
    written: &str,
    source: Range<usize>,
    macros: &[(String, String)],
    errors: &ErrorIndex,
    found: &mut OldForms,
) {
    if macros.is_empty() {
        return;
    }
    if errors.count_in(&source) == 0 {
        return;
    }
    for (name, value) in macros {
        let usage = format!("`{name}'");
        let Some(at) = written.find(&usage) else {
            continue;
        };
        let usage_range = source.start + at..source.start + at + usage.len();
        found.explained.push(source.clone());
        found.diagnostics.push(
            Diagnostic::error(
                usage_range.clone(),
                "braces-in-macro",
                format!(
                    "the macro `{name}` stands for `{value}`, whose braces are never expanded: \
                     PPN 0.11 expanded braces after substituting macros, PPN 0.14 (and the \
                     reference) expand them before; write the braces in the movetext"
                ),
            )
            .with_fix(Fix {
                title: format!("write `{value}` in place of the macro"),
                edits: vec![(usage_range, value.clone())],
            }),
        );
        return;
    }
}

/// The setups PPN 0.11's tools set up mirrored left to right (ppgames before 0.6.0-2,
/// January 2021): American Checkers and its other names.
const MIRRORED_SETUPS: &[&str] = &["american_checkers", "checkers", "english_checkers"];
/// A game is checked against the mirrored board only when this many moves failed.
const MIRRORED_MIN_ERRORS: usize = 3;

fn mirrored_checkers(text: &str, game: &ReplayedGame, errors: &ErrorIndex, found: &mut OldForms) {
    let named = ["SetUp", "GameType"]
        .into_iter()
        .find_map(|key| Some((key, game.metadata.get(key)?)));
    let Some((key, value)) = named else {
        return;
    };
    let name = match value {
        serde_yaml::Value::Mapping(mapping) => mapping
            .iter()
            .find(|(k, _)| scalar_text(k).is_some_and(|k| normalize_name(&k) == "name"))
            .and_then(|(_, v)| scalar_text(v)),
        other => scalar_text(other),
    };
    if !name.is_some_and(|name| MIRRORED_SETUPS.contains(&normalize_name(&name).as_str())) {
        return;
    }
    let errors = errors.count_in(&game.range);
    if errors < MIRRORED_MIN_ERRORS {
        return;
    }
    let edits = mirrored_files(text, game);
    if edits.is_empty() {
        return;
    }
    let game_text = &text[game.range.clone()];
    let local: Vec<_> = edits
        .iter()
        .map(|(range, new)| {
            (
                range.start - game.range.start..range.end - game.range.start,
                new.clone(),
            )
        })
        .collect();
    let mirrored = replay_document(&with_replacements(game_text, &local));
    let errors_after = mirrored
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    if errors_after * 4 > errors {
        return;
    }
    let range = game
        .metadata
        .value_range(text, key)
        .unwrap_or(game.range.start..game.range.start);
    found.explained.push(game.range.clone());
    found.diagnostics.push(
        Diagnostic::error(
            range,
            "mirrored-checkers",
            format!(
                "{errors} moves of this game fail on the American Checkers board of PPN 0.14, \
                 but {} of the board PPN 0.11 used, whose men stood mirrored left to right \
                 (the setup changed in January 2021): mirror every file (a↔h, b↔g, c↔f, d↔e)",
                if errors_after == 0 {
                    "all fit that".to_string()
                } else {
                    format!("only {errors_after} fail on that")
                }
            ),
        )
        .with_fix(Fix {
            title: "mirror every file of the moves (a↔h, b↔g, c↔f, d↔e)".to_string(),
            edits,
        }),
    );
}

/// Every location `a1`…`h8` in the game's moves, with its file mirrored.
fn mirrored_files(text: &str, game: &ReplayedGame) -> Vec<(Range<usize>, String)> {
    let mut edits = Vec::new();
    for record in game.moves() {
        for token in record.tokens() {
            let Some(written) = text.get(token.source.clone()) else {
                continue;
            };
            let bytes = written.as_bytes();
            for (i, &b) in bytes.iter().enumerate() {
                let file = matches!(b, b'a'..=b'h');
                let after_letter = i > 0 && bytes[i - 1].is_ascii_alphabetic();
                if !file || after_letter {
                    continue;
                }
                let digits = bytes[i + 1..]
                    .iter()
                    .take_while(|d| d.is_ascii_digit())
                    .count();
                let end = i + 1 + digits;
                let alone = bytes
                    .get(end)
                    .is_none_or(|next| !next.is_ascii_alphanumeric());
                let rank_ok = written[i + 1..end]
                    .parse::<u32>()
                    .is_ok_and(|rank| (1..=8).contains(&rank));
                if digits > 0 && alone && rank_ok {
                    let mirrored = (b'a' + (b'h' - b)) as char;
                    let at = token.source.start + i;
                    edits.push((at..at + 1, mirrored.to_string()));
                }
            }
        }
    }
    edits
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forms(text: &str) -> Vec<(&'static str, String)> {
        let replay = replay_document(text);
        old_forms(text, &replay, &replay.diagnostics)
            .diagnostics
            .into_iter()
            .map(|d| (d.code, text[d.range].to_string()))
            .collect()
    }

    #[test]
    fn old_forms_are_found_where_they_are_written() {
        assert_eq!(
            forms("---\n...\n1. b1*b3 2. 2c4*(1,2) 3. b1-b2*b3\n"),
            [
                ("old-capture", "b1*b3".to_string()),
                ("old-capture", "2c4*(1,2)".to_string()),
            ]
        );
        assert_eq!(
            forms("---\n...\n1. △Y2@a1 ▲R@b2\n"),
            [("old-icehouse-pyramid", "△Y2".to_string())]
        );
    }

    #[test]
    fn a_mirrored_checkers_game_is_recognised_and_mirrored() {
        let text =
            "---\nGameType: American Checkers\n...\n1. d3-e4 1... e6-d5 2. e2-d3 2... a6-b5\n";
        let replay = replay_document(text);
        let found = old_forms(text, &replay, &replay.diagnostics);
        assert_eq!(found.diagnostics.len(), 1);
        let diagnostic = &found.diagnostics[0];
        assert_eq!(diagnostic.code, "mirrored-checkers");
        assert_eq!(&text[diagnostic.range.clone()], "American Checkers");
        let mirrored = with_replacements(text, &diagnostic.fixes[0].edits);
        assert!(
            mirrored.ends_with("1. e3-d4 1... d6-e5 2. d2-e3 2... h6-g5\n"),
            "{mirrored}"
        );
        assert!(replay_document(&mirrored).diagnostics.is_empty());
        // A game that fits today's board is left alone.
        assert!(forms(&mirrored).is_empty());
    }

    #[test]
    fn replacements_keep_the_rest() {
        assert_eq!(
            with_replacements("abcdef", &[(4..5, "E".into()), (0..1, "AA".into())]),
            "AAbcdEf"
        );
    }
}
