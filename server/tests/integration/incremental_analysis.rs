//! An analysis updated edit by edit must be exactly the analysis of the final text made
//! from scratch: random edits (characters, astral glyphs, line ends, braces, `;`, game
//! separators, whole moves) applied to the conformance games, each update checked against
//! a fresh analysis in every diagnostic and every state.

use std::path::{Path, PathBuf};

use ppn_ls::ppn::document::{PpnDocument, TextEdit};
use ppn_ls::ppn::reader::games::split_games;
use ppn_ls::ppn::reader::movetext::split_movetext_resumable;
use ppn_ls::ppn::replay::{replay_document, Replay, ReplayedGame};

/// Small deterministic generator (SplitMix64), so a failing sequence replays from its seed.
struct Prng(u64);

impl Prng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }

    fn pick<'a>(&mut self, choices: &[&'a str]) -> &'a str {
        choices[self.below(choices.len())]
    }
}

fn conformance_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance")
}

fn conformance_texts(folder: &str) -> Vec<(String, String)> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(conformance_root().join(folder))
        .expect("conformance folder")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "ppn"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let name = format!("{folder}/{}", path.file_name().unwrap().to_string_lossy());
            (name, std::fs::read_to_string(&path).expect("readable game"))
        })
        .collect()
}

const INSERTIONS: &[&str] = &[
    "x",
    "1",
    ".",
    " ",
    "  ",
    "\n",
    "\r\n",
    "\r",
    "{",
    "}",
    "{a}",
    "{ note }",
    ";",
    ";-",
    "🂡",
    "🁣",
    "♥",
    "\u{3000}",
    "\u{FEFF}",
    "---\n",
    "\n---\n",
    "\n...\n",
    "...",
    "\n\n",
    " 9. S@b2 ",
    " 2... a1-b2 ",
    "*b2",
    "S@c3",
    "{1..3}",
    "{a,b}@c4",
    "`m'",
    "?S",
    "&",
    "^",
    "GameType: Tablut\n",
    "Macros:\n  m: S@a1\n",
    "  ",
    "\t",
    "-",
    "@",
    ":",
    "#",
    "=",
    "~",
];

/// A random character boundary of `text`, now and then at a line start or near the end.
fn random_offset(prng: &mut Prng, text: &str) -> usize {
    let boundaries: Vec<usize> = text
        .char_indices()
        .map(|(at, _)| at)
        .chain([text.len()])
        .collect();
    match prng.below(6) {
        0 => {
            let line_starts: Vec<usize> = boundaries
                .iter()
                .copied()
                .filter(|&at| at == 0 || matches!(text.as_bytes()[at - 1], b'\n' | b'\r'))
                .collect();
            line_starts[prng.below(line_starts.len())]
        }
        1 => boundaries[boundaries.len() - 1 - prng.below(boundaries.len().min(40))],
        _ => boundaries[prng.below(boundaries.len())],
    }
}

/// Replaces a random stretch of `text` (often empty, at most a few characters) with a
/// random insertion; returns the edit.
fn random_edit(prng: &mut Prng, text: &mut String) -> TextEdit {
    let start = random_offset(prng, text);
    let mut old_end = start;
    if prng.below(3) == 0 {
        for _ in 0..1 + prng.below(8) {
            if let Some(c) = text[old_end..].chars().next() {
                old_end += c.len_utf8();
            }
        }
    }
    let inserted = if prng.below(4) == 0 {
        ""
    } else {
        prng.pick(INSERTIONS)
    };
    text.replace_range(start..old_end, inserted);
    TextEdit {
        start,
        old_end,
        new_end: start + inserted.len(),
    }
}

