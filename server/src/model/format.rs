//! The file formats ppn-ls reads, and how a file's format is decided.

use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Portable Piecepack Notation (`.ppn`).
    Ppn,
    /// OpenTafl Notation: game records (`.otg`), or a rules string, position or game
    /// record (`.otn`).
    Otn,
    /// xiangqi-setup's annotated FEN (`.annofen`).
    AnnoFen,
    /// xiangqi-setup's YAML format (`.xay`).
    Xay,
    /// Plain xiangqi FEN (`.fen`).
    Fen,
    /// WXF xiangqi game records (`.wxf`).
    Wxf,
}

impl Format {
    pub const ALL: [Format; 6] = [
        Format::Ppn,
        Format::Otn,
        Format::AnnoFen,
        Format::Xay,
        Format::Fen,
        Format::Wxf,
    ];

    /// Lower-case name, as `--check` prints it and `replay --format json` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Ppn => "ppn",
            Format::Otn => "otn",
            Format::AnnoFen => "annofen",
            Format::Xay => "xay",
            Format::Fen => "fen",
            Format::Wxf => "wxf",
        }
    }

    /// As people write it: `PPN`, `OpenTafl`, `annoFEN`, `XAY`, `FEN`, `WXF`.
    pub fn title(self) -> &'static str {
        match self {
            Format::Ppn => "PPN",
            Format::Otn => "OpenTafl",
            Format::AnnoFen => "annoFEN",
            Format::Xay => "XAY",
            Format::Fen => "FEN",
            Format::Wxf => "WXF",
        }
    }

    /// File extensions (without the dot) of files in this format.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Format::Ppn => &["ppn"],
            Format::Otn => &["otg", "otn"],
            Format::AnnoFen => &["annofen"],
            Format::Xay => &["xay"],
            Format::Fen => &["fen"],
            Format::Wxf => &["wxf"],
        }
    }

    pub fn is_xiangqi(self) -> bool {
        matches!(
            self,
            Format::AnnoFen | Format::Xay | Format::Fen | Format::Wxf
        )
    }

    /// Whether ppn-ls reads files with this extension (case-insensitive).
    pub fn is_known_extension(extension: &str) -> bool {
        Format::of_extension(extension).is_some()
    }

    fn of_extension(extension: &str) -> Option<Format> {
        let extension = extension.to_ascii_lowercase();
        Format::ALL
            .into_iter()
            .find(|format| format.extensions().contains(&extension.as_str()))
    }

    /// The format of a file: its extension decides, except between the xiangqi-setup
    /// formats, where its content does as xiangqi-setup's own reader decides (annoFEN if a
    /// line starts with `v1 `, XAY if it is YAML with a `setup` key, WXF if it says WXF,
    /// else FEN). Text with no known extension (pasted, piped in, a `.txt` file) is told by
    /// its content ([`Format::of_content`]).
    pub fn detect(path: Option<&Path>, text: &str) -> Format {
        match Format::of_path(path) {
            Some(format) if format.is_xiangqi() => Format::xiangqi_by_content(text),
            Some(format) => format,
            None => Format::of_content(text),
        }
    }

    /// The format `text` is written in, told by its content alone, from its first lines:
    /// OpenTafl's tag lines (`[rules:…]`, `[name:…]`) or a bare rules string (`dim:…`);
    /// annoFEN's `v1 `; XAY's `setup:`; WXF's `FORMAT WXF` header or `START{`; a lone
    /// xiangqi FEN line (ten ranks). Anything else, PPN's `---` metadata or movetext included,
    /// is PPN: where the content is ambiguous, PPN stays the default.
    pub fn of_content(text: &str) -> Format {
        // The marks that decide come first in every format: a long text is not read whole
        // (an editor asks again after each keystroke).
        const HEAD_BYTES: usize = 16 << 10;
        let mut head_end = text.len().min(HEAD_BYTES);
        while !text.is_char_boundary(head_end) {
            head_end -= 1;
        }
        let lines = || {
            text[..head_end]
                .lines()
                .map(|line| line.trim_start_matches('\u{feff}').trim())
                .filter(|line| !line.is_empty() && !line.starts_with('#'))
        };
        if lines().any(|line| line.starts_with("v1 ")) {
            return Format::AnnoFen;
        }
        if lines().any(|line| line == "setup:" || line.starts_with("setup:")) {
            return Format::Xay;
        }
        let wxf_header = |line: &str| {
            let mut words = line.split_whitespace();
            words.next() == Some("FORMAT") && words.next() == Some("WXF")
        };
        if lines().any(|line| wxf_header(line) || line == "START{") {
            return Format::Wxf;
        }
        let Some(first) = lines().next() else {
            return Format::Ppn;
        };
        let otn_tag = |line: &str| {
            let Some(rest) = line.strip_prefix('[') else {
                return false;
            };
            let key_end = rest.find(':').unwrap_or(0);
            key_end > 0
                && rest[..key_end]
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        };
        if otn_tag(first) || (first.starts_with("dim:") && first.contains("start:/")) {
            return Format::Otn;
        }
        if lines().nth(1).is_none() && is_xiangqi_fen_line(first) {
            return Format::Fen;
        }
        Format::Ppn
    }

    /// The format a file's extension names, if it names one.
    pub fn of_path(path: Option<&Path>) -> Option<Format> {
        path.and_then(|path| path.extension())
            .and_then(|extension| extension.to_str())
            .and_then(Format::of_extension)
    }

    /// [`Format::detect`] for `new_text`, made from `old_text` by `edit`, when `old_text`
    /// was in `before`: a xiangqi-setup file's content is read again only when the lines
    /// the edit touched, before or after it, hold one of the marks that decide the format
    /// (reading the whole of a long WXF record again for each keystroke took a millisecond).
    pub fn detect_after_edit(
        before: Format,
        path: Option<&Path>,
        old_text: &str,
        new_text: &str,
        edit: &crate::model::edit::TextEdit,
    ) -> Format {
        let by_content = Format::of_path(path).is_some_and(Format::is_xiangqi);
        if !by_content || !before.is_xiangqi() {
            return Format::detect(path, new_text);
        }
        fn touched(text: &str, start: usize, end: usize) -> &str {
            let bytes = text.as_bytes();
            let start = start.min(bytes.len());
            let end = end.clamp(start, bytes.len());
            let from = bytes[..start]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |at| at + 1);
            let to = bytes[end..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |at| end + at);
            // Both ends are at line ends or the text's: character boundaries.
            text.get(from..to).unwrap_or(text)
        }
        let decides = |lines: &str| {
            lines.contains("WXF")
                || lines.lines().any(|line| {
                    let line = line.trim_start_matches('\u{feff}');
                    line.starts_with("v1 ") || line.starts_with("setup:")
                })
        };
        if decides(touched(old_text, edit.start, edit.old_end))
            || decides(touched(new_text, edit.start, edit.new_end))
        {
            Format::xiangqi_by_content(new_text)
        } else {
            before
        }
    }

    /// Which xiangqi-setup format `text` is in.
    pub fn xiangqi_by_content(text: &str) -> Format {
        let lines = || text.lines().map(|line| line.trim_start_matches('\u{feff}'));
        if lines().any(|line| line.starts_with("v1 ")) {
            Format::AnnoFen
        } else if lines().any(|line| {
            let line = line.trim_end();
            line == "setup:" || line.starts_with("setup:")
        }) {
            Format::Xay
        } else if text.contains("WXF") {
            Format::Wxf
        } else {
            Format::Fen
        }
    }
}

