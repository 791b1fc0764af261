//! Finding and reading `ppn-ls.toml` files: the nearest one from a file's folder upwards.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::config::settings::{ConfigFile, Exclude, FILE_NAME};

/// A `ppn-ls.toml` in force: where it is, what it says and its `check.exclude` globs.
#[derive(Debug)]
pub struct Found {
    pub path: PathBuf,
    /// Its text as read, for its diagnostics' places.
    pub text: String,
    pub file: ConfigFile,
    exclude: Exclude,
}

impl Found {
    fn new(path: PathBuf, text: String) -> Found {
        let file = ConfigFile::parse(&text);
        let exclude = Exclude::new(file.settings.exclude.as_deref().unwrap_or_default());
        Found {
            path,
            text,
            file,
            exclude,
        }
    }

    /// The folder its paths are relative to.
    pub fn folder(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new(""))
    }

    /// Whether its `check.exclude` leaves `path` out.
    pub fn excludes(&self, path: &Path) -> bool {
        let path = absolute(path);
        path.strip_prefix(self.folder())
            .is_ok_and(|relative| self.exclude.excludes(relative))
    }
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The configuration files of a run (`check` over many folders) or of the server,
/// each folder looked up once. The server sets the texts of open `ppn-ls.toml` files, which
/// stand for what is on disk.
#[derive(Debug, Default)]
pub struct ConfigFiles {
    by_folder: Mutex<HashMap<PathBuf, Option<Arc<Found>>>>,
    open: Mutex<HashMap<PathBuf, String>>,
}

impl ConfigFiles {
    pub fn new() -> ConfigFiles {
        ConfigFiles::default()
    }

    /// The `ppn-ls.toml` in force for the file at `path`: the nearest from its folder up.
    pub fn for_file(&self, path: &Path) -> Option<Arc<Found>> {
        let path = absolute(path);
        self.for_folder(path.parent()?)
    }

    /// The `ppn-ls.toml` in force in `folder`: its own, or the nearest above it.
    pub fn for_folder(&self, folder: &Path) -> Option<Arc<Found>> {
        let folder = absolute(folder);
        let mut unknown = Vec::new();
        let mut found = None;
        {
            let cache = self.by_folder.lock().unwrap_or_else(|e| e.into_inner());
            for ancestor in folder.ancestors() {
                if let Some(known) = cache.get(ancestor) {
                    found = known.clone();
                    break;
                }
                unknown.push(ancestor.to_path_buf());
            }
        }
        // Read outside the lock: the folders not yet looked at, nearest first, up to the
        // first that has a file (or the one whose answer was known).
        let mut answered = Vec::new();
        for (i, ancestor) in unknown.iter().enumerate() {
            if let Some(read) = self.read(&ancestor.join(FILE_NAME)) {
                found = Some(Arc::new(read));
                answered = unknown[..=i].to_vec();
                break;
            }
        }
        if answered.is_empty() {
            answered = unknown;
        }
        let mut cache = self.by_folder.lock().unwrap_or_else(|e| e.into_inner());
        for folder in answered {
            cache.insert(folder, found.clone());
        }
        found
    }

    fn read(&self, path: &Path) -> Option<Found> {
        let open = self
            .open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(path)
            .cloned();
        let text = match open {
            Some(text) => text,
            None if path.is_file() => match std::fs::read(path) {
                Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                Err(_) => return None,
            },
            None => return None,
        };
        Some(Found::new(path.to_path_buf(), text))
    }

    /// An open `ppn-ls.toml`'s text (`None` once closed: the disk's again). Forgets what
    /// was found, so that the next look-ups read it.
    pub fn set_open_text(&self, path: &Path, text: Option<String>) {
        {
            let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
            match text {
                Some(text) => open.insert(absolute(path), text),
                None => open.remove(&absolute(path)),
            };
        }
        self.forget();
    }

    /// Forgets every file found (one changed on disk).
    pub fn forget(&self) {
        self.by_folder
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }
}

/// Whether `path` names a configuration file.
pub fn is_config_file(path: &Path) -> bool {
    path.file_name().is_some_and(|name| name == FILE_NAME)
}
