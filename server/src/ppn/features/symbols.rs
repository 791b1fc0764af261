//! Document symbols: the games of a file, each with its moves.

use std::ops::Range;

pub use crate::model::features::{Symbol, SymbolKind};
use crate::ppn::document::PpnDocument;
use crate::ppn::features::locate::games;

/// One symbol per game (skipping stretches of only whitespace), with its moves as children.
pub fn document_symbols(analysis: &PpnDocument) -> Vec<Symbol> {
    symbols(analysis, true)
}

/// One symbol per game, without its moves (a long game has a hundred thousand).
pub fn game_symbols(analysis: &PpnDocument) -> Vec<Symbol> {
    symbols(analysis, false)
}

fn symbols(analysis: &PpnDocument, with_moves: bool) -> Vec<Symbol> {
    let text = &analysis.text;
    games(analysis)
        .into_iter()
        .filter_map(|game| {
            let range = trimmed(text, game.source.range.clone())?;
            let first_line_end = text[range.clone()]
                .find(['\n', '\r'])
                .map_or(range.end, |at| range.start + at);
            let event = game.metadata_text("Event");
            let game_type = game
                .metadata_text("GameType")
                .or_else(|| game.metadata_text("SetUp"));
            let mut name = format!("Game {}", game.index + 1);
            if let Some(title) = event.as_ref().or(game_type.as_ref()) {
                name.push_str(": ");
                name.push_str(title);
            }
            let moves = if with_moves { game.moves() } else { &[] };
            let children = moves
                .iter()
                .map(|record| Symbol {
                    name: crate::ppn::reader::movetext::user_label(record.label()),
                    detail: Some(match record.comment().is_empty() {
                        true => record.text().to_string(),
                        false => format!("{} {{{}}}", record.text(), record.comment()),
                    }),
                    kind: SymbolKind::Move,
                    selection: record
                        .label_source()
                        .clone()
                        .unwrap_or_else(|| record.source().clone()),
                    range: record.source().clone(),
                    children: Vec::new(),
                })
                .collect();
            Some(Symbol {
                name,
                detail: game_type.filter(|_| event.is_some()),
                kind: SymbolKind::Game,
                selection: range.start..first_line_end,
                range,
                children,
            })
        })
        .collect()
}

/// `range` without the whitespace at its ends; `None` if nothing else is left.
fn trimmed(text: &str, range: Range<usize>) -> Option<Range<usize>> {
    let slice = text.get(range.clone())?;
    let start = range.start + (slice.len() - slice.trim_start().len());
    let end = range.start + slice.trim_end().len();
    (start < end).then_some(start..end)
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;
    use crate::fixture::check_symbols;
    use crate::model::format::Format::Ppn;

    #[test]
    fn games_with_their_moves() {
        let text = "---\nEvent: Demo\nGameType: Tablut\n...\n1. S@b2 {hi} 1... M@c3\n\n---\nGameType: Four Field Kono\n...\n1. b1:b3\n\n";
        check_symbols(
            Ppn,
            text,
            expect![[r#"
                Game Game 1: Demo (Tablut) at 1:1-1:4 "---", covering 1:1-5:23
                  Move 1. (S@b2 {hi}) at 5:1-5:3 "1.", covering 5:1-5:13 "1. S@b2 {hi}"
                  Move 1... (M@c3) at 5:14-5:18 "1...", covering 5:14-5:23 "1... M@c3"
                Game Game 2: Four Field Kono at 7:1-7:4 "---", covering 7:1-10:9
                  Move 1. (b1:b3) at 10:1-10:3 "1.", covering 10:1-10:9 "1. b1:b3"
            "#]],
        );
        // The games alone are the outline's games without their moves.
        let analysis = PpnDocument::new(text.to_string());
        let games: Vec<Symbol> = document_symbols(&analysis)
            .iter()
            .map(|game| Symbol {
                children: Vec::new(),
                ..game.clone()
            })
            .collect();
        assert_eq!(game_symbols(&analysis), games);
    }

    #[test]
    fn moves_before_the_first_move_number_are_called_setup() {
        check_symbols(
            Ppn,
            "---\n...\nS@e5 1. e5-e4\n",
            expect![[r#"
                Game Game 1 at 1:1-1:4 "---", covering 1:1-3:14
                  Move setup (S@e5) at 3:1-3:5 "S@e5", covering 3:1-3:5 "S@e5"
                  Move 1. (e5-e4) at 3:6-3:8 "1.", covering 3:6-3:14 "1. e5-e4"
            "#]],
        );
    }

    #[test]
    fn an_empty_document_has_no_symbols() {
        check_symbols(Ppn, " \n\n", expect![[""]]);
    }
}
