//! A file of an older PPN version rewritten as PPN 0.14 writes it (`ppn-ls migrate`): the
//! fixes of every old form [`crate::ppn::versions`] reports, made until none is left.

use std::ops::Range;

use crate::diagnostic::Diagnostic;
use crate::model::edit::with_replacements;
use crate::ppn::document::PpnDocument;
use crate::ppn::versions::OLD_FORM_CODES;

/// Every form of an older PPN version in `text` rewritten as PPN 0.14 writes it, with the
/// diagnostics of what changed. Repeats until nothing more changes (a rewrite can
/// uncover another form).
pub fn migrate(text: &str) -> (String, Vec<Diagnostic>) {
    let mut current = text.to_string();
    let mut applied = Vec::new();
    for _ in 0..4 {
        let analysis = PpnDocument::new(current.clone());
        let mut fixable: Vec<&Diagnostic> = analysis
            .diagnostics
            .iter()
            .filter(|d| OLD_FORM_CODES.contains(&d.code) && !d.fixes.is_empty())
            .collect();
        if fixable.is_empty() {
            break;
        }
        fixable.sort_by_key(|d| d.range.start);
        let mut edits: Vec<(Range<usize>, String)> = Vec::new();
        for diagnostic in fixable {
            let fix_edits = &diagnostic.fixes[0].edits;
            let overlaps = fix_edits.iter().any(|(range, _)| {
                edits
                    .iter()
                    .any(|(taken, _)| range.start < taken.end && taken.start < range.end)
            });
            if !overlaps {
                edits.extend(fix_edits.iter().cloned());
                applied.push(diagnostic.clone());
            }
        }
        current = with_replacements(&current, &edits);
    }
    (current, applied)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ppn::diagnostics::check_text;

    /// Each diagnostic's code and the text it covers.
    fn found(text: &str) -> Vec<(&'static str, String)> {
        check_text(text)
            .into_iter()
            .map(|d| (d.code, text[d.range].to_string()))
            .collect()
    }

    #[test]
    fn old_forms_are_migrated() {
        let text = "---\nGameType: Four Field Kono\n...\n1. b1*b3\n";
        assert_eq!(found(text), [("old-capture", "b1*b3".to_string())]);
        let (migrated, applied) = migrate(text);
        assert_eq!(migrated, "---\nGameType: Four Field Kono\n...\n1. b1:b3\n");
        assert_eq!(applied.len(), 1);
        assert!(check_text(&migrated).is_empty());
        // A remove after a move is PPN 0.14 too.
        assert!(found("---\n...\n1. S@b2 M@c3 b2-c2*c3\n").is_empty());

        let pyramids = "---\n...\n1. △K3@a1 △@b2\n";
        assert_eq!(
            found(pyramids),
            [
                ("old-icehouse-pyramid", "△K3".to_string()),
                ("old-icehouse-pyramid", "△".to_string()),
            ]
        );
        let (migrated, _) = migrate(pyramids);
        assert_eq!(migrated, "---\n...\n1. ▲K3@a1 ▲R@b2\n");
        assert!(
            check_text(&migrated).is_empty(),
            "{:?}",
            check_text(&migrated)
        );

        let macros = "---\nMacros:\n  row: S@{a,b}1\n...\n1. `row'\n";
        assert_eq!(found(macros), [("braces-in-macro", "`row'".to_string())]);
        let (migrated, _) = migrate(macros);
        assert!(migrated.ends_with("1. S@{a,b}1\n"), "{migrated}");
        assert!(check_text(&migrated).is_empty());
    }
}
