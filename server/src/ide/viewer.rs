//! A document's games as the game viewer shows them (`assets/viewer/viewer.js`): each
//! game's states with their labels, moves and comments, and the picture of any state. The
//! web page asks for pictures one at a time; [`html_page`] draws them all into one
//! self-contained HTML file (`ppn-ls render --format html`).

use std::io::Write;

use flate2::write::GzEncoder;
use serde_json::json;

use crate::ide::board_grid::{board_grid, describe_change, BoardGrid};
use crate::model::notation_document::{LineState, NotationDocument, StateRef, Variation};
use crate::render::svg::{svg, SvgOptions};

/// One game as the viewer lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewerGame {
    pub name: String,
    /// Everything the game covers in the document.
    pub range: std::ops::Range<usize>,
    /// The main line.
    pub states: Vec<LineState>,
    pub variations: Vec<Variation>,
}

impl ViewerGame {
    /// Every state of the game: the main line's, then each variation's.
    pub fn all_states(&self) -> impl Iterator<Item = &LineState> {
        self.states.iter().chain(
            self.variations
                .iter()
                .flat_map(|variation| &variation.states),
        )
    }

    /// The state of the game that `state` names.
    pub fn state(&self, state: StateRef) -> Option<&LineState> {
        self.all_states()
            .find(|line_state| line_state.state == state)
    }

    /// The state just before `state` in its line (for a variation's first move, the state
    /// it branches from); `None` for the starting board.
    pub fn before(&self, state: StateRef) -> Option<StateRef> {
        let lines = std::iter::once((None, &self.states)).chain(
            self.variations
                .iter()
                .map(|variation| (Some(variation.from), &variation.states)),
        );
        for (branches_from, line) in lines {
            if let Some(place) = line.iter().position(|found| found.state == state) {
                return match place {
                    0 => branches_from,
                    _ => Some(line[place - 1].state),
                };
            }
        }
        None
    }
}

/// Every game of the document with its main line and variations.
pub fn viewer_games(document: &dyn NotationDocument) -> Vec<ViewerGame> {
    document
        .games()
        .into_iter()
        .enumerate()
        .map(|(index, game)| ViewerGame {
            name: game.name,
            range: game.range,
            states: document.main_line(index),
            variations: document.variations(index),
        })
        .collect()
}

/// A state's label and move, as a picture's caption: `3... *e3`, `start`.
pub fn state_caption(state: &LineState) -> String {
    if state.text.is_empty() {
        state.label.clone()
    } else {
        format!("{} {}", state.label, state.text)
    }
}

/// The picture of a state with its caption: the same as `ppn-ls render --move` draws.
pub fn state_picture(
    document: &dyn NotationDocument,
    state: &LineState,
    options: &SvgOptions,
) -> Option<String> {
    let scene = document.scene(state.state)?;
    Some(svg(&scene, &picture_options(state, options)))
}

/// The grid of `state`'s picture as the viewers draw it ([`state_picture`],
/// the language server's `ppn/render`): its caption above the board moves every square.
pub fn viewer_grid(
    document: &dyn NotationDocument,
    state: &LineState,
    options: &SvgOptions,
) -> Option<BoardGrid> {
    board_grid(document, state.state, &picture_options(state, options))
}

/// What the move to `state` did, in words ([`describe_change`] of the board before it and
/// after it); empty for a game's first board.
pub fn change_in_words(document: &dyn NotationDocument, state: StateRef) -> String {
    change_in_words_of(document, &viewer_games(document), state)
}

/// [`change_in_words`] with the document's games already listed (the page keeps them).
pub fn change_in_words_of(
    document: &dyn NotationDocument,
    games: &[ViewerGame],
    state: StateRef,
) -> String {
    let Some(before) = games.get(state.game).and_then(|game| game.before(state)) else {
        return String::new();
    };
    let options = SvgOptions::default();
    match (
        board_grid(document, before, &options),
        board_grid(document, state, &options),
    ) {
        (Some(old), Some(new)) => describe_change(&old, &new),
        _ => String::new(),
    }
}

