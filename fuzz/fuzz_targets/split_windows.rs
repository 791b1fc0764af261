//! A movetext split a few bytes at a time gives the split of the whole movetext.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ppn_ls::ppn::reader::movetext::split_movetext_in_windows_of;

fuzz_target!(|data: &[u8]| {
    let Some((&window, text)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let whole = split_movetext_in_windows_of(text, 0..text.len(), usize::MAX / 4);
    let windowed = split_movetext_in_windows_of(text, 0..text.len(), 8 + usize::from(window));
    assert_eq!(windowed, whole);
});
