//! The `ppn-ls` binary as an editor starts it: LSP over standard input and output.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const PATIENCE: Duration = Duration::from_secs(20);

struct Session {
    child: Child,
    /// `None` once closed.
    stdin: Option<ChildStdin>,
    messages: mpsc::Receiver<Value>,
    held: Vec<Value>,
    /// What the server wrote to standard error, line by line.
    errors: Arc<Mutex<Vec<String>>>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ppn-ls"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ppn-ls starts");
        let stdin = child.stdin.take().expect("piped standard input");
        let stdout = child.stdout.take().expect("piped standard output");
        let stderr = child.stderr.take().expect("piped standard error");
        let errors = Arc::new(Mutex::new(Vec::new()));
        let written = errors.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Ok(mut lines) = written.lock() {
                    lines.push(line);
                }
            }
        });
        let (sender, messages) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if sender.send(message).is_err() {
                    return;
                }
            }
        });
        Session {
            child,
            stdin: Some(stdin),
            messages,
            held: Vec::new(),
            errors,
        }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        self.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("standard input is still open");
        stdin
            .write_all(bytes)
            .and_then(|()| stdin.flush())
            .expect("ppn-ls reads its standard input");
    }

    /// Waits until standard error has a line containing `text`.
    fn wait_for_error_line(&self, text: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let found = self
                .errors
                .lock()
                .ok()
                .and_then(|lines| lines.iter().find(|line| line.contains(text)).cloned());
            if let Some(line) = found {
                return line;
            }
            assert!(Instant::now() < deadline, "no `{text}` on standard error");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn wait_for(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(at) = self.held.iter().position(&wanted) {
            return self.held.remove(at);
        }
        loop {
            let message = self
                .messages
                .recv_timeout(PATIENCE)
                .expect("a message from ppn-ls in time");
            if wanted(&message) {
                return message;
            }
            self.held.push(message);
        }
    }

    fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        self.wait_for(|message| message["id"] == json!(id) && message.get("method").is_none())
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// The exit code, once the process has ended by itself.
    fn exit_code(mut self) -> Option<i32> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().expect("ppn-ls can be waited for") {
                return status.code();
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("ppn-ls did not exit");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).ok()? == 0 {
            return None;
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some(value) = header.strip_prefix("Content-Length: ") {
            length = value.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// Initialize, open a document, wait for its diagnostics and hover over it.
fn edit_session(session: &mut Session) {
    let initialized = session.request(1, "initialize", json!({ "capabilities": {} }));
    assert_eq!(
        initialized["result"]["capabilities"]["positionEncoding"],
        "utf-16"
    );
    session.notify("initialized", json!({}));
    let uri = "file:///game.ppn";
    session.notify(
        "textDocument/didOpen",
        json!({ "textDocument": {
            "uri": uri, "languageId": "ppn", "version": 4,
            "text": "---\nGameType: Tablut\n...\n1. a4-a3 1... c5-c3 ]\n"
        } }),
    );
    let published = session.wait_for(|message| {
        message["method"] == "textDocument/publishDiagnostics" && message["params"]["uri"] == uri
    });
    assert_eq!(published["params"]["version"], 4, "{published}");
    let diagnostics = published["params"]["diagnostics"]
        .as_array()
        .expect("a list of diagnostics");
    for diagnostic in diagnostics {
        assert_eq!(diagnostic["source"], "ppn-ls", "{diagnostic}");
        assert!(diagnostic["code"].is_string(), "{diagnostic}");
        assert!(diagnostic["range"]["start"]["line"].as_u64() <= Some(3));
    }
    let hover = session.request(
        2,
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 99, "character": 0 } }),
    );
    assert!(hover.get("error").is_none(), "{hover}");
}

#[test]
fn no_arguments_serve_lsp_and_exit_0_after_shutdown() {
    let mut session = Session::start(&[]);
    edit_session(&mut session);
    let shutdown = session.request(3, "shutdown", Value::Null);
    assert_eq!(shutdown["result"], Value::Null, "{shutdown}");
    session.notify("exit", Value::Null);
    assert_eq!(session.exit_code(), Some(0));
}

#[test]
fn stdio_flag_serves_lsp_and_exit_without_shutdown_is_1() {
    let mut session = Session::start(&["--stdio"]);
    edit_session(&mut session);
    session.notify("exit", Value::Null);
    assert_eq!(session.exit_code(), Some(1));
}

#[test]
fn closing_standard_input_ends_the_server() {
    let mut session = Session::start(&[]);
    edit_session(&mut session);
    session.stdin = None;
    assert_eq!(session.exit_code(), Some(1));
}

#[test]
fn malformed_frames_get_an_answer_and_a_line_on_standard_error_and_the_session_goes_on() {
    let mut session = Session::start(&[]);
    let initialized = session.request(1, "initialize", json!({ "capabilities": {} }));
    assert!(initialized["result"].is_object(), "{initialized}");
    // Each malformed frame, then a request that must be answered as usual.
    let cases: [(&[u8], &str); 7] = [
        (b"Content-Length: abc\r\n\r\n{}", "is not a number"),
        (b"Content-Type: application/json\r\n\r\n{}", "no Content-Length"),
        (b"Content-Length: 5\r\n\r\n{oops", "not JSON"),
        (b"Content-Length: 3\r\n\r\n\"\xff\"", "not UTF-8"),
        (b"Content-Length: 2\r\n\r\n[]", "a batch"),
        (
            b"Content-Length: 50\r\n\r\n{\"jsonrpc\":\"1.0\",\"id\":7,\"method\":\"shutdown\",\"x\":1}",
            "not JSON-RPC 2.0",
        ),
        (b"Content-Length: 99999999999\r\n\r\n{}", "over the limit"),
    ];
    for (index, (bytes, problem)) in cases.into_iter().enumerate() {
        session.send_raw(bytes);
        let answer = session.wait_for(|message| message.get("error").is_some());
        let code = answer["error"]["code"].as_i64();
        assert!(
            code == Some(-32700) || code == Some(-32600),
            "{index}: {answer}"
        );
        let line = session.wait_for_error_line(problem);
        assert!(line.starts_with("ppn-ls: "), "{line}");
        let id = 100 + index as i64;
        let symbols = session.request(
            id,
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": "file:///none.ppn" } }),
        );
        assert!(symbols.get("error").is_none(), "{index}: {symbols}");
    }
    let unknown = session.request(200, "$/unknown", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    let shutdown = session.request(3, "shutdown", Value::Null);
    assert_eq!(shutdown["result"], Value::Null, "{shutdown}");
    session.notify("exit", Value::Null);
    assert_eq!(session.exit_code(), Some(0));
}

#[test]
fn a_stream_of_garbage_until_the_end_ends_the_session_quietly() {
    let mut session = Session::start(&[]);
    session.send_raw(&vec![0xAB; 1 << 20]);
    session.wait_for_error_line("skipped a message");
    session.stdin = None;
    assert_eq!(session.exit_code(), Some(1));
}
