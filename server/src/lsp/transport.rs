//! The client's byte stream, read frame by frame before the protocol library sees it.
//!
//! tower-lsp-server ends the session at the first frame it cannot decode, so everything
//! the client sends goes through [`FrameReader`] and [`check_message`] first: a frame is
//! cut by its `Content-Length` alone, and a frame that is not a JSON-RPC 2.0 message is
//! answered here with the JSON-RPC error it deserves (parse error, invalid request) and
//! skipped, with a line on standard error. A header that cannot be trusted (no length, a
//! length that is not a number or is over [`MAX_MESSAGE_BYTES`], a line that is no
//! header) is skipped up to the next `Content-Length`. Only well-formed messages reach the
//! library, so it never ends a session the client did not end.

use std::borrow::Cow;

use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncReadExt};
use tower_lsp_server::jsonrpc::{Request, Response};

/// The longest message body read: a document of some tens of megabytes, written as JSON.
pub const MAX_MESSAGE_BYTES: usize = 64 << 20;

/// The longest header block: LSP defines two short headers.
pub const MAX_HEADER_BYTES: usize = 8 << 10;

const CONTENT_LENGTH: &[u8] = b"content-length";

/// What the client sent next.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// A body, cut by its `Content-Length`.
    Body(Vec<u8>),
    /// A header block that cannot be trusted; the stream is skipped up to the next
    /// `Content-Length` (or its end) before the next frame is read.
    Malformed(String),
    /// The stream ended (in the middle of a frame, the partial frame is dropped).
    End,
}

/// Reads frames from a byte stream, never holding more than one frame (and one read).
pub struct FrameReader<R> {
    input: R,
    buffer: Vec<u8>,
    ended: bool,
    /// The last header block could not be trusted: skip to the next one. Done when the
    /// next frame is asked for, not at once, so that the malformed one is answered
    /// without waiting for more of the stream.
    skipping: bool,
}

impl<R: AsyncRead + Unpin> FrameReader<R> {
    pub fn new(input: R) -> FrameReader<R> {
        FrameReader {
            input,
            buffer: Vec::new(),
            ended: false,
            skipping: false,
        }
    }

    /// Reads more of the stream into the buffer; false once it has ended.
    async fn fill(&mut self) -> bool {
        if self.ended {
            return false;
        }
        let mut chunk = [0u8; 64 << 10];
        match self.input.read(&mut chunk).await {
            Ok(0) | Err(_) => {
                self.ended = true;
                false
            }
            Ok(read) => {
                self.buffer.extend_from_slice(&chunk[..read]);
                true
            }
        }
    }

    pub async fn next_frame(&mut self) -> Frame {
        if std::mem::take(&mut self.skipping) {
            self.skip_to_next_header().await;
        }
        let length = match self.read_headers().await {
            Ok(Some(length)) => length,
            Ok(None) => return Frame::End,
            Err(problem) => {
                self.skipping = true;
                return Frame::Malformed(problem);
            }
        };
        while self.buffer.len() < length {
            if !self.fill().await {
                return Frame::End;
            }
        }
        let rest = self.buffer.split_off(length);
        Frame::Body(std::mem::replace(&mut self.buffer, rest))
    }

    /// The body length the headers give; `None` at the end of the stream.
    async fn read_headers(&mut self) -> Result<Option<usize>, String> {
        let mut length = None;
        let mut header_bytes = 0;
        let mut any_header = false;
        loop {
            let Some(newline) = self.buffer.iter().position(|&byte| byte == b'\n') else {
                if self.buffer.len() > MAX_HEADER_BYTES {
                    return Err(format!(
                        "a header line is longer than {MAX_HEADER_BYTES} bytes"
                    ));
                }
                if !self.fill().await {
                    return Ok(None);
                }
                continue;
            };
            let line: Vec<u8> = self.buffer.drain(..=newline).collect();
            header_bytes += line.len();
            if header_bytes > MAX_HEADER_BYTES {
                return Err(format!(
                    "the headers are longer than {MAX_HEADER_BYTES} bytes"
                ));
            }
            let line = line.strip_suffix(b"\n").unwrap_or(&line);
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.is_empty() {
                if !any_header {
                    // Blank lines between messages are harmless.
                    continue;
                }
                return match length {
                    Some(length) => Ok(Some(length)),
                    None => Err("the headers have no Content-Length".to_string()),
                };
            }
            any_header = true;
            let Some(colon) = line.iter().position(|&byte| byte == b':') else {
                return Err(format!("`{}` is not a header", shown(line)));
            };
            let (name, value) = (&line[..colon], &line[colon + 1..]);
            if name.trim_ascii().eq_ignore_ascii_case(CONTENT_LENGTH) {
                length = Some(parse_length(value)?);
            }
        }
    }

