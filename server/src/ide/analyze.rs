//! Every notation through one path: the analysis of a file in whatever format it is in,
//! and the editor features that are the same for all of them (hover boards, the board
//! panel, quick fixes), built on [`NotationDocument`] alone.

use std::ops::Range;
use std::path::Path;

use crate::diagnostic::{Diagnostic, Fix};
use crate::ide::plain_text::plain_text;
use crate::ide::viewer::state_caption;
use crate::model::format::Format;
use crate::model::notation_document::{HoverBoard, LineState, NotationDocument, StateRef};
use crate::model::piece::Piece;
use crate::model::scene::Scene;
use crate::otn::document::OtnDocument;
use crate::ppn::diagnostics::{check_text_in_batches, CHECK_BATCH_BYTES};
use crate::ppn::document::PpnDocument;
use crate::render::svg::{animation, svg, Frame, SvgOptions};
use crate::render::text::{diagram, BoardStyle, TextOptions};
use crate::xiangqi::XiangqiDocument;

/// The analysis of `text`, read in the format its path and content say.
pub fn analyze(path: Option<&Path>, text: String) -> Box<dyn NotationDocument> {
    analyze_as(Format::detect(path, &text), text)
}

/// The analysis of `text` read as `format`.
pub fn analyze_as(format: Format, text: String) -> Box<dyn NotationDocument> {
    match format {
        Format::Ppn => Box::new(PpnDocument::new(text)),
        Format::Otn => Box::new(OtnDocument::new(text)),
        Format::AnnoFen | Format::Xay | Format::Fen | Format::Wxf => {
            Box::new(XiangqiDocument::new(format, text))
        }
    }
}

/// The boards of `text` read as `format`, for tools that show them and nothing else
/// (`replay`, `render`): a PPN document's syntax is not read (see
/// [`PpnDocument::boards_only`]); the other notations need theirs to replay.
pub fn analyze_boards(path: Option<&Path>, text: String) -> Box<dyn NotationDocument> {
    match Format::detect(path, &text) {
        Format::Ppn => Box::new(PpnDocument::boards_only(text)),
        format => analyze_as(format, text),
    }
}

/// The diagnostics of `text` read as `format`, for tools that need nothing else
/// (`--check`): a long PPN file is checked a batch of games at a time, so its memory is
/// that of one batch.
pub fn check_as(format: Format, text: &str) -> Vec<Diagnostic> {
    match format {
        Format::Ppn => check_text_in_batches(text, CHECK_BATCH_BYTES),
        _ => analyze_as(format, text.to_owned()).diagnostics().to_vec(),
    }
}

/// The analysis of `text`, which `edit` made from `previous`'s text: derived from
/// `previous` when the format stayed the same, fresh otherwise.
pub fn reanalyze(
    previous: &dyn NotationDocument,
    path: Option<&Path>,
    text: String,
    edit: &crate::model::edit::TextEdit,
) -> Box<dyn NotationDocument> {
    let format = Format::detect_after_edit(previous.format(), path, previous.text(), &text, edit);
    if format == previous.format() {
        previous.update(text, edit)
    } else {
        analyze_as(format, text)
    }
}

/// What to show, and the text it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoverInfo {
    pub range: Range<usize>,
    pub markdown: String,
}

/// How an editor shows hovers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HoverOptions {
    /// The characters of the board drawn below the text.
    pub board: BoardStyle,
    /// Plain text, for an editor that shows no Markdown: no `**`, backticks or fences.
    pub plain_text: bool,
}

/// A hover as an editor asked for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditorHover {
    pub range: Range<usize>,
    /// Markdown, or plain text if the options asked for it.
    pub text: String,
}

/// The hover at `offset`: what the notation says there, with its board drawn below (in
/// Markdown, the board in the default style).
pub fn hover(document: &dyn NotationDocument, offset: usize) -> Option<HoverInfo> {
    hover_with(document, offset, &HoverOptions::default()).map(|found| HoverInfo {
        range: found.range,
        markdown: found.text,
    })
}

