//! ppn-ls's own requests: the board at a position (`ppn/boardAt`), its picture
//! (`ppn/render`), the game line to step through (`ppn/gameLine`), and the board to play on
//! (`ppn/boardGrid`, `ppn/legalTargets`, `ppn/enterMove`, `ppn/moveInWords`).

use serde_json::{json, Value};
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::TextDocumentPositionParams;

use super::Backend;
use crate::ide::analyze::{animation_at, board_drawn_at, render_at};
use crate::ide::board_grid::{grid_json, targets_json};
use crate::ide::game_line::{game_line_at, LineStop};
use crate::ide::viewer::{change_in_words, viewer_grid};
use crate::model::notation_document::{MoveAnswer, MoveRequest, Placement, StateRef};
use crate::render::piece_json::piece_json;

/// The custom request for the board at a position: `{textDocument, position}` in, the
/// move's label, its diagram and its pieces out (`null` outside any game).
pub const BOARD_AT_METHOD: &str = "ppn/boardAt";

/// The custom request for the picture of the board at a position: `ppn/boardAt`'s
/// parameters (and optionally `flip`, `width`) in, `{label, svg, game, state}` out (`state`
/// numbers the board in its game, as `ppn/gameLine`'s `ref` does; `null` outside any game).
/// With `animate: true` (and optionally `frameMs`, default 1000), the picture plays the
/// game's main line from its start instead, and the label and state are its last move's:
/// how editors without a board panel run the *Animate* lens.
pub const RENDER_METHOD: &str = "ppn/render";

/// The custom request for the states of the game at a position, for stepping through it:
/// `{textDocument, position}` in; `{game, name, range, states, variations: [{name, from,
/// states}], current}` out, each state as `{label, text, comment, ref, range, cursor}` with
/// the position where the cursor shows it (`ref` numbers it in the game, as `ppn/render`'s
/// `state` does; `current` is the one at the position); `null` outside any game.
pub const GAME_LINE_METHOD: &str = "ppn/gameLine";

/// The custom request for a board's squares as drawn, to lay over its picture and read
/// out: `{textDocument, game, state, flip}` in (`state` as `ppn/gameLine`'s `ref`);
/// `{rows: [[{name, pieces, left, top, width, height}]], text}` out, as the web page's
/// `grid` answers; `null` where there is no such board.
pub const BOARD_GRID_METHOD: &str = "ppn/boardGrid";

/// The custom request for where a piece may go: `{textDocument, game, state, from}` in;
/// `{any: true}` (no rules to check), `{only: [square]}`, or `{readOnly: why}` where the
/// document takes no move (a diagram of one position).
pub const LEGAL_TARGETS_METHOD: &str = "ppn/legalTargets";

/// The custom request for a move made on the board: `{textDocument, game, state, from, to,
/// capture?, placement?}` in (`capture` a boolean; `placement` `insert`, `replace` or
/// `variation`; either left out asks); out `{edit: {range, newText, cursor, written}}` (the
/// client applies the edit; `cursor` is where the move lies once it is applied),
/// `{ask: "capture-or-stack" | "insert-or-replace"}` or `{refused: why}`.
pub const ENTER_MOVE_METHOD: &str = "ppn/enterMove";

/// The custom request for what a state's move did, in words: `{textDocument, game,
/// state}` in; a sentence out ("the white pawn moves from e2 to e4"), empty for a start.
pub const MOVE_IN_WORDS_METHOD: &str = "ppn/moveInWords";

/// A state of a game of a document, and what is asked of it.
#[derive(Debug, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub(in crate::lsp) struct BoardParams {
    text_document: tower_lsp_server::ls_types::TextDocumentIdentifier,
    game: usize,
    state: usize,
    #[serde(default)]
    flip: bool,
    #[serde(default)]
    from: String,
    #[serde(default)]
    to: String,
    capture: Option<bool>,
    placement: Option<String>,
}

impl BoardParams {
    fn state(&self) -> StateRef {
        StateRef {
            game: self.game,
            index: self.state,
        }
    }
}

/// `ppn/render`'s parameters.
#[derive(Debug, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub(in crate::lsp) struct RenderParams {
    #[serde(flatten)]
    at: TextDocumentPositionParams,
    #[serde(default)]
    flip: bool,
    width: Option<u32>,
    #[serde(default)]
    animate: bool,
    frame_ms: Option<u32>,
}

