//! OpenTafl records against real data: OpenTafl's published replays, and 1,752 real
//! Copenhagen games whose recorded captures must equal the engine's (see
//! `tests/otn/README.md` for the data's source and licence).

use std::path::{Path, PathBuf};
use std::process::Command;

use ppn_ls::ide::analyze::{analyze_as, hover};
use ppn_ls::model::format::Format;
use ppn_ls::model::notation_document::{NotationDocument, Target};
use ppn_ls::otn::board::TaflSide;
use ppn_ls::otn::convert::{position_of, Layout};
use ppn_ls::otn::document::OtnDocument;
use ppn_ls::otn::rules::{Reason, Verdict};

/// The rules of the `hnefatafl` crate's `rules::COPENHAGEN` preset the games were checked
/// with: attackers first, corners hostile to soldiers only, strong shieldwalls closed by
/// corners, edge forts, the side that repeats a position a third time loses.
pub const COPENHAGEN: &str = "dim:11 name:Copenhagen atkf:y tfr:w corh:tT sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/otn")
        .join(name)
}

fn opentafl_records() -> Vec<(String, String)> {
    let mut paths: Vec<_> = std::fs::read_dir(data("opentafl"))
        .expect("tests/otn/opentafl")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "otg"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect()
}

#[test]
fn opentafl_replays_replay_without_a_problem() {
    let records = opentafl_records();
    assert_eq!(records.len(), 11);
    let mut moves = 0;
    for (name, text) in records {
        let document = OtnDocument::new(text);
        let found: Vec<_> = document
            .diagnostics()
            .iter()
            .map(|d| format!("{}: {}", d.code, d.message))
            .collect();
        assert!(found.is_empty(), "{name}: {found:#?}");
        moves += document.main_line(0).len().saturating_sub(1);
    }
    assert_eq!(moves, 290);
}

#[test]
fn opentafl_replays_end_as_their_results_say() {
    let records = opentafl_records();
    let verdict = |name: &str| {
        let text = &records.iter().find(|(n, _)| n == name).unwrap().1;
        let document = OtnDocument::new(text.clone());
        let line = &document.replay.lines[0];
        line.verdict_at(line.plies.len() - 1)
            .map(|(i, v)| (line.label(i), v))
    };
    // The capture puzzle's solution takes the king (`xKc4`).
    assert_eq!(
        verdict("Ard-Ri-Capture-Puzzle.otg"),
        Some((
            "2a".to_string(),
            Verdict::Win(TaflSide::Attackers, Reason::KingCaptured)
        ))
    );
    // The escape puzzles end with the king on the edge (edge escape).
    assert_eq!(
        verdict("Ard-Ri-Escape-Puzzle-2.otg"),
        Some((
            "12b".to_string(),
            Verdict::Win(TaflSide::Defenders, Reason::KingEscaped)
        ))
    );
    assert_eq!(
        verdict("Fetlar-Escape-Puzzle.otg"),
        Some((
            "11a".to_string(),
            Verdict::Win(TaflSide::Defenders, Reason::KingEscaped)
        ))
    );
    // Resigned games end without a verdict on the board.
    assert_eq!(verdict("realgamelog.otg"), None);
}

#[test]
fn variations_have_their_own_states_and_addresses() {
    let text = std::fs::read_to_string(data("opentafl/Fetlar-Escape-Puzzle.otg")).unwrap();
    let document = OtnDocument::new(text.clone());
    let labels: Vec<String> = document
        .replay
        .lines
        .iter()
        .skip(1)
        .map(|line| line.path.prefix())
        .collect();
    assert!(labels.contains(&"3a.2.1a.1.".to_string()), "{labels:?}");
    // The nested variation follows 3a.2.1a (Kc1-c3) and replaces e1-c1 with b1-b2.
    let nested = document
        .replay
        .lines
        .iter()
        .position(|l| l.path.prefix() == "3a.2.1a.1.")
        .unwrap();
    let line = &document.replay.lines[nested];
    assert_eq!(line.label(1), "3a.2.1a.1.1b");
    assert_eq!(document.move_text(nested, 1), "b1-b2");
    // Hovering a variation's move shows its own board.
    let offset = text.find("Kc3-a3 b2-a2").unwrap();
    let shown = hover(&document, offset).unwrap();
    assert!(
        shown.markdown.contains("3a.2.1a.1.2a"),
        "{}",
        shown.markdown
    );
    let at = document.move_at(offset, false).unwrap();
    assert!(
        at.state.index > document.main_line(0).len(),
        "a state of its own"
    );
    let scene = document.scene(at.state).unwrap();
    let king = scene
        .pieces
        .iter()
        .find(|p| p.cfg.name() == "tafl" && p.rank == 2 && p.suit == 2)
        .unwrap();
    assert_eq!((king.x, king.y), (1.0, 3.0), "the king has gone to a3");
}

