//! Command-line front end: `check` for CI, `replay` to print board states, `games`,
//! `convert` and `migrate`.

mod check;
mod convert;
mod fix;
mod fmt;
mod games;
mod migrate;
mod output;
mod paths;
mod render;
mod replay;
mod snippet;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::exit_code;

pub use output::ColorChoice;

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
struct Cli {
    /// Speak the Language Server Protocol over standard input and output (the default).
    #[arg(long)]
    stdio: bool,

    /// Read standard input (`-`) as this file: its extension picks the notation, its
    /// folder the `ppn-ls.toml`, and messages name it (for editors that pipe a buffer in).
    #[arg(long, global = true, value_name = "PATH")]
    stdin_filename: Option<PathBuf>,

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Lint files and directories (`--check PATH...` does the same).
    Check(CheckArgs),
    /// Replay every game of files and directories and print the board after every move.
    Replay(ReplayArgs),
    /// Write a file in another notation (`--to ppn`, `otn`, `annofen`, `xay`, `wxf`).
    Convert {
        /// The file to convert, or `-` for standard input (read as PPN unless
        /// `--stdin-filename` names it otherwise).
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
    Migrate(migrate::MigrateArgs),
    /// Draw a board as SVG, PNG or text, or a whole game as an animated GIF or SVG.
    Render(RenderArgs),
    /// Lay files out in place (`--check` and `--diff` write nothing).
    Fmt(fmt::FmtArgs),
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// Files, directories (searched for every format ppn-ls reads) or `-` for standard
    /// input.
    #[arg(value_name = "PATH", required = true)]
    paths: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = CheckFormat::Human)]
    format: CheckFormat,

    /// Exit 1 on warnings too.
    #[arg(long)]
    deny_warnings: bool,

    /// Colour the human output: `auto` colours it on a terminal unless `NO_COLOR` is set.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    color: ColorChoice,

    /// Say which format each xiangqi-setup file was read as, also where nothing depends on
    /// it (by default only for a file with diagnostics whose content makes it another
    /// format than its extension names).
    #[arg(short, long)]
    verbose: bool,
    /// Make every safe fix in the files (listed on standard error), then check them.
    #[arg(long)]
    fix: bool,
}

#[derive(Args, Debug)]
struct GamesArgs {
    #[arg(long, value_enum, default_value_t = ReplayFormat::Text)]
    format: ReplayFormat,
    /// Only the games whose event, players, date, game, result or other metadata hold
    /// every word of TEXT (ignoring case).
    #[arg(long, value_name = "TEXT")]
    find: Option<String>,
    /// Files and folders whose games to list (default with `--find`: the current folder).
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
}

#[derive(Args, Debug)]
struct ReplayArgs {
    /// Files, directories, or `-` for standard input.
    #[arg(value_name = "PATH", required = true)]
    paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = ReplayFormat::Text)]
    format: ReplayFormat,
    /// Only this game of each file (1-based).
    #[arg(long)]
    game: Option<usize>,
    /// Only the state after the move with this label (e.g. `12` or `12.`, `12...`, `start`).
    #[arg(long = "move", value_name = "LABEL")]
    move_label: Option<String>,
    /// Text: after the starting board, only what each move changed.
    #[arg(long)]
    changes: bool,
    /// Text: ASCII characters only.
    #[arg(long)]
    ascii: bool,
    /// Text: plain (characters every monospace font has) or reference (the reference's
    /// glyphs, which need a font with combining enclosures).
    #[arg(long, value_enum, default_value_t = BoardStyleArg::Plain, value_name = "STYLE")]
    board_style: BoardStyleArg,
}

