//! The formatter never changes what a file says. For every conformance, test and example
//! file, for randomly generated games and for the hostile inputs of the test suite: the
//! formatted text replays to the same states (the replay JSON, with every piece, label,
//! move text and comment of every state), has the same diagnostics (each code as many
//! times), the same metadata values, comments written exactly as before, the same blank
//! lines between games and the same words; formatting it again changes nothing; and a
//! file that does not parse is refused, not formatted.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use ppn_ls::ide::analyze::analyze;
use ppn_ls::ide::formatting::{format_document, formats, FormatError, FormatOptions};
use ppn_ls::model::format::Format;
use ppn_ls::model::notation_document::NotationDocument;
use ppn_ls::otn::reader::parse_file;
use ppn_ls::ppn::document::PpnDocument;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every file ppn-ls reads under `tests/` and `examples/`.
fn corpus() -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    let mut pending = vec![repository().join("tests"), repository().join("examples")];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).expect("a folder of the repository") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path
                .extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| Format::ALL.iter().any(|f| f.extensions().contains(&x)))
            {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    files.push((path, text));
                }
            }
        }
    }
    files.sort();
    files
}

#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    /// Laid out (perhaps as it already was) and checked.
    Formatted { changed: bool },
    /// Not formatted: it does not parse.
    Refused,
    /// No layout for this notation.
    Unsupported,
}

fn replay_json(document: &dyn NotationDocument) -> String {
    let mut out = Vec::new();
    document
        .write_replay_json("file", None, &mut out)
        .expect("written to memory");
    String::from_utf8(out).expect("JSON is UTF-8")
}

fn code_counts(document: &dyn NotationDocument) -> BTreeMap<&'static str, usize> {
    let mut counts = BTreeMap::new();
    for diagnostic in document.diagnostics() {
        *counts.entry(diagnostic.code).or_default() += 1;
    }
    counts
}

fn words(text: &str) -> Vec<&str> {
    text.split(char::is_whitespace)
        .filter(|word| !word.is_empty())
        .collect()
}

/// Whether an empty (or blank) line comes right before each game after the first.
fn blank_lines_between_games(analysis: &PpnDocument) -> Vec<bool> {
    let text = &analysis.text;
    analysis
        .game_sources()
        .iter()
        .skip(1)
        .map(|game| {
            let before = &text[..game.range.start];
            let before = before
                .strip_suffix("\r\n")
                .or_else(|| before.strip_suffix(['\n', '\r']))
                .unwrap_or(before);
            let last_line_start = before.rfind(['\n', '\r']).map_or(0, |at| at + 1);
            before[last_line_start..].trim().is_empty()
        })
        .collect()
}

/// A text analysed: as PPN with its syntax and metadata to look at, or in its notation.
enum Analysed {
    Ppn(PpnDocument),
    Other(Box<dyn NotationDocument>),
}

impl Analysed {
    fn of(path: &Path, text: &str) -> Analysed {
        match Format::detect(Some(path), text) {
            Format::Ppn => Analysed::Ppn(PpnDocument::new(text.to_string())),
            _ => Analysed::Other(analyze(Some(path), text.to_string())),
        }
    }

    fn document(&self) -> &dyn NotationDocument {
        match self {
            Analysed::Ppn(analysis) => analysis,
            Analysed::Other(document) => &**document,
        }
    }
}

fn comments(analysis: &PpnDocument) -> Vec<&str> {
    analysis
        .syntax
        .comments()
        .map(|range| &analysis.text[range])
        .collect()
}

fn metadata(analysis: &PpnDocument) -> Vec<serde_yaml::Mapping> {
    analysis
        .replay
        .games
        .iter()
        .map(|game| (*game.metadata.mapping).clone())
        .collect()
}

