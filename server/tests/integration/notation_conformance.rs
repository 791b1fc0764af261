//! Games, MoveNumbers, move texts and comments of every conformance file, compared
//! with what the reference recorded; plus unit tests of brace expansion and of the
//! source ranges the splitter reports.

use std::path::{Path, PathBuf};

use ppn_ls::ppn::reader::braces::{expand_braces, expand_token, BraceError, MAX_EXPANSIONS};
use ppn_ls::ppn::reader::games::{
    split_games, split_games_checked, DocumentProblemCode, GameSource,
};
use ppn_ls::ppn::reader::movetext::{
    split_movetext, MovetextProblemCode, MovetextSplit, Severity, MAX_MOVETEXT_EXPANSIONS,
};
use serde_json::Value;

const CONFORMANCE_DIRS: [&str; 3] = ["examples", "generated", "setups"];

fn conformance_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("tests")
        .join("conformance")
}

fn conformance_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in CONFORMANCE_DIRS {
        let entries = std::fs::read_dir(conformance_root().join(dir))
            .unwrap_or_else(|error| panic!("cannot list conformance dir {dir}: {error}"));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.extension().is_some_and(|ext| ext == "ppn") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn display_name(path: &Path) -> String {
    let dir = path
        .parent()
        .and_then(Path::file_name)
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("{dir}/{file}")
}

/// (label, text, comment) of every state, `SetupFn.` first.
fn our_states(text: &str, game: &GameSource) -> Vec<(String, String, String)> {
    let split = split_movetext(text, game.movetext.clone());
    let mut states = vec![("SetupFn.".to_string(), String::new(), String::new())];
    states.extend(split.moves.into_iter().map(|record| {
        (
            record.label().to_string(),
            record.text().to_string(),
            record.comment().to_string(),
        )
    }));
    states
}

fn expected_states(game: &Value) -> Vec<(String, String, String)> {
    let field = |state: &Value, key: &str| {
        state[key]
            .as_str()
            .unwrap_or_else(|| panic!("state without string `{key}`"))
            .to_string()
    };
    game["states"]
        .as_array()
        .expect("game without states")
        .iter()
        .map(|state| {
            (
                field(state, "move"),
                field(state, "text"),
                field(state, "comment"),
            )
        })
        .collect()
}

/// `Ok` when every game, label, text and comment matches; otherwise the first difference.
fn compare_file(path: &Path) -> Result<usize, String> {
    let text = std::fs::read_to_string(path).map_err(|error| format!("unreadable: {error}"))?;
    let json_path = path.with_extension("json");
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(&json_path).map_err(|error| format!("no json: {error}"))?,
    )
    .map_err(|error| format!("bad json: {error}"))?;
    let expected_games = expected["games"].as_array().ok_or("json without games")?;
    let games = split_games(&text);
    if games.len() != expected_games.len() {
        return Err(format!(
            "{} games, expected {}",
            games.len(),
            expected_games.len()
        ));
    }
    let mut states = 0;
    for (index, (game, expected_game)) in games.iter().zip(expected_games).enumerate() {
        let ours = our_states(&text, game);
        let theirs = expected_states(expected_game);
        for (position, (our, their)) in ours.iter().zip(&theirs).enumerate() {
            if our != their {
                return Err(format!(
                    "game {index}, state {position}: got {our:?}, expected {their:?}"
                ));
            }
        }
        if ours.len() != theirs.len() {
            return Err(format!(
                "game {index}: {} states, expected {} (first extra: {:?})",
                ours.len(),
                theirs.len(),
                ours.get(theirs.len()).or_else(|| theirs.get(ours.len()))
            ));
        }
        states += ours.len();
    }
    Ok(states)
}

#[test]
fn conformance_report() {
    let files = conformance_files();
    let mut passed = 0;
    let mut states = 0;
    for path in &files {
        match compare_file(path) {
            Ok(count) => {
                passed += 1;
                states += count;
            }
            Err(difference) => println!("FAIL {}: {difference}", display_name(path)),
        }
    }
    println!(
        "notation conformance: {passed} of {} files match ({states} states)",
        files.len()
    );
}

#[test]
fn every_conformance_file_matches() {
    let failures: Vec<String> = conformance_files()
        .iter()
        .filter_map(|path| {
            compare_file(path)
                .err()
                .map(|difference| format!("{}: {difference}", display_name(path)))
        })
        .collect();
    assert_eq!(failures, Vec::<String>::new());
}

