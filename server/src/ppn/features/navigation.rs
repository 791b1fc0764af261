//! Macros across a game: where each one comes from, go to definition and find references.
//!
//! Macros belong to one game: a game's metadata `Macros` override its setup's macros,
//! which override the built-in ones. Only those of the metadata are written in the file,
//! so only they have a definition to go to.

use std::ops::Range;

use serde_yaml::{Mapping, Value};

use crate::ppn::document::PpnDocument;
use crate::ppn::features::locate::{
    game_at, macro_uses, macro_uses_in_moves, touches, GameAt, MacroUse,
};
use crate::ppn::reader::macros::{MacroError, MacroTable};
use crate::ppn::reader::metadata::scalar_text;
use crate::ppn::replay::UNSEEDED_SETUP_SEED;
use crate::ppn::rules::setups::{setup_from_metadata_seeded, SetupContext};

/// Where the value of a macro comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MacroOrigin {
    /// The game's metadata `Macros`; `key` is the name as written there.
    Metadata {
        key: Range<usize>,
    },
    /// The game's setup (`GameType` / `SetUp`).
    Setup,
    BuiltIn,
}

/// A macro as the movetext of one game sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MacroInfo {
    pub name: String,
    /// What `` `name' `` stands for, or why it stands for nothing.
    pub value: Result<String, String>,
    /// `None` for a name no layer defines.
    pub origin: Option<MacroOrigin>,
}

/// The macros the game's setup defines (the setup is built again: the replay keeps only
/// the merged table).
pub fn setup_macros(game: &GameAt<'_>) -> Vec<(String, String)> {
    let metadata = &game.game.metadata;
    let Some(value) = ["SetUp", "GameType"]
        .into_iter()
        .find_map(|key| metadata.get(key))
    else {
        return Vec::new();
    };
    let context = SetupContext::from_metadata(&Value::Mapping(Mapping::clone(&metadata.mapping)));
    setup_from_metadata_seeded(value, &context, UNSEEDED_SETUP_SEED)
        .map(|setup| setup.macros)
        .unwrap_or_default()
}

/// The macro names of the metadata `Macros`, in the order written, each with where its
/// key is in the file.
pub fn metadata_macro_keys(text: &str, game: &GameAt<'_>) -> Vec<(String, Range<usize>)> {
    let Some(Value::Mapping(macros)) = game.game.metadata.get("Macros") else {
        return Vec::new();
    };
    let Some(block) = game.game.metadata.value_range(text, "Macros") else {
        return Vec::new();
    };
    let mut keys: Vec<(String, Range<usize>)> = macros
        .keys()
        .filter_map(scalar_text)
        .filter_map(|name| {
            let key = find_key(text, block.clone(), &name)?;
            Some((name, key))
        })
        .collect();
    keys.sort_by_key(|(_, range)| range.start);
    keys
}

/// Where `name` is written as a mapping key in `block`: at the start of a line or after
/// `{` or `,`, perhaps quoted, followed by `:`.
fn find_key(text: &str, block: Range<usize>, name: &str) -> Option<Range<usize>> {
    let slice = text.get(block.clone())?;
    let bytes = slice.as_bytes();
    slice.match_indices(name).find_map(|(at, _)| {
        let end = at + name.len();
        let quote = match (at.checked_sub(1).map(|i| bytes[i]), bytes.get(end)) {
            (Some(open @ (b'"' | b'\'')), Some(close)) if open == *close => 1,
            _ => 0,
        };
        let before = slice[..at - quote].trim_end_matches([' ', '\t']);
        let starts_key =
            before.is_empty() || before.ends_with(['\n', '\r', '{', ',']) || at - quote == 0;
        let after = slice[end + quote..].trim_start_matches([' ', '\t']);
        let ends_key = after.starts_with(':');
        (starts_key && ends_key).then(|| block.start + at..block.start + end)
    })
}

/// Everything known about macro `name` in `game`.
pub fn macro_info(text: &str, game: &GameAt<'_>, name: &str) -> MacroInfo {
    let state = game.setup_state();
    let value = match state.as_ref().map(|state| state.macros().resolve(name)) {
        Some(Some(Ok(value))) => Ok(value.to_string()),
        Some(Some(Err(MacroError::Cycle))) => Err(format!(
            "`{name}` uses itself, directly or through other macros, so it has no value"
        )),
        Some(Some(Err(error))) => Err(error.message(name)),
        Some(None) | None => Err(format!("there is no macro named `{name}`")),
    };
    let origin = if let Some((_, key)) = metadata_macro_keys(text, game)
        .into_iter()
        .find(|(key, _)| key == name)
    {
        Some(MacroOrigin::Metadata { key })
    } else if setup_macros(game).iter().any(|(key, _)| key == name) {
        Some(MacroOrigin::Setup)
    } else if MacroTable::builtins().resolve(name).is_some() {
        Some(MacroOrigin::BuiltIn)
    } else {
        None
    };
    MacroInfo {
        name: name.to_string(),
        value,
        origin,
    }
}

