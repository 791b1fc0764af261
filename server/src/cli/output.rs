//! What every command shares: reading inputs, writing to standard output, one wording for
//! errors and warnings on standard error, and colour.

use std::fmt::Display;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use clap::ValueEnum;

use crate::config::{ConfigFiles, Found};

/// When to colour output.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether standard output gets colours.
    pub fn enabled_for_stdout(self) -> bool {
        self.enabled(std::io::stdout().is_terminal())
    }

    /// Whether output to a terminal (or not) gets colours, with this environment's
    /// `NO_COLOR`.
    pub fn enabled(self, terminal: bool) -> bool {
        self.decide(terminal, std::env::var_os("NO_COLOR").as_deref())
    }

    /// `auto` colours a terminal unless `NO_COLOR` is set to anything but the empty text
    /// (<https://no-color.org>).
    fn decide(self, terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => terminal && no_color.is_none_or(|value| value.is_empty()),
        }
    }
}

/// ANSI styles, or nothing when colour is off.
#[derive(Clone, Copy, Debug)]
pub struct Palette {
    on: bool,
}

impl Palette {
    pub fn new(on: bool) -> Palette {
        Palette { on }
    }

    pub fn paint(self, style: Style, text: &str) -> String {
        if self.on && !text.is_empty() {
            format!("\x1b[{}m{text}\x1b[0m", style.code())
        } else {
            text.to_string()
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub enum Style {
    Error,
    Warning,
    Info,
    Bold,
    Gutter,
    Help,
}

impl Style {
    fn code(self) -> &'static str {
        match self {
            Style::Error => "1;31",
            Style::Warning => "1;33",
            Style::Info => "1;36",
            Style::Bold => "1",
            Style::Gutter => "1;34",
            Style::Help => "1;32",
        }
    }
}

fn stderr_palette() -> Palette {
    Palette::new(ColorChoice::Auto.enabled(std::io::stderr().is_terminal()))
}

/// `error: SUBJECT: MESSAGE` on standard error: the one wording of every command.
pub fn report_error(subject: impl Display, message: impl Display) {
    let label = stderr_palette().paint(Style::Error, "error");
    eprintln!("{label}: {subject}: {message}");
}

/// `warning: SUBJECT: MESSAGE` on standard error.
pub fn report_warning(subject: impl Display, message: impl Display) {
    let label = stderr_palette().paint(Style::Warning, "warning");
    eprintln!("{label}: {subject}: {message}");
}

/// An I/O error in words, without the OS's error number.
pub fn io_message(err: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match err.kind() {
        ErrorKind::NotFound => "no such file or directory".to_string(),
        ErrorKind::PermissionDenied => "permission denied".to_string(),
        ErrorKind::IsADirectory => "is a directory".to_string(),
        ErrorKind::InvalidData => err.to_string(),
        _ => {
            let text = err.to_string();
            match text.find(" (os error") {
                Some(cut) => text[..cut].to_lowercase(),
                None => text,
            }
        }
    }
}

/// The name `--stdin-filename` gives standard input. Editors and linters that pipe a
/// buffer in name it so: the name decides the notation and the `ppn-ls.toml` in force, and
/// diagnostics are reported under it. Set once, before any command runs.
static STDIN_NAME: OnceLock<PathBuf> = OnceLock::new();

pub fn set_stdin_name(name: PathBuf) {
    let _ = STDIN_NAME.set(name);
}

/// The path that stands for `file` where a notation or a configuration is looked for:
/// the file itself, or for `-` the name `--stdin-filename` gave it (if any).
pub fn source_path(file: &Path) -> Option<&Path> {
    if file.as_os_str() == "-" {
        STDIN_NAME.get().map(PathBuf::as_path)
    } else {
        Some(file)
    }
}

/// The `ppn-ls.toml` in force for `file`: the one nearest the file, or for standard input
/// the one nearest the name `--stdin-filename` gave it, else the current folder's.
pub fn config_for(configs: &ConfigFiles, file: &Path) -> Option<Arc<Found>> {
    match source_path(file) {
        Some(path) => configs.for_file(path),
        None => configs.for_folder(Path::new(".")),
    }
}

/// How a path is named in output: for `-`, the name `--stdin-filename` gave, else
/// `<stdin>`.
pub fn display_path(path: &Path) -> String {
    if path.as_os_str() == "-" {
        STDIN_NAME
            .get()
            .map_or_else(|| "<stdin>".to_string(), |name| name.display().to_string())
    } else {
        path.display().to_string()
    }
}

/// Write to standard output; a reader that went away (`ppn-ls games | head`) is not an
/// error worth a panic.
pub fn print_out(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
}

/// Read a file, or standard input for `-`.
pub fn read_input(path: &Path) -> std::io::Result<String> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)?;
        Ok(text)
    } else {
        let bytes = std::fs::read(path)?;
        String::from_utf8(bytes).map_err(|err| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "not UTF-8 text (byte {} is not valid UTF-8)",
                    err.utf8_error().valid_up_to() + 1
                ),
            )
        })
    }
}

/// Someone who runs `ppn-ls` by hand in a terminal sees it wait: say what it waits for.
pub fn explain_language_server_on_a_terminal() {
    if let Some(note) = language_server_note(std::io::stdin().is_terminal()) {
        eprintln!("{note}");
    }
}

/// The note for a person at a terminal; an editor (a pipe) gets none.
fn language_server_note(stdin_is_terminal: bool) -> Option<&'static str> {
    stdin_is_terminal.then_some(LANGUAGE_SERVER_NOTE)
}

pub const LANGUAGE_SERVER_NOTE: &str = "ppn-ls: speaking the Language Server Protocol on \
standard input (editors start ppn-ls this way). To lint files run `ppn-ls check FILE...`; \
`ppn-ls --help` lists every command. Ctrl-D or Ctrl-C ends it.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_colours_only_a_terminal_without_no_color() {
        use std::ffi::OsStr;
        assert!(ColorChoice::Auto.decide(true, None));
        assert!(!ColorChoice::Auto.decide(false, None));
        assert!(!ColorChoice::Auto.decide(true, Some(OsStr::new("1"))));
        assert!(ColorChoice::Auto.decide(true, Some(OsStr::new(""))));
        assert!(ColorChoice::Always.decide(false, Some(OsStr::new("1"))));
        assert!(!ColorChoice::Never.decide(true, None));
    }

    #[test]
    fn a_palette_that_is_off_writes_plain_text() {
        assert_eq!(Palette::new(false).paint(Style::Error, "error"), "error");
        assert_eq!(
            Palette::new(true).paint(Style::Error, "error"),
            "\x1b[1;31merror\x1b[0m"
        );
    }

    #[test]
    fn only_a_terminal_hears_that_ppn_ls_speaks_lsp() {
        let note = language_server_note(true).unwrap();
        assert!(note.contains("Language Server Protocol on standard input"));
        assert!(note.contains("ppn-ls check FILE"));
        assert_eq!(language_server_note(false), None);
    }

    #[test]
    fn io_errors_read_as_words() {
        let missing = std::fs::read("/no/such/file/anywhere").unwrap_err();
        assert_eq!(io_message(&missing), "no such file or directory");
    }
}