/// The hover at `offset`, written as `options` say.
pub fn hover_with(
    document: &dyn NotationDocument,
    offset: usize,
    options: &HoverOptions,
) -> Option<EditorHover> {
    let found = document.hover(offset)?;
    let mut text = if options.plain_text {
        plain_text(&found.markdown)
    } else {
        found.markdown
    };
    if let Some(board) = &found.board {
        if let Some(scene) = hover_scene(document, board) {
            if !text.is_empty() {
                text = format!("{}\n\n", text.trim_end());
            }
            let drawing = TextOptions {
                changes: board.marked.is_none(),
                style: options.board,
                ..TextOptions::default()
            };
            let drawn = diagram(&scene, &drawing);
            if options.plain_text {
                text.push_str(&format!("Board {}\n\n{drawn}", board.label));
            } else {
                text.push_str(&format!(
                    "**Board {}**\n\n```text\n{drawn}```\n",
                    board.label
                ));
            }
            if let Some(marked) = board.marked.as_deref().filter(|m| !m.is_empty()) {
                let mut names: Vec<String> = Vec::new();
                for piece in marked.iter().filter_map(|&i| scene.pieces.get(i)) {
                    let name = crate::render::words::location_name(piece.x, piece.y);
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
                text.push_str(&format!("Marked: {}", names.join(", ")));
            }
            // No line end after the last line.
            let kept = text.trim_end_matches('\n').len();
            text.truncate(kept);
        }
    }
    Some(EditorHover {
        range: found.range,
        text,
    })
}

/// The scene a hover board shows: the pieces it marks emphasised instead of the move's
/// changes.
pub fn hover_scene(document: &dyn NotationDocument, board: &HoverBoard) -> Option<Scene> {
    let mut scene = document.scene(board.state)?;
    if let Some(marked) = &board.marked {
        scene.highlighted = marked
            .iter()
            .copied()
            .filter(|&i| i < scene.pieces.len())
            .collect();
        scene.vacated.clear();
    }
    Some(scene)
}

/// The board of the move under (or last before) a position.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardAt {
    pub label: String,
    pub state: StateRef,
    /// The board as a text diagram.
    pub text: String,
    pub pieces: Vec<Piece>,
}

/// The board after the move under (or last before) `offset`; the starting board before
/// a game's first move; `None` outside every game.
pub fn board_at(document: &dyn NotationDocument, offset: usize) -> Option<BoardAt> {
    board_drawn_at(document, offset, BoardStyle::default())
}

/// [`board_at`], its text drawn in `style`.
pub fn board_drawn_at(
    document: &dyn NotationDocument,
    offset: usize,
    style: BoardStyle,
) -> Option<BoardAt> {
    let at = document.move_at(offset, true)?;
    let scene = document.scene(at.state)?;
    let options = TextOptions {
        style,
        ..TextOptions::default()
    };
    Some(BoardAt {
        label: at.label,
        state: at.state,
        text: diagram(&scene, &options),
        pieces: scene.pieces,
    })
}

/// A picture of the board after the move under (or last before) an offset.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderedBoard {
    pub label: String,
    pub state: StateRef,
    pub svg: String,
}

/// The picture of the board after the move under (or last before) `offset`, its label as
/// the caption; `None` outside every game.
pub fn render_at(
    document: &dyn NotationDocument,
    offset: usize,
    options: &SvgOptions,
) -> Option<RenderedBoard> {
    let at = document.move_at(offset, true)?;
    let scene = document.scene(at.state)?;
    let caption = document
        .main_line(at.state.game)
        .into_iter()
        .find(|state| state.state == at.state)
        .map_or_else(|| at.label.clone(), |state| state_caption(&state));
    let options = SvgOptions {
        caption: Some(caption),
        ..options.clone()
    };
    Some(RenderedBoard {
        label: at.label,
        state: at.state,
        svg: svg(&scene, &options),
    })
}