/// An OpenTafl record's tags and commentary, as written.
fn otn_commentary(text: &str) -> (Vec<String>, Vec<Option<String>>) {
    let file = parse_file(text);
    let tags = file
        .tags
        .iter()
        .map(|tag| text[tag.range.clone()].to_string())
        .collect();
    let commentary = file
        .turns
        .iter()
        .map(|turn| {
            turn.commentary
                .as_ref()
                .map(|commentary| text[commentary.range.clone()].to_string())
        })
        .collect();
    (tags, commentary)
}

/// Formats `text` (read as the file `name`) and checks that nothing it says changed.
fn keeps_meaning(name: &str, text: &str, options: &FormatOptions) -> Outcome {
    let path = Path::new(name);
    let analysed_before = Analysed::of(path, text);
    let before = analysed_before.document();
    let formatted = match format_document(before, options) {
        Ok(formatted) => formatted,
        Err(FormatError::DoesNotParse(diagnostic)) => {
            assert!(
                before.diagnostics().contains(&diagnostic),
                "{name}: refused for a problem it does not have"
            );
            return Outcome::Refused;
        }
        Err(FormatError::Unsupported(format)) => {
            assert!(!formats(format), "{name}");
            return Outcome::Unsupported;
        }
    };
    assert!(
        formatted.games_left_as_written.is_empty(),
        "{name}: games {:?} were left as written: {text:?}",
        formatted.games_left_as_written
    );
    let new_text = formatted.apply(text);
    let analysed_after = Analysed::of(path, &new_text);
    let after = analysed_after.document();
    let shown = |t: &str| t.chars().take(3000).collect::<String>();
    let both = format!(
        "\n--- before\n{}\n--- after\n{}",
        shown(text),
        shown(&new_text)
    );
    assert_eq!(
        replay_json(after),
        replay_json(before),
        "{name}: the replay changed{both}"
    );
    assert_eq!(
        code_counts(after),
        code_counts(before),
        "{name}: the diagnostics changed{both}"
    );
    assert_eq!(words(&new_text), words(text), "{name}: a word changed");
    let names = |document: &dyn NotationDocument| -> Vec<String> {
        document.games().into_iter().map(|game| game.name).collect()
    };
    assert_eq!(names(after), names(before), "{name}");
    if let (Analysed::Ppn(before), Analysed::Ppn(after)) = (&analysed_before, &analysed_after) {
        assert_eq!(
            comments(after),
            comments(before),
            "{name}: a comment changed"
        );
        assert_eq!(
            metadata(after),
            metadata(before),
            "{name}: metadata changed"
        );
        assert_eq!(
            blank_lines_between_games(after),
            blank_lines_between_games(before),
            "{name}: the blank lines between games changed{both}"
        );
    }
    if Format::detect(Some(path), text) == Format::Otn {
        assert_eq!(
            otn_commentary(&new_text),
            otn_commentary(text),
            "{name}: commentary changed{both}"
        );
    }
    let again = format_document(after, options)
        .unwrap_or_else(|error| panic!("{name}: the formatted text is refused: {error}"));
    assert!(
        again.changes_nothing(),
        "{name}: formatting twice changes {:?}\n{}",
        &again.edits[..again.edits.len().min(5)],
        shown(&new_text)
    );
    Outcome::Formatted {
        changed: !formatted.changes_nothing(),
    }
}

#[test]
fn every_file_of_the_repository_keeps_its_meaning() {
    let files = corpus();
    let mut formatted = 0;
    let mut changed = 0;
    for (index, (path, text)) in files.iter().enumerate() {
        let name = path.to_string_lossy();
        // Every file at the usual width; one in four at a narrow one, which cuts moves.
        let widths: &[usize] = if index % 4 == 0 { &[80, 30] } else { &[80] };
        for &line_width in widths {
            let options = FormatOptions { line_width };
            match keeps_meaning(&name, text, &options) {
                Outcome::Formatted {
                    changed: was_changed,
                } => {
                    formatted += 1;
                    changed += usize::from(was_changed);
                }
                Outcome::Refused => {
                    let document = analyze(Some(path), text.clone());
                    assert!(
                        document
                            .diagnostics()
                            .iter()
                            .any(|d| d.severity == ppn_ls::diagnostic::Severity::Error),
                        "{name}"
                    );
                }
                Outcome::Unsupported => {}
            }
        }
    }
    assert!(files.len() > 400, "{} files", files.len());
    // Most files parse; many were not in the style.
    assert!(formatted > 400, "{formatted} formatted");
    assert!(changed > 200, "{changed} changed");
}

