//! The round-trip property: random legal games played by the engine, written out as OTN
//! records and read back, give the same states, with no diagnostic.

use std::collections::HashMap;

use proptest::prelude::*;

use super::*;
use crate::otn::board::{Census, Square};
use crate::otn::document::OtnDocument;
use crate::otn::reader::moves::{capture_record, MoveType};
use crate::otn::rules::{
    apply, berserk_continuation, captures_something, destinations, man_at, verdict,
};
use crate::otn::variant::parse_rules;
use crate::test_random::Xorshift;

/// Rule sets that exercise most of the engine: corners and edge escapes, shieldwalls and
/// edge forts, berserk knights and commanders with jumps, mercenaries and guards, speed
/// limits and forts.
const RULES: [&str; 6] = [
    "dim:11 name:Copenhagen atkf:y tfr:w corh:tT sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    "dim:7 name:Brandubh ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    "dim:9 name:Tablut esc:e ks:c cor: sw:w swf:n start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    "dim:11 surf:n atkf:n kj:r ber:c start:/3ttttt3/5c5/11/t4T4t/t3NTT3t/tc1TTKTT1ct/t3TTT3t/t4T4t/11/5c5/3ttttt3/",
    "dim:7 surf:n ks:m mj:c ber:m linc:y cenh: start:/3t3/3m3/2gTg2/tMTKTMt/2GTG2/3m3/3t3/",
    "dim:9 spd:3,2 afor:d1,e1,f1,e2, aforre:T dfor:e5, tfr:l start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
];

struct Played {
    record: String,
    positions: Vec<String>,
}

/// Plays a game choosing among the legal moves with `choices`, and writes it as OTN.
fn play(rules_text: &str, choices: &[u16]) -> Played {
    let mut diagnostics = Vec::new();
    let rules = parse_rules(rules_text, 0, &mut diagnostics).rules;
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let dim = rules.dim;
    let start_side = if rules.attackers_first {
        TaflSide::Attackers
    } else {
        TaflSide::Defenders
    };
    let mut cells = rules.start.cells.clone();
    let mut side = start_side;
    let mut berserker: Option<usize> = None;
    let mut last_mover: Option<TaflSide> = None;
    let mut positions = vec![rules.start.position_record()];
    let mut record = format!("[rules:{rules_text}]\n\n");
    let mut turn = 0;
    let mut line = String::new();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    *seen.entry(position_hash(&cells, side, None)).or_default() += 1;
    let mut census = Census::of(&cells);
    for choice in choices {
        let mut moves = Vec::new();
        for from in 0..cells.len() {
            if berserker.is_some_and(|b| b != from) {
                continue;
            }
            if man_at(&cells, from).is_some_and(|m| m.side == side) {
                for (to, _) in destinations(&rules, &cells, from) {
                    if berserker.is_some()
                        && rules.berserk == crate::otn::variant::Berserk::Capture
                        && !captures_something(&rules, &cells, from, to)
                    {
                        continue;
                    }
                    moves.push((from, to));
                }
            }
        }
        if moves.is_empty() {
            break;
        }
        let (from, to) = moves[usize::from(*choice) % moves.len()];
        let mover = man_at(&cells, from).unwrap();
        let had_king = cells.iter().any(|c| {
            Man::from_code(*c).is_some_and(|m| m.is_king() && m.side == TaflSide::Defenders)
        });
        let outcome = apply(&rules, &mut cells, from, to);
        census = census.after_move(&cells, mover, &outcome.captures);
        assert_eq!(census, Census::of(&cells), "after {from} → {to}");
        let continues = berserk_continuation(&rules, &cells, to, &outcome);
        let new_turn = turn == 0
            || (mover.side == start_side && berserker.is_none() && last_mover != Some(start_side));
        if new_turn {
            if turn > 0 {
                record.push_str(line.trim_end());
                record.push('\n');
                line.clear();
            }
            turn += 1;
            line.push_str(&format!("{turn}. "));
        }
        let captured: Vec<(Square, Man)> = outcome
            .captures
            .iter()
            .map(|(i, m)| (Square::of_index(*i, dim), *m))
            .collect();
        let letter = if mover.kind == crate::otn::board::TaflMan::Taflman {
            String::new()
        } else {
            mover.letter().to_string()
        };
        line.push_str(&format!(
            "{letter}{}{}{}{} ",
            Square::of_index(from, dim).name(),
            MoveType::of(outcome.jump, berserker.is_some()).symbol(),
            Square::of_index(to, dim).name(),
            capture_record(&captured)
        ));
        positions.push(crate::otn::board::position_record(&cells, dim));
        last_mover = Some(mover.side);
        berserker = continues;
        side = if continues.is_some() {
            mover.side
        } else {
            crate::otn::board::other_side(mover.side)
        };
        let hash = position_hash(&cells, side, continues.map(|b| b as u16));
        let count = seen.entry(hash).or_default();
        *count += 1;
        let repeated = *count >= 3
            && continues.is_none()
            && rules.threefold != crate::otn::variant::Threefold::Ignore;
        if verdict(
            &rules,
            &cells,
            census,
            mover.side,
            had_king,
            continues.is_some(),
        )
        .is_some()
            || repeated
        {
            break;
        }
    }
    if !line.is_empty() {
        record.push_str(line.trim_end());
        record.push('\n');
    }
    Played { record, positions }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_games_read_back_the_same(rules in 0..RULES.len(), choices in prop::collection::vec(any::<u16>(), 0..120)) {
        let played = play(RULES[rules], &choices);
        let document = OtnDocument::new(played.record.clone());
        let problems: Vec<String> = document
            .diagnostics()
            .iter()
            .map(|d| format!("{} {}: {}", d.code, &played.record[d.range.clone()], d.message))
            .collect();
        prop_assert!(problems.is_empty(), "{problems:#?}\n{}", played.record);
        let read: Vec<String> = (0..document.replay.lines[0].plies.len()).map(|i| document.position(0, i)).collect();
        prop_assert_eq!(read, played.positions, "{}", played.record);
    }
}

