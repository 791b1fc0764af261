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
    use expect_test::expect;

    use crate::fixture::{check_rename, diagnostic_codes};
    use crate::model::format::Format::Ppn;

    /// Two games with their own `home`, the cursor on the first game's use of it in a move.
    const TEXT: &str = "---\nMacros:\n  home: S@a1\n  'both': \"`home' `away'\"\n  away: M@h8\n...\n\
                        1. `h$0ome' 2. `away' {`home'} 3. `q'@d4\n---\nMacros: {home: T@b2}\n...\n1. `home'\n";

    #[test]
    fn a_metadata_macro_is_renamed_in_its_game_only() {
        check_rename(
            Ppn,
            TEXT,
            "base",
            expect![[r#"
                renames "home" at 7:5-7:9 "home"
                ---
                Macros:
                  base: S@a1
                  'both': "`base' `away'"
                  away: M@h8
                ...
                1. `base' 2. `away' {`home'} 3. `q'@d4
                ---
                Macros: {home: T@b2}
                ...
                1. `home'
            "#]],
        );
        // The renamed text has the problems it had.
        let before = TEXT.replace("$0", "");
        let after = before
            .replacen("home:", "base:", 1)
            .replacen("`home' `away'", "`base' `away'", 1)
            .replacen("1. `home'", "1. `base'", 1);
        assert_eq!(
            diagnostic_codes(Ppn, &after),
            diagnostic_codes(Ppn, &before)
        );
        // From the key too.
        check_rename(
            Ppn,
            "---\nMacros:\n  h$0ome: S@a1\n  'both': \"`home' `away'\"\n  away: M@h8\n...\n\
             1. `home' 2. `away' {`home'} 3. `q'@d4\n---\nMacros: {home: T@b2}\n...\n1. `home'\n",
            "base",
            expect![[r#"
                renames "home" at 3:3-3:7 "home"
                ---
                Macros:
                  base: S@a1
                  'both': "`base' `away'"
                  away: M@h8
                ...
                1. `base' 2. `away' {`home'} 3. `q'@d4
                ---
                Macros: {home: T@b2}
                ...
                1. `home'
            "#]],
        );
    }

    #[test]
    fn names_taken_built_in_or_unwritable_are_refused() {
        check_rename(
            Ppn,
            TEXT,
            "away",
            expect![[r#"
                renames "home" at 7:5-7:9 "home"
                refused: this game already has a macro named `away`: renaming to it would change what its uses stand for
            "#]],
        );
        // `q` is built in: a rename to it would take over its use in move 3.
        check_rename(
            Ppn,
            TEXT,
            "q",
            expect![[r#"
                renames "home" at 7:5-7:9 "home"
                refused: this game already has a macro named `q`: renaming to it would change what its uses stand for
            "#]],
        );
        check_rename(
            Ppn,
            TEXT,
            "two words",
            expect![[r#"
                renames "home" at 7:5-7:9 "home"
                refused: `two words` cannot be a macro name here: use letters, digits, `_`, `-` and `.`, starting with a letter, a digit or `_`
            "#]],
        );
        check_rename(
            Ppn,
            TEXT,
            "",
            expect![[r#"
                renames "home" at 7:5-7:9 "home"
                refused: a macro name cannot be empty
            "#]],
        );
        check_rename(
            Ppn,
            TEXT,
            "x'y",
            expect![[r#"
                renames "home" at 7:5-7:9 "home"
                refused: `x'y` cannot be a macro name here: use letters, digits, `_`, `-` and `.`, starting with a letter, a digit or `_`
            "#]],
        );
        check_rename(
            Ppn,
            "---\nMacros:\n  home: S@a1\n  'both': \"`home' `away'\"\n  away: M@h8\n...\n\
             1. `home' 2. `away' {`home'} 3. `$0q'@d4\n---\nMacros: {home: T@b2}\n...\n1. `home'\n",
            "z",
            expect![[r#"
                cannot rename: `q` is not defined in this game's metadata `Macros`, so it cannot be renamed
                refused: `q` is not defined in this game's metadata `Macros`, so it cannot be renamed
            "#]],
        );
        check_rename(
            Ppn,
            "---\nMacros:\n  home: S@a1\n  'both': \"`home' `away'\"\n  away: M@h8\n...\n\
             1. `home' 2. `away' {`home'} 3. `q'@$0d4\n---\nMacros: {home: T@b2}\n...\n1. `home'\n",
            "z",
            expect![[r#"
                nothing to rename
                refused: there is no macro here to rename
            "#]],
        );
    }
}