fn expanded(token: &str) -> Vec<String> {
    expand_braces(token).unwrap_or_else(|error| panic!("`{token}` failed: {error}"))
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|item| item.to_string()).collect()
}

#[test]
fn brace_lists() {
    assert_eq!(expanded("S@{b,d}2"), strings(&["S@b2", "S@d2"]));
    assert_eq!(expanded("a{,}b"), strings(&["ab", "ab"]));
    assert_eq!(expanded("x{a,}"), strings(&["xa", "x"]));
    assert_eq!(expanded("b2-c3"), strings(&["b2-c3"]));
    assert_eq!(expanded("{,}"), strings(&["", ""]));
}

#[test]
fn brace_number_ranges_and_steps() {
    assert_eq!(expanded("a{1..4}"), strings(&["a1", "a2", "a3", "a4"]));
    assert_eq!(expanded("a{4..1}"), strings(&["a4", "a3", "a2", "a1"]));
    assert_eq!(expanded("x{1..10..3}"), strings(&["x1", "x4", "x7", "x10"]));
    // The step's sign is ignored: the range always walks towards its end.
    assert_eq!(expanded("x{10..1..-4}"), strings(&["x10", "x6", "x2"]));
    assert_eq!(expanded("x{10..1..4}"), strings(&["x10", "x6", "x2"]));
    assert_eq!(expanded("x{3..3}"), strings(&["x3"]));
}

#[test]
fn brace_negative_and_padded_ranges() {
    assert_eq!(expanded("x{-2..1}"), strings(&["x-2", "x-1", "x0", "x1"]));
    assert_eq!(expanded("x{-1..-3}"), strings(&["x-1", "x-2", "x-3"]));
    assert_eq!(expanded("x{08..10}"), strings(&["x08", "x09", "x10"]));
    assert_eq!(expanded("x{1..03}"), strings(&["x01", "x02", "x03"]));
    assert_eq!(
        expanded("x{-01..2}"),
        strings(&["x-01", "x000", "x001", "x002"])
    );
    assert_eq!(expanded("x{001..9..4}"), strings(&["x001", "x005", "x009"]));
}

#[test]
fn brace_letter_ranges() {
    assert_eq!(expanded("{a..d}4"), strings(&["a4", "b4", "c4", "d4"]));
    assert_eq!(expanded("{d..b}4"), strings(&["d4", "c4", "b4"]));
    assert_eq!(expanded("{a..g..3}1"), strings(&["a1", "d1", "g1"]));
    // Letter ranges walk the ASCII table, punctuation between cases included.
    assert_eq!(
        expanded("{Y..b}"),
        strings(&["Y", "Z", "[", "\\", "]", "^", "_", "`", "a", "b"])
    );
}

#[test]
fn brace_nesting_and_crossing() {
    assert_eq!(
        expanded("Wm@{w{1,7},i1}"),
        strings(&["Wm@w1", "Wm@w7", "Wm@i1"])
    );
    assert_eq!(
        expanded("t@{a..c}{1..2}"),
        strings(&["t@a1", "t@a2", "t@b1", "t@b2", "t@c1", "t@c2"])
    );
    assert_eq!(
        expanded("a{b,c{d,e},{f,g}h}x{y,z}"),
        strings(&[
            "abxy", "abxz", "acdxy", "acdxz", "acexy", "acexz", "afhxy", "afhxz", "aghxy", "aghxz"
        ])
    );
    assert_eq!(expanded("a{b{c,d}}e"), strings(&["a{bc}e", "a{bd}e"]));
    assert_eq!(expanded("f{x,y{}g}h"), strings(&["fxh", "fy{}gh"]));
}

#[test]
fn brace_groups_that_stay_literal() {
    assert_eq!(expanded("a{b}c"), strings(&["a{b}c"]));
    assert_eq!(expanded("{}"), strings(&["{}"]));
    assert_eq!(expanded("{good"), strings(&["{good"]));
    assert_eq!(expanded("trap}"), strings(&["trap}"]));
    assert_eq!(expanded("x{1..ff}"), strings(&["x{1..ff}"]));
    assert_eq!(expanded("X{a..#}X"), strings(&["X{a..#}X"]));
    assert_eq!(expanded("z{a,b},c}d"), strings(&["za,c}d", "zb,c}d"]));
}

