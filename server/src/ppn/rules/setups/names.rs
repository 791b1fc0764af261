//! Normalisation of game and system names, so that `Nine Men's Morris`,
//! `nine-mens-morris` and `NineMensMorris` all name the same setup.

use crate::model::suggest::edit_distance;

/// The systems setups are organised by (after [`normalize_system`]).
pub(crate) const KNOWN_SYSTEMS: &[&str] = &[
    "alquerque",
    "checker",
    "chess",
    "domino",
    "go",
    "icehouse",
    "marble",
    "morris",
    "piecepack",
    "reversi",
    "stackpack",
    "tarot",
];

/// Prefixes naming a system, dropped from game names (`Checker Lasca` is `lasca`).
const SYSTEM_PREFIXES: &[&str] = &[
    "checker_",
    "chess_",
    "domino_",
    "icehouse_",
    "go_",
    "piecepack_",
    "stackpack_",
    "reversi_",
    "tarot_",
];

/// Lower snake case without quotes or hyphens; `draughts` is spelled `checkers`,
/// and a leading system name is dropped.  Words break at spaces and punctuation,
/// at lower-to-upper case changes and between digits and letters; a number joins
/// the word before it (`Go 9x9` is `go9_x9`, `12345ive` is `12345_ive`).
pub fn normalize_name(name: &str) -> String {
    // Written in one pass: the name of every game's setup is normalised on every replay.
    let mut plain = name
        .chars()
        .filter(|c| !matches!(c, '"' | '\'' | '-' | '’'))
        .map(transliterate)
        .peekable();
    let mut normalised = String::with_capacity(name.len() + 4);
    // The character before, while inside a run of ASCII letters and digits.
    let mut previous: Option<char> = None;
    while let Some(c) = plain.next() {
        if !c.is_ascii_alphanumeric() {
            previous = None;
            continue;
        }
        let starts_word = previous.is_none_or(|previous| {
            (previous.is_ascii_lowercase() && c.is_ascii_uppercase())
                || previous.is_ascii_digit() != c.is_ascii_digit()
                || (previous.is_ascii_uppercase()
                    && c.is_ascii_uppercase()
                    && plain.peek().is_some_and(char::is_ascii_lowercase))
        });
        // A word is all digits or has none; a number joins the word before it.
        if starts_word && !c.is_ascii_digit() && !normalised.is_empty() {
            normalised.push('_');
        }
        normalised.push(c.to_ascii_lowercase());
        previous = Some(c);
    }
    if normalised.contains("draughts") {
        normalised = normalised.replace("draughts", "checkers");
    }
    for prefix in SYSTEM_PREFIXES {
        if normalised.starts_with(prefix) {
            normalised.drain(..prefix.len());
        }
    }
    normalised
}

/// Accented letters as their plain ASCII letter (`Yoté` is `Yote`).
fn transliterate(c: char) -> char {
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => 'a',
        'è' | 'é' | 'ê' | 'ë' => 'e',
        'ì' | 'í' | 'î' | 'ï' => 'i',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' => 'o',
        'ù' | 'ú' | 'û' | 'ü' => 'u',
        'ñ' => 'n',
        'ç' => 'c',
        'À' | 'Á' | 'Â' | 'Ã' | 'Ä' | 'Å' => 'A',
        'È' | 'É' | 'Ê' | 'Ë' => 'E',
        'Ì' | 'Í' | 'Î' | 'Ï' => 'I',
        'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ö' => 'O',
        'Ù' | 'Ú' | 'Û' | 'Ü' => 'U',
        other => other,
    }
}

/// The canonical system name for a system name or alias; unknown systems are
/// returned normalised (they can still fall back to piecepack setups).
pub fn normalize_system(system: &str) -> String {
    let normalised = normalize_name(system);
    let icehouse_alias = matches!(normalised.as_str(), "pieces" | "pyramids")
        && system.to_lowercase().contains("icehouse");
    let canonical = match normalised.as_str() {
        _ if icehouse_alias => "icehouse",
        "checker" | "checkers" | "draughts" => "checker",
        "domino" | "dominoes" => "domino",
        "looney_pyramids" | "icehouse" => "icehouse",
        "marble" | "marbles" => "marble",
        "piecepack_stackpack" | "stackpack" => "stackpack",
        other => return other.to_string(),
    };
    canonical.to_string()
}

/// Up to five candidates closest to `target` by edit distance.
pub(crate) fn closest<'a>(target: &str, candidates: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut scored: Vec<(usize, &str)> = candidates
        .map(|candidate| (edit_distance(target, candidate), candidate))
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    let limit = (target.len() / 2).max(3);
    scored
        .into_iter()
        .filter(|(distance, candidate)| *distance <= limit || candidate.contains(target))
        .take(5)
        .map(|(_, candidate)| candidate.to_string())
        .collect()
}

