//! What is wrong with a move, as a replay finds it. The common problems of a record whose
//! boards went astray (a move from an empty square, an illegal move) are kept as what they
//! are about, a few bytes, and put in words only when the document's diagnostics are made:
//! words made for every failing move, then copied, were a third of such a replay.

use std::fmt::Write as _;
use std::ops::Range;

use crate::diagnostic::{Diagnostic, Severity};
use crate::otn::board::{side_name, Man, Square, TaflSide};
use crate::otn::reader::moves::{shift_range, MoveRecord, MoveType};
use crate::otn::replay::ply::MoveLabel;
use crate::otn::rules::MoveError;
use crate::otn::variant::Rules;

const ILLEGAL_MOVE: &str = "illegal-move";

/// A move as written, without captures or info symbol: `e5-e8`, `Ke1-a1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Movement {
    mover: Option<Man>,
    from: Square,
    kind: MoveType,
    to: Square,
}

impl Movement {
    pub fn of(record: &MoveRecord) -> Movement {
        Movement {
            mover: record.mover.as_ref().map(|(man, _)| *man),
            from: record.from.0,
            kind: record.kind.0,
            to: record.to.0,
        }
    }
}

impl Movement {
    /// Appends the move as written to `out`.
    fn push_name(&self, out: &mut String) {
        if let Some(man) = self.mover {
            out.push(man.letter());
        }
        self.from.push_name(out);
        out.push_str(self.kind.symbol());
        self.to.push_name(out);
    }
}

/// Why an illegal move is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegality {
    /// The other side is to move.
    NotToMove(TaflSide),
    /// A berserk man (on square `at`) must move again.
    MustMoveAgain {
        man: Option<Man>,
        at: u16,
    },
    /// A berserk man moves again only to capture.
    OnlyToCapture,
    Rule(MoveError),
}

impl Illegality {
    /// Why, in words: `the attackers are to move`.
    pub fn push_words(&self, rules: &Rules, message: &mut String) {
        match self {
            Illegality::NotToMove(side) => {
                message.push_str("the ");
                message.push_str(side_name(*side));
                message.push_str(" are to move");
            }
            Illegality::MustMoveAgain { man, at } => {
                let _ = write!(
                    message,
                    "{} on {} captured and must move again (ber)",
                    man.map_or("the berserk man".to_string(), Man::describe),
                    Square::of_index(usize::from(*at), rules.dim)
                );
            }
            Illegality::OnlyToCapture => {
                message.push_str("a berserk man moves again only to capture (ber:c)");
            }
            Illegality::Rule(error) => error.push_description(rules, message),
        }
    }
}

/// What is wrong with a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveProblem {
    /// Put in words already: the rarer problems.
    Said(Box<Diagnostic>),
    /// A move from an empty square, written at `range`.
    NoMan {
        range: Range<usize>,
        movement: Movement,
    },
    /// A move the rules forbid, written at `range`: made all the same if it could be.
    Illegal {
        range: Range<usize>,
        movement: Movement,
        why: Illegality,
        made: bool,
    },
}

impl MoveProblem {
    pub fn said(diagnostic: Diagnostic) -> MoveProblem {
        MoveProblem::Said(Box::new(diagnostic))
    }

    /// Moves every range `delta` bytes along, in place.
    pub fn shift(&mut self, delta: isize) {
        match self {
            MoveProblem::Said(diagnostic) => diagnostic.shift(delta),
            MoveProblem::NoMan { range, .. } | MoveProblem::Illegal { range, .. } => {
                *range = shift_range(range, delta);
            }
        }
    }

    pub fn shifted(&self, delta: isize) -> MoveProblem {
        let mut shifted = self.clone();
        shifted.shift(delta);
        shifted
    }

    /// Where this problem's diagnostic lies, `delta` bytes further on, its severity and its
    /// code: what orders it among the others, without its words.
    pub fn outline(&self, delta: isize) -> (Range<usize>, Severity, &'static str) {
        match self {
            MoveProblem::Said(diagnostic) => (
                shift_range(&diagnostic.range, delta),
                diagnostic.severity,
                diagnostic.code,
            ),
            MoveProblem::NoMan { range, .. } | MoveProblem::Illegal { range, .. } => {
                (shift_range(range, delta), Severity::Error, ILLEGAL_MOVE)
            }
        }
    }

    /// The diagnostic of this problem of the move `label`, under `rules`, `delta` bytes
    /// further on in the text.
    pub fn diagnostic(&self, label: &MoveLabel<'_>, rules: &Rules, delta: isize) -> Diagnostic {
        let range = |range: &Range<usize>| shift_range(range, delta);
        match self {
            MoveProblem::Said(diagnostic) => diagnostic.shifted(delta),
            MoveProblem::NoMan {
                range: at,
                movement,
            } => {
                let mut message = String::with_capacity(64);
                label.push_name(&mut message);
                message.push(' ');
                movement.push_name(&mut message);
                message.push_str(": there is no man on ");
                movement.from.push_name(&mut message);
                Diagnostic::error(range(at), ILLEGAL_MOVE, message)
            }
            MoveProblem::Illegal {
                range: at,
                movement,
                why,
                made,
            } => {
                let mut message = String::with_capacity(96);
                label.push_name(&mut message);
                message.push(' ');
                movement.push_name(&mut message);
                message.push_str(" is illegal: ");
                why.push_words(rules, &mut message);
                message.push_str(if *made {
                    "; it is made all the same"
                } else {
                    "; it is skipped"
                });
                Diagnostic::error(range(at), ILLEGAL_MOVE, message)
            }
        }
    }
}
