//! ppn-ls in the browser: the web page's worker holds one [`Session`] (the document being
//! edited) and asks it for diagnostics, the games' states, pictures and highlighting. A
//! thin edge over the `ppn_ls` core built without its `native` feature: everything it
//! answers is what the command line and the language server answer for the same text.
//!
//! Offsets cross the boundary in UTF-16 code units, as the page's editor counts them; the
//! core counts bytes ([`Utf16Offsets`] converts). Answers with structure are JSON text.

use std::ops::Range;
use std::path::Path;

use ppn_ls::diagnostic::{Diagnostic, Severity};
use ppn_ls::ide::analyze::{analyze, hover_scene, reanalyze};
use ppn_ls::ide::viewer::{state_picture, viewer_games, ViewerGame};
use ppn_ls::model::edit::TextEdit;
use ppn_ls::model::features::TokenKind;
use ppn_ls::model::notation_document::{LineState, NotationDocument, StateRef};
use ppn_ls::render::raster;
use ppn_ls::render::svg::{still_frames, svg, Frame, SvgOptions};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

mod board;
#[cfg(any(test, feature = "editor"))]
mod editor;
mod offsets;

/// How wide a hover's picture of the board is, in pixels.
const HOVER_PICTURE_WIDTH: u32 = 320;

/// The most diagnostics the page lists for a document.
const MOST_DIAGNOSTICS_SHOWN: usize = 500;

pub use offsets::Utf16Offsets;

#[wasm_bindgen]
extern "C" {
    /// Tells the page's worker what a panic said before the instance stops (a panic in
    /// WebAssembly is a trap: the message would be lost).
    #[wasm_bindgen(js_namespace = globalThis, js_name = ppnPanicked)]
    fn report_panic(message: &str);
}

/// Sends a panic's message to the worker, which shows it and starts a fresh instance.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        #[cfg(target_family = "wasm")]
        report_panic(&message);
        #[cfg(not(target_family = "wasm"))]
        eprintln!("{message}");
    }));
}

/// The document being edited.
#[wasm_bindgen]
pub struct Session {
    name: String,
    document: Box<dyn NotationDocument>,
    offsets: Utf16Offsets,
    /// The games' states, made once per revision (pictures are asked for by state).
    games: std::cell::OnceCell<Vec<ViewerGame>>,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

#[wasm_bindgen]
impl Session {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Session {
        Session {
            name: String::new(),
            document: analyze(None, String::new()),
            offsets: Utf16Offsets::new(""),
            games: std::cell::OnceCell::new(),
        }
    }

    /// Reads `text` as the file `name` (its extension, then its content, picks the
    /// notation, as the command line does). Answers as [`Session::summary`].
    pub fn open(&mut self, name: &str, text: String) -> String {
        self.open_without_games(name, text);
        self.summary(true)
    }

    /// As [`Session::open`], answering without the games ([`Session::games`] has them).
    pub fn open_without_games(&mut self, name: &str, text: String) -> String {
        self.name = name.to_string();
        self.offsets = Utf16Offsets::new(&text);
        self.document = analyze(self.path(), text);
        self.games = std::cell::OnceCell::new();
        self.summary(false)
    }

    /// The text changed: `inserted` replaces UTF-16 units `from..to`. The analysis is
    /// derived from the one before, as the language server's is. Answers as
    /// [`Session::summary`], with the games only if `with_games`.
    pub fn edit(&mut self, from: u32, to: u32, inserted: &str, with_games: bool) -> String {
        let old = self.document.text();
        let start = self.offsets.byte(old, from as usize);
        let end = self.offsets.byte(old, to as usize).max(start);
        let mut text = String::with_capacity(old.len() - (end - start) + inserted.len());
        text.push_str(&old[..start]);
        text.push_str(inserted);
        text.push_str(&old[end..]);
        let edit = TextEdit {
            start,
            old_end: end,
            new_end: start + inserted.len(),
        };
        self.offsets = Utf16Offsets::new(&text);
        self.document = reanalyze(&*self.document, self.path(), text, &edit);
        self.games = std::cell::OnceCell::new();
        self.summary(with_games)
    }

    /// The games alone, as [`Session::summary`] writes them: a long document's are sent
    /// apart from its diagnostics, for the page to read once they are shown.
    pub fn games(&self) -> String {
        self.games_json()
    }

    /// The text as the session has it (for checking that the page and the session agree).
    pub fn text(&self) -> String {
        self.document.text().to_string()
    }

