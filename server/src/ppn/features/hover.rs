//! Hover: what the thing under the cursor means, in words and diagrams (Markdown).
//!
//! - a move or its MoveNumber: what the move changed, with the board after it;
//! - a PieceSpec: the piece it describes, with every assumption made;
//! - a PieceId: the pieces it names just before its token is played, marked on the board
//!   before the move;
//! - a macro: its value and where it is defined;
//! - the `GameType` / `SetUp` value: the game and its starting board.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::ops::Range;

use serde_yaml::{Mapping, Value};

use crate::model::notation_document::{HoverBoard, StateRef};
use crate::model::piece::Piece;
use crate::ppn::document::PpnDocument;
use crate::ppn::features::completion::METADATA_KEYS;
use crate::ppn::features::locate::{covers, element_at, game_at, move_at, GameAt};
use crate::ppn::features::navigation::{macro_at, macro_info, MacroOrigin};
use crate::ppn::reader::metadata::scalar_text;
use crate::ppn::reader::movetext::user_label;
use crate::ppn::reader::movetext::MoveRecord;
use crate::ppn::reader::piece_id::PieceId;
use crate::ppn::reader::piece_spec::PieceSpec;
use crate::ppn::replay::UNSEEDED_SETUP_SEED;
use crate::ppn::rules::setups::{
    known_games, normalize_name, normalize_system, setup_from_metadata_seeded, GameInfo,
    SetupContext,
};
use crate::ppn::rules::state::GameState;
use crate::ppn::rules::TokenPart;
use crate::render::text::diagram_of_pieces;
use crate::render::words::{describe_piece, location_name};

/// What to show, and the text it is about.
#[derive(Clone, Debug, PartialEq)]
pub struct HoverInfo {
    pub range: Range<usize>,
    pub markdown: String,
    /// The board to draw below the text (the editor draws it, as it draws every board).
    pub board: Option<HoverBoard>,
}

/// Lists of pieces longer than this are cut, saying how many were left out.
const MAX_LISTED: usize = 12;

/// The hover at byte `offset`; `None` where there is nothing to say.
pub fn hover(analysis: &PpnDocument, offset: usize) -> Option<HoverInfo> {
    let text = &analysis.text;
    if let Some(found) = macro_at(analysis, offset) {
        return Some(HoverInfo {
            markdown: macro_markdown(text, &found.game, &found.name),
            range: found.range,
            board: None,
        });
    }
    let game = game_at(analysis, offset)?;
    if let Some(found) = metadata_key_hover(text, &game, offset) {
        return Some(found);
    }
    if let Some((key, range)) = game.metadata_value_at(text, offset) {
        return matches!(key.as_str(), "GameType" | "SetUp").then(|| HoverInfo {
            markdown: setup_markdown(&game, &key),
            range,
            board: None,
        });
    }
    let moves = game.moves();
    if let Some(element) = element_at(text, &game, moves, offset) {
        let written = text.get(element.range.clone()).unwrap_or_default();
        let found = match &element.part {
            TokenPart::PieceSpec(spec) => {
                Some((spec_markdown(written, spec, &element.state), None))
            }
            TokenPart::PieceId { id, text: submove } => Some((
                piece_id_markdown(written, id, submove, &element.state),
                named_on_board_before(&game, moves, offset, id, submove, &element.state),
            )),
            // A destination is best explained by the board after the move.
            TokenPart::Location(_) => None,
        };
        if let Some((markdown, board)) = found {
            return Some(HoverInfo {
                range: element.range,
                markdown,
                board,
            });
        }
    }
    let index = move_at(moves, offset)?;
    let record = &moves[index];
    Some(HoverInfo {
        markdown: move_markdown(&game, record, index),
        range: record.source().clone(),
        board: Some(HoverBoard {
            state: StateRef {
                game: game.index,
                index: index + 1,
            },
            label: user_label(record.label()),
            marked: None,
        }),
    })
}