/// The frames of `states` (each with its caption, as `render` writes them) handed to
/// `draw`; states without a board are left out.
pub fn with_frames<R>(
    document: &dyn NotationDocument,
    states: &[LineState],
    draw: impl FnOnce(&[Frame<'_>]) -> R,
) -> R {
    let scenes: Vec<(&LineState, Scene)> = states
        .iter()
        .filter_map(|state| Some((state, document.scene(state.state)?)))
        .collect();
    let frames: Vec<Frame<'_>> = scenes
        .iter()
        .map(|(state, scene)| Frame {
            scene,
            caption: Some(state_caption(state)),
        })
        .collect();
    draw(&frames)
}

/// The main line of the game under (or last before) `offset`, played from its start as one
/// SVG, `seconds` a board (what `render --animate --at` writes); its label is the
/// game's last move's. `None` outside every game.
pub fn animation_at(
    document: &dyn NotationDocument,
    offset: usize,
    options: &SvgOptions,
    seconds: f64,
) -> Option<RenderedBoard> {
    let at = document.move_at(offset, true)?;
    let line = document.main_line(at.state.game);
    let last = line.last()?;
    let (label, state) = (last.label.clone(), last.state);
    let svg = with_frames(document, &line, |frames| {
        animation(frames, options, seconds)
    });
    Some(RenderedBoard { label, state, svg })
}

/// The quick fixes of the diagnostics that overlap `range` (or touch it, for an empty
/// range), each with the diagnostic it fixes.
pub fn quick_fixes(
    document: &dyn NotationDocument,
    range: Range<usize>,
) -> Vec<(&Diagnostic, &Fix)> {
    document
        .diagnostics()
        .iter()
        .filter(|diagnostic| {
            diagnostic.range.start <= range.end && range.start <= diagnostic.range.end
        })
        .flat_map(|diagnostic| diagnostic.fixes.iter().map(move |fix| (diagnostic, fix)))
        .collect()
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;
    use crate::fixture::{fixture, spot};

    const TIC_TAC_TOE: &str = "---\nEvent: Tic-Tac-Toe\n...\nsetup. t@b2\n\
                               1. S@b2 1... M@a2\n2. b2-c1 2... *a2\n";

    /// The hover an editor shows at the cursor of `marked` (a PPN text), written as
    /// `options` say.
    fn hover_at(marked: &str, options: &HoverOptions) -> String {
        let fixture = fixture(marked);
        let document = analyze(None, fixture.text.clone());
        match hover_with(&*document, fixture.offset, options) {
            Some(shown) => format!("{}\n{}\n", spot(&fixture.text, &shown.range), shown.text),
            None => "no hover".to_string(),
        }
    }

    #[test]
    fn a_move_hover_draws_the_board_after_it() {
        // The tile centred on b2 (back up: a grid), the coins on a2 and c1.
        expect![[r#"
            6:1-6:9 "2. b2-c1"
            **Move 2.** `b2-c1`

            - Moved null of Suns coin, back up from b2 to c1

            **Board 2.**

            ```text
            3 ┌─┰─┐
              │ ┃ │
            2 ☾━╋━┥
              │ ┃ │
            1 └─┸─☀
              a b c
            Key: ☀ Suns, ☾ Moons, ♛ Crowns, ⚜ Arms; coins show their rank, or their suit when back up
            ```
        "#]].assert_eq(&hover_at(
            "---\nEvent: Tic-Tac-Toe\n...\nsetup. t@b2\n1. S@b2 1... M@a2\n$02. b2-c1 2... *a2\n",
            &HoverOptions::default(),
        ));
    }

    #[test]
    fn a_hover_draws_its_board_in_the_style_asked_for() {
        let options = HoverOptions {
            board: BoardStyle::Reference,
            plain_text: false,
        };
        expect![[r#"
            6:1-6:9 "2. b2-c1"
            **Move 2.** `b2-c1`

            - Moved null of Suns coin, back up from b2 to c1

            **Board 2.**

            ```text
            3 ┌─┰─┐
              │ ┃ │
            2 ☾⃝━╋━┥
              │ ┃ │
            1 └─┸─☀⃝
              a b c
            Key: ☀ Suns, ☾ Moons, ♛ Crowns, ⸸ Arms; x⃝ coin
            ```
        "#]]
        .assert_eq(&hover_at(
            "---\nEvent: Tic-Tac-Toe\n...\nsetup. t@b2\n1. S@b2 1... M@a2\n$02. b2-c1 2... *a2\n",
            &options,
        ));
    }

    #[test]
    fn a_plain_text_hover_has_no_markdown() {
        let options = HoverOptions {
            plain_text: true,
            ..HoverOptions::default()
        };
        expect![[r#"
            6:1-6:9 "2. b2-c1"
            Move 2. b2-c1

            - Moved null of Suns coin, back up from b2 to c1

            Board 2.

            3 ┌─┰─┐
              │ ┃ │
            2 ☾━╋━┥
              │ ┃ │
            1 └─┸─☀
              a b c
            Key: ☀ Suns, ☾ Moons, ♛ Crowns, ⚜ Arms; coins show their rank, or their suit when back up
        "#]].assert_eq(&hover_at(
            "---\nEvent: Tic-Tac-Toe\n...\nsetup. t@b2\n1. S@b2 1... M@a2\n$02. b2-c1 2... *a2\n",
            &options,
        ));
        let named = hover_at(
            "---\nEvent: Tic-Tac-Toe\n...\nsetup. t@b2\n1. S@b2 1... M@a2\n2. $0b2-c1 2... *a2\n",
            &options,
        );
        expect![[r#"
            6:4-6:6 "b2"
            PieceId b2 names 1 piece here:

            - null of Suns coin, back up at b2

            Board before 2.

            3 ┌─┰─┐
              │ ┃ │
            2 ☾━☀━┥
              │ ┃ │
            1 └─┸─┘
              a b c
            Key: ☀ Suns, ☾ Moons, ♛ Crowns, ⚜ Arms; coins show their rank, or their suit when back up
            Marked: b2
        "#]].assert_eq(&named);
        for mark in ["**", "`", "```"] {
            assert!(!named.contains(mark), "{mark} in {named}");
        }
    }

    #[test]
    fn a_piece_id_hover_marks_what_it_names() {
        expect![[r#"
            6:4-6:6 "b2"
            **PieceId** `b2` names 1 piece here:

            - null of Suns coin, back up at b2

            **Board before 2.**

            ```text
            3 ┌─┰─┐
              │ ┃ │
            2 ☾━☀━┥
              │ ┃ │
            1 └─┸─┘
              a b c
            Key: ☀ Suns, ☾ Moons, ♛ Crowns, ⚜ Arms; coins show their rank, or their suit when back up
            ```
            Marked: b2
        "#]].assert_eq(&hover_at(
            "---\nEvent: Tic-Tac-Toe\n...\nsetup. t@b2\n1. S@b2 1... M@a2\n2. $0b2-c1 2... *a2\n",
            &HoverOptions::default(),
        ));
    }

    #[test]
    fn render_at_draws_the_move_under_the_cursor() {
        let fixture = fixture(
            "---\nEvent: Tic-Tac-Toe\n...\nsetup. t@b2\n1. S@b2 1... M@a2\n2. b2-c1 2... $0*a2\n",
        );
        let document = analyze(None, fixture.text);
        let found = render_at(&*document, fixture.offset, &SvgOptions::default()).unwrap();
        assert_eq!(found.label, "2...");
        assert!(found.svg.starts_with("<svg "), "{}", found.svg);
        // Two pieces left: the tile and the coin of Suns.
        assert_eq!(found.svg.matches("class=\"piece ").count(), 2);
        assert!(found
            .svg
            .contains("<title>null of Suns coin, back up</title>"));
        let before_any_move = render_at(&*document, 0, &SvgOptions::default()).unwrap();
        assert_eq!(before_any_move.label, "start");
    }

    #[test]
    fn the_boards_alone_are_those_of_the_whole_analysis_without_the_syntax() {
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance");
        let mut texts = vec![
            TIC_TAC_TOE.to_string(),
            // Games the reference cannot read, a broken move and an open comment.
            "---\nGameType: NoSuchGame\n...\n1. S@b2 {open\n\n---\n...\n1. S@@ 2. t@a1\n"
                .to_string(),
        ];
        for group in ["examples", "reference-quirks"] {
            let mut paths: Vec<_> = std::fs::read_dir(folder.join(group))
                .unwrap()
                .map(|entry| entry.unwrap().path())
                .filter(|path| path.extension().is_some_and(|x| x == "ppn"))
                .collect();
            paths.sort();
            texts.extend(
                paths
                    .iter()
                    .map(|path| std::fs::read_to_string(path).unwrap()),
            );
        }
        assert!(texts.len() > 15);
        let replay_json = |document: &dyn NotationDocument| {
            let mut out = Vec::new();
            document.write_replay_json("f.ppn", None, &mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        for text in texts {
            let whole = analyze(None, text.clone());
            let boards = analyze_boards(None, text.clone());
            assert_eq!(replay_json(&*boards), replay_json(&*whole), "{text}");
            let games = whole.games();
            assert_eq!(boards.games(), games, "{text}");
            for game in 0..games.len() {
                let line = whole.main_line(game);
                assert_eq!(boards.main_line(game), line, "{text}");
                assert_eq!(boards.game_error(game), whole.game_error(game), "{text}");
                // What `render` draws.
                for state in &line {
                    assert_eq!(boards.scene(state.state), whole.scene(state.state));
                }
            }
            assert_eq!(
                PpnDocument::boards_only(text.clone())
                    .syntax
                    .segment_count(),
                0
            );
            assert!(PpnDocument::new(text).syntax.segment_count() > 0);
        }
    }
}
