//! An LSP client for tests: it runs the server in-process over an in-memory pipe and
//! speaks JSON-RPC to it. And the diagnostic codes of a text
//! ([`diagnostics::diagnostic_codes`]).

// Each test binary uses its own subset of these helpers.
#![allow(dead_code)]

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub mod diagnostics;

use ppn_ls::lsp::{serve, Analyzer, SessionEnd};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream, WriteHalf};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

pub const PATIENCE: Duration = Duration::from_secs(20);

pub struct TestClient {
    to_server: WriteHalf<DuplexStream>,
    from_server: mpsc::UnboundedReceiver<Value>,
    /// Requests whose answers come back as their text (see [`TestClient::request_text`]).
    unparsed: Arc<Mutex<HashSet<i64>>>,
    unparsed_answers: mpsc::UnboundedReceiver<Vec<u8>>,
    /// Messages read while waiting for another one.
    held: VecDeque<Value>,
    next_id: i64,
    server: JoinHandle<SessionEnd>,
}

impl TestClient {
    /// Start a server, `initialize` it (offering `encodings` if given) and send `initialized`.
    pub async fn start(encodings: Option<&[&str]>, analyzer: Analyzer) -> (TestClient, Value) {
        let capabilities = match encodings {
            Some(encodings) => json!({ "general": { "positionEncodings": encodings } }),
            None => json!({}),
        };
        TestClient::start_with(
            json!({ "processId": null, "rootUri": null, "capabilities": capabilities }),
            analyzer,
        )
        .await
    }

    /// Start a server, `initialize` it with `params` and send `initialized`.
    pub async fn start_with(params: Value, analyzer: Analyzer) -> (TestClient, Value) {
        let (client_io, server_io) = tokio::io::duplex(1 << 16);
        let (server_in, server_out) = tokio::io::split(server_io);
        let server = tokio::spawn(serve(server_in, server_out, analyzer));
        let (client_in, to_server) = tokio::io::split(client_io);
        let (sender, from_server) = mpsc::unbounded_channel();
        let (unparsed_sender, unparsed_answers) = mpsc::unbounded_channel();
        let unparsed = Arc::new(Mutex::new(HashSet::new()));
        tokio::spawn(read_messages(
            BufReader::new(client_in),
            sender,
            unparsed.clone(),
            unparsed_sender,
        ));
        let mut client = TestClient {
            to_server,
            from_server,
            unparsed,
            unparsed_answers,
            held: VecDeque::new(),
            next_id: 1,
            server,
        };
        let response = client.request("initialize", params).await;
        client.notify("initialized", json!({})).await;
        (client, response["result"].clone())
    }

    pub async fn send(&mut self, message: Value) {
        let body = message.to_string();
        let framed = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        self.to_server
            .write_all(framed.as_bytes())
            .await
            .expect("the server stopped reading");
    }

    /// An id for a request sent by hand.
    pub fn request_id(&mut self) -> i64 {
        self.next_id += 1;
        self.next_id - 1
    }

    /// Bytes as they are, framed or not.
    pub async fn send_raw(&mut self, bytes: &[u8]) {
        self.to_server
            .write_all(bytes)
            .await
            .expect("the server stopped reading");
    }