    /// Drops everything up to the next `Content-Length` (in any case), which starts the
    /// next header block.
    async fn skip_to_next_header(&mut self) {
        loop {
            if let Some(at) = find_ignoring_case(&self.buffer, CONTENT_LENGTH) {
                self.buffer.drain(..at);
                return;
            }
            // Keep what could be the start of a `Content-Length` cut by the read.
            let keep = CONTENT_LENGTH.len() - 1;
            let drop = self.buffer.len().saturating_sub(keep);
            self.buffer.drain(..drop);
            if !self.fill().await {
                self.buffer.clear();
                return;
            }
        }
    }
}

fn parse_length(value: &[u8]) -> Result<usize, String> {
    let value = value.trim_ascii();
    let digits = std::str::from_utf8(value)
        .ok()
        .filter(|text| !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit()));
    let Some(digits) = digits else {
        return Err(format!(
            "Content-Length `{}` is not a number of bytes",
            shown(value)
        ));
    };
    match digits.parse::<usize>() {
        Ok(length) if length <= MAX_MESSAGE_BYTES => Ok(length),
        _ => Err(format!(
            "Content-Length {digits} is over the limit of {MAX_MESSAGE_BYTES} bytes"
        )),
    }
}

fn find_ignoring_case(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window.eq_ignore_ascii_case(needle))
}

/// A piece of the stream for a message: printable, and short.
fn shown(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut shown: String = text.chars().take(40).collect();
    if text.chars().nth(40).is_some() {
        shown.push('…');
    }
    shown.escape_debug().to_string()
}

/// What to do with a frame's body.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// A JSON-RPC 2.0 request, notification or response: for the server.
    Pass,
    /// Answer with `response` and drop the message.
    Answer {
        response: Value,
        /// Why, for standard error; `None` when the answer is ordinary protocol.
        problem: Option<String>,
    },
    /// A response from the client that cannot be read: drop it (a response is never
    /// answered).
    Drop(String),
}

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;