/// `four_field_kono` as `Four Field Kono`.
pub fn title_case(snake: &str) -> String {
    snake
        .split('_')
        .map(|word| {
            let mut chars = word.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect::<String>(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_normalised_like_the_reference() {
        assert_eq!(normalize_name("Nine Men's Morris"), "nine_mens_morris");
        assert_eq!(normalize_name("Fuji-san"), "fujisan");
        assert_eq!(normalize_name("  Lines   of Action "), "lines_of_action");
        assert_eq!(normalize_name("English Draughts"), "english_checkers");
        assert_eq!(normalize_name("Checker Lasca"), "lasca");
        assert_eq!(normalize_name("The \"In\" Crowd"), "the_in_crowd");
        assert_eq!(normalize_name("Yoté"), "yote");
        assert_eq!(normalize_name("Chess960"), "chess960");
        assert_eq!(normalize_name("Cell Width"), "cell_width");
        // Expected values printed by the snakecase R package (numerals "left").
        assert_eq!(normalize_name("12345ive"), "12345_ive");
        assert_eq!(normalize_name("Go 9x9"), "go9_x9");
        assert_eq!(normalize_name("9x9 Go"), "9_x9_go");
        assert_eq!(normalize_name("abc123def456"), "abc123_def456");
        assert_eq!(normalize_name("HTMLParser"), "html_parser");
        assert_eq!(normalize_name("ABCDef"), "abc_def");
        assert_eq!(normalize_name("xml2Json"), "xml2_json");
        assert_eq!(normalize_name("NineMensMorris"), "nine_mens_morris");
        assert_eq!(normalize_name("Connect6"), "connect6");
    }

    /// The name normalised step by step, the way the reference's steps are described:
    /// quotes and hyphens out, runs of letters and digits cut into words, numbers joined
    /// to the word before, words joined by `_`.
    fn normalize_name_step_by_step(name: &str) -> String {
        let plain: String = name
            .chars()
            .filter(|c| !matches!(c, '"' | '\'' | '-' | '’'))
            .map(transliterate)
            .collect();
        let mut words: Vec<String> = Vec::new();
        for run in plain.split(|c: char| !c.is_ascii_alphanumeric()) {
            let chars: Vec<char> = run.chars().collect();
            for (i, &c) in chars.iter().enumerate() {
                let breaks = i == 0 || {
                    let previous = chars[i - 1];
                    (previous.is_ascii_lowercase() && c.is_ascii_uppercase())
                        || (previous.is_ascii_digit() != c.is_ascii_digit())
                        || (previous.is_ascii_uppercase()
                            && c.is_ascii_uppercase()
                            && chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase()))
                };
                let number_word = c.is_ascii_digit();
                match words.last_mut() {
                    Some(word) if !breaks || number_word => word.push(c.to_ascii_lowercase()),
                    _ => words.push(c.to_ascii_lowercase().to_string()),
                }
            }
        }
        let mut normalised = words.join("_").replace("draughts", "checkers");
        for prefix in SYSTEM_PREFIXES {
            if let Some(rest) = normalised.strip_prefix(prefix) {
                normalised = rest.to_string();
            }
        }
        normalised
    }

    #[test]
    fn names_normalised_in_one_pass_are_those_normalised_step_by_step() {
        let pieces = [
            "a",
            "B",
            "z",
            "Q",
            "0",
            "7",
            " ",
            "_",
            "-",
            "'",
            "\"",
            "’",
            "é",
            "Ö",
            "ß",
            "♠",
            "draughts",
            "Draughts",
            "chess ",
            "Checker ",
            "go_",
            "piecepack-",
            "Men's",
        ];
        let mut random = crate::test_random::Xorshift::new(12);
        for _ in 0..20_000 {
            let name = random.text_of(&pieces, 8);
            assert_eq!(
                normalize_name(&name),
                normalize_name_step_by_step(&name),
                "{name:?}"
            );
        }
    }

    #[test]
    fn system_aliases() {
        assert_eq!(normalize_system("Draughts"), "checker");
        assert_eq!(normalize_system("checkers"), "checker");
        assert_eq!(normalize_system("Marbles"), "marble");
        assert_eq!(normalize_system("Dominoes"), "domino");
        assert_eq!(normalize_system("Icehouse Pieces"), "icehouse");
        assert_eq!(normalize_system("Piecepack Stackpack"), "stackpack");
        assert_eq!(normalize_system("Looney Pyramids"), "icehouse");
        assert_eq!(normalize_system("Piecepack"), "piecepack");
    }

    #[test]
    fn suggestions_are_close_names() {
        let names = ["tablut", "brandubh", "xiangqi", "japan"];
        assert_eq!(closest("tablit", names.into_iter()), vec!["tablut"]);
    }
}
