//! `ppn-ls --check`: the editor's diagnostics as a CI lint.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::{print_out, read_input, CheckFormat, EXIT_USAGE};
use crate::diagnostic::{Diagnostic, Severity};
use crate::ide::document::analyze;
use crate::model::format::Format;
use crate::model::line_index::{ColumnUnit, LineIndex};

pub fn run(paths: &[PathBuf], format: CheckFormat, deny_warnings: bool) -> i32 {
    let files = match collect_files(paths) {
        Ok(files) => files,
        Err(message) => {
            eprintln!("ppn-ls: {message}");
            return EXIT_USAGE;
        }
    };
    let mut reports = Vec::new();
    let mut io_failed = false;
    for file in &files {
        match read_input(file) {
            Ok(text) => {
                let path = (file.as_os_str() != "-").then_some(file.as_path());
                let document = analyze(path, text.clone());
                reports.push(FileReport {
                    path: display_path(file),
                    format: document.format(),
                    diagnostics: document.diagnostics().to_vec(),
                    text,
                });
            }
            Err(err) => {
                eprintln!("ppn-ls: {}: {err}", display_path(file));
                io_failed = true;
            }
        }
    }
    let output = match format {
        CheckFormat::Human => render_human(&reports),
        CheckFormat::Json => render_json(&reports),
        CheckFormat::Github => render_github(&reports),
    };
    print_out(&output);
    if io_failed {
        return EXIT_USAGE;
    }
    let failing = |d: &Diagnostic| {
        d.severity == Severity::Error || (deny_warnings && d.severity == Severity::Warning)
    };
    if reports.iter().any(|r| r.diagnostics.iter().any(&failing)) {
        1
    } else {
        0
    }
}

struct FileReport {
    path: String,
    /// The format the file was read in: among the xiangqi-setup formats its content
    /// decides, so the report says which.
    format: Format,
    text: String,
    diagnostics: Vec<Diagnostic>,
}

fn format_title(format: Format) -> &'static str {
    match format {
        Format::Ppn => "PPN",
        Format::Otn => "OpenTafl notation",
        Format::AnnoFen => "annoFEN",
        Format::Xay => "XAY",
        Format::Fen => "xiangqi FEN",
        Format::Wxf => "a WXF record",
    }
}

fn display_path(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// Expand directories into the files ppn-ls reads (sorted, so output is stable).
fn collect_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            files.push(path.clone());
        } else if path.is_dir() {
            let mut found = Vec::new();
            walk_known_files(path, &mut found)
                .map_err(|err| format!("{}: {err}", path.display()))?;
            found.sort();
            files.extend(found);
        } else if path.exists() {
            files.push(path.clone());
        } else {
            return Err(format!("{}: no such file or directory", path.display()));
        }
    }
    Ok(files)
}

fn walk_known_files(dir: &Path, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk_known_files(&path, found)?;
        } else if path
            .extension()
            .and_then(|ext| ext.to_str())
            .is_some_and(Format::is_known_extension)
        {
            found.push(path);
        }
    }
    Ok(())
}

/// One diagnostic located by one-based line and character column.
struct Located<'a> {
    diagnostic: &'a Diagnostic,
    start_line: usize,
    start_col: usize,
    end_line: usize,
    end_col: usize,
}

fn locate<'a>(report: &'a FileReport, index: &LineIndex) -> Vec<Located<'a>> {
    report
        .diagnostics
        .iter()
        .map(|diagnostic| {
            let start = index.position(&report.text, diagnostic.range.start, ColumnUnit::Chars);
            let end = index.position(&report.text, diagnostic.range.end, ColumnUnit::Chars);
            Located {
                diagnostic,
                start_line: start.line + 1,
                start_col: start.col + 1,
                end_line: end.line + 1,
                end_col: end.col + 1,
            }
        })
        .collect()
}

