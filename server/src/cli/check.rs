//! `ppn-ls check`: the editor's diagnostics as a CI lint, written file by file as each is
//! analysed, so memory holds one file at a time and output starts at once.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use serde_json::json;

use crate::cli::args::CheckFormat;
use crate::cli::output::{config_for, display_path, io_message, source_path, Palette, Style};
use crate::cli::output::{read_input, report_error, report_warning};
use crate::cli::paths;
use crate::cli::snippet::{snippet, ColumnIndex, Position};
use crate::config::{Config, ConfigFiles, Settings};
use crate::diagnostic::{Diagnostic, Severity};
use crate::exit_code;
use crate::ide::analyze::check_as;
use crate::model::format::Format;

pub struct Options {
    pub paths: Vec<PathBuf>,
    pub format: CheckFormat,
    pub deny_warnings: bool,
    pub color: bool,
    /// Say the format of every xiangqi-setup file read.
    pub verbose: bool,
    /// Make every safe fix first (`--fix`).
    pub fix: bool,
}

/// What was found, for the summary line and the exit code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub errors: usize,
    pub warnings: usize,
    pub files: usize,
}

impl Tally {
    fn count(&mut self, diagnostics: &[Diagnostic]) {
        for diagnostic in diagnostics {
            match diagnostic.severity {
                Severity::Error => self.errors += 1,
                Severity::Warning => self.warnings += 1,
                Severity::Information | Severity::Hint => {}
            }
        }
    }