/// A board's squares for the one-file game, small: `[[name, pieces, left, top, width,
/// height]]` a row, places to 1/10,000 of the picture; `null` where there is no grid.
fn compact_grid(grid: Option<&BoardGrid>) -> serde_json::Value {
    let Some(grid) = grid else {
        return serde_json::Value::Null;
    };
    let round = |value: f64| (value * 10_000.0).round() / 10_000.0;
    serde_json::Value::Array(
        grid.rows
            .iter()
            .map(|row| {
                row.iter()
                    .map(|square| {
                        json!([
                            square.name,
                            square.pieces,
                            round(square.left),
                            round(square.top),
                            round(square.width),
                            round(square.height)
                        ])
                    })
                    .collect()
            })
            .collect(),
    )
}

/// How the viewers draw a state: `options` with the state's caption above the board. The
/// board's grid laid over the picture is placed with the same options.
pub fn picture_options(state: &LineState, options: &SvgOptions) -> SvgOptions {
    SvgOptions {
        caption: Some(state_caption(state)),
        ..options.clone()
    }
}

const VIEWER_SCRIPT: &str = include_str!("../../assets/viewer/viewer.js");
const VIEWER_STYLE: &str = include_str!("../../assets/viewer/viewer.css");
const PAGE_SCRIPT: &str = include_str!("../../assets/viewer/standalone.js");
const PAGE_STYLE: &str = include_str!("../../assets/viewer/standalone.css");

/// The most states a one-file game holds: each is two pictures (as seen from both sides).
pub const HTML_MOST_STATES: usize = 5_000;

/// What a one-file game shows.
#[derive(Clone, Debug, Default)]
pub struct HtmlPage {
    /// The page's title (the file's name).
    pub title: String,
    /// How each picture is drawn (`flip` is the side it opens on; both are in the file).
    pub svg: SvgOptions,
    /// Only this game (by index); all of them by default.
    pub game: Option<usize>,
    /// The state shown first; the first game's starting board by default.
    pub start: Option<StateRef>,
}

/// One HTML file that shows the games of `document`: each state's picture seen from both
/// sides, the move lists and the viewer's controls; no network and no WebAssembly. The
/// pictures travel compressed (gzip, base64) and the page unpacks them with the browser's
/// `DecompressionStream`. `Err` if there is nothing to show or too much.
pub fn html_page(document: &dyn NotationDocument, page: &HtmlPage) -> Result<String, String> {
    let (title, options) = (page.title.as_str(), &page.svg);
    let mut games = viewer_games(document);
    let mut first_game = 0;
    if let Some(only) = page.game {
        if only >= games.len() {
            return Err(format!(
                "there is no game {} (the file has {})",
                only + 1,
                games.len()
            ));
        }
        games = vec![games.swap_remove(only)];
        first_game = only;
    }
    // Each state's pictures are at its place among the game's states (main line first):
    // the viewer asks for them by that number, its `ref`.
    let place_of = |game: &ViewerGame, state: StateRef| {
        game.all_states()
            .position(|line_state| line_state.state == state)
    };
    // Where to open: a state of a game kept.
    let start = page.start.and_then(|start| {
        let game = start.game.checked_sub(first_game)?;
        let place = place_of(games.get(game)?, start)?;
        Some(json!({"game": game, "ref": place}))
    });
    let total: usize = games.iter().map(|game| game.all_states().count()).sum();
    if total == 0 {
        return Err("no game to show".to_string());
    }
    if total > HTML_MOST_STATES {
        return Err(format!(
            "{total} boards is more than one HTML file holds ({HTML_MOST_STATES}): \
             choose a game with --game"
        ));
    }
    let flipped = SvgOptions {
        flip: !options.flip,
        ..options.clone()
    };
    let mut pictures = Vec::with_capacity(games.len());
    // For those who do not see the pictures: each board's squares (from both sides) and
    // what its move did, in words.
    let mut grids = Vec::with_capacity(games.len());
    let mut words = Vec::with_capacity(games.len());
    for game in &games {
        let mut of_game = Vec::new();
        let mut grids_of_game = Vec::new();
        let mut seen_grids = std::collections::HashMap::new();
        for state in game.all_states() {
            let seen = state_picture(document, state, options).unwrap_or_default();
            let other_side = state_picture(document, state, &flipped).unwrap_or_default();
            of_game.push([seen, other_side]);
            let grid = viewer_grid(document, state, options);
            let other_grid = viewer_grid(document, state, &flipped);
            grids_of_game.push([
                compact_grid(grid.as_ref()),
                compact_grid(other_grid.as_ref()),
            ]);
            if let Some(grid) = grid {
                seen_grids.insert(state.state, grid);
            }
        }
        let words_of_game: Vec<String> = game
            .all_states()
            .map(|state| {
                let before = game
                    .before(state.state)
                    .and_then(|before| seen_grids.get(&before));
                match (before, seen_grids.get(&state.state)) {
                    (Some(old), Some(new)) => describe_change(old, new),
                    _ => String::new(),
                }
            })
            .collect();
        pictures.push(of_game);
        grids.push(grids_of_game);
        words.push(words_of_game);
    }
    let data = json!({
        "title": title,
        "start": start,
        "flipped": options.flip,
        "games": games.iter().map(|game| {
            let state_json = |state: &LineState| json!({
                "label": state.label,
                "text": state.text,
                "comment": state.comment,
                "ref": place_of(game, state.state),
            });
            json!({
                "name": game.name,
                "states": game.states.iter().map(state_json).collect::<Vec<_>>(),
                "variations": game.variations.iter().map(|variation| json!({
                    "name": variation.name,
                    "from": place_of(game, variation.from),
                    "states": variation.states.iter().map(state_json).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            })
        }).collect::<Vec<_>>(),
        "pictures": pictures,
        "grids": grids,
        "words": words,
    });
    let mut gzip = GzEncoder::new(Vec::new(), flate2::Compression::best());
    gzip.write_all(data.to_string().as_bytes())
        .map_err(|err| err.to_string())?;
    let packed = gzip.finish().map_err(|err| err.to_string())?;
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"ppn-ls {version}\">\n<title>{title}</title>\n\
         <style>\n{VIEWER_STYLE}{PAGE_STYLE}</style>\n</head>\n<body>\n\
         <main id=\"ppn-game\"><h1>{title}</h1><noscript>This game needs JavaScript to be shown.</noscript></main>\n\
         <script type=\"application/octet-stream\" id=\"ppn-game-data\" data-encoding=\"gzip+base64\">{data}</script>\n\
         <script>\n{VIEWER_SCRIPT}</script>\n<script>\n{PAGE_SCRIPT}</script>\n</body>\n</html>\n",
        version = env!("CARGO_PKG_VERSION"),
        title = escape_html(title),
        data = base64(&packed),
    ))
}

fn escape_html(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            _ => escaped.push(c),
        }
    }
    escaped
}

