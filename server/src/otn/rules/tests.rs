//! Scenarios from OpenTafl's rules tests (their positions written as OTN position records,
//! their Java rule sets as the rules strings OpenTafl itself writes for them), and
//! synthetic fixtures for the rules no public record exercises.

use super::*;
use crate::otn::board::Square;
use crate::otn::variant::parse_rules;

struct Game {
    rules: Rules,
    cells: Vec<u8>,
    side: TaflSide,
}

impl Game {
    fn new(rules_text: &str) -> Game {
        let mut diagnostics = Vec::new();
        let parsed = parse_rules(rules_text, 0, &mut diagnostics);
        assert!(diagnostics.is_empty(), "{rules_text}: {diagnostics:?}");
        let side = if parsed.rules.attackers_first {
            TaflSide::Attackers
        } else {
            TaflSide::Defenders
        };
        Game {
            cells: parsed.rules.start.cells.clone(),
            rules: parsed.rules,
            side,
        }
    }

    fn index(&self, name: &str) -> usize {
        Square::parse(name).unwrap().index(self.rules.dim)
    }

    fn check(&self, from: &str, to: &str) -> Result<bool, String> {
        check_move(&self.rules, &self.cells, self.index(from), self.index(to))
            .map_err(|why| why.describe(&self.rules))
    }

    /// Plays a legal move and returns the captured squares.
    fn play(&mut self, movement: &str) -> Vec<String> {
        let (from, to) = movement.split_once('-').unwrap();
        let (from, to) = (self.index(from), self.index(to));
        let mover = man_at(&self.cells, from).unwrap_or_else(|| panic!("{movement}: no man"));
        if let Err(why) = check_move(&self.rules, &self.cells, from, to) {
            panic!("{movement}: {}", why.describe(&self.rules));
        }
        let outcome = apply(&self.rules, &mut self.cells, from, to);
        self.side = mover.side;
        outcome
            .captures
            .iter()
            .map(|(i, _)| Square::of_index(*i, self.rules.dim).name())
            .collect()
    }

    fn at(&self, name: &str) -> Option<char> {
        man_at(&self.cells, self.index(name)).map(Man::letter)
    }

    fn verdict(&self) -> Option<Verdict> {
        let census = Census::of(&self.cells);
        verdict(&self.rules, &self.cells, census, self.side, true, false)
    }
}

const SEA_BATTLE: &str =
    "dim:9 esc:e ka:n cen: cenhe: cor: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
const FETLAR: &str =
    "dim:11 atkf:n start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
const BERSERK: &str = "dim:11 surf:n atkf:n kj:r ber:c start:/3ttttt3/5c5/11/t4T4t/t3NTT3t/tc1TTKTT1ct/t3TTT3t/t4T4t/11/5c5/3ttttt3/";

#[test]
fn sea_battle_captures_against_men() {
    // OpenTafl's CaptureTest.
    let mut game = Game::new(SEA_BATTLE);
    game.play("e6-b6");
    game.play("d5-d2");
    assert_eq!(game.play("d9-d3"), ["d2"]);
    assert_eq!(game.play("i6-c6"), ["b6"]);
}

#[test]
fn sea_battle_double_capture() {
    // OpenTafl's DoubleCaptureTest: one move captures two men.
    let mut game = Game::new(SEA_BATTLE);
    game.play("b5-b3");
    game.play("d5-d2");
    game.play("i4-i3");
    game.play("e3-c3");
    let mut captured = game.play("d9-d3");
    captured.sort();
    assert_eq!(captured, ["c3", "d2"]);
}

#[test]
fn fetlar_men_are_not_captured_against_a_friend() {
    // OpenTafl's BadFetlarCaptureTest: d6-c6 puts a defender next to b6, an attacker
    // guarded by a6, another attacker.
    let mut game = Game::new(FETLAR);
    assert!(game.play("d6-c6").is_empty());
    assert_eq!(game.at("b6"), Some('t'));
}

