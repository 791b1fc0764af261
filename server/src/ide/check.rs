//! All diagnostics of a document, in document order.

use crate::diagnostic::{Diagnostic, Severity};
use crate::notation::document::split_games_checked;
use crate::notation::metadata::parse_metadata;
use crate::notation::movetext::split_movetext;
use crate::syntax;

pub fn check_text(text: &str) -> Vec<Diagnostic> {
    let tree = syntax::parse(text, None);
    let mut diagnostics: Vec<Diagnostic> = syntax::syntax_errors(&tree, text)
        .into_iter()
        .map(|error| Diagnostic {
            range: error.range,
            severity: Severity::Error,
            code: error.code,
            message: error.message,
        })
        .collect();
    let (games, problems) = split_games_checked(text);
    diagnostics.extend(problems.into_iter().map(|problem| Diagnostic {
        range: problem.range,
        severity: Severity::Warning,
        code: problem.code.as_str(),
        message: problem.message,
    }));
    for game in &games {
        let (_metadata, metadata_diagnostics) = parse_metadata(text, game.metadata.clone());
        diagnostics.extend(metadata_diagnostics);
        let split = split_movetext(text, game.movetext.clone());
        diagnostics.extend(split.problems.into_iter().map(|problem| Diagnostic {
            range: problem.range,
            severity: problem.severity,
            code: problem.code.as_str(),
            message: problem.message,
        }));
    }
    sort_diagnostics(&mut diagnostics);
    diagnostics
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_yaml_and_movetext_problems_in_document_order() {
        let text = "---\nGameType: [oops\n...\n1. a1-a2 { never closed\n";
        let diagnostics = check_text(text);
        let codes: Vec<_> = diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["yaml-error", "unclosed-comment"]);
        assert_eq!(&text[diagnostics[1].range.clone()][..1], "{");
    }
}