fn compare_games(context: &str, got: &ReplayedGame, want: &ReplayedGame) {
    assert_eq!(got.range, want.range, "{context}: game range");
    assert_eq!(
        got.metadata.source, want.metadata.source,
        "{context}: metadata source"
    );
    assert_eq!(
        got.metadata.mapping, want.metadata.mapping,
        "{context}: metadata"
    );
    assert_eq!(
        got.metadata_diagnostics, want.metadata_diagnostics,
        "{context}: metadata diagnostics"
    );
    assert_eq!(
        got.movetext_diagnostics, want.movetext_diagnostics,
        "{context}: movetext diagnostics"
    );
    assert_eq!(
        got.state_count(),
        want.state_count(),
        "{context}: number of states"
    );
    for (index, (got, want)) in got.states().zip(want.states()).enumerate() {
        let context = format!("{context}, state {index} ({})", want.label);
        assert_eq!(got.label, want.label, "{context}: label");
        assert_eq!(got.text, want.text, "{context}: text");
        assert_eq!(got.comment, want.comment, "{context}: comment");
        assert_eq!(got.source, want.source, "{context}: source");
        assert_eq!(got.pieces(), want.pieces(), "{context}: pieces");
        assert_eq!(
            got.state.active_pieces(),
            want.state.active_pieces(),
            "{context}: active pieces"
        );
        assert_eq!(got.diagnostics, want.diagnostics, "{context}: diagnostics");
    }
}

fn compare_replays(context: &str, got: &Replay, want: &Replay) {
    assert_eq!(got.games.len(), want.games.len(), "{context}: games");
    for (index, (got, want)) in got.games.iter().zip(&want.games).enumerate() {
        compare_games(&format!("{context}, game {}", index + 1), got, want);
    }
    assert_eq!(
        got.diagnostics, want.diagnostics,
        "{context}: replay diagnostics"
    );
}

fn compare(context: &str, got: &PpnDocument, want: &PpnDocument) {
    assert_eq!(got.text, want.text, "{context}: text");
    assert!(got.syntax == want.syntax, "{context}: syntax");
    compare_replays(context, &got.replay, &want.replay);
    assert_eq!(got.diagnostics, want.diagnostics, "{context}: diagnostics");
    assert_eq!(
        got.line_index.line_count(),
        want.line_index.line_count(),
        "{context}: lines"
    );
}

/// Applies `edits` random edits to `text` one update at a time (sometimes two edits in
/// one update), comparing each update with a fresh analysis.
fn check_random_edits(name: &str, text: &str, seed: u64, edits: usize) {
    let mut prng = Prng(seed);
    let mut current = text.to_string();
    let mut analysis = PpnDocument::new(current.clone());
    let mut history = Vec::new();
    for step in 0..edits {
        let mut edit = random_edit(&mut prng, &mut current);
        history.push(edit);
        if prng.below(4) == 0 {
            let next = random_edit(&mut prng, &mut current);
            history.push(next);
            edit = edit.then(next);
        }
        let updated = analysis.update(current.clone(), &edit);
        let fresh = PpnDocument::new(current.clone());
        compare(
            &format!("{name}, seed {seed}, step {step}, edits {history:?}"),
            &updated,
            &fresh,
        );
        analysis = updated;
    }
}

#[test]
fn random_edits_to_conformance_games_match_a_fresh_analysis() {
    let mut files = conformance_texts("examples");
    files.extend(conformance_texts("reference-quirks"));
    files.extend(conformance_texts("generated").into_iter().step_by(7));
    for (index, (name, text)) in files.iter().enumerate() {
        for round in 0..3 {
            check_random_edits(name, text, (index * 3 + round) as u64, 12);
        }
    }
}

#[test]
fn random_edits_to_several_games_in_one_file_match_a_fresh_analysis() {
    let examples = conformance_texts("examples");
    for (index, window) in examples.windows(3).enumerate() {
        let text: String = window
            .iter()
            .map(|(_, text)| text.trim_end().to_string() + "\n")
            .collect();
        check_random_edits("three examples in one file", &text, 1000 + index as u64, 20);
    }
}

