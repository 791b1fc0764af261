//! Problems found while reading notation, located by byte ranges.

use std::ops::Range;

pub use crate::diagnostic::Severity;

/// One problem inside a piece of notation. `range` is in bytes, relative to the text that
/// was handed to the parser that found it.
#[derive(Clone, Debug, PartialEq)]
pub struct Issue {
    pub range: Range<usize>,
    pub severity: Severity,
    /// Stable kebab-case identifier, e.g. `unknown-macro`.
    pub code: &'static str,
    pub message: String,
}

impl Issue {
    pub fn error(range: Range<usize>, code: &'static str, message: impl Into<String>) -> Self {
        Issue {
            range,
            severity: Severity::Error,
            code,
            message: message.into(),
        }
    }

    pub fn warning(range: Range<usize>, code: &'static str, message: impl Into<String>) -> Self {
        Issue {
            range,
            severity: Severity::Warning,
            code,
            message: message.into(),
        }
    }

    /// The same issue, for text that starts `offset` bytes into a larger text.
    pub fn shifted(mut self, offset: usize) -> Self {
        self.range = self.range.start + offset..self.range.end + offset;
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}
