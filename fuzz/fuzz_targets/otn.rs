//! An OpenTafl record read, replayed and converted, fast enough for thousands of inputs a
//! second: none may panic, every diagnostic's range lies in the text at character
//! boundaries, and every board of every line can be drawn.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ppn_ls::otn::document::OtnDocument;

mod common;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let document = OtnDocument::new(text);
    common::check_document(&document);
    for (line, states) in document.replay.lines.iter().enumerate().take(16) {
        for index in 0..states.plies.len().min(256) {
            let _ = document.position(line, index);
        }
    }
});
