//! Renaming a macro of a game's metadata: its key and every use of it in the game (in
//! moves and in other macros' values). Macros of a setup or built in have no key in the
//! file to rename, so they cannot be renamed.

use std::ops::Range;

use crate::ppn::document::PpnDocument;
use crate::ppn::features::navigation::{macro_at, macro_info, metadata_macro_keys, references};

/// The name at `offset` that can be renamed, with the text to select for it (the name
/// alone, without backtick and quote); `Ok(None)` where there is no macro, and an error
/// saying why where there is one that cannot be renamed.
pub fn prepare_rename(
    analysis: &PpnDocument,
    offset: usize,
) -> Result<Option<(Range<usize>, String)>, String> {
    let Some(found) = macro_at(analysis, offset) else {
        return Ok(None);
    };
    let defined = metadata_macro_keys(&analysis.text, &found.game)
        .into_iter()
        .any(|(name, _)| name == found.name);
    if !defined {
        return Err(format!(
            "`{}` is not defined in this game's metadata `Macros`, so it cannot be renamed",
            found.name
        ));
    }
    Ok(Some((name_range(&analysis.text, &found.range), found.name)))
}

/// The name inside a use (`` `name' ``) or a key (the name itself).
fn name_range(text: &str, range: &Range<usize>) -> Range<usize> {
    if text[range.clone()].starts_with('`') && range.len() >= 2 {
        range.start + 1..range.end - 1
    } else {
        range.clone()
    }
}

/// Why `name` cannot be a macro's new name, if it cannot: it must be written the same in
/// the movetext and as an unquoted YAML key.
fn invalid_name(name: &str) -> Option<String> {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return Some("a macro name cannot be empty".to_string());
    };
    let fits = |c: char| c.is_alphanumeric() || c == '_' || c == '-' || c == '.';
    if !(first.is_alphanumeric() || first == '_') || !chars.all(fits) {
        return Some(format!(
            "`{name}` cannot be a macro name here: use letters, digits, `_`, `-` and `.`, \
             starting with a letter, a digit or `_`"
        ));
    }
    None
}

/// The edits that rename the macro at `offset` to `new_name` in its game.
pub fn rename(
    analysis: &PpnDocument,
    offset: usize,
    new_name: &str,
) -> Result<Vec<(Range<usize>, String)>, String> {
    let Some((_, old_name)) = prepare_rename(analysis, offset)? else {
        return Err("there is no macro here to rename".to_string());
    };
    if new_name == old_name {
        return Ok(Vec::new());
    }
    if let Some(why) = invalid_name(new_name) {
        return Err(why);
    }
    let found = macro_at(analysis, offset).ok_or("there is no macro here to rename")?;
    let taken = macro_info(&analysis.text, &found.game, new_name)
        .origin
        .is_some();
    let used = !references_to(analysis, &found.game, new_name).is_empty();
    if taken || used {
        return Err(format!(
            "this game already has a macro named `{new_name}`: renaming to it would change \
             what its uses stand for"
        ));
    }
    let text = &analysis.text;
    let mut edits: Vec<(Range<usize>, String)> = references(analysis, offset, true)
        .iter()
        .map(|range| (name_range(text, range), new_name.to_string()))
        .collect();
    edits.sort_by_key(|(range, _)| range.start);
    edits.dedup();
    Ok(edits)
}

/// The uses of `name` written in the game (none when it is used nowhere).
fn references_to(
    analysis: &PpnDocument,
    game: &crate::ppn::features::locate::GameAt<'_>,
    name: &str,
) -> Vec<Range<usize>> {
    let text = &analysis.text;
    let moves = crate::ppn::features::locate::macro_uses_in_moves(text, game.moves());
    let values = game
        .game
        .metadata
        .value_range(text, "Macros")
        .map(|block| crate::ppn::features::locate::macro_uses(text, block))
        .unwrap_or_default();
    moves
        .into_iter()
        .chain(values)
        .filter(|found| found.name == name)
        .map(|found| found.range)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::edit::with_replacements;

    const TEXT: &str = "---\nMacros:\n  home: S@a1\n  'both': \"`home' `away'\"\n  away: M@h8\n...\n\
                        1. `home' 2. `away' {`home'} 3. `q'@d4\n---\nMacros: {home: T@b2}\n...\n1. `home'\n";

    fn at(needle: &str, n: usize) -> usize {
        TEXT.match_indices(needle).nth(n).expect("in the text").0
    }

    #[test]
    fn a_metadata_macro_is_renamed_in_its_game_only() {
        let analysis = PpnDocument::new(TEXT.to_string());
        let use_in_move = at("`home'", 1) + 2;
        assert_eq!(
            prepare_rename(&analysis, use_in_move),
            Ok(Some((
                at("`home'", 1) + 1..at("`home'", 1) + 5,
                "home".to_string()
            )))
        );
        let edits = rename(&analysis, use_in_move, "base").expect("renamed");
        let renamed = with_replacements(TEXT, &edits);
        assert_eq!(
            renamed,
            TEXT.replacen("home:", "base:", 1)
                .replacen("`home' `away'", "`base' `away'", 1)
                .replacen("1. `home'", "1. `base'", 1)
        );
        let after = PpnDocument::new(renamed);
        let codes = |a: &PpnDocument| a.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>();
        assert_eq!(codes(&after), codes(&analysis));
        // From the key too.
        let from_key = rename(&analysis, at("home:", 0) + 1, "base").expect("renamed");
        assert_eq!(from_key.len(), 3);
    }

    #[test]
    fn names_taken_built_in_or_unwritable_are_refused() {
        let analysis = PpnDocument::new(TEXT.to_string());
        let home = at("`home'", 1) + 2;
        assert!(rename(&analysis, home, "away")
            .unwrap_err()
            .contains("already has"));
        // `q` is built in: a rename to it would take over its use in move 3.
        assert!(rename(&analysis, home, "q")
            .unwrap_err()
            .contains("already has"));
        assert!(rename(&analysis, home, "two words")
            .unwrap_err()
            .contains("cannot be"));
        assert!(rename(&analysis, home, "").is_err());
        assert!(rename(&analysis, home, "x'y").is_err());
        assert!(prepare_rename(&analysis, at("`q'", 0) + 1)
            .unwrap_err()
            .contains("not defined"));
        assert_eq!(prepare_rename(&analysis, at("d4", 0)), Ok(None));
    }
}