    pub async fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }))
            .await;
    }

    /// The whole response message (with `result` or `error`).
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .await;
        self.wait_for(|message| message["id"] == json!(id) && message.get("method").is_none())
            .await
    }

    /// The text of the response, not read into a JSON tree: for a bench to read it as a
    /// client with types for the answer would, and for requests sent one at a time.
    pub async fn request_text(&mut self, method: &str, params: Value) -> Vec<u8> {
        let id = self.next_id;
        self.next_id += 1;
        self.unparsed.lock().unwrap().insert(id);
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .await;
        tokio::time::timeout(PATIENCE, self.unparsed_answers.recv())
            .await
            .expect("no answer from the server in time")
            .expect("the server closed its output")
    }

    /// The numbers of `textDocument/semanticTokens/full` for `uri`, read as a client with
    /// the protocol's types reads them (not into a JSON tree).
    pub async fn full_semantic_tokens(&mut self, uri: &str) -> Vec<u32> {
        #[derive(serde::Deserialize)]
        struct Answer {
            result: Tokens,
        }
        #[derive(serde::Deserialize)]
        struct Tokens {
            data: Vec<u32>,
        }
        let text = self
            .request_text(
                "textDocument/semanticTokens/full",
                json!({ "textDocument": { "uri": uri } }),
            )
            .await;
        match serde_json::from_slice::<Answer>(&text) {
            Ok(answer) => answer.result.data,
            Err(error) => panic!("{error}: {}", String::from_utf8_lossy(&text)),
        }
    }

    pub async fn wait_for(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(at) = self.held.iter().position(&wanted) {
            if let Some(message) = self.held.remove(at) {
                return message;
            }
        }
        loop {
            let message = tokio::time::timeout(PATIENCE, self.from_server.recv())
                .await
                .expect("no message from the server in time")
                .expect("the server closed its output");
            if wanted(&message) {
                return message;
            }
            self.held.push_back(message);
        }
    }

    /// The next diagnostics published for `uri`.
    pub async fn diagnostics(&mut self, uri: &str) -> Value {
        let message = self
            .wait_for(|message| {
                message["method"] == "textDocument/publishDiagnostics"
                    && message["params"]["uri"] == uri
            })
            .await;
        message["params"].clone()
    }

    /// Diagnostics published for `uri` until those of `version`, checking that no
    /// publication goes back to an older version on the way.
    pub async fn diagnostics_of_version(&mut self, uri: &str, version: i64) -> Value {
        let mut newest = i64::MIN;
        loop {
            let published = self.diagnostics(uri).await;
            let published_version = published["version"]
                .as_i64()
                .expect("diagnostics of an open document carry its version");
            assert!(
                published_version >= newest,
                "version {published_version} published after {newest}"
            );
            newest = published_version;
            if published_version == version {
                return published;
            }
            assert!(
                published_version < version,
                "version {published_version} was never sent"
            );
        }
    }

    pub async fn open(&mut self, uri: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": {
                "uri": uri, "languageId": "ppn", "version": version, "text": text
            } }),
        )
        .await;
    }

    pub async fn change(&mut self, uri: &str, version: i64, changes: Value) {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri, "version": version },
                "contentChanges": changes
            }),
        )
        .await;
    }

    pub async fn shutdown_and_exit(mut self) -> SessionEnd {
        let response = self.request("shutdown", Value::Null).await;
        assert_eq!(response["result"], Value::Null);
        assert!(response.get("error").is_none(), "{response}");
        self.notify("exit", Value::Null).await;
        self.finish().await
    }

    pub async fn finish(self) -> SessionEnd {
        tokio::time::timeout(PATIENCE, self.server)
            .await
            .expect("the server did not stop after exit")
            .expect("the server task failed")
    }
}

/// The id of a response (`None` for any other message).
fn answer_id(body: &[u8]) -> Option<i64> {
    // The server's protocol library writes a response as `{"jsonrpc":"2.0","result":...,
    // "id":N}`: seen from its two ends, a long answer need not be read twice.
    if let Some(inside) = body
        .strip_prefix(br#"{"jsonrpc":"2.0","result":"#)
        .and_then(|rest| rest.strip_suffix(b"}"))
    {
        let tail = &inside[inside.len().saturating_sub(24)..];
        if let Some(at) = tail.windows(6).rposition(|key| key == br#","id":"#) {
            if let Ok(id) = std::str::from_utf8(&tail[at + 6..]).unwrap_or("").parse() {
                return Some(id);
            }
        }
    }
    #[derive(serde::Deserialize)]
    struct Envelope {
        id: Option<i64>,
        method: Option<serde::de::IgnoredAny>,
    }
    let envelope: Envelope = serde_json::from_slice(body).expect("a message that is not JSON");
    match envelope {
        Envelope {
            id: Some(id),
            method: None,
        } => Some(id),
        _ => None,
    }
}

async fn read_messages(
    mut input: BufReader<tokio::io::ReadHalf<DuplexStream>>,
    sender: mpsc::UnboundedSender<Value>,
    unparsed: Arc<Mutex<HashSet<i64>>>,
    unparsed_sender: mpsc::UnboundedSender<Vec<u8>>,
) {
    loop {
        let mut length = None;
        loop {
            let mut header = String::new();
            match input.read_line(&mut header).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some(value) = header.strip_prefix("Content-Length: ") {
                length = value.parse::<usize>().ok();
            }
        }
        let length = length.expect("a message without Content-Length");
        let mut body = vec![0; length];
        if input.read_exact(&mut body).await.is_err() {
            return;
        }
        if !unparsed.lock().unwrap().is_empty() {
            let wanted = match answer_id(&body) {
                Some(id) => unparsed.lock().unwrap().remove(&id),
                None => false,
            };
            if wanted {
                if unparsed_sender.send(body).is_err() {
                    return;
                }
                continue;
            }
        }
        let message = serde_json::from_slice(&body).expect("a message that is not JSON");
        if sender.send(message).is_err() {
            return;
        }
    }
}

pub fn range(start: (u32, u32), end: (u32, u32)) -> Value {
    json!({
        "start": { "line": start.0, "character": start.1 },
        "end": { "line": end.0, "character": end.1 }
    })
}
