//! The movetext reader's tests: records, the first pass, duplicate labels, tokens,
//! comments and windows.

mod record_tests {
    use super::super::*;

    fn token(text: &str, source: Range<usize>) -> MoveToken<'_> {
        MoveToken { text, source }
    }

    #[test]
    fn a_record_gives_back_what_it_was_made_of() {
        let tokens = [token("♠@a1", 14..20), token("b2-c3", 21..26)];
        let record = MoveRecord::new("12...", Some(8..13), &tokens, "a note", 8..36);
        assert_eq!(record.label(), "12...");
        assert_eq!(record.label_source(), Some(8..13));
        assert_eq!(record.text(), "♠@a1 b2-c3");
        assert_eq!(record.comment(), "a note");
        assert_eq!(record.source(), 8..36);
        assert_eq!(record.tokens().collect::<Vec<_>>(), tokens);
        assert_eq!(record.token(1), Some(tokens[1].clone()));
        assert_eq!(record.token(2), None);
        assert_eq!(record.tokens().next_back(), Some(tokens[1].clone()));

        let empty = MoveRecord::new(BEFORE_FIRST_MOVE_NUMBER_LABEL, None, &[], "", 3..3);
        assert_eq!(
            (empty.label(), empty.text(), empty.comment()),
            (BEFORE_FIRST_MOVE_NUMBER_LABEL, "", "")
        );
        assert_eq!((empty.label_source(), empty.tokens().len()), (None, 0));
    }

    #[test]
    fn a_moved_record_moves_every_range_and_equals_one_made_there() {
        let tokens = [token("S@b2", 4..8)];
        let record = MoveRecord::new("1.", Some(1..3), &tokens, "", 1..8);
        let moved = record.shifted(10);
        assert_eq!(moved.source(), 11..18);
        assert_eq!(moved.label_source(), Some(11..13));
        assert_eq!(moved.token(0).map(|token| token.source), Some(14..18));
        let made_there = MoveRecord::new("1.", Some(11..13), &[token("S@b2", 14..18)], "", 11..18);
        assert_eq!(moved, made_there);
        assert_ne!(record, made_there);
        assert_eq!(moved.shifted(-10), record);
        let other_text = MoveRecord::new("1.", Some(1..3), &[token("S@b3", 4..8)], "", 1..8);
        assert_ne!(record, other_text);
    }
}

mod first_pass_tests {
    use super::super::*;

    /// Tokens and their comment depth at the start, and the `}`s that close nothing,
    /// found character by character.
    fn tokens_by_characters(text: &str) -> (Vec<(Range<usize>, bool)>, Vec<usize>) {
        let mut tokens = Vec::new();
        let mut unopened = Vec::new();
        let mut start = None;
        let mut depth = 0usize;
        let mut previous = ' ';
        for (at, c) in text.char_indices() {
            if is_movetext_whitespace(c) {
                if let Some((start, in_comment)) = start.take() {
                    tokens.push((start..at, in_comment));
                }
            } else if start.is_none() {
                start = Some((at, depth > 0));
            }
            match c {
                '{' if previous != '\\' => depth += 1,
                '}' if previous != '\\' && depth == 0 => unopened.push(at),
                '}' if previous != '\\' => depth -= 1,
                _ => {}
            }
            previous = c;
        }
        if let Some((start, in_comment)) = start {
            tokens.push((start..text.len(), in_comment));
        }
        (tokens, unopened)
    }

    #[test]
    fn tokens_are_those_read_character_by_character() {
        let pieces = [
            "a", "1.", "-", "@", " ", "  ", "\t", "\r\n", "{", "}", "\\", "\\{", "é", "♠",
            "\u{A0}", "\u{3000}", "\u{2003}", "\u{2028}", "x{1,2}", ";",
        ];
        let mut random = crate::test_random::Xorshift::new(21);
        for _ in 0..3_000 {
            let text = random.text_of(&pieces, 24);
            let mut problems = Vec::new();
            let (_, tokens, _) = expand_tokens(
                &text,
                &text,
                &(0..text.len()),
                &SplitStart::at_movetext_start(),
                &mut problems,
            );
            let found: Vec<_> = tokens
                .iter()
                .map(|token| (token.range.clone(), token.in_comment))
                .collect();
            let unopened: Vec<_> = problems
                .iter()
                .filter(|p| p.code == MovetextProblemCode::UnopenedComment)
                .map(|p| p.range.start)
                .collect();
            assert_eq!((found, unopened), tokens_by_characters(&text), "{text:?}");
        }
    }
}

