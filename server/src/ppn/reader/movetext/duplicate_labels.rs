//! Labels written twice in one movetext: a warning for each move whose label an earlier
//! move already has, found by family (the label's stem) and place within it.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::labels::SETUP_LABEL;
use super::records::{MoveRecord, MovetextProblem, MovetextProblemCode};
use crate::diagnostic::Severity;

pub(super) fn report_duplicate_labels(moves: &[MoveRecord], problems: &mut Vec<MovetextProblem>) {
    if labels_increase_by_family(moves) {
        return;
    }
    let mut seen: HashMap<&str, usize, BuildHasherDefault<LabelHasher>> =
        HashMap::with_capacity_and_hasher(moves.len() + 1, BuildHasherDefault::default());
    seen.insert(SETUP_LABEL, usize::MAX);
    for (index, record) in moves.iter().enumerate() {
        if let Some(&earlier) = seen.get(record.label()) {
            let message = if earlier == usize::MAX {
                format!("MoveNumber `{}` is the label of the setup", record.label())
            } else {
                format!("MoveNumber `{}` is used twice in this game", record.label())
            };
            problems.push(MovetextProblem {
                range: record.label_source().unwrap_or_else(|| record.source()),
                code: MovetextProblemCode::DuplicateMoveNumber,
                severity: Severity::Warning,
                message,
            });
        } else {
            seen.insert(record.label(), index);
        }
    }
}

/// A label read as a family and a place in it: the label without its number and its
/// final dots (hashed), and that number and the count of those dots. `12...` is `12`
/// and three dots in the family of `.`-only labels, `3B.` the third in the family `B`,
/// `Round2..` the second of `Round`, `Setup..` has no number. The same label always gives
/// the same family and place; two labels may share both and still differ (`1.`, `01.`).
pub(super) fn label_family_and_place(label: &str) -> (u64, (u64, usize)) {
    let label = label.as_bytes();
    let body = label.len() - label.iter().rev().take_while(|&&b| b == b'.').count();
    let dots = label.len() - body;
    let body = &label[..body];
    let digits_start = body
        .iter()
        .position(u8::is_ascii_digit)
        .unwrap_or(body.len());
    let digits = body[digits_start..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count()
        .min(18);
    let number = body[digits_start..digits_start + digits]
        .iter()
        .fold(0, |number, digit| number * 10 + u64::from(digit - b'0'));
    let mut family = LabelHasher::default();
    std::hash::Hasher::write(&mut family, &body[..digits_start]);
    std::hash::Hasher::write_u8(&mut family, 0xFF);
    std::hash::Hasher::write(&mut family, &body[digits_start + digits..]);
    (std::hash::Hasher::finish(&family), (number, dots))
}

/// Whether, in each family of labels ([`label_family_and_place`]), every label comes after
/// the one before (and after the setup's `SetupFn.`): then no two labels are the same,
/// which is what almost every game shows. The families are few (`1W.` and `1B.`, or
/// `1S.`, `1M.`, `1C.`, `1A.`); past sixteen, the answer is no.
pub(super) fn labels_increase_by_family(moves: &[MoveRecord]) -> bool {
    const MOST_FAMILIES: usize = 16;
    let mut families = [(0u64, (0u64, 0usize)); MOST_FAMILIES];
    families[0] = label_family_and_place(SETUP_LABEL);
    let mut count = 1;
    for record in moves {
        let (family, place) = label_family_and_place(record.label());
        match families[..count].iter_mut().find(|(f, _)| *f == family) {
            Some((_, last)) if *last >= place => return false,
            Some((_, last)) => *last = place,
            None if count == MOST_FAMILIES => return false,
            None => {
                families[count] = (family, place);
                count += 1;
            }
        }
    }
    true
}

/// A fast hash for the short labels of one game (`12...`): the map of labels is rebuilt on
/// every edit, and a DoS-resistant hash is of no use on a file's own labels.
#[derive(Default)]
pub(super) struct LabelHasher(u64);

impl std::hash::Hasher for LabelHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word))
                .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