#[test]
fn a_long_random_game_reads_back_the_same() {
    let choices: Vec<u16> = (0..400u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 7) as u16)
        .collect();
    for rules in RULES {
        let played = play(rules, &choices);
        let document = OtnDocument::new(played.record.clone());
        assert!(
            document.diagnostics().is_empty(),
            "{:?}\n{}",
            document.diagnostics(),
            played.record
        );
        let read: Vec<String> = (0..document.replay.lines[0].plies.len())
            .map(|i| document.position(0, i))
            .collect();
        assert_eq!(read, played.positions);
        assert!(played.positions.len() > 2, "{rules}");
    }
}

/// What an editor is shown of `document`'s diagnostics is what it would be shown of all
/// of them put in words.
fn assert_shown_as_worded(document: &OtnDocument) {
    use crate::model::editor_diagnostics::Shown;
    use crate::model::notation_document::NotationDocument;
    for most in [0, 3, 100] {
        assert_eq!(
            document.diagnostics_shown(most),
            Shown::of(document.diagnostics(), most),
            "{most} at most"
        );
    }
}

#[test]
fn a_record_whose_every_move_is_illegal_shows_the_editor_its_first_problems_put_in_words_alone() {
    // The defenders moving first, every move is the side's not to move: made all the same,
    // and each reported.
    let text = long_record().replacen("atkf:y", "atkf:n", 1);
    let document = OtnDocument::new(text);
    assert!(
        document.diagnostics().len() > 100,
        "{}",
        document.diagnostics().len()
    );
    assert_shown_as_worded(&document);
}