/// The board before the move holding a PieceId, with the pieces it names marked (found
/// by what they are and where they lie, as the move's earlier tokens may have moved them).
fn named_on_board_before(
    game: &GameAt<'_>,
    moves: &[MoveRecord],
    offset: usize,
    id: &PieceId,
    submove: &str,
    state: &GameState,
) -> Option<HoverBoard> {
    let index = move_at(moves, offset)?;
    let before = game.game.game_state(index)?;
    let named = state.identify(id, submove).ok()?;
    let marked: Vec<usize> = before
        .pieces()
        .iter()
        .enumerate()
        .filter(|(_, piece)| named.contains(piece))
        .map(|(i, _)| i)
        .collect();
    Some(HoverBoard {
        state: StateRef {
            game: game.index,
            index,
        },
        label: format!("before {}", user_label(moves[index].label())),
        marked: Some(marked),
    })
}

/// What a known top-level metadata key is for, on the key itself.
fn metadata_key_hover(text: &str, game: &GameAt<'_>, offset: usize) -> Option<HoverInfo> {
    let source = game.game.metadata.source.as_ref()?;
    if !covers(source, offset) {
        return None;
    }
    // `get`: an offset inside a character names no key.
    let line_start = text
        .get(source.start..offset)?
        .rfind(['\n', '\r'])
        .map_or(source.start, |at| source.start + at + 1);
    let line = &text[line_start..];
    let key = &line[..line.find(':')?];
    let range = line_start..line_start + key.len();
    if key.is_empty() || key.starts_with([' ', '\t']) || !covers(&range, offset) {
        return None;
    }
    let (name, about) = METADATA_KEYS.iter().find(|(name, _)| *name == key)?;
    Some(HoverInfo {
        range,
        markdown: format!("**Metadata** `{name}`: {about}"),
        board: None,
    })
}

/// `text` as a Markdown code span, whatever backticks it holds.
fn code(text: &str) -> String {
    let longest_run = text
        .split(|c| c != '`')
        .map(str::len)
        .max()
        .unwrap_or_default();
    let fence = "`".repeat(longest_run + 1);
    if longest_run == 0 {
        format!("{fence}{text}{fence}")
    } else {
        format!("{fence} {text} {fence}")
    }
}

fn board_block(pieces: &[Piece]) -> String {
    format!("```text\n{}```", diagram_of_pieces(pieces))
}

fn piece_with_place(piece: &Piece) -> String {
    format!(
        "{} at {}",
        describe_piece(piece),
        location_name(piece.x, piece.y)
    )
}

fn bullet_list(out: &mut String, items: &[String]) {
    for item in items.iter().take(MAX_LISTED) {
        let _ = writeln!(out, "- {item}");
    }
    if items.len() > MAX_LISTED {
        let _ = writeln!(out, "- … and {} more", items.len() - MAX_LISTED);
    }
}

fn macro_markdown(text: &str, game: &GameAt<'_>, name: &str) -> String {
    let info = macro_info(text, game, name);
    let written = format!("`{name}'");
    let mut out = format!("**Macro** {}", code(&written));
    match &info.value {
        Ok(value) => {
            let _ = write!(out, " stands for {}", code(value));
        }
        Err(problem) => {
            let _ = write!(out, ": {problem}");
        }
    }
    out.push_str("\n\n");
    let origin = match &info.origin {
        Some(MacroOrigin::Metadata { .. }) => "Defined in this game's metadata, under `Macros`.",
        Some(MacroOrigin::Setup) => "Defined by this game's setup (`GameType` / `SetUp`).",
        Some(MacroOrigin::BuiltIn) => "A built-in macro.",
        None => "Not defined in this game.",
    };
    out.push_str(origin);
    out
}

fn spec_markdown(written: &str, spec: &PieceSpec, state: &GameState) -> String {
    let mut out = format!("**PieceSpec** {}", code(written));
    match spec.complete(state.parser_options(), &mut Vec::new()) {
        Ok(template) => {
            let piece = Piece {
                kind: template.kind,
                side: template.side,
                suit: template.suit,
                rank: template.rank,
                cfg: template.cfg,
                x: 0.0,
                y: 0.0,
                angle: template.angle,
            };
            let _ = write!(out, ": {}", describe_piece(&piece));
            let stated = stated_features(spec);
            let _ = write!(
                out,
                "\n\n{}",
                if stated.is_empty() {
                    "Nothing is written: everything is assumed.".to_string()
                } else {
                    format!("Written: {}; the rest is assumed.", stated.join(", "))
                }
            );
        }
        Err(problem) => {
            let _ = write!(out, ": {}", problem.message);
        }
    }
    out
}

