//! Concrete syntax of PPN files: the tree-sitter parse tree and the syntax errors in it.
//!
//! The grammar (crate `tree-sitter-ppn`) splits a file into games (`game`: an optional
//! `game_separator`, `metadata` / `metadata_end`, and `movetext`); movetext into
//! `comment`, `move_number`, `semicolon` and `move`; and a move into `move_token`,
//! `piece_spec`, `location`, `piece_id`, `macro`, `brace_expansion`, `number`,
//! `degrees` and `other` (text kept rather than rejected).

pub mod segments;

use std::cell::RefCell;
use std::ops::Range;

use tree_sitter::{Language, Node, Parser, Tree};

/// The tree-sitter language for PPN.
pub fn language() -> Language {
    tree_sitter_ppn::LANGUAGE.into()
}

fn new_parser() -> Parser {
    let mut parser = Parser::new();
    parser
        .set_language(&language())
        .expect("the PPN grammar is generated for the linked tree-sitter version");
    parser
}

thread_local! {
    static PARSER: RefCell<Parser> = RefCell::new(new_parser());
}

/// Parses `text`. With `old`, a tree of the previous text that the caller has already
/// updated with [`Tree::edit`], only the edited region is re-parsed.
pub fn parse(text: &str, old: Option<&Tree>) -> Tree {
    PARSER.with(|parser| {
        parser
            .borrow_mut()
            .parse(text, old)
            .expect("parsing only stops early on a timeout or cancellation, never set here")
    })
}

/// A syntax error: where it is (a byte range of the text; empty where something is
/// missing), a stable code for tools, and a message for players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub range: Range<usize>,
    pub code: &'static str,
    pub message: String,
}

/// A `{` that opens a comment is never closed by a `}`.
pub const UNCLOSED_COMMENT: &str = "unclosed-comment";
/// A closing bracket, quote or a required part of a move is missing.
pub const MISSING_TOKEN: &str = "missing-token";
/// A closing `]`, `)` or `}` that closes nothing.
pub const UNEXPECTED_TOKEN: &str = "unexpected-token";
/// Any other text the grammar cannot read.
pub const SYNTAX_ERROR: &str = "syntax-error";

/// One [`SyntaxError`] per ERROR or MISSING node of `tree` (the tree of `text`), in
/// document order.
pub fn syntax_errors(tree: &Tree, text: &str) -> Vec<SyntaxError> {
    let mut errors = Vec::new();
    // Depth first on a stack of its own, not by recursion: nested braces make the tree as
    // deep as the file is long. Each node comes with its parent, because asking a node
    // for its parent walks down from the root (O(depth) each, O(depth²) in all).
    let mut pending = vec![(tree.root_node(), None)];
    let mut cursor = tree.walk();
    while let Some((node, parent)) = pending.pop() {
        if node.is_missing() {
            errors.push(missing_error(node, parent));
        } else if node.is_error() {
            errors.push(error_node_error(node, text));
        } else if node.has_error() {
            // Reversed, so that the first child comes off the stack first.
            let first = pending.len();
            pending.extend(node.children(&mut cursor).map(|child| (child, Some(node))));
            pending[first..].reverse();
        }
    }
    errors
}

fn missing_error(node: Node, parent: Option<Node>) -> SyntaxError {
    let at = node.start_byte();
    let kind = node.kind();
    if let Some(comment) = parent.filter(|parent| parent.kind() == "comment") {
        let open = comment.start_byte();
        return SyntaxError {
            range: open..open + 1,
            code: UNCLOSED_COMMENT,
            message: "comment is never closed: add a `}` where it ends".to_owned(),
        };
    }
    let message = match kind {
        "}" => "missing `}` to close the brace expansion".to_owned(),
        ")" => "missing `)` to close the coordinates".to_owned(),
        "]" => "missing `]` to close the slice".to_owned(),
        "'" => "missing `'` to close the macro name".to_owned(),
        "piece_spec" => "missing PieceSpec (which piece?)".to_owned(),
        "degrees" => "missing rotation angle in degrees".to_owned(),
        "macro_name" => "missing macro name".to_owned(),
        "location" => "missing Location".to_owned(),
        "piece_id" => "missing PieceId".to_owned(),
        other if other.chars().all(|c| !c.is_alphanumeric()) => format!("missing `{other}`"),
        other => format!("missing {}", other.replace('_', " ")),
    };
    SyntaxError {
        range: at..at,
        code: MISSING_TOKEN,
        message,
    }
}

