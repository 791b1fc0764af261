//! Command-line front end: `--check` for CI, `replay` to print board states.

mod check;
mod convert;
mod games;
mod render;
mod replay;

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

/// Exit code for a usage or I/O error.
pub const EXIT_USAGE: i32 = 2;

#[derive(Parser, Debug)]
#[command(
    name = "ppn-ls",
    version,
    about = "Language server, linter and replay tool for Portable Piecepack Notation (PPN)",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    /// Lint PPN files, directories (searched for *.ppn) or `-` for standard input.
    #[arg(long, value_name = "PATH", num_args = 1..)]
    check: Option<Vec<PathBuf>>,

    /// Output format of `--check`.
    #[arg(long, value_enum, default_value_t = CheckFormat::Human, requires = "check")]
    format: CheckFormat,

    /// With `--check`: exit 1 on warnings too.
    #[arg(long, requires = "check")]
    deny_warnings: bool,

    /// Speak the Language Server Protocol over standard input and output (the default).
    #[arg(long)]
    stdio: bool,

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Replay every game of a file and print the board after every move.
    Replay {
        /// A .ppn file, or `-` for standard input.
        file: PathBuf,
        #[arg(long, value_enum, default_value_t = ReplayFormat::Text)]
        format: ReplayFormat,
        /// Only this game (1-based).
        #[arg(long)]
        game: Option<usize>,
        /// Only the state after the move with this label (e.g. `12...`).
        #[arg(long = "move", value_name = "LABEL")]
        move_label: Option<String>,
        /// Text: only what each move changed, not the whole board.
        #[arg(long)]
        changes: bool,
        /// Text: draw with ASCII characters only.
        #[arg(long)]
        ascii: bool,
    },
    /// Draw a board as SVG, PNG or text, or a whole game as an animated GIF or SVG.
    Render(RenderCommand),
    /// Write a file in another notation (`--to ppn`, `otn`, `annofen`, `xay`, `wxf`).
    Convert {
        /// The file to convert, or `-` for standard input (read as PPN).
        file: PathBuf,
        /// The notation to write.
        #[arg(long, value_name = "NOTATION")]
        to: String,
        /// Where to write it (default: standard output).
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// List every known game setup with its systems and arguments.
    Games {
        #[arg(long, value_enum, default_value_t = ReplayFormat::Text)]
        format: ReplayFormat,
    },
}

#[derive(clap::Args, Debug)]
struct RenderCommand {
    /// The file to draw, or `-` for standard input.
    file: PathBuf,
    /// Where to write: .svg, .png, .txt, or .gif with --animate (default: standard output).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// What to write (default: from the output's extension; text without one).
    #[arg(long, value_parser = ["svg", "png", "gif", "text"])]
    format: Option<String>,
    /// The game (1-based; default 1).
    #[arg(long)]
    game: Option<usize>,
    /// The board after the move with this label (default: the game's last board).
    #[arg(long = "move", value_name = "LABEL", conflicts_with = "at")]
    move_label: Option<String>,
    /// The board after the move at (or last before) this position of the file, 1-based.
    #[arg(long, value_name = "LINE[:COLUMN]")]
    at: Option<String>,
    /// The picture's width in pixels.
    #[arg(long, value_name = "PIXELS")]
    size: Option<u32>,
    /// Seen from the other side of the table.
    #[arg(long)]
    flip: bool,
    /// Do not outline what the move changed.
    #[arg(long)]
    no_changes: bool,
    /// No files and ranks on the edges.
    #[arg(long)]
    no_coordinates: bool,
    /// Every board of the game, one frame per move (.gif or .svg).
    #[arg(long)]
    animate: bool,
    /// How long each frame of an animation shows, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    frame_time: u32,
    /// Text: ASCII characters only.
    #[arg(long)]
    ascii: bool,
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

/// Run the command line and return the process exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return if err.use_stderr() { EXIT_USAGE } else { 0 };
        }
    };
    if let Some(paths) = cli.check {
        return check::run(&paths, cli.format, cli.deny_warnings);
    }
    match cli.command {
        Some(Command::Replay {
            file,
            format,
            game,
            move_label,
            changes,
            ascii,
        }) => replay::run(
            &file,
            format,
            game,
            move_label.as_deref(),
            replay::TextStyle { changes, ascii },
        ),
        Some(Command::Render(command)) => render::run(&render::RenderArgs {
            file: command.file,
            game: command.game,
            move_label: command.move_label,
            at: command.at,
            output: command.output,
            format: command.format,
            width: command.size,
            flip: command.flip,
            no_changes: command.no_changes,
            no_coordinates: command.no_coordinates,
            animate: command.animate,
            frame_ms: command.frame_time,
            ascii: command.ascii,
        }),
        Some(Command::Convert { file, to, output }) => convert::run(&file, &to, output.as_deref()),
        Some(Command::Games { format }) => games::run(format),
        // No arguments, or `--stdio`: be the language server.
        None => crate::lsp::run_stdio(),
    }
}

/// Write to standard output; a reader that went away (`ppn-ls games | head`) is not an
/// error worth a panic.
pub(crate) fn print_out(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
}

/// Read a file, or standard input for `-`.
pub(crate) fn read_input(path: &std::path::Path) -> std::io::Result<String> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)?;
        Ok(text)
    } else {
        let bytes = std::fs::read(path)?;
        String::from_utf8(bytes).map_err(|err| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("not UTF-8 text ({err})"),
            )
        })
    }
}
