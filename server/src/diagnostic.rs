//! Diagnostics shared by `--check` and the language server.

use std::ops::Range;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Information,
    /// Only where the project's configuration asks for it: no notation reports hints.
    Hint,
}

impl Severity {
    /// How many severities there are (for tallies indexed by `severity as usize`).
    pub const COUNT: usize = 4;

    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Information => "info",
            Severity::Hint => "hint",
        }
    }
}

/// Every diagnostic code ppn-ls reports, sorted: the project's configuration sets a
/// severity per code, and a code it does not know is a mistake in the configuration.
/// (Debug builds outside the library's unit tests check each diagnostic made against this
/// list: the integration tests and the fuzz targets see every code in use.)
pub const CODES: &[&str] = &[
    "annofen-empty-code",
    "annofen-empty-stack",
    "annofen-extra-position",
    "annofen-missing-prefix",
    "annofen-syntax",
    "annofen-unclosed-code",
    "annofen-unclosed-stack",
    "annofen-version",
    "assumed-piece",
    "bad-location",
    "bad-macro",
    "bad-move",
    "bad-piece-id",
    "bad-scaling-factor",
    "bad-setup",
    "bad-setup-argument",
    "bad-slice",
    "brace-across-semicolon",
    "brace-expansion",
    "brace-in-comment",
    "braces-in-macro",
    "capture-mismatch",
    "capture-not-made",
    "capture-separator",
    "config-bad-value",
    "config-syntax",
    "config-unknown-code",
    "config-unknown-key",
    "duplicate-move-number",
    "duplicate-rules-key",
    "empty-piece-id",
    "extra-commentary",
    "fen-extra-fields",
    "fen-extra-position",
    "fen-side-to-move",
    "fen-syntax",
    "illegal-move",
    "indented-first-line",
    "indented-metadata-without-end",
    "info-mismatch",
    "invalid-rules-value",
    "invalid-tag-value",
    "large-document",
    "macro-cycle",
    "macro-too-deep",
    "macro-too-long",
    "metadata-not-mapping",
    "metadata-too-deep",
    "metadata-too-large",
    "metadata-without-end",
    "mirrored-checkers",
    "misplaced-placeholder",
    "missing-capture",
    "missing-dim",
    "missing-rules",
    "missing-start",
    "missing-token",
    "missing-turn",
    "move-after-end",
    "move-syntax",
    "move-type-mismatch",
    "mover-mismatch",
    "moves-not-checked",
    "moves-without-turn-number",
    "no-piece",
    "old-capture",
    "old-icehouse-pyramid",
    "position-syntax",
    "reference-differs",
    "repeated-turn",
    "result-mismatch",
    "row-count",
    "row-length",
    "rules-order",
    "rules-syntax",
    "square-off-board",
    "syntax-error",
    "tag-syntax",
    "too-many-configurations",
    "too-many-diagnostics",
    "too-many-games",
    "too-many-pieces",
    "trailing-text",
    "turn-length",
    "turn-number-syntax",
    "unclosed-bracket",
    "unclosed-comment",
    "unexpected-text",
    "unexpected-token",
    "unknown-address",
    "unknown-configuration",
    "unknown-game",
    "unknown-macro",
    "unknown-man",
    "unknown-movetext-parser",
    "unknown-parser-option",
    "unknown-piece",
    "unknown-rules-key",
    "unknown-setup-argument",
    "unknown-system",
    "unknown-variation-root",
    "unopened-comment",
    "unterminated-metadata",
    "variation-placeholders",
    "variation-too-deep",
    "wxf-ambiguous-move",
    "wxf-duplicate-fen",
    "wxf-duplicate-moves",
    "wxf-duplicate-setup",
    "wxf-equals-sideways",
    "wxf-fen",
    "wxf-illegal-move",
    "wxf-leaves-check",
    "wxf-move-number",
    "wxf-no-piece",
    "wxf-setup-ignored",
    "wxf-setup-syntax",
    "wxf-side-to-move",
    "wxf-syntax",
    "wxf-tandem",
    "wxf-unclosed-block",
    "xay-atom-type",
    "xay-missing-setup",
    "xay-missing-version",
    "xay-not-a-list",
    "xay-not-a-mapping",
    "xay-unknown-key",
    "xay-version",
    "xay-version-not-string",
    "xay-yaml",
    "xay-yaml-unlocated",
    "xiangqi-advisor-off-point",
    "xiangqi-arrow-off-board",
    "xiangqi-check-on-waiting-side",
    "xiangqi-duplicate-annotation",
    "xiangqi-elephant-off-point",
    "xiangqi-general-outside-palace",
    "xiangqi-generals-facing",
    "xiangqi-marker-on-empty",
    "xiangqi-marker-on-piece",
    "xiangqi-no-position",
    "xiangqi-piece-count",
    "xiangqi-row-count",
    "xiangqi-row-width",
    "xiangqi-several-generals",
    "xiangqi-soldier-behind",
    "xiangqi-soldier-sideways",
    "xiangqi-stacked-pieces",
    "xiangqi-unknown-code",
    "xiangqi-unknown-piece",
    "xiangqi-zero",
    "yaml-error",
];

/// Whether ppn-ls reports diagnostics with this code.
/// Text of the file quoted in a message, shortened in its middle past 80 characters: the
/// diagnostic's range already shows all of it, and a message a screen long (a 30 KB
/// brace expression with no MoveToken) helps no one.
pub fn excerpt(text: &str) -> std::borrow::Cow<'_, str> {
    const MOST: usize = 80;
    const HEAD: usize = 50;
    const TAIL: usize = 25;
    if text.chars().count() <= MOST {
        return text.into();
    }
    let head_end = text.char_indices().nth(HEAD).map_or(text.len(), |(i, _)| i);
    let tail_start = text
        .char_indices()
        .rev()
        .nth(TAIL - 1)
        .map_or(0, |(i, _)| i);
    format!("{}…{}", &text[..head_end], &text[tail_start..]).into()
}

pub fn is_known_code(code: &str) -> bool {
    CODES.binary_search(&code).is_ok()
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
        // Unit tests make diagnostics with made-up codes; everything else is checked.
        #[cfg(not(test))]
        debug_assert!(
            is_known_code(code),
            "the diagnostic code `{code}` is missing from diagnostic::CODES"
        );
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
    fn the_codes_are_sorted_and_each_is_listed_once() {
        assert!(CODES.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(is_known_code("no-piece"));
        assert!(!is_known_code("no-such-code"));
    }

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
