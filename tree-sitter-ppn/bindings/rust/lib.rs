//! Portable Piecepack Notation (PPN) support for the [tree-sitter] parsing library.
//!
//! Use [`LANGUAGE`] with a tree-sitter [`Parser`]:
//!
//! ```
//! let mut parser = tree_sitter::Parser::new();
//! parser
//!     .set_language(&tree_sitter_ppn::LANGUAGE.into())
//!     .expect("the PPN grammar matches the tree-sitter version");
//! let tree = parser.parse("1. e2-e4 1... e7-e5", None).expect("no timeout was set");
//! assert!(!tree.root_node().has_error());
//! ```
//!
//! [`Parser`]: https://docs.rs/tree-sitter/0.27.1/tree_sitter/struct.Parser.html
//! [tree-sitter]: https://tree-sitter.github.io/

use tree_sitter_language::LanguageFn;

extern "C" {
    fn tree_sitter_ppn() -> *const ();
}

/// The tree-sitter [`LanguageFn`] for PPN.
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_ppn) };

/// The content of the [`node-types.json`] file for this grammar.
///
/// [`node-types.json`]: https://tree-sitter.github.io/tree-sitter/using-parsers/6-static-node-types
pub const NODE_TYPES: &str = include_str!("../../src/node-types.json");

/// Syntax highlighting query.
pub const HIGHLIGHTS_QUERY: &str = include_str!("../../queries/highlights.scm");

/// Language injection query (YAML inside the metadata block).
pub const INJECTIONS_QUERY: &str = include_str!("../../queries/injections.scm");

/// Folding ranges query.
pub const FOLDS_QUERY: &str = include_str!("../../queries/folds.scm");

