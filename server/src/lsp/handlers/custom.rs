//! ppn-ls's own requests: the board at a position (`ppn/boardAt`), its picture
//! (`ppn/render`) and the game line to step through (`ppn/gameLine`).

use serde_json::{json, Value};
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::TextDocumentPositionParams;

use super::Backend;
use crate::ide::analyze::{animation_at, board_drawn_at, render_at};
use crate::ide::game_line::{game_line_at, LineStop};
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
}