#[test]
fn a_move_broken_early_says_once_that_the_later_moves_are_not_checked() {
    let text = long_record();
    let first_move = text.find("\n1. ").unwrap() + 4;
    let broken = format!("{}x{}", &text[..first_move + 1], &text[first_move + 1..]);
    let document = OtnDocument::new(broken.clone());
    let found: Vec<(&str, &str)> = document
        .diagnostics()
        .iter()
        .map(|d| (d.code, &broken[d.range.clone()]))
        .collect();
    let second_move = broken[first_move..].find(' ').unwrap() + first_move + 1;
    let second_end = broken[second_move..].find([' ', '\n']).unwrap() + second_move;
    assert_eq!(
        found,
        [
            ("move-syntax", &broken[first_move..first_move + 1]),
            ("moves-not-checked", &broken[second_move..second_end]),
        ]
    );
    assert_eq!(
        document.diagnostics()[1].message,
        "the moves of the main line from here on are not checked: 1a could not be made, so the boards after it are not the record's"
    );
    // The later moves are made where they can be, without a verdict.
    let line = &document.replay.lines[0];
    assert!(line.plies.len() > 300);
    assert_eq!(line.verdict_at(line.plies.len() - 1), None);
    assert_shown_as_worded(&document);
}

/// A long Copenhagen game with a commentary after every fifth turn.
fn long_record() -> String {
    let choices: Vec<u16> = (0..3000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 9) as u16)
        .collect();
    let played = play(RULES[0], &choices);
    let mut text = String::new();
    for (i, line) in played.record.lines().enumerate() {
        text.push_str(line);
        text.push('\n');
        if i % 5 == 4 && line.contains(". ") {
            text.push_str("[a quiet move|an answer]\n");
        }
    }
    assert!(
        OtnDocument::new(text.clone()).replay.lines[0].plies.len() > 300,
        "{text}"
    );
    text
}

/// `text` with `replaced` bytes at `at` replaced by `insert`, analysed from `base`, and the
/// moves that took playing (not kept or copied); the analysis must be a fresh one's.
fn edit(base: &OtnDocument, at: usize, replaced: usize, insert: &str) -> (OtnDocument, usize) {
    let text = &base.text;
    let new_text = format!("{}{insert}{}", &text[..at], &text[at + replaced..]);
    let edit = crate::model::edit::TextEdit {
        start: at,
        old_end: at + replaced,
        new_end: at + insert.len(),
    };
    MOVES_PLAYED.with(|played| played.set(0));
    let updated = base.updated(new_text.clone(), &edit);
    let played = MOVES_PLAYED.with(std::cell::Cell::get);
    let fresh = OtnDocument::new(new_text);
    assert_eq!(
        updated.diagnostics(),
        fresh.diagnostics(),
        "at {at}: {insert:?}"
    );
    assert_eq!(updated.replay, fresh.replay, "at {at}: {insert:?}");
    assert_eq!(updated.file, fresh.file, "at {at}: {insert:?}");
    assert_shown_as_worded(&updated);
    assert_positions_answer(&updated);
    assert_eq!(
        updated.line_index.line_count(),
        fresh.line_index.line_count()
    );
    (updated, played)
}

/// The main line's states hold their positions' hashes, and its positions tell, for each
/// state, how many states before it hold its position (up to two): the line's repetitions,
/// whatever revisions its layers come from.
pub(crate) fn assert_positions_answer(document: &OtnDocument) {
    let Some(line) = document.replay.lines.first() else {
        return;
    };
    let mut seen: HashMap<u64, u32> = HashMap::new();
    for index in 0..line.plies.len() {
        let hash = line.plies.hash(index);
        let ply = line.plies.at(index);
        assert_eq!(
            hash,
            position_hash(&line.board(index), ply.next_side, ply.berserker),
            "state {index}: its hash is its position's"
        );
        let before = seen.entry(hash).or_default();
        assert_eq!(
            line.positions.earlier(hash, index, &line.plies),
            (*before).min(2),
            "state {index}"
        );
        *before += 1;
    }
}