fn stated_features(spec: &PieceSpec) -> Vec<&'static str> {
    let stated = &spec.stated;
    [
        (stated.kind.is_some(), "kind"),
        (stated.side.is_some(), "side"),
        (stated.suit.is_some(), "suit"),
        (stated.rank.is_some(), "rank"),
        (stated.angle.is_some(), "angle"),
        (stated.cfg.is_some(), "configuration"),
    ]
    .into_iter()
    .filter_map(|(present, name)| present.then_some(name))
    .collect()
}

fn piece_id_markdown(written: &str, id: &PieceId, submove: &str, state: &GameState) -> String {
    let shown = if written.is_empty() {
        "(empty: the last active pieces)".to_string()
    } else {
        code(written)
    };
    let mut out = format!("**PieceId** {shown}");
    match state.identify(id, submove) {
        Ok(pieces) => {
            let count = pieces.len();
            let _ = writeln!(
                out,
                " names {count} piece{} here:\n",
                if count == 1 { "" } else { "s" }
            );
            let items: Vec<String> = pieces.into_iter().map(piece_with_place).collect();
            bullet_list(&mut out, &items);
        }
        Err(problem) => {
            let _ = write!(out, " names no piece here: {}", problem.message);
        }
    }
    out.trim_end().to_string()
}

/// What a move did to each piece, in words: added, removed, moved, turned into another.
pub fn move_changes(before: &GameState, after: &GameState) -> Vec<String> {
    let earlier: HashMap<u32, &Piece> = before.pieces_with_serials().collect();
    let later: HashMap<u32, &Piece> = after.pieces_with_serials().collect();
    let mut changes = Vec::new();
    for (serial, piece) in after.pieces_with_serials() {
        let Some(old) = earlier.get(&serial) else {
            changes.push(format!("added {}", piece_with_place(piece)));
            continue;
        };
        let moved = old.x != piece.x || old.y != piece.y;
        let same_piece = Piece {
            x: piece.x,
            y: piece.y,
            ..*(*old)
        } == *piece;
        let from = location_name(old.x, old.y);
        let to = location_name(piece.x, piece.y);
        match (moved, same_piece) {
            (false, true) => {}
            (true, true) => changes.push(format!(
                "moved {} from {from} to {to}",
                describe_piece(piece)
            )),
            (false, false) => changes.push(format!(
                "turned {} into {} at {to}",
                describe_piece(old),
                describe_piece(piece)
            )),
            (true, false) => changes.push(format!(
                "moved {} from {from} to {to}, now {}",
                describe_piece(old),
                describe_piece(piece)
            )),
        }
    }
    for (serial, piece) in before.pieces_with_serials() {
        if !later.contains_key(&serial) {
            changes.push(format!("removed {}", piece_with_place(piece)));
        }
    }
    changes
}

