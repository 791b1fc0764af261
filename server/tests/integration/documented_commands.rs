//! Every console example of the README and of `docs/` is run, from the repository's root as a
//! reader types it, and what it prints is compared with what the example shows, so that the
//! examples stay true.
//!
//! An example is a ```` ```console ```` block: `$ ppn-ls ...` starts a command (quoted as a
//! shell quotes), the lines up to the next command or the block's end are what it prints
//! (standard output, then standard error), and a last `? N` line its exit code (0 when there
//! is none). In what it prints, a line `...` stands for any lines and `[..]` for any text
//! within a line (snapbox's matching, as trycmd's).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// One documented command.
struct Example {
    /// Where it is written: the file and the line of its `$`.
    source: String,
    arguments: Vec<String>,
    printed: String,
    exit_code: i32,
}

/// The words of a command line, as a POSIX shell splits them (quotes, no expansions).
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    assert!(quote.is_none(), "an unclosed quote in {line:?}");
    if in_word {
        words.push(word);
    }
    words
}

/// The console examples of a Markdown file.
fn examples(path: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(path).expect("the documentation is read");
    let name = path
        .strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string();
    let mut examples: Vec<Example> = Vec::new();
    let mut in_console = false;
    for (number, line) in text.lines().enumerate() {
        if !in_console {
            in_console = line.trim_start().starts_with("```console");
            continue;
        }
        if line.trim_start().starts_with("```") {
            in_console = false;
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            let arguments = words(command);
            assert_eq!(
                arguments.first().map(String::as_str),
                Some("ppn-ls"),
                "{name}:{}: a documented command runs ppn-ls",
                number + 1
            );
            examples.push(Example {
                source: format!("{name}:{}", number + 1),
                arguments: arguments[1..].to_vec(),
                printed: String::new(),
                exit_code: 0,
            });
        } else if let Some(example) = examples.last_mut() {
            match line.strip_prefix("? ") {
                Some(code) => {
                    example.exit_code = code.trim().parse().expect("an exit code after `? `")
                }
                None => {
                    example.printed.push_str(line);
                    example.printed.push('\n');
                }
            }
        }
    }
    examples
}

fn documentation() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md"), root().join("CONTRIBUTING.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ is read")
        .map(|entry| entry.expect("an entry of docs/").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn every_documented_command_prints_what_the_documentation_shows() {
    let mut run = 0;
    for file in documentation() {
        for example in examples(&file) {
            let output = Command::new(env!("CARGO_BIN_EXE_ppn-ls"))
                .args(&example.arguments)
                .current_dir(root())
                .env("NO_COLOR", "1")
                .output()
                .expect("ppn-ls runs");
            let printed = format!(
                "{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
            let expected = example.printed.trim_end().to_string() + "\n";
            let actual = printed.trim_end().to_string() + "\n";
            if let Err(error) =
                snapbox::Assert::new().try_eq(Some(&example.source), actual.into(), expected.into())
            {
                panic!("{}: what it prints differs:\n{error}", example.source);
            }
            assert_eq!(
                output.status.code(),
                Some(example.exit_code),
                "{}: the exit code",
                example.source
            );
            run += 1;
        }
    }
    assert!(run >= 4, "only {run} documented commands found");
}

#[test]
fn a_command_line_is_split_as_a_shell_splits_it() {
    assert_eq!(
        words("ppn-ls replay 'a b.ppn' --move \"3..\"  x"),
        ["ppn-ls", "replay", "a b.ppn", "--move", "3..", "x"]
    );
}