mod duplicate_label_tests {
    use super::super::*;

    /// The places of the labels used before, found with a set of every label.
    fn duplicates_by_set(labels: &[String]) -> Vec<usize> {
        let mut seen = std::collections::HashSet::from([SETUP_LABEL.to_string()]);
        (0..labels.len())
            .filter(|&i| !seen.insert(labels[i].clone()))
            .collect()
    }

    #[test]
    fn labels_used_twice_are_those_a_set_of_every_label_finds() {
        let stems = ["", "S", "M", "B", "Round", "SetupFn", "Setup_", "x."];
        let mut random = crate::test_random::Xorshift::new(7);
        for case in 0..4_000 {
            let count = random.below(12);
            let mut number = 0;
            let labels: Vec<String> = (0..count)
                .map(|_| {
                    // Mostly in order, as games are; sometimes back, or with a leading zero.
                    number = match random.below(8) {
                        0 => random.below(4),
                        _ => number + random.below(2),
                    };
                    let stem = stems[random.below(stems.len())];
                    let digits = match random.below(6) {
                        0 => String::new(),
                        1 => format!("0{number}"),
                        _ => number.to_string(),
                    };
                    let dots = ".".repeat(1 + random.below(3));
                    match random.below(2) {
                        0 => format!("{stem}{digits}{dots}"),
                        _ => format!("{digits}{stem}{dots}"),
                    }
                })
                .collect();
            let moves: Vec<MoveRecord> = labels
                .iter()
                .enumerate()
                .map(|(i, label)| {
                    MoveRecord::new(label, Some(i * 10..i * 10 + 1), &[], "", i * 10..i * 10 + 5)
                })
                .collect();
            let mut problems = Vec::new();
            report_duplicate_labels(&moves, &mut problems);
            let found: Vec<usize> = problems.iter().map(|p| p.range.start / 10).collect();
            assert_eq!(found, duplicates_by_set(&labels), "case {case}: {labels:?}");
        }
    }
}

mod token_lookup_tests {
    use super::super::expansion::SourceToken;
    use super::super::*;

    fn token_at(start: usize) -> SourceToken {
        SourceToken {
            range: start..start + 2,
            expanded: false,
            in_comment: false,
            expanded_strings_before: 0,
            expanded_bytes_before: 0,
            over_cap_before: false,
        }
    }

    #[test]
    fn tokens_are_found_from_the_last_one_as_a_binary_search_finds_them() {
        let tokens: Vec<SourceToken> = [0, 3, 6, 7, 12, 20].into_iter().map(token_at).collect();
        let by_search = |start: usize| {
            tokens
                .binary_search_by_key(&start, |token| token.range.start)
                .ok()
                .map(|index| tokens[index].range.clone())
        };
        // In order (a start asked twice, as the labels of one expanded token are), then
        // going back, and past the end.
        let asked = [0, 3, 3, 5, 6, 12, 4, 7, 6, 20, 25, 0];
        let mut from = 0;
        for start in asked {
            let found = token_starting_at(&tokens, &mut from, start).map(|t| t.range.clone());
            assert_eq!(found, by_search(start), "token starting at {start}");
        }
    }
}

mod comment_tests {
    use super::super::scan::{is_move_number_char, move_numbers};
    use super::super::working_text::WorkingText;
    use super::super::*;

    /// A text's characters with the byte each starts at.
    fn characters(text: &str) -> Vec<(usize, char)> {
        text.char_indices().collect()
    }

