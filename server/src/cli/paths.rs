//! The files a command works on: paths as given, directories searched for every file
//! ppn-ls reads.

use std::path::{Path, PathBuf};

use crate::cli::output::io_message;
use crate::model::format::Format;

/// The files to read, in order, and what went wrong finding them.
#[derive(Debug, Default)]
pub struct Collected {
    pub files: Vec<PathBuf>,
    /// Directories holding no file ppn-ls reads.
    pub empty_directories: Vec<PathBuf>,
    /// Paths that could not be read, with why.
    pub failures: Vec<(PathBuf, String)>,
}

/// Expand directories into the files ppn-ls reads (sorted, so output is stable); `-` is
/// standard input. Hidden directories (`.git`) are not searched, and symbolic links to
/// directories are not followed, so a link loop cannot trap the search.
pub fn collect(paths: &[PathBuf]) -> Collected {
    collect_except(paths, &|_| false)
}

/// As [`collect`], leaving out the files and directories a search finds that `excluded`
/// says to leave out (paths named on the command line are always read, as other linters
/// do).
pub fn collect_except(paths: &[PathBuf], excluded: &dyn Fn(&Path) -> bool) -> Collected {
    let mut collected = Collected::default();
    for path in paths {
        if path.as_os_str() == "-" {
            collected.files.push(path.clone());
        } else if path.is_dir() {
            let before = collected.files.len();
            search_directory(path, excluded, &mut collected);
            if collected.files.len() == before {
                collected.empty_directories.push(path.clone());
            }
        } else if path.exists() {
            collected.files.push(path.clone());
        } else {
            collected
                .failures
                .push((path.clone(), "no such file or directory".to_string()));
        }
    }
    collected
}

fn search_directory(root: &Path, excluded: &dyn Fn(&Path) -> bool, collected: &mut Collected) {
    let mut found = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(err) => {
                collected.failures.push((dir, io_message(&err)));
                continue;
            }
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                let hidden = entry.file_name().to_string_lossy().starts_with('.');
                if !hidden && !excluded(&path) {
                    pending.push(path);
                }
            } else if is_read_by_ppn_ls(&path) && path.is_file() && !excluded(&path) {
                found.push(path);
            }
        }
    }
    found.sort();
    collected.files.extend(found);
}

fn is_read_by_ppn_ls(path: &Path) -> bool {
    path.extension()
        .and_then(|ext| ext.to_str())
        .is_some_and(Format::is_known_extension)
}

/// The extensions ppn-ls reads, as `.ppn, .otg, ...`.
pub fn known_extensions() -> String {
    Format::ALL
        .iter()
        .flat_map(|format| format.extensions())
        .map(|ext| format!(".{ext}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The warning for a directory with nothing to read.
pub fn empty_directory_message() -> String {
    format!(
        "no file ppn-ls reads ({}) in this directory",
        known_extensions()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_are_searched_and_empty_ones_noted() {
        let root = std::env::temp_dir().join(format!("ppn-ls-paths-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("games/deeper")).unwrap();
        std::fs::create_dir_all(root.join("empty")).unwrap();
        std::fs::create_dir_all(root.join("games/.hidden")).unwrap();
        std::fs::write(root.join("games/b.ppn"), "").unwrap();
        std::fs::write(root.join("games/deeper/a.otg"), "").unwrap();
        std::fs::write(root.join("games/notes.txt"), "").unwrap();
        std::fs::write(root.join("games/.hidden/c.ppn"), "").unwrap();
        let collected = collect(&[
            root.join("games"),
            root.join("empty"),
            root.join("missing.ppn"),
        ]);
        let names: Vec<_> = collected
            .files
            .iter()
            .map(|f| f.strip_prefix(&root).unwrap().to_path_buf())
            .collect();
        assert_eq!(
            names,
            [
                PathBuf::from("games/b.ppn"),
                PathBuf::from("games/deeper/a.otg")
            ]
        );
        assert_eq!(collected.empty_directories, [root.join("empty")]);
        assert_eq!(collected.failures.len(), 1);
        let _ = std::fs::remove_dir_all(&root);
    }
}
