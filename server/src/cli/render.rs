//! `ppn-ls render`: the picture of a board (SVG, PNG or a text diagram), or an animation of
//! a whole game (animated GIF or SVG).

use std::path::{Path, PathBuf};

use crate::cli::output::{display_path, source_path};
use crate::cli::output::{print_out, read_input, report_error};
use crate::exit_code;
use crate::ide::analyze::{analyze_boards, with_frames};
use crate::ide::viewer::{html_page, state_caption, HtmlPage};
use crate::model::line_index::{ColumnUnit, LineCol};
use crate::model::notation_document::{LineState, NotationDocument};
use crate::render::raster;
use crate::render::svg::{animation, still_frames, svg, SvgOptions};
use crate::render::text::{diagram, TextOptions};

/// What `ppn-ls render` was asked for.
#[derive(Clone, Debug, Default)]
pub struct RenderRequest {
    pub file: PathBuf,
    pub game: Option<usize>,
    pub move_label: Option<String>,
    /// `LINE[:COLUMN]`, 1-based: the move under (or last before) that position.
    pub at: Option<String>,
    pub output: Option<PathBuf>,
    pub format: Option<String>,
    pub width: Option<u32>,
    pub flip: bool,
    pub no_changes: bool,
    pub no_coordinates: bool,
    pub animate: bool,
    pub frame_ms: u32,
    pub ascii: bool,
    pub board_style: crate::render::text::BoardStyle,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Picture {
    Svg,
    Png,
    Gif,
    Text,
    /// Every board of the games with the viewer's controls, in one file.
    Html,
}

fn picture_format(args: &RenderRequest) -> Result<Picture, String> {
    let named = args.format.clone().or_else(|| {
        args.output
            .as_deref()
            .and_then(Path::extension)
            .map(|ext| ext.to_string_lossy().to_ascii_lowercase())
    });
    match named.as_deref() {
        None => Ok(if args.animate {
            Picture::Svg
        } else {
            Picture::Text
        }),
        Some("svg") => Ok(Picture::Svg),
        Some("png") => Ok(Picture::Png),
        Some("gif") => Ok(Picture::Gif),
        Some("txt" | "text") => Ok(Picture::Text),
        Some("html" | "htm") => Ok(Picture::Html),
        Some(other) => Err(format!(
            "cannot write a picture as {other:?}: use .svg, .png, .gif, .html or .txt"
        )),
    }
}

pub fn run(args: &RenderRequest) -> i32 {
    match render(args) {
        Ok(()) => exit_code::SUCCESS,
        Err(message) => {
            report_error(display_path(&args.file), message);
            exit_code::USAGE
        }
    }
}

fn render(args: &RenderRequest) -> Result<(), String> {
    let picture = picture_format(args)?;
    if picture == Picture::Gif && !args.animate {
        return Err("a GIF is an animation: add --animate (or write .png or .svg)".to_string());
    }
    if args.animate && matches!(picture, Picture::Png | Picture::Text) {
        return Err("an animation is written as .gif or .svg".to_string());
    }
    let file = &args.file;
    let text = read_input(file).map_err(|err| crate::cli::output::io_message(&err))?;
    let path = source_path(file);
    let document = analyze_boards(path, text);
    let games = document.games();
    if games.is_empty() {
        return Err("no game to draw".to_string());
    }
    let states = select_states(&*document, args, games.len())?;
    let options = SvgOptions {
        width: args.width,
        flip: args.flip,
        changes: !args.no_changes,
        coordinates: !args.no_coordinates,
        caption: None,
    };
    let bytes: Vec<u8> = if picture == Picture::Html {
        let named_state = args.move_label.is_some() || args.at.is_some();
        let page = HtmlPage {
            title: html_title(file),
            svg: options,
            game: args.game.map(|game| game - 1),
            start: states
                .last()
                .filter(|_| named_state)
                .map(|state| state.state),
        };
        html_page(&*document, &page)?.into_bytes()
    } else if args.animate {
        let seconds = f64::from(args.frame_ms) / 1000.0;
        with_frames(&*document, &states, |frames| match picture {
            Picture::Gif => {
                let mut out = Vec::new();
                raster::gif(still_frames(frames, &options), args.frame_ms, &mut out)
                    .map_err(|err| err.0)?;
                Ok::<_, String>(out)
            }
            _ => Ok(animation(frames, &options, seconds).into_bytes()),
        })?
    } else {
        let Some(state) = states.last() else {
            return Err("no board to draw".to_string());
        };
        let scene = document
            .scene(state.state)
            .ok_or_else(|| "the board of that move cannot be drawn".to_string())?;
        match picture {
            Picture::Text => {
                let options = TextOptions {
                    ascii: args.ascii,
                    changes: !args.no_changes,
                    coordinates: !args.no_coordinates,
                    legend: true,
                    style: args.board_style,
                };
                format!(
                    "--- {}\n{}",
                    state_caption(state),
                    diagram(&scene, &options)
                )
                .into_bytes()
            }
            _ => {
                let options = SvgOptions {
                    caption: Some(state_caption(state)),
                    ..options
                };
                let picture_svg = svg(&scene, &options);
                if picture == Picture::Png {
                    raster::png(&picture_svg).map_err(|err| err.0)?
                } else {
                    picture_svg.into_bytes()
                }
            }
        }
    };
    match &args.output {
        Some(path) if path.as_os_str() != "-" => {
            std::fs::write(path, &bytes).map_err(|err| format!("{}: {err}", path.display()))
        }
        _ => {
            if matches!(picture, Picture::Png | Picture::Gif) {
                use std::io::Write;
                let mut stdout = std::io::stdout().lock();
                let _ = stdout.write_all(&bytes).and_then(|()| stdout.flush());
            } else {
                print_out(&String::from_utf8_lossy(&bytes));
            }
            Ok(())
        }
    }
}

/// A one-file game's title: the file's name.
fn html_title(file: &Path) -> String {
    let Some(file) = source_path(file) else {
        return "Game".to_string();
    };
    file.file_name().map_or_else(
        || file.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}

/// The states to draw: the whole main line of the game for an animation, else the one
/// `--move` or `--at` names (the last of the game by default).
fn select_states(
    document: &dyn NotationDocument,
    args: &RenderRequest,
    game_count: usize,
) -> Result<Vec<LineState>, String> {
    if let Some(at) = &args.at {
        let offset = offset_of(document, at)?;
        let found = document
            .move_at(offset, true)
            .ok_or_else(|| format!("--at {at}: no game there"))?;
        let line = document.main_line(found.state.game);
        if args.animate {
            return Ok(line);
        }
        // A move of a variation is drawn too (an animation is of the main line).
        let state = line
            .into_iter()
            .find(|state| state.state == found.state)
            .or_else(|| {
                document
                    .variations(found.state.game)
                    .into_iter()
                    .flat_map(|variation| variation.states)
                    .find(|state| state.state == found.state)
            })
            .ok_or_else(|| format!("--at {at}: that move has no board"))?;
        return Ok(vec![state]);
    }
    let game = args.game.unwrap_or(1);
    if game == 0 || game > game_count {
        return Err(format!("--game {game}: the file has {game_count} game(s)"));
    }
    let line = document.main_line(game - 1);
    if args.animate {
        return Ok(line);
    }
    match &args.move_label {
        Some(label) => {
            let named = |state: &LineState| state.answers_to(label);
            line.iter()
                .find(|state| named(state))
                .cloned()
                .or_else(|| {
                    document
                        .variations(game - 1)
                        .into_iter()
                        .flat_map(|variation| variation.states)
                        .find(|state| named(state))
                })
                .map(|state| vec![state])
                .ok_or_else(|| format!("--move {label}: no move of game {game} has that label"))
        }
        None => Ok(line.last().cloned().into_iter().collect()),
    }
}

/// The byte offset of `LINE[:COLUMN]` (1-based, columns in characters).
fn offset_of(document: &dyn NotationDocument, at: &str) -> Result<usize, String> {
    let (line, column) = at.split_once(':').unwrap_or((at, "1"));
    let parse = |text: &str| text.trim().parse::<usize>().ok().filter(|&n| n >= 1);
    let (Some(line), Some(column)) = (parse(line), parse(column)) else {
        return Err(format!(
            "--at {at}: expected LINE or LINE:COLUMN, counted from 1"
        ));
    };
    Ok(document.line_index().offset(
        document.text(),
        LineCol {
            line: line - 1,
            col: column - 1,
        },
        ColumnUnit::Chars,
    ))
}
