//! The configuration at the protocol's edge: which file a document URI is, the
//! diagnostics of an open `ppn-ls.toml`, and the diagnostics a document shows under a
//! configuration.

use std::path::PathBuf;

use tower_lsp_server::ls_types::{self as lsp, NumberOrString};

use crate::config::{Config, ConfigFile};
use crate::diagnostic::{Diagnostic, Severity};
use crate::lsp::encoding::{PositionCursor, PositionEncoding};
use crate::model::editor_diagnostics::Shown;
use crate::model::line_index::LineIndex;
use crate::model::notation_document::NotationDocument;

/// The file a `file:` URI names, its `%XX` escapes decoded; `None` for other schemes.
pub fn uri_file_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let path = rest.split(['?', '#']).next()?;
    // `file://host/path`: only the local host is a file here.
    let path = match path.find('/') {
        Some(0) => path,
        Some(at) if path[..at].eq_ignore_ascii_case("localhost") => &path[at..],
        _ => return None,
    };
    let bytes = path.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                decoded.push(byte);
                i += 3;
            }
            None => {
                decoded.push(bytes[i]);
                i += 1;
            }
        }
    }
    let path = String::from_utf8(decoded).ok()?;
    // `file:///C:/games` on Windows.
    #[cfg(windows)]
    let path = path.strip_prefix('/').unwrap_or(&path).to_string();
    Some(PathBuf::from(path))
}

/// What an editor is shown of a document's diagnostics under `config`: the severities it
/// sets, at most its number. Without severities to change, the notation picks them (a
/// long broken record words only those shown); with them, every diagnostic is worded
/// first.
pub fn shown(document: &dyn NotationDocument, config: &Config) -> Shown {
    let most = config.max_per_document();
    if !config.changes_severities() {
        return document.diagnostics_shown(most);
    }
    let mut all = document.diagnostics().to_vec();
    config.apply_severities(&mut all);
    Shown::of(&all, most)
}

/// The diagnostics of an open `ppn-ls.toml`, in the protocol's form.
pub fn config_file_diagnostics(text: &str, encoding: PositionEncoding) -> Vec<lsp::Diagnostic> {
    let file = ConfigFile::parse(text);
    let lines = LineIndex::new(text);
    let mut cursor = PositionCursor::new(text, &lines, encoding);
    file.diagnostics
        .iter()
        .map(|diagnostic| {
            let start = cursor.position(diagnostic.range.start);
            let end = cursor.position(diagnostic.range.end);
            lsp::Diagnostic {
                range: lsp::Range { start, end },
                severity: Some(severity(diagnostic)),
                code: Some(NumberOrString::String(diagnostic.code.to_string())),
                source: Some("ppn-ls".to_string()),
                message: diagnostic.message.clone(),
                ..lsp::Diagnostic::default()
            }
        })
        .collect()
}

pub fn severity(diagnostic: &Diagnostic) -> lsp::DiagnosticSeverity {
    match diagnostic.severity {
        Severity::Error => lsp::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        Severity::Information => lsp::DiagnosticSeverity::INFORMATION,
        Severity::Hint => lsp::DiagnosticSeverity::HINT,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_become_paths() {
        assert_eq!(
            uri_file_path("file:///home/a%20b/games/x.ppn"),
            Some(PathBuf::from("/home/a b/games/x.ppn"))
        );
        assert_eq!(
            uri_file_path("file://localhost/tmp/%E2%99%9E.ppn"),
            Some(PathBuf::from("/tmp/♞.ppn"))
        );
        assert_eq!(
            uri_file_path("file:///tmp/100%.ppn"),
            Some(PathBuf::from("/tmp/100%.ppn"))
        );
        assert_eq!(uri_file_path("untitled:Untitled-1"), None);
        assert_eq!(uri_file_path("file://server/share/x.ppn"), None);
    }
}