    /// Comments found character by character with a table of each position's next `}`,
    /// the way the splitter first found them.
    fn comment_spans_by_table(body: &str) -> Vec<Range<usize>> {
        let chars = characters(body);
        let byte = |i: usize| chars.get(i).map_or(body.len(), |(at, _)| *at);
        let mut next_close = vec![None; chars.len() + 1];
        for i in (0..chars.len()).rev() {
            next_close[i] = if chars[i].1 == '}' {
                Some(i)
            } else {
                next_close[i + 1]
            };
        }
        let mut spans = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let free_before = i == 0 || !char_class::is_alphanumeric_or_punctuation(chars[i - 1].1);
            if chars[i].1 == '{' && free_before {
                let Some(close) = next_close[i + 1] else {
                    break;
                };
                let free_after = close + 1 == chars.len()
                    || !char_class::is_alphanumeric_or_punctuation(chars[close + 1].1);
                if free_after {
                    spans.push(byte(i)..byte(close + 1));
                    i = close + 1;
                    continue;
                }
            }
            i += 1;
        }
        spans
    }

    /// MoveNumbers found by reading every run of MoveNumber characters from its start,
    /// character by character, with a table of the positions inside comments.
    fn move_numbers_run_by_run(text: &str) -> Vec<Range<usize>> {
        let chars = characters(text);
        let byte = |i: usize| chars.get(i).map_or(text.len(), |(at, _)| *at);
        let mut in_comment = vec![false; chars.len() + 1];
        for i in (0..chars.len()).rev() {
            in_comment[i] = match chars[i].1 {
                '{' => false,
                '}' => true,
                _ => in_comment[i + 1],
            };
        }
        let mut numbers = Vec::new();
        let mut p = 0;
        while p < chars.len() {
            if !is_move_number_char(chars[p].1) {
                p += 1;
                continue;
            }
            let free_before = p == 0 || !char_class::is_alphanumeric_or_punctuation(chars[p - 1].1);
            let mut q = p;
            while q < chars.len() && is_move_number_char(chars[q].1) {
                q += 1;
            }
            if free_before && chars[q - 1].1 == '.' && !in_comment[q] {
                let free_after =
                    q == chars.len() || !char_class::is_alphanumeric_or_punctuation(chars[q].1);
                if free_after {
                    numbers.push(byte(p)..byte(q));
                }
            }
            p = q;
        }
        numbers
    }

    #[test]
    fn move_numbers_found_from_their_dots_are_those_read_run_by_run() {
        for text in [
            "",
            ".",
            "..",
            "1.",
            "1...",
            "12S.",
            "a.b",
            "1. a1-b2 2. c3",
            "x.y 3. etc.",
            "(1.) 2.) 3.",
            "1.a 2.",
            "{1. in} 2.",
            ".1. ..",
            "1‿2. é3. 4.é",
            "$1. ~2.~",
            "1-0 1.5 2.. ;.",
            "a1-b2. 3.",
            "1.{ x } 2.",
            "♠1. é. ٣. ‿3.",
            "x 1.} 2. {3.} 4.",
        ] {
            assert_eq!(move_numbers(text), move_numbers_run_by_run(text), "{text}");
        }
    }

    #[test]
    fn a_move_number_takes_one_character_on_each_side_with_it() {
        let cut = |text: &str| -> Vec<(Option<String>, String)> {
            cut_at_move_numbers(text)
                .into_iter()
                .map(|raw| {
                    (
                        raw.label.map(|label| text[label].to_string()),
                        text[raw.body].to_string(),
                    )
                })
                .collect()
        };
        let number = |label: &str, body: &str| (Some(label.to_string()), body.to_string());
        assert_eq!(cut("a 1. b"), [(None, "a".to_string()), number("1.", "b")]);
        assert_eq!(
            cut("x♠1.♣y ♣2.\u{3000}z"),
            [
                (None, "x".to_string()),
                number("1.", "y "),
                number("2.", "z")
            ]
        );
        assert_eq!(cut("1. 2."), [number("1.", ""), number("2.", "")]);
        assert_eq!(cut("no numbers"), [(None, "no numbers".to_string())]);
    }

    #[test]
    fn move_number_characters_are_letters_digits_underscores_and_dots() {
        for c in (0..=0x7f).chain([0xe9, 0x2c6, 0x660, 0x203f, 0x35c, 0x2e9c]) {
            let c = char::from_u32(c).expect("a character");
            assert_eq!(
                is_move_number_char(c),
                c == '_' || c == '.' || char_class::is_alphanumeric(c),
                "{c:?}"
            );
        }
    }

    #[test]
    fn comments_are_found_as_with_a_table_of_closing_braces() {
        let bodies = [
            "",
            "{",
            "}",
            "{}",
            "{a}",
            "a{b}",
            "{a}b",
            "{ a } { b }",
            "{a}}",
            "{{a}",
            "{ {a} }",
            "}{",
            "{ x}y {z }",
            "b2-c3 {note} d4",
            "{a$}$ {b}",
            "{ }{ }",
            "{1.}x{ 2. } {",
            "x{ {y} z}",
            "{a}b} {c}",
            "{ ‿} {é}",
            "é{x}♠{y}‿ {z}é",
        ];
        // One list for all: each search empties it first.
        let mut spans = Vec::new();
        for body in bodies {
            find_comment_spans(body, &mut spans);
            assert_eq!(spans, comment_spans_by_table(body), "{body}");
        }
    }

    /// `}` without `{` and the first `{` never closed, found with a stack of open braces.
    fn unmatched_braces_by_stack(text: &str) -> (Vec<usize>, Option<usize>) {
        let mut open = Vec::new();
        let mut unopened = Vec::new();
        let mut escaped = false;
        for (at, byte) in text.bytes().enumerate() {
            if !escaped {
                match byte {
                    b'{' => open.push(at),
                    b'}' if open.pop().is_none() => unopened.push(at),
                    _ => {}
                }
            }
            escaped = byte == b'\\';
        }
        (unopened, open.first().copied())
    }

    #[test]
    fn unmatched_comment_braces_are_those_a_stack_finds() {
        for text in [
            "",
            "{",
            "}",
            "{}",
            "a} {b {c} \\} d} e} {f {g",
            "{a} {b",
            "}}{{",
            "{ {x} }} {",
            "\\{ x}",
            "é} ‿{ {",
            "{a}\\}b}",
            "x {1. y}\n2. {z",
        ] {
            let mut problems = Vec::new();
            expand_tokens(
                text,
                text,
                &(0..text.len()),
                &SplitStart::at_movetext_start(),
                &mut problems,
            );
            let unopened: Vec<usize> = problems
                .iter()
                .filter(|p| p.code == MovetextProblemCode::UnopenedComment)
                .map(|p| p.range.start)
                .collect();
            let unclosed: Vec<Range<usize>> = problems
                .iter()
                .filter(|p| p.code == MovetextProblemCode::UnclosedComment)
                .map(|p| p.range.clone())
                .collect();
            let (expected_unopened, expected_unclosed) = unmatched_braces_by_stack(text);
            assert_eq!(unopened, expected_unopened, "{text}");
            let expected_unclosed: Vec<Range<usize>> = expected_unclosed
                .map(|at| at..text.len())
                .into_iter()
                .collect();
            assert_eq!(unclosed, expected_unclosed, "{text}");
        }
    }

    #[test]
    fn words_outside_comments_keep_the_file_bytes_they_come_from() {
        let file = "a1-b2 {x} ${note}~ é@c3\u{3000}t@{b,d}2";
        let mut working = WorkingText::default();
        working.push_written("a1-b2", 0);
        for (written, at) in [("{x}", 6), ("${note}~", 10), ("é@c3\u{3000}", 19)] {
            working.push_separator();
            working.push_written(written, at);
            assert_eq!(&file[at..at + written.len()], written);
        }
        for expansion in ["t@b2", "t@d2"] {
            working.push_separator();
            working.push_expansion(expansion, 27..35);
        }
        assert_eq!(&file[27..35], "t@{b,d}2");
        let body = working.text.clone();
        let mut comments = Vec::new();
        find_comment_spans(&body, &mut comments);
        let mut words = Words::default();
        tokens_outside(&body, 0, &comments, &working, &mut words);
        assert_eq!(words.text, "a1-b2 $~ é@c3 t@b2 t@d2");
        assert_eq!(
            words.tokens,
            [
                (5, 0..5),
                (8, 10..18),
                (14, 19..24),
                (19, 27..35),
                (24, 27..35)
            ]
        );
        let mut comment = "left from before".to_string();
        write_comment_text(&body, &comments, &mut comment);
        assert_eq!(comment, "x note");
    }
}