fn render_human(reports: &[FileReport]) -> String {
    let mut out = String::new();
    let (mut errors, mut warnings) = (0, 0);
    for report in reports {
        if report.format.is_xiangqi() {
            let _ = writeln!(
                out,
                "{}: read as {}",
                report.path,
                format_title(report.format)
            );
        }
        let index = LineIndex::new(&report.text);
        for located in locate(report, &index) {
            let d = located.diagnostic;
            match d.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
                Severity::Information => {}
            }
            let _ = writeln!(
                out,
                "{}:{}:{}: {}[{}]: {}",
                report.path,
                located.start_line,
                located.start_col,
                d.severity.name(),
                d.code,
                d.message
            );
            let line_range = index.line_range(&report.text, located.start_line - 1);
            let line_text = &report.text[line_range.clone()];
            let gutter = located.start_line.to_string();
            let pad = " ".repeat(gutter.len());
            let caret_len = if located.end_line == located.start_line {
                located.end_col.saturating_sub(located.start_col).max(1)
            } else {
                (line_text.chars().count() + 1)
                    .saturating_sub(located.start_col)
                    .max(1)
            };
            // Tabs are kept in the caret line so the caret lines up under them.
            let lead: String = line_text
                .chars()
                .take(located.start_col - 1)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            let _ = writeln!(out, "{pad} |");
            let _ = writeln!(out, "{gutter} | {line_text}");
            let _ = writeln!(out, "{pad} | {lead}{}", "^".repeat(caret_len));
        }
    }
    if errors + warnings > 0 {
        let _ = writeln!(
            out,
            "{} error{}, {} warning{} in {} file{}",
            errors,
            plural(errors),
            warnings,
            plural(warnings),
            reports.len(),
            plural(reports.len())
        );
    }
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn render_json(reports: &[FileReport]) -> String {
    let mut items = Vec::new();
    for report in reports {
        let index = LineIndex::new(&report.text);
        for located in locate(report, &index) {
            let d = located.diagnostic;
            items.push(serde_json::json!({
                "path": report.path,
                "line": located.start_line,
                "column": located.start_col,
                "end_line": located.end_line,
                "end_column": located.end_col,
                "severity": d.severity.name(),
                "code": d.code,
                "message": d.message,
            }));
        }
    }
    let mut out = serde_json::to_string_pretty(&items).unwrap_or_else(|_| "[]".to_string());
    out.push('\n');
    out
}

fn render_github(reports: &[FileReport]) -> String {
    let mut out = String::new();
    for report in reports {
        let index = LineIndex::new(&report.text);
        for located in locate(report, &index) {
            let d = located.diagnostic;
            let level = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Information => "notice",
            };
            let _ = writeln!(
                out,
                "::{level} file={},line={},col={},endLine={},endColumn={},title={}::{}",
                escape_property(&report.path),
                located.start_line,
                located.start_col,
                located.end_line,
                located.end_col,
                escape_property(d.code),
                escape_data(&d.message)
            );
        }
    }
    out
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

    fn report(text: &str, range: std::ops::Range<usize>) -> FileReport {
        FileReport {
            path: "game.ppn".into(),
            format: Format::Ppn,
            text: text.into(),
            diagnostics: vec![Diagnostic {
                related: Vec::new(),
                fixes: Vec::new(),
                range,
                severity: Severity::Error,
                code: "no-piece",
                message: "PieceId identifies no piece".into(),
            }],
        }
    }

    #[test]
    fn human_output_points_a_caret_at_the_range_counting_characters() {
        let text = "---\n...\n1. 🂡@b2 *b5\n";
        let start = text.find("b5").unwrap();
        let out = render_human(&[report(text, start..start + 2)]);
        let mut lines = out.lines();
        assert_eq!(
            lines.next(),
            Some("game.ppn:3:10: error[no-piece]: PieceId identifies no piece")
        );
        assert_eq!(lines.next(), Some("  |"));
        assert_eq!(lines.next(), Some("3 | 1. 🂡@b2 *b5"));
        assert_eq!(lines.next(), Some("  |          ^^"));
    }

    #[test]
    fn human_output_says_which_xiangqi_format_a_file_was_read_in() {
        let mut annofen = report("v1 9/9/9/9/9/9/9/9/9/9\n", 0..1);
        annofen.path = "position.fen".into();
        annofen.format = Format::AnnoFen;
        annofen.diagnostics.clear();
        assert_eq!(
            render_human(&[annofen, report("x\n", 0..1)]).lines().next(),
            Some("position.fen: read as annoFEN")
        );
    }

    #[test]
    fn github_output_escapes_separators() {
        let out = render_github(&[report("a: b,\n", 0..1)]);
        assert_eq!(
            out,
            "::error file=game.ppn,line=1,col=1,endLine=1,endColumn=2,title=no-piece::PieceId identifies no piece\n"
        );
    }

    #[test]
    fn json_output_has_one_based_positions() {
        let text = "x\r\n\tab";
        let out = render_json(&[report(text, 4..6)]);
        let value: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(value[0]["line"], 2);
        assert_eq!(value[0]["column"], 2);
        assert_eq!(value[0]["end_column"], 4);
    }
}