/// xorshift64: the same cases on every run.
struct Random(u64);

impl Random {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }

    fn pick<'a>(&mut self, choices: &[&'a str]) -> &'a str {
        choices[self.below(choices.len())]
    }
}

const SEPARATORS: &[&str] = &[
    " ", " ", " ", "  ", "\t", "\n", "\n", "\n\n", " \n  ", "\n\n\n", "\r\n", " \t\n", "\u{a0}",
    "\n    ",
];

const MOVES: &[&str] = &[
    "S@a1",
    "M@b2",
    "t@{b,d}{2,4}",
    "a1-b2",
    "b2-c3",
    "*b2",
    "?S-c3",
    "dS4@e5",
    "c2-2U;-<1,0>",
    "S@c3;c3-d4",
    "`home'",
    "`home'@b4",
    "cS3@b2",
    "b2:c3",
    "+c4",
    "?dA~5",
    "x{S@h7,M@d5}",
    "S@c3;",
];

const COMMENTS: &[&str] = &[
    "{ nice }",
    "{a\nlong   comment\n   over lines}",
    "{?}",
    "{ 1. not a move }",
    "{checkmate!}",
];

fn move_number(random: &mut Random, number: usize) -> String {
    match random.below(8) {
        0 => format!("{number}..."),
        1 => format!("{number}S."),
        2 => format!("{number}T."),
        3 => ".".to_string(),
        4 => format!("Round{number}."),
        5 => "setup.".to_string(),
        _ => format!("{number}."),
    }
}

fn random_metadata(random: &mut Random) -> String {
    let lines = [
        "Event: Club night   \n",
        "GameType: Tablut\n",
        "Macros:\n  home: S@a1  \n",
        "Notes: |\n  keeps   \n  its spaces  \n",
        "Date: 2024-01-01\t\n",
        "White: Ann\nBlack: Ben \n",
        "Round: 3\n",
    ];
    let mut metadata = String::new();
    for line in lines {
        if random.below(3) == 0 {
            metadata.push_str(line);
        }
    }
    metadata
}

fn random_game(random: &mut Random, first: bool) -> String {
    let mut game = String::new();
    match random.below(5) {
        0 => {
            let _ = write!(game, "---\n{}...\n", random_metadata(random));
        }
        1 => {
            let metadata = random_metadata(random);
            if metadata.is_empty() {
                game.push_str("---\n...\n");
            } else {
                let _ = write!(game, "---\n{metadata}\n");
            }
        }
        2 => game.push_str("---   \n...  \n"),
        3 if !first => game.push_str("---\n"),
        _ => game.push_str("---\r\n...\r\n"),
    }
    let items = random.below(40);
    let mut number = 1;
    for index in 0..items {
        if index > 0 {
            game.push_str(random.pick(SEPARATORS));
        }
        match random.below(10) {
            0..=2 => {
                game.push_str(&move_number(random, number));
                number += random.below(2);
            }
            3 => game.push_str(random.pick(COMMENTS)),
            _ => game.push_str(random.pick(MOVES)),
        }
    }
    game.push_str(random.pick(&["\n", "", "\n\n", "  \n", "\n\n\n"]));
    if !game.ends_with('\n') {
        game.push('\n');
    }
    game
}

