//! The diagnostics an editor is shown of a document's: all of them up to a number, else
//! that many taken errors first, then warnings, then notes, in document order, and a note
//! where the first one left out lies, saying how many were left out. A long record whose
//! boards went astray has tens of thousands: a notation may first give each by its place
//! and kind (an [`Outline`]) and put in words only those shown, which picks the same ones
//! as putting all of them in words and sorting them would.

use std::ops::Range;

use crate::diagnostic::{Diagnostic, Severity};

/// What an editor is sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    /// In document order.
    pub diagnostics: Vec<Diagnostic>,
    /// Where the first one left out lies and how many were, when some were.
    pub note: Option<Diagnostic>,
}

/// A diagnostic known by what [`Diagnostic::sort_and_dedup`] orders first, and by
/// `source`, the notation's own way of finding it to put it in words.
#[derive(Clone, Debug)]
pub struct Outline {
    pub range: Range<usize>,
    pub severity: Severity,
    pub code: &'static str,
    pub source: usize,
}

impl Outline {
    /// The outline of a diagnostic put in words already.
    pub fn of(diagnostic: &Diagnostic, source: usize) -> Outline {
        Outline {
            range: diagnostic.range.clone(),
            severity: diagnostic.severity,
            code: diagnostic.code,
            source,
        }
    }
}

/// A diagnostic to show: put in words already (rare: boxed, so that the many outlines stay
/// small), or by its outline.
enum Entry {
    Worded(Box<Diagnostic>),
    Outlined(Outline),
}

impl Entry {
    fn severity(&self) -> Severity {
        match self {
            Entry::Worded(diagnostic) => diagnostic.severity,
            Entry::Outlined(outline) => outline.severity,
        }
    }

    fn range(&self) -> &Range<usize> {
        match self {
            Entry::Worded(diagnostic) => &diagnostic.range,
            Entry::Outlined(outline) => &outline.range,
        }
    }
}

impl Shown {
    /// Of a document's diagnostics, sorted and without repeats.
    pub fn of(diagnostics: &[Diagnostic], most: usize) -> Shown {
        let (kept, note) = pick(
            diagnostics,
            most,
            |diagnostic| diagnostic.severity,
            |d| &d.range,
        );
        Shown {
            diagnostics: kept.into_iter().cloned().collect(),
            note,
        }
    }

    /// As [`Shown::of_outlines`], from outlines that `outlines` gives again on every call,
    /// in the same order, without keeping them: see [`Shown::of_tallied_outlines`], for
    /// which one pass tallies them.
    pub fn of_outline_passes<I: Iterator<Item = Outline>>(
        outlines: impl Fn() -> I,
        most: usize,
        word: impl Fn(usize) -> Diagnostic,
    ) -> Shown {
        let mut tally = Tally::default();
        for outline in outlines() {
            tally.add(&outline);
            if tally.out_of_order {
                break;
            }
        }
        Shown::of_tallied_outlines(outlines, &tally, most, word)
    }

    /// As [`Shown::of_outlines`], from outlines that `outlines` gives again on every call,
    /// in the same order, and their `tally`, without keeping them. Outlines in order with no
    /// two at the same place, severity and code (a long record's problems, found in order)
    /// are picked in one pass that stops once the shown ones and the first one left out are
    /// found. Others are gathered for `of_outlines`.
    pub fn of_tallied_outlines<I: Iterator<Item = Outline>>(
        outlines: impl Fn() -> I,
        tally: &Tally,
        most: usize,
        word: impl Fn(usize) -> Diagnostic,
    ) -> Shown {
        if tally.out_of_order {
            return Shown::of_outlines(outlines().collect(), most, word);
        }
        let (kept, note) =
            pick_in_passes(&outlines, tally.counts, most, |o| o.severity, |o| &o.range);
        Shown {
            diagnostics: kept.into_iter().map(|o| word(o.source)).collect(),
            note,
        }
    }

