//! The macro table built from setup and metadata definitions, and substitution of a move
//! text with it: no panic, no hang, and a substituted text never keeps a defined macro.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use ppn_ls::ppn::reader::macros::MacroTable;

#[derive(Arbitrary, Debug)]
struct Input {
    setup: Vec<(String, String)>,
    metadata: Vec<(String, String)>,
    text: String,
}

fuzz_target!(|input: Input| {
    let table = MacroTable::with_overrides(&input.setup, &input.metadata);
    for name in table.names() {
        let _ = table.raw(name);
        let _ = table.resolve(name);
    }
    let substituted = table.substitute(&input.text);
    if !input.text.contains('`') {
        assert_eq!(
            substituted.as_ref().map(|text| text.as_ref()),
            Ok(input.text.as_str())
        );
    }
});
