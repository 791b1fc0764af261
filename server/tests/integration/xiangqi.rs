//! xiangqi-setup files read as xiangqi-setup 2.2.0 reads them: every board of every sample
//! and test file compared with the boards its own readers produced (`tests/xiangqi/
//! expected/`, made once by `tests/xiangqi/oracle.py`), and the files it rejects rejected.

use std::path::{Path, PathBuf};

use ppn_ls::diagnostic::Severity;
use ppn_ls::ide::analyze::analyze;
use ppn_ls::model::format::Format;
use ppn_ls::model::notation_document::{NotationDocument, StateRef};
use ppn_ls::model::piece::{Piece, PieceKind};
use ppn_ls::model::scene::Annotation;
use ppn_ls::xiangqi::board::{Board, Kind, Man, Point, Side};
use ppn_ls::xiangqi::convert::board_of_pieces;
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
                    .any(|d| d.severity == Severity::Error),
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
            .filter(|d| d.severity == Severity::Error)
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
    use ppn_ls::xiangqi::rules::legal_moves;
    use ppn_ls::xiangqi::wxf_move::write_move;
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

/// The xiangqi boards of a PPN document's first game, state by state, with the states
/// before the first move number (the starting board, setup moves) folded into one.
fn ppn_boards(ppn: &str) -> Vec<Board> {
    let document = analyze(Some(Path::new("converted.ppn")), ppn.to_string());
    let errors: Vec<_> = document
        .diagnostics()
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{ppn}");
    let line = document.main_line(0);
    let setup = line
        .iter()
        .take_while(|s| s.label == "start" || s.label.starts_with("setup"))
        .count();
    line.iter()
        .enumerate()
        .filter(|(index, _)| *index + 1 >= setup)
        .map(|(_, state)| {
            board_of_pieces(&document.scene(state.state).unwrap().pieces).expect("men on points")
        })
        .collect()
}

/// The boards of a xiangqi document, state by state.
fn xiangqi_boards(document: &dyn NotationDocument) -> Vec<Board> {
    document
        .main_line(0)
        .iter()
        .map(|state| {
            let mut board = Board::default();
            for piece in document.scene(state.state).unwrap().pieces {
                if piece.kind != PieceKind::Bit {
                    continue;
                }
                let point = Point::at(piece.x as i32 - 1, piece.y as i32 - 1).unwrap();
                let man = Man::new(
                    Side::from_suit(piece.suit).unwrap(),
                    Kind::from_rank(piece.rank).unwrap(),
                );
                board.put(point, Some(man));
            }
            board
        })
        .collect()
}

fn has_errors(document: &dyn NotationDocument) -> bool {
    document
        .diagnostics()
        .iter()
        .any(|d| d.severity == Severity::Error)
}

/// Whether a position converts to a board of one man per point.
fn without_errors(document: &dyn NotationDocument) -> bool {
    !has_errors(document)
        && !document
            .diagnostics()
            .iter()
            .any(|d| d.code == "xiangqi-stacked-pieces")
}

#[test]
fn every_file_converts_to_a_ppn_game_with_the_same_boards() {
    use ppn_ls::model::notation_document::Target;
    let mut converted = 0;
    for path in all_files() {
        let document = analyze(Some(&path), std::fs::read_to_string(&path).unwrap());
        if has_errors(&*document) {
            assert!(document.convert(Target::Ppn).is_err(), "{}", path.display());
            continue;
        }
        if !without_errors(&*document) {
            continue;
        }
        let ppn = document.convert(Target::Ppn).unwrap();
        let expected = xiangqi_boards(&*document);
        let actual = ppn_boards(&ppn);
        if document.format() == Format::Wxf {
            assert_eq!(actual, expected, "{}\n{ppn}", path.display());
        } else {
            assert_eq!(actual.last(), expected.first(), "{}\n{ppn}", path.display());
        }
        converted += 1;
    }
    assert!(converted >= 40, "{converted}");
}

#[test]
fn annofen_and_xay_convert_into_each_other_without_loss() {
    use ppn_ls::model::notation_document::Target;
    let atoms = |document: &dyn NotationDocument| -> Vec<String> {
        let mut out = Vec::new();
        document.write_replay_json("f", None, &mut out).unwrap();
        let value: Value = serde_json::from_slice(&out).unwrap();
        let state = &value["games"][0]["states"][0];
        let mut words = vec![state["fen"].as_str().unwrap().to_string()];
        words.extend(
            state["annotations"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.to_string()),
        );
        words
    };
    let mut round_trips = 0;
    for path in all_files() {
        let document = analyze(Some(&path), std::fs::read_to_string(&path).unwrap());
        let other = match document.format() {
            Format::AnnoFen => Target::Xay,
            Format::Xay => Target::AnnoFen,
            _ => continue,
        };
        if !without_errors(&*document) {
            continue;
        }
        let there = document.convert(other).unwrap();
        let there_doc = analyze(
            Some(Path::new(&format!("x.{}", other.name()))),
            there.clone(),
        );
        assert!(without_errors(&*there_doc), "{}\n{there}", path.display());
        assert_eq!(atoms(&*there_doc), atoms(&*document), "{}", path.display());
        let back = there_doc
            .convert(Target::from_name(document.format().name()).unwrap())
            .unwrap();
        let back_doc = analyze(Some(&path), back.clone());
        assert_eq!(atoms(&*back_doc), atoms(&*document), "{}", path.display());
        // Written out again, the file does not change any more.
        let again = analyze(
            Some(Path::new(&format!("x.{}", other.name()))),
            back_doc.convert(other).unwrap(),
        );
        assert_eq!(
            again
                .convert(Target::from_name(document.format().name()).unwrap())
                .unwrap(),
            back
        );
        round_trips += 1;
    }
    assert!(round_trips >= 15, "{round_trips}");
}

#[test]
fn ppn_xiangqi_games_convert_to_wxf() {
    use ppn_ls::model::notation_document::Target;
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance/examples/xiangqi.ppn");
    let ppn = std::fs::read_to_string(&path).unwrap();
    let document = analyze(Some(&path), ppn.clone());
    assert_eq!(document.conversions(), [Target::Wxf]);
    let wxf = document.convert(Target::Wxf).unwrap();
    // The record xiangqi-setup replayed (tests/xiangqi/expected/cases/from-ppn-xiangqi.wxf.json).
    let committed = std::fs::read_to_string(root().join("cases/from-ppn-xiangqi.wxf")).unwrap();
    assert_eq!(wxf, committed);
    let record = analyze(Some(Path::new("game.wxf")), wxf);
    assert!(without_errors(&*record));
    assert_eq!(xiangqi_boards(&*record), ppn_boards(&ppn));
    let not_xiangqi = analyze(
        Some(Path::new("t.ppn")),
        "---\nGameType: Tablut\n...\n".into(),
    );
    assert!(not_xiangqi.convert(Target::Wxf).is_err());
    assert!(!not_xiangqi.conversions().contains(&Target::Wxf));
}
