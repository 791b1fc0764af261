//! How the formatter lays files out, whatever their notation.

/// How the formatter lays files out (`[format]` in `ppn-ls.toml`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatOptions {
    /// The widest a line of moves is made, in characters, where it can be cut: a move
    /// pair wider than this is written a move a line, and a move wider than this goes on
    /// over indented lines. A single word or comment wider than a line is never cut.
    pub line_width: usize,
}

impl Default for FormatOptions {
    fn default() -> Self {
        FormatOptions { line_width: 80 }
    }
}
