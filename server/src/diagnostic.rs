//! Diagnostics shared by `--check` and the language server.

use std::ops::Range;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Information,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Information => "info",
        }
    }
}

/// One problem in a document, located by a byte range of its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub range: Range<usize>,
    pub severity: Severity,
    /// Stable, kebab-case: users filter and search by it.
    pub code: &'static str,
    pub message: String,
    /// Other places that explain this one (the earlier failed move it follows from, the
    /// first copy of a duplicate).
    pub related: Vec<Related>,
    /// Edits that would resolve it, offered as quick fixes.
    pub fixes: Vec<Fix>,
}

/// A place related to a diagnostic, with why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub range: Range<usize>,
    pub message: String,
}

/// A quick fix: replace each range (bytes of the document's text) by its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<(Range<usize>, String)>,
}

impl Diagnostic {
    pub fn new(
        range: Range<usize>,
        severity: Severity,
        code: &'static str,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            range,
            severity,
            code,
            message: message.into(),
            related: Vec::new(),
            fixes: Vec::new(),
        }
    }

    pub fn error(
        range: Range<usize>,
        code: &'static str,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::new(range, Severity::Error, code, message)
    }

    pub fn warning(
        range: Range<usize>,
        code: &'static str,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::new(range, Severity::Warning, code, message)
    }

    pub fn with_fix(mut self, fix: Fix) -> Diagnostic {
        self.fixes.push(fix);
        self
    }

    pub fn with_related(mut self, range: Range<usize>, message: impl Into<String>) -> Diagnostic {
        self.related.push(Related {
            range,
            message: message.into(),
        });
        self
    }

    /// The same diagnostic `delta` bytes further on in the text.
    /// Sorts `diagnostics` by place, then severity, code and message, and drops repeats: an
    /// order that does not depend on the order they were found in.
    pub fn sort_and_dedup(diagnostics: &mut Vec<Diagnostic>) {
        diagnostics.sort_by(|a, b| {
            (a.range.start, a.range.end, a.severity, a.code, &a.message).cmp(&(
                b.range.start,
                b.range.end,
                b.severity,
                b.code,
                &b.message,
            ))
        });
        diagnostics.dedup();
    }

    pub fn shifted(&self, delta: isize) -> Diagnostic {
        let mut shifted = self.clone();
        shifted.shift(delta);
        shifted
    }

    /// Moves every range `delta` bytes along, in place.
    pub fn shift(&mut self, delta: isize) {
        let shift = |range: &mut Range<usize>| {
            *range =
                range.start.saturating_add_signed(delta)..range.end.saturating_add_signed(delta);
        };
        shift(&mut self.range);
        for related in &mut self.related {
            shift(&mut related.range);
        }
        for fix in &mut self.fixes {
            for (range, _) in &mut fix.edits {
                shift(range);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifting_moves_every_range_and_keeps_the_words() {
        let diagnostic = Diagnostic::error(10..14, "illegal-move", "no man on f2")
            .with_related(2..4, "the move before")
            .with_fix(Fix {
                title: "Write `f3`".to_string(),
                edits: vec![(10..12, "f3".to_string())],
            });
        let moved = diagnostic.shifted(5);
        assert_eq!(moved.range, 15..19);
        assert_eq!(moved.related[0].range, 7..9);
        assert_eq!(moved.related[0].message, "the move before");
        assert_eq!(moved.fixes[0].edits, vec![(15..17, "f3".to_string())]);
        assert_eq!(moved.message, diagnostic.message);
        let mut back = moved.clone();
        back.shift(-5);
        assert_eq!(back, diagnostic);
        // Never before the start of the text.
        assert_eq!(diagnostic.shifted(-12).related[0].range, 0..0);
    }
}
