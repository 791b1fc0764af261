//! Command-line front end: `check` for CI, `replay` to print board states, `games`,
//! `convert` and `migrate`.

mod args;
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

use clap::Parser;

use crate::exit_code;

pub use output::ColorChoice;

use args::{Cli, Command};

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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    use crate::cli::args::{CheckArgs, CheckFormat};

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