mod window_tests {
    use super::super::*;

    /// The split of the whole movetext in one window.
    fn split_whole(file_text: &str, movetext: Range<usize>) -> ResumableSplit {
        let part = split_part(file_text, movetext.clone(), SplitStart::at_movetext_start());
        joined_parts(vec![part], &movetext)
    }

    /// Lines of movetext with what makes windows hard: comments over several lines, a `}`
    /// without a `{`, brace expansions (also in comments, and ones that empty the next
    /// brace), `;` (also so many that labels are written short), escaped braces,
    /// MoveNumbers inside comments, CRLF line ends.
    const LINES: [&str; 17] = [
        "{N}. S@b2 {N}... *b2",
        "{N}. t@{b,d}{2..8..2} {a note}",
        "{N}. c3-d4 { a comment\n{N}. still in it }",
        "{N}... {over\r\nlines\n}",
        "{N}... M@e5; A@f6",
        "{N}. }",
        "{N}. x\\{y {z}",
        "{N}. S@{a..h}1 {in {a,b} comment}",
        "{N}... ?d~1 {rolled}\r",
        "{N}. a1-b2\t{N}... b2-c3",
        "{N}.. {a}{b} t@c3",
        "{N}. {",
        "{N}. S@a1",
        "{N}. S@x{1..3000}",
        "{N}S. @c3 {1. inside}",
        "{N}. t@{b,d}{2..8..2} }",
        // Labels past the bound written short (see `labels`).
        "{N}. x{150 SEMICOLONS}",
    ];

