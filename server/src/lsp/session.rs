//! One session with a client: its stream read and checked frame by frame, the protocol
//! library serving the handlers, and the answers written back whole.
//!
//! Nothing a client sends ends the server: malformed frames are answered and skipped
//! before the protocol library sees them (see [`crate::lsp::transport`]), and a panic while
//! answering a message becomes an error response.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use dashmap::DashMap;
use serde_json::json;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, DuplexStream};
use tokio::sync::{mpsc, watch};
use tower_lsp_server::{LspService, Server};

use super::analysis::Analyzer;
use super::catch_panics::CatchPanics;
use super::handlers::custom::{
    BOARD_AT_METHOD, BOARD_GRID_METHOD, ENTER_MOVE_METHOD, GAME_LINE_METHOD, LEGAL_TARGETS_METHOD,
    MOVE_IN_WORDS_METHOD, RENDER_METHOD,
};
use super::handlers::Backend;
use super::state::State;
use crate::config::{ConfigFiles, Settings};
use crate::lsp::prewritten_json::WrittenArrays;
use crate::lsp::transport::{check_message, framed, skipped_line, Frame, FrameReader, Verdict};
use crate::lsp::workspace_index::WorkspaceIndex;

/// How a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionEnd {
    /// `exit` after `shutdown`, as LSP asks.
    AfterShutdown,
    /// `exit` without `shutdown`, or the client closed the stream.
    WithoutShutdown,
}

impl SessionEnd {
    /// The process exit code LSP prescribes.
    pub fn exit_code(self) -> i32 {
        match self {
            SessionEnd::AfterShutdown => crate::exit_code::SUCCESS,
            SessionEnd::WithoutShutdown => crate::exit_code::PROBLEMS,
        }
    }
}

/// Serve one client over `input` and `output` until it exits.
///
/// The protocol library reads only what [`read_client`] passes it and writes into a pipe
/// of its own; [`write_frames`] writes its messages and the answers to malformed frames
/// to `output`, one whole frame at a time.
pub async fn serve<I, O>(input: I, output: O, analyzer: Analyzer) -> SessionEnd
where
    I: AsyncRead + Unpin,
    O: AsyncWrite,
{
    let shutdown_requested = Arc::new(AtomicBool::new(false));
    let flag = shutdown_requested.clone();
    let written_arrays = Arc::new(WrittenArrays::default());
    let arrays = written_arrays.clone();
    let (service, socket) = LspService::build(move |client| Backend {
        state: Arc::new(State {
            client,
            analyzer,
            documents: DashMap::new(),
            sent_tokens: DashMap::new(),
            written_arrays: arrays,
            encoding: OnceLock::new(),
            hover_plain_text: OnceLock::new(),
            next_revision: AtomicU64::new(1),
            publish_gate: tokio::sync::Mutex::new(()),
            progress: watch::channel(0).0,
            shutdown_requested: flag,
            workspace: std::sync::Mutex::new(WorkspaceIndex::default()),
            editor_settings: std::sync::RwLock::new(Settings::default()),
            configs: ConfigFiles::new(),
            config_documents: DashMap::new(),
            pulls_configuration: AtomicBool::new(false),
            watch_config_files: AtomicBool::new(false),
        }),
    })
    .custom_method(BOARD_AT_METHOD, Backend::board_at)
    .custom_method(RENDER_METHOD, Backend::render)
    .custom_method(GAME_LINE_METHOD, Backend::game_line)
    .custom_method(BOARD_GRID_METHOD, Backend::board_grid)
    .custom_method(LEGAL_TARGETS_METHOD, Backend::legal_targets)
    .custom_method(ENTER_MOVE_METHOD, Backend::enter_move)
    .custom_method(MOVE_IN_WORDS_METHOD, Backend::move_in_words)
    .finish();

    let (to_library, library_input) = tokio::io::duplex(PIPE_BYTES);
    let (library_output, from_library) = tokio::io::duplex(PIPE_BYTES);
    let (outgoing, frames) = mpsc::channel(OUTGOING_FRAMES);
    let library = Server::new(library_input, library_output, socket).serve(CatchPanics(service));
    let reading = read_client(input, to_library, outgoing.clone());
    let session = async {
        tokio::pin!(library);
        tokio::select! {
            // `exit`: the client may keep its end open, so stop reading it.
            () = &mut library => {}
            // The client closed its end: the library sees its input end and stops too.
            () = reading => library.await,
        }
    };
    tokio::join!(
        session,
        forward_library_output(from_library, outgoing, &written_arrays),
        write_frames(frames, output)
    );
    if shutdown_requested.load(Ordering::SeqCst) {
        SessionEnd::AfterShutdown
    } else {
        SessionEnd::WithoutShutdown
    }
}

/// Room in each pipe between the protocol library and the client's streams.
const PIPE_BYTES: usize = 1 << 16;
/// Messages waiting to be written to the client.
const OUTGOING_FRAMES: usize = 64;

/// Passes the client's well-formed messages to the library; answers the others.
async fn read_client<I: AsyncRead + Unpin>(
    input: I,
    mut to_library: DuplexStream,
    outgoing: mpsc::Sender<Vec<u8>>,
) {
    let mut reader = FrameReader::new(input);
    loop {
        let answer = match reader.next_frame().await {
            Frame::End => return,
            Frame::Malformed(problem) => {
                eprintln!("{}", skipped_line(&problem));
                json!({
                    "jsonrpc": "2.0",
                    "id": null,
                    "error": { "code": -32700, "message": format!("Parse error: {problem}") }
                })
            }
            Frame::Body(body) => match check_message(&body) {
                Verdict::Pass => {
                    if to_library.write_all(&framed(&body)).await.is_err() {
                        return;
                    }
                    continue;
                }
                Verdict::Answer { response, problem } => {
                    if let Some(problem) = problem {
                        eprintln!("{}", skipped_line(&problem));
                    }
                    response
                }
                Verdict::Drop(problem) => {
                    eprintln!("{}", skipped_line(&problem));
                    continue;
                }
            },
        };
        if outgoing
            .send(answer.to_string().into_bytes())
            .await
            .is_err()
        {
            return;
        }
    }
}

/// Cuts the library's output into messages for [`write_frames`], putting in the arrays
/// written ahead of them.
async fn forward_library_output(
    from_library: DuplexStream,
    outgoing: mpsc::Sender<Vec<u8>>,
    written_arrays: &WrittenArrays,
) {
    let mut reader = FrameReader::new(from_library);
    loop {
        match reader.next_frame().await {
            Frame::Body(body) => {
                if outgoing.send(written_arrays.fill(body)).await.is_err() {
                    return;
                }
            }
            Frame::Malformed(problem) => {
                eprintln!("ppn-ls: dropped an outgoing message: {problem}")
            }
            Frame::End => return,
        }
    }
}

/// Writes each message whole. Once the client stops reading, messages are dropped, so
/// that nothing waits on it.
async fn write_frames<O: AsyncWrite>(mut frames: mpsc::Receiver<Vec<u8>>, output: O) {
    tokio::pin!(output);
    let mut open = true;
    while let Some(body) = frames.recv().await {
        if open {
            let written = async {
                output.write_all(&framed(&body)).await?;
                output.flush().await
            };
            open = written.await.is_ok();
        }
    }
}
