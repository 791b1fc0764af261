//! The tree-sitter queries shipped for editors compile against the grammar, use capture
//! names their editor knows, and capture something on real games.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use tree_sitter::{Parser, Query, QueryCursor, StreamingIterator};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn sample_games() -> Vec<String> {
    let mut texts = Vec::new();
    for dir in ["examples", "tests/conformance/examples"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .expect("sample folder")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ppn"))
            .collect();
        paths.sort();
        texts.extend(
            paths
                .iter()
                .map(|p| std::fs::read_to_string(p).expect("game")),
        );
    }
    texts
}

fn query_files(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .expect("query folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "scm"))
        .collect();
    files.sort();
    files
}

/// Compiles every query of `dir`, checks its capture names with `allowed`, and returns the
/// names captured on the sample games, per file.
fn check_queries(
    dir: &str,
    allowed: impl Fn(&str, &str) -> bool,
) -> Vec<(String, BTreeSet<String>)> {
    let language = tree_sitter::Language::new(tree_sitter_ppn::LANGUAGE);
    let mut parser = Parser::new();
    parser.set_language(&language).expect("grammar loads");
    let trees: Vec<_> = sample_games()
        .into_iter()
        .map(|text| {
            let tree = parser.parse(&text, None).expect("parses");
            (text, tree)
        })
        .collect();
    let mut report = Vec::new();
    for file in query_files(dir) {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let source = std::fs::read_to_string(&file).expect("query file");
        let query = Query::new(&language, &source)
            .unwrap_or_else(|err| panic!("{dir}/{name} does not compile: {err}"));
        for capture in query.capture_names() {
            assert!(
                allowed(&name, capture),
                "{dir}/{name}: capture @{capture} is not one the editor knows"
            );
        }
        let mut captured = BTreeSet::new();
        for (text, tree) in &trees {
            let mut cursor = QueryCursor::new();
            let mut captures = cursor.captures(&query, tree.root_node(), text.as_bytes());
            while let Some((m, index)) = captures.next() {
                let capture = m.captures()[*index];
                captured.insert(query.capture_names()[capture.index as usize].to_string());
            }
        }
        assert!(
            !captured.is_empty(),
            "{dir}/{name} captures nothing on the sample games"
        );
        report.push((name, captured));
    }
    report
}

const HIGHLIGHTS: &[&str] = &[
    "comment",
    "label",
    "operator",
    "type",
    "constant",
    "variable",
    "number",
    "string",
    "function.macro",
    "punctuation.bracket",
    "punctuation.delimiter",
    "punctuation.special",
];

#[test]
fn grammar_queries_work() {
    let report = check_queries("tree-sitter-ppn/queries", |file, capture| match file {
        "highlights.scm" => HIGHLIGHTS.contains(&capture),
        _ => true,
    });
    let names: Vec<&str> = report.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "folds.scm",
            "highlights.scm",
            "injections.scm",
            "textobjects.scm"
        ]
    );
    let highlights = &report[1].1;
    for capture in [
        "comment",
        "label",
        "operator",
        "type",
        "variable",
        "function.macro",
    ] {
        assert!(highlights.contains(capture), "no @{capture} on the samples");
    }
}

#[test]
fn neovim_queries_are_the_grammars() {
    check_queries("editors/neovim/queries/ppn", |_, _| true);
    for file in query_files("editors/neovim/queries/ppn") {
        let name = file.file_name().unwrap();
        let grammar = root().join("tree-sitter-ppn/queries").join(name);
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            std::fs::read_to_string(&grammar).unwrap(),
            "editors/neovim/queries/ppn/{} differs from the grammar's",
            name.to_string_lossy()
        );
    }
}

#[test]
fn helix_queries_use_helix_capture_names() {
    const HELIX_HIGHLIGHTS: &[&str] = &[
        "comment",
        "label",
        "operator",
        "type",
        "constant",
        "constant.numeric",
        "variable",
        "string",
        "function.macro",
        "punctuation.bracket",
        "punctuation.delimiter",
        "punctuation.special",
    ];
    const HELIX_TEXTOBJECTS: &[&str] = &[
        "class.around",
        "class.inside",
        "function.around",
        "function.inside",
        "comment.around",
        "comment.inside",
        "parameter.inside",
    ];
    let report = check_queries(
        "editors/helix/runtime/queries/ppn",
        |file, capture| match file {
            "highlights.scm" => HELIX_HIGHLIGHTS.contains(&capture),
            "textobjects.scm" => HELIX_TEXTOBJECTS.contains(&capture),
            "injections.scm" => capture == "injection.content",
            _ => false,
        },
    );
    assert_eq!(report.len(), 3);
}
