//! The games of a collection of files, to find one by its event, players, date, game or
//! result: the editor's workspace symbols and `ppn-ls games --find`.
//!
//! Finding games needs their headers, not their boards: a PPN file's games are read from
//! its game splitting and metadata alone (no move is replayed), an OpenTafl record's from
//! its tags, a WXF record's from its header lines.

use std::ops::Range;
use std::path::{Path, PathBuf};

use serde_yaml::Value;

use crate::ide::analyze::analyze;
use crate::model::edit::trimmed;
use crate::model::format::Format;
use crate::ppn::reader::games::split_games;
use crate::ppn::reader::metadata::{parse_metadata, scalar_text};

/// A game of a file, as a collection lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEntry {
    /// What the outline calls it: `Game 2: Club night`.
    pub name: String,
    /// Where it is in its file.
    pub range: Range<usize>,
    /// Its first line (`---`, a tag, a header line).
    pub selection: Range<usize>,
    /// What its header says, in the order written: `("Event", "Club night")`,
    /// `("White", "Ann")`, `("GameType", "Tablut")`, ...
    pub tags: Vec<(String, String)>,
}

/// Tags shown in a game's summary, in this order, in every spelling the notations use.
const SUMMARY_TAGS: &[&[&str]] = &[
    &["Event", "event", "EVENT", "GAME"],
    &["Site", "site"],
    &["Round", "round"],
    &["Date", "date", "DATE"],
    &["White", "attackers", "RED", "Players", "Player1", "First"],
    &["Black", "defenders", "BLACK", "Player2", "Second"],
    &["GameType", "SetUp"],
    &["Result", "result", "RESULT"],
];

impl GameEntry {
    /// The game in one line: `Club night, 2024-01-01, Ann – Ben, Tablut, 1-0`.
    pub fn summary(&self) -> String {
        let value = |keys: &[&str]| {
            keys.iter().find_map(|key| {
                self.tags
                    .iter()
                    .find(|(tag, value)| tag == key && !value.is_empty())
                    .map(|(_, value)| value.as_str())
            })
        };
        let mut parts: Vec<String> = Vec::new();
        for (index, keys) in SUMMARY_TAGS.iter().enumerate() {
            let Some(found) = value(keys) else {
                continue;
            };
            // White and Black as one part.
            if index == 5 && value(SUMMARY_TAGS[4]).is_some() {
                if let Some(white) = parts.pop() {
                    parts.push(format!("{white} – {found}"));
                }
                continue;
            }
            if !parts.iter().any(|part| part == found) {
                parts.push(found.to_string());
            }
        }
        parts.join(", ")
    }

    /// Whether every word of `query` is in the game's name or in one of its tags' values
    /// (ignoring case); an empty query finds every game.
    pub fn matches(&self, query: &str) -> bool {
        let haystack = std::iter::once(self.name.as_str())
            .chain(self.tags.iter().map(|(_, value)| value.as_str()))
            .collect::<Vec<_>>()
            .join("\n")
            .to_lowercase();
        query
            .split_whitespace()
            .all(|word| haystack.contains(&word.to_lowercase()))
    }
}

/// The games of `text`, the file at `path`, with their tags.
pub fn games_in(path: Option<&Path>, text: &str) -> Vec<GameEntry> {
    match Format::detect(path, text) {
        Format::Ppn => ppn_games(text),
        format => {
            let document = analyze(path, text.to_string());
            let tags = match format {
                Format::Otn => otn_tags(text),
                Format::Wxf => wxf_tags(text),
                _ => Vec::new(),
            };
            document
                .games()
                .into_iter()
                .map(|game| GameEntry {
                    name: game.name,
                    range: game.range,
                    selection: game.selection,
                    tags: tags.clone(),
                })
                .collect()
        }
    }
}

/// PPN games from their metadata alone, named as the outline names them.
fn ppn_games(text: &str) -> Vec<GameEntry> {
    split_games(text)
        .into_iter()
        .enumerate()
        .filter_map(|(index, game)| {
            let range = trimmed(text, game.range.clone());
            if range.is_empty() {
                return None;
            }
            let (metadata, _) = parse_metadata(text, game.metadata.clone());
            let mut tags = Vec::new();
            for (key, value) in metadata.mapping.iter() {
                let Some(key) = scalar_text(key) else {
                    continue;
                };
                // `GameType: {Name: Tablut, ...}` is the game Tablut.
                let value = match value {
                    Value::Mapping(mapping) if key == "GameType" || key == "SetUp" => {
                        mapping.get("Name").and_then(scalar_text)
                    }
                    value => scalar_text(value),
                };
                if let Some(value) = value {
                    tags.push((key, value));
                }
            }
            let tag = |key: &str| {
                tags.iter()
                    .find(|(name, _)| name == key)
                    .map(|(_, value)| value.clone())
            };
            let mut name = format!("Game {}", index + 1);
            if let Some(title) = tag("Event")
                .or_else(|| tag("GameType"))
                .or_else(|| tag("SetUp"))
            {
                name.push_str(": ");
                name.push_str(&title);
            }
            let first_line_end = text[range.clone()]
                .find(['\n', '\r'])
                .map_or(range.end, |at| range.start + at);
            Some(GameEntry {
                name,
                selection: range.start..first_line_end,
                range,
                tags,
            })
        })
        .collect()
}

