//! Edits as a client sends them, applied to the server's rope, must give what the same
//! edits give on a plain string read by LSP's rules (lines end at `\n`, `\r\n` or `\r`; a
//! column past the end of a line is its end, and one inside a character moves past it),
//! and the byte range reported for each edit must be the one replaced.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use ppn_ls::lsp::open_document::apply_change;
use ppn_ls::lsp::encoding::{text_offset, PositionEncoding};
use ppn_ls::model::line_index::LineIndex;
use ropey::Rope;
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent};

#[derive(Arbitrary, Debug)]
struct Edit {
    start: (u8, u8),
    end: (u8, u8),
    text: String,
    whole: bool,
}

#[derive(Arbitrary, Debug)]
struct Input {
    utf8: bool,
    text: String,
    edits: Vec<Edit>,
}

/// The byte offset of a position in `text`, by LSP's rules, without ropes or indexes.
fn reference_offset(text: &str, position: Position, utf8: bool) -> usize {
    let mut line_start = 0;
    let mut line = 0;
    let bytes = text.as_bytes();
    while line < position.line {
        let Some(end) = bytes[line_start..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
        else {
            return text.len();
        };
        let end = line_start + end;
        line_start = if bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n') {
            end + 2
        } else {
            end + 1
        };
        line += 1;
    }
    let mut offset = line_start;
    let mut counted = 0;
    for ch in text[line_start..].chars() {
        if counted >= position.character as usize || ch == '\n' || ch == '\r' {
            break;
        }
        counted += if utf8 { ch.len_utf8() } else { ch.len_utf16() };
        offset += ch.len_utf8();
    }
    offset
}

fn position((line, character): (u8, u8)) -> Position {
    Position {
        line: u32::from(line % 16),
        character: u32::from(character),
    }
}

fuzz_target!(|input: Input| {
    let encoding = if input.utf8 {
        PositionEncoding::Utf8
    } else {
        PositionEncoding::Utf16
    };
    let mut rope = Rope::from_str(&input.text);
    let mut expected = input.text.clone();
    for edit in input.edits.iter().take(32) {
        let (start, end) = (position(edit.start), position(edit.end));
        let change = TextDocumentContentChangeEvent {
            range: (!edit.whole).then_some(Range { start, end }),
            range_length: None,
            text: edit.text.clone(),
        };
        let before = expected.clone();
        let index = LineIndex::new(&before);
        let reported = apply_change(&mut rope, &change, encoding);
        if edit.whole {
            expected = edit.text.clone();
            assert!(reported.is_none());
        } else {
            let a = reference_offset(&before, start, input.utf8);
            let b = reference_offset(&before, end, input.utf8);
            // Requests convert positions with the line index: it must agree.
            assert_eq!(text_offset(&before, &index, start, encoding), a);
            assert_eq!(text_offset(&before, &index, end, encoding), b);
            let (a, b) = (a.min(b), a.max(b));
            expected.replace_range(a..b, &edit.text);
            let reported = reported.expect("a ranged change reports its bytes");
            assert_eq!(
                (reported.start, reported.old_end, reported.new_end),
                (a, b, a + edit.text.len())
            );
        }
        assert_eq!(rope.to_string(), expected);
    }
});