/// Standard base64 with padding (the browser's `atob` reads it).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> shift) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ide::analyze::analyze;

    const GAME: &str = "---\nGameType: Tic-Tac-Toe\n...\n1. S@b2 {centre} 1... M@a2\n2. S@c1\n";

    #[test]
    fn base64_matches_the_standard_alphabet_and_padding() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foob"), "Zm9vYg==");
        assert_eq!(base64(&[0xfb, 0xff]), "+/8=");
    }

    #[test]
    fn the_games_list_every_state_with_its_move_and_comment() {
        let document = analyze(None, GAME.to_string());
        let games = viewer_games(&*document);
        assert_eq!(games.len(), 1);
        let labels: Vec<&str> = games[0].states.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["start", "1.", "1...", "2."]);
        assert_eq!(games[0].states[1].comment, "centre");
        assert_eq!(state_caption(&games[0].states[2]), "1... M@a2");
    }

    #[test]
    fn the_html_page_holds_its_data_and_both_scripts() {
        let document = analyze(None, GAME.to_string());
        let page = html_page(
            &*document,
            &HtmlPage {
                title: "a <game>".to_string(),
                ..HtmlPage::default()
            },
        )
        .unwrap();
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.contains("<title>a &lt;game&gt;</title>"));
        assert!(page.contains("class PpnViewer"));
        assert!(page.contains("id=\"ppn-game-data\" data-encoding=\"gzip+base64\">H4sI"));
        // Nothing is fetched: no address in the page.
        assert!(
            !page.contains("http://") && !page.contains("https://"),
            "{page}"
        );
        let empty = analyze(None, String::new());
        assert!(html_page(&*empty, &HtmlPage::default()).is_err());
        let other_game = HtmlPage {
            game: Some(1),
            ..HtmlPage::default()
        };
        assert!(html_page(&*document, &other_game).is_err());
    }
}
