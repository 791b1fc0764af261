//! Move labels: the MoveNumber a move is written with, or the label before it with one
//! more dot for a `.` or `;` that continues it (`1.`, `1..`, `1...`).
//!
//! A label is kept as written up to [`MAX_WRITTEN_LABEL_BYTES`]. Past that it is written
//! `1.…(130 dots)`: its stem (shortened, with a hash of the whole, past
//! [`MAX_STEM_BYTES`]) and how many dots end it. Otherwise a MoveNumber followed by
//! 60,000 `;` (60 KB of text) would give its moves labels of 1.8 GB in all, each a dot
//! longer than the one before. Two labels are equal in the short form exactly when they
//! are as written (but for a hash collision of two stems over 40 bytes).

use std::fmt::Write;

/// The label of the state before any move.
pub const SETUP_LABEL: &str = "SetupFn.";
/// The label of moves written before the first MoveNumber.
pub const BEFORE_FIRST_MOVE_NUMBER_LABEL: &str = "SetupFn..";

/// The longest label kept as written: twice the longest of the reference's examples (68
/// bytes, a setup of 58 moves chained with `;`).
pub(super) const MAX_WRITTEN_LABEL_BYTES: usize = 128;

/// The longest stem a short form keeps whole.
const MAX_STEM_BYTES: usize = 40;

/// What a long stem keeps of its start.
const KEPT_STEM_BYTES: usize = 24;

const SHORT_FORM_BEFORE_COUNT: &str = ".…(";

/// Sets `label` to the label of a move written with the MoveNumber `written`.
pub(super) fn set_written_label(label: &mut String, written: &str) {
    label.clear();
    label.push_str(written);
    // The usual MoveNumber is its own label: only a long one needs its dots counted.
    if written.len() > MAX_WRITTEN_LABEL_BYTES {
        let stem_len = written.trim_end_matches('.').len();
        finish_label(label, stem_len, written.len() - stem_len);
    }
}

/// Makes `label` the label of a move that continues it with a `.` or a `;`.
pub(super) fn continue_label(label: &mut String) {
    // A label written in full below the bound takes one more dot as it is.
    if label.len() < MAX_WRITTEN_LABEL_BYTES && short_form_parts(label).is_none() {
        label.push('.');
        return;
    }
    let (stem, dots) = stem_and_dots(label);
    let stem_len = stem.len();
    finish_label(label, stem_len, dots.saturating_add(1));
}

/// A label's stem (what comes before the dots that end it) and how many dots end it,
/// whether it is written in full or short.
pub fn stem_and_dots(label: &str) -> (&str, usize) {
    short_form_parts(label).unwrap_or_else(|| {
        let stem = label.trim_end_matches('.');
        (stem, label.len() - stem.len())
    })
}

/// The label of `stem` followed by `dots` dots: written in full up to the bound, short past
/// it.
pub fn label_of(stem: &str, dots: usize) -> String {
    let mut label = stem.to_string();
    finish_label(&mut label, stem.len(), dots);
    label
}

/// Makes `label`, whose first `stem_len` bytes are a stem, that stem followed by `dots`
/// dots: in full when that fits the bound, else in the short form.
fn finish_label(label: &mut String, stem_len: usize, dots: usize) {
    label.truncate(stem_len);
    // A stem with `…` was shortened (no MoveNumber holds one): its label was over the bound.
    let shortened = label.contains('…');
    if !shortened && stem_len.saturating_add(dots) <= MAX_WRITTEN_LABEL_BYTES {
        label.extend(std::iter::repeat_n('.', dots));
        return;
    }
    if stem_len > MAX_STEM_BYTES {
        let hash = fnv1a(label);
        let mut kept = KEPT_STEM_BYTES;
        while !label.is_char_boundary(kept) {
            kept -= 1;
        }
        label.truncate(kept);
        let _ = write!(label, "…{hash:08x}");
    }
    let unit = if dots == 1 { "dot" } else { "dots" };
    let _ = write!(label, "{SHORT_FORM_BEFORE_COUNT}{dots} {unit})");
}

