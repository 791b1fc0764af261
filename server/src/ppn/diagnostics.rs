//! All diagnostics of a document, in document order.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::diagnostic::{Diagnostic, Severity};
use crate::ppn::reader::games::{split_games_checked, DocumentProblemCode};
use crate::ppn::reader::syntax;
use crate::ppn::reader::syntax::segments::DocumentSyntax;
use crate::ppn::replay::{replay_games, Replay};

pub fn check_text(text: &str) -> Vec<Diagnostic> {
    let (games, problems) = split_games_checked(text);
    let syntax = DocumentSyntax::parse(text, &games);
    diagnostics_of(text, &syntax, &replay_games(text, games, problems))
}

/// Games are checked together until they hold this many bytes: small enough that a batch's
/// syntax and boards stay in the processor's caches.
pub const CHECK_BATCH_BYTES: usize = 256 << 10;

/// [`check_text`] for tools that keep nothing but the diagnostics: the games are checked a
/// batch of about `batch_bytes` at a time, on every core, and each batch's syntax and
/// boards are let go once it is done, so memory stays that of a few batches however long
/// the file. Each game depends only on its own text, so the diagnostics are those of
/// [`check_text`].
pub fn check_text_in_batches(text: &str, batch_bytes: usize) -> Vec<Diagnostic> {
    let (games, problems) = split_games_checked(text);
    if text.len() <= batch_bytes || games.len() < 2 {
        return check_text(text);
    }
    let mut cuts = vec![0];
    for game in &games[1..] {
        if game.range.start - cuts[cuts.len() - 1] >= batch_bytes {
            cuts.push(game.range.start);
        }
    }
    let read_end = games.last().map_or(text.len(), |game| game.range.end);
    cuts.push(read_end);
    let batches: Vec<Range<usize>> = cuts.windows(2).map(|cut| cut[0]..cut[1]).collect();
    let check_batch = |batch: &Range<usize>| -> Vec<Diagnostic> {
        let shift = isize::try_from(batch.start).unwrap_or(isize::MAX);
        check_text(&text[batch.clone()])
            .iter()
            .map(|diagnostic| diagnostic.shifted(shift))
            .collect()
    };
    let workers = std::thread::available_parallelism()
        .map_or(1, |cores| cores.get())
        .min(batches.len());
    let by_batch: Vec<Vec<Diagnostic>> = if workers <= 1 {
        // One core, or none to ask (the browser): no thread to start.
        batches.iter().map(check_batch).collect()
    } else {
        check_on_threads(workers, &batches, &check_batch)
    };
    let mut diagnostics: Vec<Diagnostic> = by_batch.into_iter().flatten().collect();
    // Only the whole file can be over the budget of games; what lies past it is not read.
    diagnostics.extend(
        problems
            .into_iter()
            .filter(|problem| problem.code == DocumentProblemCode::TooManyGames)
            .map(|problem| {
                Diagnostic::new(
                    problem.range,
                    problem.code.severity(),
                    problem.code.as_str(),
                    problem.message,
                )
            }),
    );
    diagnostics
}

