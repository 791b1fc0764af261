//! `ppn-ls fmt`: files laid out in place (as `rustfmt` and `taplo fmt` do), `-` from
//! standard input to standard output, `--check` to gate CI, `--diff` to see the changes.

use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::cli::output::{config_for, display_path, io_message, source_path};
use crate::cli::output::{print_out, read_input, report_error};
use crate::cli::paths;
use crate::cli::snippet::ColumnIndex;
use crate::config::ConfigFiles;
use crate::exit_code;
use crate::ide::analyze::check_as;
use crate::ide::formatting::{format_text, formats, FormatError, FormatOptions, Formatted};
use crate::model::format::Format;

#[derive(Args, Debug)]
pub struct FmtArgs {
    /// Files and directories to format (default: the current directory), or `-` to read
    /// standard input (in the notation its content shows, or as `--stdin-filename` names
    /// it) and write the result to
    /// standard output.
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Write nothing: list the files whose layout would change, and exit 1 if any would.
    #[arg(long)]
    check: bool,
    /// Write nothing: print what would change as a unified diff, and exit 1 if anything
    /// would.
    #[arg(long)]
    diff: bool,
    /// The widest a line of moves is made (default: `[format] line-width` of the
    /// `ppn-ls.toml` found for each file, else 80).
    #[arg(long, value_name = "CHARACTERS")]
    line_width: Option<usize>,
}

impl FmtArgs {
    /// The options for `file`: the command line's, else those of the `ppn-ls.toml` in force
    /// for it, else the defaults.
    fn options(&self, configs: &ConfigFiles, file: &Path) -> FormatOptions {
        let mut options = FormatOptions::default();
        let configured =
            || config_for(configs, file).and_then(|found| found.file.settings.format.line_width);
        if let Some(width) = self.line_width.or_else(configured) {
            options.line_width = width;
        }
        options
    }
}

/// What happened to each file, for the summary and the exit code.
#[derive(Default)]
struct Outcome {
    changed: usize,
    unchanged: usize,
    not_formatted: usize,
    failed: bool,
}

pub fn run(args: &FmtArgs) -> i32 {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let configs = ConfigFiles::new();
    let collected = paths::collect_except(&paths, &|path| {
        configs
            .for_file(path)
            .is_some_and(|config| config.excludes(path))
    });
    let mut outcome = Outcome::default();
    for (path, why) in &collected.failures {
        report_error(display_path(path), why);
        outcome.failed = true;
    }
    for file in &collected.files {
        let named = paths.iter().any(|path| path == file);
        let options = args.options(&configs, file);
        format_file(file, named, args, &options, &mut outcome);
    }
    let writes = !(args.check || args.diff);
    let files = |n: usize| format!("{n} file{}", if n == 1 { "" } else { "s" });
    if collected.files.iter().any(|file| file.as_os_str() != "-") {
        let summary = if writes {
            format!(
                "{} formatted, {} already formatted",
                files(outcome.changed),
                files(outcome.unchanged)
            )
        } else {
            format!(
                "{} would be formatted, {} already formatted",
                files(outcome.changed),
                files(outcome.unchanged)
            )
        };
        let not_formatted = if outcome.not_formatted > 0 {
            format!(", {} not formatted", files(outcome.not_formatted))
        } else {
            String::new()
        };
        eprintln!("{summary}{not_formatted}");
    }
    if outcome.failed {
        exit_code::USAGE
    } else if outcome.not_formatted > 0 || (!writes && outcome.changed > 0) {
        exit_code::PROBLEMS
    } else {
        exit_code::SUCCESS
    }
}