/// A game of the Copenhagen data as an OTN record, two moves a turn, its moves as the data
/// writes them (several captures separated by `x`).
fn copenhagen_record(moves: &[&str]) -> String {
    let mut text = format!("[rules:{COPENHAGEN}]\n\n");
    for (turn, pair) in moves.chunks(2).enumerate() {
        text.push_str(&format!("{}. {}\n", turn + 1, pair.join(" ")));
    }
    text
}

#[test]
fn every_recorded_copenhagen_capture_is_the_engine_s() {
    let csv = std::fs::read_to_string(data("copenhagen.csv")).unwrap();
    let mut games = 0;
    let mut captures = 0;
    let mut verdicts = 0;
    let mut separators = 0;
    for line in csv.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let columns: Vec<&str> = line.split(',').collect();
        let outcome = *columns.last().unwrap();
        let moves: Vec<&str> = columns[0]
            .split(' ')
            .filter(|m| !m.is_empty() && *m != "timeout")
            .collect();
        let text = copenhagen_record(&moves);
        let document = OtnDocument::new(text.clone());
        // Every move is legal and every written capture is made...
        let wrong: Vec<String> = document
            .diagnostics()
            .iter()
            .filter(|d| {
                !matches!(
                    d.code,
                    "missing-capture" | "move-after-end" | "capture-separator"
                )
            })
            .map(|d| format!("{} {}: {}", d.code, &text[d.range.clone()], d.message))
            .collect();
        assert!(wrong.is_empty(), "game {}: {wrong:#?}\n{line}", games + 1);
        // ... and the only capture the record leaves out is the king's.
        for missing in document
            .diagnostics()
            .iter()
            .filter(|d| d.code == "missing-capture")
        {
            assert!(
                missing.message.contains("the king on"),
                "game {}: {}",
                games + 1,
                missing.message
            );
        }
        // Several captures written `xc2xd3` read as OpenTafl's `xc2/d3`, each with a
        // warning whose fix writes it so.
        let separated: Vec<_> = document
            .diagnostics()
            .iter()
            .filter(|d| d.code == "capture-separator")
            .collect();
        separators += separated.len();
        if !separated.is_empty() {
            let mut fixed = text.clone();
            let mut edits: Vec<_> = separated
                .iter()
                .flat_map(|d| d.fixes[0].edits.iter().cloned())
                .collect();
            edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
            for (range, replacement) in edits {
                fixed.replace_range(range, &replacement);
            }
            let opentafl: Vec<String> = moves
                .iter()
                .map(|m| match m.split_once('x') {
                    Some((movement, captures)) => {
                        format!("{movement}x{}", captures.replace('x', "/"))
                    }
                    None => m.to_string(),
                })
                .collect();
            let opentafl: Vec<&str> = opentafl.iter().map(String::as_str).collect();
            assert_eq!(fixed, copenhagen_record(&opentafl));
            let as_opentafl = OtnDocument::new(fixed);
            assert!(as_opentafl
                .diagnostics()
                .iter()
                .all(|d| d.code != "capture-separator"));
            let main = &document.replay.lines[0];
            let boards = |document: &OtnDocument| -> Vec<String> {
                (0..main.plies.len())
                    .map(|i| document.position(0, i))
                    .collect()
            };
            assert_eq!(
                boards(&document),
                boards(&as_opentafl),
                "game {}",
                games + 1
            );
        }
        let main = &document.replay.lines[0];
        captures += main.plies.all_captures().len();
        // Where the engine ends the game (other than by repetition, which the games were
        // not played with), the winner is the recorded one.
        if let Some((_, verdict)) = main.verdict_at(main.plies.len() - 1) {
            match verdict {
                Verdict::Win(_, Reason::Repetition) | Verdict::Draw(_) => {}
                Verdict::Win(side, _) => {
                    let expected = if side == TaflSide::Attackers {
                        "Black"
                    } else {
                        "White"
                    };
                    assert_eq!(outcome, expected, "game {}: {verdict:?}\n{line}", games + 1);
                    verdicts += 1;
                }
            }
        }
        games += 1;
    }
    assert_eq!(games, 1752);
    assert!(captures > 10_000, "{captures}");
    eprintln!("{games} games, {captures} captures, {verdicts} verdicts");
    assert_eq!(
        verdicts, 372,
        "games the engine ends, each with the recorded winner"
    );
    assert_eq!(separators, 449, "moves that capture several men");
}