    /// Of the diagnostics `outlines` stand for, in the order they were found, each put in
    /// words by `word` from its source: the same as [`Shown::of`] their words sorted and
    /// without repeats, putting in words only those shown and those that only their
    /// messages can order or tell apart (the same place, severity and code).
    pub fn of_outlines(
        mut outlines: Vec<Outline>,
        most: usize,
        word: impl Fn(usize) -> Diagnostic,
    ) -> Shown {
        // Stable, as the sort of the words is: equal words keep the order found. (Found in
        // order, as one line's problems are, they need no sort.)
        if !outlines.is_sorted_by(|a, b| key(a) <= key(b)) {
            outlines.sort_by(|a, b| key(a).cmp(&key(b)));
        }
        // Most lists have no two at the same place, severity and code: picked as they are.
        if outlines
            .windows(2)
            .all(|pair| key(&pair[0]) != key(&pair[1]))
        {
            let (kept, note) = pick(&outlines, most, |o| o.severity, |o| &o.range);
            let diagnostics = kept
                .into_iter()
                .map(|outline| word(outline.source))
                .collect();
            return Shown { diagnostics, note };
        }
        let mut entries: Vec<Entry> = Vec::with_capacity(outlines.len());
        let mut rest = outlines.into_iter().peekable();
        while let Some(outline) = rest.next() {
            if rest.peek().is_none_or(|next| key(next) != key(&outline)) {
                entries.push(Entry::Outlined(outline));
                continue;
            }
            let mut same = vec![word(outline.source)];
            while let Some(next) = rest.next_if(|next| key(next) == key(&outline)) {
                same.push(word(next.source));
            }
            same.sort_by(|a, b| a.message.cmp(&b.message));
            same.dedup();
            entries.extend(
                same.into_iter()
                    .map(|diagnostic| Entry::Worded(Box::new(diagnostic))),
            );
        }
        let (kept, note) = pick(&entries, most, Entry::severity, Entry::range);
        let diagnostics = kept
            .into_iter()
            .map(|entry| match entry {
                Entry::Worded(diagnostic) => Diagnostic::clone(diagnostic),
                Entry::Outlined(outline) => word(outline.source),
            })
            .collect();
        Shown { diagnostics, note }
    }
}

