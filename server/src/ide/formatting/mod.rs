//! The formatter: one layout per notation, given as edits of whitespace alone (see
//! `docs/formatting.md`). `ppn-ls fmt`, `check --fix` and the language server's
//! formatting all come here.
//!
//! A file that does not parse is not formatted: where the syntax is broken, what is a word
//! and what is a comment is a guess, and a layout built on a guess could change what the
//! file says once it is repaired.

use std::fmt;
use std::ops::Range;

use crate::diagnostic::Diagnostic;
use crate::model::format::Format;
pub use crate::model::layout::FormatOptions;
use crate::model::notation_document::NotationDocument;

/// The layout of a file: edits of its whitespace, in order and disjoint.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Formatted {
    pub edits: Vec<(Range<usize>, String)>,
    /// Games (0-based) left as written because their new layout would not have read back
    /// as the same game. Never expected: a safety net, which the tests keep empty.
    pub games_left_as_written: Vec<usize>,
}

impl Formatted {
    /// `text` (the text formatted) laid out.
    pub fn apply(&self, text: &str) -> String {
        crate::model::edit::with_replacements(text, &self.edits)
    }

    pub fn changes_nothing(&self) -> bool {
        self.edits.is_empty()
    }
}

/// Why a file is not formatted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// The file does not parse; the first problem that says so.
    DoesNotParse(Diagnostic),
    /// ppn-ls writes no layout for this notation.
    Unsupported(Format),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::DoesNotParse(diagnostic) => write!(
                f,
                "not formatted: the file does not parse ({}: {})",
                diagnostic.code, diagnostic.message
            ),
            FormatError::Unsupported(format) => write!(
                f,
                "not formatted: ppn-ls has no layout for {} files",
                format.name()
            ),
        }
    }
}

/// The formats the formatter lays out: PPN, and OpenTafl records (whose specification
/// says how they are written). WXF records are written with one move pair or several a
/// line, and XAY, annoFEN and FEN have no layout to choose: they are left as they are.
pub fn formats(format: Format) -> bool {
    matches!(format, Format::Ppn | Format::Otn)
}

/// Codes of the diagnostics that say a file does not parse, per notation.
fn unreadable_codes(format: Format) -> &'static [&'static str] {
    match format {
        Format::Ppn => &[
            "unclosed-comment",
            "unopened-comment",
            "missing-token",
            "unexpected-token",
            "syntax-error",
            "yaml-error",
            // Metadata read as moves for want of a `...`: laid out as moves, it would be
            // hard to repair.
            "metadata-without-end",
        ],
        Format::Otn => &[
            "tag-syntax",
            "unclosed-bracket",
            "turn-number-syntax",
            "move-syntax",
            "unexpected-text",
        ],
        _ => &[],
    }
}

/// The layout of an analysed document.
pub fn format_document(
    document: &dyn NotationDocument,
    options: &FormatOptions,
) -> Result<Formatted, FormatError> {
    format_text(
        document.format(),
        document.text(),
        document.diagnostics(),
        options,
    )
}

/// The layout of `text` in `format`, whose diagnostics are `diagnostics` (all of them, as
/// `check` finds them: they tell whether it parses).
pub fn format_text(
    format: Format,
    text: &str,
    diagnostics: &[Diagnostic],
    options: &FormatOptions,
) -> Result<Formatted, FormatError> {
    if !formats(format) {
        return Err(FormatError::Unsupported(format));
    }
    let unreadable = unreadable_codes(format);
    if let Some(broken) = diagnostics.iter().find(|d| unreadable.contains(&d.code)) {
        return Err(FormatError::DoesNotParse(broken.clone()));
    }
    let (edits, games_left_as_written) = match format {
        Format::Ppn => crate::ppn::format::layout(text, options),
        Format::Otn => match crate::otn::format::layout(text, options) {
            Some(edits) => (edits, Vec::new()),
            None => (Vec::new(), vec![0]),
        },
        _ => return Err(FormatError::Unsupported(format)),
    };
    Ok(Formatted {
        edits,
        games_left_as_written,
    })
}

/// The edits of `formatted` that start on the lines of `range` (a range formatting): each
/// edit is whitespace alone, so any of them may be made without the others.
pub fn edits_within(
    text: &str,
    formatted: &Formatted,
    range: Range<usize>,
) -> Vec<(Range<usize>, String)> {
    let bytes = text.as_bytes();
    let start = bytes[..range.start.min(text.len())]
        .iter()
        .rposition(|&byte| byte == b'\n' || byte == b'\r')
        .map_or(0, |at| at + 1);
    let end = range.end.min(text.len());
    let end = bytes[end..]
        .iter()
        .position(|&byte| byte == b'\n' || byte == b'\r')
        .map_or(text.len(), |at| end + at);
    formatted
        .edits
        .iter()
        .filter(|(edit, _)| edit.start >= start && edit.start <= end)
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests;