/// A macro name under the cursor: a use (in a move or in another macro's value) or the
/// key that defines it in the metadata.
#[derive(Clone, Debug)]
pub struct MacroAt<'a> {
    pub game: GameAt<'a>,
    pub name: String,
    /// The use (backtick through quote) or the key.
    pub range: Range<usize>,
}

/// The macro named at `offset`, if any.
pub fn macro_at(analysis: &PpnDocument, offset: usize) -> Option<MacroAt<'_>> {
    let text = &analysis.text;
    let game = game_at(analysis, offset)?;
    // Only the moves around the offset can have a macro use there.
    let moves = game.moves();
    let after = moves.partition_point(|record| record.source().start <= offset);
    let near = &moves[after.saturating_sub(16)..after];
    let found = metadata_macro_keys(text, &game)
        .into_iter()
        .chain(
            metadata_macro_uses(text, &game)
                .into_iter()
                .chain(macro_uses_in_moves(text, near))
                .map(|found| (found.name, found.range)),
        )
        .find(|(_, range)| touches(range, offset))?;
    Some(MacroAt {
        game,
        name: found.0,
        range: found.1,
    })
}

fn metadata_macro_uses(text: &str, game: &GameAt<'_>) -> Vec<MacroUse> {
    game.game
        .metadata
        .value_range(text, "Macros")
        .map(|block| macro_uses(text, block))
        .unwrap_or_default()
}

/// Every macro name written in the game: the metadata keys, the uses in macro values and
/// in moves.
fn macro_uses_and_keys(text: &str, game: &GameAt<'_>) -> Vec<(String, Range<usize>)> {
    let moves = game.moves();
    metadata_macro_keys(text, game)
        .into_iter()
        .chain(
            metadata_macro_uses(text, game)
                .into_iter()
                .chain(macro_uses_in_moves(text, moves))
                .map(|found| (found.name, found.range)),
        )
        .collect()
}

/// Go to definition: the metadata key that defines the macro at `offset`.
pub fn definition(analysis: &PpnDocument, offset: usize) -> Option<Range<usize>> {
    let found = macro_at(analysis, offset)?;
    metadata_macro_keys(&analysis.text, &found.game)
        .into_iter()
        .find(|(name, _)| *name == found.name)
        .map(|(_, key)| key)
}