#[test]
fn random_games_keep_their_meaning() {
    let mut random = Random(0x5eed_f0f0_1234_5678);
    let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
    for case in 0..400 {
        let games = 1 + random.below(3);
        let text: String = (0..games)
            .map(|game| random_game(&mut random, game == 0))
            .collect();
        let width = [80, 80, 40, 20][random.below(4)];
        let outcome = keeps_meaning(
            &format!("random-{case}.ppn"),
            &text,
            &FormatOptions { line_width: width },
        );
        *outcomes.entry(format!("{outcome:?}")).or_default() += 1;
    }
    let changed = outcomes
        .get("Formatted { changed: true }")
        .copied()
        .unwrap_or(0);
    assert!(changed > 300, "{outcomes:?}");
}

#[test]
fn random_texts_are_formatted_safely_or_refused() {
    let pieces = [
        "1.", "1...", " ", " ", "\n", "\n\n", "{", "}", "a1", "-", ";", ".", "...", "---", "S@",
        "`", "'", "\t", "\r", "x", "{a b}", "2.", "b2-c3", "\u{3000}", "\u{FEFF}", "Key: v\n",
    ];
    let mut random = Random(0x0dd_ba11);
    let mut formatted = 0;
    for case in 0..1500 {
        let count = random.below(30);
        let text: String = (0..count).map(|_| random.pick(&pieces)).collect();
        let outcome = keeps_meaning(
            &format!("soup-{case}.ppn"),
            &text,
            &FormatOptions {
                line_width: 10 + random.below(60),
            },
        );
        formatted += usize::from(matches!(outcome, Outcome::Formatted { .. }));
    }
    assert!(formatted > 300, "{formatted} formatted");
}

/// The hostile inputs of the test suite (`hostile_braces_and_games`, `budgets`,
/// `broken_games`), made as those tests make them.
fn hostile_inputs() -> Vec<(String, String)> {
    let mut inputs = vec![
        (
            "long-range.ppn".to_string(),
            format!("---\n...\n1. S@{{1..9999}}{} 2. S@a1\n", "a".repeat(5_000)),
        ),
        (
            "many-long-ranges.ppn".to_string(),
            format!(
                "---\n...\n1. {{note {} }}\n",
                [format!("S@{{1..4000}}{}", "b".repeat(46)).as_str(); 12].join(" ")
            ),
        ),
        (
            "braces.ppn".to_string(),
            format!("---\n...\n1. {}\n", "{".repeat(20)),
        ),
        ("games.ppn".to_string(), "---\n...\n".repeat(100_005)),
        (
            "semicolons.ppn".to_string(),
            format!("---\n...\n1. S@a1{} *z9\n", ";".repeat(200_000)),
        ),
        (
            "broken-moves.ppn".to_string(),
            "---\n...\n1. S@b2 1... *b5\n2. ?M-b3\n3. `zz'@c3\n4. Q@d4\n5. S@b\n\
             6. S@b2;-<1,x>\n7. M@e5 { still replayed }\n"
                .to_string(),
        ),
        (
            "yaml.ppn".to_string(),
            "---\nGameType: [Tablut\n...\n1. S@a1 1... a1-a2\n".to_string(),
        ),
    ];
    for depth in [2_000, 20_000] {
        inputs.push((
            format!("deep-{depth}.ppn"),
            format!(
                "---\n...\n1. S@{}a,b{}\n",
                "{".repeat(depth),
                "}".repeat(depth)
            ),
        ));
    }
    for count in [2_000, 10_000] {
        inputs.push((
            format!("alternatives-{count}.ppn"),
            format!(
                "---\n...\n1. S@{}x{}\n",
                "{a,".repeat(count),
                "}".repeat(count)
            ),
        ));
    }
    let mut macros = String::from("---\nMacros:\n  m0: \"S@a1\"\n");
    for level in 1..=12 {
        let _ = writeln!(
            macros,
            "  m{level}: \"{}\"",
            format!("`m{}'", level - 1).repeat(10)
        );
    }
    macros.push_str("...\n1. S@b2\n2. `m12'\n");
    inputs.push(("exponential.ppn".to_string(), macros));
    let mut crowded = String::from("---\n...\n1. S@{a..z}{1..76} S@{a..x}77\n");
    for number in 2..52 {
        let _ = writeln!(crowded, "{number}. a1-a2 {number}... a2-a1");
    }
    inputs.push(("crowded.ppn".to_string(), crowded));
    inputs
}