#[test]
fn berserk_capture_moves_again() {
    // OpenTafl's BerserkMoveDuplicationTest: the man leaves its square.
    let mut game = Game::new(BERSERK);
    assert!(game.play("d6-d5").is_empty());
    assert_eq!(game.at("d6"), None);
    // Synthetic: a capture after which the same man can capture again goes on (ber:c),
    // and does not without berserk.
    let position = "start:/3t3/3T3/t6/5T1/5t1/7/3K3/";
    for (rules, continues) in [("ber:c", true), ("ber:m", true), ("ber:n", false)] {
        let mut game = Game::new(&format!("dim:7 {rules} {position}"));
        let (from, to) = (game.index("a3"), game.index("d3"));
        let outcome = apply(&game.rules, &mut game.cells, from, to);
        assert_eq!(outcome.captures.len(), 1);
        let next = berserk_continuation(&game.rules, &game.cells, to, &outcome);
        assert_eq!(next.is_some(), continues, "{rules}");
    }
    // ber:c stops when no further capture is possible.
    let mut game = Game::new("dim:7 ber:c start:/3t3/3T3/t6/7/7/7/3K3/");
    let (from, to) = (game.index("a3"), game.index("d3"));
    let outcome = apply(&game.rules, &mut game.cells, from, to);
    assert_eq!(
        berserk_continuation(&game.rules, &game.cells, to, &outcome),
        None
    );
}