fn format_file(
    file: &Path,
    named: bool,
    args: &FmtArgs,
    options: &FormatOptions,
    outcome: &mut Outcome,
) {
    let name = display_path(file);
    let text = match read_input(file) {
        Ok(text) => text,
        Err(err) => {
            report_error(&name, io_message(&err));
            outcome.failed = true;
            return;
        }
    };
    let stdin = file.as_os_str() == "-";
    let format = Format::detect(source_path(file), &text);
    if !formats(format) {
        if named || stdin {
            eprintln!(
                "{name}: not formatted: ppn-ls has no layout for {} files",
                format.name()
            );
        }
        if stdin && !(args.check || args.diff) {
            print_out(&text);
        }
        return;
    }
    let diagnostics = check_as(format, &text);
    let formatted = match format_text(format, &text, &diagnostics, options) {
        Ok(formatted) => formatted,
        Err(error) => {
            report_not_formatted(&name, &text, &error);
            outcome.not_formatted += 1;
            if stdin && !(args.check || args.diff) {
                // Nothing is lost: what came in goes out.
                print_out(&text);
            }
            return;
        }
    };
    for game in &formatted.games_left_as_written {
        eprintln!(
            "{name}: game {} left as written: its new layout would not read back the same",
            game + 1
        );
    }
    if formatted.changes_nothing() {
        outcome.unchanged += 1;
        if stdin && !(args.check || args.diff) {
            print_out(&text);
        }
        return;
    }
    outcome.changed += 1;
    let new_text = formatted.apply(&text);
    if args.diff {
        print_out(&unified_diff(&name, &text, &new_text, &formatted));
    }
    if args.check {
        if !args.diff {
            print_out(&format!("{name}: would be formatted\n"));
        }
        return;
    }
    if args.diff {
        return;
    }
    if stdin {
        print_out(&new_text);
    } else if let Err(err) = write_in_place(file, &new_text) {
        report_error(&name, io_message(&err));
        outcome.failed = true;
    }
}

fn report_not_formatted(name: &str, text: &str, error: &FormatError) {
    match error {
        FormatError::DoesNotParse(diagnostic) => {
            let at = ColumnIndex::new(text).position(diagnostic.range.start);
            eprintln!(
                "{name}:{}:{}: not formatted: the file does not parse: {} ({})",
                at.line, at.column, diagnostic.message, diagnostic.code
            );
        }
        FormatError::Unsupported(_) => eprintln!("{name}: {error}"),
    }
}

/// Writes through a file beside it, renamed over it, so that an interrupted write leaves
/// the old file whole.
pub(super) fn write_in_place(file: &Path, text: &str) -> std::io::Result<()> {
    let mut beside = file.as_os_str().to_owned();
    beside.push(".ppn-ls-fmt");
    let beside = PathBuf::from(beside);
    let written = (|| {
        let mut out = std::fs::File::create(&beside)?;
        out.write_all(text.as_bytes())?;
        out.sync_all()?;
        if let Ok(metadata) = std::fs::metadata(file) {
            std::fs::set_permissions(&beside, metadata.permissions())?;
        }
        std::fs::rename(&beside, file)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&beside);
    }
    written
}

/// Lines around a change shown in a diff.
const CONTEXT_LINES: usize = 3;

/// The starts of the lines of `text` (`\n`, `\r\n` or `\r` ending them), and its length.
fn line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    for (at, &byte) in bytes.iter().enumerate() {
        let ends_line = byte == b'\n' || (byte == b'\r' && bytes.get(at + 1) != Some(&b'\n'));
        if ends_line && at + 1 < bytes.len() {
            starts.push(at + 1);
        }
    }
    starts
}

fn line_of(starts: &[usize], offset: usize) -> usize {
    starts
        .partition_point(|&start| start <= offset)
        .saturating_sub(1)
}

fn line_text<'a>(text: &'a str, starts: &[usize], line: usize) -> &'a str {
    let end = starts.get(line + 1).copied().unwrap_or(text.len());
    text[starts[line]..end].trim_end_matches(['\n', '\r'])
}