    /// `{format, diagnostics: [{from, to, severity, code, message, related}], games}`: the
    /// diagnostics an editor is sent (at most 500, errors first, with a note on the others),
    /// the games (if asked) as `[{name, from, to, states, variations: [{name, from,
    /// states}]}]`, each state as `{label, text, comment, from, to, ref}` (`ref` names it
    /// for [`Session::picture`]; a variation's `from` is the `ref` it branches from);
    /// offsets in UTF-16 units.
    pub fn summary(&self, with_games: bool) -> String {
        let mut answer = format!(
            "{{\"format\":\"{}\",\"diagnostics\":{}",
            self.document.format().name(),
            self.diagnostics()
        );
        if with_games {
            answer.push_str(",\"games\":");
            answer.push_str(&self.games_json());
        }
        answer.push('}');
        answer
    }

    /// The picture of state `state` (a `ref`) of game `game`, as `ppn-ls render --move`
    /// draws it; empty if there is no such state.
    pub fn picture(&self, game: u32, state: u32, flipped: bool) -> String {
        self.line_state(game, state)
            .and_then(|found| state_picture(&*self.document, found, &picture_options(flipped)))
            .unwrap_or_default()
    }

    /// The same picture as PNG.
    pub fn png(&self, game: u32, state: u32, flipped: bool) -> Result<Vec<u8>, JsError> {
        let svg = self.picture(game, state, flipped);
        if svg.is_empty() {
            return Err(JsError::new("there is no such board"));
        }
        raster::png(&svg).map_err(|err| JsError::new(&err.0))
    }

    /// Every board of game `game`'s main line as an animated GIF, `frame_ms` a board.
    pub fn gif(&self, game: u32, flipped: bool, frame_ms: u32) -> Result<Vec<u8>, JsError> {
        let line = self.document.main_line(game as usize);
        let scenes: Vec<_> = line
            .iter()
            .filter_map(|state| Some((state, self.document.scene(state.state)?)))
            .collect();
        if scenes.is_empty() {
            return Err(JsError::new("there is no board to animate"));
        }
        let frames: Vec<Frame<'_>> = scenes
            .iter()
            .map(|(state, scene)| Frame {
                scene,
                caption: Some(ppn_ls::ide::viewer::state_caption(state)),
            })
            .collect();
        let options = picture_options(flipped);
        let mut out = Vec::new();
        raster::gif(still_frames(&frames, &options), frame_ms, &mut out)
            .map_err(|err| JsError::new(&err.0))?;
        Ok(out)
    }

    /// The state of the move under (or last before) UTF-16 offset `at`, as
    /// `{game, ref}`, or `null`.
    pub fn state_at(&self, at: u32) -> String {
        let offset = self.offsets.byte(self.document.text(), at as usize);
        match self.document.move_at(offset, true) {
            Some(found) => json!({"game": found.state.game, "ref": found.state.index}).to_string(),
            None => "null".to_string(),
        }
    }

    /// What a hover at UTF-16 offset `at` shows: `{from, to, markdown, board}`, or `null`.
    /// The page shows pictures, so the board (the one an editor's hover draws as text, its
    /// marked pieces outlined) is `{label, svg}`, a picture, or `null`.
    pub fn hover(&self, at: u32) -> String {
        let text = self.document.text();
        let offset = self.offsets.byte(text, at as usize);
        let Some(found) = self.document.hover(offset) else {
            return "null".to_string();
        };
        let board = found.board.as_ref().and_then(|board| {
            let scene = hover_scene(&*self.document, board)?;
            let options = SvgOptions {
                width: Some(HOVER_PICTURE_WIDTH),
                ..SvgOptions::default()
            };
            Some(json!({"label": board.label, "svg": svg(&scene, &options)}))
        });
        json!({
            "from": self.offsets.unit(text, found.range.start),
            "to": self.offsets.unit(text, found.range.end),
            "markdown": found.markdown,
            "board": board,
        })
        .to_string()
    }

    /// The highlighting of UTF-16 units `from..to`: three numbers a token (its start, its
    /// end, its kind's place in [`token_kinds`]).
    pub fn tokens(&self, from: u32, to: u32) -> Vec<u32> {
        let text = self.document.text();
        let range = self.offsets.byte(text, from as usize)..self.offsets.byte(text, to as usize);
        let mut numbers = Vec::new();
        self.document.each_semantic_token(range, &mut |token| {
            let kind = TokenKind::ALL
                .iter()
                .position(|&kind| kind == token.kind)
                .unwrap_or(0);
            numbers.extend([
                self.offsets.unit(text, token.range.start) as u32,
                self.offsets.unit(text, token.range.end) as u32,
                kind as u32,
            ]);
        });
        numbers
    }
}

impl Session {
    fn viewer_games(&self) -> &[ViewerGame] {
        self.games.get_or_init(|| viewer_games(&*self.document))
    }