#[test]
fn brace_escapes() {
    assert_eq!(
        expanded("(8.5,4){~v,-(14\\,2.5)}"),
        strings(&["(8.5,4)~v", "(8.5,4)-(14,2.5)"])
    );
    assert_eq!(expanded("{a\\,b}"), strings(&["{a,b}"]));
    assert_eq!(expanded("x\\{a,b}"), strings(&["x{a,b}"]));
    assert_eq!(expanded("{a\\},b}"), strings(&["a}", "b"]));
    assert_eq!(expanded("x{1.\\.3}"), strings(&["x{1..3}"]));
    assert_eq!(expanded("S\\{b,d}2"), strings(&["S{b,d}2"]));
}

#[test]
fn tokens_wrapped_in_braces_are_not_expanded() {
    assert_eq!(expand_token("{3.}"), Ok(strings(&["{3.}"])));
    assert_eq!(expand_token("{a,b}"), Ok(strings(&["{a,b}"])));
    assert_eq!(expand_token("{a\\,b}"), Ok(strings(&["{a\\,b}"])));
    assert_eq!(
        expand_token("{s6,w1}~,a45"),
        Ok(strings(&["s6~,a45", "w1~,a45"]))
    );
    assert_eq!(expand_braces("{a,b}"), Ok(strings(&["a", "b"])));
}

#[test]
fn brace_caps() {
    let at_cap = expanded("x{1..10000}");
    assert_eq!(at_cap.len(), MAX_EXPANSIONS);
    assert_eq!(at_cap.last().map(String::as_str), Some("x10000"));
    assert_eq!(
        expand_braces("x{1..10001}"),
        Err(BraceError::TooManyExpansions { count: 10_001 })
    );
    assert_eq!(
        expand_braces("{1..200}{1..200}"),
        Err(BraceError::TooManyExpansions { count: 40_000 })
    );
    assert_eq!(
        expand_braces("x{1..99999999999999999999}"),
        Err(BraceError::BadRangeEnd {
            range: "1..99999999999999999999".to_string()
        })
    );
    assert_eq!(
        expand_braces("x{1..5..0}"),
        Err(BraceError::ZeroStep {
            range: "1..5..0".to_string()
        })
    );
    let deep = format!("x{}a,b{}", "{".repeat(100), "}".repeat(100));
    assert_eq!(expand_braces(&deep), Err(BraceError::TooDeeplyNested));
}

fn only_game_split(text: &str) -> MovetextSplit {
    let games = split_games(text);
    assert_eq!(games.len(), 1, "expected one game in {text:?}");
    split_movetext(text, games[0].movetext.clone())
}

#[test]
fn games_metadata_and_movetext_ranges() {
    let text = "---\nGameType: Tablut\n...\n1. a4-a3\n---\r\nSetUp: None\r\n\r\n1. b2-b3\r\n";
    let games = split_games(text);
    assert_eq!(games.len(), 2);
    assert_eq!(
        &text[games[0].range.clone()],
        "---\nGameType: Tablut\n...\n1. a4-a3\n"
    );
    assert_eq!(
        games[0].metadata.clone().map(|range| &text[range]),
        Some("GameType: Tablut\n")
    );
    assert_eq!(&text[games[0].movetext.clone()], "1. a4-a3\n");
    // Without `...` the first empty line ends the metadata; it is part of the YAML text.
    assert_eq!(
        games[1].metadata.clone().map(|range| &text[range]),
        Some("SetUp: None\r\n\r\n")
    );
    assert_eq!(&text[games[1].movetext.clone()], "1. b2-b3\r\n");

    let bare = "1. S@b2 2. b2-b3\n";
    let games = split_games(bare);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].metadata, None);
    assert_eq!(games[0].movetext, 0..bare.len());

    let empty_block = "---\n...\nt@a1\n";
    let games = split_games(empty_block);
    assert_eq!(games[0].metadata, Some(4..4));
    assert_eq!(&empty_block[games[0].movetext.clone()], "t@a1\n");
}

