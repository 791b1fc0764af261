//! The games of the workspace's files, for `workspace/symbol`: read on the first query,
//! kept per file with the file's modification time and size, read again when the client's
//! file watching says a file changed (or its time or size did), and taken from the editor
//! for the files it has open.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use crate::ide::workspace::{files_under, games_in, is_read, GameEntry};

/// A file longer than this is not read for its games (its games are found once it is open).
pub const MOST_BYTES_READ: u64 = 16 << 20;

/// The most games a query answers with.
pub const MOST_GAMES_FOUND: usize = 1_000;

/// A game found, with where it is as lines and columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexedGame {
    pub entry: GameEntry,
    /// The line of its first line (zero-based) and the columns of the selection on it, in
    /// bytes and in UTF-16 units.
    pub line: u32,
    pub bytes: (u32, u32),
    pub utf16: (u32, u32),
}

/// The games of one text, placed.
pub fn indexed_games(path: &Path, text: &str) -> Vec<IndexedGame> {
    let mut games = Vec::new();
    // Games come in order: lines are counted from the game before.
    let (mut line, mut counted_to) = (0u32, 0usize);
    for entry in games_in(Some(path), text) {
        let start = entry.selection.start.min(text.len());
        let end = entry.selection.end.clamp(start, text.len());
        if !text.is_char_boundary(start) || !text.is_char_boundary(end) || start < counted_to {
            continue;
        }
        let before = &text[counted_to..start];
        line = line.saturating_add(line_breaks(before));
        counted_to = start;
        let line_start = text[..start].rfind(['\n', '\r']).map_or(0, |at| at + 1);
        let column = |to: usize| -> (u32, u32) {
            let part = &text[line_start..to];
            (
                u32::try_from(part.len()).unwrap_or(u32::MAX),
                u32::try_from(part.encode_utf16().count()).unwrap_or(u32::MAX),
            )
        };
        let (start_column, end_column) = (column(start), column(end));
        games.push(IndexedGame {
            entry,
            line,
            bytes: (start_column.0, end_column.0),
            utf16: (start_column.1, end_column.1),
        });
    }
    games
}

/// Line breaks in `text` (`\r\n` counting once).
fn line_breaks(text: &str) -> u32 {
    let bytes = text.as_bytes();
    let count = bytes
        .iter()
        .enumerate()
        .filter(|&(at, &byte)| {
            byte == b'\n' || (byte == b'\r' && bytes.get(at + 1) != Some(&b'\n'))
        })
        .count();
    u32::try_from(count).unwrap_or(u32::MAX)
}

#[derive(Debug)]
struct Cached {
    stamp: (Option<SystemTime>, u64),
    games: Arc<Vec<IndexedGame>>,
}

/// The workspace's files and the games read from them.
#[derive(Debug, Default)]
pub struct WorkspaceIndex {
    roots: Vec<PathBuf>,
    /// `None` until the first query searches the roots.
    files: Option<BTreeSet<PathBuf>>,
    read: HashMap<PathBuf, Cached>,
}

/// What the client's file watching reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileChange {
    Created,
    Changed,
    Deleted,
}

impl WorkspaceIndex {
    pub fn new(roots: Vec<PathBuf>) -> WorkspaceIndex {
        WorkspaceIndex {
            roots,
            ..WorkspaceIndex::default()
        }
    }

    /// A file created, changed or deleted under the roots.
    pub fn file_changed(&mut self, path: PathBuf, change: FileChange) {
        self.read.remove(&path);
        if let Some(files) = &mut self.files {
            match change {
                FileChange::Deleted => {
                    files.remove(&path);
                }
                FileChange::Created | FileChange::Changed => {
                    let under_a_root = self.roots.iter().any(|root| path.starts_with(root));
                    if is_read(&path) && under_a_root {
                        files.insert(path);
                    }
                }
            }
        }
    }

    /// How many files are kept read.
    #[cfg(test)]
    pub fn files_read(&self) -> usize {
        self.read.len()
    }