/// Text objects query (games, moves, comments).
pub const TEXTOBJECTS_QUERY: &str = include_str!("../../queries/textobjects.scm");

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use tree_sitter::{Language, Node, Parser, Query, Tree};

    fn language() -> Language {
        super::LANGUAGE.into()
    }

    fn parse(text: &str) -> Tree {
        let mut parser = Parser::new();
        parser
            .set_language(&language())
            .expect("the PPN grammar matches the tree-sitter version");
        parser.parse(text, None).expect("no timeout was set")
    }

    /// Every ERROR or MISSING node, as `kind at line:column` (1-based).
    fn problems(node: Node, found: &mut Vec<String>) {
        if node.is_error() || node.is_missing() {
            let start = node.start_position();
            found.push(format!(
                "{} at {}:{}",
                node.to_sexp(),
                start.row + 1,
                start.column + 1
            ));
            return;
        }
        if !node.has_error() {
            return;
        }
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            problems(child, found);
        }
    }

    fn ppn_files(dir: &Path, files: &mut Vec<PathBuf>) {
        let entries = std::fs::read_dir(dir)
            .unwrap_or_else(|error| panic!("cannot read {}: {error}", dir.display()));
        for entry in entries {
            let path = entry.expect("directory entry is readable").path();
            if path.is_dir() {
                if path
                    .file_name()
                    .is_some_and(|name| name == "reference-quirks")
                {
                    continue;
                }
                ppn_files(&path, files);
            } else if path.extension().is_some_and(|ext| ext == "ppn") {
                files.push(path);
            }
        }
    }

    #[test]
    fn loads_the_grammar() {
        let mut parser = Parser::new();
        parser
            .set_language(&language())
            .expect("the PPN grammar matches the tree-sitter version");
    }

    #[test]
    fn every_query_compiles() {
        for (name, source) in [
            ("highlights", super::HIGHLIGHTS_QUERY),
            ("injections", super::INJECTIONS_QUERY),
            ("folds", super::FOLDS_QUERY),
            ("textobjects", super::TEXTOBJECTS_QUERY),
        ] {
            if let Err(error) = Query::new(&language(), source) {
                panic!("{name} query: {error}");
            }
        }
    }

    #[test]
    fn conformance_files_parse_without_errors() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance");
        let mut files = Vec::new();
        ppn_files(&root, &mut files);
        files.sort();
        assert!(
            files.len() >= 100,
            "expected the conformance corpus under {}, found {} files",
            root.display(),
            files.len()
        );
        let mut failures = Vec::new();
        for file in &files {
            let text = std::fs::read_to_string(file)
                .unwrap_or_else(|error| panic!("cannot read {}: {error}", file.display()));
            let tree = parse(&text);
            let mut found = Vec::new();
            problems(tree.root_node(), &mut found);
            for problem in found {
                failures.push(format!("{}: {problem}", file.display()));
            }
        }
        assert!(
            failures.is_empty(),
            "syntax errors:\n{}",
            failures.join("\n")
        );
    }

    #[test]
    fn conformance_games_and_moves_are_where_the_reference_puts_them() {
        // The reference splits files into games and games into moves; the number of
        // games and of move labels (MoveNumbers, `;`, and moves before the first
        // MoveNumber) must agree with what it computed.
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance");
        let mut files = Vec::new();
        ppn_files(&root, &mut files);
        files.sort();
        let mut mismatches = Vec::new();
        let mut compared = 0;
        for file in &files {
            let expected_path = file.with_extension("json");
            let Ok(expected) = std::fs::read_to_string(&expected_path) else {
                continue;
            };
            let text = std::fs::read_to_string(file).expect("the file was listed");
            // The reference expands braces before it splits at `;`, so `?S{a,2}@>90;`
            // yields one state per alternative: the count is no longer syntactic.
            if text
                .split_whitespace()
                .any(|word| word.contains('}') && word.contains(';'))
            {
                continue;
            }
            compared += 1;
            let tree = parse(&text);
            let ours = count_states(tree.root_node());
            let Some(theirs) = expected_state_counts(&expected) else {
                continue;
            };
            if theirs != ours {
                mismatches.push(format!(
                    "{}: expected states per game {theirs:?}, grammar gives {ours:?}",
                    file.display()
                ));
            }
        }
        assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
        assert!(compared >= 200, "only {compared} files were compared");
    }

    /// States per game: the setup plus one per MoveNumber or `;`, plus one for moves
    /// written before the first of those.
    fn count_states(root: Node) -> Vec<usize> {
        let mut counts = Vec::new();
        let mut cursor = root.walk();
        for game in root.children(&mut cursor) {
            let mut states = 1;
            let mut game_cursor = game.walk();
            for part in game.children(&mut game_cursor) {
                if part.kind() != "movetext" {
                    continue;
                }
                let mut labelled = false;
                let mut unlabelled_moves = false;
                let mut item_cursor = part.walk();
                for item in part.children(&mut item_cursor) {
                    match item.kind() {
                        "move_number" | "semicolon" => {
                            labelled = true;
                            states += 1;
                        }
                        "move" | "comment" if !labelled => unlabelled_moves = true,
                        _ => {}
                    }
                }
                if unlabelled_moves {
                    states += 1;
                }
            }
            counts.push(states);
        }
        counts
    }

    /// Reads `"games": [{"states": [...]}, ...]` without a JSON dependency: counts the
    /// `"move":` keys of each game. `None` when a game carries an error.
    fn expected_state_counts(json: &str) -> Option<Vec<usize>> {
        if json.contains("\"error\"") {
            return None;
        }
        let games = json.split("\"states\"").skip(1);
        Some(
            games
                .map(|game| game.matches("\"move\":").count())
                .collect(),
        )
    }

    /// The text of each game and of its movetext.
    fn games_and_movetexts(text: &str) -> Vec<(String, String)> {
        let tree = parse(text);
        let root = tree.root_node();
        let mut cursor = root.walk();
        root.children(&mut cursor)
            .filter(|node| node.kind() == "game")
            .map(|game| {
                let mut game_cursor = game.walk();
                let movetext = game
                    .children(&mut game_cursor)
                    .find(|part| part.kind() == "movetext")
                    .map_or(String::new(), |movetext| {
                        text[movetext.byte_range()].to_owned()
                    });
                (text[game.byte_range()].to_owned(), movetext)
            })
            .collect()
    }

    /// Editors' text objects and motions skip a node that reaches the end of the file, so
    /// a game (and its movetext) ends at its last item: the whitespace after it, up to the
    /// end of the file or the next `---` line, belongs to no game.
    #[test]
    fn whitespace_after_a_game_belongs_to_no_game() {
        let text = "---\nGameType: Chess\n...\n1. e2-e4 {ok}\n\n---\n...\n1. d2-d4\n \t\n";
        assert_eq!(
            games_and_movetexts(text),
            vec![
                (
                    "---\nGameType: Chess\n...\n1. e2-e4 {ok}".to_owned(),
                    "\n1. e2-e4 {ok}".to_owned()
                ),
                ("---\n...\n1. d2-d4".to_owned(), "\n1. d2-d4".to_owned()),
            ]
        );
        // The only game of a file without `---`, with CRLF line ends.
        assert_eq!(
            games_and_movetexts("1. a4-a3 1... c5-c3\r\n\r\n"),
            vec![(
                "1. a4-a3 1... c5-c3".to_owned(),
                "1. a4-a3 1... c5-c3".to_owned()
            )]
        );
        // Metadata ended by a blank line, then nothing but blank lines.
        assert_eq!(
            games_and_movetexts("GameType: Chess\n\n\n"),
            vec![("GameType: Chess\n".to_owned(), String::new())]
        );
        // Empty games, and a file of whitespace alone.
        assert_eq!(
            games_and_movetexts("---\n\n---\n  \n"),
            vec![
                ("---".to_owned(), String::new()),
                ("---".to_owned(), String::new())
            ]
        );
        assert_eq!(games_and_movetexts(" \n\n"), vec![]);
        for text in [
            "---\nGameType: Chess\n...\n1. e2-e4 {ok}\n\n---\n...\n1. d2-d4\n \t\n",
            "---\n\n---\n  \n",
            " \n\n",
            "1. a4-a3\n-b2\n\n",
        ] {
            let mut found = Vec::new();
            problems(parse(text).root_node(), &mut found);
            assert_eq!(found, Vec::<String>::new(), "{text:?}");
        }
        // A line starting with `-` that is not `---` stays in the movetext.
        assert_eq!(
            games_and_movetexts("1. a4-a3\n-b2\n\n"),
            vec![("1. a4-a3\n-b2".to_owned(), "1. a4-a3\n-b2".to_owned())]
        );
    }

    #[test]
    fn unclosed_comment_is_reported_where_it_opens() {
        let tree = parse("1. e2-e4 { never closed\n2. d2-d4");
        let mut found = Vec::new();
        problems(tree.root_node(), &mut found);
        assert_eq!(found, vec!["(MISSING \"}\") at 2:9"]);
    }
}