/// Splits every game's movetext again after random edits, from the previous split, and
/// compares with a split from scratch; returns how many splits resumed after a move.
fn check_random_resplits(text: &str, seed: u64, edits: usize) -> usize {
    let mut prng = Prng(seed);
    let mut current = text.to_string();
    let mut resumed = 0;
    for step in 0..edits {
        let before = current.clone();
        let edit = random_edit(&mut prng, &mut current);
        let old_games = split_games(&before);
        for game in split_games(&current) {
            let Some(old) = old_games
                .iter()
                .find(|old| old.movetext.start == game.movetext.start)
            else {
                continue;
            };
            let previous = split_movetext_resumable(&before, old.movetext.clone());
            let (split, kept) = previous.resplit(&current, game.movetext.clone(), &edit);
            let fresh = split_movetext_resumable(&current, game.movetext.clone());
            assert_eq!(
                split, fresh,
                "seed {seed}, step {step}, {edit:?} on {before:?}"
            );
            assert_eq!(split.moves[..kept], previous.moves[..kept]);
            resumed += usize::from(kept > 0);
        }
    }
    resumed
}

#[test]
fn movetext_split_again_from_a_move_matches_a_fresh_split() {
    let mut files = conformance_texts("examples");
    files.extend(conformance_texts("reference-quirks"));
    files.extend(conformance_texts("generated").into_iter().step_by(5));
    let mut resumed = 0;
    for (index, (_, text)) in files.iter().enumerate() {
        for round in 0..4 {
            resumed += check_random_resplits(text, 5000 + (index * 4 + round) as u64, 15);
        }
    }
    assert!(resumed > 500, "only {resumed} splits resumed after a move");
}

#[test]
fn a_resumed_split_keeps_counting_brace_expansions_towards_the_cap() {
    let mut text = String::from("---\n...\n");
    for number in 1..=12 {
        text.push_str(&format!("{number}. {{1..9000}}@a1\n"));
    }
    text.push_str("13. x 14. {1..5}@b2\n");
    let game = split_games(&text).remove(0);
    let previous = split_movetext_resumable(&text, game.movetext.clone());
    let at = text.find("x 14").unwrap();
    let mut edited = text.clone();
    edited.replace_range(at..at + 1, "y");
    let edit = TextEdit {
        start: at,
        old_end: at + 1,
        new_end: at + 1,
    };
    let (split, kept) = previous.resplit(&edited, game.movetext.clone(), &edit);
    assert_eq!(kept, 12, "the split resumes at `13.`");
    assert_eq!(split, split_movetext_resumable(&edited, game.movetext));
    let last = split.moves.last().unwrap();
    assert_eq!(
        last.text(),
        "{1..5}@b2",
        "past the cap braces stay unexpanded"
    );
}

#[test]
fn a_wrong_edit_still_gives_the_analysis_of_the_new_text() {
    let text = "---\n...\n1. S@b2 2. M@c3 3. b2-b4\n---\n...\n1. C@d4\n";
    let analysis = PpnDocument::new(text.to_string());
    let edited = text.replace("b4", "b5").replace("d4", "🂡d4");
    let wrong = [
        TextEdit::NONE,
        TextEdit {
            start: 3,
            old_end: 4,
            new_end: 4,
        },
        TextEdit {
            start: 500,
            old_end: 400,
            new_end: 900,
        },
    ];
    for edit in wrong {
        let updated = analysis.update(edited.clone(), &edit);
        compare(
            &format!("{edit:?}"),
            &updated,
            &PpnDocument::new(edited.clone()),
        );
    }
}

#[test]
fn composed_edits_span_both() {
    let mut text = "0123456789".to_string();
    let first = TextEdit {
        start: 2,
        old_end: 4,
        new_end: 5,
    };
    text.replace_range(2..4, "abc");
    let second = TextEdit {
        start: 7,
        old_end: 9,
        new_end: 7,
    };
    text.replace_range(7..9, "");
    assert_eq!(text, "01abc4589");
    assert_eq!(
        first.then(second),
        TextEdit {
            start: 2,
            old_end: 8,
            new_end: 7
        }
    );
    assert_eq!(TextEdit::NONE.then(second), second);
}

