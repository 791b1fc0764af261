//! Starting boards compared with the reference's, for every conformance file
//! whose setup we can build.

use std::fs;
use std::path::{Path, PathBuf};

use ppn_ls::engine::setups::{setup_from_metadata, Setup, SetupContext};
use serde_json::Value as Json;
use serde_yaml::Value as Yaml;

fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance")
}

/// The metadata of each game in a PPN file: games start at `---` lines, and
/// metadata ends at a `...` line, else at the first blank or indented line.
fn game_metadata(text: &str) -> Vec<Yaml> {
    let mut games: Vec<Vec<&str>> = Vec::new();
    for line in text.lines() {
        if line.starts_with("---") {
            games.push(Vec::new());
        } else if let Some(game) = games.last_mut() {
            game.push(line);
        } else {
            games.push(vec![line]);
        }
    }
    games
        .into_iter()
        .map(|lines| {
            let end = lines
                .iter()
                .position(|l| l.starts_with("..."))
                .or_else(|| {
                    lines
                        .iter()
                        .position(|l| l.is_empty() || l.starts_with([' ', '\t']))
                })
                .unwrap_or(lines.len());
            let yaml = lines[..end].join("\n");
            serde_yaml::from_str(&yaml).unwrap_or(Yaml::Null)
        })
        .collect()
}

fn setup_for(metadata: &Yaml) -> Result<Option<Setup>, String> {
    let parser = match metadata.get("MovetextParser") {
        Some(Yaml::String(name)) => SetupContext::for_parser(name, None),
        Some(Yaml::Mapping(_)) => return Err("parser options not handled here".to_string()),
        _ => SetupContext::default(),
    };
    let field = metadata.get("SetUp").or_else(|| metadata.get("GameType"));
    match field {
        None => Ok(None),
        Some(value) => setup_from_metadata(value, &parser)
            .map(Some)
            .map_err(|e| e.to_string()),
    }
}

/// The first difference between our pieces and the reference's, if any.
fn first_difference(setup: Option<&Setup>, expected: &[Json]) -> Option<String> {
    let pieces = setup.map(|s| s.pieces.as_slice()).unwrap_or(&[]);
    if pieces.len() != expected.len() {
        return Some(format!(
            "{} pieces, expected {}",
            pieces.len(),
            expected.len()
        ));
    }
    for (i, (piece, want)) in pieces.iter().zip(expected).enumerate() {
        let number = |key: &str| want[key].as_f64().unwrap_or(f64::NAN);
        let same = piece.piece_side() == want["piece_side"].as_str().unwrap_or("")
            && f64::from(piece.suit) == number("suit")
            && f64::from(piece.rank) == number("rank")
            && *piece.cfg == *want["cfg"].as_str().unwrap_or("")
            && (piece.x - number("x")).abs() < 1e-6
            && (piece.y - number("y")).abs() < 1e-6
            && (piece.angle - number("angle")).abs() < 1e-6;
        if !same {
            return Some(format!("piece {}: got {piece}, expected {want}", i + 1));
        }
    }
    None
}

struct Outcome {
    /// `folder/file.ppn` or `folder/file.ppn#2` for later games in a file.
    name: String,
    difference: Option<String>,
}

fn run_all() -> Vec<Outcome> {
    let mut outcomes = Vec::new();
    for folder in ["examples", "generated", "setups"] {
        let dir = conformance_dir().join(folder);
        let mut files: Vec<PathBuf> = fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "ppn"))
            .collect();
        files.sort();
        for path in files {
            let text = fs::read_to_string(&path).unwrap_or_default();
            let expected: Json = fs::read_to_string(path.with_extension("json"))
                .ok()
                .and_then(|t| serde_json::from_str(&t).ok())
                .unwrap_or(Json::Null);
            let file_name = path.file_name().unwrap_or_default().to_string_lossy();
            for (i, metadata) in game_metadata(&text).iter().enumerate() {
                let Some(states) = expected["games"][i]["states"].as_array() else {
                    continue;
                };
                let Some(first) = states.first() else {
                    continue;
                };
                let want = first["pieces"].as_array().cloned().unwrap_or_default();
                let name = if i == 0 {
                    format!("{folder}/{file_name}")
                } else {
                    format!("{folder}/{file_name}#{}", i + 1)
                };
                let difference = match setup_for(metadata) {
                    Ok(setup) => first_difference(setup.as_ref(), &want),
                    Err(error) => Some(format!("error: {error}")),
                };
                outcomes.push(Outcome { name, difference });
            }
        }
    }
    outcomes
}

