//! What the targets that read whole documents share.
// Each target uses some of these, and warns of the others otherwise.
#![allow(dead_code)]

use ppn_ls::model::format::Format;

/// An input's first line names the notation by a file extension (PPN when it names none),
/// so that one corpus covers every notation and seeds are files with a line in front; the
/// notation and the rest of the input.
pub fn notation_and_rest(data: &[u8]) -> (Format, &[u8]) {
    let (extension, rest) = match data.iter().position(|&byte| byte == b'\n') {
        Some(end) => (&data[..end], &data[end + 1..]),
        None => (&data[..0], data),
    };
    let extension = String::from_utf8_lossy(extension).to_ascii_lowercase();
    let format = Format::ALL
        .into_iter()
        .find(|format| format.extensions().contains(&extension.as_str()))
        .unwrap_or(Format::Ppn);
    (format, rest)
}

/// Every range of `diagnostics` (their own, related places', fixes') lies in `text` at
/// character boundaries, as an editor needs them.
pub fn check_diagnostics(text: &str, diagnostics: &[ppn_ls::diagnostic::Diagnostic]) {
    let places = |range: &std::ops::Range<usize>| {
        range.start <= range.end
            && range.end <= text.len()
            && text.is_char_boundary(range.start)
            && text.is_char_boundary(range.end)
    };
    for diagnostic in diagnostics {
        assert!(places(&diagnostic.range), "{diagnostic:?}");
        for related in &diagnostic.related {
            assert!(places(&related.range), "{diagnostic:?}");
        }
        for fix in &diagnostic.fixes {
            for (range, _) in &fix.edits {
                assert!(places(range), "{diagnostic:?}");
            }
        }
    }
}

/// What the fast per-notation targets ask of an analysed document: its diagnostics (see
/// [`check_diagnostics`]), the boards of its main lines, and its conversions.
pub fn check_document(document: &dyn ppn_ls::model::notation_document::NotationDocument) {
    check_diagnostics(document.text(), document.diagnostics());
    for game in 0..document.games().len().min(4) {
        for state in document.main_line(game).iter().take(256) {
            let _ = document.scene(state.state);
        }
    }
    for target in document.conversions() {
        let _ = document.convert(target);
    }
}