/// A game of `moves` moves that drop, move and remove coins, with a comment on every tenth.
fn long_game(moves: usize) -> String {
    let mut text = String::from("---\n...\n");
    for number in 1..=moves {
        let file = ["a", "b", "c", "d"][number % 4];
        let body = match number % 3 {
            1 => format!("S@{file}2"),
            2 => format!("{file}2-{file}3"),
            _ => format!("*{file}3"),
        };
        text.push_str(&format!("{number}. {body} "));
        if number % 10 == 0 {
            text.push_str("{note} ");
        }
    }
    text.push('\n');
    text
}

fn edited(text: &str, at: usize, old_len: usize, new: &str) -> (String, TextEdit) {
    let mut edited = text.to_string();
    edited.replace_range(at..at + old_len, new);
    let edit = TextEdit {
        start: at,
        old_end: at + old_len,
        new_end: at + new.len(),
    };
    (edited, edit)
}

#[test]
fn an_edit_late_in_a_game_keeps_the_moves_before_it() {
    let text = long_game(600);
    let analysis = PpnDocument::new(text.clone());
    assert_eq!(analysis.replay.games[0].moves_replayed(), 600);
    let at = text.find("590. ").unwrap();
    let (edited, edit) = edited(&text, at + 5, 1, "Z");
    let updated = analysis.update(edited.clone(), &edit);
    let replayed = updated.replay.games[0].moves_replayed();
    assert!((11..=11 + 64).contains(&replayed), "replayed {replayed}");
    compare("late edit", &updated, &PpnDocument::new(edited));
}

#[test]
fn an_edit_that_leaves_the_board_alike_stops_replaying_where_it_is_the_same_again() {
    let text = long_game(600);
    let analysis = PpnDocument::new(text.clone());
    // A comment near the start; then a move whose board is the same as before.
    for (what, at, old_len, new) in [
        ("comment", text.find("{note}").unwrap() + 1, 0, "x"),
        ("move", text.find("4. S@a2").unwrap() + 5, 2, "(1,2)"),
        ("added move", text.find("7. ").unwrap(), 0, "6... {aside} "),
    ] {
        let (edited, edit) = edited(&text, at, old_len, new);
        let updated = analysis.update(edited.clone(), &edit);
        let replayed = updated.replay.games[0].moves_replayed();
        assert!(replayed <= 2 * 64, "{what}: replayed {replayed} moves");
        compare(what, &updated, &PpnDocument::new(edited.clone()));
        // An edit that changes the board everywhere after it replays to the end.
        let (changed, edit) = self::edited(&edited, at, new.len(), "S@h8 ");
        let updated = updated.update(changed.clone(), &edit);
        compare(what, &updated, &PpnDocument::new(changed));
    }
}

#[test]
fn moves_numbered_twice_are_reported_where_they_are_after_an_edit() {
    let mut text = long_game(300);
    for (after, duplicate) in [("120. ", "7. S@h8 "), ("250. ", "120. *h8 ")] {
        let at = text.find(after).unwrap();
        text.insert_str(at, duplicate);
    }
    let mut analysis = PpnDocument::new(text.clone());
    let duplicates = |analysis: &PpnDocument| {
        analysis.replay.games[0]
            .movetext_diagnostics
            .iter()
            .filter(|d| d.code == "duplicate-move-number")
            .count()
    };
    assert_eq!(duplicates(&analysis), 2);
    for (needle, skip, old_len, new) in [
        ("{note}", 1, 0, "typed "),
        ("60. ", 4, 1, "Z"),
        ("7. S@h8", 3, 0, "x"),
        ("119. ", 0, 0, "119... a2-a3 "),
        ("200. ", 0, 5, "7. "),
    ] {
        let at = text.find(needle).unwrap() + skip;
        let (edited, edit) = edited(&text, at, old_len, new);
        let updated = analysis.update(edited.clone(), &edit);
        compare(needle, &updated, &PpnDocument::new(edited.clone()));
        (text, analysis) = (edited, updated);
    }
    assert_eq!(duplicates(&analysis), 3);
}