#[test]
fn edits_that_leave_the_boards_keep_the_states_after_them() {
    let base = OtnDocument::new(long_record());
    let text = base.text.clone();
    let moves = base.replay.lines[0].plies.len() - 1;
    for fraction in [0.02, 0.5, 0.97] {
        let moves_start = text.find("\n1. ").unwrap() + 1;
        let from = moves_start + ((text.len() - moves_start) as f64 * fraction) as usize;
        let comment = from + text[from..].find("[a quiet").unwrap() + 3;
        let move_end = from + text[from..].find(". ").unwrap() + 2;
        let move_end = move_end + text[move_end..].find([' ', '\n']).unwrap();
        let line_end = from + text[from..].find('\n').unwrap();
        for (at, insert) in [(comment, "x"), (move_end, "+"), (line_end, "\n")] {
            let (updated, played) = edit(&base, at, 0, insert);
            // The turn read again and the one after it at most.
            assert!(
                played <= 4,
                "{played} of {moves} moves played, {insert:?} at {at}: {:?}",
                &text[at.saturating_sub(60)..at + 20]
            );
            let (old_turns, new_turns) = (&base.file.turns, &updated.file.turns);
            assert!(new_turns.shares(new_turns.len() - 1, old_turns, old_turns.len() - 1));
        }
    }
}

#[test]
fn a_letter_typed_before_a_turn_number_keeps_the_turn_in_its_place() {
    let base = OtnDocument::new(long_record());
    let text = base.text.clone();
    let middle = text.len() / 2;
    let at = middle + text[middle..].find("\n").unwrap() + 1;
    let at = at + text[at..].find(|c: char| c.is_ascii_digit()).unwrap();
    let (updated, played) = edit(&base, at, 0, "x");
    let new_problems: Vec<_> = updated
        .diagnostics()
        .iter()
        .filter(|d| !base.diagnostics().contains(d))
        .map(|d| (d.code, &updated.text[d.range.clone()]))
        .collect();
    let number = &text[at..at + text[at..].find(' ').unwrap()];
    assert_eq!(
        new_problems,
        [("turn-number-syntax", format!("x{number}").as_str())]
    );
    assert_eq!(
        updated.replay.lines[0].plies.len(),
        base.replay.lines[0].plies.len()
    );
    assert!(played <= 4, "{played} moves played");
}

#[test]
fn edits_that_change_the_boards_replay_until_they_agree_again() {
    let base = OtnDocument::new(long_record());
    let text = base.text.clone();
    let moves = base.replay.lines[0].plies.len() - 1;
    for fraction in [0.02, 0.5, 0.9] {
        let moves_start = text.find("\n1. ").unwrap() + 1;
        let from = moves_start + ((text.len() - moves_start) as f64 * fraction) as usize;
        let turn = from + text[from..].find('\n').unwrap() + 1;
        let first_move = turn + text[turn..].find(". ").unwrap() + 2;
        let turn_end = turn + text[turn..].find('\n').unwrap() + 1;
        // A move made unreadable (and so skipped), and a whole turn taken out: replayed
        // until the boards agree again, if they do (`edit` compares with a fresh replay).
        let (_, played) = edit(&base, first_move, 1, "x");
        assert!(played >= 1 && played <= moves, "{played}");
        edit(&base, turn, turn_end - turn, "");
        // The same move written again: the boards are the same, the states are kept.
        let (_, played) = edit(&base, first_move, 1, &text[first_move..first_move + 1]);
        assert!(played <= 4, "{played}");
    }
}

#[test]
fn boards_between_snapshots_are_the_boards_played() {
    let document = OtnDocument::new(long_record());
    let main = &document.replay.lines[0];
    let rules = &document.replay.rules.as_ref().unwrap().rules;
    let mut board = rules.start.cells.clone();
    assert_eq!(main.board(0), board);
    for index in 1..main.plies.len() {
        if let Some((_, from, to)) = main.plies.at(index).moved {
            apply(rules, &mut board, usize::from(from), usize::from(to));
        }
        assert_eq!(main.board(index), board, "state {index}");
    }
    assert!(main.plies.len() > 3 * CHUNK);
}