/// The Brandubh rules of `brandubh-multicaptures.csv`.
const BRANDUBH: &str =
    "dim:7 name:Brandubh ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

/// The games of `brandubh-multicaptures.csv`: the record, the moves, and the columns after.
fn brandubh_games() -> Vec<(String, Vec<String>, Vec<String>)> {
    let csv = std::fs::read_to_string(data("brandubh-multicaptures.csv")).unwrap();
    csv.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|line| {
            let columns: Vec<String> = line.split(',').map(str::to_string).collect();
            let moves: Vec<String> = columns[0].split(' ').map(str::to_string).collect();
            let mut text = format!("[rules:{BRANDUBH}]\n\n");
            for (turn, pair) in moves.chunks(2).enumerate() {
                text.push_str(&format!("{}. {}\n", turn + 1, pair.join(" ")));
            }
            (text, moves, columns[1..].to_vec())
        })
        .collect()
}

#[test]
fn brandubh_records_capturing_two_men_at_once_replay_as_written() {
    let games = brandubh_games();
    assert_eq!(games.len(), 3);
    for (number, (text, moves, columns)) in games.iter().enumerate() {
        let document = OtnDocument::new(text.clone());
        let found: Vec<(&str, &str)> = document
            .diagnostics()
            .iter()
            .map(|d| (d.code, &text[d.range.clone()]))
            .collect();
        let doubles = moves.iter().filter(|m| m.matches('x').count() == 2).count();
        assert_eq!(
            found,
            vec![("capture-separator", "x"); doubles],
            "game {number}\n{text}"
        );
        // The captures each side made, and the winner, as the columns say.
        let main = &document.replay.lines[0];
        let mut by_side = [0, 0];
        for index in 1..main.plies.len() {
            let mover = main.plies.at(index - 1).next_side;
            by_side[usize::from(mover == TaflSide::Defenders)] += main.ply_captures(index).len();
        }
        assert_eq!(
            [by_side[0].to_string(), by_side[1].to_string()],
            [columns[0].clone(), columns[1].clone()],
            "game {number}"
        );
        let (_, verdict) = main.verdict_at(main.plies.len() - 1).unwrap();
        assert_eq!(
            verdict,
            Verdict::Win(TaflSide::Defenders, Reason::KingEscaped),
            "game {number}: {}",
            columns[2]
        );
        assert_eq!(columns[2], "White");
    }
}

#[test]
fn a_move_whose_capture_record_or_info_symbol_does_not_read_is_made() {
    let (text, _, _) = &brandubh_games()[0];
    let clean = OtnDocument::new(text.clone());
    // The second capture mistyped, an info symbol that is none: each part is reported, the
    // moves are made (with the engine's captures) and every later board is right.
    let broken = text
        .replace("d5-g5xg6xg4", "d5-g5xg6x?4")
        .replace("Kd4-d5", "Kd4-d5!?");
    let document = OtnDocument::new(broken.clone());
    let found: Vec<(&str, &str)> = document
        .diagnostics()
        .iter()
        .map(|d| (d.code, &broken[d.range.clone()]))
        .collect();
    assert_eq!(found, [("move-syntax", "?"), ("move-syntax", "!?")]);
    let boards = |document: &OtnDocument| -> Vec<String> {
        (0..document.replay.lines[0].plies.len())
            .map(|i| document.position(0, i))
            .collect()
    };
    assert_eq!(boards(&document), boards(&clean));
    let main = &document.replay.lines[0];
    assert!(main.verdict_at(main.plies.len() - 1).is_some());
}

#[test]
fn the_cli_checks_and_replays_records() {
    let binary = env!("CARGO_BIN_EXE_ppn-ls");
    let folder = data("opentafl");
    let output = Command::new(binary)
        .arg("--check")
        .arg(&folder)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        report.contains("0 errors, 0 warnings in 11 files"),
        "{report}"
    );
    assert_eq!(output.status.code(), Some(0));
    let output = Command::new(binary)
        .args(["replay", "--format", "json"])
        .arg(folder.join("Ard-Ri-Capture-Puzzle.otg"))
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let game = &json["games"][0];
    assert_eq!(game["format"], "otn");
    assert!(game["rules"]
        .as_str()
        .unwrap()
        .starts_with("dim:7 name:Ard_Ri"));
    let states = game["states"].as_array().unwrap();
    assert_eq!(states[0]["move"], "start");
    assert_eq!(states[0]["position"], "/1t5/2t4/2T4/tTKt3/2tT3/t6/Tt1t3/");
    assert_eq!(states[1]["move"], "1a");
    assert_eq!(states[1]["text"], "d7-d6xd5");
    assert_eq!(states[1]["captures"], serde_json::json!(["d5"]));
    assert_eq!(states[3]["move"], "2a");
    assert_eq!(states[3]["captures"], serde_json::json!(["c4"]));
    assert_eq!(states.len(), 4);
    let output = Command::new(binary)
        .args(["replay", "--format", "text"])
        .arg(folder.join("Ard-Ri-Capture-Puzzle.otg"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("--- 2a c2-c3xKc4"), "{text}");
}

