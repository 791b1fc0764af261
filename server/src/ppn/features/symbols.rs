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
    use super::*;

    #[test]
    fn games_with_their_moves() {
        let text = "---\nEvent: Demo\nGameType: Tablut\n...\n1. S@b2 {hi} 1... M@c3\n\n---\nGameType: Four Field Kono\n...\n1. b1:b3\n\n";
        let analysis = PpnDocument::new(text.to_string());
        let symbols = document_symbols(&analysis);
        assert_eq!(symbols.len(), 2);
        let first = &symbols[0];
        assert_eq!(first.name, "Game 1: Demo");
        assert_eq!(first.detail.as_deref(), Some("Tablut"));
        let second_start = text.rfind("---").unwrap();
        assert_eq!(first.range, 0..text.find("M@c3").unwrap() + 4);
        assert_eq!(first.selection, 0..3);
        let moves: Vec<(&str, Option<&str>, &str, &str)> = first
            .children
            .iter()
            .map(|m| {
                (
                    m.name.as_str(),
                    m.detail.as_deref(),
                    &text[m.range.clone()],
                    &text[m.selection.clone()],
                )
            })
            .collect();
        assert_eq!(
            moves,
            [
                ("1.", Some("S@b2 {hi}"), "1. S@b2 {hi}", "1."),
                ("1...", Some("M@c3"), "1... M@c3", "1...")
            ]
        );
        let second = &symbols[1];
        assert_eq!(second.name, "Game 2: Four Field Kono");
        assert_eq!(second.detail, None);
        assert_eq!(second.range, second_start..text.len() - 2);
        assert_eq!(second.children.len(), 1);

        let games: Vec<Symbol> = symbols
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
        let analysis = PpnDocument::new("---\n...\nS@e5 1. e5-e4\n".to_string());
        let symbols = document_symbols(&analysis);
        let names: Vec<&str> = symbols[0]
            .children
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(names, ["setup", "1."]);
    }

    #[test]
    fn an_empty_document_has_no_symbols() {
        let analysis = PpnDocument::new(" \n\n".to_string());
        assert!(document_symbols(&analysis).is_empty());
    }
}