#[test]
fn successive_edits_of_a_long_record_update_like_fresh_analyses() {
    const STEPS: usize = 200;
    // Each revision is made from the one before, so the moves of the turns and states
    // shared between revisions add up; some edits change the boards, most do not. The
    // record is taken afresh now and then, before the edits have made it all commentary.
    let record = long_record();
    let mut document = OtnDocument::new(record.clone());
    let snippets = [
        "x",
        "+",
        "\n",
        " ",
        "[a|b]",
        "\n9. ",
        "---",
        "-",
        "1a.1. d1-d2\n",
        "",
        "a1-a2 ",
    ];
    let mut random = Xorshift::new(0x2545_f491_4f6c_dd1d);
    let mut next = |bound: usize| random.below(bound);
    let moves_start = document.text.find("\n1. ").unwrap() + 1;
    for step in 0..STEPS {
        if step % 40 == 0 {
            document = OtnDocument::new(record.clone());
        }
        let text = &document.text;
        let mut at = moves_start + next(text.len() - moves_start);
        while !text.is_char_boundary(at) {
            at += 1;
        }
        let mut end = (at + next(4)).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        let insert = snippets[next(snippets.len())];
        let (updated, _) = edit(&document, at, end - at, insert);
        assert!(
            !updated.replay.lines.is_empty(),
            "step {step}: {insert:?} at {at}"
        );
        document = updated;
    }
}

