//! Small files built to exhaust `ppn-ls --check`: brace expansions that ask for
//! gigabytes or nest thousands deep, runs of unclosed braces, a hundred thousand games.
//! Each runs the binary with its address space capped at 1 GiB (`prlimit`) and a time
//! limit, and must end by itself with exit code 1 and a diagnostic at the cause.
//!
//! `hostile_inputs_finish_within_their_cpu_budget` holds the shapes that once made a path
//! quadratic: each must finish within a budget of processor time (not wall-clock time, so
//! that a loaded machine does not fail it) several times what the linear path takes, and
//! far below what the quadratic one took.

use std::fmt::Write as _;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const MEMORY_LIMIT: &str = "--as=1073741824";

/// Ten seconds for an optimised build; a debug build (what `cargo test` runs) is slower
/// by a constant factor, not by the size of the input.
fn time_limit() -> Duration {
    if cfg!(debug_assertions) {
        Duration::from_secs(40)
    } else {
        Duration::from_secs(10)
    }
}

struct Checked {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn check(name: &str, text: &str) -> Checked {
    let directory = std::env::temp_dir().join(format!("ppn-ls-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&directory).expect("a temporary directory");
    let path: PathBuf = directory.join(name);
    std::fs::write(&path, text).expect("the file is written");
    let mut child = Command::new("prlimit")
        .arg(MEMORY_LIMIT)
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_ppn-ls"))
        .args(["--format", "json", "--check"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("prlimit (util-linux) runs ppn-ls");
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let reading = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).map(|_| text)
    });
    let reading_errors = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).map(|_| text)
    });
    let deadline = Instant::now() + time_limit();
    let status = loop {
        if let Some(status) = child.try_wait().expect("ppn-ls can be waited for") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{name}: ppn-ls --check ran past {:?}", time_limit());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = std::fs::remove_file(&path);
    Checked {
        code: status.code(),
        stdout: reading.join().ok().and_then(Result::ok).unwrap_or_default(),
        stderr: reading_errors
            .join()
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default(),
    }
}