#[derive(Args, Debug)]
struct RenderArgs {
    /// The file to draw, or `-` for standard input.
    file: PathBuf,
    /// Where to write: .svg, .png, .txt, .html (every board, with controls to step through
    /// them), or .gif with --animate (default: standard output).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// What to write (default: from the output's extension; text without one).
    #[arg(long, value_parser = ["svg", "png", "gif", "text", "html"])]
    format: Option<String>,
    /// The game (1-based; default 1).
    #[arg(long)]
    game: Option<usize>,
    /// The board after the move with this label (`2` or `2.`; default: the game's last board).
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
    /// Text: plain or reference characters (as for `replay`).
    #[arg(long, value_enum, default_value_t = BoardStyleArg::Plain, value_name = "STYLE")]
    board_style: BoardStyleArg,
}

/// The characters of text diagrams.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum BoardStyleArg {
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

const SUBCOMMANDS: &[&str] = &[
    "check", "replay", "convert", "games", "migrate", "fmt", "help",
];
/// Options that take a value as the next argument, to tell values from commands.
const OPTIONS_WITH_VALUES: &[&str] = &[
    "--format",
    "--game",
    "--move",
    "--to",
    "--output",
    "-o",
    "--color",
    "--line-width",
    "--find",
    "--board-style",
    "--stdin-filename",
];

/// The arguments as clap reads them: `--check` (the older spelling) becomes the `check`
/// command wherever it is written, and options written before a command move after it,
/// so `ppn-ls --check --format json FILE` and `ppn-ls --format json check FILE` both work.
pub fn normalize_args(args: Vec<String>) -> Vec<String> {
    let Some((program, rest)) = args.split_first() else {
        return args;
    };
    let end = rest.iter().position(|a| a == "--").unwrap_or(rest.len());
    let mut rest = rest.to_vec();
    // `fmt` has a `--check` of its own.
    let end = first_command(&rest)
        .filter(|&command| rest[command] == "fmt")
        .unwrap_or(end);
    let check_flag = rest[..end]
        .iter()
        .position(|a| a == "--check" || a.starts_with("--check="));
    if let Some(at) = check_flag {
        let flag = rest.remove(at);
        let mut front = vec!["check".to_string()];
        if let Some(path) = flag.strip_prefix("--check=") {
            front.push(path.to_string());
        }
        // Paths written right after `--check` stay right after the command.
        rest.splice(at..at, front.iter().skip(1).cloned());
        rest.insert(0, front.remove(0));
        // Options before `--check` now sit after `check`, where the command reads them.
    } else if let Some(command) = first_command(&rest) {
        let moved: Vec<String> = rest.drain(..command).collect();
        rest.splice(1..1, moved);
    }
    std::iter::once(program.clone()).chain(rest).collect()
}

/// Where the command is when only options come before it.
fn first_command(args: &[String]) -> Option<usize> {
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        if SUBCOMMANDS.contains(&arg.as_str()) {
            return Some(i);
        }
        if !arg.starts_with('-') || arg == "-" {
            return None;
        }
        i += if OPTIONS_WITH_VALUES.contains(&arg.as_str()) {
            2
        } else {
            1
        };
    }
    None
}

/// Runs the command the arguments name and returns the process exit code;
/// `before_serving` is called when that is the language server, before it starts.
pub fn run(before_serving: fn()) -> i32 {
    let args = normalize_args(std::env::args().collect());
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return if err.use_stderr() {
                exit_code::USAGE
            } else {
                0
            };
        }
    };
    if let Some(name) = cli.stdin_filename {
        output::set_stdin_name(name);
    }
    match cli.command {
        Some(Command::Check(args)) => check::run(&check::Options {
            paths: args.paths,
            format: args.format,
            deny_warnings: args.deny_warnings,
            color: args.color.enabled_for_stdout(),
            verbose: args.verbose,
            fix: args.fix,
        }),
        Some(Command::Replay(args)) => replay::run(
            &args.paths,
            args.format,
            args.game,
            args.move_label.as_deref(),
            replay::TextStyle {
                changes: args.changes,
                ascii: args.ascii,
                board: args.board_style.into(),
            },
        ),
        Some(Command::Render(args)) => render::run(&render::RenderRequest {
            file: args.file,
            game: args.game,
            move_label: args.move_label,
            at: args.at,
            output: args.output,
            format: args.format,
            width: args.size,
            flip: args.flip,
            no_changes: args.no_changes,
            no_coordinates: args.no_coordinates,
            animate: args.animate,
            frame_ms: args.frame_time,
            ascii: args.ascii,
            board_style: args.board_style.into(),
        }),
        Some(Command::Convert { file, to, output }) => convert::run(&file, &to, output.as_deref()),
        Some(Command::Games(args)) => {
            if args.find.is_some() || !args.paths.is_empty() {
                games::run_find(args.find.as_deref(), &args.paths, args.format)
            } else {
                games::run(args.format)
            }
        }
        Some(Command::Migrate(args)) => migrate::run(&args),
        Some(Command::Fmt(args)) => fmt::run(&args),
        // No command, or `--stdio`: be the language server.
        None => {
            if !cli.stdio {
                output::explain_language_server_on_a_terminal();
            }
            before_serving();
            crate::lsp::run_stdio()
        }
    }
}

