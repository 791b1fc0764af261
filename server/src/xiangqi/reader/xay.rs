//! XAY files: YAML with `version: '1'` and `setup:`, a list of rows (rank 9 first), each a
//! list of cells (file `a` first), each a list of atoms (piece letters and annotation
//! codes). Rows and cells may be left out at the end (sparse notation).

use std::ops::Range;

use crate::diagnostic::{Diagnostic, Fix};
use crate::model::features::TokenKind;
use crate::model::format::Format;

use crate::xiangqi::board::{Point, FILES, RANKS};
use crate::xiangqi::reader::parsed::{Parsed, Slot};
use crate::xiangqi::reader::position::{
    atom_of_word, unknown_code_message, unknown_letter_message, Atom, AtomKind, Position,
};
use crate::xiangqi::reader::yaml::{self, Entry, Node};

/// Read a XAY file.
pub fn read_xay(text: &str) -> Parsed {
    let mut parsed = Parsed::new(Format::Xay, "XAY position");
    let yaml_error = serde_yaml::from_str::<serde_yaml::Value>(text).err();
    if let Some(error) = &yaml_error {
        // At the quote or bracket left open, where the reader names one.
        parsed.diagnostics.push(crate::yaml_errors::located(
            text,
            &(0..text.len()),
            error,
            "xay-yaml",
            "not valid YAML",
        ));
    }
    let document = match yaml::parse(text) {
        Ok(document) => document,
        Err(unreadable) => match serde_yaml::from_str::<serde_yaml::Value>(text) {
            Ok(value) => {
                let at = text.find("setup").map_or(0..0, |i| i..i + 5);
                parsed.diagnostics.push(Diagnostic::new(
                    unreadable.range.clone(),
                    crate::diagnostic::Severity::Information,
                    "xay-yaml-unlocated",
                    format!(
                        "{} — the position is read, but without the place of each atom",
                        unreadable.message
                    ),
                ));
                yaml::Document {
                    root: node_of_value(&value, at),
                    comments: Vec::new(),
                }
            }
            Err(_) => {
                if yaml_error.is_none() {
                    parsed.error(unreadable.range, "xay-yaml", unreadable.message);
                }
                return parsed;
            }
        },
    };
    parsed.comment_lines(text, &document.comments);
    let Node::Map { entries, .. } = &document.root else {
        parsed.error(
            0..0,
            "xay-not-a-mapping",
            "a XAY file is a mapping with `version` and `setup`",
        );
        return parsed;
    };
    let first_key = entries.first().map_or(0, |entry| entry.key_range.start);
    let mut version = None;
    let mut setup = None;
    for entry in entries {
        parsed.token(entry.key_range.clone(), TokenKind::Property);
        match entry.key.as_str() {
            "version" => version = Some(entry),
            "setup" => setup = Some(entry),
            other => parsed.warning(
                entry.key_range.clone(),
                "xay-unknown-key",
                format!("xiangqi-setup reads only `version` and `setup`; `{other}` is ignored"),
            ),
        }
    }
    check_version(text, version, first_key, &mut parsed);
    let Some(setup) = setup else {
        parsed.error(
            first_key..first_key,
            "xay-missing-setup",
            "a XAY file needs `setup:`, the list of rows of the board",
        );
        return parsed;
    };
    parsed.selection = setup.key_range.clone();
    let value_range = setup.value.range();
    parsed.position_range = Some(setup.key_range.start..value_range.end.max(setup.key_range.end));
    if text[value_range.clone()].contains(['\n', '\r']) {
        parsed
            .folds
            .push((setup.key_range.start..value_range.end, false));
    }
    read_setup(text, setup, &mut parsed);
    parsed
}

fn check_version(text: &str, version: Option<&Entry>, first_key: usize, parsed: &mut Parsed) {
    let Some(version) = version else {
        parsed.diagnostics.push(
            Diagnostic::error(
                first_key..first_key,
                "xay-missing-version",
                "a XAY file starts with `version: '1'`",
            )
            .with_fix(Fix {
                title: "Insert `version: '1'`".to_string(),
                edits: vec![(first_key..first_key, "version: '1'\n".to_string())],
            }),
        );
        return;
    };
    let range = version.value.range();
    parsed.token(range.clone(), TokenKind::String);
    match &version.value {
        node if node.as_str() == Some("1") => {}
        Node::Scalar {
            value,
            quoted: false,
            ..
        } if value.parse::<f64>().is_ok_and(|v| v == 1.0) => {
            parsed.diagnostics.push(
                Diagnostic::error(
                    range.clone(),
                    "xay-version-not-string",
                    format!("`{value}` is a number here; the version is the string '1' (xiangqi-setup rejects the number)"),
                )
                .with_fix(Fix {
                    title: "Write the version as the string '1'".to_string(),
                    edits: vec![(range, "'1'".to_string())],
                }),
            );
        }
        node => {
            let shown = if range.is_empty() {
                "nothing"
            } else {
                &text[range.clone()]
            };
            parsed.error(
                if range.is_empty() {
                    version.key_range.clone()
                } else {
                    range
                },
                "xay-version",
                format!(
                    "XAY version {shown} ({}) is unknown: the only version is '1'",
                    node.describe()
                ),
            );
        }
    }
}

