//! What a test of which problems a text has compares: the codes of its diagnostics.

use ppn_ls::ide::analyze::analyze_as;
use ppn_ls::model::format::Format;

/// The codes of `text`'s diagnostics read as `format`, in order, as an editor gets them.
pub fn diagnostic_codes(format: Format, text: &str) -> Vec<&'static str> {
    analyze_as(format, text.to_string())
        .diagnostics()
        .iter()
        .map(|diagnostic| diagnostic.code)
        .collect()
}