pub(crate) use output::{print_out, read_input, report_error, report_warning};

#[cfg(test)]
mod tests {
    use super::*;

    fn normalized(args: &[&str]) -> Vec<String> {
        let mut all = vec!["ppn-ls".to_string()];
        all.extend(args.iter().map(|a| a.to_string()));
        normalize_args(all)[1..].to_vec()
    }

    fn parses(args: &[&str]) -> Cli {
        let mut all = vec!["ppn-ls".to_string()];
        all.extend(args.iter().map(|a| a.to_string()));
        Cli::try_parse_from(normalize_args(all)).unwrap_or_else(|e| panic!("{args:?}: {e}"))
    }

    fn check_args(cli: Cli) -> CheckArgs {
        match cli.command {
            Some(Command::Check(args)) => args,
            other => panic!("expected check, got {other:?}"),
        }
    }

    #[test]
    fn check_options_go_before_or_after_the_paths() {
        for args in [
            &["--check", "--format", "json", "a.ppn"][..],
            &["--check", "a.ppn", "--format", "json"],
            &["--format", "json", "--check", "a.ppn"],
            &["--check=a.ppn", "--format=json"],
            &["check", "a.ppn", "--format", "json"],
            &["--format", "json", "check", "a.ppn"],
        ] {
            let parsed = check_args(parses(args));
            assert_eq!(parsed.paths, [PathBuf::from("a.ppn")], "{args:?}");
            assert_eq!(parsed.format, CheckFormat::Json, "{args:?}");
        }
        let both = check_args(parses(&["--deny-warnings", "--check", "a", "b"]));
        assert!(both.deny_warnings);
        assert_eq!(both.paths.len(), 2);
    }

    #[test]
    fn only_leading_options_move_after_a_command() {
        assert_eq!(
            normalized(&["--format", "json", "replay", "a.ppn"]),
            ["replay", "--format", "json", "a.ppn"]
        );
        // A file named like a command is a file.
        assert_eq!(
            normalized(&["replay", "games", "--move", "1."]),
            ["replay", "games", "--move", "1."]
        );
        assert_eq!(
            normalized(&["--check", "--", "--check"]),
            ["check", "--", "--check"]
        );
    }

    #[test]
    fn fmt_keeps_its_own_check() {
        for args in [
            &["fmt", "--check", "games"][..],
            &["fmt", "games", "--check"],
            &["--line-width", "60", "fmt", "--check"],
        ] {
            let Some(Command::Fmt(fmt)) = parses(args).command else {
                panic!("{args:?} is not fmt");
            };
            assert!(format!("{fmt:?}").contains("check: true"), "{fmt:?}");
        }
        assert_eq!(
            normalized(&["--check", "fmt"]),
            ["check", "fmt"],
            "a file named fmt"
        );
    }

    #[test]
    fn no_command_is_the_language_server() {
        let cli = parses(&[]);
        assert!(cli.command.is_none());
        assert!(parses(&["--stdio"]).stdio);
    }
}