fn read_setup(text: &str, setup: &Entry, parsed: &mut Parsed) {
    let Node::Seq { items: rows, .. } = &setup.value else {
        parsed.error(
            if setup.value.range().is_empty() {
                setup.key_range.clone()
            } else {
                setup.value.range()
            },
            "xay-not-a-list",
            format!(
                "`setup` is {}; it is a list of rows (rank 9 first)",
                setup.value.describe()
            ),
        );
        return;
    };
    let mut atoms = Vec::new();
    for (row_index, row) in rows.iter().enumerate() {
        if row_index == usize::from(RANKS) {
            let extra = row.range().start..rows[rows.len() - 1].range().end;
            parsed.error(
                extra,
                "xiangqi-row-count",
                format!(
                    "`setup` has {} rows; a xiangqi board has 10 ranks, so these are off the board",
                    rows.len()
                ),
            );
        }
        let Node::Seq { items: cells, .. } = row else {
            parsed.error(
                if row.range().is_empty() {
                    setup.key_range.clone()
                } else {
                    row.range()
                },
                "xay-not-a-list",
                format!(
                    "row {} is {}; a row is a list of cells like `[[r], [], [k]]`",
                    row_index + 1,
                    row.describe()
                ),
            );
            continue;
        };
        let rank = usize::from(RANKS).checked_sub(row_index + 1);
        if cells.len() > usize::from(FILES) {
            let extra = cells[usize::from(FILES)].range().start..cells[cells.len() - 1].range().end;
            parsed.error(
                extra,
                "xiangqi-row-width",
                format!("this row has {} cells; a xiangqi rank has 9 points, so these are off the board", cells.len()),
            );
        }
        for (file, cell) in cells.iter().enumerate() {
            let Node::Seq {
                items: words,
                range,
            } = cell
            else {
                let message = match cell {
                    Node::Scalar { value, .. } => {
                        format!("a cell is a list of atoms: write `[{value}]`")
                    }
                    other => format!(
                        "a cell is a list of atoms like `[r, pm]`, not {}",
                        other.describe()
                    ),
                };
                let mut diagnostic = Diagnostic::error(cell.range(), "xay-not-a-list", message);
                if let Node::Scalar { range, .. } = cell {
                    diagnostic = diagnostic.with_fix(Fix {
                        title: "Put it in a list".to_string(),
                        edits: vec![
                            (range.start..range.start, "[".to_string()),
                            (range.end..range.end, "]".to_string()),
                        ],
                    });
                }
                parsed.diagnostics.push(diagnostic);
                continue;
            };
            parsed.slots.push(Slot::Cell(
                range.start + 1..range.end.saturating_sub(1).max(range.start + 1),
            ));
            let point = rank
                .and_then(|rank| Point::new(u8::try_from(file).ok()?, u8::try_from(rank).ok()?));
            for word in words {
                read_atom(text, word, point, parsed, &mut atoms);
            }
        }
    }
    parsed.start = Position {
        atoms,
        side_to_move: None,
    };
}

fn read_atom(
    text: &str,
    word: &Node,
    point: Option<Point>,
    parsed: &mut Parsed,
    atoms: &mut Vec<Atom>,
) {
    let range = word.range();
    let Some(value) = word.as_str() else {
        parsed.error(
            range,
            "xay-atom-type",
            format!(
                "an atom is a piece letter or an annotation code; this is {}",
                word.describe()
            ),
        );
        return;
    };
    match atom_of_word(value) {
        Some(kind) => {
            parsed.token(
                range.clone(),
                match kind {
                    AtomKind::Man(_) => TokenKind::Type,
                    AtomKind::Code(_) => TokenKind::EnumMember,
                },
            );
            if let Some(point) = point {
                atoms.push(Atom {
                    point,
                    kind,
                    range: range.clone(),
                    text: value.to_string(),
                });
            }
        }
        None => {
            let mut chars = value.chars();
            let message = match (chars.next(), chars.next()) {
                (Some(letter), None) => unknown_letter_message(letter),
                _ => unknown_code_message(value),
            };
            let code = if value.chars().count() == 1 {
                "xiangqi-unknown-piece"
            } else {
                "xiangqi-unknown-code"
            };
            let _ = text;
            parsed.error(range, code, message);
        }
    }
}