    /// `1 error, 0 warnings in 3 files`.
    pub fn summary(&self) -> String {
        format!(
            "{} error{}, {} warning{} in {} file{}",
            self.errors,
            plural(self.errors),
            self.warnings,
            plural(self.warnings),
            self.files,
            plural(self.files)
        )
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

pub fn run(options: &Options) -> i32 {
    let configs = ConfigFiles::new();
    let collected = paths::collect_except(&options.paths, &|path| {
        configs
            .for_file(path)
            .is_some_and(|config| config.excludes(path))
    });
    let mut usage_failed = false;
    for (path, why) in &collected.failures {
        report_error(display_path(path), why);
        usage_failed = true;
    }
    let mut tally = Tally::default();
    for directory in &collected.empty_directories {
        report_warning(display_path(directory), paths::empty_directory_message());
        tally.warnings += 1;
    }

    let mut out = BufWriter::new(io::stdout().lock());
    let mut report = Report::new(options.format, Palette::new(options.color));
    let mut written = report.begin(&mut out);
    // Each configuration file in force is reported once, before the first file it governs.
    let mut configs_reported: Vec<PathBuf> = Vec::new();
    for file in &collected.files {
        if written.is_err() {
            break;
        }
        let path = source_path(file);
        let config = config_for(&configs, file);
        if let Some(found) = config.as_deref() {
            if !configs_reported.contains(&found.path) {
                configs_reported.push(found.path.clone());
                tally.count(&found.file.diagnostics);
                let shown = display_path(relative_to_current_dir(&found.path));
                written = report.file(&mut out, &shown, &found.text, &found.file.diagnostics);
                if written.is_err() {
                    break;
                }
            }
        }
        let text = match read_input(file) {
            Ok(text) => text,
            Err(err) => {
                report_error(display_path(file), io_message(&err));
                usage_failed = true;
                continue;
            }
        };
        let text = if options.fix {
            match crate::cli::fix::fix_file(file, text) {
                Ok(text) => text,
                Err(()) => {
                    usage_failed = true;
                    continue;
                }
            }
        } else {
            text
        };
        let format = Format::detect(path, &text);
        let mut diagnostics = check_as(format, &text);
        if let Some(found) = config.as_deref() {
            Config::resolve(&found.file.settings, &Settings::default())
                .apply_severities(&mut diagnostics);
        }
        tally.files += 1;
        tally.count(&diagnostics);
        // Which format a xiangqi-setup file was read as is said where it explains its
        // diagnostics: its content made it another format than its extension names.
        let says_format =
            options.verbose || (!diagnostics.is_empty() && Format::of_path(path) != Some(format));
        written = if says_format {
            report.read_as(&mut out, &display_path(file), format)
        } else {
            Ok(())
        }
        .and_then(|()| report.file(&mut out, &display_path(file), &text, &diagnostics));
    }
    if written.is_ok() {
        written = report.end(&mut out, &tally);
    }
    if let Err(err) = written.and_then(|()| out.flush()) {
        // A reader that went away (`| head`) is not an error.
        if err.kind() != io::ErrorKind::BrokenPipe {
            report_error("standard output", io_message(&err));
            return exit_code::USAGE;
        }
    }
    if usage_failed {
        exit_code::USAGE
    } else if tally.errors > 0 || (options.deny_warnings && tally.warnings > 0) {
        exit_code::PROBLEMS
    } else {
        exit_code::SUCCESS
    }
}

/// A configuration file's path as a user would write it from here (it was found as an
/// absolute path).
fn relative_to_current_dir(path: &Path) -> &Path {
    std::env::current_dir()
        .ok()
        .and_then(|here| path.strip_prefix(here).ok())
        .filter(|relative| !relative.as_os_str().is_empty())
        .unwrap_or(path)
}

/// Writes diagnostics in one format, file by file.
pub struct Report {
    format: CheckFormat,
    palette: Palette,
    json_items: usize,
}

impl Report {
    pub fn new(format: CheckFormat, palette: Palette) -> Report {
        Report {
            format,
            palette,
            json_items: 0,
        }
    }

    pub fn begin(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match self.format {
            CheckFormat::Json => out.write_all(b"["),
            CheckFormat::Human | CheckFormat::Github => Ok(()),
        }
    }

    /// Among the xiangqi-setup formats a file's content decides which it is, so the human
    /// report may say which it read: `position.fen: read as annoFEN`.
    pub fn read_as(&mut self, out: &mut dyn Write, path: &str, format: Format) -> io::Result<()> {
        let title = match format {
            Format::AnnoFen => "annoFEN",
            Format::Xay => "XAY",
            Format::Fen => "xiangqi FEN",
            Format::Wxf => "a WXF record",
            Format::Ppn | Format::Otn => return Ok(()),
        };
        match self.format {
            CheckFormat::Human => writeln!(out, "{path}: read as {title}"),
            CheckFormat::Json | CheckFormat::Github => Ok(()),
        }
    }

    /// The diagnostics of one file. Constant work per diagnostic, whatever the length of
    /// its line.
    pub fn file(
        &mut self,
        out: &mut dyn Write,
        path: &str,
        text: &str,
        diagnostics: &[Diagnostic],
    ) -> io::Result<()> {
        if diagnostics.is_empty() {
            return Ok(());
        }
        let index = ColumnIndex::new(text);
        for diagnostic in diagnostics {
            match self.format {
                CheckFormat::Human => self.human(out, path, text, &index, diagnostic)?,
                CheckFormat::Json => self.json(out, path, &index, diagnostic)?,
                CheckFormat::Github => github(out, path, &index, diagnostic)?,
            }
        }
        Ok(())
    }

    pub fn end(&mut self, out: &mut dyn Write, tally: &Tally) -> io::Result<()> {
        match self.format {
            CheckFormat::Human => writeln!(out, "{}", tally.summary()),
            CheckFormat::Json if self.json_items == 0 => out.write_all(b"]\n"),
            CheckFormat::Json => out.write_all(b"\n]\n"),
            CheckFormat::Github => Ok(()),
        }
    }

    fn human(
        &self,
        out: &mut dyn Write,
        path: &str,
        text: &str,
        index: &ColumnIndex<'_>,
        d: &Diagnostic,
    ) -> io::Result<()> {
        let paint = |style, text: &str| self.palette.paint(style, text);
        let start = index.position(d.range.start);
        let severity_style = match d.severity {
            Severity::Error => Style::Error,
            Severity::Warning => Style::Warning,
            Severity::Information | Severity::Hint => Style::Info,
        };
        writeln!(
            out,
            "{}: {}: {}",
            paint(
                Style::Bold,
                &format!("{path}:{}:{}", start.line, start.column)
            ),
            paint(
                severity_style,
                &format!("{}[{}]", d.severity.name(), d.code)
            ),
            paint(Style::Bold, &d.message)
        )?;
        let line = index.line_range(start.line);
        let shown = snippet(text, line, d.range.clone());
        let gutter = start.line.to_string();
        let pad = " ".repeat(gutter.len());
        let bar = paint(Style::Gutter, "|");
        writeln!(out, "{pad} {bar}")?;
        writeln!(
            out,
            "{} {bar} {}",
            paint(Style::Gutter, &gutter),
            shown.text
        )?;
        writeln!(
            out,
            "{pad} {bar} {}{}",
            shown.lead,
            paint(severity_style, &"^".repeat(shown.caret))
        )?;
        for related in &d.related {
            let at = index.position(related.range.start);
            writeln!(
                out,
                "{pad} {} {}: {path}:{}:{}: {}",
                paint(Style::Gutter, "="),
                paint(Style::Bold, "note"),
                at.line,
                at.column,
                related.message
            )?;
        }
        for fix in &d.fixes {
            writeln!(
                out,
                "{pad} {} {}: {}",
                paint(Style::Gutter, "="),
                paint(Style::Help, "help"),
                fix.title
            )?;
        }
        Ok(())
    }

    fn json(
        &mut self,
        out: &mut dyn Write,
        path: &str,
        index: &ColumnIndex<'_>,
        d: &Diagnostic,
    ) -> io::Result<()> {
        let span = |range: &std::ops::Range<usize>| {
            let (start, end) = (index.position(range.start), index.position(range.end));
            (start, end)
        };
        let (start, end) = span(&d.range);
        let related: Vec<_> = d
            .related
            .iter()
            .map(|related| {
                let (start, end) = span(&related.range);
                let mut item = located(start, end);
                item["message"] = json!(related.message);
                item
            })
            .collect();
        let fixes: Vec<_> = d
            .fixes
            .iter()
            .map(|fix| {
                let edits: Vec<_> = fix
                    .edits
                    .iter()
                    .map(|(range, text)| {
                        let (start, end) = span(range);
                        let mut item = located(start, end);
                        item["text"] = json!(text);
                        item
                    })
                    .collect();
                json!({ "title": fix.title, "edits": edits })
            })
            .collect();
        let mut item = located(start, end);
        item["path"] = json!(path);
        item["severity"] = json!(d.severity.name());
        item["code"] = json!(d.code);
        item["message"] = json!(d.message);
        item["related"] = json!(related);
        item["fixes"] = json!(fixes);
        out.write_all(if self.json_items == 0 {
            b"\n  "
        } else {
            b",\n  "
        })?;
        self.json_items += 1;
        serde_json::to_writer(&mut *out, &item).map_err(io::Error::from)
    }
}

fn located(start: Position, end: Position) -> serde_json::Value {
    json!({
        "line": start.line,
        "column": start.column,
        "end_line": end.line,
        "end_column": end.column,
    })
}

fn github(
    out: &mut dyn Write,
    path: &str,
    index: &ColumnIndex<'_>,
    d: &Diagnostic,
) -> io::Result<()> {
    let level = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Information | Severity::Hint => "notice",
    };
    let (start, end) = (index.position(d.range.start), index.position(d.range.end));
    writeln!(
        out,
        "::{level} file={},line={},col={},endLine={},endColumn={},title={}::{}",
        escape_property(path),
        start.line,
        start.column,
        end.line,
        end.column,
        escape_property(d.code),
        escape_data(&d.message)
    )
}

// GitHub workflow commands need these escapes or the annotation is cut short.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Fix;