#[test]
fn a_game_moved_by_an_edit_before_it_is_then_edited_itself() {
    let first = "---\n...\n1. S@b2\n";
    let second = "---\n...\n1. S@b2 2. M@c3 3. b2-b4 {x} 4. *c3\n";
    let text = format!("{first}{second}");
    let analysis = PpnDocument::new(text.clone());
    let mut edited = text.clone();
    let at = first.find("b2").unwrap();
    edited.insert_str(at, "🂡 ");
    let moved = analysis.update(
        edited.clone(),
        &TextEdit {
            start: at,
            old_end: at,
            new_end: at + "🂡 ".len(),
        },
    );
    compare("game 2 moved", &moved, &PpnDocument::new(edited.clone()));
    let mut again = edited.clone();
    let at = again.rfind("b4").unwrap() + 1;
    again.replace_range(at..at + 1, "5");
    let updated = moved.update(
        again.clone(),
        &TextEdit {
            start: at,
            old_end: at + 1,
            new_end: at + 1,
        },
    );
    compare("game 2 edited", &updated, &PpnDocument::new(again));
    assert_eq!(moved.replay.games[1].moves_replayed(), 0);
    assert_eq!(updated.replay.games[1].moves_replayed(), 4);
}

#[test]
fn the_state_at_an_offset_is_the_move_written_there() {
    let text = "---\n...\n1. S@b2 2. M@c3\n---\n...\n1. C@d4\n";
    let analysis = PpnDocument::new(text.to_string());
    let label = |offset: usize| {
        analysis
            .state_at(offset)
            .and_then(|(_, state)| state.map(|state| state.label.clone()))
    };
    assert_eq!(label(text.find("M@").unwrap()), Some("2.".to_string()));
    assert_eq!(label(text.find("S@").unwrap()), Some("1.".to_string()));
    assert_eq!(label(1), None);
    let (game, state) = analysis.state_at(text.find("C@").unwrap()).unwrap();
    assert_eq!(game.range.start, text.rfind("---").unwrap());
    assert_eq!(state.unwrap().pieces().len(), 1);
}

#[test]
fn an_edit_in_the_first_move_number_splits_only_that_move_again() {
    let mut text = String::from("---\n...\n");
    for number in 1..=2_000 {
        text.push_str(&format!("{number}. S@a1 {number}... *a1\n"));
    }
    let game = split_games(&text).remove(0);
    let previous = split_movetext_resumable(&text, game.movetext.clone());
    for (at, inserted) in [(game.movetext.start + 1, "x"), (game.movetext.start, "0")] {
        let mut edited = text.clone();
        edited.insert_str(at, inserted);
        let edit = TextEdit {
            start: at,
            old_end: at,
            new_end: at + 1,
        };
        let movetext = split_games(&edited).remove(0).movetext;
        let (split, kept, in_step_from) =
            previous.resplit_in_step(&edited, movetext.clone(), &edit);
        assert_eq!(split, split_movetext_resumable(&edited, movetext));
        assert_eq!((kept, in_step_from), (0, 1), "{inserted:?} at {at}");
    }
}

/// A random square of a board of `size` files and ranks (at most 26), or now and then a
/// point between squares.
fn random_place(prng: &mut Prng, size: usize) -> String {
    let (file, rank) = (prng.below(size), 1 + prng.below(size));
    if prng.below(6) == 0 {
        format!("({}.5,{}.5)", 1 + file, rank)
    } else {
        format!("{}{rank}", (b'a' + file as u8) as char)
    }
}

/// The board and the pieces of a random game, and how often its moves look at the whole
/// board (searches, the pieces nearest a point).
#[derive(Clone, Copy)]
struct RandomGameKind {
    size: usize,
    /// Of 100 PieceIds, how many search the board or take the nearest pieces.
    global: usize,
}

