use std::path::{Path, PathBuf};

use super::*;
use crate::ppn::reader::games::split_games;

/// Cuts at every line start outside a comment: the most cuts the rules allow.
const EVERY_LINE: CutLimits = CutLimits {
    min_bytes: 1,
    max_bytes: 1,
    line_modulus: 1,
};

fn parse_with(text: &str, limits: &CutLimits) -> DocumentSyntax {
    DocumentSyntax::reusing(text, cut(text, &split_games(text), limits), limits, |_| {
        None
    })
}

#[derive(Debug, PartialEq)]
struct Summary {
    errors: Vec<SyntaxError>,
    broken: Vec<Range<usize>>,
    comments: Vec<Range<usize>>,
    tokens: Vec<(Range<usize>, TokenKind)>,
}

fn summary(syntax: &DocumentSyntax, text: &str) -> Summary {
    Summary {
        errors: syntax.errors().collect(),
        broken: syntax.broken_spans().collect(),
        comments: syntax.comments().collect(),
        tokens: syntax.token_spans(0..text.len()).collect(),
    }
}

/// The summary of one tree of the whole text.
fn whole_tree_summary(text: &str) -> Summary {
    let one = summarize(text, 0);
    let span = |range: &Range<u32>| range.start as usize..range.end as usize;
    Summary {
        errors: one.errors,
        broken: one.broken.iter().map(span).collect(),
        comments: one.comments.iter().map(span).collect(),
        tokens: one
            .tokens
            .iter()
            .map(|token| (token.start as usize..token.end as usize, token.kind))
            .collect(),
    }
}

