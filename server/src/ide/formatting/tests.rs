use super::*;
use crate::ide::analyze::analyze;

fn formatted(text: &str) -> String {
    formatted_with(text, &FormatOptions::default())
}

fn formatted_with(text: &str, options: &FormatOptions) -> String {
    let document = analyze(None, text.to_string());
    let layout = format_document(&*document, options).expect("the text parses");
    assert!(layout.games_left_as_written.is_empty(), "{text:?}");
    layout.apply(text)
}

#[test]
fn a_move_pair_a_line() {
    let text = "---\nGameType: Chess\n...\n1. e2-e4   1... e7-e5 2. g1-f3\t2... b8-c6\n3. f1-b5 3... a7-a6";
    assert_eq!(
        formatted(text),
        "---\nGameType: Chess\n...\n1. e2-e4 1... e7-e5\n2. g1-f3 2... b8-c6\n3. f1-b5 3... a7-a6\n"
    );
}
