//! Replays the conformance games (board states computed by the reference implementation)
//! move by move and compares every piece after every move.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ppn_ls::model::piece::Piece;
use ppn_ls::ppn::reader::games::split_games;
use ppn_ls::ppn::reader::macros::MacroTable;
use ppn_ls::ppn::reader::metadata::parse_metadata;
use ppn_ls::ppn::rules::state::{piece_from_json, GameState, ParserOptions, Severity};

fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance")
}

fn ppn_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for folder in ["examples", "generated"] {
        let dir = conformance_dir().join(folder);
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ppn"))
            .collect();
        entries.sort();
        files.extend(entries);
    }
    files
}

fn file_label(path: &Path) -> String {
    let folder = path
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = path
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("{folder}/{name}")
}

/// The metadata of each game, read the way the replay reads it.
fn game_metadata(text: &str) -> Vec<serde_yaml::Value> {
    split_games(text)
        .into_iter()
        .map(|game| {
            let (metadata, _) = parse_metadata(text, game.metadata);
            serde_yaml::Value::Mapping(std::sync::Arc::unwrap_or_clone(metadata.mapping))
        })
        .collect()
}

fn yaml_text(value: &serde_yaml::Value) -> Option<String> {
    match value {
        serde_yaml::Value::String(s) => Some(s.clone()),
        serde_yaml::Value::Number(n) => Some(n.to_string()),
        serde_yaml::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn metadata_macros(metadata: &serde_yaml::Value) -> Vec<(String, String)> {
    let Some(serde_yaml::Value::Mapping(map)) = metadata.get("Macros") else {
        return Vec::new();
    };
    map.iter()
        .filter_map(|(k, v)| Some((yaml_text(k)?, yaml_text(v)?)))
        .collect()
}

fn normalized(name: &str) -> String {
    name.to_lowercase()
        .replace(['\'', '-'], "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("_")
}

/// (setup name, system) from `SetUp` or `GameType`.
fn setup_name(metadata: &serde_yaml::Value, default_system: &str) -> (String, String) {
    let field = metadata.get("SetUp").or_else(|| metadata.get("GameType"));
    match field {
        Some(serde_yaml::Value::String(name)) => (normalized(name), default_system.into()),
        Some(serde_yaml::Value::Mapping(map)) => {
            let get = |key: &str| {
                map.iter()
                    .find(|(k, _)| k.as_str().is_some_and(|k| k.eq_ignore_ascii_case(key)))
                    .and_then(|(_, v)| yaml_text(v))
            };
            (
                normalized(&get("Name").unwrap_or_default()),
                normalized(&get("System").unwrap_or_else(|| default_system.into())),
            )
        }
        _ => (String::new(), String::new()),
    }
}

/// The parser options and (from the parser's cell width or the setup) scale factor.
fn parser_settings(metadata: &serde_yaml::Value) -> Result<(ParserOptions, f64), String> {
    let (name, cell_width) = match metadata.get("MovetextParser") {
        None => ("default".to_string(), None),
        Some(serde_yaml::Value::String(name)) => (name.clone(), None),
        Some(serde_yaml::Value::Mapping(map)) => {
            let get = |key: &str| {
                map.iter()
                    .find(|(k, _)| {
                        k.as_str()
                            .is_some_and(|k| normalized(k).replace('_', "") == key)
                    })
                    .map(|(_, v)| v.clone())
            };
            let name = get("name").and_then(|v| yaml_text(&v)).unwrap_or_default();
            let width = get("cellwidth")
                .and_then(|v| v.as_u64())
                .and_then(|w| u32::try_from(w).ok());
            (name, width)
        }
        Some(other) => return Err(format!("MovetextParser {other:?}")),
    };
    let options = ParserOptions::for_parser(&name, cell_width)
        .ok_or_else(|| format!("unknown MovetextParser {name}"))?;
    let parser = normalized(&name);
    // Alternative parsers set up games in their own game system by default.
    let default_system = match parser.as_str() {
        "marble" => "marbles",
        "default" | "" => "piecepack",
        other => other,
    };
    let (setup, system) = setup_name(metadata, default_system);
    let scale = if let Some(scale) = metadata.get("ScalingFactor").and_then(|v| v.as_f64()) {
        scale
    } else if parser == "checker" || parser == "chess" {
        f64::from(cell_width.unwrap_or(2))
    } else {
        // The setups that set a scale factor of their own.
        match (setup.as_str(), system.as_str()) {
            ("desfases", _) => 3.0,
            ("cardinals_guards" | "easy_slider" | "tower_of_babel" | "kings_valley", _) => 2.0,
            (_, "marbles") => 0.5,
            _ => 1.0,
        }
    };
    Ok((options, scale))
}

fn same_piece(expected: &Piece, actual: &Piece) -> bool {
    let angle_gap = (expected.angle - actual.angle).rem_euclid(360.0);
    expected.kind == actual.kind
        && expected.side == actual.side
        && expected.suit == actual.suit
        && expected.rank == actual.rank
        && expected.cfg == actual.cfg
        && (expected.x - actual.x).abs() < 1e-6
        && (expected.y - actual.y).abs() < 1e-6
        && !(1e-6..=360.0 - 1e-6).contains(&angle_gap)
}

fn first_difference(expected: &[Piece], actual: &[Piece]) -> Option<String> {
    for i in 0..expected.len().max(actual.len()) {
        match (expected.get(i), actual.get(i)) {
            (Some(e), Some(a)) if same_piece(e, a) => continue,
            (e, a) => {
                let show = |p: Option<&Piece>| p.map_or("nothing".to_string(), |p| p.to_string());
                return Some(format!(
                    "piece {i} of {} (got {}): expected {}, got {}",
                    expected.len(),
                    actual.len(),
                    show(e),
                    show(a)
                ));
            }
        }
    }
    None
}

/// Warning code → (how many, the first one seen).
type WarningTally = std::collections::BTreeMap<&'static str, (usize, String)>;

/// Replays every game of one file; `Err` holds the first difference. Warnings are tallied.
fn check_file_counting(
    path: &Path,
    warnings: &mut WarningTally,
    applying: &mut Duration,
) -> Result<usize, String> {
    let ppn = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let json_text =
        std::fs::read_to_string(path.with_extension("json")).map_err(|e| e.to_string())?;
    let json: serde_json::Value = serde_json::from_str(&json_text).map_err(|e| e.to_string())?;
    let games = json["games"].as_array().ok_or("no games")?;
    let metadata = game_metadata(&ppn);
    if metadata.len() != games.len() {
        return Err(format!(
            "{} games in the file, {} in the JSON",
            metadata.len(),
            games.len()
        ));
    }
    let mut moves = 0;
    for (game_index, (game, metadata)) in games.iter().zip(&metadata).enumerate() {
        let states = game["states"].as_array().ok_or("no states")?;
        let pieces_of = |state: &serde_json::Value| -> Result<Vec<Piece>, String> {
            state["pieces"]
                .as_array()
                .ok_or("no pieces")?
                .iter()
                .map(|p| piece_from_json(p).ok_or_else(|| format!("bad piece {p}")))
                .collect()
        };
        let first = states.first().ok_or("no states")?;
        let (options, scale) = parser_settings(metadata)?;
        let macros = MacroTable::with_overrides(&[], &metadata_macros(metadata));
        let mut state = GameState::new(pieces_of(first)?, scale, macros, options);
        for expected_state in &states[1..] {
            let text = expected_state["text"].as_str().unwrap_or_default();
            let tokens: Vec<&str> = text.split_whitespace().collect();
            let started = Instant::now();
            let issues = state.apply_move(&tokens);
            *applying += started.elapsed();
            moves += 1;
            for issue in issues.iter().filter(|i| i.severity == Severity::Warning) {
                let tally = warnings.entry(issue.code).or_insert_with(|| {
                    (0, format!("`{}`: {}", tokens[issue.token], issue.message))
                });
                tally.0 += 1;
            }
            let label = expected_state["move"].as_str().unwrap_or_default();
            if let Some(error) = issues.iter().find(|i| i.severity == Severity::Error) {
                return Err(format!(
                    "game {game_index} move `{label} {text}`: error {} at token {} {:?}: {}",
                    error.code, error.token, error.range, error.message
                ));
            }
            let expected = pieces_of(expected_state)?;
            if let Some(difference) = first_difference(&expected, state.pieces()) {
                return Err(format!(
                    "game {game_index} move `{label} {text}`: {difference}"
                ));
            }
        }
    }
    Ok(moves)
}

fn check_file(path: &Path) -> Result<usize, String> {
    let mut applying = Duration::ZERO;
    check_file_counting(path, &mut WarningTally::new(), &mut applying)
}

/// Files whose every board state matches (all of them): guards against regressions.
const PASSING: &[&str] = &[
    "examples/alien-city",
    "examples/american-checkers",
    "examples/desfases",
    "examples/four-field-kono",
    "examples/fujisan",
    "examples/ice-floe",
    "examples/international-chess",
    "examples/japan",
    "examples/plans-of-action",
    "examples/relativity",
    "examples/spaiji",
    "examples/spoff",
    "examples/tablut",
    "examples/tic-tac-toe",
    "examples/xiangqi",
    "generated/g001_lines_of_action",
    "generated/g002_nine_men_s_morris",
    "generated/g003_nine_men_s_morris",
    "generated/g004_nine_men_s_morris",
    "generated/g005_none",
    "generated/g006_lines_of_action__map_checker",
    "generated/g007_xiangqi__map_stackpack",
    "generated/g008_halma__map_default",
    "generated/g009_nine_men_s_morris",
    "generated/g010_alquerque",
    "generated/g011_breakthrough",
    "generated/g012_none",
    "generated/g013_none",
    "generated/g014_american_checkers__map_checker",
    "generated/g015_breakthrough",
    "generated/g016_nine_men_s_morris",
    "generated/g017_breakthrough",
    "generated/g018_halma__map_default",
    "generated/g019_halma",
    "generated/g020_international_chess",
    "generated/g021_xiangqi__map_stackpack",
    "generated/g022_tablut",
    "generated/g023_halma__map_default",
    "generated/g024_breakthrough",
    "generated/g025_salta",
    "generated/g026_salta",
    "generated/g027_none",
    "generated/g028_breakthrough__map_checker",
    "generated/g029_alquerque",
    "generated/g030_four_field_kono",
    "generated/g031_lines_of_action",
    "generated/g032_alquerque__map_alquerque",
    "generated/g033_brandubh",
    "generated/g034_international_chess",
    "generated/g035_none",
    "generated/g036_breakthrough",
    "generated/g037_tablut",
    "generated/g038_xiangqi",
    "generated/g039_american_checkers",
    "generated/g040_none",
    "generated/g041_alquerque",
    "generated/g042_breakthrough",
    "generated/g043_american_checkers",
    "generated/g044_salta",
    "generated/g045_four_field_kono__map_checker",
    "generated/g046_brandubh",
    "generated/g047_none",
    "generated/g048_four_field_kono",
    "generated/g049_halma",
    "generated/g050_alquerque",
    "generated/g051_none",
    "generated/g052_none",
    "generated/g053_lines_of_action__map_checker",
    "generated/g054_alquerque",
    "generated/g055_four_field_kono__map_checker",
    "generated/g056_international_chess__map_chess",
    "generated/g057_alquerque",
    "generated/g058_halma",
    "generated/g059_american_checkers",
    "generated/g060_brandubh__map_piecepack",
    "generated/hw01_slices",
    "generated/hw02_rotate_about_location",
    "generated/hw03_caret_start_of_move",
    "generated/hw04_flip_pyramid_die",
    "generated/hw05_tilde_on_die",
    "generated/hw06_nested_macros",
    "generated/hw07_n_location_nearest",
    "generated/hw08_three_games",
    "generated/hw09_no_metadata",
    "generated/hw10_crlf_whitespace",
    "generated/hw11_percent_ordering",
    "generated/hw12_search_fallbacks",
];

#[test]
fn conformance_files_that_pass_keep_passing() {
    let files = ppn_files();
    assert_eq!(files.len(), 15 + 72, "conformance files missing");
    let passing: Vec<String> = files
        .iter()
        .filter(|path| check_file(path).is_ok())
        .map(|path| file_label(path))
        .collect();
    assert_eq!(passing, PASSING);
}

/// Run with `--nocapture` to see the count and the first difference of each failing file.
#[test]
fn conformance_pass_count() {
    let mut passed = Vec::new();
    let mut failed = Vec::new();
    let mut moves = 0;
    let mut warnings = WarningTally::new();
    let mut applying = Duration::ZERO;
    for path in ppn_files() {
        let label = file_label(&path);
        match check_file_counting(&path, &mut warnings, &mut applying) {
            Ok(count) => {
                moves += count;
                passed.push(label);
            }
            Err(difference) => failed.push(format!("{label}: {difference}")),
        }
    }
    println!(
        "conformance: {} passed ({moves} moves), {} failed",
        passed.len(),
        failed.len()
    );
    println!(
        "apply_move: {:.1} µs per move on average (this build's optimisation level)",
        applying.as_secs_f64() * 1e6 / moves.max(1) as f64
    );
    for failure in &failed {
        println!("  FAIL {failure}");
    }
    println!("passing: {passed:?}");
    for (code, (count, example)) in &warnings {
        println!("warning {code} x{count}, e.g. {example}");
    }
}