fn move_markdown(game: &GameAt<'_>, record: &MoveRecord, index: usize) -> String {
    let mut out = format!("**Move {}**", record.label());
    if !record.text().is_empty() {
        let _ = write!(out, " {}", code(record.text()));
    }
    if !record.comment().is_empty() {
        let _ = write!(out, " — {}", record.comment());
    }
    out.push_str("\n\n");
    let (Some(before), Some(after)) = (game.game.game_state(index), game.state_after(index)) else {
        return out;
    };
    let changes = move_changes(&before, &after);
    if changes.is_empty() {
        out.push_str("The board does not change.\n");
    } else {
        let capitalised: Vec<String> = changes.iter().map(|c| capitalise(c)).collect();
        bullet_list(&mut out, &capitalised);
    }
    out
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The game a `GameType` / `SetUp` value names: name, system, arguments, starting board.
fn setup_markdown(game: &GameAt<'_>, key: &str) -> String {
    let metadata = &game.game.metadata;
    let mut out = String::new();
    let Some(value) = metadata.get(key) else {
        return out;
    };
    let context = SetupContext::from_metadata(&Value::Mapping(Mapping::clone(&metadata.mapping)));
    let (name, system, given) = setup_name_and_arguments(value, &context.default_system);
    let _ = write!(out, "**{}**", name.as_deref().unwrap_or("(no name)"));
    let system = normalize_system(&system);
    let info = name.as_deref().and_then(|name| find_game(name, &system));
    match &info {
        Some(info) => {
            let _ = write!(
                out,
                " — setup {} of the {} system",
                code(info.name),
                code(info.system)
            );
        }
        None => {
            let _ = write!(out, " — system {}", code(&system));
        }
    }
    out.push_str("\n\n");
    if key == "GameType" && metadata.get("SetUp").is_some() {
        out.push_str("`SetUp` is given too: the board comes from it, not from `GameType`.\n\n");
    }
    if let Some(info) = &info {
        if !info.arguments.is_empty() {
            out.push_str("Arguments:\n\n");
            let items: Vec<String> = info
                .arguments
                .iter()
                .map(
                    |argument| match given.iter().find(|(name, _)| *name == argument.name) {
                        Some((_, value)) => format!("{} = {value}", code(argument.name)),
                        None => format!("{} (default {})", code(argument.name), argument.default),
                    },
                )
                .collect();
            bullet_list(&mut out, &items);
            out.push('\n');
        }
    }
    match setup_from_metadata_seeded(value, &context, UNSEEDED_SETUP_SEED) {
        Ok(setup) => {
            let _ = write!(
                out,
                "Starting board ({} piece{}):\n\n{}",
                setup.pieces.len(),
                if setup.pieces.len() == 1 { "" } else { "s" },
                board_block(&setup.pieces)
            );
        }
        Err(problem) => {
            let _ = write!(out, "No starting board: {problem}.");
        }
    }
    out
}

/// The name, the system and the other arguments of a `GameType` / `SetUp` value.
fn setup_name_and_arguments(
    value: &Value,
    default_system: &str,
) -> (Option<String>, String, Vec<(String, String)>) {
    let Value::Mapping(mapping) = value else {
        return (scalar_text(value), default_system.to_string(), Vec::new());
    };
    let mut name = None;
    let mut system = default_system.to_string();
    let mut arguments = Vec::new();
    for (key, value) in mapping {
        let Some(key) = scalar_text(key).map(|k| normalize_name(&k)) else {
            continue;
        };
        let shown = scalar_text(value).unwrap_or_else(|| {
            serde_yaml::to_string(value)
                .map(|yaml| yaml.trim().to_string())
                .unwrap_or_default()
        });
        match key.as_str() {
            "name" => name = Some(shown),
            "system" => system = shown,
            _ => arguments.push((key, shown)),
        }
    }
    (name, system, arguments)
}

/// The setup the replay uses for `name` in `system`: the system's own, else piecepack's.
fn find_game(name: &str, system: &str) -> Option<GameInfo> {
    let name = normalize_name(name);
    let games = known_games();
    let own = games
        .iter()
        .position(|g| g.name == name && g.system == system);
    let fallback = games
        .iter()
        .position(|g| g.name == name && g.system == "piecepack");
    own.or(fallback).map(|i| games[i].clone())
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;
    use crate::fixture::{check_hover, spot};
    use crate::model::format::Format::Ppn;

    const TIC_TAC_TOE: &str = "---\nEvent: Tic-Tac-Toe\n...\nsetup. t@b2\n\
                               1. S@b2 1... M@a2 {? (1... M@a1)}\n2. b2-c1 2... *a2\n";

    #[test]
    fn a_move_shows_its_changes_and_names_the_board_after_it() {
        // States: start, setup., 1., 1..., 2.: the board after move 2. is state 4.
        check_hover(
            Ppn,
            "---\nEvent: Tic-Tac-Toe\n...\nsetup. t@b2\n\
             1. S@b2 1... M@a2 {? (1... M@a1)}\n$02. b2-c1 2... *a2\n",
            expect![[r#"
                6:1-6:9 "2. b2-c1"
                **Move 2.** `b2-c1`

                - Moved null of Suns coin, back up from b2 to c1

                board: 2. (game 0, state 4)
            "#]],
        );
    }

    #[test]
    fn a_piece_id_marks_the_pieces_it_names_on_the_board_before_its_move() {
        // Before move 2. (state 3) the coin of Suns (piece 1) is the top piece on b2.
        check_hover(
            Ppn,
            "---\nEvent: Tic-Tac-Toe\n...\nsetup. t@b2\n\
             1. S@b2 1... M@a2 {? (1... M@a1)}\n2. b$02-c1 2... *a2\n",
            expect![[r#"
                6:4-6:6 "b2"
                **PieceId** `b2` names 1 piece here:

                - null of Suns coin, back up at b2

                board: before 2. (game 0, state 3), marked pieces [1]
            "#]],
        );
    }

    #[test]
    fn removals_additions_and_comments_are_described() {
        check_hover(
            Ppn,
            "---\nEvent: Tic-Tac-Toe\n...\nsetup. t@b2\n\
             1. S@b2 1... M@a2 {? (1... M@a1)}\n2. b2-c1 2... $0*a2\n",
            expect![[r#"
            6:10-6:18 "2... *a2"
            **Move 2...** `*a2`

            - Removed null of Moons coin, back up at a2

            board: 2... (game 0, state 5)
        "#]],
        );
        check_hover(
            Ppn,
            "---\nEvent: Tic-Tac-Toe\n...\nsetup. t@b2\n\
             1. S@b2 1$0... M@a2 {? (1... M@a1)}\n2. b2-c1 2... *a2\n",
            expect![[r#"
                5:9-5:34 "1... M@a2 {? (1... M@a1)}"
                **Move 1...** `M@a2` — ? (1... M@a1)

                - Added null of Moons coin, back up at a2

                board: 1... (game 0, state 3)
            "#]],
        );
    }

    #[test]
    fn flips_and_rotations_turn_a_piece_into_another_view_of_it() {
        check_hover(
            Ppn,
            "1. t@b2 $02. +b2 3. b2@>90\n",
            expect![[r#"
            1:9-1:15 "2. +b2"
            **Move 2.** `+b2`

            - Turned null of Suns tile, back up into null of Suns tile, face up at b2

            board: 2. (game 0, state 2)
        "#]],
        );
        check_hover(
            Ppn,
            "1. t@b2 2. +b2 3$0. b2@>90\n",
            expect![[r#"
            1:16-1:25 "3. b2@>90"
            **Move 3.** `b2@>90`

            - Turned null of Suns tile, face up into null of Suns tile, face up, rotated 270° at b2

            board: 3. (game 0, state 3)
        "#]],
        );
    }

    #[test]
    fn a_piece_spec_in_words() {
        check_hover(
            Ppn,
            "1. A$02<@b2 Cc3@c3\n",
            expect![[r#"
            1:4-1:7 "A2<"
            **PieceSpec** `A2<`: 2 of Arms tile, face up, rotated 90°

            Written: suit, rank, angle; the rest is assumed.
        "#]],
        );
        check_hover(
            Ppn,
            "1. A2<@b2 $0Cc3@c3\n",
            expect![[r#"
            1:11-1:14 "Cc3"
            **PieceSpec** `Cc3`: 3 of Crowns coin, back up

            Written: kind, suit, rank; the rest is assumed.
        "#]],
        );
    }

    #[test]
    fn a_piece_id_names_the_pieces_before_its_token() {
        check_hover(
            Ppn,
            "1. S@b2 M@b2 2. $0b2-c3 b2-a1 3. *d4\n",
            expect![[r#"
            1:17-1:19 "b2"
            **PieceId** `b2` names 1 piece here:

            - null of Moons coin, back up at b2

            board: before 2. (game 0, state 1), marked pieces [1]
        "#]],
        );
        // After `b2-c3` the coin of Suns is on top of b2.
        check_hover(
            Ppn,
            "1. S@b2 M@b2 2. b2-c3 b$02-a1 3. *d4\n",
            expect![[r#"
            1:23-1:25 "b2"
            **PieceId** `b2` names 1 piece here:

            - null of Suns coin, back up at b2

            board: before 2. (game 0, state 1), marked pieces [0]
        "#]],
        );
        check_hover(
            Ppn,
            "1. S@b2 M@b2 2. b2-c3 b2-a1 3. *$0d4\n",
            expect![[r#"
            1:33-1:35 "d4"
            **PieceId** `d4` names no piece here: there is no piece at `d4`
        "#]],
        );
    }

    #[test]
    fn a_macro_shows_its_value_and_origin() {
        check_hover(
            Ppn,
            "---\nMacros:\n  home: S@a1\n...\n1. `ho$0me' `q'@d4\n",
            expect![[r#"
            5:4-5:10 "`home'"
            **Macro** `` `home' `` stands for `S@a1`

            Defined in this game's metadata, under `Macros`.
        "#]],
        );
        check_hover(
            Ppn,
            "---\nMacros:\n  home: S@a1\n...\n1. `home' `$0q'@d4\n",
            expect![[r#"
            5:11-5:14 "`q'"
            **Macro** `` `q' `` stands for `♛`

            A built-in macro.
        "#]],
        );
    }

    #[test]
    fn known_metadata_keys_say_what_they_are_for() {
        check_hover(
            Ppn,
            "---\nEvent: x\nGame$0Type: Tablut\nMine: y\n...\n",
            expect![[r#"
            3:1-3:9 "GameType"
            **Metadata** `GameType`: the game played; sets up its starting board
        "#]],
        );
        check_hover(
            Ppn,
            "---\nEvent: x\nGameType: Tablut\n$0Mine: y\n...\n",
            expect!["no hover"],
        );
        check_hover(
            Ppn,
            "---\nEvent$0: x\nGameType: Tablut\nMine: y\n...\n",
            expect!["no hover"],
        );
    }

    #[test]
    fn the_game_type_shows_the_game_and_its_board() {
        check_hover(
            Ppn,
            "---\nGameType: Fou$0r Field Kono\n...\n1. b1:b3\n",
            expect![[r#"
                2:11-2:26 "Four Field Kono"
                **Four Field Kono** — setup `four_field_kono` of the `piecepack` system

                Starting board (20 pieces):

                ```text
                  ┌─┰─┬─┰─┐
                4 │☀┃☀│☾┃☾│
                  ┝━╋━┿━╋━┥
                3 │☀┃☀│☾┃☾│
                  ├─╂─┼─╂─┤
                2 │⚜┃⚜│♛┃♛│
                  ┝━╋━┿━╋━┥
                1 │⚜┃⚜│♛┃♛│
                  └─┸─┴─┸─┘
                   a b c d
                Key: ☀ Suns, ☾ Moons, ♛ Crowns, ⚜ Arms; coins show their rank, or their suit when back up
                ```
            "#]],
        );
    }

    #[test]
    fn nothing_between_moves_and_astral_glyphs_are_whole_specs() {
        check_hover(
            Ppn,
            "---\nEvent: Tic-Tac-Toe\n...\nsetup. t@b2\n\
             1. S@b2 1... M@a2 {? (1... M@a1)}\n2. b2-c1$0 2... *a2\n",
            expect!["no hover"],
        );
        let analysis = PpnDocument::new(TIC_TAC_TOE.to_string());
        assert_eq!(hover(&analysis, TIC_TAC_TOE.len() + 3), None);
        // Inside the glyph's bytes as much as on its first one.
        let astral = "1. 🂡@b2 🁣@c3\n";
        let analysis = PpnDocument::new(astral.to_string());
        let card = hover(&analysis, astral.find('@').unwrap() - 1).unwrap();
        expect![[r#"
            1:4-1:5 "🂡"
            **PieceSpec** `🂡`: 1 of Spades card, face up

            Written: kind, suit, rank; the rest is assumed."#]]
        .assert_eq(&format!("{}\n{}", spot(astral, &card.range), card.markdown));
    }
}