/// A serde_yaml value as nodes all placed at `at`, for YAML this module's reader does not
/// follow.
fn node_of_value(value: &serde_yaml::Value, at: Range<usize>) -> Node {
    use serde_yaml::Value;
    match value {
        Value::Mapping(mapping) => Node::Map {
            entries: mapping
                .iter()
                .map(|(key, value)| Entry {
                    key: key.as_str().unwrap_or_default().to_string(),
                    key_range: at.clone(),
                    value: node_of_value(value, at.clone()),
                })
                .collect(),
            range: at,
        },
        Value::Sequence(items) => Node::Seq {
            items: items
                .iter()
                .map(|item| node_of_value(item, at.clone()))
                .collect(),
            range: at,
        },
        Value::String(s) => Node::Scalar {
            value: s.clone(),
            range: at,
            quoted: true,
        },
        Value::Null => Node::Null { range: at },
        Value::Tagged(tagged) => node_of_value(&tagged.value, at),
        other => Node::Scalar {
            value: serde_yaml::to_string(other)
                .unwrap_or_default()
                .trim()
                .to_string(),
            range: at,
            quoted: false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(parsed: &Parsed) -> Vec<(&'static str, String)> {
        parsed
            .diagnostics
            .iter()
            .map(|d| (d.code, d.message.chars().take(0).collect()))
            .collect()
    }

    const HORSE: &str = "version: '1'\nsetup: [\n  [],\n  [],\n  [],\n  [[], [], [], [bg], [], [R, pg]],\n  [[], [], [bg], [], [], [], [bb]],\n  # river\n  [[], [], [], [], [n], [c, pb]],\n  [[], [], [bg], [], [], [], [bb]],\n  [[], [], [], [bg], [], [bg]],\n]\n";

    #[test]
    fn a_comment_read_twice_is_one_comment() {
        // Found by fuzzing: after block lists, `- Z]` makes the reader go over the comment
        // after it twice, and folding the twice-listed comment sliced the text backwards.
        let text = r#"# on with block lists
version: '1'
setup:
- - [r]
  - [h]
  - [e]
  - [a]
  - [k]
  - [a]
  - [e]
  - [h]
  - [r]
- []
- [[], [c], [], [], [], [], [], [c]]
- [[p], [], [p], [], [p], [], [p], [], [p]]
- Z]
#, [], [], [], [R]]
"#;
        use crate::model::notation_document::NotationDocument;
        let parsed = read_xay(text);
        assert!(!parsed.diagnostics.is_empty());
        let document = crate::xiangqi::document::XiangqiDocument::new(
            crate::model::format::Format::Xay,
            text.to_string(),
        );
        let _ = (document.folds(), document.semantic_tokens(0..text.len()));
        if let Ok(yaml) = crate::xiangqi::reader::yaml::parse(text) {
            let mut unique = yaml.comments.clone();
            unique.dedup();
            assert_eq!(unique, yaml.comments);
        }
    }

    #[test]
    fn the_sample_movement_horse_file() {
        let parsed = read_xay(HORSE);
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        let atoms: Vec<_> = parsed
            .start
            .atoms
            .iter()
            .map(|a| format!("{}:{}", a.point, a.text))
            .collect();
        assert_eq!(
            atoms,
            [
                "d6:bg", "f6:R", "f6:pg", "c5:bg", "g5:bb", "e4:n", "f4:c", "f4:pb", "c3:bg",
                "g3:bb", "d2:bg", "f2:bg"
            ]
        );
        let n = &parsed.start.atoms[5];
        assert_eq!(&HORSE[n.range.clone()], "n");
        assert_eq!(parsed.folds.len(), 1);
    }

    #[test]
    fn an_integer_version_gets_a_quick_fix() {
        let text = "version: 1\nsetup: []\n";
        let parsed = read_xay(text);
        assert_eq!(codes(&parsed), [("xay-version-not-string", String::new())]);
        let diagnostic = &parsed.diagnostics[0];
        assert_eq!(diagnostic.range, 9..10);
        assert_eq!(diagnostic.fixes[0].edits, [(9..10, "'1'".to_string())]);
        let missing = read_xay("# c\nsetup: []\n");
        assert_eq!(missing.diagnostics[0].code, "xay-missing-version");
        assert_eq!(
            missing.diagnostics[0].fixes[0].edits,
            [(4..4, "version: '1'\n".to_string())]
        );
        let two = read_xay("version: '2'\nsetup: []\n");
        assert_eq!(two.diagnostics[0].code, "xay-version");
    }

    #[test]
    fn sizes_atoms_and_structure_are_checked() {
        let text = "version: '1'\nsetup: [[[r], [], [], [], [], [], [], [], [], [x]], [[Q, a+3+3, 1]], r]\n";
        let parsed = read_xay(text);
        let found: Vec<_> = parsed
            .diagnostics
            .iter()
            .map(|d| (d.code, &text[d.range.clone()]))
            .collect();
        assert_eq!(
            found,
            [
                ("xiangqi-row-width", "[x]"),
                ("xiangqi-unknown-piece", "x"),
                ("xiangqi-unknown-piece", "Q"),
                ("xiangqi-unknown-code", "a+3+3"),
                ("xay-atom-type", "1"),
                ("xay-not-a-list", "r"),
            ]
        );
        assert_eq!(parsed.start.atoms.len(), 1, "only r on a9 is on the board");
        let eleven = format!("version: '1'\nsetup: [{}]\n", ["[]"; 11].join(", "));
        assert_eq!(read_xay(&eleven).diagnostics[0].code, "xiangqi-row-count");
    }

    #[test]
    fn broken_yaml_is_reported_where_it_breaks() {
        // A `[` left open in a flow list: reported where it opens, with the end of the file,
        // where the YAML reader gave up, as related information.
        let text = "version: '1'\nsetup: [\n  [[r], [h]],\n";
        let parsed = read_xay(text);
        assert_eq!(parsed.diagnostics.len(), 1);
        let open = &parsed.diagnostics[0];
        assert_eq!(open.code, "xay-yaml");
        let bracket = text.find('[').unwrap();
        assert_eq!(open.range, bracket..bracket + 1);
        assert!(
            open.message
                .starts_with("not valid YAML: the `[` opened here is never closed ("),
            "{}",
            open.message
        );
        assert_eq!(open.related[0].range, text.len()..text.len());
        // Closed too early in a row of the block list: at the row's `[`.
        let text = "version: '1'\nsetup:\n- [[r], [h], [e]\n- []\n";
        let parsed = read_xay(text);
        let row = text.find("[[r]").unwrap();
        assert_eq!(parsed.diagnostics[0].range, row..row + 1);
        assert_eq!(
            parsed.diagnostics[0].related[0].range.start,
            text.find("- []").unwrap()
        );
        let scalar_cell = read_xay("version: '1'\nsetup: [[r, h]]\n");
        assert_eq!(scalar_cell.diagnostics[0].code, "xay-not-a-list");
        assert_eq!(scalar_cell.diagnostics[0].fixes[0].edits.len(), 2);
    }

    #[test]
    fn a_row_left_open_is_reported_at_the_row() {
        // Rows written one a line; the ninth lacks its `]`, which the outer `]` then
        // closes: the row is named, the outer `[` and the end are related information.
        let rows = [
            "[[r], [h], [e], [a], [k], [a], [e], [h], [r]],",
            "[],",
            "[[], [c], [], [], [], [], [], [c]],",
            "[[p], [], [p], [], [p], [], [p], [], [p]],",
            "[],",
            "# river",
            "[],",
            "[[P], [], [P], [], [P], [], [P], [], [P]],",
            "[[], [p], [], [K], [], [], [], [], [r, pm],",
            "[],",
            "[[R], [H], [E], [A], [], [A], [E], [H], [R]],",
        ];
        let text = format!("version: '1'\nsetup: [\n  {}\n]\n", rows.join("\n  "));
        let parsed = read_xay(&text);
        assert_eq!(parsed.diagnostics.len(), 1, "{:?}", parsed.diagnostics);
        let found = &parsed.diagnostics[0];
        assert_eq!(found.code, "xay-yaml");
        let row = text.find("[[], [p]").unwrap();
        assert_eq!(found.range, row..row + 1, "{}", found.message);
        assert!(found.message.contains("row"), "{}", found.message);
        let outer = text.find("setup: [").unwrap() + "setup: ".len();
        assert_eq!(found.related[0].range, outer..outer + 1);
        assert_eq!(found.related[1].range.start, text.len());
        // Every row closed but the list itself: the list's `[` as before.
        let text = format!("version: '1'\nsetup: [\n  {}\n", rows[..3].join("\n  "));
        let found = &read_xay(&text).diagnostics[0];
        assert_eq!(found.range.start, outer);
    }

    #[test]
    fn yaml_this_reader_does_not_follow_still_gives_the_position() {
        let text = "version: '1'\nsetup: &rows [[[r]]]\n";
        let parsed = read_xay(text);
        assert_eq!(parsed.diagnostics[0].code, "xay-yaml-unlocated");
        assert_eq!(parsed.start.atoms.len(), 1);
    }
}
