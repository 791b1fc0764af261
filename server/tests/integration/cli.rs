//! The `ppn-ls` binary as CI and users run it: output and exit codes.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn ppn_ls(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ppn-ls"))
        .args(args)
        .current_dir(project_root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ppn-ls starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    input
        .write_all(stdin.unwrap_or("").as_bytes())
        .expect("stdin accepts the text");
    drop(input);
    child.wait_with_output().expect("ppn-ls finishes")
}

fn project_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("server/ has a parent")
        .to_path_buf()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn the_examples_are_clean() {
    let output = ppn_ls(&["--check", "examples/"], None);
    assert_eq!(stdout(&output), "0 errors, 0 warnings in 7 files\n");
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn every_conformance_game_has_no_error() {
    let output = ppn_ls(
        &[
            "--check",
            "tests/conformance/examples",
            "tests/conformance/generated",
            "tests/conformance/setups",
        ],
        None,
    );
    let out = stdout(&output);
    assert!(!out.contains(": error["), "{out}");
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn a_syntax_error_names_its_line_and_column() {
    let text = "---\nGameType: Tablut\n...\n1. a4-a3 1... c5-c3 ]\n2. d1-d3\n";
    let output = ppn_ls(&["--check", "-"], Some(text));
    let out = stdout(&output);
    let first = out.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("<stdin>:4:21: error["),
        "unexpected first line: {first}\n{out}"
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn columns_count_characters_not_bytes() {
    let text = "🂡@b2 🁣@c3 ]\n";
    let output = ppn_ls(&["--check", "-", "--format", "json"], Some(text));
    let value: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("--format json prints JSON");
    let first = &value[0];
    assert_eq!(first["line"], 1);
    assert_eq!(first["column"], 11);
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn github_format_prints_annotations() {
    let text = "1. S@a1 ]\n";
    let output = ppn_ls(&["--check", "-", "--format", "github"], Some(text));
    let out = stdout(&output);
    assert!(
        out.starts_with("::error file=<stdin>,line=1,col=9,"),
        "{out}"
    );
}

#[test]
fn a_missing_file_is_a_usage_error() {
    let output = ppn_ls(&["--check", "no/such/file.ppn"], None);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no/such/file.ppn"));
}

#[test]
fn a_bad_flag_is_a_usage_error() {
    let output = ppn_ls(&["--check", "examples", "--format", "xml"], None);
    assert_eq!(output.status.code(), Some(2));
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A fresh directory under the build's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the scratch directory is made");
    dir
}

fn arg(path: &std::path::Path) -> &str {
    path.to_str().expect("scratch paths are UTF-8")
}

#[test]
fn check_is_a_command_and_its_options_go_anywhere() {
    let text = "1. S@a1 ]\n";
    for args in [
        &["check", "-", "--format", "json"][..],
        &["check", "--format", "json", "-"],
        &["--check", "--format", "json", "-"],
        &["--format", "json", "--check", "-"],
        &["--format", "json", "check", "-"],
    ] {
        let output = ppn_ls(args, Some(text));
        let value: serde_json::Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stderr(&output)));
        assert_eq!(value[0]["code"], "unexpected-token", "{args:?}");
        assert_eq!(output.status.code(), Some(1), "{args:?}");
    }
}

#[test]
fn deny_warnings_goes_anywhere_too() {
    let text = "---\nGameType:\n  Name: Tablut\n  Colour: red\n...\n";
    assert_eq!(ppn_ls(&["check", "-"], Some(text)).status.code(), Some(0));
    for args in [
        &["check", "-", "--deny-warnings"][..],
        &["--deny-warnings", "--check", "-"],
        &["--check", "-", "--deny-warnings"],
    ] {
        assert_eq!(ppn_ls(args, Some(text)).status.code(), Some(1), "{args:?}");
    }
}

#[test]
fn a_clean_check_says_how_much_it_checked() {
    let dir = scratch("clean-check");
    for name in ["a.ppn", "b.ppn", "c.otg"] {
        std::fs::write(dir.join(name), "").unwrap();
    }
    let output = ppn_ls(&["check", arg(&dir)], None);
    assert_eq!(stdout(&output), "0 errors, 0 warnings in 3 files\n");
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn xiangqi_formats_are_named_only_where_they_explain_a_diagnostic() {
    let dir = scratch("read-as");
    let samples = project_root().join("tests/xiangqi/samples");
    for name in ["initial.xay", "demo.fen", "initial.annofen", "demo.wxf"] {
        std::fs::copy(samples.join(name), dir.join(name)).unwrap();
    }
    // Clean files: nothing but the summary.
    let output = ppn_ls(&["check", arg(&dir)], None);
    assert_eq!(stdout(&output), "0 errors, 0 warnings in 4 files\n");
    // With `--verbose`, each file's format.
    let output = ppn_ls(&["check", "--verbose", arg(&dir)], None);
    let said = stdout(&output);
    assert_eq!(said.matches(": read as ").count(), 4, "{said}");
    assert!(
        said.contains("initial.annofen: read as annoFEN\n"),
        "{said}"
    );
    // A `.fen` file whose content is annoFEN, with a mistake: its format explains what is
    // said about it. A broken file of the format its extension names: no line.
    let annofen = std::fs::read_to_string(samples.join("initial.annofen")).unwrap();
    std::fs::write(dir.join("position.fen"), annofen.replacen("v1 ", "v1 Q", 1)).unwrap();
    std::fs::write(
        dir.join("broken.xay"),
        "version: '1'\nsetup: [\n  [[r], [h]],\n",
    )
    .unwrap();
    let output = ppn_ls(&["check", arg(&dir)], None);
    let said = stdout(&output);
    assert_eq!(said.matches(": read as ").count(), 1, "{said}");
    assert!(said.contains("position.fen: read as annoFEN\n"), "{said}");
    // And the XAY file's open `[` is reported where it opens.
    assert!(
        said.contains(
            "broken.xay:2:8: error[xay-yaml]: not valid YAML: the `[` opened here is never closed"
        ),
        "{said}"
    );
}

#[test]
fn a_directory_without_games_is_a_warning() {
    let dir = scratch("no-games");
    std::fs::write(dir.join("notes.txt"), "hello").unwrap();
    let output = ppn_ls(&["check", arg(&dir)], None);
    assert!(
        stderr(&output).contains("warning: ") && stderr(&output).contains("no file ppn-ls reads"),
        "{}",
        stderr(&output)
    );
    assert_eq!(stdout(&output), "0 errors, 1 warning in 0 files\n");
    assert_eq!(output.status.code(), Some(0));
    let denied = ppn_ls(&["check", arg(&dir), "--deny-warnings"], None);
    assert_eq!(denied.status.code(), Some(1));
}

#[test]
fn colour_is_asked_for_or_left_out() {
    let text = "1. S@a1 ]\n";
    let plain = ppn_ls(&["check", "-"], Some(text));
    assert!(!stdout(&plain).contains('\x1b'), "a pipe gets no colour");
    let coloured = ppn_ls(&["check", "-", "--color", "always"], Some(text));
    assert!(stdout(&coloured).contains("\x1b[1;31merror[unexpected-token]\x1b[0m"));
}

#[test]
fn the_language_server_says_nothing_to_an_editor() {
    // Standard input is a pipe here, as from an editor: no note on standard error.
    let output = ppn_ls(&[], Some(""));
    assert!(!stderr(&output).contains("Language Server Protocol"));
}

#[test]
fn errors_share_one_wording_across_commands() {
    let missing = "no/such/file.ppn";
    for args in [
        &["check", missing][..],
        &["replay", missing],
        &["convert", missing, "--to", "otn"],
        &["migrate", missing],
    ] {
        let output = ppn_ls(args, None);
        assert_eq!(
            stderr(&output).lines().next(),
            Some("error: no/such/file.ppn: no such file or directory"),
            "{args:?}"
        );
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn replay_reads_several_files_and_directories() {
    let dir = scratch("replay-several");
    std::fs::write(dir.join("a.ppn"), "---\n...\n1. S@a1\n").unwrap();
    std::fs::write(dir.join("b.ppn"), "---\n...\n1. M@b2\n").unwrap();
    let output = ppn_ls(&["replay", arg(&dir), "--format", "json"], None);
    let files: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON document per line"))
        .collect();
    let names: Vec<_> = files.iter().map(|f| f["file"].clone()).collect();
    assert_eq!(names, ["a.ppn", "b.ppn"]);
    let text = ppn_ls(
        &["replay", arg(&dir.join("a.ppn")), arg(&dir.join("b.ppn"))],
        None,
    );
    let out = stdout(&text);
    assert_eq!(out.matches("==> ").count(), 2, "{out}");
    assert_eq!(text.status.code(), Some(0));
}

#[test]
fn an_unknown_move_label_lists_the_labels() {
    let output = ppn_ls(
        &["replay", "examples/tablut-short.ppn", "--move", "99."],
        None,
    );
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(
        err.starts_with("error: examples/tablut-short.ppn: --move 99.: no move has that label; the labels are start, 1., 1..."),
        "{err}"
    );
}

#[test]
fn a_game_the_reference_cannot_read_fails_the_replay() {
    let text = "---\nGameType: Chesss\n...\n1. e2-e4\n";
    let output = ppn_ls(&["replay", "-", "--format", "json"], Some(text));
    assert_eq!(output.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(value["games"][0]["error"]
        .as_str()
        .is_some_and(|e| e.contains("unknown game `Chesss`")));
    assert!(stderr(&output).contains("game 1: the reference implementation cannot read"));
    let good = ppn_ls(
        &["replay", "-", "--format", "json"],
        Some("---\nGameType: Chess\n...\n1. e2-e4\n"),
    );
    assert_eq!(good.status.code(), Some(0));
}

#[test]
fn games_are_listed_as_ppn_authors_write_them() {
    let output = ppn_ls(&["games"], None);
    let out = stdout(&output);
    for r_syntax in ["getOption", "NULL", "24L", "c(\"", "FALSE"] {
        assert!(!out.contains(r_syntax), "{r_syntax} in:\n{out}");
    }
    assert!(out.contains("\n    GameType: Four Field Kono\n"));
}

#[test]
fn migrate_rewrites_an_old_file() {
    let output = ppn_ls(
        &["migrate", "tests/legacy/four-field-kono-2019-07.ppn"],
        None,
    );
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stdout(&output).ends_with("1. b1:b3\n"),
        "{}",
        stdout(&output)
    );
    assert!(stderr(&output).contains("write `b1:b3` (old-capture)"));
}

#[test]
fn a_huge_line_of_errors_prints_a_window_per_error() {
    // 20,000 errors on one line of 120 KB: each is shown with a window of the line.
    let line = format!("1. {}\n", "*zz9 ".repeat(20_000));
    let dir = scratch("huge-line");
    let file = dir.join("huge.ppn");
    std::fs::write(&file, &line).unwrap();
    let output = ppn_ls(&["check", arg(&file)], None);
    assert_eq!(output.status.code(), Some(1));
    let out = stdout(&output);
    assert_eq!(out.matches("error[no-piece]").count(), 20_000);
    assert!(out.len() < 20_000 * 400, "{} bytes of output", out.len());
    let json = ppn_ls(&["check", arg(&file), "--format", "json"], None);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(value[19_999]["column"], 3 + 5 * 19_999 + 2);
}

#[test]
fn the_readme_installs_ppn_ls_before_using_it_and_contributing_tests_as_ci_does() {
    let root = project_root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let install = readme
        .find("cargo binstall ppn-ls")
        .expect("the README installs ppn-ls");
    assert!(readme.contains("cargo install --path server --locked"));
    let first_use = readme.find("\n$ ppn-ls ").expect("the README runs ppn-ls");
    assert!(install < first_use, "ppn-ls is run before it is installed");
    let ci = std::fs::read_to_string(root.join(".ci/run")).unwrap();
    assert!(
        ci.contains("\nbash scripts/test\n"),
        ".ci/run runs scripts/test"
    );
    let contributing = std::fs::read_to_string(root.join("CONTRIBUTING.md")).unwrap();
    assert!(
        contributing.contains("\nbash scripts/test\n"),
        "CONTRIBUTING.md's test command"
    );
    assert!(
        readme.lines().count() < 200,
        "the README is for users: short"
    );
}

#[test]
fn a_configuration_file_changes_severities_and_leaves_files_out_of_a_search() {
    let dir = scratch("configured-check");
    std::fs::create_dir_all(dir.join("games/archive")).unwrap();
    let broken = "---\nGameType: Tablut\n...\n1. a4-a3 1... c5-c3 ]\n";
    std::fs::write(dir.join("games/broken.ppn"), broken).unwrap();
    std::fs::write(dir.join("games/archive/old.ppn"), broken).unwrap();
    let before = ppn_ls(&["check", arg(&dir.join("games"))], None);
    assert_eq!(before.status.code(), Some(1));
    assert!(stdout(&before).ends_with("2 errors, 0 warnings in 2 files\n"));

    std::fs::write(
        dir.join("ppn-ls.toml"),
        "[check]\nexclude = [\"archive\"]\n\n[diagnostics.severity]\nunexpected-token = \"warning\"\n",
    )
    .unwrap();
    let after = ppn_ls(&["check", arg(&dir.join("games"))], None);
    let out = stdout(&after);
    assert_eq!(after.status.code(), Some(0), "{out}");
    assert!(
        out.contains("broken.ppn:4:21: warning[unexpected-token]"),
        "{out}"
    );
    assert!(!out.contains("old.ppn"), "{out}");
    assert!(out.ends_with("0 errors, 1 warning in 1 file\n"), "{out}");
    // A file named on the command line is read even where a glob leaves it out.
    let named = ppn_ls(&["check", arg(&dir.join("games/archive/old.ppn"))], None);
    assert!(stdout(&named).contains("old.ppn:4:21: warning"));

    // `off` drops the diagnostic; the configuration's own mistakes are reported with their line.
    std::fs::write(
        dir.join("ppn-ls.toml"),
        "[diagnostics.severity]\nunexpected-token = \"off\"\nunexpected-tokens = \"off\"\n[hover]\nboard = \"fancy\"\n",
    )
    .unwrap();
    let off = ppn_ls(&["check", arg(&dir.join("games"))], None);
    let out = stdout(&off);
    assert_eq!(off.status.code(), Some(0), "{out}");
    assert!(!out.contains("unexpected-token]"), "{out}");
    assert!(
        out.contains("ppn-ls.toml:3:1: warning[config-unknown-code]: ppn-ls reports no diagnostic with the code `unexpected-tokens` (did you mean `unexpected-token`?)"),
        "{out}"
    );
    assert!(
        out.contains("ppn-ls.toml:5:9: warning[config-bad-value]"),
        "{out}"
    );
    assert!(out.ends_with("0 errors, 2 warnings in 2 files\n"), "{out}");

    // A broken file never stops the check: it is an error of its own, and defaults apply.
    std::fs::write(dir.join("ppn-ls.toml"), "[diagnostics\n").unwrap();
    let broken_config = ppn_ls(&["check", arg(&dir.join("games"))], None);
    let out = stdout(&broken_config);
    assert_eq!(broken_config.status.code(), Some(1), "{out}");
    assert!(out.contains("ppn-ls.toml:1:"), "{out}");
    assert!(out.contains("error[config-syntax]"), "{out}");
    assert!(out.ends_with("3 errors, 0 warnings in 2 files\n"), "{out}");
}