impl Backend {
    /// `ppn/boardAt`: the board after the move under (or last before) the position.
    pub(in crate::lsp) async fn board_at(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Value> {
        let style = self.state.config_for(&params.text_document.uri).hover_board;
        let board = self
            .state
            .at_position(&params, |document, offset, _| {
                let board = board_drawn_at(document, offset, style)?;
                Some(json!({
                    "label": board.label,
                    "text": board.text,
                    "pieces": board.pieces.iter().map(piece_json).collect::<Vec<_>>(),
                }))
            })
            .await?;
        Ok(board.unwrap_or(Value::Null))
    }

    /// `ppn/render`: the picture of the board after the move under (or last before) the
    /// position.
    pub(in crate::lsp) async fn render(&self, params: RenderParams) -> Result<Value> {
        let options = crate::render::svg::SvgOptions {
            flip: params.flip,
            width: params.width,
            ..crate::render::svg::SvgOptions::default()
        };
        let picture = self
            .state
            .at_position(&params.at, |document, offset, _| {
                let rendered = if params.animate {
                    let seconds = f64::from(params.frame_ms.unwrap_or(1000).max(1)) / 1000.0;
                    animation_at(document, offset, &options, seconds)
                } else {
                    render_at(document, offset, &options)
                }?;
                Some(json!({
                    "label": rendered.label,
                    "svg": rendered.svg,
                    "game": rendered.state.game,
                    "state": rendered.state.index,
                }))
            })
            .await?;
        Ok(picture.unwrap_or(Value::Null))
    }

    /// `ppn/gameLine`: the main line of the game at the position, each state with where the
    /// cursor shows it.
    pub(in crate::lsp) async fn game_line(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Value> {
        let line = self
            .state
            .at_position(&params, |document, offset, convert| {
                let line = game_line_at(document, offset)?;
                let stops = |stops: &[LineStop]| -> Vec<Value> {
                    (stops.iter())
                        .map(|stop| {
                            json!({
                                "label": stop.label,
                                "text": stop.text,
                                "comment": stop.comment,
                                "ref": stop.state.index,
                                "range": stop.range.as_ref().map(|range| convert.range(range)),
                                "cursor": convert.position(stop.cursor),
                            })
                        })
                        .collect()
                };
                let variations: Vec<Value> = (line.variations.iter())
                    .map(|variation| {
                        json!({
                            "name": variation.name,
                            "from": variation.from.index,
                            "states": stops(&variation.stops),
                        })
                    })
                    .collect();
                Some(json!({
                    "game": line.game,
                    "name": line.name,
                    "range": convert.range(&line.range),
                    "states": stops(&line.stops),
                    "variations": variations,
                    "current": line.current.index,
                }))
            })
            .await?;
        Ok(line.unwrap_or(Value::Null))
    }

    /// `ppn/boardGrid`: the squares of a state's board.
    pub(in crate::lsp) async fn board_grid(&self, params: BoardParams) -> Result<Value> {
        let options = crate::render::svg::SvgOptions {
            flip: params.flip,
            ..crate::render::svg::SvgOptions::default()
        };
        let grid = self
            .state
            .on_document(&params.text_document.uri, |analysis, _| {
                // Laid over the picture `ppn/render` draws: with its caption.
                let document = &*analysis.document;
                let games = crate::ide::viewer::viewer_games(document);
                let line_state = games.get(params.game)?.state(params.state())?;
                let grid = viewer_grid(document, line_state, &options)?;
                Some(grid_json(&grid))
            })
            .await?;
        Ok(grid.unwrap_or(Value::Null))
    }

    /// `ppn/legalTargets`: where the piece on a square may go.
    pub(in crate::lsp) async fn legal_targets(&self, params: BoardParams) -> Result<Value> {
        let targets = self
            .state
            .on_document(&params.text_document.uri, |analysis, _| {
                Some(targets_json(
                    &analysis
                        .document
                        .legal_targets(params.state(), &params.from),
                ))
            })
            .await?;
        Ok(targets.unwrap_or(Value::Null))
    }

    /// `ppn/enterMove`: a move made on the board, as an edit of the document.
    pub(in crate::lsp) async fn enter_move(&self, params: BoardParams) -> Result<Value> {
        let request = MoveRequest {
            state: params.state(),
            from: params.from.clone(),
            to: params.to.clone(),
            capture: params.capture,
            placement: params.placement.as_deref().and_then(Placement::from_name),
        };
        let answer = self
            .state
            .on_document(&params.text_document.uri, |analysis, convert| {
                Some(match analysis.document.enter_move(&request) {
                    MoveAnswer::Edit {
                        range,
                        text,
                        cursor,
                        written,
                    } => json!({"edit": {
                        "range": convert.range(&range),
                        "cursor": convert.position_after_edit(&range, &text, cursor),
                        "newText": text,
                        "written": written,
                    }}),
                    MoveAnswer::Ask(question) => json!({"ask": question.name()}),
                    MoveAnswer::Refused(why) => json!({"refused": why}),
                })
            })
            .await?;
        Ok(answer.unwrap_or_else(|| json!({"refused": "the document is not open"})))
    }

    /// `ppn/moveInWords`: what a state's move did, in words.
    pub(in crate::lsp) async fn move_in_words(&self, params: BoardParams) -> Result<Value> {
        let words = self
            .state
            .on_document(&params.text_document.uri, |analysis, _| {
                Some(change_in_words(&*analysis.document, params.state()))
            })
            .await?;
        Ok(Value::String(words.unwrap_or_default()))
    }
}
