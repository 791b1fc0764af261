//! OTN ↔ PPN. An OTN game becomes a PPN game with the same boards: on the game library's
//! Tablut or Brandubh setup when it starts from their position, else on a setup written
//! out in PPN (a board of piecepack tiles, men as coins and the king as a pawn). A PPN
//! tafl game — one of those setups, or a game this module wrote — becomes an OTN record
//! whose moves are read from the differences between consecutive boards.
//!
//! Men in PPN: coins face up are attackers, face down defenders; the king is a pawn (face
//! up for the defenders' king). On a written-out setup a coin's rank tells the man: null
//! taflman, 2 commander, 3 knight, 4 guard, 5 mercenary.

use std::fmt::Write as _;

use crate::model::notation_document::ConvertError;
use crate::model::piece::{Piece, PieceKind, Side};
use crate::otn::board::{position_record, Man, Square, TaflMan, TaflSide};
use crate::otn::document::OtnDocument;
use crate::otn::reader::moves::{capture_record, MoveType};
use crate::otn::variant::{parse_rules, Rules};

/// The game library's Tablut, as an OTN rules string (Linnaeus' rules as the piecepack
/// game plays them: edge escape, no corner squares, king strong on and next to the throne).
pub const TABLUT: &str =
    "dim:9 name:Tablut esc:e ks:c cor: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
/// The game library's Brandubh (weak king, throne hostile to no one, as OTN's example).
pub const BRANDUBH: &str =
    "dim:7 name:Brandubh ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

/// How a PPN game lays out its tafl men.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// The game library's Tablut.
    Tablut,
    /// The game library's Brandubh (its corner markers are coins of suit 3, face down).
    Brandubh,
    /// A setup written out move by move.
    Written,
}

const OTN_TAGS: [(&str, &str); 9] = [
    ("event", "Event"),
    ("site", "Site"),
    ("date", "Date"),
    ("round", "Round"),
    ("attackers", "Attackers"),
    ("defenders", "Defenders"),
    ("result", "Result"),
    ("annotator", "Annotator"),
    ("termination", "Termination"),
];

fn rank_of(kind: TaflMan) -> char {
    match kind {
        TaflMan::Taflman | TaflMan::King => 'n',
        TaflMan::Commander => '2',
        TaflMan::Knight => '3',
        TaflMan::Guard => '4',
        TaflMan::Mercenary => '5',
    }
}

/// The PPN PieceSpec of a man on a written-out setup.
fn piece_spec(man: Man) -> String {
    let side = match man.side {
        TaflSide::Attackers => 'f',
        TaflSide::Defenders => 'b',
    };
    if man.kind == TaflMan::King {
        let side = if man.side == TaflSide::Defenders {
            'f'
        } else {
            'b'
        };
        format!("p{side}")
    } else {
        format!("c{side}{}", rank_of(man.kind))
    }
}

/// A PPN MoveNumber for an OTN move address: `12.` for 12a, `12...` for 12b, one more
/// period for each later move of a berserk turn.
fn move_number(turn: u32, letter: u8) -> String {
    match letter {
        0 => format!("{turn}."),
        n => format!("{turn}{}", ".".repeat(usize::from(n) + 2)),
    }
}

fn yaml_string(value: &str) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "\"\"".to_string())
}