fn error_response(id: Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn rejected(id: Value, code: i64, problem: String) -> Verdict {
    let message = match code {
        PARSE_ERROR => "Parse error",
        _ => "Invalid request",
    };
    Verdict::Answer {
        response: error_response(id, code, &format!("{message}: {problem}")),
        problem: Some(problem),
    }
}

/// Whether a body is a message the server can take, and the answer if it is not.
pub fn check_message(body: &[u8]) -> Verdict {
    let text = match std::str::from_utf8(body) {
        Ok(text) => text,
        Err(error) => {
            return rejected(
                Value::Null,
                PARSE_ERROR,
                format!("the message is not UTF-8 ({error})"),
            )
        }
    };
    let message: Value = match serde_json::from_str(text) {
        Ok(message) => message,
        Err(error) => {
            return rejected(
                Value::Null,
                PARSE_ERROR,
                format!("the message is not JSON ({error})"),
            )
        }
    };
    let Value::Object(fields) = &message else {
        let what = match message {
            Value::Array(_) => "a batch (an array), which LSP does not use",
            _ => "not a JSON object",
        };
        return rejected(
            Value::Null,
            INVALID_REQUEST,
            format!("the message is {what}"),
        );
    };
    let id = match fields.get("id") {
        None => None,
        Some(id @ (Value::String(_) | Value::Null)) => Some(id.clone()),
        Some(id @ Value::Number(number)) if number.is_i64() => Some(id.clone()),
        Some(_) => {
            return rejected(
                Value::Null,
                INVALID_REQUEST,
                "the id is neither an integer, a string nor null".to_string(),
            )
        }
    };
    let answer_id = id.clone().unwrap_or(Value::Null);
    if fields.get("jsonrpc") != Some(&json!("2.0")) {
        return rejected(
            answer_id,
            INVALID_REQUEST,
            "the message is not JSON-RPC 2.0 (`\"jsonrpc\": \"2.0\"`)".to_string(),
        );
    }
    match fields.get("method") {
        Some(Value::String(method)) => {
            if method.starts_with("$/") && id.is_some() {
                // Requests whose method starts with `$/` are optional; the protocol
                // says to answer those a server does not know (the library drops them).
                return Verdict::Answer {
                    response: error_response(
                        answer_id,
                        METHOD_NOT_FOUND,
                        &format!("Method not found: {method}"),
                    ),
                    problem: None,
                };
            }
            match serde_json::from_value::<Request>(message.clone()) {
                Ok(_) => Verdict::Pass,
                Err(error) => rejected(
                    answer_id,
                    INVALID_REQUEST,
                    format!("the request cannot be read ({error})"),
                ),
            }
        }
        Some(_) => rejected(
            answer_id,
            INVALID_REQUEST,
            "the method is not a string".to_string(),
        ),
        None if fields.contains_key("result") || fields.contains_key("error") => {
            match serde_json::from_value::<Response>(message.clone()) {
                Ok(_) if id.is_some() => Verdict::Pass,
                Ok(_) => Verdict::Drop("a response without an id".to_string()),
                Err(error) => Verdict::Drop(format!("a response that cannot be read ({error})")),
            }
        }
        None => rejected(
            answer_id,
            INVALID_REQUEST,
            "the message has no method (and is no response)".to_string(),
        ),
    }
}

/// A body framed for the wire.
pub fn framed(body: &[u8]) -> Vec<u8> {
    let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    frame.extend_from_slice(body);
    frame
}

/// How a skipped message is described on standard error.
pub fn skipped_line(problem: &str) -> Cow<'static, str> {
    Cow::Owned(format!("ppn-ls: skipped a message: {problem}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn frames(stream: &[u8]) -> Vec<Frame> {
        let mut reader = FrameReader::new(stream);
        let mut frames = Vec::new();
        loop {
            let frame = reader.next_frame().await;
            if frame == Frame::End {
                return frames;
            }
            frames.push(frame);
        }
    }

    fn body(text: &str) -> Frame {
        Frame::Body(text.as_bytes().to_vec())
    }

    fn malformed(frame: &Frame) -> &str {
        match frame {
            Frame::Malformed(problem) => problem,
            other => panic!("expected a malformed frame, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn frames_are_cut_by_their_length_whatever_they_hold() {
        let stream = b"Content-Length: 2\r\n\r\n{}content-length:3\r\nContent-Type: x\r\n\r\n\xff\n!\r\n\r\nContent-Length: 0\r\n\r\n";
        assert_eq!(
            frames(stream).await,
            [
                body("{}"),
                Frame::Body(b"\xff\n!".to_vec()),
                Frame::Body(Vec::new())
            ]
        );
    }

    #[tokio::test]
    async fn untrustworthy_headers_are_skipped_to_the_next_content_length() {
        for (stream, problem) in [
            (
                &b"Content-Length: 1x\r\n\r\n{\"a\":1}"[..],
                "`1x` is not a number",
            ),
            (b"Content-Length: -2\r\n\r\n{}", "`-2` is not a number"),
            (b"Content-Type: text\r\n\r\n{\"b\":2}", "no Content-Length"),
            (
                b"Content-Length: 99999999999\r\n\r\n{\"c\":3}",
                "99999999999 is over the limit",
            ),
            (b"hello\r\n", "`hello` is not a header"),
        ] {
            let mut stream = stream.to_vec();
            stream.extend_from_slice(b"Content-Length: 2\r\n\r\n[]");
            let read = frames(&stream).await;
            assert_eq!(read.len(), 2, "{read:?}");
            assert!(malformed(&read[0]).contains(problem), "{read:?}");
            assert_eq!(read[1], body("[]"));
        }
    }

    #[tokio::test]
    async fn a_stream_of_garbage_ends_without_holding_it_all() {
        let mut stream = vec![b'x'; 1 << 20];
        stream.extend_from_slice(b"\nContent-Length: 2\r\n\r\n{}");
        let read = frames(&stream).await;
        assert_eq!(read.len(), 2);
        assert!(malformed(&read[0]).contains("longer than"));
        assert_eq!(read[1], body("{}"));
    }

    #[tokio::test]
    async fn a_frame_cut_by_the_end_of_the_stream_is_dropped() {
        assert_eq!(frames(b"Content-Length: 10\r\n\r\n{}").await, []);
        assert_eq!(frames(b"Content-Len").await, []);
    }

    fn answer(body: &str) -> (Value, Option<String>) {
        match check_message(body.as_bytes()) {
            Verdict::Answer { response, problem } => (response, problem),
            other => panic!("{body}: expected an answer, got {other:?}"),
        }
    }

    fn code_and_id(body: &str) -> (i64, Value) {
        let (response, _) = answer(body);
        (
            response["error"]["code"].as_i64().unwrap_or_default(),
            response["id"].clone(),
        )
    }

    #[test]
    fn what_is_not_a_message_gets_the_json_rpc_error() {
        assert_eq!(code_and_id("{\"jsonrpc\""), (PARSE_ERROR, Value::Null));
        assert_eq!(
            match check_message(b"{\"jsonrpc\":\"2.0\",\"method\":\"\xff\"}") {
                Verdict::Answer { response, .. } => response["error"]["code"].clone(),
                other => panic!("{other:?}"),
            },
            json!(PARSE_ERROR)
        );
        assert_eq!(code_and_id("[]"), (INVALID_REQUEST, Value::Null));
        assert_eq!(code_and_id("17"), (INVALID_REQUEST, Value::Null));
        assert_eq!(
            code_and_id(r#"{"jsonrpc":"2.0","id":{"a":1},"method":"shutdown"}"#),
            (INVALID_REQUEST, Value::Null)
        );
        assert_eq!(
            code_and_id(r#"{"jsonrpc":"2.0","id":1.5,"method":"shutdown"}"#),
            (INVALID_REQUEST, Value::Null)
        );
        assert_eq!(
            code_and_id(r#"{"jsonrpc":"1.0","id":7,"method":"shutdown"}"#),
            (INVALID_REQUEST, json!(7))
        );
        assert_eq!(
            code_and_id(r#"{"id":"x","method":"shutdown"}"#),
            (INVALID_REQUEST, json!("x"))
        );
        assert_eq!(
            code_and_id(r#"{"jsonrpc":"2.0","id":3,"method":4}"#),
            (INVALID_REQUEST, json!(3))
        );
        assert_eq!(
            code_and_id(r#"{"jsonrpc":"2.0","id":3}"#),
            (INVALID_REQUEST, json!(3))
        );
        let (response, problem) = answer(r#"{"jsonrpc":"2.0","method":"initialized","#);
        assert_eq!(response["jsonrpc"], "2.0");
        assert!(
            problem.is_some_and(|problem| problem.contains("not JSON")),
            "{response}"
        );
    }

    #[test]
    fn dollar_requests_are_answered_and_dollar_notifications_pass() {
        let (response, problem) = answer(r#"{"jsonrpc":"2.0","id":9,"method":"$/unknown"}"#);
        assert_eq!(response["id"], 9);
        assert_eq!(response["error"]["code"], METHOD_NOT_FOUND);
        assert_eq!(problem, None);
        assert_eq!(
            check_message(br#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#),
            Verdict::Pass
        );
    }

    #[test]
    fn messages_pass_and_bad_responses_are_dropped_unanswered() {
        for message in [
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
            r#"{"jsonrpc":"2.0","id":"a","method":"x"}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"x"}"#,
            r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":4,"result":null}"#,
            r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"no"}}"#,
        ] {
            assert_eq!(
                check_message(message.as_bytes()),
                Verdict::Pass,
                "{message}"
            );
        }
        assert!(matches!(
            check_message(br#"{"jsonrpc":"2.0","id":4,"error":"no"}"#),
            Verdict::Drop(_)
        ));
        assert!(matches!(
            check_message(br#"{"jsonrpc":"2.0","result":1}"#),
            Verdict::Drop(_)
        ));
    }
}