    fn line_state(&self, game: u32, state: u32) -> Option<&LineState> {
        self.viewer_games().get(game as usize)?.state(StateRef {
            game: game as usize,
            index: state as usize,
        })
    }

    fn path(&self) -> Option<&Path> {
        (!self.name.is_empty()).then(|| Path::new(&self.name))
    }

    fn diagnostics(&self) -> Value {
        let text = self.document.text();
        let units = |range: &Range<usize>| {
            (
                self.offsets.unit(text, range.start),
                self.offsets.unit(text, range.end.max(range.start)),
            )
        };
        let diagnostic = |d: &Diagnostic| {
            let (from, to) = units(&d.range);
            json!({
                "from": from,
                "to": to,
                "severity": severity_name(d.severity),
                "code": d.code,
                "message": d.message,
                "related": d.related.iter().map(|related| {
                    let (from, to) = units(&related.range);
                    json!({"from": from, "to": to, "message": related.message})
                }).collect::<Vec<_>>(),
            })
        };
        // A broken long record has tens of thousands: the page lists those an editor would
        // be sent (errors first, and a note on the rest), as many as a person reads.
        let shown = self.document.diagnostics_shown(MOST_DIAGNOSTICS_SHOWN);
        Value::Array(
            shown
                .diagnostics
                .iter()
                .chain(shown.note.as_ref())
                .map(diagnostic)
                .collect(),
        )
    }

    /// The games as JSON text, written straight from the states (a 10,000-move game's
    /// states as a tree of JSON values took several times as long).
    fn games_json(&self) -> String {
        let text = self.document.text();
        let unit = |offset: usize| self.offsets.unit(text, offset);
        fn state_json<'a>(state: &'a LineState, unit: &dyn Fn(usize) -> usize) -> StateJson<'a> {
            StateJson {
                label: &state.label,
                text: &state.text,
                comment: &state.comment,
                from: state.range.as_ref().map(|range| unit(range.start)),
                to: state.range.as_ref().map(|range| unit(range.end)),
                reference: state.state.index,
            }
        }
        let state = |line_state| state_json(line_state, &unit);
        let games: Vec<GameJson<'_>> = self
            .viewer_games()
            .iter()
            .map(|game| GameJson {
                name: &game.name,
                from: unit(game.range.start),
                to: unit(game.range.end),
                states: game.states.iter().map(state).collect(),
                variations: game
                    .variations
                    .iter()
                    .map(|variation| VariationJson {
                        name: &variation.name,
                        from: variation.from.index,
                        states: variation.states.iter().map(state).collect(),
                    })
                    .collect(),
            })
            .collect();
        serde_json::to_string(&games).unwrap_or_else(|_| "[]".to_string())
    }
}

#[derive(serde::Serialize)]
struct GameJson<'a> {
    name: &'a str,
    from: usize,
    to: usize,
    states: Vec<StateJson<'a>>,
    variations: Vec<VariationJson<'a>>,
}

#[derive(serde::Serialize)]
struct VariationJson<'a> {
    name: &'a str,
    from: usize,
    states: Vec<StateJson<'a>>,
}

#[derive(serde::Serialize)]
struct StateJson<'a> {
    label: &'a str,
    text: &'a str,
    comment: &'a str,
    from: Option<usize>,
    to: Option<usize>,
    #[serde(rename = "ref")]
    reference: usize,
}

/// Panics, so that a test can check that a panic in the core reaches the page as an error
/// with its message and that the page starts over with its text.
#[wasm_bindgen]
pub fn fail_for_test() {
    panic!("a panic asked for by a test");
}

/// The names of the highlighting's kinds, in the order [`Session::tokens`] numbers them.
#[wasm_bindgen]
pub fn token_kinds() -> Vec<String> {
    TokenKind::LEGEND
        .iter()
        .map(|kind| kind.to_string())
        .collect()
}

/// The notation a file of this name and text is read as (`ppn`, `otn`, `annofen`, ...).
#[wasm_bindgen]
pub fn format_of(name: &str, text: &str) -> String {
    let path = (!name.is_empty()).then(|| Path::new(name));
    ppn_ls::model::format::Format::detect(path, text)
        .name()
        .to_string()
}

fn picture_options(flipped: bool) -> SvgOptions {
    SvgOptions {
        flip: flipped,
        ..SvgOptions::default()
    }
}

/// As the command line writes it (`error`, `warning`, `info`, `hint`).
fn severity_name(severity: Severity) -> &'static str {
    severity.name()
}

#[cfg(test)]
mod tests;
