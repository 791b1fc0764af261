//! The process's exit codes, shared by every command and the language server.

/// Nothing to report; the language server ended after a `shutdown` request.
pub const SUCCESS: i32 = 0;
/// Problems found (errors, or warnings under `--deny-warnings`), a game the reference
/// could not read; the language server ended without a `shutdown` request.
pub const PROBLEMS: i32 = 1;
/// A usage or I/O error: a wrong command line, a file that cannot be read or written.
pub const USAGE: i32 = 2;