#[test]
fn conversion_to_ppn_keeps_every_board() {
    for (name, text) in opentafl_records() {
        let document = OtnDocument::new(text);
        let ppn = document.convert(Target::Ppn).unwrap();
        let converted = analyze_as(Format::Ppn, ppn.clone());
        let errors: Vec<_> = converted
            .diagnostics()
            .iter()
            .map(|d| d.message.clone())
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}\n{ppn}");
        let back = converted.convert(Target::Otn).unwrap();
        let again = OtnDocument::new(back.clone());
        let original: Vec<String> = (0..document.replay.lines[0].plies.len())
            .map(|i| document.position(0, i))
            .collect();
        let round: Vec<String> = (0..again.replay.lines[0].plies.len())
            .map(|i| again.position(0, i))
            .collect();
        assert_eq!(
            original, round,
            "{name}: the round trip keeps every board\n{back}"
        );
        let ppn_states = converted.main_line(0).len();
        assert!(ppn_states >= original.len(), "{name}");
    }
}

/// The Tablut game of the PPN specification, read as a PPN tafl game and converted to OTN:
/// the engine agrees with every capture it writes, finds the one it leaves out, and ends the
/// game where the specification's game ends, with the king captured.
#[test]
fn the_ppn_specification_s_tablut_game_converts_to_otn() {
    let ppn = "---\nGameType: Tablut\n...\n\
        1. a4-a3 1... c5-c3 2. d1-d3 2... e7-c7\n\
        3. f1-f3;*e3 3... e4-e3;*d3 4. f9-f7 4... g5-g3;*f3\n\
        5. h5-g5 5... d5-d1 6. d9-d3 6... f5-f1;*e1\n\
        7. a3-b3;*c3 7... c7-c3;*d3 8. i4-e4;*e3 8... g3-e3;*e4\n\
        9. i5-i4 9... e5-f5 10. i6-f6 10... f5-f4\n\
        11. a5-a4 11... f4-g4 12. e2-g2 12... e3-g3\n\
        13. f6-f4 13... e6-e4;*f4 14. f7-f4 14... g4-h4\n\
        15. f4-g4;*h4\n";
    let document = analyze_as(Format::Ppn, ppn.to_string());
    assert_eq!(document.conversions(), [Target::Otn]);
    let otn = document.convert(Target::Otn).unwrap();
    assert!(otn.contains("15. f4-g4xKh4"), "{otn}");
    let replayed = OtnDocument::new(otn.clone());
    let found: Vec<(&str, String)> = replayed
        .diagnostics()
        .iter()
        .map(|d| (d.code, d.message.clone()))
        .collect();
    assert_eq!(
        found,
        [(
            "missing-capture",
            "15a f4-g4 captures a defending taflman on g3 (not written)".to_string()
        )],
        "{otn}"
    );
    let line = &replayed.replay.lines[0];
    assert_eq!(
        line.verdict_at(line.plies.len() - 1),
        Some((29, Verdict::Win(TaflSide::Attackers, Reason::KingCaptured)))
    );
    // And back to PPN: the same boards, one state per move instead of one per sub-move
    // (the capture of g3 the original leaves out is made).
    let again = analyze_as(Format::Ppn, replayed.convert(Target::Ppn).unwrap());
    let boards = |document: &dyn NotationDocument| -> Vec<String> {
        let mut boards: Vec<String> = document
            .main_line(0)
            .iter()
            .map(|state| {
                let scene = document.scene(state.state).unwrap();
                position_of(&scene.pieces, 9, Layout::Tablut).unwrap()
            })
            .collect();
        boards.dedup();
        boards
    };
    let (before, after) = (boards(&*document), boards(&*again));
    // Every board after a whole move is one of the original's, in order (the original
    // also shows each move before its `;*` capture).
    let mut rest = before.iter();
    for board in &after[..after.len() - 1] {
        assert!(
            rest.any(|b| b == board),
            "{board} is not among the original's boards"
        );
    }
    assert_eq!(after.len(), 30);
    assert_ne!(before.last(), after.last(), "g3 is captured at last");
}
