//! Inlay hints: what a brace expansion expands to and what a macro stands for, written
//! after them.

use std::ops::Range;

pub use crate::model::features::{HintKind, InlayHint};
use crate::ppn::document::PpnDocument;
use crate::ppn::features::locate::{games, macro_uses, touches};
use crate::ppn::reader::braces::expand_token;

/// Labels longer than this many characters are cut after a whole expansion.
pub const MAX_LABEL_CHARS: usize = 48;

/// The hints whose position is in `range` (byte offsets).
pub fn inlay_hints(analysis: &PpnDocument, range: Range<usize>) -> Vec<InlayHint> {
    let text = &analysis.text;
    let mut hints = Vec::new();
    for game in games(analysis) {
        let game_range = &game.source.range;
        if game_range.end < range.start || game_range.start > range.end {
            continue;
        }
        let Some(state) = game.setup_state() else {
            continue;
        };
        let moves = game.moves();
        let mut sources: Vec<Range<usize>> = moves
            .iter()
            .flat_map(|record| record.tokens().map(|token| token.source.clone()))
            .filter(|source| source.end >= range.start && source.start <= range.end)
            .collect();
        sources.sort_by_key(|source| (source.start, source.end));
        sources.dedup();
        for source in sources {
            let Some(written) = text.get(source.clone()) else {
                continue;
            };
            for found in macro_uses(text, source.clone()) {
                if let Some(Ok(value)) = state.macros().resolve(&found.name) {
                    hints.push(InlayHint {
                        offset: found.range.end,
                        label: format!("= {value}"),
                        kind: HintKind::Macro,
                        tooltip: None,
                    });
                }
            }
            if written.contains('{') {
                if let Some(hint) = expansion_hint(written, source.end) {
                    hints.push(hint);
                }
            }
        }
    }
    hints.retain(|hint| touches(&range, hint.offset));
    hints.sort_by_key(|hint| hint.offset);
    hints
}

fn expansion_hint(written: &str, offset: usize) -> Option<InlayHint> {
    let expansions = expand_token(written).ok()?;
    if expansions.len() == 1 && expansions[0] == written {
        return None;
    }
    let (label, shortened) = expansion_label(&expansions);
    Some(InlayHint {
        offset,
        label,
        kind: HintKind::BraceExpansion,
        tooltip: shortened.then(|| expansions.join(" ")),
    })
}

/// `→ a b c`, or `→ a b … (+5 more)` once the label would pass [`MAX_LABEL_CHARS`];
/// the second value says whether it was shortened.
pub fn expansion_label(expansions: &[String]) -> (String, bool) {
    let mut label = "→".to_string();
    for (shown, expansion) in expansions.iter().enumerate() {
        let left = expansions.len() - shown;
        let next_len = label.chars().count() + 1 + expansion.chars().count();
        let room_for_more = if left > 1 {
            format!(" … (+{} more)", left - 1).chars().count()
        } else {
            0
        };
        if shown > 0 && next_len + room_for_more > MAX_LABEL_CHARS {
            label.push_str(&format!(" … (+{left} more)"));
            return (label, true);
        }
        label.push(' ');
        label.push_str(expansion);
    }
    (label, false)
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;
    use crate::fixture::check_inlay_hints;
    use crate::model::format::Format::Ppn;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn short_expansions_are_shown_whole() {
        assert_eq!(
            expansion_label(&strings(&["t@b2", "t@d2"])),
            ("→ t@b2 t@d2".to_string(), false)
        );
    }

    #[test]
    fn long_expansions_say_how_many_are_left_out() {
        let items: Vec<String> = (1..=10).map(|i| format!("t@b{i}")).collect();
        let (label, shortened) = expansion_label(&items);
        assert!(shortened);
        assert_eq!(label, "→ t@b1 t@b2 t@b3 t@b4 t@b5 t@b6 t@b7 … (+3 more)");
        assert!(label.chars().count() <= MAX_LABEL_CHARS);
    }

    #[test]
    fn hints_follow_braces_and_macros_in_the_range_only() {
        let text = "---\nMacros:\n  home: S@a1\n...\n1. t@{b,d}{2..8..2} `home' 2. `q'@d4 {`q'}\n";
        check_inlay_hints(
            Ppn,
            text,
            expect![[r#"
                ---
                Macros:
                  home: S@a1
                ...
                1. t@{b,d}{2..8..2}‹BraceExpansion: → t@b2 t@b4 t@b6 t@b8 t@d2 t@d4 t@d6 t@d8› `home'‹Macro: = S@a1› 2. `q'‹Macro: = ♛›@d4 {`q'}
            "#]],
        );
        check_inlay_hints(
            Ppn,
            &text.replacen("`q'@", "`q$0'@$0", 1),
            expect![[r#"
                ---
                Macros:
                  home: S@a1
                ...
                1. t@{b,d}{2..8..2} `home' 2. `q'‹Macro: = ♛›@d4 {`q'}
            "#]],
        );
    }
}