#[test]
fn token_and_label_sources_slice_the_file() {
    let text =
        "---\r\nSetUp: None\r\n...\r\n1.\t🂡@b2 {a\r\ncomment} S@{c,d}3;🂡-b4\r\n2. ♥@a1 . M@b3\r\n";
    let split = only_game_split(text);
    let labels: Vec<&str> = split.moves.iter().map(|m| m.label()).collect();
    assert_eq!(labels, ["1.", "1..", "1...", "2.", "2.."]);
    let first = &split.moves[0];
    assert_eq!(first.text(), "🂡@b2 S@c3");
    assert_eq!(first.comment(), "a comment");
    assert_eq!(
        first.label_source().clone().map(|range| &text[range]),
        Some("1.")
    );
    let sources: Vec<(&str, &str)> = first
        .tokens()
        .map(|token| (token.text, &text[token.source.clone()]))
        .collect();
    assert_eq!(sources, [("🂡@b2", "🂡@b2"), ("S@c3", "S@{c,d}3;🂡-b4")]);
    assert_eq!(
        &text[first.source().clone()],
        "1.\t🂡@b2 {a\r\ncomment} S@{c,d}3;🂡-b4"
    );
    // The `;` glued to an expansion is repeated with it, as the reference does.
    let second = &split.moves[1];
    assert_eq!(second.text(), "🂡-b4 S@d3");
    assert_eq!(
        second.label_source().clone().map(|range| &text[range]),
        Some("S@{c,d}3;🂡-b4")
    );
    let third = &split.moves[2];
    assert_eq!(third.text(), "🂡-b4");
    assert_eq!(
        split.moves[3]
            .label_source()
            .clone()
            .map(|range| &text[range]),
        Some("2.")
    );
    let fourth = &split.moves[3];
    assert_eq!(fourth.text(), "♥@a1");
    assert_eq!(&text[fourth.token(0).unwrap().source.clone()], "♥@a1");
    let fifth = &split.moves[4];
    assert_eq!(fifth.label(), "2..");
    assert_eq!(
        fifth.label_source().clone().map(|range| &text[range]),
        Some(".")
    );
    assert_eq!(&text[fifth.token(0).unwrap().source.clone()], "M@b3");
    let codes: Vec<MovetextProblemCode> = split.problems.iter().map(|p| p.code).collect();
    assert_eq!(codes, [MovetextProblemCode::BraceAcrossSemicolon]);
}

#[test]
fn semicolon_source_is_the_semicolon() {
    let text = "1. S@b2;🂡@c3 ; M@d4";
    let split = only_game_split(text);
    let labels: Vec<(&str, &str, &str)> = split
        .moves
        .iter()
        .map(|m| {
            (
                m.label(),
                m.text(),
                m.label_source().clone().map_or("", |range| &text[range]),
            )
        })
        .collect();
    assert_eq!(
        labels,
        [
            ("1.", "S@b2", "1."),
            ("1..", "🂡@c3", ";"),
            ("1...", "M@d4", ";")
        ]
    );
    assert_eq!(
        &text[split.moves[1].token(0).unwrap().source.clone()],
        "🂡@c3"
    );
    assert_eq!(
        &text[split.moves[0].token(0).unwrap().source.clone()],
        "S@b2"
    );
}

#[test]
fn moves_before_the_first_move_number() {
    let split = only_game_split("t@a1 {setup} 1. S@a1");
    assert_eq!(split.moves[0].label(), "SetupFn..");
    assert_eq!(split.moves[0].label_source(), None);
    assert_eq!(split.moves[0].text(), "t@a1");
    assert_eq!(split.moves[0].comment(), "setup");
    assert_eq!(split.moves[1].label(), "1.");
    assert_eq!(split.moves[1].text(), "S@a1");
}

#[test]
fn comments_hide_move_numbers_and_semicolons() {
    let split = only_game_split("1. a1-b1 {best 3. reply; see} 2. b1-c1");
    let states: Vec<(&str, &str, &str)> = split
        .moves
        .iter()
        .map(|m| (m.label(), m.text(), m.comment()))
        .collect();
    assert_eq!(
        states,
        [("1.", "a1-b1", "best 3. reply; see"), ("2.", "b1-c1", "")]
    );
}

#[test]
fn problems_are_reported_with_their_ranges() {
    let text = "1. a1-b1 {note x{1,2}} 1. b1-c1 2. x{1..20000} {open";
    let split = only_game_split(text);
    let problems: Vec<(MovetextProblemCode, &str)> = split
        .problems
        .iter()
        .map(|problem| (problem.code, &text[problem.range.clone()]))
        .collect();
    assert_eq!(
        problems,
        [
            (MovetextProblemCode::UnclosedComment, "{open"),
            (MovetextProblemCode::BraceExpansion, "{1..20000}"),
            (MovetextProblemCode::BraceInComment, "x{1,2}}"),
            (MovetextProblemCode::DuplicateMoveNumber, "1."),
        ]
    );
    // The comment ends at the first `}`, so the second expansion leaks into the move.
    assert_eq!(split.moves[0].comment(), "note x1");
    assert_eq!(split.moves[0].text(), "a1-b1 x2}");
    assert_eq!(split.moves[2].text(), "x{1..20000} {open");
}

