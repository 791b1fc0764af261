//! xiangqi-setup files read as xiangqi-setup 2.2.0 reads them: every board of every sample
//! and test file compared with the boards its own readers produced (`tests/xiangqi/
//! expected/`, made once by `tests/xiangqi/oracle.py`), and the files it rejects rejected.

use std::path::{Path, PathBuf};

use ppn_ls::ide::document::analyze;
use ppn_ls::model::document::{NotationDocument, StateRef};
use ppn_ls::model::format::Format;
use ppn_ls::model::piece::{Piece, PieceKind};
use ppn_ls::model::scene::Annotation;
use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/xiangqi")
}

fn files(folder: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(folder))
        .unwrap_or_else(|err| panic!("{folder}: {err}"))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| {
            path.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| ["annofen", "xay", "fen", "wxf"].contains(&e))
        })
        .collect();
    files.sort();
    files
}

fn all_files() -> Vec<PathBuf> {
    let mut all = files("samples");
    all.extend(files("cases"));
    all
}

fn expected_of(path: &Path) -> Value {
    let folder = path
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let expected = root()
        .join("expected")
        .join(folder)
        .join(format!("{name}.json"));
    let text = std::fs::read_to_string(&expected).unwrap_or_else(|err| {
        panic!(
            "{}: {err} (run tests/xiangqi/oracle.py)",
            expected.display()
        )
    });
    serde_json::from_str(&text).expect("expected JSON")
}

/// The reader xiangqi-setup picks, except for a XAY file whose YAML is broken: it falls
/// through to the FEN reader there (and fails), where ppn-ls reads it as the XAY it is and
/// reports the YAML error.
fn reader_of(expected: &Value) -> &str {
    if expected.get("yaml_broken").is_some() {
        "xay"
    } else {
        expected["reader"].as_str().unwrap()
    }
}

const LETTERS: [(i32, char); 7] = [
    (1, 'K'),
    (2, 'A'),
    (3, 'E'),
    (4, 'H'),
    (5, 'R'),
    (6, 'C'),
    (7, 'P'),
];

/// A scene's men as `Ra0` words, sorted.
fn men_of(pieces: &[Piece]) -> Vec<String> {
    let mut men: Vec<String> = pieces
        .iter()
        .filter(|piece| piece.kind == PieceKind::Bit)
        .map(|piece| {
            let letter = LETTERS
                .iter()
                .find(|(rank, _)| *rank == piece.rank)
                .map_or('?', |(_, l)| *l);
            let letter = if piece.suit == 2 {
                letter.to_ascii_lowercase()
            } else {
                letter
            };
            format!(
                "{letter}{}{}",
                char::from(b'a' + (piece.x as u8 - 1)),
                piece.y as i32 - 1
            )
        })
        .collect();
    men.sort();
    men
}

