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
    assert_eq!(stdout(&output), "");
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