/// Games whose starting board matches the reference exactly; a regression guard.
const MATCHING: &[&str] = &[
    "examples/alien-city.ppn",
    "examples/american-checkers.ppn",
    "examples/desfases.ppn",
    "examples/four-field-kono.ppn",
    "examples/fujisan.ppn",
    "examples/ice-floe.ppn",
    "examples/international-chess.ppn",
    "examples/japan.ppn",
    "examples/relativity.ppn",
    "examples/spaiji.ppn",
    "examples/spoff.ppn",
    "examples/tablut.ppn",
    "examples/tic-tac-toe.ppn",
    "examples/xiangqi.ppn",
    "generated/g001_lines_of_action.ppn",
    "generated/g002_nine_men_s_morris.ppn",
    "generated/g003_nine_men_s_morris.ppn",
    "generated/g004_nine_men_s_morris.ppn",
    "generated/g005_none.ppn",
    "generated/g006_lines_of_action__map_checker.ppn",
    "generated/g007_xiangqi__map_stackpack.ppn",
    "generated/g008_halma__map_default.ppn",
    "generated/g009_nine_men_s_morris.ppn",
    "generated/g010_alquerque.ppn",
    "generated/g011_breakthrough.ppn",
    "generated/g012_none.ppn",
    "generated/g013_none.ppn",
    "generated/g014_american_checkers__map_checker.ppn",
    "generated/g015_breakthrough.ppn",
    "generated/g015_breakthrough.ppn#2",
    "generated/g016_nine_men_s_morris.ppn",
    "generated/g017_breakthrough.ppn",
    "generated/g018_halma__map_default.ppn",
    "generated/g019_halma.ppn",
    "generated/g020_international_chess.ppn",
    "generated/g021_xiangqi__map_stackpack.ppn",
    "generated/g022_tablut.ppn",
    "generated/g022_tablut.ppn#2",
    "generated/g023_halma__map_default.ppn",
    "generated/g024_breakthrough.ppn",
    "generated/g025_salta.ppn",
    "generated/g026_salta.ppn",
    "generated/g027_none.ppn",
    "generated/g028_breakthrough__map_checker.ppn",
    "generated/g028_breakthrough__map_checker.ppn#2",
    "generated/g029_alquerque.ppn",
    "generated/g030_four_field_kono.ppn",
    "generated/g030_four_field_kono.ppn#2",
    "generated/g031_lines_of_action.ppn",
    "generated/g031_lines_of_action.ppn#2",
    "generated/g032_alquerque__map_alquerque.ppn",
    "generated/g033_brandubh.ppn",
    "generated/g034_international_chess.ppn",
    "generated/g035_none.ppn",
    "generated/g036_breakthrough.ppn",
    "generated/g037_tablut.ppn",
    "generated/g038_xiangqi.ppn",
    "generated/g039_american_checkers.ppn",
    "generated/g040_none.ppn",
    "generated/g040_none.ppn#2",
    "generated/g041_alquerque.ppn",
    "generated/g042_breakthrough.ppn",
    "generated/g043_american_checkers.ppn",
    "generated/g044_salta.ppn",
    "generated/g045_four_field_kono__map_checker.ppn",
    "generated/g046_brandubh.ppn",
    "generated/g047_none.ppn",
    "generated/g048_four_field_kono.ppn",
    "generated/g049_halma.ppn",
    "generated/g050_alquerque.ppn",
    "generated/g050_alquerque.ppn#2",
    "generated/g051_none.ppn",
    "generated/g051_none.ppn#2",
    "generated/g052_none.ppn",
    "generated/g053_lines_of_action__map_checker.ppn",
    "generated/g054_alquerque.ppn",
    "generated/g055_four_field_kono__map_checker.ppn",
    "generated/g056_international_chess__map_chess.ppn",
    "generated/g057_alquerque.ppn",
    "generated/g058_halma.ppn",
    "generated/g059_american_checkers.ppn",
    "generated/g060_brandubh__map_piecepack.ppn",
    "generated/hw01_slices.ppn",
    "generated/hw02_rotate_about_location.ppn",
    "generated/hw03_caret_start_of_move.ppn",
    "generated/hw04_flip_pyramid_die.ppn",
    "generated/hw05_tilde_on_die.ppn",
    "generated/hw06_nested_macros.ppn",
    "generated/hw07_n_location_nearest.ppn",
    "generated/hw08_three_games.ppn",
    "generated/hw08_three_games.ppn#2",
    "generated/hw08_three_games.ppn#3",
    "generated/hw09_no_metadata.ppn",
    "generated/hw10_crlf_whitespace.ppn",
    "generated/hw11_percent_ordering.ppn",
    "generated/hw12_search_fallbacks.ppn",
    "setups/alquerque-alquerque.ppn",
    "setups/alquerque-baghchal.ppn",
    "setups/checker-american-checkers.ppn",
    "setups/checker-american-pool-checkers.ppn",
    "setups/checker-bashni.ppn",
    "setups/checker-breakthrough.ppn",
    "setups/checker-canadian-checkers.ppn",
    "setups/checker-checkers.ppn",
    "setups/checker-column-checkers.ppn",
    "setups/checker-corner-checkers.ppn",
    "setups/checker-czech-checkers.ppn",
    "setups/checker-dameo.ppn",
    "setups/checker-dao.ppn",
    "setups/checker-dodgem.ppn",
    "setups/checker-english-checkers.ppn",
    "setups/checker-four-field-kono.ppn",
    "setups/checker-frisian-checkers.ppn",
    "setups/checker-gothic-checkers.ppn",
    "setups/checker-grasshopper.ppn",
    "setups/checker-international-checkers.ppn",
    "setups/checker-italian-checkers.ppn",
    "setups/checker-jamaican-checkers.ppn",
    "setups/checker-jeson-mor.ppn",
    "setups/checker-julgonu.ppn",
    "setups/checker-kangaroo.ppn",
    "setups/checker-lasca.ppn",
    "setups/checker-lines-of-action.ppn",
    "setups/checker-malaysian-checkers.ppn",
    "setups/checker-one-way-checkers.ppn",
    "setups/checker-portuguese-checkers.ppn",
    "setups/checker-russian-checkers.ppn",
    "setups/checker-singaporean-checkers.ppn",
    "setups/checker-spanish-checkers.ppn",
    "setups/checker-thai-checkers.ppn",
    "setups/checker-turkish-checkers.ppn",
    "setups/checker-zimbabwean-pool-checkers.ppn",
    "setups/chess-chess.ppn",
    "setups/chess-chess960.ppn",
    "setups/chess-fischer-random-chess.ppn",
    "setups/chess-horde-chess.ppn",
    "setups/chess-international-chess.ppn",
    "setups/chess-jeson-mor.ppn",
    "setups/chess-monochrome-chess.ppn",
    "setups/chess-racing-kings.ppn",
    "setups/domino-concentration.ppn",
    "setups/domino-finder.ppn",
    "setups/domino-freecell.ppn",
    "setups/domino-fujisan.ppn",
    "setups/domino-luzon.ppn",
    "setups/domino-patience.ppn",
    "setups/domino-runners.ppn",
    "setups/domino-the-jubilee.ppn",
    "setups/domino-the-sultan.ppn",
    "setups/domino-tiles.ppn",
    "setups/go-connect6.ppn",
    "setups/go-gomoku.ppn",
    "setups/morris-nine-mens-morris.ppn",
    "setups/morris-six-mens-morris.ppn",
    "setups/morris-ten-mens-morris.ppn",
    "setups/morris-three-mens-morris.ppn",
    "setups/morris-twelve-mens-morris.ppn",
    "setups/piecepack-achi.ppn",
    "setups/piecepack-alice-chess.ppn",
    "setups/piecepack-alien-city.ppn",
    "setups/piecepack-alquerque.ppn",
    "setups/piecepack-american-checkers.ppn",
    "setups/piecepack-american-pool-checkers.ppn",
    "setups/piecepack-baghchal.ppn",
    "setups/piecepack-bashni.ppn",
    "setups/piecepack-brain-burn.ppn",
    "setups/piecepack-brandubh.ppn",
    "setups/piecepack-brazilian-checkers.ppn",
    "setups/piecepack-breakthrough.ppn",
    "setups/piecepack-burbuja.ppn",
    "setups/piecepack-cardinals-guards.ppn",
    "setups/piecepack-cell-management.ppn",
    "setups/piecepack-change-change.ppn",
    "setups/piecepack-chariots.ppn",
    "setups/piecepack-checkers.ppn",
    "setups/piecepack-chess.ppn",
    "setups/piecepack-chess960.ppn",
    "setups/piecepack-chinese-checkers.ppn",
    "setups/piecepack-chinese-chess.ppn",
    "setups/piecepack-climbing-man.ppn",
    "setups/piecepack-coin-collectors.ppn",
    "setups/piecepack-column-checkers.ppn",
    "setups/piecepack-cribbage-board.ppn",
    "setups/piecepack-cribbage.ppn",
    "setups/piecepack-crocodile-hop.ppn",
    "setups/piecepack-dara.ppn",
    "setups/piecepack-desfases.ppn",
    "setups/piecepack-dominoids.ppn",
    "setups/piecepack-donut-board.ppn",
    "setups/piecepack-easy-slider.ppn",
    "setups/piecepack-english-checkers.ppn",
    "setups/piecepack-evade.ppn",
    "setups/piecepack-everest.ppn",
    "setups/piecepack-fischer-random-chess.ppn",
    "setups/piecepack-four-field-kono.ppn",
    "setups/piecepack-four-seasons-chess.ppn",
    "setups/piecepack-froggy-bottom.ppn",
    "setups/piecepack-fujisan.ppn",
    "setups/piecepack-galaxy-express.ppn",
    "setups/piecepack-gothic-checkers.ppn",
    "setups/piecepack-grasshopper.ppn",
    "setups/piecepack-halma.ppn",
    "setups/piecepack-ice-floe.ppn",
    "setups/piecepack-iceberg.ppn",
    "setups/piecepack-international-chess.ppn",
    "setups/piecepack-italian-checkers.ppn",
    "setups/piecepack-japan.ppn",
    "setups/piecepack-jeson-mor.ppn",
    "setups/piecepack-julgonu.ppn",
    "setups/piecepack-kangaroo.ppn",
    "setups/piecepack-kings-valley.ppn",
    "setups/piecepack-landlocked.ppn",
    "setups/piecepack-ley-lines.ppn",
    "setups/piecepack-lines-of-action.ppn",
    "setups/piecepack-lukawan.ppn",
    "setups/piecepack-matchsticks.ppn",
    "setups/piecepack-minishogi.ppn",
    "setups/piecepack-nine-mens-morris.ppn",
    "setups/piecepack-one-man-thrag.ppn",
    "setups/piecepack-one-way-checkers.ppn",
    "setups/piecepack-pass-the-food.ppn",
    "setups/piecepack-pawns-crossing.ppn",
    "setups/piecepack-piece-gaps.ppn",
    "setups/piecepack-piece-packing-pirates.ppn",
    "setups/piecepack-plans-of-action.ppn",
    "setups/piecepack-portuguese-checkers.ppn",
    "setups/piecepack-pyramids.ppn",
    "setups/piecepack-quatri.ppn",
    "setups/piecepack-rectangular-board.ppn",
    "setups/piecepack-relativity.ppn",
    "setups/piecepack-russian-checkers.ppn",
    "setups/piecepack-salta.ppn",
    "setups/piecepack-seega.ppn",
    "setups/piecepack-shopping-mall.ppn",
    "setups/piecepack-speedy-towers.ppn",
    "setups/piecepack-steppin-stones.ppn",
    "setups/piecepack-tablan.ppn",
    "setups/piecepack-tablut.ppn",
    "setups/piecepack-tariffs.ppn",
    "setups/piecepack-thai-checkers.ppn",
    "setups/piecepack-the-in-crowd.ppn",
    "setups/piecepack-the-magic-bag.ppn",
    "setups/piecepack-the-penguin-game.ppn",
    "setups/piecepack-tic-tac-toe.ppn",
    "setups/piecepack-tiles.ppn",
    "setups/piecepack-tower-of-babel.ppn",
    "setups/piecepack-tracers.ppn",
    "setups/piecepack-triactor.ppn",
    "setups/piecepack-tula.ppn",
    "setups/piecepack-turkish-checkers.ppn",
    "setups/piecepack-twelve-mens-morris.ppn",
    "setups/piecepack-unified-pool-checkers.ppn",
    "setups/piecepack-wormholes.ppn",
    "setups/piecepack-xiangqi.ppn",
    "setups/reversi-ming-mang.ppn",
    "setups/reversi-reversi.ppn",
    "setups/stackpack-alice-chess.ppn",
    "setups/stackpack-chess.ppn",
    "setups/stackpack-chess960.ppn",
    "setups/stackpack-chinese-chess.ppn",
    "setups/stackpack-fischer-random-chess.ppn",
    "setups/stackpack-four-seasons-chess.ppn",
    "setups/stackpack-international-chess.ppn",
    "setups/stackpack-salta.ppn",
    "setups/stackpack-xiangqi.ppn",
];

