//! A PPN document's diagnostics as `ppn-ls check` finds them, fast enough for thousands of
//! inputs a second: none may panic, every range lies in the text at character boundaries,
//! and checking the games of a text of several in batches says what checking it whole says.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ppn_ls::diagnostic::Diagnostic;
use ppn_ls::ppn::diagnostics::{check_text, check_text_in_batches};

mod common;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut whole = check_text(&text);
    common::check_diagnostics(&text, &whole);
    // Batches of a game or so, the cuts between games, where there are several.
    if !text.contains("\n---") {
        return;
    }
    let mut batched: Vec<Diagnostic> = check_text_in_batches(&text, 64);
    Diagnostic::sort_and_dedup(&mut batched);
    Diagnostic::sort_and_dedup(&mut whole);
    assert_eq!(batched, whole);
});