/// One random sub-move of every kind the engine knows: drops (above, below, next to a
/// piece), moves (to the top, the bottom, next to a piece), removals, flips, rotations,
/// updates, replacements, captures, swaps; pieces found by Location, slice, nearest,
/// search, greedy search, the active pieces and the board at the move's start.
fn random_submove(prng: &mut Prng, kind: RandomGameKind) -> String {
    const SPECS: &[&str] = &["S", "M", "cS", "cA3", "C2", "t", "d", "tC", "A5"];
    let spec = prng.pick(SPECS);
    let size = kind.size;
    let (a, b, c) = (
        random_place(prng, size),
        random_place(prng, size),
        random_place(prng, size),
    );
    let id = if prng.below(100) < kind.global {
        match prng.below(3) {
            0 => format!("2{a}"),
            1 => format!("?{}", prng.pick(SPECS)),
            _ => format!("/{}", prng.pick(SPECS)),
        }
    } else {
        match prng.below(10) {
            0 => format!("{a}[1]"),
            1 => format!("{a}[2]"),
            2 => format!("^{a}"),
            3 => String::new(),
            _ => a.clone(),
        }
    };
    match prng.below(24) {
        0..=5 => format!("{spec}@{b}"),
        6 => format!("{spec}\\{b}"),
        7 => format!("{spec}@{b}%{c}"),
        8 => format!("{spec}@%{c}"),
        9..=12 => format!("{id}-{b}"),
        13 => format!("{id}_{b}"),
        14 => format!("{id}-%{c}"),
        15 => format!("*{id}"),
        16 => format!("+{id}"),
        17 => format!("{id}@>90"),
        18 => format!("{id}@>45|{c}"),
        19 => format!("?d~{}", 1 + prng.below(6)),
        20 => format!("{id}={spec}"),
        21 => format!("{id}:{b}"),
        22 => format!("{id}#{b}"),
        _ => format!("!{id}"),
    }
}

/// A long game of random moves of every kind on a board of tiles, coins and a die; a
/// comment now and then.
fn random_game(prng: &mut Prng, moves: usize, kind: RandomGameKind) -> String {
    let mut text = String::from("---\n...\n1. ");
    for (i, tile) in ["S", "M", "C", "A"].iter().enumerate() {
        text.push_str(&format!("t{tile}@({}.5,1.5) ", 1 + 2 * i));
    }
    text.push_str("d@h8\n");
    for number in 2..moves {
        text.push_str(&format!("{number}. "));
        for token in 0..1 + prng.below(2) {
            if token > 0 {
                text.push(if prng.below(3) == 0 { ';' } else { ' ' });
            }
            text.push_str(&random_submove(prng, kind));
        }
        text.push(if prng.below(10) == 0 { '\n' } else { ' ' });
        if prng.below(15) == 0 {
            text.push_str("{a note} ");
        }
    }
    text
}

/// An edit of a random game: a character typed or deleted in a move, or a move written
/// anew.
fn random_game_edit(prng: &mut Prng, text: &mut String, kind: RandomGameKind) -> TextEdit {
    let movetext_start = text.find("1. ").unwrap_or(0);
    let moves: Vec<usize> = text
        .match_indices(". ")
        .map(|(at, _)| at + 2)
        .filter(|&at| at > movetext_start)
        .collect();
    let at = moves[prng.below(moves.len())];
    let body_end = at + text[at..].find([' ', '\n', ';']).unwrap_or(text.len() - at);
    // Where the move's number starts (a whole move is put in or taken out there).
    let number_start = text[..at - 2]
        .rfind([' ', '\n'])
        .map_or(movetext_start, |space| space + 1);
    let (start, old_end, inserted) = match prng.below(5) {
        // A move of its own, written before this one (its number repeats this one's).
        3 => (
            number_start,
            number_start,
            format!("{}{} ", &text[number_start..at], random_submove(prng, kind)),
        ),
        // This move taken out, number and all.
        4 if body_end < text.len() => (number_start, body_end + 1, String::new()),
        0 => {
            let start = at + prng.below(body_end - at + 1);
            (
                start,
                start,
                prng.pick(&["x", "1", "b", "-", "@", "*", ".", " "])
                    .to_string(),
            )
        }
        1 if body_end > at => {
            let start = at + prng.below(body_end - at);
            (start, start + 1, String::new())
        }
        _ => (at, body_end, random_submove(prng, kind)),
    };
    text.replace_range(start..old_end, &inserted);
    TextEdit {
        start,
        old_end,
        new_end: start + inserted.len(),
    }
}