    fn diagnostic(range: std::ops::Range<usize>) -> Diagnostic {
        Diagnostic::error(range, "no-piece", "PieceId identifies no piece")
    }

    fn render(format: CheckFormat, text: &str, diagnostics: &[Diagnostic]) -> String {
        let mut report = Report::new(format, Palette::new(false));
        let mut out = Vec::new();
        let mut tally = Tally {
            files: 1,
            ..Tally::default()
        };
        tally.count(diagnostics);
        report.begin(&mut out).unwrap();
        report
            .file(&mut out, "game.ppn", text, diagnostics)
            .unwrap();
        report.end(&mut out, &tally).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn human_output_says_which_xiangqi_format_a_file_was_read_in() {
        let mut out = Vec::new();
        let mut report = Report::new(CheckFormat::Human, Palette::new(false));
        report
            .read_as(&mut out, "position.fen", Format::AnnoFen)
            .unwrap();
        report.read_as(&mut out, "game.ppn", Format::Ppn).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "position.fen: read as annoFEN\n"
        );
        let mut json = Vec::new();
        Report::new(CheckFormat::Json, Palette::new(false))
            .read_as(&mut json, "position.fen", Format::Xay)
            .unwrap();
        assert!(json.is_empty());
    }

    #[test]
    fn human_output_points_a_caret_at_the_range_counting_characters() {
        let text = "---\n...\n1. 🂡@b2 *b5\n";
        let start = text.find("b5").unwrap();
        let out = render(CheckFormat::Human, text, &[diagnostic(start..start + 2)]);
        let mut lines = out.lines();
        assert_eq!(
            lines.next(),
            Some("game.ppn:3:10: error[no-piece]: PieceId identifies no piece")
        );
        assert_eq!(lines.next(), Some("  |"));
        assert_eq!(lines.next(), Some("3 | 1. 🂡@b2 *b5"));
        assert_eq!(lines.next(), Some("  |          ^^"));
        assert_eq!(lines.next(), Some("1 error, 0 warnings in 1 file"));
    }

