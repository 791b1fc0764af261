use super::*;
use crate::config::ConfigFiles;

fn at<'a>(text: &'a str, diagnostic: &Diagnostic) -> &'a str {
    &text[diagnostic.range.clone()]
}

#[test]
fn every_key_is_read_from_the_file() {
    let text = r#"
[diagnostics]
max-per-document = 25
severity = { duplicate-move-number = "off", no-piece = "warning" }

[check]
exclude = ["archive/**", "*.draft.ppn"]

[hover]
board = "reference"

[format]
line-width = 72
"#;
    let read = ConfigFile::parse(text);
    assert_eq!(read.diagnostics, []);
    let settings = read.settings;
    assert_eq!(settings.max_per_document, Some(25));
    assert_eq!(settings.severity["duplicate-move-number"], Level::Off);
    assert_eq!(settings.severity["no-piece"], Level::Warning);
    assert_eq!(
        settings.exclude.as_deref(),
        Some(&["archive/**".to_string(), "*.draft.ppn".to_string()][..])
    );
    assert_eq!(settings.hover_board, Some(BoardStyle::Reference));
    assert_eq!(settings.format.line_width, Some(72));
}

#[test]
fn an_empty_file_sets_nothing() {
    assert_eq!(ConfigFile::parse(""), ConfigFile::default());
    let config = Config::resolve(&Settings::default(), &Settings::default());
    assert_eq!(config.max_per_document(), DEFAULT_MAX_PER_DOCUMENT);
    assert_eq!(config.hover_board, BoardStyle::Plain);
    assert!(!config.changes_severities());
}

#[test]
fn unknown_keys_and_bad_values_are_reported_where_they_are_and_keep_their_defaults() {
    let text = "[diagnostics]\nmax-per-dokument = 5\nmax-per-document = \"many\"\n\
                [diagnostics.severity]\nno-piece = \"loud\"\nno-peice = \"off\"\nunknown-piece = \"hint\"\n\
                [hover]\nboard = 3\n[colours]\nx = 1\n[check]\nexclude = [\"a/[\", 4]\n";
    let read = ConfigFile::parse(text);
    let found: Vec<(&str, &str)> = read
        .diagnostics
        .iter()
        .map(|d| (d.code, at(text, d)))
        .collect();
    assert_eq!(
        found,
        [
            ("config-unknown-key", "max-per-dokument"),
            ("config-bad-value", "\"many\""),
            ("config-bad-value", "\"loud\""),
            ("config-unknown-code", "no-peice"),
            ("config-bad-value", "3"),
            ("config-unknown-key", "colours"),
            ("config-bad-value", "\"a/[\""),
            ("config-bad-value", "4"),
        ]
    );
    let messages: Vec<&str> = read
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(messages[0].contains("`max-per-document`"), "{messages:?}");
    assert!(messages[2]
        .contains("expected \"off\", \"hint\", \"info\", \"warning\" or \"error\", not \"loud\""));
    assert!(
        messages[3].contains("did you mean `no-piece`?"),
        "{messages:?}"
    );
    assert!(read
        .diagnostics
        .iter()
        .all(|d| d.severity == Severity::Warning));
    // What was right is still read.
    assert_eq!(read.settings.severity.len(), 1);
    assert_eq!(read.settings.severity["unknown-piece"], Level::Hint);
    assert_eq!(read.settings.max_per_document, None);
    assert_eq!(read.settings.hover_board, None);
}

#[test]
fn a_file_that_is_not_toml_is_an_error_at_its_place_and_the_rest_is_read() {
    let text = "[hover]\nboard = \"reference\"\n[diagnostics\nmax-per-document = 3\n";
    let read = ConfigFile::parse(text);
    assert!(!read.diagnostics.is_empty());
    let first = &read.diagnostics[0];
    assert_eq!(first.code, "config-syntax");
    assert_eq!(first.severity, Severity::Error);
    assert!(
        first.range.start >= text.find("[diagnostics").unwrap(),
        "{first:?}"
    );
    assert_eq!(read.settings.hover_board, Some(BoardStyle::Reference));
}

#[test]
fn numbers_out_of_range_are_refused() {
    for value in ["0", "-3", "100001", "1.5", "true"] {
        let read = ConfigFile::parse(&format!("diagnostics.max-per-document = {value}\n"));
        assert_eq!(read.diagnostics.len(), 1, "{value}");
        assert_eq!(read.diagnostics[0].code, "config-bad-value", "{value}");
        assert_eq!(read.settings.max_per_document, None, "{value}");
    }
    let read = ConfigFile::parse("diagnostics.max-per-document = 1_000\n");
    assert_eq!(read.settings.max_per_document, Some(1000));
}

#[test]
fn the_editor_sends_the_same_keys_and_its_problems_name_them() {
    let value = serde_json::json!({
        "hover": {"board": "reference"},
        "diagnostics": {"severity": {"no-piece": "info", "nonsense": "off"}, "max-per-document": 7},
        "format": {"line-width": "wide"},
        "extra": true
    });
    let (settings, problems) = editor_settings(&value);
    assert_eq!(settings.hover_board, Some(BoardStyle::Reference));
    assert_eq!(settings.severity["no-piece"], Level::Info);
    assert_eq!(settings.max_per_document, Some(7));
    assert_eq!(settings.format.line_width, None);
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(problems
        .iter()
        .any(|p| p.starts_with("ppn-ls.diagnostics.severity.nonsense:")));
    assert!(problems
        .iter()
        .any(|p| p.starts_with("ppn-ls.format.line-width:")));
    assert!(problems.iter().any(|p| p.starts_with("ppn-ls.extra:")));
    assert_eq!(
        editor_settings(&serde_json::Value::Null),
        (Settings::default(), vec![])
    );
}