#[test]
fn a_move_number_used_twice_is_reported_wherever_it_comes_again() {
    let duplicates = |text: &str| -> Vec<usize> {
        only_game_split(text)
            .problems
            .iter()
            .filter(|problem| problem.code == MovetextProblemCode::DuplicateMoveNumber)
            .map(|problem| problem.range.start)
            .collect()
    };
    // Numbers and dots in order: nothing is used twice.
    assert!(duplicates("1. a 1... b 2. c 2... d 10. e 11... f\n").is_empty());
    // The same label later, out of order, or right after itself.
    assert_eq!(duplicates("1. a 1... b 2. c 1... d\n"), [17]);
    assert_eq!(duplicates("1. a 2. b 2. c\n"), [10]);
    assert_eq!(duplicates("3. a 2. b 3. c\n"), [10]);
    // Labels that differ as text are not the same, even where their numbers are.
    assert!(duplicates("1. a 01. b 2. c\n").is_empty());
    assert!(duplicates("1. a 1S. b 1... c\n").is_empty());
    // Labels other than numbers and dots, among numbered ones in order.
    assert_eq!(duplicates("1. a 2S. b 2. c 2S. d 3. e\n"), [16]);
    assert!(duplicates("1. a 2S. b 2. c 3S. d 3. e\n").is_empty());
    assert_eq!(duplicates("SetupFn. a 1. b\n"), [0]);
}

#[test]
fn whitespace_only_movetext_has_no_moves() {
    let text = "---\nSetUp: None\n...\n \t\u{3000}\r\n";
    let split = only_game_split(text);
    assert!(split.moves.is_empty());
    assert!(split.problems.is_empty());
}

#[test]
fn indented_metadata_without_end_stays_metadata() {
    let text = "GameType:\n  Name: Fujisan\n  Seed: 42\n1. S@b2\n";
    let (games, problems) = split_games_checked(text);
    assert_eq!(
        games[0].metadata.clone().map(|range| &text[range]),
        Some("GameType:\n  Name: Fujisan\n  Seed: 42\n")
    );
    assert_eq!(&text[games[0].movetext.clone()], "1. S@b2\n");
    let found: Vec<(DocumentProblemCode, &str)> = problems
        .iter()
        .map(|problem| (problem.code, &text[problem.range.clone()]))
        .collect();
    assert_eq!(
        found,
        [(
            DocumentProblemCode::IndentedMetadataWithoutEnd,
            "  Seed: 42"
        )]
    );

    // One indented line is what the reference reads correctly: nothing to report, and
    // indented moves after it stay moves.
    let text = "GameType:\n  Name: Fujisan\n  1. S@b2\n";
    let (games, problems) = split_games_checked(text);
    assert_eq!(&text[games[0].movetext.clone()], "  1. S@b2\n");
    assert_eq!(problems, Vec::new());
}

#[test]
fn unterminated_metadata_block_is_no_metadata() {
    let text = "---\nt@a1 1. S@b2\n---\n...\n1. S@c3\n";
    let (games, problems) = split_games_checked(text);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].metadata, None);
    assert_eq!(&text[games[0].movetext.clone()], "t@a1 1. S@b2\n");
    assert_eq!(&text[games[1].range.clone()], "---\n...\n1. S@c3\n");
    let found: Vec<(DocumentProblemCode, &str)> = problems
        .iter()
        .map(|problem| (problem.code, &text[problem.range.clone()]))
        .collect();
    assert_eq!(found, [(DocumentProblemCode::UnterminatedMetadata, "---")]);
}

#[test]
fn conformance_files_split_without_document_problems() {
    for path in conformance_files() {
        let text = std::fs::read_to_string(&path).expect("readable conformance file");
        let (_, problems) = split_games_checked(&text);
        assert_eq!(problems, Vec::new(), "{}", display_name(&path));
    }
}

#[test]
fn comments_touching_symbols_glue_them_together() {
    // `$`, `~` and `♠` are symbols, not punctuation, so the braces still form a comment
    // and dropping it joins its neighbours into one token, as the reference does.
    let text = "1. ♠~{note}$ b2";
    let split = only_game_split(text);
    assert_eq!(split.moves[0].text(), "♠~$ b2");
    assert_eq!(split.moves[0].comment(), "note");
    assert_eq!(
        &text[split.moves[0].token(0).unwrap().source.clone()],
        "♠~{note}$"
    );
    // Next to a letter or punctuation mark the braces are not a comment at all.
    let split = only_game_split("1. b2{note} c3");
    assert_eq!(split.moves[0].text(), "b2{note} c3");
    assert_eq!(split.moves[0].comment(), "");
}