#[test]
fn matching_setups_stay_matching() {
    let outcomes = run_all();
    let regressions: Vec<String> = outcomes
        .iter()
        .filter(|o| MATCHING.contains(&o.name.as_str()))
        .filter_map(|o| o.difference.as_ref().map(|d| format!("{}: {d}", o.name)))
        .collect();
    let missing: Vec<&&str> = MATCHING
        .iter()
        .filter(|name| !outcomes.iter().any(|o| o.name == **name))
        .collect();
    assert!(
        regressions.is_empty(),
        "regressions:\n{}",
        regressions.join("\n")
    );
    assert!(missing.is_empty(), "files not found: {missing:?}");
}

#[test]
fn report_setup_conformance() {
    let outcomes = run_all();
    let passed: Vec<&Outcome> = outcomes.iter().filter(|o| o.difference.is_none()).collect();
    for outcome in &outcomes {
        match &outcome.difference {
            None => println!("PASS {}", outcome.name),
            Some(difference) => println!("FAIL {}: {difference}", outcome.name),
        }
    }
    println!(
        "{} of {} starting boards match",
        passed.len(),
        outcomes.len()
    );
    assert!(!outcomes.is_empty());
}

/// Every setup the reference exports is known, under the same system and
/// name, and takes no argument the reference's does not.
#[test]
fn every_reference_setup_is_known() {
    let index: Json = serde_json::from_str(
        &fs::read_to_string(conformance_dir().join("games-index.json")).unwrap_or_default(),
    )
    .unwrap_or(Json::Null);
    let entries = index.as_array().cloned().unwrap_or_default();
    assert!(entries.len() > 150, "games index not found");
    let known = ppn_ls::engine::setups::known_games();
    let mut problems = Vec::new();
    for entry in &entries {
        let system = entry["system"].as_str().unwrap_or("");
        let game = entry["game"].as_str().unwrap_or("");
        let Some(ours) = known.iter().find(|g| g.system == system && g.name == game) else {
            problems.push(format!("missing {system} {game}"));
            continue;
        };
        let theirs: Vec<&str> = entry["args"]
            .as_array()
            .map(|args| args.iter().filter_map(|a| a["name"].as_str()).collect())
            .unwrap_or_default();
        for argument in &ours.arguments {
            if !theirs.contains(&argument.name) {
                problems.push(format!(
                    "{system} {game}: unexpected argument {}",
                    argument.name
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