fn ppn_comment(text: &str) -> String {
    text.replace(['{', '}'], "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The main line of `document` as a PPN game.
pub fn to_ppn(document: &OtnDocument) -> Result<String, ConvertError> {
    let parsed = document
        .replay
        .rules
        .as_ref()
        .ok_or_else(|| ConvertError("the file has no rules to convert".to_string()))?;
    let rules = &parsed.rules;
    let line = document
        .replay
        .lines
        .first()
        .ok_or_else(|| ConvertError("the file has no game to convert".to_string()))?;
    let dim = rules.dim;
    let start = line.board(0);
    let layout = library_layout(rules, &start);
    let mut out = String::from("---\n");
    for (tag, key) in OTN_TAGS {
        if let Some(found) = document.file.tag(&document.text, tag) {
            let value = document.text[found.value.clone()].trim();
            if !value.is_empty() {
                let _ = writeln!(out, "{key}: {}", yaml_string(value));
            }
        }
    }
    match layout {
        Layout::Tablut => out.push_str("GameType: Tablut\n"),
        Layout::Brandubh => out.push_str("GameType: Brandubh\n"),
        Layout::Written => out.push_str("SetUp: None\n"),
    }
    let _ = writeln!(out, "OtnRules: {}", yaml_string(&document.rules_text()));
    out.push_str("...\n");
    if layout == Layout::Written {
        out.push_str("setup.");
        let tiles: Vec<usize> = (2..=dim.max(2)).step_by(2).collect();
        for y in &tiles {
            for x in &tiles {
                let _ = write!(out, " tb@{}", Square::new(x - 1, y - 1).name());
            }
        }
        for (index, code) in start.iter().enumerate() {
            if let Some(man) = Man::from_code(*code) {
                let _ = write!(
                    out,
                    " {}@{}",
                    piece_spec(man),
                    Square::of_index(index, dim).name()
                );
            }
        }
        out.push('\n');
    }
    let start_comment = document.comment(0, 0);
    if !start_comment.is_empty() {
        let _ = writeln!(out, "{{{}}}", ppn_comment(&start_comment));
    }
    for index in 1..line.plies.len() {
        let ply = line.plies.at(index);
        let _ = write!(out, "{}", move_number(ply.address.turn, ply.address.letter));
        match ply.moved {
            Some((_, from, to)) => {
                let _ = write!(
                    out,
                    " {}-{}",
                    Square::of_index(usize::from(from), dim).name(),
                    Square::of_index(usize::from(to), dim).name()
                );
                for (captured, man) in line.ply_captures(index) {
                    let square = Square::of_index(usize::from(*captured), dim).name();
                    if man.kind == TaflMan::Mercenary {
                        // A captured mercenary changes sides: turn its coin over.
                        let side = if man.side == TaflSide::Attackers {
                            'b'
                        } else {
                            'f'
                        };
                        let _ = write!(out, " {square}~{side}");
                    } else {
                        let _ = write!(out, " *{square}");
                    }
                }
            }
            None => {
                let _ = write!(
                    out,
                    " {{{} could not be made}}",
                    ppn_comment(document.move_text(0, index))
                );
            }
        }
        let comment = document.comment(0, index);
        if !comment.is_empty() {
            let _ = write!(out, " {{{}}}", ppn_comment(&comment));
        }
        out.push('\n');
    }
    if document.replay.lines.len() > 1 {
        let _ = writeln!(
            out,
            "{{the record's {} variation(s) are not converted}}",
            document.replay.lines.len() - 1
        );
    }
    Ok(out)
}

/// Which library setup, if any, starts from `start` with these rules.
fn library_layout(rules: &Rules, start: &[u8]) -> Layout {
    for (layout, text) in [(Layout::Tablut, TABLUT), (Layout::Brandubh, BRANDUBH)] {
        let library = parse_rules(text, 0, &mut Vec::new()).rules;
        if library.dim == rules.dim && library.start.cells == start {
            return layout;
        }
    }
    Layout::Written
}

/// The tafl board a PPN scene shows, read with `layout`'s conventions; men off the
/// `dim` × `dim` grid are errors.
pub fn read_board(pieces: &[Piece], dim: usize, layout: Layout) -> Result<Vec<u8>, String> {
    let mut cells = vec![0u8; dim * dim];
    let mut top: Vec<Option<Man>> = vec![None; dim * dim];
    for piece in pieces {
        let man = match (piece.kind, piece.side) {
            (PieceKind::Pawn, side) => {
                let defenders = layout != Layout::Written || side == Side::Face;
                Man::new(
                    if defenders {
                        TaflSide::Defenders
                    } else {
                        TaflSide::Attackers
                    },
                    TaflMan::King,
                )
            }
            (PieceKind::Coin, side) => {
                if layout == Layout::Brandubh && side == Side::Back && piece.suit == 3 {
                    continue;
                }
                let man_side = if side == Side::Face {
                    TaflSide::Attackers
                } else {
                    TaflSide::Defenders
                };
                let kind = if layout == Layout::Written {
                    match piece.rank {
                        3 => TaflMan::Commander,
                        4 => TaflMan::Knight,
                        5 => TaflMan::Guard,
                        6 => TaflMan::Mercenary,
                        _ => TaflMan::Taflman,
                    }
                } else {
                    TaflMan::Taflman
                };
                Man::new(man_side, kind)
            }
            _ => continue,
        };
        let (x, y) = (piece.x.round(), piece.y.round());
        if (piece.x - x).abs() > 1e-9
            || (piece.y - y).abs() > 1e-9
            || x < 1.0
            || y < 1.0
            || x > dim as f64
            || y > dim as f64
        {
            return Err(format!(
                "a man at ({}, {}) is off the {dim}×{dim} board",
                piece.x, piece.y
            ));
        }
        let index = (y as usize - 1) * dim + (x as usize - 1);
        top[index] = Some(man);
    }
    for (cell, man) in cells.iter_mut().zip(top) {
        *cell = man.map_or(0, Man::code);
    }
    Ok(cells)
}

/// A PPN tafl game, as the PPN side hands it over.
pub struct PpnTaflGame {
    /// The setup's name, normalised (`tablut`, `brandubh`), if the game names one.
    pub setup: Option<String>,
    /// The `OtnRules` metadata, if any.
    pub otn_rules: Option<String>,
    /// Metadata values by key.
    pub metadata: Vec<(String, String)>,
    /// Each state's label and pieces, the start first.
    pub states: Vec<(String, Vec<Piece>)>,
}

impl PpnTaflGame {
    pub fn layout(&self) -> Option<Layout> {
        match self.setup.as_deref() {
            Some("tablut") => Some(Layout::Tablut),
            Some("brandubh") => Some(Layout::Brandubh),
            _ if self.otn_rules.is_some() => Some(Layout::Written),
            _ => None,
        }
    }
}

/// Whether a PPN game with this setup and metadata is a tafl game ppn-ls converts.
pub fn is_tafl_game(setup: Option<&str>, otn_rules: bool) -> bool {
    otn_rules || matches!(setup, Some("tablut" | "brandubh"))
}

/// The OTN game record of a PPN tafl game.
pub fn from_ppn(game: &PpnTaflGame) -> Result<String, ConvertError> {
    let layout = game.layout().ok_or_else(|| {
        ConvertError("not a tafl game: use GameType Tablut or Brandubh".to_string())
    })?;
    let rules_text = match (&game.otn_rules, layout) {
        (Some(text), _) => text.clone(),
        (None, Layout::Tablut) => TABLUT.to_string(),
        (None, Layout::Brandubh) => BRANDUBH.to_string(),
        (None, Layout::Written) => unreachable!("a written setup carries its rules"),
    };
    let mut diagnostics = Vec::new();
    let parsed = parse_rules(&rules_text, 0, &mut diagnostics);
    let rules = parsed.rules;
    let dim = rules.dim;
    let mut boards = Vec::new();
    for (label, pieces) in &game.states {
        let board =
            read_board(pieces, dim, layout).map_err(|e| ConvertError(format!("{label}: {e}")))?;
        boards.push((label.clone(), board));
    }
    // A written setup starts empty and is built by its first move.
    let start_at = boards
        .iter()
        .position(|(_, b)| b.iter().any(|c| *c != 0))
        .ok_or_else(|| ConvertError("the game has no men".to_string()))?;
    let start = &boards[start_at].1;
    let start_text = if start == &rules.start.cells {
        rules_text.clone()
    } else {
        // The game starts elsewhere than the rules say: keep its own start.
        let mut own = rules.clone();
        own.start.cells = start.clone();
        own.to_otn()
    };
    let mut out = String::new();
    for (tag, key) in OTN_TAGS {
        if let Some((_, value)) = game.metadata.iter().find(|(k, _)| k == key) {
            let _ = writeln!(out, "[{tag}:{}]", value.replace([']', '['], ""));
        }
    }
    let _ = writeln!(out, "[rules:{start_text}]\n");
    let start_side = if rules.attackers_first {
        TaflSide::Attackers
    } else {
        TaflSide::Defenders
    };
    // The moves: one man to an empty square, with what left the board at the same time or
    // in the sub-moves right after it (`f1-f3;*e3`).
    struct Played {
        mover: Man,
        from: usize,
        to: usize,
        jump: bool,
        captured: Vec<(Square, Man)>,
    }
    let mut played: Vec<Played> = Vec::new();
    for pair in boards[start_at..].windows(2) {
        let ((_, before), (label, after)) = (&pair[0], &pair[1]);
        let changed: Vec<usize> = (0..before.len())
            .filter(|i| before[*i] != after[*i])
            .collect();
        if changed.is_empty() {
            continue;
        }
        let arrived: Vec<usize> = changed
            .iter()
            .copied()
            .filter(|i| before[*i] == 0)
            .collect();
        let taken = |skip: &[usize]| -> Vec<(Square, Man)> {
            changed
                .iter()
                .copied()
                .filter(|i| !skip.contains(i))
                .filter_map(|i| Man::from_code(before[i]).map(|m| (Square::of_index(i, dim), m)))
                .collect()
        };
        if arrived.is_empty() {
            match played.last_mut() {
                Some(last) => {
                    last.captured.extend(taken(&[]));
                    continue;
                }
                None => {
                    return Err(ConvertError(format!(
                        "{label}: men leave the board before any move"
                    )))
                }
            }
        }
        let [to] = arrived[..] else {
            return Err(ConvertError(format!(
                "{label}: not a tafl move (a move takes one man to an empty square)"
            )));
        };
        let mover = Man::from_code(after[to])
            .ok_or_else(|| ConvertError(format!("{label}: not a tafl move")))?;
        let from = changed
            .iter()
            .copied()
            .find(|i| after[*i] == 0 && before[*i] == after[to])
            .ok_or_else(|| {
                ConvertError(format!(
                    "{label}: the man on {} comes from nowhere",
                    Square::of_index(to, dim).name()
                ))
            })?;
        let (fx, fy) = (from % dim, from / dim);
        let (tx, ty) = (to % dim, to / dim);
        let distance = fx.abs_diff(tx).max(fy.abs_diff(ty));
        let jump = distance == 2 && {
            let over = ((fy + ty) / 2) * dim + (fx + tx) / 2;
            before[over] != 0
        };
        played.push(Played {
            mover,
            from,
            to,
            jump,
            captured: taken(&[to, from]),
        });
    }
    let mut turn = 0u32;
    let mut last_side: Option<TaflSide> = None;
    let mut line = String::new();
    for Played {
        mover,
        from,
        to,
        jump,
        captured,
    } in played
    {
        let berserk = last_side == Some(mover.side);
        if mover.side == start_side && last_side.is_some_and(|s| s != start_side) || turn == 0 {
            if turn > 0 {
                out.push_str(line.trim_end());
                out.push('\n');
                line.clear();
            }
            turn += 1;
            let _ = write!(line, "{turn}. ");
        }
        let letter = if mover.kind == TaflMan::Taflman {
            String::new()
        } else {
            mover.letter().to_string()
        };
        let _ = write!(
            line,
            "{letter}{}{}{}{} ",
            Square::of_index(from, dim).name(),
            MoveType::of(jump, berserk).symbol(),
            Square::of_index(to, dim).name(),
            capture_record(&captured)
        );
        last_side = Some(mover.side);
    }
    if !line.is_empty() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    Ok(out)
}

/// The position record of a PPN scene read with `layout`, for tests and hover.
pub fn position_of(pieces: &[Piece], dim: usize, layout: Layout) -> Result<String, String> {
    read_board(pieces, dim, layout).map(|cells| position_record(&cells, dim))
}
