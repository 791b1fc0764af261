//! The command line's arguments, as clap reads them: the commands and their options.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::cli::output::ColorChoice;

#[derive(Parser, Debug)]
#[command(
    name = "ppn-ls",
    version,
    about = "Language server, linter and replay tool for Portable Piecepack Notation (PPN)",
    long_about = "Language server, linter and replay tool for Portable Piecepack Notation (PPN).\n\n\
                  Without a command, ppn-ls speaks the Language Server Protocol on standard input \
                  and output: that is how editors start it.",
    after_help = "Examples:\n  ppn-ls check games/                 lint every file ppn-ls reads under games/\n  \
                  ppn-ls replay game.ppn --move 12.   the board after move 12.\n  \
                  ppn-ls render game.ppn -o end.png   a picture of the last board\n  \
                  ppn-ls games                        every game GameType knows\n  \
                  ppn-ls migrate old.ppn -o new.ppn   rewrite an older PPN version's forms\n  \
                  ppn-ls fmt --check games/           exit 1 if a file's layout would change\n  \
                  ppn-ls check --fix games/           make every safe fix, then lint\n  \
                  ppn-ls games --find ann games/      the games Ann played"
)]
pub(super) struct Cli {
    /// Speak the Language Server Protocol over standard input and output (the default).
    #[arg(long)]
    pub(super) stdio: bool,

    /// Read standard input (`-`) as this file: its extension picks the notation, its
    /// folder the `ppn-ls.toml`, and messages name it (for editors that pipe a buffer in).
    #[arg(long, global = true, value_name = "PATH")]
    pub(super) stdin_filename: Option<PathBuf>,

    #[command(subcommand)]
    pub(super) command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub(super) enum Command {
    /// Lint files and directories (`--check PATH...` does the same).
    Check(CheckArgs),
    /// Replay every game of files and directories and print the board after every move.
    Replay(ReplayArgs),
    /// Write a file in another notation (`--to ppn`, `otn`, `annofen`, `xay`, `wxf`).
    Convert {
        /// The file to convert, or `-` for standard input (its notation told by its content
        /// unless `--stdin-filename` names it).
        file: PathBuf,
        /// The notation to write.
        #[arg(long, value_name = "NOTATION")]
        to: String,
        /// Where to write it (default: standard output).
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// List every game `GameType` and `SetUp` know, with their systems and arguments; with
    /// paths or `--find`, the games of files and folders instead.
    Games(GamesArgs),
    /// Rewrite the forms of older PPN versions in the spelling of PPN 0.14.
    Migrate(crate::cli::migrate::MigrateArgs),
    /// Draw a board as SVG, PNG or text, or a whole game as an animated GIF or SVG.
    Render(RenderArgs),
    /// Lay files out in place (`--check` and `--diff` write nothing).
    Fmt(crate::cli::fmt::FmtArgs),
}

#[derive(Args, Debug)]
pub(super) struct CheckArgs {
    /// Files, directories (searched for every format ppn-ls reads) or `-` for standard
    /// input.
    #[arg(value_name = "PATH", required = true)]
    pub(super) paths: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = CheckFormat::Human)]
    pub(super) format: CheckFormat,

    /// Exit 1 on warnings too.
    #[arg(long)]
    pub(super) deny_warnings: bool,

    /// Colour the human output: `auto` colours it on a terminal unless `NO_COLOR` is set.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub(super) color: ColorChoice,

    /// Say which format each xiangqi-setup file was read as, also where nothing depends on
    /// it (by default only for a file with diagnostics whose content makes it another
    /// format than its extension names).
    #[arg(short, long)]
    pub(super) verbose: bool,
    /// Make every safe fix in the files (listed on standard error), then check them.
    #[arg(long)]
    pub(super) fix: bool,
}