/// Find references: every use of the macro at `offset` in its game (moves and other
/// macros' values), in document order, and its metadata key if `include_definition`.
pub fn references(
    analysis: &PpnDocument,
    offset: usize,
    include_definition: bool,
) -> Vec<Range<usize>> {
    let text = &analysis.text;
    let Some(found) = macro_at(analysis, offset) else {
        return Vec::new();
    };
    let keys = metadata_macro_keys(text, &found.game);
    let mut ranges: Vec<Range<usize>> = macro_uses_and_keys(text, &found.game)
        .into_iter()
        .filter(|(name, range)| {
            *name == found.name && (include_definition || !keys.iter().any(|(_, key)| key == range))
        })
        .map(|(_, range)| range)
        .collect();
    ranges.sort_by_key(|range| range.start);
    ranges.dedup();
    ranges
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;
    use crate::fixture::check_navigation;
    use crate::model::format::Format::Ppn;

    const TEXT: &str = "---\nMacros:\n  home: S@a1\n  'both': \"`home' `away'\"\n  away: M@h8\n...\n1. `home' 2. `away' {`home'} 3. `q'@d4 `K'@e1\n---\nMacros: {home: T@b2}\n...\n1. `home'\n";

    fn analysis() -> PpnDocument {
        PpnDocument::new(TEXT.to_string())
    }

    fn nth(needle: &str, n: usize) -> usize {
        TEXT.match_indices(needle)
            .nth(n)
            .map(|(at, _)| at)
            .expect("the test text holds it")
    }

    #[test]
    fn keys_of_the_metadata_macros_are_found_quoted_or_not() {
        let analysis = analysis();
        let games = crate::ppn::features::locate::games(&analysis);
        let keys = metadata_macro_keys(&analysis.text, &games[0]);
        let found: Vec<(&str, &str)> = keys
            .iter()
            .map(|(name, range)| (name.as_str(), &TEXT[range.clone()]))
            .collect();
        assert_eq!(
            found,
            [("home", "home"), ("both", "both"), ("away", "away")]
        );
        assert_eq!(keys[0].1.start, nth("home:", 0));
        let flow = metadata_macro_keys(&analysis.text, &games[1]);
        assert_eq!(flow.len(), 1);
        assert_eq!(flow[0].1.start, nth("home: T", 0));
    }

    #[test]
    fn definitions_come_only_from_the_metadata() {
        check_navigation(
            Ppn,
            "---\nMacros:\n  home: S@a1\n  'both': \"`home' `away'\"\n  away: M@h8\n...\n\
             1. `h$0ome' 2. `away' {`home'} 3. `q'@d4 `K'@e1\n---\nMacros: {home: T@b2}\n...\n1. `home'\n",
            expect![[r#"
                defined at 3:3-3:7 "home"
                used at 3:3-3:7 "home"
                used at 4:12-4:18 "`home'"
                used at 7:4-7:10 "`home'"
            "#]],
        );
        // The use inside another macro's value counts too.
        check_navigation(
            Ppn,
            "---\nMacros:\n  home: S@a1\n  'both': \"`$0home' `away'\"\n  away: M@h8\n...\n\
             1. `home' 2. `away' {`home'} 3. `q'@d4 `K'@e1\n---\nMacros: {home: T@b2}\n...\n1. `home'\n",
            expect![[r#"
                defined at 3:3-3:7 "home"
                used at 3:3-3:7 "home"
                used at 4:12-4:18 "`home'"
                used at 7:4-7:10 "`home'"
            "#]],
        );
        // A built-in has no definition in the file, and the second game has its own.
        check_navigation(
            Ppn,
            "---\nMacros:\n  home: S@a1\n  'both': \"`home' `away'\"\n  away: M@h8\n...\n\
             1. `home' 2. `away' {`home'} 3. `$0q'@d4 `K'@e1\n---\nMacros: {home: T@b2}\n...\n1. `home'\n",
            expect![[r#"
                no definition
                used at 7:33-7:36 "`q'"
            "#]],
        );
        check_navigation(
            Ppn,
            "---\nMacros:\n  home: S@a1\n  'both': \"`home' `away'\"\n  away: M@h8\n...\n\
             1. `home' 2. `away' {`home'} 3. `q'@d4 `K'@e1\n---\nMacros: {home: T@b2}\n...\n1. `$0home'\n",
            expect![[r#"
                defined at 9:10-9:14 "home"
                used at 9:10-9:14 "home"
                used at 11:4-11:10 "`home'"
            "#]],
        );
    }

    #[test]
    fn references_are_the_uses_in_moves_and_values_of_the_same_game() {
        // From the key; the `home' in the comment is not a use.
        check_navigation(
            Ppn,
            "---\nMacros:\n  h$0ome: S@a1\n  'both': \"`home' `away'\"\n  away: M@h8\n...\n\
             1. `home' 2. `away' {`home'} 3. `q'@d4 `K'@e1\n---\nMacros: {home: T@b2}\n...\n1. `home'\n",
            expect![[r#"
                defined at 3:3-3:7 "home"
                used at 3:3-3:7 "home"
                used at 4:12-4:18 "`home'"
                used at 7:4-7:10 "`home'"
            "#]],
        );
        check_navigation(
            Ppn,
            "---\nMacros:\n  home: S@a1\n  'both': \"`home' `away'\"\n  away: M@h8\n...\n\
             1. `home' 2. `away' {$0`home'} 3. `q'@d4 `K'@e1\n---\nMacros: {home: T@b2}\n...\n1. `home'\n",
            expect![[r#"
                no definition
            "#]],
        );
        // Without the definition, the uses alone.
        let analysis = analysis();
        let key = nth("home:", 0);
        let uses: Vec<Range<usize>> = [nth("`home'", 0), nth("`home'", 1)]
            .iter()
            .map(|&at| at..at + 6)
            .collect();
        assert_eq!(references(&analysis, key + 1, false), uses);
    }

    #[test]
    fn origins_and_values() {
        let analysis = analysis();
        let games = crate::ppn::features::locate::games(&analysis);
        let home = macro_info(&analysis.text, &games[0], "home");
        assert_eq!(home.value, Ok("S@a1".to_string()));
        let key = nth("home:", 0);
        assert_eq!(
            home.origin,
            Some(MacroOrigin::Metadata { key: key..key + 4 })
        );
        let both = macro_info(&analysis.text, &games[0], "both");
        assert_eq!(both.value, Ok("S@a1 M@h8".to_string()));
        let queen = macro_info(&analysis.text, &games[0], "q");
        assert_eq!(queen.value, Ok("\u{265b}".to_string()));
        assert_eq!(queen.origin, Some(MacroOrigin::BuiltIn));
        let unknown = macro_info(&analysis.text, &games[0], "nope");
        assert_eq!(unknown.origin, None);
        assert!(unknown.value.is_err());
    }
}