/// The diagnostics `--format json` printed: (code, line, column, message).
fn diagnostics(checked: &Checked) -> Vec<(String, u64, u64, String)> {
    let json: serde_json::Value = serde_json::from_str(&checked.stdout)
        .unwrap_or_else(|error| panic!("{error}: {}\n{}", checked.stdout, checked.stderr));
    json.as_array()
        .expect("a list of diagnostics")
        .iter()
        .map(|diagnostic| {
            (
                diagnostic["code"].as_str().unwrap_or_default().to_string(),
                diagnostic["line"].as_u64().unwrap_or_default(),
                diagnostic["column"].as_u64().unwrap_or_default(),
                diagnostic["message"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            )
        })
        .collect()
}

fn fails_with(name: &str, text: &str) -> Vec<(String, u64, u64, String)> {
    let checked = check(name, text);
    assert_eq!(
        checked.code,
        Some(1),
        "{name}: {}\n{}",
        checked.stdout,
        checked.stderr
    );
    diagnostics(&checked)
}

#[test]
fn a_range_followed_by_a_long_word_is_refused_by_length() {
    // 5 KB asking for 50 MB of text (and, as moves, far more).
    let text = format!("---\n...\n1. S@{{1..9999}}{} 2. S@a1\n", "a".repeat(5_000));
    let found = fails_with("long-range.ppn", &text);
    assert_eq!(found.len(), 1, "{found:?}");
    let (code, line, column, message) = &found[0];
    assert_eq!((code.as_str(), *line, *column), ("brace-expansion", 3, 6));
    assert!(message.contains("bytes of text"), "{message}");
}

#[test]
fn expansions_of_a_game_are_capped_by_length() {
    // Each word gives 4,000 strings of about 50 bytes: 200 KB, within a word's budget,
    // but the game's runs out after five of them. (In a comment, so that the replay has
    // nothing to say about the strings.)
    let word = format!("S@{{1..4000}}{}", "b".repeat(46));
    let text = format!("---\n...\n1. {{note {} }}\n", [word.as_str(); 12].join(" "));
    let found = fails_with("many-long-ranges.ppn", &text);
    let budget: Vec<_> = found
        .iter()
        .filter(|(_, _, _, message)| message.contains("in this game"))
        .collect();
    assert_eq!(budget.len(), 1, "{found:?}");
    assert!(budget[0].3.contains("bytes of text"), "{budget:?}");
    assert_eq!(budget[0].2, 10 + 5 * (word.chars().count() as u64 + 1));
}

#[test]
fn deeply_nested_braces_are_stopped_at_the_brace_too_deep() {
    for depth in [2_000, 20_000] {
        let text = format!(
            "---\n...\n1. S@{}a,b{}\n",
            "{".repeat(depth),
            "}".repeat(depth)
        );
        let found = fails_with("deep.ppn", &text);
        let nested: Vec<_> = found
            .iter()
            .filter(|(code, ..)| code == "brace-expansion")
            .collect();
        assert_eq!(nested.len(), 1, "{found:?}");
        assert!(nested[0].3.contains("nested more than"), "{nested:?}");
        // At the 65th brace (the first is in column 6): one past the limit of 64 levels.
        assert_eq!((nested[0].1, nested[0].2), (3, 6 + 64));
    }
}

#[test]
fn long_lists_of_nested_alternatives_end_quickly() {
    for count in [2_000, 10_000] {
        let text = format!(
            "---\n...\n1. S@{}x{}\n",
            "{a,".repeat(count),
            "}".repeat(count)
        );
        let found = fails_with("alternatives.ppn", &text);
        assert!(
            found.iter().all(|(_, line, ..)| *line == 3),
            "{count}: {found:?}"
        );
        assert!(!found.is_empty());
    }
}

#[test]
fn unclosed_braces_are_reported_at_the_first_one() {
    let text = format!("---\n...\n1. {}\n", "{".repeat(20));
    let found = fails_with("braces.ppn", &text);
    let codes: Vec<_> = found
        .iter()
        .map(|(code, line, column, _)| (code.as_str(), *line, *column))
        .collect();
    assert_eq!(codes, [("unclosed-comment", 3, 4)]);
}

#[test]
fn games_past_the_budget_are_not_read() {
    let text = "---\n...\n".repeat(100_005);
    let found = fails_with("games.ppn", &text);
    let codes: Vec<_> = found
        .iter()
        .map(|(code, line, column, _)| (code.as_str(), *line, *column))
        .collect();
    assert_eq!(codes, [("too-many-games", 200_001, 1)]);
    assert!(found[0].3.contains("100000 games"), "{found:?}");
}

#[test]
fn a_move_number_continued_two_hundred_thousand_times_keeps_labels_short() {
    // Each `;` continues the label before it by a dot: kept in full, the labels of these
    // 200 KB would take 20 GB, far past the 1 GiB the check may use.
    let semicolons = 200_000;
    let text = format!("---\n...\n1. S@a1{} *z9\n", ";".repeat(semicolons));
    let found = fails_with("semicolons.ppn", &text);
    assert_eq!(found.len(), 1, "{found:?}");
    let (_, line, column, message) = &found[0];
    // At `z9`, after `1. S@a1`, the semicolons and ` *`.
    let expected_column = "1. S@a1".len() + semicolons + " *".len() + 1;
    assert_eq!((*line, *column), (3, expected_column as u64), "{message}");
}

/// The processor time (user and system) a command took, with its exit code and output.
struct Timed {
    code: Option<i32>,
    cpu: Duration,
    stdout_bytes: usize,
    stderr: String,
}

/// Runs ppn-ls with `args` (the input's path appended) under the 1 GiB limit, and reads
/// its processor time from the kernel when it ends (`wait4`).
fn timed_run(name: &str, args: &[&str], text: &str) -> Timed {
    use std::os::unix::process::ExitStatusExt;
    let directory = std::env::temp_dir().join(format!("ppn-ls-cpu-{}", std::process::id()));
    std::fs::create_dir_all(&directory).expect("a temporary directory");
    let path = directory.join(name);
    std::fs::write(&path, text).expect("the file is written");
    // prlimit sets the limit and then becomes ppn-ls (exec), so the child is ppn-ls.
    let mut child = Command::new("prlimit")
        .arg(MEMORY_LIMIT)
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_ppn-ls"))
        .args(args)
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("prlimit (util-linux) runs ppn-ls");
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let counting = std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    let reading_errors = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).map(|_| text)
    });
    let pid = libc::pid_t::try_from(child.id()).expect("a process id");
    let mut status = 0;
    // SAFETY: `rusage` is plain data the kernel fills in; `pid` is our own child, waited
    // for here only (`child` is not waited for again).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "{name}: ppn-ls could not be waited for");
    std::mem::forget(child);
    let _ = std::fs::remove_file(&path);
    let seconds = |time: libc::timeval| {
        Duration::from_secs(time.tv_sec as u64) + Duration::from_micros(time.tv_usec as u64)
    };
    Timed {
        code: std::process::ExitStatus::from_raw(status).code(),
        cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime),
        stdout_bytes: counting
            .join()
            .ok()
            .and_then(Result::ok)
            .map_or(0, |bytes| bytes as usize),
        stderr: reading_errors
            .join()
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default(),
    }
}

/// Processor seconds a hostile input may take: each shape below takes at most a third of
/// it on a debug build (what `cargo test` runs) and a thirtieth on a release build, where
/// the quadratic paths they were written for took 5 to 100 times the linear ones.
fn cpu_budget() -> Duration {
    if cfg!(debug_assertions) {
        Duration::from_secs(12)
    } else {
        Duration::from_secs(4)
    }
}

