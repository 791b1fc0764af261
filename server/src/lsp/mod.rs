//! The language server: `ppn-ls` (or `ppn-ls --stdio`) speaks LSP 3.17 over standard I/O.
//!
//! Everything it shows comes from an [`Analyzer`], a pure function of a document's text;
//! this module only keeps documents in sync with the client and converts positions.

mod analysis;
mod capabilities;
mod catch_panics;
mod config;
pub mod encoding;
mod handlers;
pub mod open_document;
mod prewritten_json;
mod session;
mod state;
mod to_proto;
pub mod transport;
pub mod workspace_index;

use std::sync::Arc;

pub use analysis::{uri_path, Analysis, Analyze, Analyzer, IncrementalAnalyzer};
pub use session::{serve, SessionEnd};
pub use to_proto::MOST_DIAGNOSTICS_SHOWN;

/// How long a thread that ran an analysis waits for the next one before it ends. The
/// allocator gives back what a thread freed only when that thread allocates again or ends:
/// an idle server's analysis threads end, and the server's idle return of memory (see
/// `memory`) then reaches what they held.
const ANALYSIS_THREAD_KEPT: std::time::Duration = std::time::Duration::from_millis(500);

/// The runtime the language server runs on: two threads for the protocol, analyses on
/// threads of their own.
pub fn server_runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_keep_alive(ANALYSIS_THREAD_KEPT)
        .on_thread_park(crate::memory::return_freed_memory_if_asked)
        .enable_all()
        .build()
}

/// Serve one client over standard input and output until it exits; returns the process
/// exit code.
pub fn run_stdio() -> i32 {
    let runtime = match server_runtime() {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("ppn-ls: cannot start the language server: {err}");
            return crate::exit_code::USAGE;
        }
    };
    let analyzer: Analyzer = Arc::new(IncrementalAnalyzer::default());
    let end = runtime.block_on(serve(tokio::io::stdin(), tokio::io::stdout(), analyzer));
    // Reading standard input blocks a thread that cannot be interrupted; do not wait for it.
    runtime.shutdown_background();
    end.exit_code()
}
