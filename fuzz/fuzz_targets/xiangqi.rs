//! A xiangqi-setup file (annoFEN, XAY, FEN or WXF, told apart by its content as
//! xiangqi-setup tells them) read, replayed and converted, fast enough for thousands of
//! inputs a second: none may panic, and every diagnostic's range lies in the text at
//! character boundaries.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ppn_ls::model::format::Format;
use ppn_ls::xiangqi::document::XiangqiDocument;

mod common;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let document = XiangqiDocument::new(Format::xiangqi_by_content(&text), text);
    common::check_document(&document);
});
