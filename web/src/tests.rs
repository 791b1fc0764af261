use super::*;

#[test]
fn utf16_offsets_round_trip_through_wide_and_narrow_characters() {
    let text = "a🂡b é\nc🁣";
    let offsets = Utf16Offsets::new(text);
    let mut unit = 0;
    for (byte, c) in text.char_indices() {
        assert_eq!(offsets.unit(text, byte), unit, "byte {byte}");
        assert_eq!(offsets.byte(text, unit), byte, "unit {unit}");
        unit += c.len_utf16();
    }
    assert_eq!(offsets.unit(text, text.len()), unit);
    assert_eq!(offsets.byte(text, unit), text.len());
    // Inside a character: its start.
    assert_eq!(offsets.byte(text, 2), 1);
    assert_eq!(offsets.unit(text, 3), 1);
    // Past the end: the end.
    assert_eq!(offsets.byte(text, 999), text.len());
    let ascii = Utf16Offsets::new("abc");
    assert_eq!(ascii.byte("abc", 2), 2);
    assert_eq!(ascii.unit("abc", 3), 3);
}

const GAME: &str =
    "---\nGameType: Tic-Tac-Toe\n...\n1. S@b2 {🂡 centre} 1... M@a2\n2. S@c1 2... b9\n";

#[test]
fn a_session_answers_what_the_command_line_answers() {
    let mut session = Session::new();
    let summary: Value = serde_json::from_str(&session.open("game.ppn", GAME.to_string())).unwrap();
    assert_eq!(summary["format"], "ppn");
    let states = &summary["games"][0]["states"];
    assert_eq!(states.as_array().unwrap().len(), 5);
    assert_eq!(states[1]["label"], "1.");
    assert_eq!(states[1]["comment"], "🂡 centre");
    // Offsets in UTF-16 units: the glyph before `1...` counts two.
    let from = states[2]["from"].as_u64().unwrap() as usize;
    let utf16: Vec<u16> = GAME.encode_utf16().collect();
    assert_eq!(
        String::from_utf16(&utf16[from..from + 9]).unwrap(),
        "1... M@a2"
    );
    let diagnostics = summary["diagnostics"].as_array().unwrap();
    assert!(!diagnostics.is_empty());
    let picture = session.picture(0, 2, false);
    assert!(picture.contains("The board after 1... M@a2"));
    assert_eq!(session.picture(0, 99, false), "");
    let at: Value = serde_json::from_str(&session.state_at(from as u32 + 6)).unwrap();
    assert_eq!(at, json!({"game": 0, "ref": 2}));
}

#[test]
fn an_edit_gives_what_a_fresh_analysis_gives() {
    let mut session = Session::new();
    session.open("game.ppn", GAME.to_string());
    let utf16: Vec<u16> = GAME.encode_utf16().collect();
    let at = String::from_utf16(&utf16).unwrap().find("b9").unwrap();
    // `b9` → `a3`, in UTF-16 units (the glyph earlier counts two units, four bytes).
    let units = GAME[..at].encode_utf16().count() as u32;
    let edited = session.edit(units, units + 2, "a3", true);
    let expected = GAME.replace("b9", "a3");
    assert_eq!(session.text(), expected);
    let mut fresh = Session::new();
    assert_eq!(edited, fresh.open("game.ppn", expected));
}

#[test]
fn tokens_and_formats_are_those_of_the_core() {
    let mut session = Session::new();
    session.open("game.ppn", GAME.to_string());
    let tokens = session.tokens(0, u32::MAX);
    assert_eq!(tokens.len() % 3, 0);
    assert!(!tokens.is_empty());
    let kinds = token_kinds();
    assert!(tokens
        .chunks(3)
        .all(|t| (t[2] as usize) < kinds.len() && t[0] < t[1]));
    assert_eq!(format_of("x.otg", ""), "otn");
    assert_eq!(format_of("x.ppn", "1. S@b2"), "ppn");
}