#[test]
fn random_edits_to_long_random_games_match_a_fresh_analysis() {
    for seed in 1..=8u64 {
        let mut prng = Prng(seed * 7919);
        let kind = RandomGameKind {
            size: [8, 16, 26][seed as usize % 3],
            global: [0, 2, 10][seed as usize % 3],
        };
        let mut text = random_game(&mut prng, 400, kind);
        let mut replay = replay_document(&text);
        for step in 0..25 {
            let before = text.clone();
            let edit = random_game_edit(&mut prng, &mut text, kind);
            let updated = replay.update(&before, &text, &edit);
            let fresh = replay_document(&text);
            compare_replays(
                &format!("seed {seed}, step {step}, {edit:?}"),
                &updated,
                &fresh,
            );
            replay = updated;
        }
    }
}

#[test]
fn a_board_changed_where_later_moves_never_look_is_patched_not_replayed() {
    // Four tiles, then coins dropped, moved and removed on squares the tiles are not on.
    let mut text =
        String::from("---\n...\n1. tS@(1.5,1.5) tM@(3.5,1.5) tC@(5.5,1.5) tA@(7.5,1.5)\n");
    for number in 2..=2_000 {
        let file = ["a", "b", "c", "d"][number % 4];
        let body = match number % 3 {
            1 => format!("S@{file}4"),
            2 => format!("{file}4-{file}5"),
            _ => format!("*{file}5"),
        };
        text.push_str(&format!("{number}. {body}\n"));
    }
    let analysis = PpnDocument::new(text.clone());
    // The first tile no longer reads: every later board lacks it, and the later pieces
    // are numbered one lower; then it is typed back.
    let at = text.find("tS@").unwrap() + 1;
    let (broken, edit) = edited(&text, at, 0, "x");
    let updated = analysis.update(broken.clone(), &edit);
    compare("tile broken", &updated, &PpnDocument::new(broken.clone()));
    let replayed = updated.replay.games[0].moves_replayed();
    assert!(replayed <= 2 * 64, "replayed {replayed} moves");
    let (mended, edit) = edited(&broken, at, 1, "");
    let mended_analysis = updated.update(mended.clone(), &edit);
    compare("tile mended", &mended_analysis, &PpnDocument::new(mended));
    let replayed = mended_analysis.replay.games[0].moves_replayed();
    assert!(replayed <= 2 * 64, "replayed {replayed} moves");
    // A coin dropped elsewhere for good, and one moved onto a square the moves read.
    for (what, new, replays_all) in [("c8", "S@h8", false), ("a4", "S@a4", true)] {
        let at = text.find("2. ").unwrap() + 3;
        let old_len = text[at..].find('\n').unwrap();
        let (changed, edit) = edited(&text, at, old_len, new);
        let updated = analysis.update(changed.clone(), &edit);
        compare(what, &updated, &PpnDocument::new(changed));
        let replayed = updated.replay.games[0].moves_replayed();
        if !replays_all {
            assert!(replayed <= 2 * 64, "{what}: replayed {replayed} moves");
        }
    }
}

