//! The project's configuration: `ppn-ls.toml`, and the same keys from an editor.
//!
//! A `ppn-ls.toml` is found from a file's folder upwards (as `rustfmt.toml` is) and read
//! by `check`, every other command and the server; an editor sends the same keys, nested
//! under `ppn-ls`, in `initializationOptions` and `workspace/didChangeConfiguration`. Both
//! are read by one schema ([`Settings`]), so a key means the same wherever it is written.
//! Where both set a key, the file wins for what the project decides (severities, what
//! `check` leaves out, the formatter's options) and the editor for how things are shown
//! (the hover board, how many diagnostics an editor is sent): [`Config::resolve`].
//!
//! Reading never fails: an unknown key or a bad value is a diagnostic at its place in the
//! file (or a problem the server reports for the editor's settings), and that key keeps
//! its default. The file's folder decides what its `check.exclude` globs are relative to.
//! `docs/configuration.md` is the user's page.

#[cfg(feature = "native")]
mod files;
mod settings;

#[cfg(feature = "native")]
pub use files::{is_config_file, ConfigFiles, Found};
#[cfg(feature = "native")]
pub use settings::Exclude;
pub use settings::{
    editor_settings, BoardStyle, Config, ConfigFile, FormatSettings, Level, Settings,
    DEFAULT_MAX_PER_DOCUMENT, FILE_NAME,
};
