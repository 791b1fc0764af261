//! `ppn-ls render` and `replay --format text` as users run them: every example game becomes
//! a diagram, a PNG and an animated GIF with one command each.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ppn_ls(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ppn-ls"))
        .args(args)
        .current_dir(project_root())
        .output()
        .expect("ppn-ls runs")
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

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn examples() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(project_root().join("tests/conformance/examples"))
            .expect("the examples are there")
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "ppn"))
            .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    files
}

/// A scratch directory for this test's pictures.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ppn-ls-render-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// The number of states (start and one per move) of the first game, from the JSON replay.
fn state_count(file: &Path) -> usize {
    let output = ppn_ls(&[
        "replay",
        "--format",
        "json",
        "--game",
        "1",
        file.to_str().unwrap(),
    ]);
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    value["games"][0]["states"].as_array().map_or(0, Vec::len)
}

#[test]
fn every_example_becomes_a_diagram_a_png_and_a_gif() {
    let dir = scratch("examples");
    for file in examples() {
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let path = file.to_str().unwrap();

        let text = ppn_ls(&["render", path]);
        assert_eq!(text.status.code(), Some(0), "{name}: {}", stderr(&text));
        let diagram = stdout(&text);
        assert!(diagram.starts_with("--- "), "{name}: {diagram}");
        assert!(diagram.lines().count() > 4, "{name}: {diagram}");
        // The plain style: box-drawing lines, no combining enclosures.
        assert!(
            diagram.contains('─') || diagram.contains('━'),
            "{name}: {diagram}"
        );
        assert!(!diagram.contains('\u{20dd}'), "{name}: {diagram}");
        let reference = stdout(&ppn_ls(&["render", path, "--board-style", "reference"]));
        assert!(
            reference.contains('─') || reference.contains('━'),
            "{name}: {reference}"
        );

        let png_path = dir.join(format!("{name}.png"));
        let png = ppn_ls(&["render", path, "-o", png_path.to_str().unwrap()]);
        assert_eq!(png.status.code(), Some(0), "{name}: {}", stderr(&png));
        let bytes = std::fs::read(&png_path).unwrap();
        let pixmap = resvg::tiny_skia::Pixmap::decode_png(&bytes).expect("a PNG");
        assert!(pixmap.width() >= 100 && pixmap.height() >= 100, "{name}");
        let pixels = pixmap.pixels();
        let white = pixels
            .iter()
            .filter(|p| p.red() > 250 && p.green() > 250 && p.blue() > 250)
            .count();
        let dark = pixels
            .iter()
            .filter(|p| p.red() < 100 && p.green() < 100 && p.blue() < 100)
            .count();
        assert!(white < pixels.len() * 9 / 10, "{name}: mostly blank");
        assert!(dark > 200, "{name}: no lines or ink");

        let gif_path = dir.join(format!("{name}.gif"));
        let gif = ppn_ls(&[
            "render",
            path,
            "--animate",
            "--frame-time",
            "300",
            "-o",
            gif_path.to_str().unwrap(),
        ]);
        assert_eq!(gif.status.code(), Some(0), "{name}: {}", stderr(&gif));
        let bytes = std::fs::read(&gif_path).unwrap();
        let mut decoder = gif::DecodeOptions::new()
            .read_info(&bytes[..])
            .expect("a GIF");
        let mut frames = 0;
        while let Some(frame) = decoder.read_next_frame().expect("a frame") {
            assert_eq!(frame.delay, 30, "{name}");
            frames += 1;
        }
        assert_eq!(frames, state_count(&file), "{name}: one frame per board");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_move_by_label_or_position_and_svg_options() {
    let file = "tests/conformance/examples/tic-tac-toe.ppn";
    let text = std::fs::read_to_string(project_root().join(file)).unwrap();
    let by_label = ppn_ls(&[
        "render", file, "--move", "2.", "--format", "svg", "--size", "300", "--flip",
    ]);
    assert_eq!(by_label.status.code(), Some(0), "{}", stderr(&by_label));
    let svg = stdout(&by_label);
    assert!(
        svg.starts_with("<svg ") && svg.contains("width=\"300\""),
        "{svg}"
    );
    // The line and column of move 2. in the file, 1-based.
    let offset = text.find("\n2.").expect("a move 2.") + 1;
    let line = text[..offset].matches('\n').count() + 1;
    let by_position = ppn_ls(&[
        "render",
        file,
        "--at",
        &format!("{line}:2"),
        "--format",
        "text",
    ]);
    assert_eq!(
        by_position.status.code(),
        Some(0),
        "{}",
        stderr(&by_position)
    );
    assert!(
        stdout(&by_position).starts_with("--- 2. "),
        "{}",
        stdout(&by_position)
    );
    // A label without the dot that ends it names the same move.
    let without_dot = ppn_ls(&[
        "render", file, "--move", "2", "--format", "svg", "--size", "300", "--flip",
    ]);
    assert_eq!(
        without_dot.status.code(),
        Some(0),
        "{}",
        stderr(&without_dot)
    );
    assert_eq!(stdout(&without_dot), svg);
    let replayed = ppn_ls(&["replay", file, "--move", "2"]);
    assert_eq!(replayed.status.code(), Some(0), "{}", stderr(&replayed));
    assert!(
        stdout(&replayed).starts_with("--- 2. "),
        "{}",
        stdout(&replayed)
    );
    let missing = ppn_ls(&["render", file, "--move", "99."]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("--move 99."),
        "{}",
        stderr(&missing)
    );
}

#[test]
fn animated_svg_has_a_frame_per_board() {
    let file = project_root().join("tests/conformance/examples/four-field-kono.ppn");
    let output = ppn_ls(&[
        "render",
        file.to_str().unwrap(),
        "--animate",
        "--format",
        "svg",
        "--frame-time",
        "250",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let svg = stdout(&output);
    let count = state_count(&file);
    assert_eq!(svg.matches("<animate ").count(), count);
    assert!(
        svg.contains(&format!("dur=\"{}s\"", count as f64 * 0.25)),
        "{}",
        &svg[..300]
    );
}

#[test]
fn wrong_requests_are_explained() {
    let file = "tests/conformance/examples/tic-tac-toe.ppn";
    let gif = ppn_ls(&["render", file, "-o", "board.gif"]);
    assert_eq!(gif.status.code(), Some(2));
    assert!(stderr(&gif).contains("--animate"), "{}", stderr(&gif));
    let odd = ppn_ls(&["render", file, "-o", "board.bmp"]);
    assert_eq!(odd.status.code(), Some(2));
    assert!(
        stderr(&odd).contains(".svg, .png, .gif, .html or .txt"),
        "{}",
        stderr(&odd)
    );
    let at = ppn_ls(&["render", file, "--at", "zero"]);
    assert_eq!(at.status.code(), Some(2));
    assert!(stderr(&at).contains("LINE:COLUMN"), "{}", stderr(&at));
    assert!(!Path::new("board.gif").exists() && !Path::new("board.bmp").exists());
}

#[test]
fn replay_text_says_start_and_shows_changes_or_ascii() {
    let file = "tests/conformance/examples/tic-tac-toe.ppn";
    let full = stdout(&ppn_ls(&["replay", file]));
    assert!(full.starts_with("--- start\n"), "{full}");
    assert!(!full.contains("SetupFn"), "{full}");
    let boards = full.matches("\n--- ").count() + 1;
    let changes = stdout(&ppn_ls(&["replay", "--changes", file]));
    assert_eq!(changes.matches("--- ").count(), boards);
    // After the starting board, each move lists what it changed instead of a board.
    let after_start = &changes[changes.find("\n--- 1.").expect("move 1.")..];
    assert!(!after_start.contains('─'), "{after_start}");
    assert!(after_start.contains("  b2: "), "{after_start}");
    let ascii = stdout(&ppn_ls(&["replay", "--ascii", file]));
    assert!(ascii.is_ascii(), "{ascii}");
    assert!(ascii.contains("+-"), "{ascii}");
    // Plain characters unless the reference's are asked for.
    assert!(full.contains('─') && !full.contains('\u{20dd}'), "{full}");
    let reference = stdout(&ppn_ls(&["replay", "--board-style", "reference", file]));
    assert!(
        reference.contains('─') && reference.contains('\u{20dd}'),
        "{reference}"
    );
    let unknown = ppn_ls(&["replay", "--board-style", "fancy", file]);
    assert_eq!(unknown.status.code(), Some(2), "{}", stderr(&unknown));
    // The JSON keeps the reference's labels: it is the conformance schema.
    let json = stdout(&ppn_ls(&["replay", "--format", "json", file]));
    assert!(json.contains("\"move\":\"SetupFn.\""), "{json}");
}

/// The starting board of one game of each system of the setups library, as a text
/// diagram (snapshots in `tests/snapshots/`).
#[test]
fn one_diagram_per_game_system() {
    use ppn_ls::ide::analyze::analyze;
    use ppn_ls::render::text::{diagram, BoardStyle, TextOptions};
    let games = [
        ("alquerque", "alquerque", "alquerque"),
        ("checker", "american-checkers", "american_checkers"),
        ("chess", "chess", "chess"),
        ("domino", "tiles", "tiles"),
        ("go", "gomoku", "gomoku"),
        ("marble", "", "board"),
        ("morris", "nine-mens-morris", "nine_mens_morris"),
        ("piecepack", "alien-city", "alien_city"),
        ("reversi", "reversi", "reversi"),
        ("stackpack", "xiangqi", "xiangqi"),
    ];
    for (system, file, name) in games {
        let path = project_root().join(format!("tests/conformance/setups/{system}-{file}.ppn"));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|_| format!("---\nSetUp:\n  Name: {name}\n  System: {system}\n...\n"));
        let document = analyze(Some(&path), text);
        assert!(
            document.diagnostics().is_empty(),
            "{system}: {:?}",
            document.diagnostics()
        );
        let start = document
            .main_line(0)
            .into_iter()
            .next()
            .expect("a starting board");
        let scene = document.scene(start.state).expect("a scene");
        // The reference's glyphs, and the plain style every editor shows.
        let reference = TextOptions {
            style: BoardStyle::Reference,
            ..TextOptions::default()
        };
        insta::assert_snapshot!(format!("system-{system}"), diagram(&scene, &reference));
        insta::assert_snapshot!(
            format!("system-{system}-plain"),
            diagram(&scene, &TextOptions::default())
        );
    }
}

#[test]
fn a_move_of_a_variation_is_drawn_by_its_label_or_its_place() {
    let file = "tests/otn/opentafl/Ard-Ri-Escape-Puzzle.otg";
    let variation = ppn_ls(&["render", file, "--move", "7a.1.1a", "--format", "svg"]);
    assert_eq!(variation.status.code(), Some(0), "{}", stderr(&variation));
    let drawn = stdout(&variation);
    assert!(
        drawn.contains("<title>The board after 7a.1.1a d1-e1</title>"),
        "{drawn}"
    );
    let main = stdout(&ppn_ls(&[
        "render", file, "--move", "7a", "--format", "svg",
    ]));
    assert!(
        main.contains("<title>The board after 7a c2-e2</title>"),
        "{main}"
    );
    // The same state, found by its place in the file.
    let text = std::fs::read_to_string(project_root().join(file)).unwrap();
    let line = text
        .lines()
        .position(|l| l.starts_with("7a.1.1a."))
        .unwrap()
        + 1;
    let at = ppn_ls(&[
        "render",
        file,
        "--at",
        &format!("{line}:10"),
        "--format",
        "svg",
    ]);
    assert_eq!(stdout(&at), drawn);
}
