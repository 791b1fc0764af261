//! `ppn-ls fmt` as CI and users run it (in place, from standard input, `--check`,
//! `--diff`, files that do not parse), `ppn-ls check --fix` and `ppn-ls games --find`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn ppn_ls(args: &[&str], stdin: Option<&str>, folder: &Path) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ppn-ls"))
        .args(args)
        .current_dir(folder)
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

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("ppn-ls-fmt-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).expect("a scratch folder");
    folder
}

const MESSY: &str = "---\nEvent: Club night  \n...\n1. e2-e4   1... e7-e5 2. g1-f3 2... b8-c6\n";
const TIDY: &str = "---\nEvent: Club night\n...\n1. e2-e4 1... e7-e5\n2. g1-f3 2... b8-c6\n";

#[test]
fn standard_input_is_formatted_to_standard_output() {
    let output = ppn_ls(&["fmt", "-"], Some(MESSY), &std::env::temp_dir());
    assert_eq!(text(&output.stdout), TIDY);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
}

#[test]
fn files_and_folders_are_formatted_in_place() {
    let folder = scratch("in-place");
    std::fs::create_dir_all(folder.join("games/more")).expect("folders");
    std::fs::write(folder.join("games/a.ppn"), MESSY).expect("written");
    std::fs::write(folder.join("games/more/b.ppn"), TIDY).expect("written");
    std::fs::write(folder.join("games/notes.txt"), MESSY).expect("written");
    let output = ppn_ls(&["fmt"], None, &folder);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stderr),
        "1 file formatted, 1 file already formatted\n"
    );
    let read = |name: &str| std::fs::read_to_string(folder.join(name)).expect("read");
    assert_eq!(read("games/a.ppn"), TIDY);
    assert_eq!(read("games/more/b.ppn"), TIDY);
    assert_eq!(read("games/notes.txt"), MESSY, "not a file ppn-ls reads");
    // Nothing left beside the files.
    let mut names: Vec<_> = std::fs::read_dir(folder.join("games"))
        .expect("listed")
        .map(|entry| entry.expect("an entry").file_name())
        .collect();
    names.sort();
    assert_eq!(names, ["a.ppn", "more", "notes.txt"]);
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn check_lists_what_would_change_and_fails() {
    let folder = scratch("check");
    std::fs::write(folder.join("messy.ppn"), MESSY).expect("written");
    std::fs::write(folder.join("tidy.ppn"), TIDY).expect("written");
    let output = ppn_ls(&["fmt", "--check", "."], None, &folder);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(text(&output.stdout), "./messy.ppn: would be formatted\n");
    assert_eq!(
        text(&output.stderr),
        "1 file would be formatted, 1 file already formatted\n"
    );
    assert_eq!(
        std::fs::read_to_string(folder.join("messy.ppn")).expect("read"),
        MESSY,
        "--check writes nothing"
    );
    let tidy = ppn_ls(&["fmt", "--check", "tidy.ppn"], None, &folder);
    assert_eq!(tidy.status.code(), Some(0), "{}", text(&tidy.stderr));
    assert_eq!(text(&tidy.stdout), "");
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn diff_shows_the_changes_and_writes_nothing() {
    let folder = scratch("diff");
    std::fs::write(folder.join("messy.ppn"), MESSY).expect("written");
    let output = ppn_ls(&["fmt", "--diff", "messy.ppn"], None, &folder);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stdout),
        "--- messy.ppn\n+++ messy.ppn (formatted)\n@@ -1,4 +1,5 @@\n ---\n\
         -Event: Club night  \n+Event: Club night\n ...\n\
         -1. e2-e4   1... e7-e5 2. g1-f3 2... b8-c6\n\
         +1. e2-e4 1... e7-e5\n+2. g1-f3 2... b8-c6\n"
    );
    assert_eq!(
        std::fs::read_to_string(folder.join("messy.ppn")).expect("read"),
        MESSY
    );
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn a_file_that_does_not_parse_is_left_alone_and_said_so() {
    let folder = scratch("broken");
    let broken = "---\n...\n1. S@a1   {never closed\n";
    std::fs::write(folder.join("broken.ppn"), broken).expect("written");
    std::fs::write(folder.join("messy.ppn"), MESSY).expect("written");
    let output = ppn_ls(&["fmt", "."], None, &folder);
    assert_eq!(output.status.code(), Some(1));
    let errors = text(&output.stderr);
    assert!(
        errors.contains("./broken.ppn:3:11: not formatted: the file does not parse"),
        "{errors}"
    );
    assert!(
        errors.ends_with("1 file formatted, 0 files already formatted, 1 file not formatted\n"),
        "{errors}"
    );
    let read = |name: &str| std::fs::read_to_string(folder.join(name)).expect("read");
    assert_eq!(read("broken.ppn"), broken);
    assert_eq!(read("messy.ppn"), TIDY);
    // From standard input, what came in goes out.
    let piped = ppn_ls(&["fmt", "-"], Some(broken), &folder);
    assert_eq!(piped.status.code(), Some(1));
    assert_eq!(text(&piped.stdout), broken);
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn the_line_width_is_an_option() {
    let long = "---\n...\n1. S@a1 S@a2 S@a3 S@a4 S@a5 S@a6\n";
    let output = ppn_ls(
        &["fmt", "--line-width", "20", "-"],
        Some(long),
        &std::env::temp_dir(),
    );
    assert_eq!(
        text(&output.stdout),
        "---\n...\n1. S@a1 S@a2 S@a3\n   S@a4 S@a5 S@a6\n"
    );
}

#[test]
fn check_fix_makes_the_safe_fixes_lists_them_and_checks_the_result() {
    let folder = scratch("fix");
    // Two old captures (safe), and a misspelt setup argument (a guess: left alone).
    let old = "---\nGameType: Four Field Kono\n...\n1. b1*b3 1... d3*b3\n\
               ---\nGameType: {Name: Tablut, Die Widht: 0.5}\n...\n1. d1-d3\n";
    std::fs::write(folder.join("old.ppn"), old).expect("written");
    let output = ppn_ls(&["check", "--fix", "old.ppn"], None, &folder);
    let errors = text(&output.stderr);
    assert_eq!(
        errors,
        "old.ppn:4:4: fixed: write `b1:b3` (old-capture)\n\
         old.ppn:4:15: fixed: write `d3:b3` (old-capture)\n"
    );
    let fixed = std::fs::read_to_string(folder.join("old.ppn")).expect("read");
    assert_eq!(
        fixed,
        old.replace("b1*b3", "b1:b3").replace("d3*b3", "d3:b3")
    );
    let report = text(&output.stdout);
    assert!(report.contains("unknown-setup-argument"), "{report}");
    assert!(!report.contains("old-capture"), "{report}");
    // Nothing left to fix: nothing listed, the file as it was.
    let again = ppn_ls(&["check", "--fix", "old.ppn"], None, &folder);
    assert_eq!(text(&again.stderr), "");
    assert_eq!(
        std::fs::read_to_string(folder.join("old.ppn")).expect("read"),
        fixed
    );
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn games_are_found_by_their_metadata() {
    let folder = scratch("find");
    std::fs::create_dir_all(folder.join("club")).expect("a folder");
    std::fs::write(
        folder.join("club/night.ppn"),
        "---\nEvent: Club night\nWhite: Ann\nBlack: Ben\nDate: 2024-01-01\n...\n1. S@a1\n\n\
         ---\nEvent: Club night\nWhite: Cleo\nBlack: Dan\nResult: 1-0\n...\n1. S@a1\n",
    )
    .expect("written");
    std::fs::write(
        folder.join("spring.ppn"),
        "---\nEvent: Spring open\nWhite: Dan\nBlack: Ann\nGameType: Tablut\n...\n",
    )
    .expect("written");
    let output = ppn_ls(&["games", "--find", "ann"], None, &folder);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stdout),
        "./club/night.ppn:1: Game 1: Club night (Club night, 2024-01-01, Ann – Ben)\n\
         ./spring.ppn:1: Game 1: Spring open (Spring open, Dan – Ann, Tablut)\n"
    );
    let output = ppn_ls(
        &["games", "--find", "dan 1-0", "--format", "json", "club"],
        None,
        &folder,
    );
    let found: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(found[0]["file"], "club/night.ppn");
    assert_eq!(found[0]["line"], 9);
    assert_eq!(found[0]["tags"]["White"], "Cleo");
    assert_eq!(found.as_array().map(Vec::len), Some(1));
    let none = ppn_ls(&["games", "--find", "nobody"], None, &folder);
    assert_eq!(none.status.code(), Some(1));
    assert_eq!(text(&none.stdout), "");
    // Without paths or `--find`, the games ppn-ls sets up, as before.
    let known = ppn_ls(&["games"], None, &folder);
    assert!(text(&known.stdout).contains("Tablut: piecepack"));
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn the_line_width_of_ppn_ls_toml_is_used_for_its_files() {
    let folder = scratch("configured-width");
    std::fs::create_dir_all(folder.join("narrow/deeper")).expect("folders");
    std::fs::create_dir_all(folder.join("wide")).expect("folders");
    std::fs::write(
        folder.join("narrow/ppn-ls.toml"),
        "[format]\nline-width = 20\n",
    )
    .expect("written");
    let long = "---\n...\n1. S@a1 S@a2 S@a3 S@a4 S@a5 S@a6\n";
    let narrow = "---\n...\n1. S@a1 S@a2 S@a3\n   S@a4 S@a5 S@a6\n";
    let wide = "---\n...\n1. S@a1 S@a2 S@a3 S@a4 S@a5 S@a6\n";
    std::fs::write(folder.join("narrow/deeper/a.ppn"), long).expect("written");
    std::fs::write(folder.join("wide/b.ppn"), long).expect("written");
    let output = ppn_ls(&["fmt"], None, &folder);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let read = |name: &str| std::fs::read_to_string(folder.join(name)).expect("read");
    // The file under the configuration is laid out at its width; the other at 80.
    assert_eq!(read("narrow/deeper/a.ppn"), narrow);
    assert_eq!(read("wide/b.ppn"), wide);
    // Standard input takes the configuration of the current folder.
    let piped = ppn_ls(&["fmt", "-"], Some(long), &folder.join("narrow"));
    assert_eq!(text(&piped.stdout), narrow);
    // The command line wins over the file.
    std::fs::write(folder.join("narrow/deeper/a.ppn"), long).expect("written");
    let output = ppn_ls(&["fmt", "--line-width", "80", "narrow"], None, &folder);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(read("narrow/deeper/a.ppn"), wide);
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn standard_input_named_by_stdin_filename_is_read_as_that_file() {
    let folder = scratch("stdin-filename");
    std::fs::create_dir_all(folder.join("tafl")).expect("folders");
    std::fs::write(
        folder.join("tafl/ppn-ls.toml"),
        "[diagnostics.severity]\ncapture-separator = \"off\"\n",
    )
    .expect("written");
    // An OpenTafl record, untidy, with a capture list in the archives' spelling (which
    // the configuration in `tafl/` turns off).
    let record = "[name:Brandubh]\n[rules:dim:7 name:Brandubh esc:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n1.  d2-c2   d3-d2\n";
    let tidy = "[name:Brandubh]\n[rules:dim:7 name:Brandubh esc:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n1. d2-c2 d3-d2\n";

    // Unnamed, standard input is read as the notation its content is: an OpenTafl record.
    let unnamed = ppn_ls(&["check", "-"], Some(record), &folder);
    assert_eq!(unnamed.status.code(), Some(0), "{}", text(&unnamed.stdout));
    assert_eq!(text(&unnamed.stdout), "0 errors, 0 warnings in 1 file\n");

    // Named, it is read as the file it names, and messages name it, before the command
    // or after it.
    for args in [
        &["--stdin-filename", "tafl/game.otg", "check", "-"][..],
        &["check", "-", "--stdin-filename", "tafl/game.otg"],
    ] {
        let named = ppn_ls(args, Some(record), &folder);
        assert_eq!(named.status.code(), Some(0), "{}", text(&named.stdout));
        assert_eq!(text(&named.stdout), "0 errors, 0 warnings in 1 file\n");
    }
    let bad = record.replace("d3-d2", "d3-d2xc2xe2");
    let outside = ppn_ls(
        &["check", "--stdin-filename", "elsewhere/game.otg", "-"],
        Some(&bad),
        &folder,
    );
    assert!(
        text(&outside.stdout).contains("elsewhere/game.otg:4:")
            && text(&outside.stdout).contains("capture-separator"),
        "{}",
        text(&outside.stdout)
    );
    // Under `tafl/`, its ppn-ls.toml is in force.
    let inside = ppn_ls(
        &["check", "--stdin-filename", "tafl/game.otg", "-"],
        Some(&bad),
        &folder,
    );
    assert!(
        !text(&inside.stdout).contains("capture-separator"),
        "{}",
        text(&inside.stdout)
    );

    // The formatter lays it out as OpenTafl.
    let formatted = ppn_ls(
        &["fmt", "--stdin-filename", "tafl/game.otg", "-"],
        Some(record),
        &folder,
    );
    assert_eq!(
        formatted.status.code(),
        Some(0),
        "{}",
        text(&formatted.stderr)
    );
    assert_eq!(text(&formatted.stdout), tidy);
    let _ = std::fs::remove_dir_all(&folder);
}
