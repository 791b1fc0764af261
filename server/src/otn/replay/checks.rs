//! Checking what a record says against what the move did on the board: the man that
//! moved, the move's type, its captures, its info and the file's tags; and the words the
//! diagnostics use.
//!
//! These are methods of [`Player`], which `replay` defines; they are kept apart only to keep
//! the files short.

use std::ops::Range;

use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::otn::board::{Man, Square, TaflSide};
use crate::otn::reader::moves::{capture_record, Info, MoveRecord, MoveType};
use crate::otn::reader::LinePath;
use crate::otn::rules::{king_can_escape, king_threatened, Outcome, Reason, Verdict};

use super::ply::MoveLabel;
use super::problems::MoveProblem;
use super::{Line, Player, StartFrom};

impl Player<'_> {
    /// The man written before the move (`K` of `Ke1-a1`) against the man on its square.
    pub(super) fn check_mover(&mut self, record: &MoveRecord, man: Man) {
        let Some((written, range)) = &record.mover else {
            return;
        };
        if *written != man {
            self.ply_diagnostics.push(MoveProblem::said(
                Diagnostic::error(
                    range.clone(),
                    "mover-mismatch",
                    format!(
                        "`{}` says {} moves, but {} holds {}",
                        written.letter(),
                        written.describe(),
                        record.from.0.name(),
                        man.describe()
                    ),
                )
                .with_fix(Fix {
                    title: format!("Write `{}`", man_letter(man)),
                    edits: vec![(range.clone(), man_letter(man))],
                }),
            ));
        }
    }

    /// The move type written (`-`, `^`, `=`) against the one played.
    pub(super) fn check_move_type(&mut self, record: &MoveRecord, actual: MoveType) {
        let written = record.kind.0;
        if written == actual {
            return;
        }
        self.ply_diagnostics.push(MoveProblem::said(
            Diagnostic::warning(
                record.kind.1.clone(),
                "move-type-mismatch",
                format!(
                    "`{}` marks {}, but this is {}",
                    written.symbol(),
                    move_type_words(written),
                    move_type_words(actual)
                ),
            )
            .with_fix(Fix {
                title: format!("Write `{}`", actual.symbol()),
                edits: vec![(record.kind.1.clone(), actual.symbol().to_string())],
            }),
        ));
    }

    /// At the first move of a line whose boards are no longer the record's (a move before
    /// it could not be made), says once that the moves from there on are not checked.
    pub(super) fn say_moves_not_checked(
        &mut self,
        line: &Line,
        start: &StartFrom,
        range: &Range<usize>,
    ) {
        let previous = line.plies.len() - 1;
        let unmade = if previous == 0 {
            start.unmade_before.as_ref().map(|(_, label)| label.clone())
        } else if line.plies.as_read(previous - 1).0.checked {
            Some(line.label(previous))
        } else {
            None
        };
        if let Some(unmade) = unmade {
            self.ply_diagnostics.push(MoveProblem::said(Diagnostic::new(
                range.clone(),
                Severity::Information,
                "moves-not-checked",
                format!(
                    "the moves of {} from here on are not checked: {unmade} could not be made, so the boards after it are not the record's",
                    line_name(&line.path)
                ),
            )));
        }
    }

    pub(super) fn check_captures(
        &mut self,
        record: &MoveRecord,
        outcome: &Outcome,
        label: &MoveLabel<'_>,
    ) {
        let dim = self.rules.dim;
        let computed: Vec<(Square, Man)> = outcome
            .captures
            .iter()
            .map(|(index, man)| (Square::of_index(*index, dim), *man))
            .collect();
        let count = record.captures.len();
        for (position, written) in record.captures.iter().enumerate() {
            match computed
                .iter()
                .find(|(square, _)| *square == written.square)
            {
                None => {
                    // The fix takes the square out of the record, with its separator.
                    let removed = if count == 1 {
                        record.captures_range.clone()
                    } else if position + 1 < count {
                        written.range.start..record.captures[position + 1].range.start
                    } else {
                        record.captures[position - 1].range.end..written.range.end
                    };
                    self.ply_diagnostics.push(MoveProblem::said(
                        Diagnostic::error(
                            written.range.clone(),
                            "capture-not-made",
                            format!(
                                "{label} {} does not capture on {}",
                                record.movement(),
                                written.square.name()
                            ),
                        )
                        .with_fix(Fix {
                            title: format!("Remove the capture on {}", written.square.name()),
                            edits: vec![(removed, String::new())],
                        }),
                    ))
                }
                Some((_, man)) => {
                    if let Some(letter) = written.man {
                        if letter != *man {
                            let letter_range = written.range.start..written.range.start + 1;
                            self.ply_diagnostics.push(MoveProblem::said(
                                Diagnostic::warning(
                                    written.range.clone(),
                                    "capture-mismatch",
                                    format!(
                                        "`{}` says {} is captured on {}, but it is {}",
                                        letter.letter(),
                                        letter.describe(),
                                        written.square.name(),
                                        man.describe()
                                    ),
                                )
                                .with_fix(Fix {
                                    title: format!("Write `{}`", man_letter(*man)),
                                    edits: vec![(letter_range, man_letter(*man))],
                                }),
                            ));
                        }
                    }
                }
            }
        }
        let missing: Vec<(Square, Man)> = computed
            .iter()
            .filter(|(square, _)| !record.captures.iter().any(|c| c.square == *square))
            .copied()
            .collect();
        // A record whose end does not read may have meant them: its end is reported.
        if missing.is_empty() || record.unread.is_some() {
            return;
        }
        let names: Vec<String> = missing
            .iter()
            .map(|(square, man)| format!("{} on {}", man.describe(), square.name()))
            .collect();
        // The fix appends the missing squares to the capture record, or writes one.
        let insert_at = record.captures_range.end;
        let addition = if record.captures.is_empty() {
            capture_record(&missing)
        } else {
            capture_record(&missing).replacen('x', "/", 1)
        };
        self.ply_diagnostics.push(MoveProblem::said(
            Diagnostic::warning(
                record.range.clone(),
                "missing-capture",
                format!(
                    "{label} {} captures {} (not written)",
                    record.movement(),
                    names.join(" and ")
                ),
            )
            .with_fix(Fix {
                title: format!("Write the capture: {addition}"),
                edits: vec![(insert_at..insert_at, addition)],
            }),
        ));
    }

    pub(super) fn check_info(
        &mut self,
        info: Info,
        range: Range<usize>,
        after: &[u8],
        verdict: Option<Verdict>,
        mover: TaflSide,
        next_side: TaflSide,
    ) {
        let rules = self.rules;
        let holds = match info {
            Info::KingCaptured => matches!(verdict, Some(Verdict::Win(_, Reason::KingCaptured))),
            Info::KingEscaped => matches!(
                verdict,
                Some(Verdict::Win(
                    TaflSide::Defenders,
                    Reason::KingEscaped | Reason::EdgeFort
                ))
            ),
            Info::Threat => {
                king_threatened(rules, after, next_side)
                    || (mover == TaflSide::Defenders && king_can_escape(rules, after))
            }
            Info::EscapeRoute => king_can_escape(rules, after),
        };
        if !holds {
            self.ply_diagnostics.push(MoveProblem::said(
                Diagnostic::warning(
                    range.clone(),
                    "info-mismatch",
                    format!(
                        "`{}` says {}, but the board disagrees",
                        info.symbol(),
                        info.meaning()
                    ),
                )
                .with_fix(Fix {
                    title: format!("Remove `{}`", info.symbol()),
                    edits: vec![(range, String::new())],
                }),
            ));
        }
    }

    pub(super) fn check_tags(&mut self, lines: &[Line]) {
        let text = self.text;
        let Some(main) = lines.first() else {
            return;
        };
        if let Some(tag) = self.file.tag(text, "result") {
            let value = text[tag.value.clone()].trim();
            let last = main.plies.len() - 1;
            let verdict = main
                .verdict_at(last)
                .map(|(i, v)| (main.label(i), v))
                .or_else(|| {
                    main.resigned.as_ref().map(|(side, _)| {
                        (
                            "the resignation".to_string(),
                            Verdict::Win(crate::otn::board::other_side(*side), Reason::Resigned),
                        )
                    })
                });
            match value {
                "1" | "-1" | "0" | "?" => {
                    if let Some((at, verdict)) = verdict {
                        if value != "?" && value != verdict.result_tag() {
                            self.diagnostics.push(Diagnostic::warning(
                                tag.value.clone(),
                                "result-mismatch",
                                format!(
                                    "the result says {} ({}), but at {at} the {}",
                                    value,
                                    result_words(value),
                                    verdict.describe()
                                ),
                            ));
                        }
                    }
                }
                _ => self.diagnostics.push(Diagnostic::warning(
                    tag.value.clone(),
                    "invalid-tag-value",
                    "a result is 1 (attackers win), -1 (defenders win), 0 (draw) or ? (other)",
                )),
            }
        }
        for name in ["puzzle-start", "puzzle-prestart"] {
            let Some(tag) = self.file.tag(text, name) else {
                continue;
            };
            let value = text[tag.value.clone()].trim().trim_end_matches('.');
            if value == "0a" || value == "0" {
                continue;
            }
            let known = lines
                .iter()
                .any(|line| (1..line.plies.len()).any(|i| line.label(i) == value));
            if !known {
                self.diagnostics.push(Diagnostic::warning(
                    tag.value.clone(),
                    "unknown-address",
                    format!("{name}: no move has the address `{value}` (`0a` is the start)"),
                ));
            }
        }
        if let Some(tag) = self.file.tag(text, "puzzle-mode") {
            let value = text[tag.value.clone()].trim();
            if !matches!(value, "none" | "loose" | "strict") {
                self.diagnostics.push(Diagnostic::warning(
                    tag.value.clone(),
                    "invalid-tag-value",
                    "a puzzle mode is none, loose or strict",
                ));
            }
        }
    }
}

/// The letter a record writes for a moving or captured man: none for a plain taflman.
pub(super) fn man_letter(man: Man) -> String {
    if man.kind == crate::otn::board::TaflMan::Taflman {
        String::new()
    } else {
        man.letter().to_string()
    }
}

pub(super) fn result_words(value: &str) -> &'static str {
    match value {
        "1" => "attackers win",
        "-1" => "defenders win",
        "0" => "draw",
        _ => "other",
    }
}

pub(super) fn move_type_words(kind: MoveType) -> &'static str {
    match kind {
        MoveType::Move => "a plain move",
        MoveType::Jump => "a jump",
        MoveType::Berserk => "a berserk move",
        MoveType::BerserkJump => "a berserk jump",
    }
}

pub(super) fn line_name(path: &LinePath) -> String {
    if path.is_main() {
        "the main line".to_string()
    } else {
        format!("variation {}", path.prefix())
    }
}

pub(super) fn ordinal(n: usize) -> String {
    match n {
        1 => "first".to_string(),
        2 => "second".to_string(),
        3 => "third".to_string(),
        _ => format!("{n}th"),
    }
}