/// Syntax errors plus the replay's diagnostics, sorted, each reported once.
pub fn diagnostics_of(text: &str, syntax: &DocumentSyntax, replay: &Replay) -> Vec<Diagnostic> {
    // A comment left open swallows the rest of the movetext, and the grammar's recovery
    // from it can blame text far before the brace (up to the start of the file): the
    // movetext's own report of the brace says what is wrong, and where.
    let unclosed: Vec<usize> = replay
        .diagnostics
        .iter()
        .filter(|d| d.code == syntax::UNCLOSED_COMMENT)
        .map(|d| d.range.start)
        .collect();
    let mut diagnostics: Vec<Diagnostic> = syntax
        .errors()
        .filter(|error| {
            error.code != syntax::SYNTAX_ERROR
                || !unclosed.iter().any(|brace| error.range.contains(brace))
        })
        .map(|error| Diagnostic {
            related: Vec::new(),
            fixes: Vec::new(),
            range: error.range,
            severity: Severity::Error,
            code: error.code,
            message: error.message,
        })
        .collect();
    // Where the text does not parse, or braces could not be expanded, what the replay makes
    // of the raw text is noise. The grammar's recovery from a comment left open may reach
    // back before the brace and over later games: only the rest of the brace's game is
    // broken by it.
    let game_end = |offset: usize| {
        replay
            .games
            .iter()
            .find(|game| game.range.contains(&offset))
            .map_or(text.len(), |game| game.range.end)
    };
    let mut broken: Vec<Range<usize>> = syntax
        .broken_spans()
        .map(
            |span| match unclosed.iter().find(|brace| span.contains(brace)) {
                Some(&brace) => brace..span.end.min(game_end(brace)),
                None => span,
            },
        )
        .collect();
    broken.extend(
        replay
            .diagnostics
            .iter()
            .filter(|d| d.code == "brace-expansion")
            .map(|d| d.range.clone()),
    );
    diagnostics.extend(
        replay
            .diagnostics
            .iter()
            .filter(|d| {
                d.code == "brace-expansion"
                    || d.code == syntax::UNCLOSED_COMMENT
                    || !broken.iter().any(|span| overlaps(span, &d.range))
            })
            .cloned(),
    );
    crate::ppn::consequences::refine(text, replay, &mut diagnostics);
    sort_diagnostics(&mut diagnostics);
    diagnostics
}

fn overlaps(span: &Range<usize>, range: &Range<usize>) -> bool {
    range.start < span.end.max(span.start + 1) && span.start < range.end.max(range.start + 1)
}

fn sort_diagnostics(diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.sort_by(|a, b| {
        (a.range.start, a.range.end, a.severity, a.code).cmp(&(
            b.range.start,
            b.range.end,
            b.severity,
            b.code,
        ))
    });
    // The grammar and the movetext splitter both see an unclosed comment: report it once.
    diagnostics.dedup_by(|later, earlier| {
        later.range.start == earlier.range.start && later.code == earlier.code
    });
}

/// `check` of each batch, on `workers` threads taking the next batch as they finish one.
fn check_on_threads(
    workers: usize,
    batches: &[Range<usize>],
    check: &(dyn Fn(&Range<usize>) -> Vec<Diagnostic> + Sync),
) -> Vec<Vec<Diagnostic>> {
    let next = AtomicUsize::new(0);
    let mut by_batch: Vec<Vec<Diagnostic>> = vec![Vec::new(); batches.len()];
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(batch) = batches.get(index) else {
                            return done;
                        };
                        done.push((index, check(batch)));
                    }
                })
            })
            .collect();
        for handle in handles {
            match handle.join() {
                Ok(done) => {
                    for (index, diagnostics) in done {
                        by_batch[index] = diagnostics;
                    }
                }
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    by_batch
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    use crate::fixture::{check_diagnostics, diagnostic_codes};
    use crate::model::format::Format::Ppn;

    #[test]
    fn reports_yaml_and_movetext_problems_in_document_order() {
        let text = "---\nGameType: [oops\n...\n1. S@a1 { never closed\n";
        assert_eq!(
            diagnostic_codes(Ppn, text),
            ["yaml-error", "unclosed-comment"]
        );
        let diagnostics = check_text(text);
        assert_eq!(&text[diagnostics[1].range.clone()][..1], "{");
    }

    #[test]
    fn a_run_of_unclosed_braces_is_reported_at_the_first_brace() {
        for braces in [1, 5, 20, 200] {
            let text = format!("---\n...\n1. {}\n", "{".repeat(braces));
            let found: Vec<_> = check_text(&text)
                .into_iter()
                .map(|d| (d.code, d.range.start))
                .collect();
            assert_eq!(found, [("unclosed-comment", 11)], "{braces} braces");
        }
    }

    #[test]
    fn a_brace_expansion_over_its_cap_is_reported_once() {
        let text = "1. S@{a..z}{1..999999999} 2. S@a1\n";
        assert_eq!(diagnostic_codes(Ppn, text), ["brace-expansion"]);
    }

    #[test]
    fn reports_syntax_and_replay_problems_together() {
        check_diagnostics(
            Ppn,
            "1. S@b2 ] 2. *c5\n",
            expect![[r#"
                error unexpected-token 1:9-1:10 "]": unexpected `]`: there is no `[` to close
                error no-piece 1:15-1:17 "c5": there is no piece at `c5`
            "#]],
        );
    }
}