/// The tags of an OpenTafl record: `[event:...]` lines (the rules and the commentary left
/// out).
fn otn_tags(text: &str) -> Vec<(String, String)> {
    text.lines()
        .map(str::trim)
        .take_while(|line| line.is_empty() || line.starts_with('['))
        .filter_map(|line| {
            let inner = line.strip_prefix('[')?.strip_suffix(']')?;
            let (key, value) = inner.split_once(':')?;
            let keep = !matches!(key, "rules" | "start-comment" | "compiler" | "annotator");
            keep.then(|| (key.trim().to_string(), value.trim().to_string()))
        })
        .collect()
}

/// The header of a WXF record: `KEY value` lines before `START{` (a player's name comes
/// before his rating, after `;`).
fn wxf_tags(text: &str) -> Vec<(String, String)> {
    text.lines()
        .take_while(|line| !line.trim_start().starts_with("START{"))
        .filter_map(|line| {
            let (key, value) = line.trim().split_once(char::is_whitespace)?;
            if !key.chars().all(|c| c.is_ascii_uppercase()) || key == "FORMAT" {
                return None;
            }
            let value = value.trim();
            let value = match key {
                "RED" | "BLACK" => value.split(';').next().unwrap_or(value).trim(),
                _ => value.trim_end_matches(';').trim(),
            };
            Some((key.to_string(), value.to_string()))
        })
        .collect()
}

/// The most files a folder is searched for.
pub const MOST_FILES: usize = 20_000;

/// The files under `root` that ppn-ls reads, sorted: hidden folders (`.git`) are not
/// searched, links to folders are not followed, and the search stops at [`MOST_FILES`].
pub fn files_under(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(folder) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if kind.is_dir() {
                if !entry.file_name().to_string_lossy().starts_with('.') {
                    pending.push(path);
                }
            } else if kind.is_file() && is_read(&path) {
                found.push(path);
                if found.len() >= MOST_FILES {
                    found.sort();
                    return found;
                }
            }
        }
    }
    found.sort();
    found
}

/// Whether ppn-ls reads files named like `path`.
pub fn is_read(path: &Path) -> bool {
    path.extension()
        .and_then(|extension| extension.to_str())
        .is_some_and(Format::is_known_extension)
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLLECTION: &str = "---\nEvent: Club night\nDate: 2024-01-01\nWhite: Ann\nBlack: Ben\n\
        GameType: {Name: Tablut, Die Width: 0.5}\nResult: 1-0\n...\n1. d1-d3\n\n\
        ---\nEvent: Spring open\nWhite: Cleo\nBlack: Ann\nGameType: Chess\n...\n1. e2-e4\n";

    #[test]
    fn ppn_games_are_found_by_their_metadata() {
        let games = games_in(None, COLLECTION);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].name, "Game 1: Club night");
        assert_eq!(
            games[0].summary(),
            "Club night, 2024-01-01, Ann – Ben, Tablut, 1-0"
        );
        assert_eq!(&COLLECTION[games[1].selection.clone()], "---");
        let found = |query: &str| -> Vec<String> {
            games
                .iter()
                .filter(|game| game.matches(query))
                .map(|game| game.name.clone())
                .collect()
        };
        assert_eq!(found("ann"), ["Game 1: Club night", "Game 2: Spring open"]);
        assert_eq!(found("Ann cleo"), ["Game 2: Spring open"]);
        assert_eq!(found("tablut 2024"), ["Game 1: Club night"]);
        assert_eq!(found("1-0"), ["Game 1: Club night"]);
        assert!(found("nobody").is_empty());
        assert_eq!(found("").len(), 2);
    }

    #[test]
    fn records_of_other_notations_are_found_by_their_headers() {
        let otn = "[event:Grandmasters' Tournament 2015]\n[date:2015.01.07]\n[attackers:Tim]\n\
                   [defenders:Sam]\n[result:-1]\n[rules:dim:7 start:/3t3/3t3/tTTKTTt/3T3/3t3/7/7/]\n\
                   1. d5-f5 b4-b2\n";
        let games = games_in(Some(Path::new("g.otg")), otn);
        assert_eq!(games.len(), 1);
        assert_eq!(
            games[0].summary(),
            "Grandmasters' Tournament 2015, 2015.01.07, Tim – Sam, -1"
        );
        assert!(games[0].matches("grandmasters sam"));
        let wxf = "FORMAT  WXF\nRED     jugador rojo ; 1200 ;;\nBLACK   jugador negro ; 1240 ;;\n\
                   RESULT  0-1\nEVENT   PlayOK Game ; 10m+0s\nSTART{\n 1. P3+1 c8.7\n}END\n";
        let games = games_in(Some(Path::new("g.wxf")), wxf);
        assert_eq!(games.len(), 1);
        assert_eq!(
            games[0].summary(),
            "PlayOK Game ; 10m+0s, jugador rojo – jugador negro, 0-1"
        );
    }
}