fn error_node_error(node: Node, text: &str) -> SyntaxError {
    let range = trim_whitespace(text, node.byte_range());
    let snippet = text.get(range.clone()).unwrap_or_default();
    let mut cursor = node.walk();
    let holds_comment_text = node
        .children(&mut cursor)
        .any(|child| child.kind() == "comment_text");
    if snippet.starts_with('{') && holds_comment_text {
        return SyntaxError {
            range: range.start..range.start + 1,
            code: UNCLOSED_COMMENT,
            message: "comment is never closed: add a `}` where it ends".to_owned(),
        };
    }
    if let Some(closer @ (']' | ')' | '}')) = snippet.chars().next() {
        let opener = match closer {
            ']' => '[',
            ')' => '(',
            _ => '{',
        };
        return SyntaxError {
            range,
            code: UNEXPECTED_TOKEN,
            message: format!("unexpected `{closer}`: there is no `{opener}` to close"),
        };
    }
    SyntaxError {
        message: invalid_text_message(snippet, text.get(..range.start).unwrap_or_default()),
        range,
        code: SYNTAX_ERROR,
    }
}

/// Explains why `snippet` (an ERROR node's text, preceded by `before`) is not valid.
fn invalid_text_message(snippet: &str, before: &str) -> String {
    if before.ends_with('}') {
        return "a comment must be followed by whitespace".to_owned();
    }
    for prefix in ["?", "/"] {
        if snippet.ends_with(prefix) {
            return format!("`{prefix}` must be followed by a PieceSpec (which piece?)");
        }
    }
    for token in ["@>", "$>"] {
        if snippet.ends_with(token) {
            return format!("`{token}` must be followed by an angle in degrees");
        }
    }
    for token in ["~", "="] {
        if snippet.ends_with(token) {
            return format!("`{token}` must be followed by a PieceSpec");
        }
    }
    "this is not a valid move".to_owned()
}