fn ppn_files() -> Vec<PathBuf> {
    let mut folders = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests")];
    let mut files = Vec::new();
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("a readable folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "ppn") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// A long game: numbered moves, one or two a line, comments on one line and over several.
fn long_game(moves: usize) -> String {
    let mut text = String::from("---\nGameType: Chess\n...\n");
    for number in 1..=moves {
        let file = char::from(b'a' + (number % 8) as u8);
        text.push_str(&format!("{number}. {file}2-{file}4"));
        match number % 7 {
            0 => text.push_str(" {a comment\nover two lines}"),
            3 => text.push_str(&format!(" {number}... {file}7-{file}5 {{short}}")),
            _ => {}
        }
        text.push('\n');
    }
    text
}

#[test]
fn a_long_movetext_is_cut_at_line_starts_outside_comments() {
    let text = long_game(3_000);
    let syntax = DocumentSyntax::parse(&text, &split_games(&text));
    assert!(syntax.segment_count() > 10, "{}", syntax.segment_count());
    for segment in &syntax.segments {
        let range = segment.range.clone();
        assert!(range.len() <= CUT_LIMITS.max_bytes + 64, "{range:?}");
        assert!(range.start == 0 || text[..range.start].ends_with('\n'));
        // No comment is open where a segment starts.
        let before = &text[..range.start];
        assert!(
            before.rfind('{') <= before.rfind('}'),
            "cut inside a comment at {}",
            range.start
        );
    }
    assert_eq!(summary(&syntax, &text), whole_tree_summary(&text));
    assert!(syntax.errors().next().is_none());
}

/// A long game on one line: numbered moves and short comments.
fn one_line_game(moves: usize) -> String {
    let mut text = String::from("---\nGameType: Chess\n...\n");
    for number in 1..=moves {
        let file = char::from(b'a' + (number % 8) as u8);
        text.push_str(&format!("{number}. {file}2-{file}4 "));
        if number % 5 == 0 {
            text.push_str(&format!(
                "{{move {number}. {file}4}} {number}... {file}7-{file}5 "
            ));
        }
    }
    text.push('\n');
    text
}

#[test]
fn a_game_on_one_line_is_cut_before_its_move_numbers() {
    let text = one_line_game(3_000);
    let syntax = DocumentSyntax::parse(&text, &split_games(&text));
    assert!(syntax.segment_count() > 10, "{}", syntax.segment_count());
    for segment in &syntax.segments[1..] {
        let range = segment.range.clone();
        assert!(range.len() <= CUT_LIMITS.max_bytes + 64, "{range:?}");
        assert!(text[..range.start].ends_with(' '), "{range:?}");
        assert!(
            starts_move_number(&text.as_bytes()[range.start..]),
            "{range:?}"
        );
        let before = &text[..range.start];
        assert!(
            before.rfind('{') <= before.rfind('}'),
            "cut inside a comment at {}",
            range.start
        );
    }
    assert_eq!(summary(&syntax, &text), whole_tree_summary(&text));
    assert!(syntax.errors().next().is_none());
}

#[test]
fn a_short_line_is_cut_only_at_its_start() {
    let text = long_game(3_000);
    let syntax = DocumentSyntax::parse(&text, &split_games(&text));
    for segment in &syntax.segments[1..] {
        assert!(text[..segment.range.start].ends_with('\n'));
    }
}

#[test]
fn every_game_starts_a_segment() {
    let text = "---\n...\n1. S@a1\n---\nGameType: Chess\n...\n1. e2-e4\n";
    let syntax = DocumentSyntax::parse(text, &split_games(text));
    let starts: Vec<usize> = syntax.segments.iter().map(|s| s.range.start).collect();
    assert_eq!(starts, [0, text.find("---\nGameType").unwrap()]);
}

#[test]
fn test_files_cut_at_every_line_read_as_one_tree_of_the_whole_file() {
    let files = ppn_files();
    assert!(files.len() > 300, "{} files", files.len());
    let mut cut_files = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a readable file");
        let syntax = parse_with(&text, &EVERY_LINE);
        if syntax.segment_count() > split_games(&text).len() {
            cut_files += 1;
        }
        assert_eq!(
            summary(&syntax, &text),
            whole_tree_summary(&text),
            "{}",
            path.display()
        );
    }
    assert!(cut_files > 100, "{cut_files} files cut inside a movetext");
}

/// Applies `insert` over `old_text[range]`, as an editor would.
fn edited(old_text: &str, range: Range<usize>, insert: &str) -> String {
    format!(
        "{}{insert}{}",
        &old_text[..range.start],
        &old_text[range.end..]
    )
}

#[test]
fn an_update_equals_a_fresh_parse_and_reparses_only_near_the_edit() {
    updates_equal_fresh_parses_and_reparse_only_near_the_edit(long_game(2_000), &CUT_LIMITS, 3, 60);
}

#[test]
fn an_update_cut_at_every_line_equals_a_fresh_parse() {
    // Every line start is a cut: an edit that joins or splits lines moves cuts right at
    // its end.
    let mut text = long_game(300);
    text.push_str(&one_line_game(200));
    updates_equal_fresh_parses_and_reparse_only_near_the_edit(text, &EVERY_LINE, usize::MAX, 300);
}

#[test]
fn an_update_of_a_game_on_one_line_reparses_only_near_the_edit() {
    // A line end typed into the line starts a line whose first `max_bytes` are not cut
    // inside: the segments there are cut again.
    let line_end_edits = CUT_LIMITS.max_bytes / CUT_LIMITS.min_bytes + 3;
    updates_equal_fresh_parses_and_reparse_only_near_the_edit(
        one_line_game(2_000),
        &CUT_LIMITS,
        line_end_edits,
        60,
    );
}

#[test]
fn a_line_end_typed_before_a_cut_inside_a_line_is_cut_again_after_it() {
    // The MoveNumber after the new line end starts a line: no cut inside that line for
    // its first `max_bytes`, where the old line had them.
    let text = one_line_game(2_000);
    let syntax = DocumentSyntax::parse(&text, &split_games(&text));
    let cuts_inside_line: Vec<usize> = syntax
        .segments
        .iter()
        .map(|segment| segment.range.start)
        .filter(|&start| start > 1_000 && text.as_bytes()[start - 1] == b' ')
        .collect();
    assert!(cuts_inside_line.len() > 10);
    let starts = |syntax: &DocumentSyntax| -> Vec<usize> {
        syntax
            .segments
            .iter()
            .map(|segment| segment.range.start)
            .collect()
    };
    for &cut in &cuts_inside_line {
        // The blank before the MoveNumber becomes a line end; or one is typed before it.
        for (replaced, typed) in [
            (cut - 1..cut, "\n"),
            (cut..cut, "\n"),
            (cut - 1..cut, " \n"),
        ] {
            let new_text = edited(&text, replaced.clone(), typed);
            let new_end = replaced.start + typed.len();
            let updated = syntax.update(&new_text, &split_games(&new_text), replaced, new_end);
            let fresh = DocumentSyntax::parse(&new_text, &split_games(&new_text));
            assert_eq!(starts(&updated), starts(&fresh), "at {cut}, {typed:?}");
        }
    }
}

/// `rounds` random edits, each cut as a fresh parse cuts; each re-parses at most 3
/// segments, or `line_end_edits` when it types or removes a line end.
fn updates_equal_fresh_parses_and_reparse_only_near_the_edit(
    mut text: String,
    limits: &CutLimits,
    line_end_edits: usize,
    rounds: usize,
) {
    let mut syntax = parse_with(&text, limits);
    let count = syntax.segment_count();
    assert!(count > 8, "{count}");
    let mut seed = 7_u64;
    let edits = [
        "x", "}", "{", "\n", " ", "---\n", "{ open", "`", "(", "1.", "", "\n\n",
    ];
    for round in 0..rounds {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let start = (seed >> 33) as usize % text.len();
        let len = ((seed >> 20) % 4) as usize;
        let end = (start + len).min(text.len());
        let insert = edits[round % edits.len()];
        let new_text = edited(&text, start..end, insert);
        let updated = syntax.update(
            &new_text,
            &split_games(&new_text),
            start..end,
            start + insert.len(),
        );
        let fresh = parse_with(&new_text, limits);
        let cuts = |syntax: &DocumentSyntax| -> Vec<(Range<usize>, bool)> {
            syntax
                .segments
                .iter()
                .map(|segment| (segment.range.clone(), segment.continues_movetext))
                .collect()
        };
        assert_eq!(cuts(&updated), cuts(&fresh), "round {round}");
        assert_eq!(
            summary(&updated, &new_text),
            summary(&fresh, &new_text),
            "round {round}"
        );
        let reparsed = updated
            .segments
            .iter()
            .filter(|segment| {
                !syntax
                    .segments
                    .iter()
                    .any(|old| Arc::ptr_eq(&old.syntax, &segment.syntax))
            })
            .count();
        // An edit that opens a comment or a game (or takes out a brace or a dash) may
        // change the segments to the next brace or game; any other is confined to a few.
        let braces_or_dashes = ['{', '}', '-'];
        if !insert.contains(braces_or_dashes) && !text[start..end].contains(braces_or_dashes) {
            let line_end = insert.contains('\n') || text[start..end].contains('\n');
            assert!(
                reparsed <= if line_end { line_end_edits } else { 3 },
                "round {round}: {reparsed} of {count} re-parsed"
            );
        }
        text = new_text;
        syntax = updated;
    }
}

/// Every line of `text` but the first, alone and with the next three.
fn movetext_windows(text: &str) -> Vec<&str> {
    let starts: Vec<usize> = text
        .match_indices('\n')
        .map(|(at, _)| at + 1)
        .filter(|&at| at < text.len())
        .collect();
    starts
        .iter()
        .flat_map(|&start| {
            [1, 4].into_iter().map(move |lines| {
                let end = text[start..]
                    .match_indices('\n')
                    .nth(lines - 1)
                    .map_or(text.len(), |(at, _)| start + at + 1);
                &text[start..end]
            })
        })
        .collect()
}

#[test]
fn what_is_read_without_the_grammar_is_what_the_grammar_reads() {
    let mut texts: Vec<String> = ppn_files()
        .iter()
        .map(|path| std::fs::read_to_string(path).expect("a readable file"))
        .collect();
    texts.push(long_game(300));
    // Near misses of the shapes read without the grammar.
    texts.push(
        "x\n1. S@b2 cA3@(1.5,2) b2-c3 d2:g7 *h6 ?d~1 {ok} t@(10,-1) 2... a1:b2\n\
         S@B2 Sb@b2 cAx@b2 *(1,2) b2-c ?dd~1 ?d~x {a}{b} {x}y 1.x x. S@b2b a.b. S@(1.,2)\n\
         S@(1,2 b2--c3 *b2-c3 S@b2@c3 A2@b2 aA2@b2 {{x} {x\n}\n\
         2@b2 v@b2 x@b2 ?2~1 ?S~1 ?cA3~2 1@(1,1) b2:c3:d4 *b2b {x\ny} 1.\n\
         {\u{1}} Z.  a1. S@a1\n1... S@a0 *a00 b2-c3 {bar }\n"
            .to_string(),
    );
    let mut read = 0;
    let mut left = 0;
    for text in &texts {
        let words = text.split_whitespace().map(|word| format!("{word}\n"));
        let windows = movetext_windows(text).into_iter().map(str::to_owned);
        for window in words.chain(windows) {
            let window = window.as_str();
            match simple::summarize(window) {
                Some(simple) => {
                    read += 1;
                    assert_eq!(simple, parse_movetext_segment(window), "{window:?}");
                }
                None => left += 1,
            }
        }
    }
    assert!(read > 1_000 && left > 1_000, "{read} read, {left} left");
}