#[test]
fn the_file_decides_for_the_project_and_the_editor_for_what_is_shown() {
    let file = ConfigFile::parse(
        "[diagnostics]\nmax-per-document = 10\nseverity.no-piece = \"warning\"\n\
         [hover]\nboard = \"plain\"\n[format]\nline-width = 60\n[check]\nexclude = [\"x\"]\n",
    )
    .settings;
    let (editor, _) = editor_settings(&serde_json::json!({
        "diagnostics": {"max-per-document": 50, "severity": {"no-piece": "off", "unknown-piece": "info"}},
        "hover": {"board": "reference"},
        "format": {"line-width": 100},
        "check": {"exclude": ["y"]}
    }));
    let config = Config::resolve(&file, &editor);
    assert_eq!(config.max_per_document(), 50);
    assert_eq!(config.hover_board, BoardStyle::Reference);
    assert_eq!(config.level("no-piece"), Some(Level::Warning));
    assert_eq!(config.level("unknown-piece"), Some(Level::Info));
    assert_eq!(config.format.line_width, Some(60));
    assert_eq!(config.exclude, ["x"]);
    // Without a file, the editor's settings hold.
    let config = Config::resolve(&Settings::default(), &editor);
    assert_eq!(config.format.line_width, Some(100));
    assert_eq!(config.level("no-piece"), Some(Level::Off));
}

#[test]
fn severities_are_applied_and_off_drops_a_diagnostic() {
    let config = Config::resolve(
        &ConfigFile::parse("[diagnostics.severity]\nno-piece = \"off\"\nunknown-macro = \"error\"\nbad-move = \"hint\"\n").settings,
        &Settings::default(),
    );
    let mut diagnostics = vec![
        Diagnostic::error(0..1, "no-piece", "a"),
        Diagnostic::warning(0..1, "unknown-macro", "b"),
        Diagnostic::error(2..3, "bad-move", "c"),
        Diagnostic::error(4..5, "unknown-piece", "d"),
    ];
    config.apply_severities(&mut diagnostics);
    let found: Vec<(&str, Severity)> = diagnostics.iter().map(|d| (d.code, d.severity)).collect();
    assert_eq!(
        found,
        [
            ("unknown-macro", Severity::Error),
            ("bad-move", Severity::Hint),
            ("unknown-piece", Severity::Error)
        ]
    );
}

#[test]
fn exclude_globs_match_paths_and_names_at_any_depth() {
    let exclude = Exclude::new(&[
        "archive/**".to_string(),
        "*.draft.ppn".to_string(),
        "scratch".to_string(),
        "one/two.ppn".to_string(),
    ]);
    let excluded = |path: &str| exclude.excludes(std::path::Path::new(path));
    assert!(excluded("archive/old.ppn"));
    assert!(excluded("archive/deep/old.otg"));
    assert!(excluded("games/x.draft.ppn"));
    assert!(excluded("x.draft.ppn"));
    assert!(excluded("games/scratch/a.ppn"));
    assert!(excluded("one/two.ppn"));
    assert!(!excluded("games/one/two.ppn"));
    assert!(!excluded("games/archive.ppn"));
    assert!(!excluded("games/x.ppn"));
    assert!(!Exclude::new(&[]).excludes(std::path::Path::new("a.ppn")));
}

#[test]
fn the_nearest_file_upwards_is_found_and_open_texts_stand_for_the_disk() {
    let root = std::env::temp_dir().join(format!("ppn-ls-config-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("a/b/c")).unwrap();
    std::fs::write(root.join(FILE_NAME), "hover.board = \"reference\"\n").unwrap();
    std::fs::write(
        root.join("a/b").join(FILE_NAME),
        "[check]\nexclude = [\"c/**\"]\n",
    )
    .unwrap();
    let files = ConfigFiles::new();
    let found = files.for_file(&root.join("a/b/c/game.ppn")).unwrap();
    assert_eq!(found.path, root.join("a/b").join(FILE_NAME));
    assert!(found.excludes(&root.join("a/b/c/game.ppn")));
    assert!(!found.excludes(&root.join("a/b/game.ppn")));
    assert!(!found.excludes(&root.join("elsewhere/c/game.ppn")));
    let top = files.for_file(&root.join("a/game.ppn")).unwrap();
    assert_eq!(top.file.settings.hover_board, Some(BoardStyle::Reference));
    // An open, edited file is what counts until it is closed.
    files.set_open_text(
        &root.join("a/b").join(FILE_NAME),
        Some("hover.board = 1\n".to_string()),
    );
    let edited = files.for_file(&root.join("a/b/c/game.ppn")).unwrap();
    assert_eq!(edited.file.diagnostics[0].code, "config-bad-value");
    files.set_open_text(&root.join("a/b").join(FILE_NAME), None);
    std::fs::remove_file(root.join("a/b").join(FILE_NAME)).unwrap();
    files.forget();
    let after = files.for_file(&root.join("a/b/c/game.ppn")).unwrap();
    assert_eq!(after.path, root.join(FILE_NAME));
    let _ = std::fs::remove_dir_all(&root);
}