#[test]
fn variations_of_a_long_record_follow_its_edits() {
    let mut text = long_record();
    // A variation off a move near the end, one off a move near the start, and one nested.
    let late = text.rfind("\n2").unwrap() + 1;
    let late_turn: String = text[late..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    let early = text.find("\n5. ").unwrap() + 1;
    let variation = |text: &str, at: usize, turn: &str| -> String {
        let line = &text[at..at + text[at..].find('\n').unwrap()];
        let first = line.split(' ').nth(1).unwrap();
        format!("{turn}a.1.1. {first} \n{turn}a.1.1a.1.1. ..... \n")
    };
    let late_variation = variation(&text, late, &late_turn);
    let early_variation = variation(&text, early, "5");
    let insert_after = |text: &mut String, at: usize, what: &str| {
        let line_end = at + text[at..].find('\n').unwrap() + 1;
        text.insert_str(line_end, what);
    };
    insert_after(&mut text, late, &late_variation);
    insert_after(&mut text, early, &early_variation);
    let base = OtnDocument::new(text.clone());
    assert!(base.replay.lines.len() >= 3, "{:?}", base.diagnostics());
    for (at, insert) in [
        (early + 3, "+"),
        (late + 2, "x"),
        (text.find("[a quiet").unwrap() + 2, "y"),
        (text.find("5a.1.1.").unwrap() + 8, "z"),
        (text.rfind("a.1.1.").unwrap() + 7, "\n"),
    ] {
        edit(&base, at, 0, insert);
    }
}

#[test]
fn features_of_an_updated_record_are_a_fresh_one_s() {
    use crate::model::notation_document::{NotationDocument, Target};
    let mut record = long_record();
    let at = record.find("\n12. ").unwrap() + 1;
    let line_end = at + record[at..].find('\n').unwrap() + 1;
    let first = record[at..line_end].split(' ').nth(1).unwrap().to_string();
    record.insert_str(line_end, &format!("12a.1.1. {first}\n"));
    let mut document = OtnDocument::new(record);
    // Edits near the start move every later turn and state along the text.
    for (turn, insert) in [("\n3. ", "+"), ("\n5. ", "\n"), ("\n4. ", "  ")] {
        let turn = document.text.find(turn).unwrap() + 1;
        let at = turn + document.text[turn + 3..].find(' ').unwrap() + 3;
        document = edit(&document, at, 0, insert).0;
    }
    let fresh = OtnDocument::new(document.text.clone());
    let text = &document.text;
    assert_eq!(document.symbols(), fresh.symbols());
    assert_eq!(document.folds(), fresh.folds());
    assert_eq!(
        document.semantic_tokens(0..text.len()),
        fresh.semantic_tokens(0..text.len())
    );
    let middle = text.len() / 2..text.len() / 2 + 400;
    assert_eq!(
        document.semantic_tokens(middle.clone()),
        fresh.semantic_tokens(middle.clone())
    );
    assert_eq!(
        document.inlay_hints(middle.clone()),
        fresh.inlay_hints(middle)
    );
    for offset in (0..text.len()).step_by(97) {
        assert_eq!(document.hover(offset), fresh.hover(offset), "{offset}");
        assert_eq!(
            document.move_at(offset, true),
            fresh.move_at(offset, true),
            "{offset}"
        );
        assert_eq!(document.completions(offset), fresh.completions(offset));
    }
    for state in (0..fresh.replay.state_count()).step_by(13) {
        let state = crate::model::notation_document::StateRef {
            game: 0,
            index: state,
        };
        assert_eq!(document.scene(state), fresh.scene(state));
    }
    assert_eq!(document.main_line(0), fresh.main_line(0));
    assert_eq!(
        document.convert(Target::Ppn).ok(),
        fresh.convert(Target::Ppn).ok()
    );
    let json = |doc: &OtnDocument| {
        let mut out = Vec::new();
        doc.write_replay_json("a.otg", None, &mut out).unwrap();
        out
    };
    assert_eq!(json(&document), json(&fresh));
}

#[test]
fn a_position_hash_tells_boards_sides_and_men_to_move_again_apart() {
    let mut seed = 5_u64;
    for dim in [7, 9, 11, 13, 19] {
        let cells: Vec<u8> = (0..dim * dim)
            .map(|_| {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                (seed >> 61) as u8
            })
            .collect();
        let mut hashes = vec![
            position_hash(&cells, TaflSide::Attackers, None),
            position_hash(&cells, TaflSide::Defenders, None),
            position_hash(&cells, TaflSide::Attackers, Some(12)),
            position_hash(&cells, TaflSide::Attackers, Some(13)),
        ];
        // A man moved, a man taken away, two men swapped.
        let mut moved = cells.clone();
        let (full, empty) = (
            moved.iter().position(|c| *c != 0).unwrap(),
            moved.iter().position(|c| *c == 0).unwrap(),
        );
        moved.swap(full, empty);
        hashes.push(position_hash(&moved, TaflSide::Attackers, None));
        let mut taken = cells.clone();
        taken[full] = 0;
        hashes.push(position_hash(&taken, TaflSide::Attackers, None));
        let mut swapped = cells.clone();
        let other = (full + 1..cells.len())
            .find(|&i| cells[i] != 0 && cells[i] != cells[full])
            .unwrap();
        swapped.swap(full, other);
        hashes.push(position_hash(&swapped, TaflSide::Attackers, None));
        let count = hashes.len();
        hashes.sort_unstable();
        hashes.dedup();
        assert_eq!(hashes.len(), count, "{dim}");
    }
}

#[test]
fn boards_that_agree_again_after_other_positions_keep_the_rest_of_the_line() {
    // Two attackers' moves swapped: after 2a the boards agree again, having gone through
    // another position on the way.
    let turns = "1. d2-e2 d3-c3\n2. a4-a3 c3-b3\n3. g4-g3 e4-e5\n4. e2-d2 b3-b2\n\
                 5. f4-f3 e5-f5\n6. d6-e6 c4-c5\n7. d7-d6 c5-c6\n8. a3-a2 b2-c2\n";
    let text = format!("[rules:{}]\n\n{turns}", RULES[1]);
    let base = OtnDocument::new(text.clone());
    assert!(base.diagnostics().is_empty(), "{:?}", base.diagnostics());
    let swapped = "d2-e2 d3-c3\n2. a4-a3";
    let at = text.find(swapped).unwrap();
    let (updated, played) = edit(&base, at, swapped.len(), "a4-a3 d3-c3\n2. d2-e2");
    assert!(
        updated.diagnostics().is_empty(),
        "{:?}",
        updated.diagnostics()
    );
    assert_ne!(updated.position(0, 1), base.position(0, 1));
    assert_eq!(updated.position(0, 3), base.position(0, 3));
    assert!(played <= 8, "{played} moves played");
}
