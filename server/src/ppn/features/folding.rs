//! Folding ranges: games, metadata blocks, and comments spanning several lines.

pub use crate::model::features::{Fold, FoldKind};
use crate::ppn::document::PpnDocument;
use crate::ppn::features::locate::games;

/// Every fold of the document, sorted by start line, each spanning at least two lines.
pub fn folding_ranges(analysis: &PpnDocument) -> Vec<Fold> {
    let text = &analysis.text;
    let lines = &analysis.line_index;
    let mut folds = Vec::new();
    let mut push = |start: usize, end: usize, kind| {
        let (start_line, end_line) = (lines.line_of(start), lines.line_of(end));
        if end_line > start_line {
            folds.push(Fold {
                start_line,
                end_line,
                kind,
            });
        }
    };
    for game in games(analysis) {
        let range = game.source.range.clone();
        let content_end = range.start + text[range.clone()].trim_end().len();
        if content_end > range.start {
            push(range.start, content_end - 1, FoldKind::Region);
        }
        if let Some(metadata) = &game.source.metadata {
            // Through the `...` line, which ends where the movetext starts.
            let end = game.source.movetext.start.max(metadata.end);
            let last = text[metadata.start..end].trim_end().len();
            if last > 0 {
                push(metadata.start, metadata.start + last - 1, FoldKind::Region);
            }
        }
    }
    for comment in analysis.syntax.comments() {
        if comment.end > comment.start {
            push(comment.start, comment.end - 1, FoldKind::Comment);
        }
    }
    folds.sort_by_key(|fold| (fold.start_line, fold.end_line));
    folds
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::fixture::check_folds;
    use crate::model::format::Format::Ppn;

    #[test]
    fn games_metadata_and_long_comments_fold() {
        check_folds(
            Ppn,
            "---\nEvent: Demo\nRound: 1\n...\n1. S@b2 {a comment\nover two lines} 2. M@c3 {short}\n\n---\nEvent: Two\n...\n1. S@a1\n",
            expect![[r#"
                Region lines 1-6
                Region lines 2-4
                Comment lines 5-6
                Region lines 8-11
                Region lines 9-10
            "#]],
        );
    }

    #[test]
    fn one_line_games_do_not_fold() {
        check_folds(Ppn, "1. S@b2 {x}\n", expect![[""]]);
    }
}