    #[test]
    fn human_output_ends_with_a_summary_also_when_all_is_clean() {
        let out = render(CheckFormat::Human, "1. S@a1\n", &[]);
        assert_eq!(out, "0 errors, 0 warnings in 1 file\n");
    }

    #[test]
    fn human_output_shows_related_places_and_fixes() {
        let text = "1. b1*b3 2. S@a1\n";
        let d = diagnostic(3..8)
            .with_related(12..16, "the move this follows from")
            .with_fix(Fix {
                title: "write `b1:b3`".into(),
                edits: vec![(5..6, ":".into())],
            });
        let out = render(CheckFormat::Human, text, &[d]);
        assert!(
            out.contains("  = note: game.ppn:1:13: the move this follows from\n"),
            "{out}"
        );
        assert!(out.contains("  = help: write `b1:b3`\n"), "{out}");
    }

    #[test]
    fn colours_mark_severity_and_caret() {
        let mut report = Report::new(CheckFormat::Human, Palette::new(true));
        let mut out = Vec::new();
        report
            .file(&mut out, "g.ppn", "1. *b5\n", &[diagnostic(4..6)])
            .unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("\x1b[1;31merror[no-piece]\x1b[0m"), "{out:?}");
        assert!(out.contains("\x1b[1;31m^^\x1b[0m"), "{out:?}");
    }

    #[test]
    fn a_diagnostic_on_a_huge_line_shows_a_window() {
        let text = format!(
            "1. {}*zz9 {}\n",
            "S@a1 ".repeat(20_000),
            "M@b2 ".repeat(20_000)
        );
        let at = text.find("zz9").unwrap();
        let out = render(CheckFormat::Human, &text, &[diagnostic(at..at + 3)]);
        assert!(out.len() < 600, "{} bytes", out.len());
        assert!(out.contains(&format!("1:{}:", at + 1)), "{out}");
        let shown = out.lines().nth(2).unwrap();
        assert!(
            shown.starts_with("1 | …") && shown.ends_with('…'),
            "{shown}"
        );
        let caret = out.lines().nth(3).unwrap();
        let caret_at = caret.chars().position(|c| c == '^').unwrap();
        let under: String = shown.chars().skip(caret_at).take(3).collect();
        assert_eq!(under, "zz9", "{shown}\n{caret}");
    }

    #[test]
    fn github_output_escapes_separators() {
        let out = render(CheckFormat::Github, "a: b,\n", &[diagnostic(0..1)]);
        assert_eq!(
            out,
            "::error file=game.ppn,line=1,col=1,endLine=1,endColumn=2,title=no-piece::PieceId identifies no piece\n"
        );
    }

    #[test]
    fn json_output_has_one_based_positions_and_fixes() {
        let text = "x\r\n\tab";
        let d = diagnostic(4..6).with_fix(Fix {
            title: "t".into(),
            edits: vec![(4..5, "c".into())],
        });
        let out = render(CheckFormat::Json, text, &[d, diagnostic(0..1)]);
        let value: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(value[0]["line"], 2);
        assert_eq!(value[0]["column"], 2);
        assert_eq!(value[0]["end_column"], 4);
        assert_eq!(value[0]["fixes"][0]["edits"][0]["text"], "c");
        assert_eq!(value[1]["line"], 1);
        assert_eq!(render(CheckFormat::Json, text, &[]), "[]\n");
    }
}