/// A game of the moves `before`, one move written `old` (then edited to `new`), quiet moves
/// (a comment each) filling out two chunks, and the moves `after`: the update after the
/// edit must equal a fresh analysis.
fn check_edit_carried_over_quiet_moves(before: &[&str], old: &str, new: &str, after: &[&str]) {
    let mut text = String::from("---\n...\n");
    let mut number = 1;
    let mut push = |text: &mut String, body: &str| {
        text.push_str(&format!("{number}. "));
        let at = text.len();
        text.push_str(body);
        text.push('\n');
        number += 1;
        at
    };
    for body in before {
        push(&mut text, body);
    }
    let at = push(&mut text, old);
    for _ in 0..80 {
        push(&mut text, "{quiet}");
    }
    for body in after {
        push(&mut text, body);
        for _ in 0..40 {
            push(&mut text, "{quiet}");
        }
    }
    let analysis = PpnDocument::new(text.clone());
    let (changed, edit) = edited(&text, at, old.len(), new);
    let context = format!("{old} → {new}, then {after:?}");
    compare(
        &context,
        &analysis.update(changed.clone(), &edit),
        &PpnDocument::new(changed),
    );
}

#[test]
fn a_patched_board_keeps_which_pieces_are_active() {
    // The boards stay alike; only the active piece differs, and a later move moves it.
    check_edit_carried_over_quiet_moves(&["S@a1", "M@b2"], "a1@>0", "b2@>0", &["-c3"]);
    // The active piece is removed, or flipped, before the move that uses it.
    check_edit_carried_over_quiet_moves(&["S@a1", "M@b2"], "a1@>0", "b2@>0", &["*b2", "-c3"]);
    check_edit_carried_over_quiet_moves(&["S@a1", "cM@b2"], "a1@>0", "b2@>0", &["+b2", "-c3"]);
}

#[test]
fn a_patched_board_keeps_its_pieces_in_order() {
    // The coin goes to the bottom in one revision: a later piece dropped at the bottom
    // goes below it.
    check_edit_carried_over_quiet_moves(&["S@a1", "M@b2"], "C@c3", "C\\c3", &["A\\h8", "*h8"]);
    check_edit_carried_over_quiet_moves(&["S@a1", "M@b2"], "C@c3", "C\\c3", &["b2_h8", "*h8"]);
}

#[test]
fn a_patched_board_changes_what_a_search_or_the_nearest_pieces_find() {
    // The coin dropped elsewhere is nearer, or alone, or found by a search.
    check_edit_carried_over_quiet_moves(&["S@a1", "M@c2"], "C@h8", "C@b2", &["2a2-d4"]);
    check_edit_carried_over_quiet_moves(&["S@a1", "M@h8"], "cC@g8", "A@b1", &["*?c", "?S-d4"]);
    check_edit_carried_over_quiet_moves(&["S@a1", "M@h8"], "cC@g8", "A@b1", &["/c-d4"]);
    // Dice count their ranks from one: `?Rd3` states rank 4, matches none, and finds the
    // last die of rank 3 as every assumption fills it in.
    check_edit_carried_over_quiet_moves(&["Rd3@a1"], "Rd2@h8", "Rd3@b1", &["?Rd3-d4"]);
}

#[test]
fn a_crowded_board_changed_where_later_moves_never_look_is_patched_too() {
    // 600 coins (chunks of 75 moves, each move looking at a point of its own), then the
    // coins of even files lifted to the top of the board's order in turn; the second coin,
    // on the first file, is taken out by an edit.
    let mut text = String::from("---\n...\n1. ");
    for x in 1..=24 {
        for y in 1..=25 {
            text.push_str(&format!("S@({x},{y}) "));
        }
    }
    text.push('\n');
    for number in 2..=3_000 {
        let (x, y) = (2 + 2 * (number % 12), 1 + (number * 7) % 25);
        text.push_str(&format!("{number}. !({x},{y})\n"));
    }
    let analysis = PpnDocument::new(text.clone());
    let at = text.find("S@(1,2)").unwrap() + 1;
    let (edited, edit) = edited(&text, at, 0, "x");
    let updated = analysis.update(edited.clone(), &edit);
    compare("coin taken out", &updated, &PpnDocument::new(edited));
    let replayed = updated.replay.games[0].moves_replayed();
    assert!(replayed <= 2 * 75, "replayed {replayed} moves");
}