    fn movetext(seed: u64, lines: usize, weights: &[usize]) -> String {
        let mut state = seed;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let total: usize = weights.iter().sum();
        let mut text = String::new();
        for number in 1..=lines {
            let mut pick = (next() % total as u64) as usize;
            let line = LINES
                .iter()
                .zip(weights)
                .find(|(_, &weight)| {
                    let found = pick < weight;
                    pick = pick.saturating_sub(weight);
                    found
                })
                .map_or(LINES[0], |(line, _)| line);
            let line = line.replace("{150 SEMICOLONS}", &";x".repeat(150));
            text.push_str(&line.replace("{N}", &number.to_string()));
            text.push('\n');
        }
        text
    }

    #[test]
    fn labels_continued_by_many_semicolons_stay_short() {
        let semicolons = 100_000;
        let file_text = format!("1. {}", ";".repeat(semicolons));
        let split = split_movetext(&file_text, 0..file_text.len());
        assert_eq!(split.moves.len(), semicolons + 1);
        let longest = split.moves.iter().map(|m| m.label().len()).max();
        assert_eq!(longest, Some(labels::MAX_WRITTEN_LABEL_BYTES));
        // Move `k` continues `1.` with `k` more dots.
        let bound = labels::MAX_WRITTEN_LABEL_BYTES;
        assert_eq!(
            split.moves[bound - 2].label(),
            format!("1{}", ".".repeat(bound - 1))
        );
        assert_eq!(split.moves[bound - 1].label(), format!("1.…({bound} dots)"));
        assert_eq!(
            split.moves[semicolons].label(),
            format!("1.…({} dots)", semicolons + 1)
        );
        // Each label is still its own: none is reported twice.
        assert!(split.problems.is_empty());
        // A MoveNumber written with as many dots is the same label, used twice.
        let again = format!("{file_text} 1{}", ".".repeat(200));
        let split = split_movetext(&again, 0..again.len());
        assert_eq!(
            split
                .problems
                .iter()
                .map(|p| (p.code, &again[p.range.clone()]))
                .collect::<Vec<_>>(),
            [(
                MovetextProblemCode::DuplicateMoveNumber,
                &*format!("1{}", ".".repeat(200))
            )]
        );
    }

    #[test]
    fn a_long_movetext_splits_in_windows_as_it_splits_whole() {
        let mut windowed = 0;
        for seed in 1..=24u64 {
            // Mostly plain moves, with ever more of the hard lines.
            let hard = (seed % 8) as usize;
            let mut weights = [hard; LINES.len()];
            weights[0] = 40;
            weights[12] = 40;
            weights[13] = usize::from(seed % 5 == 0);
            // A comment never closed makes the rest one comment, and a `}` with no `{`
            // makes the text before it one: windows give way to the whole split.
            weights[11] = usize::from(seed % 10 == 0);
            weights[15] = usize::from(seed % 6 == 0);
            let movetext = movetext(seed, 4_000, &weights);
            let file_text = format!("---\n...\n{movetext}");
            let range = 8..file_text.len();
            let whole = split_whole(&file_text, range.clone());
            assert_eq!(
                split_movetext_resumable(&file_text, range.clone()),
                whole,
                "seed {seed}"
            );
            // Small windows put cuts before every kind of line.
            let Some(parts) = split_in_windows(&file_text, &range, 100 + 40 * seed as usize) else {
                continue;
            };
            windowed += 1;
            let split = joined_parts(parts, &range);
            assert_eq!(split.moves.len(), whole.moves.len(), "seed {seed}");
            for (index, (windowed, whole)) in split.moves.iter().zip(&whole.moves).enumerate() {
                assert_eq!(windowed, whole, "seed {seed}, move {index}");
            }
            assert_eq!(split, whole, "seed {seed}");
        }
        // Most texts are split in windows; the others fall back to the whole split.
        assert!(
            windowed >= 16,
            "only {windowed} of 24 texts split in windows"
        );
    }
}