#[test]
fn restricted_center_is_passed_not_stopped_on() {
    // OpenTafl's RestrictedSpaceTest on its Fetlar test position.
    let game = Game::new(
        "dim:11 atkf:n start:/6tt3/11/K10/t9t/4T1T3t/t2TT1TT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    );
    let why = game.check("f7", "f6").unwrap_err();
    assert_eq!(why, "only the king may stop on the throne (cens: K)");
    assert_eq!(game.check("f7", "f5"), Ok(false));
}

#[test]
fn king_escapes_to_a_corner() {
    // OpenTafl's CornerVictoryTest.
    let mut game = Game::new(
        "dim:11 atkf:n start:/6tt3/11/K10/t9t/4T1T3t/t2TT1TT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    );
    game.play("a3-a1");
    assert_eq!(
        game.verdict(),
        Some(Verdict::Win(TaflSide::Defenders, Reason::KingEscaped))
    );
}

#[test]
fn king_as_hammer_or_anvil() {
    // OpenTafl's KingHammerAnvilTest: with ka:h the king captures by moving but is no
    // anvil; with ka:a the reverse.
    let position = "start:/6tt3/11/K10/t9t/4T1T3t/t2TT1TT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
    let mut hammer = Game::new(&format!("dim:11 atkf:n ka:h {position}"));
    assert!(
        hammer.play("e5-a5").is_empty(),
        "the king is no anvil for a4"
    );
    assert_eq!(hammer.at("a4"), Some('t'));
    hammer.play("a3-b3");
    assert_eq!(
        hammer.play("b3-a3"),
        ["a4"],
        "the king captures a4 against a5"
    );

    let mut anvil = Game::new(&format!("dim:11 atkf:n ka:a {position}"));
    anvil.play("a3-b3");
    anvil.play("e5-a5");
    assert!(
        anvil.play("b3-a3").is_empty(),
        "the king does not capture by moving"
    );
    anvil.play("a5-e5");
    assert_eq!(
        anvil.play("e5-a5"),
        ["a4"],
        "a4 is captured against the king"
    );
}

#[test]
fn commanders_capture_a_strong_king() {
    // OpenTafl's CommanderCaptureVictoryTest (Berserk rules).
    let mut game = Game::new(
        "dim:11 surf:n atkf:n kj:r ber:c start:/11/11/11/5c5/4N6/2c2Kc4/5c5/11/11/11/11/",
    );
    game.play("e5-a5");
    game.play("f4-f5");
    assert_eq!(game.at("f6"), Some('K'), "not against the throne");
    game.play("f6-d6");
    assert_eq!(game.play("g6-e6"), ["d6"]);
}

#[test]
fn a_commander_captures_the_king_against_a_corner() {
    // OpenTafl's CommanderCornerCaptureVictoryTest.
    let mut game = Game::new(
        "dim:11 surf:n atkf:n kj:r ber:c start:/4t6/1Kc8/11/5c5/4N6/2c3c4/11/11/11/11/11/",
    );
    game.play("b2-b1");
    assert_eq!(game.play("c2-c1"), ["b1"]);
}

#[test]
fn middleweight_king_is_captured_against_the_edge() {
    // OpenTafl's KingUnsafeAgainstBoardEdgeTest.
    let mut game = Game::new(
        "dim:11 surf:n atkf:n ks:m kj:r ber:c start:/4t6/1Kc8/11/5c5/4N6/2c3c4/11/11/11/11/11/",
    );
    game.play("b2-b1");
    game.play("c2-b2");
    game.play("e5-f5");
    assert_eq!(game.play("e1-c1"), ["b1"]);
}

#[test]
fn knights_jump_and_capture() {
    // OpenTafl's JumpCaptureBerserkerTest (Berserk rules).
    let mut game = Game::new(
        "dim:11 surf:n atkf:n kj:r ber:c start:/11/4c6/11/4t6/4N6/5Kc4/c4t5/T10/5t4c/T1T7T/2t8/",
    );
    assert_eq!(game.check("e5", "e3"), Ok(true));
    assert!(captures_something(
        &game.rules,
        &game.cells,
        game.index("e5"),
        game.index("e3")
    ));
    let commander = destinations(&game.rules, &game.cells, game.index("g6"));
    assert!(
        !commander.iter().any(|(to, _)| *to == game.index("e6")),
        "kings are not jumped"
    );
    assert!(captures_something(
        &game.rules,
        &game.cells,
        game.index("a7"),
        game.index("a9")
    ));
    // The knight jumps and captures the man it jumps; no capture follows, the turn passes.
    let to = game.index("e3");
    let (from, _) = (game.index("e5"), ());
    let outcome = apply(&game.rules, &mut game.cells, from, to);
    assert!(outcome.jump);
    assert_eq!(game.at("e4"), None);
    assert_eq!(
        berserk_continuation(&game.rules, &game.cells, to, &outcome),
        None
    );
    // The commander jumps a defender (no capture: cj:j) and captures a10 against the
    // corner; it may capture again on c9, so it moves again.
    let (from, to) = (game.index("a7"), game.index("a9"));
    let outcome = apply(&game.rules, &mut game.cells, from, to);
    assert!(outcome.jump);
    assert_eq!(game.at("a8"), Some('T'));
    assert_eq!(game.at("a10"), None);
    assert_eq!(
        berserk_continuation(&game.rules, &game.cells, to, &outcome),
        Some(to)
    );
    assert!(!captures_something(
        &game.rules,
        &game.cells,
        to,
        game.index("a7")
    ));
    assert_eq!(game.play("a9-c9"), ["c10"]);
    // The king jumps from the throne (kj:r) and captures f7 against the empty throne.
    assert_eq!(game.play("f6-f8"), ["f7"]);
    let why = game.check("f8", "f10").unwrap_err();
    assert!(why.contains("only to or from the centre"), "{why}");
}

#[test]
fn restricted_king_jumps_into_a_corner() {
    // OpenTafl's RestrictedSpaceJumpTest.
    let game = Game::new("dim:13 name:ParBerserk atkf:n tfr:w ks:m kj:r cen: cenp:TCNK ber:m starti:/4t1ctt4/1t5t5/6c6/13/3tt3N3t/tt3TTT3tt/c1c2T1T1Tc1c/tt1T4T2tt/2t5Tt3/N1t3T1t4/K6c5/t5c4t1/5t1t5/");
    assert_eq!(game.check("a3", "a1"), Ok(true));
    let game = Game::new("dim:13 name:ParBerserk atkf:n tfr:w kj:r ks:m cenp:TCNK ber:m starti:/4ttctt4/5t1t5/6c6/6T6/t3T3N3t/tt3TTT3tt/c1cT1tKT1Tc1c/tt3TTT3tt/t3N3T3t/6T6/6c6/5t1t5/4ttctt4/");
    assert_eq!(
        game.check("g7", "e7"),
        Ok(true),
        "a restricted jump from the throne"
    );
    let mut game = game;
    game.play("g7-e7");
}

#[test]
fn guards_neither_capture_nor_are_captured() {
    // OpenTafl's GuardTest.
    let mut game = Game::new(
        "dim:7 name:Guard_Test atkf:y sw:s linc:y starti:/3tT2/1tG3t/3tt2/t1tKG1t/3tt2/1TTG3/1tt4/",
    );
    assert!(game.play("g6-d6").is_empty());
    assert_eq!(game.at("c6"), Some('G'));
    assert!(game.play("c6-c7").is_empty());
    assert_eq!(game.at("d7"), Some('t'));
    assert!(game.play("g4-f4").is_empty());
    assert_eq!(game.at("e4"), Some('G'));
    assert!(
        game.play("d2-d1").is_empty(),
        "a guard closes no shieldwall"
    );
    assert_eq!(game.at("c1"), Some('t'));
}

#[test]
fn linnaean_capture_against_the_throne() {
    // OpenTafl's LinnaeanCaptureTest.
    let mut game = Game::new("dim:7 name:Brandub surf:n atkf:y ks:w nj:n cj:n mj:r cenh: cenhe: linc:y start:/3t3/3m3/3t3/tttKttt/3T3/2m4/3t3/");
    assert_eq!(game.play("c6-d6"), ["d5"]);
    let mut without =
        Game::new("dim:7 surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3m3/3t3/tttKttt/3T3/2m4/3t3/");
    assert!(without.play("c6-d6").is_empty());
}

#[test]
fn mercenaries_change_sides() {
    // OpenTafl's MercenarySideSwitchTest.
    let mut game = Game::new("dim:7 name:Brandub surf:n atkf:n ks:w nj:n cj:n mj:r cenh: cenhe: start:/3t3/3m3/3T3/ttTKTtt/3T3/2Tm3/3t3/");
    assert_eq!(game.play("e4-e6"), ["d6"]);
    assert_eq!(game.at("d6"), Some('M'));
    let mut game = Game::new("dim:7 name:Brandub surf:n atkf:y ks:w nj:n cj:n mj:r cenh: cenhe: start:/3t3/3m3/3T3/ttTKTtt/3T3/2Mm3/3t3/");
    assert_eq!(game.play("b4-b6"), ["c6"]);
    assert_eq!(game.at("c6"), Some('m'));
}

#[test]
fn speed_limits() {
    // OpenTafl's SpeedLimitTest: Magpie, the king moves one square.
    let game = Game::new("dim:7 name:Magpie surf:n atkf:y ks:m spd:-1,-1,-1,-1,-1,-1,-1,1, starti:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/");
    let mut game = game;
    game.play("c4-c1");
    game.play("d4-c4");
    let king = destinations(&game.rules, &game.cells, game.index("c4"));
    assert_eq!(king.len(), 3, "{king:?}");
    let why = game.check("c4", "c6").unwrap_err();
    assert!(why.contains("at most 1 (spd)"), "{why}");
    let two = Game::new("dim:7 spd:2 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/");
    assert!(two
        .check("a4", "a7")
        .unwrap_err()
        .contains("goes 3 squares"));
    assert_eq!(two.check("a4", "a6"), Ok(false));
}

#[test]
fn shieldwalls_with_and_without_flanking() {
    // OpenTafl's ShieldwallTest and StrictShieldwallTest (their 9×9 test position).
    let position = "start:/2tTTTt2/K1Ttt1t2/1T3t1tK/T6tT/8t/8t/7t1/1T5t1/2TT5/";
    let mut loose = Game::new(&format!("dim:9 sw:s swf:n efe:y tfr:w {position}"));
    loose.play("c9-c8");
    let mut captured = loose.play("f3-f2");
    captured.sort();
    assert_eq!(
        captured,
        ["d1", "e1", "f1"],
        "the move that pins the last man completes the wall"
    );
    loose.play("c2-b2");
    let captured = loose.play("g2-i2");
    assert_eq!(
        captured,
        ["i4"],
        "the king stands in the wall but is not captured"
    );
    assert_eq!(loose.at("i3"), Some('K'));

    let mut strict = Game::new(&format!("dim:9 sw:s efe:y tfr:w {position}"));
    strict.play("c9-c8");
    assert!(
        strict.play("f3-f2").is_empty(),
        "with swf:y only a move to the edge closes a wall"
    );
    assert_eq!(strict.at("f1"), Some('T'));
}

#[test]
fn a_corner_closes_a_strong_shieldwall_only() {
    // Synthetic: defenders on a2, a3 faced by b2, b3; the attacker closes at a4 with the
    // corner a1 at the other end.
    let position = "start:/7/Tt5/Tt5/7/t6/7/3K3/";
    let mut strong = Game::new(&format!("dim:7 sw:s {position}"));
    let mut captured = strong.play("a5-a4");
    captured.sort();
    assert_eq!(captured, ["a2", "a3"]);
    let mut weak = Game::new(&format!("dim:7 sw:w {position}"));
    assert!(weak.play("a5-a4").is_empty());
    let mut none = Game::new(&format!("dim:7 {position}"));
    assert!(none.play("a5-a4").is_empty());
}

#[test]
fn edge_forts() {
    // OpenTafl's EdgeFortEscapeTest position (9×9): not yet unbreakable, then made so.
    let mut game = Game::new(
        "dim:9 sw:s efe:y tfr:w atkf:n start:/2t3t2/3tt4/5t3/9/1T7/2T5t/7t1/1T1T3t1/1TKT5/",
    );
    assert_eq!(game.verdict(), None);
    game.play("c6-c7");
    assert_eq!(
        game.verdict(),
        None,
        "a8 and a7 are open: b8 can be captured"
    );
    game.play("c1-c2");
    game.play("b5-b7");
    assert_eq!(
        game.verdict(),
        Some(Verdict::Win(TaflSide::Defenders, Reason::EdgeFort))
    );
    // Synthetic: a one-square fort; opened, it is no fort.
    let mut fort = Game::new("dim:9 efe:y atkf:n start:/9/9/4t4/9/9/9/1TTT5/1T1T5/1TKT5/");
    fort.side = TaflSide::Defenders;
    assert_eq!(
        fort.verdict(),
        Some(Verdict::Win(TaflSide::Defenders, Reason::EdgeFort))
    );
    let c7 = fort.index("c7");
    fort.cells[c7] = 0;
    assert_eq!(fort.verdict(), None);
    let mut no_rule = Game::new("dim:9 atkf:n start:/9/9/4t4/9/9/9/1TTT5/1T1T5/1TKT5/");
    no_rule.side = TaflSide::Defenders;
    assert_eq!(no_rule.verdict(), None);
}

#[test]
fn encircled_defenders_lose() {
    // OpenTafl's EncirclementTest (Sea Battle rules, its 9×9 position).
    let mut game =
        Game::new("dim:9 esc:e ka:n cen: cenhe: cor: start:/9/9/9/9/3t5/3t1t3/2tTKt3/2t2t3/3t1t3/");
    game.play("d5-e5");
    game.play("d7-d8");
    game.play("f9-e9");
    assert_eq!(
        game.verdict(),
        Some(Verdict::Win(TaflSide::Attackers, Reason::Surrounded))
    );
    let mut lenient = Game::new(
        "dim:9 esc:e ka:n cen: cenhe: cor: surf:n start:/9/9/9/9/3t5/3t1t3/2tTKt3/2t2t3/3t1t3/",
    );
    lenient.play("d5-e5");
    lenient.play("d7-d8");
    lenient.play("f9-e9");
    assert_eq!(lenient.verdict(), None);
}

#[test]
fn every_group_of_defenders_must_be_enclosed() {
    // Synthetic: two defenders, each walled in by four attackers.
    let game = Game::new("dim:9 esc:e cor: start:/9/1t7/tTt6/1t7/9/5t3/4tTt2/5t3/9/");
    assert!(defenders_enclosed(&game.rules, &game.cells));
    // Either one let out is a way to the edge.
    for opened in ["b2", "f8"] {
        let mut open = Game::new("dim:9 esc:e cor: start:/9/1t7/tTt6/1t7/9/5t3/4tTt2/5t3/9/");
        let square = open.index(opened);
        assert_eq!(open.at(opened), Some('t'), "{opened}");
        open.cells[square] = 0;
        assert!(!defenders_enclosed(&open.rules, &open.cells), "{opened}");
    }
}

#[test]
fn strong_king_needs_four_and_the_throne_counts() {
    // Synthetic, default rules: three attackers and the empty throne capture the king.
    let mut game = Game::new("dim:7 start:/7/7/2t4/1tK4/7/2t4/7/");
    assert_eq!(game.play("c6-c5"), ["c4"]);
    assert_eq!(
        game.verdict(),
        Some(Verdict::Win(TaflSide::Attackers, Reason::KingCaptured))
    );
    // Away from the throne three are not enough.
    let mut game = Game::new("dim:7 start:/7/7/7/t6/1tK4/2t4/7/");
    assert!(game.play("a4-c4").is_empty());
    assert_eq!(game.at("c5"), Some('K'));
}

#[test]
fn weak_king_is_captured_by_two() {
    let mut game = Game::new("dim:7 ks:w start:/7/1tK4/7/7/7/7/3t3/");
    assert_eq!(game.play("d7-d2"), ["c2"]);
    let mut weak = Game::new("dim:7 ks:w start:/7/7/7/t1K4/7/7/7/");
    assert_eq!(weak.play("a4-b4"), ["c4"], "against the empty throne");
    let mut center = Game::new("dim:7 ks:c start:/7/7/7/t1K4/7/7/7/");
    assert!(
        center.play("a4-b4").is_empty(),
        "ks:c: strong next to the throne"
    );
}

#[test]
fn jumps_need_an_enemy_to_jump_and_room_to_land() {
    let game = Game::new("dim:7 kj:j start:/7/7/7/2tKT2/7/7/7/");
    assert_eq!(game.check("d4", "b4"), Ok(true));
    let why = game.check("d4", "f4").unwrap_err();
    assert!(why.contains("friend"), "{why}");
    let game = Game::new("dim:7 kj:n start:/7/7/7/2tK3/7/7/7/");
    assert_eq!(
        game.check("d4", "b4").unwrap_err(),
        "d4-b4 passes through c4"
    );
    let mut capturing = Game::new("dim:7 kj:c start:/7/7/7/2tK3/7/7/7/");
    assert_eq!(capturing.play("d4-b4"), ["c4"]);
    // A plain jump captures nothing by itself (off the throne, nothing is hostile behind).
    let mut plain = Game::new("dim:7 kj:j start:/7/7/7/7/7/2tK3/7/");
    assert!(plain.play("d6-b6").is_empty());
    // From the throne, the jumped man is captured against the now empty throne.
    let mut from_throne = Game::new("dim:7 kj:j start:/7/7/7/2tK3/7/7/7/");
    assert_eq!(from_throne.play("d4-b4"), ["c4"]);
}

#[test]
fn forts_restrict_entry() {
    // Synthetic: attackers may neither pass nor stop on a defenders' fort (defaults).
    let game = Game::new("dim:7 dfor:a3,a4,a5, start:/7/7/1t5/7/7/7/3K3/");
    let why = game.check("b3", "a3").unwrap_err();
    assert_eq!(
        why,
        "only defending men may stop on the defenders' fort (dfors: TCNKMG)"
    );
    // A man that leaves its fort may not come back when re-entry is restricted.
    let mut game = Game::new("dim:7 afor:a3,a4, aforre:T start:/7/7/7/t6/7/7/3K3/");
    game.play("a4-a6");
    let why = game.check("a6", "a4").unwrap_err();
    assert!(why.contains("re-enter"), "{why}");
    assert_eq!(game.check("a6", "a5"), Ok(false));
    let inside = Game::new("dim:7 afor:a3,a4, aforre:T start:/7/7/7/t6/7/7/3K3/");
    assert_eq!(
        inside.check("a4", "a3"),
        Ok(false),
        "moving within the fort is fine"
    );
}

#[test]
fn reasons_written_piece_by_piece_read_as_described() {
    let game = Game::new(
        "dim:11 spd:2 start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    );
    for (from, to, expected) in [
        ("e1", "e1", "a move goes somewhere else"),
        ("e3", "e4", "there is no man on e3"),
        ("a4", "b5", "a4-b5 is not along a rank or a file"),
        ("a6", "c6", "a6-c6 passes through b6"),
        ("b6", "k6", "k6 is occupied"),
        (
            "k4",
            "k1",
            "k4-k1 goes 3 squares; taflmen move at most 2 (spd)",
        ),
    ] {
        let why = check_move(&game.rules, &game.cells, game.index(from), game.index(to))
            .expect_err("an illegal move");
        let mut written = String::new();
        why.push_description(&game.rules, &mut written);
        assert_eq!(written, expected, "{from}-{to}");
        assert_eq!(why.describe(&game.rules), expected, "{from}-{to}");
    }
}