fn words(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The annotations of the replay JSON of state 0, as `code@square` words in order.
fn annotations_of(document: &dyn NotationDocument) -> Vec<String> {
    let mut out = Vec::new();
    document
        .write_replay_json("f", Some(&[StateRef { game: 0, index: 0 }]), &mut out)
        .unwrap();
    let value: Value = serde_json::from_slice(&out).unwrap();
    value["games"][0]["states"][0]["annotations"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|a| {
                    format!(
                        "{}@{}",
                        a["code"].as_str().unwrap(),
                        a["square"].as_str().unwrap()
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn every_board_is_the_board_xiangqi_setup_reads() {
    let files = all_files();
    assert!(files.len() >= 40, "{} test files", files.len());
    let mut compared = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let document = analyze(Some(&path), text);
        let expected = expected_of(&path);
        let name = path.display();
        assert_eq!(
            document.format().name(),
            reader_of(&expected),
            "{name}: the format read"
        );
        if let Some(error) = expected.get("error") {
            assert!(
                document
                    .diagnostics()
                    .iter()
                    .any(|d| d.severity == ppn_ls::diagnostic::Severity::Error),
                "{name}: xiangqi-setup rejects it ({error}), so must ppn-ls"
            );
            continue;
        }
        let states = expected["states"].as_array().unwrap();
        let line = document.main_line(0);
        assert_eq!(line.len(), states.len(), "{name}: the number of states");
        for (index, state) in states.iter().enumerate() {
            let scene = document.scene(StateRef { game: 0, index }).unwrap();
            assert_eq!(
                men_of(&scene.pieces),
                words(&state["men"]),
                "{name}: state {index} ({})",
                line[index].text
            );
            compared += 1;
        }
        assert_eq!(
            annotations_of(&*document),
            words(&states[0]["annotations"]),
            "{name}: annotations"
        );
        let scene = document.scene(StateRef { game: 0, index: 0 }).unwrap();
        assert!(scene.annotations.iter().all(|a| match a {
            Annotation::Arrow { to, .. } =>
                (1.0..=9.0).contains(&to.0) && (1.0..=10.0).contains(&to.1),
            Annotation::Marker { .. } => true,
        }));
    }
    assert!(compared > 1000, "{compared} boards compared");
}

#[test]
fn every_sample_of_xiangqi_setup_reads_without_errors() {
    for path in files("samples") {
        let text = std::fs::read_to_string(&path).unwrap();
        let document = analyze(Some(&path), text);
        let errors: Vec<_> = document
            .diagnostics()
            .iter()
            .filter(|d| d.severity == ppn_ls::diagnostic::Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
    }
}

#[test]
fn the_format_is_decided_as_xiangqi_setup_decides() {
    for path in all_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let expected = expected_of(&path);
        assert_eq!(
            Format::detect(Some(&path), &text).name(),
            reader_of(&expected),
            "{}",
            path.display()
        );
    }
}

/// Writes `cases/random-*.wxf`: games of random legal moves (seeded), for the oracle to
/// replay. Run with `cargo test -p ppn-ls --test xiangqi -- --ignored write_random_games`,
/// then `tests/xiangqi/oracle.py`.
#[test]
#[ignore = "writes test data; run by hand"]
fn write_random_games() {
    use ppn_ls::xiangqi::board::{Board, Kind, Side};
    use ppn_ls::xiangqi::notation::write_move;
    use ppn_ls::xiangqi::rules::legal_moves;
    let mut seed: u64 = 0x5eed_cafe;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    for game in 0..24 {
        let mut board = Board::initial();
        let mut side = Side::Red;
        let mut moves = Vec::new();
        let length = 40 + next() % 120;
        while moves.len() < length {
            let options: Vec<_> = legal_moves(&board, side)
                .into_iter()
                .filter(|(from, _)| {
                    // xiangqi-setup finds a soldier by its file alone and reads `+`/`-`
                    // as the most or least advanced soldier anywhere: keep soldiers
                    // alone on their file so that both read the record the same way.
                    let man = board.get(*from).unwrap();
                    man.kind != Kind::Soldier
                        || board
                            .men()
                            .filter(|(p, m)| *m == man && p.file == from.file)
                            .count()
                            == 1
                })
                .collect();
            if options.is_empty() {
                break;
            }
            let captures: Vec<_> = options
                .iter()
                .filter(|(_, to)| board.get(*to).is_some())
                .collect();
            let (from, to) = if !captures.is_empty() && next() % 3 == 0 {
                *captures[next() % captures.len()]
            } else {
                options[next() % options.len()]
            };
            let text = write_move(&board, from, to).unwrap();
            if side == Side::Black && game % 2 == 1 {
                moves.push(text.to_uppercase());
            } else {
                moves.push(text);
            }
            let man = board.get(from);
            board.put(to, man);
            board.put(from, None);
            side = side.other();
        }
        let mut out = String::from(
            "FORMAT  WXF\nGAME    random legal moves\nRED     ;;;\nBLACK   ;;;\nSTART{\n",
        );
        for (index, chunk) in moves.chunks(2).enumerate() {
            out.push_str(&format!("{:>3}. {}\n", index + 1, chunk.join("  ")));
        }
        out.push_str("}END\n");
        std::fs::write(
            root().join("cases").join(format!("random-{game:02}.wxf")),
            out,
        )
        .unwrap();
    }
}