#[test]
fn hostile_inputs_are_formatted_without_loss_or_refused() {
    let mut outcomes = Vec::new();
    for (name, text) in hostile_inputs() {
        let outcome = keeps_meaning(&name, &text, &FormatOptions::default());
        outcomes.push((name, outcome));
    }
    // The unclosed braces do not parse; the others do.
    for (name, outcome) in &outcomes {
        // Braces inside a comment, braces never closed, broken YAML.
        let expected_refused =
            ["many-long-ranges.ppn", "braces.ppn", "yaml.ppn"].contains(&name.as_str());
        assert_eq!(
            *outcome == Outcome::Refused,
            expected_refused,
            "{name}: {outcome:?}"
        );
    }
}

/// An OpenTafl record of the repository written again untidily: its tags, turns and
/// commentary in order, with random blanks within lines, empty lines between them,
/// commentary on its turn's line or the next, as brackets or a bare line, and some turns
/// dropped (which makes replays that go wrong, with their diagnostics).
fn untidy_otn_record(random: &mut Random, text: &str) -> String {
    let file = parse_file(text);
    let blanks = |random: &mut Random| random.pick(&["", "", " ", "  ", "\t", " \t "]);
    let breaks = |random: &mut Random| random.pick(&["\n", "\n", "\n\n", "\n\n\n", "\r\n"]);
    let mut out = String::new();
    if random.below(5) == 0 {
        out.push_str("\n\n");
    }
    for tag in &file.tags {
        let _ = write!(
            out,
            "{}{}{}{}",
            blanks(random),
            &text[tag.range.clone()],
            blanks(random),
            breaks(random)
        );
    }
    out.push_str(breaks(random));
    for turn in file.turns.iter() {
        if random.below(12) == 0 {
            continue;
        }
        let words: Vec<&str> = text[turn.range.clone()].split_ascii_whitespace().collect();
        out.push_str(blanks(random));
        for (index, word) in words.iter().enumerate() {
            if index > 0 {
                out.push_str(random.pick(&[" ", " ", "  ", "\t", " \t"]));
            }
            out.push_str(word);
        }
        out.push_str(blanks(random));
        if let Some(commentary) = &turn.commentary {
            let written = &text[commentary.range.clone()];
            if commentary.bracketed && random.below(2) == 0 {
                let _ = write!(out, " {written}");
            } else {
                let _ = write!(out, "{}{written}", breaks(random));
            }
            out.push_str(blanks(random));
        } else if random.below(6) == 0 {
            let _ = write!(
                out,
                "{}[a note | {}]",
                breaks(random),
                random.pick(&["", "reply"])
            );
        }
        out.push_str(breaks(random));
    }
    out.push_str(random.pick(&["", "\n", "\n\n", "  "]));
    out
}

#[test]
fn random_opentafl_records_keep_their_meaning() {
    let records: Vec<(PathBuf, String)> = corpus()
        .into_iter()
        .filter(|(path, text)| {
            Format::detect(Some(path), text) == Format::Otn && !parse_file(text).turns.is_empty()
        })
        .collect();
    assert!(records.len() >= 10, "{} records", records.len());
    let mut random = Random(0x07a1_f00d_cafe);
    let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
    for case in 0..120 {
        let (path, text) = &records[case % records.len()];
        let untidy = untidy_otn_record(&mut random, text);
        let name = format!("{}-{case}.otg", path.display());
        let outcome = keeps_meaning(&name, &untidy, &FormatOptions::default());
        *outcomes.entry(format!("{outcome:?}")).or_default() += 1;
    }
    let changed = outcomes
        .get("Formatted { changed: true }")
        .copied()
        .unwrap_or(0);
    assert!(changed > 100, "{outcomes:?}");
}