/// Whether `label` is the label before it continued by a `.` or a `;`.
pub(super) fn continues(label: &str, before: &str) -> bool {
    let mut continued = before.to_string();
    continue_label(&mut continued);
    label == continued
}

/// The stem and the count of dots of a label in the short form. No label kept as written
/// has a space: MoveNumbers are letters, digits, `_` and `.`.
fn short_form_parts(label: &str) -> Option<(&str, usize)> {
    let counted = label
        .strip_suffix(" dots)")
        .or_else(|| label.strip_suffix(" dot)"))?;
    let (stem, count) = counted.rsplit_once(SHORT_FORM_BEFORE_COUNT)?;
    Some((stem, count.parse().ok()?))
}

/// A hash that is the same in every run, so that labels are too.
fn fnv1a(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5, |hash, byte| {
        (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
    })
}

/// What users call a state: `start` for the starting board and `setup` for moves written
/// before the first MoveNumber, instead of the reference's internal `SetupFn.` labels
/// (which the JSON of `replay` keeps: it is the conformance schema).
pub fn user_label(label: &str) -> String {
    if label == SETUP_LABEL {
        return "start".to_string();
    }
    // `SetupFn..` and dots after it (written in full or short): `setup` and those dots.
    let (stem, dots) = stem_and_dots(label);
    let (setup_stem, setup_dots) = stem_and_dots(BEFORE_FIRST_MOVE_NUMBER_LABEL);
    match dots.checked_sub(setup_dots) {
        Some(extra) if stem == setup_stem => label_of("setup", extra),
        _ => label.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(text: &str) -> String {
        let mut label = String::new();
        set_written_label(&mut label, text);
        label
    }

    #[test]
    fn labels_are_kept_as_written_up_to_the_bound_then_count_their_dots() {
        let mut label = written("1.");
        for dots in 2..200 {
            continue_label(&mut label);
            let as_written = format!("1{}", ".".repeat(dots));
            if as_written.len() <= MAX_WRITTEN_LABEL_BYTES {
                assert_eq!(label, as_written);
            } else {
                assert_eq!(label, format!("1.…({dots} dots)"));
            }
            // A MoveNumber written with as many dots has the same label.
            assert_eq!(written(&as_written), label, "{dots} dots");
        }
        assert_eq!(written("12S..."), "12S...");
    }

    #[test]
    fn a_long_stem_is_shortened_with_a_hash_of_the_whole() {
        let stem = "é".repeat(70);
        let label = written(&format!("{stem}."));
        let hash = fnv1a(&stem);
        assert_eq!(label, format!("{}…{hash:08x}.…(1 dot)", "é".repeat(12)));
        let mut continued = label.clone();
        continue_label(&mut continued);
        assert_eq!(
            continued,
            format!("{}…{hash:08x}.…(2 dots)", "é".repeat(12))
        );
        assert_eq!(written(&format!("{stem}..")), continued);
        // Another stem of the same start differs.
        assert_ne!(written(&format!("{}x.", "é".repeat(69))), label);
        assert!(continues(&continued, &label));
        assert!(!continues(&label, &continued));
    }

    #[test]
    fn a_label_is_its_stem_and_dots_whatever_its_form() {
        let mut long = written("SetupFn..");
        for _ in 0..200 {
            continue_label(&mut long);
        }
        assert_eq!(long, "SetupFn.…(202 dots)");
        for label in ["1.", "12S...", "SetupFn..", long.as_str()] {
            let (stem, dots) = stem_and_dots(label);
            assert_eq!(label_of(stem, dots), label);
        }
        assert_eq!(stem_and_dots(&long), ("SetupFn", 202));
        assert_eq!(label_of("setup", 0), "setup");
    }

    #[test]
    fn a_label_continues_the_one_before_only_with_one_more_dot() {
        assert!(continues("1..", "1."));
        assert!(!continues("1...", "1."));
        assert!(!continues("2.", "1."));
        let long = format!("1{}", ".".repeat(MAX_WRITTEN_LABEL_BYTES - 1));
        assert!(continues(
            &format!("1.…({} dots)", MAX_WRITTEN_LABEL_BYTES),
            &long
        ));
    }
}