#[test]
fn expansions_of_a_game_are_capped() {
    let tokens_within_cap = MAX_MOVETEXT_EXPANSIONS / MAX_EXPANSIONS;
    let text = format!(
        "1. {}",
        vec!["x{1..10000}"; tokens_within_cap + 2].join(" ")
    );
    let split = only_game_split(&text);
    assert_eq!(split.moves.len(), 1);
    let tokens: Vec<_> = split.moves[0].tokens().collect();
    assert_eq!(tokens.len(), MAX_MOVETEXT_EXPANSIONS + 2);
    assert_eq!(tokens[MAX_MOVETEXT_EXPANSIONS - 1].text, "x10000");
    assert_eq!(tokens[MAX_MOVETEXT_EXPANSIONS].text, "x{1..10000}");
    assert_eq!(tokens[MAX_MOVETEXT_EXPANSIONS + 1].text, "x{1..10000}");
    let problems: Vec<(MovetextProblemCode, usize)> = split
        .problems
        .iter()
        .map(|problem| (problem.code, problem.range.start))
        .collect();
    // Reported once, on the first token left unexpanded.
    let first_unexpanded_start = text.len() - 2 * "x{1..10000}".len() - 1;
    assert_eq!(
        problems,
        [(MovetextProblemCode::BraceExpansion, first_unexpanded_start)]
    );
}

#[test]
fn combining_undertie_splits_like_the_undertie() {
    let with_undertie = only_game_split("1. a1‿1. b2 {x}‿{y} 2. c3");
    let with_combining = only_game_split("1. a1\u{35C}1. b2 {x}\u{35C}{y} 2. c3");
    let states = |split: &MovetextSplit| -> Vec<(String, String, String)> {
        split
            .moves
            .iter()
            .map(|m| {
                (
                    m.label().to_string(),
                    m.text().replace('\u{35C}', "‿"),
                    m.comment().to_string(),
                )
            })
            .collect()
    };
    assert_eq!(
        states(&with_undertie),
        [
            (
                "1.".to_string(),
                "a1‿1. b2 {x}‿{y}".to_string(),
                String::new()
            ),
            ("2.".to_string(), "c3".to_string(), String::new()),
        ]
    );
    assert_eq!(states(&with_combining), states(&with_undertie));
}

#[test]
fn trailing_semicolon_after_braces_makes_submoves_without_warning() {
    let text = "1. ?M{0..2}@>90; b2-b3";
    let split = only_game_split(text);
    let states: Vec<(&str, &str)> = split.moves.iter().map(|m| (m.label(), m.text())).collect();
    assert_eq!(
        states,
        [
            ("1.", "?M0@>90"),
            ("1..", "?M1@>90"),
            ("1...", "?M2@>90"),
            ("1....", "b2-b3")
        ]
    );
    assert_eq!(split.problems, Vec::new());
}

#[test]
fn conformance_files_have_no_movetext_errors() {
    for path in conformance_files() {
        let text = std::fs::read_to_string(&path).expect("readable conformance file");
        for game in split_games(&text) {
            let errors: Vec<(MovetextProblemCode, &str)> = split_movetext(&text, game.movetext)
                .problems
                .into_iter()
                .filter(|problem| problem.severity == Severity::Error)
                .map(|problem| (problem.code, &text[problem.range]))
                .collect();
            assert_eq!(errors, Vec::new(), "{}", display_name(&path));
        }
    }
}

#[test]
fn indented_first_line_is_movetext() {
    let text = "  1. S@b2\n2. b2-b3\n";
    let (games, problems) = split_games_checked(text);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].metadata, None);
    assert_eq!(games[0].movetext, 0..text.len());
    let found: Vec<(DocumentProblemCode, &str)> = problems
        .iter()
        .map(|problem| (problem.code, &text[problem.range.clone()]))
        .collect();
    assert_eq!(
        found,
        [(DocumentProblemCode::IndentedFirstLine, "  1. S@b2")]
    );
    // An empty first line is an empty metadata block, as in the reference.
    let text = "\n1. S@b2\n";
    let (games, problems) = split_games_checked(text);
    assert_eq!(games[0].metadata, Some(0..1));
    assert_eq!(&text[games[0].movetext.clone()], "1. S@b2\n");
    assert_eq!(problems, Vec::new());
}