    /// The games matching `query` in every file of the workspace, `open` giving the text of
    /// the files the editor has open (the editor's text wins over the file's).
    pub fn find(
        &mut self,
        query: &str,
        open: &dyn Fn(&Path) -> Option<String>,
    ) -> Vec<(PathBuf, IndexedGame)> {
        let files = self.files.get_or_insert_with(|| {
            self.roots
                .iter()
                .flat_map(|root| files_under(root))
                .collect()
        });
        let mut found = Vec::new();
        for path in files.iter() {
            let games = match open(path) {
                Some(text) => Arc::new(indexed_games(path, &text)),
                None => match read_games(&mut self.read, path) {
                    Some(games) => games,
                    None => continue,
                },
            };
            for game in games.iter().filter(|game| game.entry.matches(query)) {
                found.push((path.clone(), game.clone()));
                if found.len() >= MOST_GAMES_FOUND {
                    return found;
                }
            }
        }
        found
    }
}

/// The games of the file at `path`, read again only when its time or size changed.
fn read_games(read: &mut HashMap<PathBuf, Cached>, path: &Path) -> Option<Arc<Vec<IndexedGame>>> {
    let metadata = std::fs::metadata(path).ok()?;
    let stamp = (metadata.modified().ok(), metadata.len());
    if let Some(cached) = read.get(path).filter(|cached| cached.stamp == stamp) {
        return Some(Arc::clone(&cached.games));
    }
    if metadata.len() > MOST_BYTES_READ {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let games = Arc::new(indexed_games(path, &text));
    read.insert(
        path.to_path_buf(),
        Cached {
            stamp,
            games: Arc::clone(&games),
        },
    );
    Some(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_placed_by_line_and_column() {
        let text = "---\nEvent: A\n...\n1. S@a1\r\n\r\n---\nEvent: 🂡 B\n...\n";
        let games = indexed_games(Path::new("c.ppn"), text);
        let places: Vec<(u32, (u32, u32))> = games.iter().map(|g| (g.line, g.bytes)).collect();
        assert_eq!(places, [(0, (0, 3)), (5, (0, 3))]);
        assert_eq!(games[1].entry.name, "Game 2: 🂡 B");
    }

    #[test]
    fn files_are_read_once_until_they_change() {
        let root = std::env::temp_dir().join(format!("ppn-ls-index-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("club")).unwrap();
        std::fs::write(root.join("club/a.ppn"), "---\nEvent: Club night\n...\n").unwrap();
        std::fs::write(root.join("b.ppn"), "---\nEvent: Spring open\n...\n").unwrap();
        let mut index = WorkspaceIndex::new(vec![root.clone()]);
        let none = |_: &Path| None;
        let names = |found: Vec<(PathBuf, IndexedGame)>| -> Vec<String> {
            found.into_iter().map(|(_, game)| game.entry.name).collect()
        };
        assert_eq!(names(index.find("", &none)).len(), 2);
        assert_eq!(index.files_read(), 2);
        assert_eq!(names(index.find("club", &none)), ["Game 1: Club night"]);
        // A new file, reported by the file watching.
        let c = root.join("club/c.ppn");
        std::fs::write(&c, "---\nEvent: Club final\n...\n").unwrap();
        index.file_changed(c.clone(), FileChange::Created);
        assert_eq!(
            names(index.find("club", &none)),
            ["Game 1: Club night", "Game 1: Club final"]
        );
        // The editor's text of an open file wins.
        let open = |path: &Path| {
            (path.ends_with("b.ppn")).then(|| "---\nEvent: Club picnic\n...\n".to_string())
        };
        assert_eq!(names(index.find("picnic", &open)), ["Game 1: Club picnic"]);
        std::fs::remove_file(&c).unwrap();
        index.file_changed(c, FileChange::Deleted);
        assert_eq!(names(index.find("club", &none)), ["Game 1: Club night"]);
        let _ = std::fs::remove_dir_all(&root);
    }
}