/// What orders outlines, as [`Diagnostic::sort_and_dedup`] orders diagnostics first: the
/// place, the severity and the code.
pub type OutlineKey = (usize, usize, Severity, &'static str);

fn key(outline: &Outline) -> OutlineKey {
    outline_key(&outline.range, outline.severity, outline.code)
}

/// The key of an outline made of these.
pub fn outline_key(range: &Range<usize>, severity: Severity, code: &'static str) -> OutlineKey {
    (range.start, range.end, severity, code)
}

/// How many outlines there are of each severity, and whether they come in order with no
/// two at the same place, severity and code: counted one at a time, or a run at a time
/// where a notation kept a run's own tally (a long record's problems come in tens of
/// thousands, and a pass over them all cost more than replaying a tenth of them).
#[derive(Clone, Debug, Default)]
pub struct Tally {
    counts: [usize; Severity::COUNT],
    last: Option<OutlineKey>,
    out_of_order: bool,
}

impl Tally {
    pub fn add(&mut self, outline: &Outline) {
        self.add_key(key(outline));
    }

    /// Adds the outline whose key is `key`.
    pub fn add_key(&mut self, key: OutlineKey) {
        let mut counts = [0; Severity::COUNT];
        counts[key.2 as usize] = 1;
        self.add_run(key, key, counts, true);
    }

    /// How many outlines there are of each severity.
    pub fn counts(&self) -> [usize; Severity::COUNT] {
        self.counts
    }

    /// Whether they come in order with no two at the same place, severity and code.
    pub fn in_order(&self) -> bool {
        !self.out_of_order
    }

    /// Adds a run of outlines, from the one whose key is `first` to the one whose key is
    /// `last`, of which `counts` are of each severity, `in_order` among themselves or not.
    pub fn add_run(
        &mut self,
        first: OutlineKey,
        last: OutlineKey,
        counts: [usize; Severity::COUNT],
        in_order: bool,
    ) {
        if !in_order || self.last.is_some_and(|before| before >= first) {
            self.out_of_order = true;
        }
        self.last = Some(last);
        for (count, more) in self.counts.iter_mut().zip(counts) {
            *count += more;
        }
    }
}

/// The entries shown of `entries` (in document order), and the note, if any.
fn pick<T>(
    entries: &[T],
    most: usize,
    severity: impl Fn(&T) -> Severity,
    range: impl Fn(&T) -> &Range<usize>,
) -> (Vec<&T>, Option<Diagnostic>) {
    let mut counts = [0usize; Severity::COUNT];
    for entry in entries {
        counts[severity(entry) as usize] += 1;
    }
    pick_in_passes(
        &|| entries.iter(),
        counts,
        most,
        |entry| severity(entry),
        |entry| range(entry),
    )
}

/// The entries shown of those `entries` gives (in document order, the same on every call),
/// of which `counts` are of each severity, and the note, if any.
fn pick_in_passes<T, I: Iterator<Item = T>>(
    entries: &impl Fn() -> I,
    counts: [usize; Severity::COUNT],
    most: usize,
    severity: impl Fn(&T) -> Severity,
    range: impl Fn(&T) -> &Range<usize>,
) -> (Vec<T>, Option<Diagnostic>) {
    let total: usize = counts.iter().sum();
    if total <= most {
        return (entries().collect(), None);
    }
    // The most severe first: every entry less severe than the last kind taken whole, then
    // the first ones of that kind (one pass each, where a sort of them all took as long as
    // finding them).
    let mut room = most;
    let mut taken_of = [0usize; Severity::COUNT];
    for (taken, count) in taken_of.iter_mut().zip(counts) {
        *taken = count.min(room);
        room -= *taken;
    }
    let mut kept = Vec::with_capacity(most);
    let mut first_left_out = None;
    for entry in entries() {
        let taken = &mut taken_of[severity(&entry) as usize];
        if *taken > 0 {
            *taken -= 1;
            kept.push(entry);
        } else if first_left_out.is_none() {
            first_left_out = Some(range(&entry).clone());
        }
        if kept.len() == most && first_left_out.is_some() {
            break;
        }
    }
    let note = Diagnostic::new(
        first_left_out.unwrap_or_default(),
        Severity::Information,
        "too-many-diagnostics",
        format!(
            "{most} of the document's {total} problems are listed (errors first); the {} \
             others start here. `ppn-ls --check` lists them all",
            total - most
        ),
    );
    (kept, Some(note))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Related;

    fn diagnostic(
        start: usize,
        severity: Severity,
        code: &'static str,
        message: &str,
    ) -> Diagnostic {
        Diagnostic::new(start..start + 2, severity, code, message.to_string())
    }

    #[test]
    fn all_are_shown_up_to_the_most_else_errors_first_and_a_note_where_the_rest_start() {
        let few = vec![diagnostic(0, Severity::Warning, "w", "a")];
        assert_eq!(Shown::of(&few, 1).diagnostics, few);
        assert_eq!(Shown::of(&few, 1).note, None);
        let many: Vec<Diagnostic> = (0..10)
            .map(|at| {
                let severity = if at % 3 == 0 {
                    Severity::Error
                } else {
                    Severity::Warning
                };
                diagnostic(at * 10, severity, "c", "m")
            })
            .collect();
        let shown = Shown::of(&many, 4);
        let starts: Vec<usize> = shown.diagnostics.iter().map(|d| d.range.start).collect();
        // The four errors (0, 30, 60, 90), in document order.
        assert_eq!(starts, [0, 30, 60, 90]);
        let note = shown.note.expect("a note");
        assert_eq!(note.range.start, 10);
        assert!(
            note.message.contains("4 of the document's 10"),
            "{}",
            note.message
        );
        assert!(note.message.contains("the 6 others"), "{}", note.message);
    }

    #[test]
    fn outlines_pick_what_the_sorted_words_pick() {
        // Words found in no order, some at the same place, severity and code (ordered by
        // their messages only), some repeated (dropped), some told apart only by what
        // they relate to (kept both).
        let severities = [Severity::Error, Severity::Warning, Severity::Information];
        let codes = ["a", "b"];
        let mut seed = 0x2545_f491_u64;
        let mut next = |below: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below) as usize
        };
        for round in 0..300 {
            let count = next(40);
            let found: Vec<Diagnostic> = (0..count)
                .map(|_| {
                    let mut found = diagnostic(
                        next(12),
                        severities[next(3)],
                        codes[next(2)],
                        ["x", "y", "z"][next(3)],
                    );
                    if next(4) == 0 {
                        found.related.push(Related {
                            range: 0..1,
                            message: "r".to_string(),
                        });
                    }
                    found
                })
                .collect();
            let mut sorted = found.clone();
            Diagnostic::sort_and_dedup(&mut sorted);
            let outlines: Vec<Outline> = found
                .iter()
                .enumerate()
                .map(|(source, d)| Outline::of(d, source))
                .collect();
            for most in [0, 1, 3, 10, 100] {
                // The most severe first, each kind in document order.
                let mut by_severity: Vec<usize> = (0..sorted.len()).collect();
                by_severity.sort_by_key(|&index| sorted[index].severity);
                by_severity.truncate(most);
                by_severity.sort_unstable();
                let expected: Vec<Diagnostic> = by_severity
                    .iter()
                    .map(|&index| sorted[index].clone())
                    .collect();
                assert_eq!(
                    Shown::of(&sorted, most).diagnostics,
                    expected,
                    "round {round}"
                );
                let shown =
                    Shown::of_outlines(outlines.clone(), most, |source| found[source].clone());
                assert_eq!(
                    shown,
                    Shown::of(&sorted, most),
                    "round {round}, most {most}"
                );
                let passes = Shown::of_outline_passes(
                    || outlines.iter().cloned(),
                    most,
                    |source| found[source].clone(),
                );
                assert_eq!(passes, shown, "round {round}, most {most}, in passes");
                // In order and told apart by place, severity and code: picked in passes.
                let mut distinct = sorted.clone();
                distinct.dedup_by_key(|d| (d.range.clone(), d.severity, d.code));
                let distinct_outlines: Vec<Outline> = (distinct.iter().enumerate())
                    .map(|(source, d)| Outline::of(d, source))
                    .collect();
                let worded = std::cell::Cell::new(0);
                let passes = Shown::of_outline_passes(
                    || distinct_outlines.iter().cloned(),
                    most,
                    |source| {
                        worded.set(worded.get() + 1);
                        distinct[source].clone()
                    },
                );
                assert_eq!(
                    passes,
                    Shown::of(&distinct, most),
                    "round {round}, most {most}"
                );
                assert_eq!(worded.get(), passes.diagnostics.len());
                // Tallied a run at a time; a run out of order sends them all to be sorted.
                for out_of_order in [false, true] {
                    let mut tally = Tally::default();
                    let mut rest = &distinct_outlines[..];
                    while !rest.is_empty() {
                        let (run, after) = rest.split_at(1 + next(rest.len() as u64));
                        let mut counts = [0; Severity::COUNT];
                        for outline in run {
                            counts[outline.severity as usize] += 1;
                        }
                        let ends = (key(&run[0]), key(&run[run.len() - 1]));
                        tally.add_run(ends.0, ends.1, counts, !out_of_order);
                        rest = after;
                    }
                    let tallied = Shown::of_tallied_outlines(
                        || distinct_outlines.iter().cloned(),
                        &tally,
                        most,
                        |source| distinct[source].clone(),
                    );
                    assert_eq!(tallied, passes, "round {round}, most {most}, tallied");
                }
            }
        }
    }

    #[test]
    fn in_passes_the_note_lies_at_the_first_one_left_out_after_those_shown() {
        let found: Vec<Diagnostic> = (0..6)
            .map(|at| diagnostic(at * 10, Severity::Error, "c", "m"))
            .chain([diagnostic(70, Severity::Warning, "c", "m")])
            .collect();
        let outlines: Vec<Outline> = (found.iter().enumerate())
            .map(|(source, d)| Outline::of(d, source))
            .collect();
        let shown = Shown::of_outline_passes(|| outlines.iter().cloned(), 3, |s| found[s].clone());
        assert_eq!(shown, Shown::of(&found, 3));
        assert_eq!(shown.note.expect("a note").range, 30..32);
    }

    #[test]
    fn only_the_diagnostics_shown_and_those_only_words_can_order_are_put_in_words() {
        let found: Vec<Diagnostic> = (0..1_000)
            .map(|at| diagnostic(at, Severity::Error, "c", "m"))
            .chain([diagnostic(5, Severity::Error, "c", "n")])
            .collect();
        let outlines = found
            .iter()
            .enumerate()
            .map(|(source, d)| Outline::of(d, source))
            .collect();
        let worded = std::cell::Cell::new(0);
        let shown = Shown::of_outlines(outlines, 10, |source| {
            worded.set(worded.get() + 1);
            found[source].clone()
        });
        assert_eq!(shown.diagnostics.len(), 10);
        // The two at 5 (to order them), then the eight others shown: none twice.
        assert_eq!(worded.get(), 10);
    }
}