/// The changes of `formatted` as a unified diff of `old` and `new`, found from its edits
/// rather than by comparing every line (a long game's lines all change at once).
pub fn unified_diff(name: &str, old: &str, new: &str, formatted: &Formatted) -> String {
    let old_starts = line_starts(old);
    let new_starts = line_starts(new);
    // Each edit as the lines it spans in the old and the new text.
    let mut changes: Vec<(Range<usize>, Range<usize>)> = Vec::new();
    let mut shift: isize = 0;
    for (range, replacement) in &formatted.edits {
        let new_start = range.start.saturating_add_signed(shift);
        let new_end = new_start + replacement.len();
        shift += replacement.len() as isize - range.len() as isize;
        // An edit that ends a line in both texts leaves the next line as it was.
        let ends_line = |text: &str, end: usize| {
            end > 0 && matches!(text.as_bytes().get(end - 1), Some(b'\n' | b'\r'))
        };
        let both_end_lines = range.end > range.start
            && new_end > new_start
            && ends_line(old, range.end)
            && ends_line(new, new_end);
        let last = usize::from(both_end_lines);
        let old_lines =
            line_of(&old_starts, range.start)..line_of(&old_starts, range.end - last) + 1;
        let new_lines = line_of(&new_starts, new_start)..line_of(&new_starts, new_end - last) + 1;
        match changes.last_mut() {
            Some((old_last, new_last)) if old_lines.start < old_last.end => {
                old_last.end = old_last.end.max(old_lines.end);
                new_last.end = new_last.end.max(new_lines.end);
            }
            _ => changes.push((old_lines, new_lines)),
        }
    }
    let mut out = format!("--- {name}\n+++ {name} (formatted)\n");
    let mut index = 0;
    while index < changes.len() {
        // A hunk: changes whose context lines meet.
        let mut last = index;
        while last + 1 < changes.len()
            && changes[last + 1].0.start <= changes[last].0.end + 2 * CONTEXT_LINES
        {
            last += 1;
        }
        let old_from = changes[index].0.start.saturating_sub(CONTEXT_LINES);
        let new_from = changes[index].1.start - (changes[index].0.start - old_from);
        let old_to = (changes[last].0.end + CONTEXT_LINES).min(old_starts.len());
        let new_to = changes[last].1.end + (old_to - changes[last].0.end);
        let new_to = new_to.min(new_starts.len());
        out.push_str(&format!(
            "@@ -{},{} +{},{} @@\n",
            old_from + 1,
            old_to - old_from,
            new_from + 1,
            new_to - new_from
        ));
        let mut old_line = old_from;
        for (old_lines, new_lines) in &changes[index..=last] {
            for line in old_line..old_lines.start {
                out.push_str(&format!(" {}\n", line_text(old, &old_starts, line)));
            }
            for line in old_lines.clone() {
                out.push_str(&format!("-{}\n", line_text(old, &old_starts, line)));
            }
            for line in new_lines.clone() {
                out.push_str(&format!("+{}\n", line_text(new, &new_starts, line)));
            }
            old_line = old_lines.end;
        }
        for line in old_line..old_to {
            out.push_str(&format!(" {}\n", line_text(old, &old_starts, line)));
        }
        index = last + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diff_shows_the_changed_lines_with_their_context() {
        let old = "a\nb\n1.  x\nc\nd\ne\nf\ng\nh\ni\nj\n2.   y\nk\n";
        let first = old.find("  x").unwrap();
        let second = old.find("   y").unwrap();
        let formatted = Formatted {
            edits: vec![
                (first..first + 2, " ".to_string()),
                (second..second + 3, " ".to_string()),
            ],
            games_left_as_written: Vec::new(),
        };
        let new = formatted.apply(old);
        let diff = unified_diff("f.ppn", old, &new, &formatted);
        assert_eq!(
            diff,
            "--- f.ppn\n+++ f.ppn (formatted)\n\
             @@ -1,6 +1,6 @@\n a\n b\n-1.  x\n+1. x\n c\n d\n e\n\
             @@ -9,5 +9,5 @@\n h\n i\n j\n-2.   y\n+2. y\n k\n"
        );
    }

    #[test]
    fn joined_lines_show_as_one_change() {
        let old = "1. a\n1... b\n2. c\n";
        let formatted = Formatted {
            edits: vec![(4..5, " ".to_string())],
            games_left_as_written: Vec::new(),
        };
        let new = formatted.apply(old);
        assert_eq!(new, "1. a 1... b\n2. c\n");
        let diff = unified_diff("f", old, &new, &formatted);
        assert_eq!(
            diff,
            "--- f\n+++ f (formatted)\n@@ -1,3 +1,2 @@\n-1. a\n-1... b\n+1. a 1... b\n 2. c\n"
        );
    }
}
