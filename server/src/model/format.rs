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
    /// else FEN). A file with no known extension is PPN.
    pub fn detect(path: Option<&Path>, text: &str) -> Format {
        let by_extension = path
            .and_then(|path| path.extension())
            .and_then(|extension| extension.to_str())
            .and_then(Format::of_extension);
        match by_extension {
            Some(format) if format.is_xiangqi() => Format::xiangqi_by_content(text),
            Some(format) => format,
            None => Format::Ppn,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extension_decides_except_between_xiangqi_formats() {
        let at = |name: &str, text: &str| Format::detect(Some(Path::new(name)), text);
        assert_eq!(at("game.ppn", "v1 rnbakabnr"), Format::Ppn);
        assert_eq!(at("game.PPN", ""), Format::Ppn);
        assert_eq!(at("game.otg", ""), Format::Otn);
        assert_eq!(at("rules.otn", ""), Format::Otn);
        assert_eq!(at("notes.txt", ""), Format::Ppn);
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
}