/// Shrinks `range` to exclude leading and trailing whitespace (the ERROR nodes of the
/// grammar often start with the whitespace before the offending text).
fn trim_whitespace(text: &str, range: Range<usize>) -> Range<usize> {
    let Some(slice) = text.get(range.clone()) else {
        return range;
    };
    let trimmed_start = slice.trim_start();
    if trimmed_start.is_empty() {
        return range;
    }
    let start = range.start + (slice.len() - trimmed_start.len());
    let end = start + trimmed_start.trim_end().len();
    start..end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(text: &str) -> Vec<SyntaxError> {
        syntax_errors(&parse(text, None), text)
    }

    /// 1-based line and column (in characters) of a byte offset.
    fn line_column(text: &str, byte: usize) -> (usize, usize) {
        let before = &text[..byte];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
        (line, before[line_start..].chars().count() + 1)
    }

    fn kinds_in_movetext(text: &str) -> Vec<String> {
        let tree = parse(text, None);
        let mut kinds = Vec::new();
        let root = tree.root_node();
        let mut cursor = root.walk();
        for game in root.children(&mut cursor) {
            let mut game_cursor = game.walk();
            for part in game.children(&mut game_cursor) {
                if part.kind() == "movetext" {
                    let mut item_cursor = part.walk();
                    for item in part.named_children(&mut item_cursor) {
                        kinds.push(format!("{} {}", item.kind(), &text[item.byte_range()]));
                    }
                }
            }
        }
        kinds
    }

    #[test]
    fn well_formed_game_has_no_errors() {
        let text = "---\nGameType: Tablut\n...\n1. a4-a3 1... c5-c3 {ok}\n2. d1-d3;*e3\n";
        assert_eq!(errors(text), vec![]);
        assert_eq!(
            kinds_in_movetext(text),
            vec![
                "move_number 1.",
                "move a4-a3",
                "move_number 1...",
                "move c5-c3",
                "comment {ok}",
                "move_number 2.",
                "move d1-d3",
                "semicolon ;",
                "move *e3",
            ]
        );
    }

    #[test]
    fn unclosed_comment_points_at_its_brace() {
        let text = "1. e2-e4 { never closed\n2. d2-d4\n";
        let found = errors(text);
        assert_eq!(
            found,
            vec![SyntaxError {
                range: 9..10,
                code: UNCLOSED_COMMENT,
                message: "comment is never closed: add a `}` where it ends".to_owned(),
            }]
        );
        assert_eq!(line_column(text, found[0].range.start), (1, 10));
    }

    #[test]
    fn unclosed_comment_before_another_comment_points_at_its_brace() {
        let text = "1. e4 {a {b} e5";
        let found = errors(text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].code, UNCLOSED_COMMENT);
        assert_eq!(found[0].range, 6..7);
    }

    #[test]
    fn stray_closing_bracket_is_unexpected() {
        let text = "1. e2-e4 ] 2. d2-d4";
        let found = errors(text);
        assert_eq!(
            found,
            vec![SyntaxError {
                range: 9..10,
                code: UNEXPECTED_TOKEN,
                message: "unexpected `]`: there is no `[` to close".to_owned(),
            }]
        );
        // The moves on both sides still parse.
        assert_eq!(
            kinds_in_movetext(text)
                .into_iter()
                .filter(|kind| kind.starts_with("move "))
                .collect::<Vec<_>>(),
            vec!["move e2-e4", "move d2-d4"]
        );
    }

    #[test]
    fn garbage_line_between_good_moves() {
        let text = "1. e2-e4\n@@@ ]]] ((\n2. d2-d4\n";
        let found = errors(text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].code, UNEXPECTED_TOKEN);
        assert_eq!(&text[found[0].range.clone()], "]]] ((");
        assert_eq!(line_column(text, found[0].range.start), (2, 5));
        let moves: Vec<String> = kinds_in_movetext(text)
            .into_iter()
            .filter(|kind| kind.starts_with("move "))
            .collect();
        assert_eq!(moves, vec!["move e2-e4", "move @@@", "move d2-d4"]);
    }

    #[test]
    fn missing_closing_bracket_is_reported_where_it_belongs() {
        let text = "1. b4[1-b3 c3";
        let found = errors(text);
        assert_eq!(
            found,
            vec![SyntaxError {
                range: 7..7,
                code: MISSING_TOKEN,
                message: "missing `]` to close the slice".to_owned(),
            }]
        );
    }

    #[test]
    fn unbalanced_parenthesis_and_macro_quote() {
        let found = errors("1. a1(2,3 b2");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].range.clone(), found[0].code),
            (9..9, MISSING_TOKEN)
        );
        assert_eq!(found[0].message, "missing `)` to close the coordinates");

        let found = errors("1. `abc-d4 e5");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].range.clone(), found[0].code),
            (10..10, MISSING_TOKEN)
        );
        assert_eq!(found[0].message, "missing `'` to close the macro name");
    }

    #[test]
    fn unclosed_brace_expansion() {
        let found = errors("1. t@{a,b e5");
        assert_eq!(
            found,
            vec![SyntaxError {
                range: 9..9,
                code: MISSING_TOKEN,
                message: "missing `}` to close the brace expansion".to_owned(),
            }]
        );
    }

    #[test]
    fn search_without_piece_spec_is_not_a_move() {
        assert_eq!(
            errors("1. ?-a2 2. b1-c3"),
            vec![SyntaxError {
                range: 3..4,
                code: SYNTAX_ERROR,
                message: "`?` must be followed by a PieceSpec (which piece?)".to_owned(),
            }]
        );
    }

    #[test]
    fn operators_missing_their_operand() {
        let cases = [
            (
                "1. b2@> c3",
                5..7,
                "`@>` must be followed by an angle in degrees",
            ),
            ("1. b2= e4", 5..6, "`=` must be followed by a PieceSpec"),
            ("1. ~ e4", 3..4, "`~` must be followed by a PieceSpec"),
            (
                "1. {foo bar}baz e4",
                12..15,
                "a comment must be followed by whitespace",
            ),
        ];
        for (text, range, message) in cases {
            assert_eq!(
                errors(text),
                vec![SyntaxError {
                    range,
                    code: SYNTAX_ERROR,
                    message: message.to_owned(),
                }],
                "{text}"
            );
        }
    }

    #[test]
    fn move_number_without_move_is_not_a_syntax_error() {
        // The reference reads `1.` followed by `2.` (or by the end) as an empty move;
        // whether to warn about it is left to the linter.
        let text = "1. 2. e2-e4 3.";
        assert_eq!(errors(text), vec![]);
        assert_eq!(
            kinds_in_movetext(text),
            vec![
                "move_number 1.",
                "move_number 2.",
                "move e2-e4",
                "move_number 3."
            ]
        );
    }

    #[test]
    fn incremental_reparse_matches_a_fresh_parse() {
        let before = "1. e2-e4 1... e7-e5\n";
        let after = "1. e2-e4 {best} 1... e7-e5\n";
        let mut tree = parse(before, None);
        tree.edit(&tree_sitter::InputEdit {
            start_byte: 9,
            old_end_byte: 9,
            new_end_byte: 16,
            start_position: tree_sitter::Point::new(0, 9),
            old_end_position: tree_sitter::Point::new(0, 9),
            new_end_position: tree_sitter::Point::new(0, 16),
        });
        let reparsed = parse(after, Some(&tree));
        let fresh = parse(after, None);
        assert_eq!(reparsed.root_node().to_sexp(), fresh.root_node().to_sexp());
        assert!(reparsed.root_node().to_sexp().contains("(comment"));
    }

    /// A move as the reference labels it, with its move texts and comment texts.
    #[derive(Debug, Default)]
    struct Segment {
        label: String,
        moves: Vec<String>,
        comments: Vec<String>,
    }

    fn segments_of_game(game: Node, text: &str) -> Vec<Segment> {
        let mut segments: Vec<Segment> = Vec::new();
        let mut cursor = game.walk();
        let Some(movetext) = game
            .children(&mut cursor)
            .find(|part| part.kind() == "movetext")
        else {
            return segments;
        };
        let mut item_cursor = movetext.walk();
        for item in movetext.named_children(&mut item_cursor) {
            let item_text = &text[item.byte_range()];
            match item.kind() {
                "move_number" | "semicolon" => {
                    let previous = segments.last().map_or("", |last| last.label.as_str());
                    let label = if item_text == "." || item_text == ";" {
                        format!("{previous}.")
                    } else {
                        item_text.to_owned()
                    };
                    segments.push(Segment {
                        label,
                        ..Segment::default()
                    });
                    continue;
                }
                _ => {}
            }
            if segments.is_empty() {
                segments.push(Segment {
                    label: "SetupFn..".to_owned(),
                    ..Segment::default()
                });
            }
            let Some(segment) = segments.last_mut() else {
                continue;
            };
            match item.kind() {
                "move" => segment.moves.push(item_text.to_owned()),
                "comment" => {
                    let inner = item
                        .named_child(0)
                        .map_or("", |comment_text| &text[comment_text.byte_range()]);
                    segment.comments.push(inner.to_owned());
                }
                other => panic!("unexpected movetext item {other}"),
            }
        }
        segments
    }

    fn squish(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn conformance_moves_and_comments_split_as_the_reference_splits_them() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance");
        let mut compared_states = 0;
        let mut differences = Vec::new();
        for folder in ["examples", "generated", "setups"] {
            let entries = std::fs::read_dir(root.join(folder))
                .unwrap_or_else(|error| panic!("cannot read {folder}: {error}"));
            let mut paths: Vec<_> = entries
                .filter_map(|entry| entry.ok().map(|entry| entry.path()))
                .filter(|path| path.extension().is_some_and(|ext| ext == "ppn"))
                .collect();
            paths.sort();
            for path in paths {
                let text = std::fs::read_to_string(&path).expect("listed file is readable");
                // The reference expands braces before it splits at `;`: such words give
                // one move per alternative, which is not a matter of syntax.
                if text
                    .split_whitespace()
                    .any(|word| word.contains('}') && word.contains(';'))
                {
                    continue;
                }
                let expected: serde_json::Value = serde_json::from_str(
                    &std::fs::read_to_string(path.with_extension("json"))
                        .expect("every conformance file has its json"),
                )
                .expect("conformance json is valid");
                let tree = parse(&text, None);
                let root_node = tree.root_node();
                let mut cursor = root_node.walk();
                let games: Vec<Node> = root_node.children(&mut cursor).collect();
                let Some(expected_games) = expected["games"].as_array() else {
                    panic!("{}: no games array", path.display());
                };
                assert_eq!(games.len(), expected_games.len(), "{}", path.display());
                for (game, expected_game) in games.iter().zip(expected_games) {
                    let Some(states) = expected_game["states"].as_array() else {
                        continue;
                    };
                    let segments = segments_of_game(*game, &text);
                    if segments.len() + 1 != states.len() {
                        differences.push(format!(
                            "{}: {} moves, expected {}",
                            path.display(),
                            segments.len(),
                            states.len() - 1
                        ));
                        continue;
                    }
                    for (segment, state) in segments.iter().zip(&states[1..]) {
                        let ours_text = segment.moves.join(" ");
                        let ours_comment = squish(&segment.comments.join(" "));
                        let label_matches = state["move"] == segment.label.as_str();
                        // Brace expansions are expanded in the reference's text.
                        let text_matches =
                            ours_text.contains('{') || state["text"] == ours_text.as_str();
                        let comment_matches = state["comment"] == ours_comment.as_str();
                        compared_states += 1;
                        if !(label_matches && text_matches && comment_matches) {
                            differences.push(format!(
                                "{}: ours {:?} {:?} {:?}, reference {} {} {}",
                                path.display(),
                                segment.label,
                                ours_text,
                                ours_comment,
                                state["move"],
                                state["text"],
                                state["comment"]
                            ));
                        }
                    }
                }
            }
        }
        assert!(
            differences.is_empty(),
            "{} differences:\n{}",
            differences.len(),
            differences.join("\n")
        );
        assert!(
            compared_states > 3000,
            "only {compared_states} states compared"
        );
    }

    fn point_at(text: &str, byte: usize) -> tree_sitter::Point {
        let before = &text[..byte];
        let row = before.matches('\n').count();
        let column = byte - before.rfind('\n').map_or(0, |newline| newline + 1);
        tree_sitter::Point::new(row, column)
    }

    /// Replaces `old_range` of `text` with `insert`, editing `tree` to match.
    fn apply_edit(tree: &mut Tree, text: &str, old_range: Range<usize>, insert: &str) -> String {
        let new_text = format!(
            "{}{insert}{}",
            &text[..old_range.start],
            &text[old_range.end..]
        );
        let new_end = old_range.start + insert.len();
        tree.edit(&tree_sitter::InputEdit {
            start_byte: old_range.start,
            old_end_byte: old_range.end,
            new_end_byte: new_end,
            start_position: point_at(text, old_range.start),
            old_end_position: point_at(text, old_range.end),
            new_end_position: point_at(&new_text, new_end),
        });
        new_text
    }

    fn floor_char_boundary(text: &str, mut byte: usize) -> usize {
        byte = byte.min(text.len());
        while !text.is_char_boundary(byte) {
            byte -= 1;
        }
        byte
    }

    #[test]
    fn incremental_reparses_match_fresh_parses_on_conformance_games() {
        // Edits that change what the scanner decides: game separators, metadata ends,
        // blank lines, comment braces, MoveNumbers and `;`.
        const INSERTS: [&str; 10] = [
            "{", "}", "\n---\n", "\n...\n", "\n\n", " 3. ", ";", "]", " {note} ", "x",
        ];
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance");
        let files = [
            "examples/ice-floe.ppn",
            "examples/four-field-kono.ppn",
            "generated/hw08_three_games.ppn",
            "generated/g060_brandubh__map_piecepack.ppn",
        ];
        let mut seed: u64 = 0x5eed;
        let mut next = |bound: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            usize::try_from(seed >> 33).unwrap_or(0) % bound.max(1)
        };
        for file in files {
            let path = root.join(file);
            let mut text = std::fs::read_to_string(&path)
                .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
            let mut tree = parse(&text, None);
            for step in 0..40 {
                let start = floor_char_boundary(&text, next(text.len() + 1));
                let end = floor_char_boundary(&text, start + next(4));
                let insert = INSERTS[next(INSERTS.len())];
                text = apply_edit(&mut tree, &text, start..end, insert);
                tree = parse(&text, Some(&tree));
                let fresh = parse(&text, None);
                assert_eq!(
                    tree.root_node().to_sexp(),
                    fresh.root_node().to_sexp(),
                    "{file}, edit {step} at byte {start}: incremental and fresh parses differ"
                );
            }
        }
    }
}