/// Whether `line` is a xiangqi FEN: a board field of ten ranks of letters and digits (a
/// letter that is no piece is the reader's to report), then perhaps the side to move and
/// FEN's other fields.
fn is_xiangqi_fen_line(line: &str) -> bool {
    let board = line.split_whitespace().next().unwrap_or("");
    let ranks: Vec<&str> = board.split('/').collect();
    ranks.len() == 10
        && ranks
            .iter()
            .all(|rank| !rank.is_empty() && rank.chars().all(|c| c.is_ascii_alphanumeric()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_random::Xorshift;

    #[test]
    fn the_extension_decides_except_between_xiangqi_formats() {
        let at = |name: &str, text: &str| Format::detect(Some(Path::new(name)), text);
        assert_eq!(at("game.ppn", "v1 rnbakabnr"), Format::Ppn);
        assert_eq!(at("game.PPN", ""), Format::Ppn);
        assert_eq!(at("game.otg", ""), Format::Otn);
        assert_eq!(at("rules.otn", ""), Format::Otn);
        assert_eq!(at("notes.txt", ""), Format::Ppn);
        assert_eq!(at("notes.txt", "[name:Brandubh]\n1. d1-d2\n"), Format::Otn);
        assert_eq!(
            at("a.fen", "v1 rnbakabnr/9/9/9/9/9/9/9/9/RNBAKABNR"),
            Format::AnnoFen
        );
        assert_eq!(at("a.annofen", "version: '1'\nsetup:\n"), Format::Xay);
        assert_eq!(at("a.xay", "FORMAT WXF\nSTART{\n}END"), Format::Wxf);
        assert_eq!(
            at(
                "a.wxf",
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
            ),
            Format::Fen
        );
    }

    #[test]
    fn a_format_known_before_an_edit_is_the_one_read_again_from_the_whole_text() {
        use crate::model::edit::TextEdit;
        let mut random = Xorshift::new(0x0bad_5eed_1234_5678);
        let mut next = |below: usize| random.below(below);
        // Pieces of the marks that decide, so that edits make and break them.
        let pieces = [
            "W",
            "X",
            "F",
            "WXF",
            "v",
            "1",
            " ",
            "v1 ",
            "\n",
            "setup",
            ":",
            "setup:",
            "\u{feff}",
            "FORMAT",
            "rnbakabnr/9",
            "\r\n",
            "x",
        ];
        let path = Path::new("game.wxf");
        let mut changed = 0;
        for round in 0..3_000 {
            let mut text: String = (0..next(12)).map(|_| pieces[next(pieces.len())]).collect();
            if round % 3 == 0 {
                text.push_str("FORMAT WXF\nSTART{\n 1. C2.5 h8+7\n}END\n");
            }
            for _ in 0..4 {
                let boundary = |at: usize, text: &str| {
                    (at..=text.len())
                        .find(|&i| text.is_char_boundary(i))
                        .unwrap()
                };
                let start = boundary(next(text.len() + 1), &text);
                let old_end = boundary(start + next(text.len() - start + 1).min(6), &text);
                let inserted: String = (0..next(3)).map(|_| pieces[next(pieces.len())]).collect();
                let mut edited = text.clone();
                edited.replace_range(start..old_end, &inserted);
                let edit = TextEdit {
                    start,
                    old_end,
                    new_end: start + inserted.len(),
                };
                let before = Format::detect(Some(path), &text);
                let after = Format::detect_after_edit(before, Some(path), &text, &edited, &edit);
                assert_eq!(
                    after,
                    Format::detect(Some(path), &edited),
                    "{text:?} → {edited:?}"
                );
                changed += usize::from(after != before);
                text = edited;
            }
        }
        assert!(changed > 100, "{changed}");
        // Not decided by content: the extension says.
        let edit = TextEdit {
            start: 0,
            old_end: 0,
            new_end: 3,
        };
        let ppn = Some(Path::new("game.ppn"));
        assert_eq!(
            Format::detect_after_edit(Format::Ppn, ppn, "", "v1 ", &edit),
            Format::Ppn
        );
    }
}