/// A setup of 2,000 coins (the most a board holds) on a 20 × 100 board, then `moves`
/// MoveNumbers with no move: every state draws the whole board.
fn big_board_with_empty_moves(moves: usize) -> String {
    let numbers: Vec<String> = (1..=moves).map(|n| format!("{n}.")).collect();
    format!("---\n...\nS@{{a..t}}{{1..100}} {}\n", numbers.join(" "))
}

/// `1. {a,{a, … {a, d7[1]#(4.,}} … }`: a brace expression `depth` deep around a move
/// whose coordinates are never closed, so that the grammar's MISSING node sits at the
/// bottom of the tree.
fn deep_braces_around_a_broken_move(depth: usize, words: &[&str]) -> String {
    let mut text = String::from("---\n...\n1. ");
    for level in 0..depth {
        let _ = write!(text, "{{{},", words[level % words.len()]);
    }
    text.push_str(" d7[1]#(4.,");
    text.push_str(&"}".repeat(depth));
    text.push('\n');
    text
}

#[test]
fn hostile_inputs_finish_within_their_cpu_budget() {
    let check: &[&str] = &["--format", "json", "check"];
    let replay: &[&str] = &["replay"];
    let replay_json: &[&str] = &["replay", "--format", "json"];
    let cases: Vec<(&str, &[&str], String)> = vec![
        (
            "braces-10000-deep.ppn",
            check,
            deep_braces_around_a_broken_move(10_000, &["a"]),
        ),
        (
            "braces-mixed-20kb.ppn",
            check,
            deep_braces_around_a_broken_move(4_000, &["a", "b2", "S@a1", "c3-d4", "?S", "1"]),
        ),
        (
            "big-board-drawn.ppn",
            replay,
            big_board_with_empty_moves(250),
        ),
        (
            "big-board-json.ppn",
            replay_json,
            big_board_with_empty_moves(250),
        ),
        (
            "alternatives.ppn",
            check,
            format!(
                "---\n...\n1. S@{}x{}\n",
                "{a,".repeat(10_000),
                "}".repeat(10_000)
            ),
        ),
        (
            "long-range.ppn",
            check,
            format!("---\n...\n1. S@{{1..9999}}{} 2. S@a1\n", "a".repeat(5_000)),
        ),
        (
            "semicolons.ppn",
            check,
            format!("---\n...\n1. S@a1{} *z9\n", ";".repeat(200_000)),
        ),
        ("games.ppn", check, "---\n...\n".repeat(100_005)),
    ];
    let mut over = Vec::new();
    let mut spent = std::collections::HashMap::new();
    for (name, args, text) in &cases {
        let timed = timed_run(name, args, text);
        assert!(
            matches!(timed.code, Some(0 | 1)),
            "{name}: exit {:?}: {}",
            timed.code,
            timed.stderr
        );
        assert!(timed.stdout_bytes > 0, "{name} printed nothing");
        eprintln!("{name}: {:.2} s of processor time", timed.cpu.as_secs_f64());
        if timed.cpu > cpu_budget() {
            over.push(format!("{name}: {:.1} s", timed.cpu.as_secs_f64()));
        }
        spent.insert(*name, timed.cpu);
    }
    // A board of 2,000 pieces costs a quadratic scene only 4 times the linear one (the
    // pieces are capped), too little for the budget to tell on every machine: drawn, the
    // replay must cost at most 4 times the same replay written as JSON (2.2 times when
    // each scene is linear, 8.7 times when it compared every piece with every other).
    let (drawn, json) = (spent["big-board-drawn.ppn"], spent["big-board-json.ppn"]);
    if drawn > json * 4 + Duration::from_millis(500) {
        over.push(format!(
            "big-board-drawn.ppn: {:.1} s, {:.1} times the JSON replay",
            drawn.as_secs_f64(),
            drawn.as_secs_f64() / json.as_secs_f64()
        ));
    }
    assert!(
        over.is_empty(),
        "past the budget of {:?} (a path quadratic in the input's size?): {over:?}",
        cpu_budget()
    );
}

#[test]
fn a_brace_nested_ten_thousand_deep_around_a_broken_move_is_reported_at_it() {
    let text = deep_braces_around_a_broken_move(10_000, &["a"]);
    let found = fails_with("braces-deep-broken.ppn", &text);
    // The `)` the coordinates lack, where the `}` after them is.
    let broken = text.find("(4.,").unwrap() + "(4.,".len();
    let column = |offset: usize| (offset - text[..offset].rfind('\n').unwrap()) as u64;
    let codes: Vec<_> = found
        .iter()
        .map(|(code, line, column, _)| (code.as_str(), *line, *column))
        .collect();
    assert!(
        codes.contains(&("missing-token", 3, column(broken))),
        "{codes:?}"
    );
    // A message quotes a long move shortened: the range shows it whole.
    assert!(
        found.iter().all(|(_, _, _, message)| message.len() < 300),
        "{found:?}"
    );
}
