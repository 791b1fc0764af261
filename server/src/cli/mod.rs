//! Command-line front end: `--check` for CI, `replay` to print board states.

mod check;
mod convert;
mod games;
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
    },
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
        }) => replay::run(&file, format, game, move_label.as_deref()),
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