#[derive(Args, Debug)]
pub(super) struct GamesArgs {
    #[arg(long, value_enum, default_value_t = ReplayFormat::Text)]
    pub(super) format: ReplayFormat,
    /// Only the games whose event, players, date, game, result or other metadata hold
    /// every word of TEXT (ignoring case).
    #[arg(long, value_name = "TEXT")]
    pub(super) find: Option<String>,
    /// Files and folders whose games to list (default with `--find`: the current folder).
    #[arg(value_name = "PATH")]
    pub(super) paths: Vec<PathBuf>,
}

#[derive(Args, Debug)]
pub(super) struct ReplayArgs {
    /// Files, directories, or `-` for standard input.
    #[arg(value_name = "PATH", required = true)]
    pub(super) paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = ReplayFormat::Text)]
    pub(super) format: ReplayFormat,
    /// Only this game of each file (1-based).
    #[arg(long)]
    pub(super) game: Option<usize>,
    /// Only the state after the move with this label (e.g. `12` or `12.`, `12...`, `start`).
    #[arg(long = "move", value_name = "LABEL")]
    pub(super) move_label: Option<String>,
    /// Text: after the starting board, only what each move changed.
    #[arg(long)]
    pub(super) changes: bool,
    /// Text: ASCII characters only.
    #[arg(long)]
    pub(super) ascii: bool,
    /// Text: plain (characters every monospace font has) or reference (the reference's
    /// glyphs, which need a font with combining enclosures).
    #[arg(long, value_enum, default_value_t = BoardStyleArg::Plain, value_name = "STYLE")]
    pub(super) board_style: BoardStyleArg,
}

#[derive(Args, Debug)]
pub(super) struct RenderArgs {
    /// The file to draw, or `-` for standard input.
    pub(super) file: PathBuf,
    /// Where to write: .svg, .png, .txt, .html (every board, with controls to step through
    /// them), or .gif with --animate (default: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub(super) output: Option<PathBuf>,
    /// What to write (default: from the output's extension; text without one).
    #[arg(long, value_parser = ["svg", "png", "gif", "text", "html"])]
    pub(super) format: Option<String>,
    /// The game (1-based; default 1).
    #[arg(long)]
    pub(super) game: Option<usize>,
    /// The board after the move with this label (`2` or `2.`; default: the game's last board).
    #[arg(long = "move", value_name = "LABEL", conflicts_with = "at")]
    pub(super) move_label: Option<String>,
    /// The board after the move at (or last before) this position of the file, 1-based.
    #[arg(long, value_name = "LINE[:COLUMN]")]
    pub(super) at: Option<String>,
    /// The picture's width in pixels.
    #[arg(long, value_name = "PIXELS")]
    pub(super) size: Option<u32>,
    /// Seen from the other side of the table.
    #[arg(long)]
    pub(super) flip: bool,
    /// Do not outline what the move changed.
    #[arg(long)]
    pub(super) no_changes: bool,
    /// No files and ranks on the edges.
    #[arg(long)]
    pub(super) no_coordinates: bool,
    /// Every board of the game, one frame per move (.gif or .svg).
    #[arg(long)]
    pub(super) animate: bool,
    /// How long each frame of an animation shows, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub(super) frame_time: u32,
    /// Text: ASCII characters only.
    #[arg(long)]
    pub(super) ascii: bool,
    /// Text: plain or reference characters (as for `replay`).
    #[arg(long, value_enum, default_value_t = BoardStyleArg::Plain, value_name = "STYLE")]
    pub(super) board_style: BoardStyleArg,
}

/// The characters of text diagrams.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub(super) enum BoardStyleArg {
    Plain,
    Reference,
}

impl From<BoardStyleArg> for crate::render::text::BoardStyle {
    fn from(arg: BoardStyleArg) -> Self {
        match arg {
            BoardStyleArg::Plain => Self::Plain,
            BoardStyleArg::Reference => Self::Reference,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum CheckFormat {
    Human,
    Json,
    Github,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ReplayFormat {
    Json,
    Text,
}
