//! Hover texts for an editor that shows no Markdown (it says so in its `contentFormat`):
//! the Markdown the hovers are written in, read as a person reads it. Only what hovers use
//! is taken away: `**` around bold text, the backticks of code spans and the fence lines
//! of code blocks (whose lines are kept as they are). Lists (`- `) and quotes (`> `) read
//! well as they are.

/// `markdown` without its marks.
pub fn plain_text(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut in_block = false;
    for line in markdown.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        if content.starts_with("```") {
            // A fence line (`` ```text `` opens, `` ``` `` closes): the block's lines stay.
            in_block = !in_block;
            continue;
        }
        if in_block {
            out.push_str(line);
        } else {
            out.push_str(&plain_line(content));
            out.push_str(&line[content.len()..]);
        }
    }
    out
}

/// One line outside code blocks: code spans' text kept as written, `**` pairs dropped
/// from the rest. A pair may hold a code span (`` **1. `C8.5`** ``), so the marks are
/// counted over the whole line's prose before any is dropped.
fn plain_line(line: &str) -> String {
    let pieces = prose_and_code(line);
    let marks: usize = pieces
        .iter()
        .filter(|piece| !piece.is_code)
        .map(|piece| piece.text.matches("**").count())
        .sum();
    let drop_bold = marks.is_multiple_of(2);
    let mut out = String::with_capacity(line.len());
    for piece in pieces {
        if piece.is_code || !drop_bold {
            out.push_str(piece.text);
        } else {
            out.push_str(&piece.text.replace("**", ""));
        }
    }
    out
}

/// A stretch of a line: prose, or the text inside a code span.
struct LinePiece<'a> {
    text: &'a str,
    is_code: bool,
}

/// `line` cut into prose and the contents of its code spans (backticks left out; a span
/// padded with a space on each side, to hold a backtick at its edge, without them).
fn prose_and_code(line: &str) -> Vec<LinePiece<'_>> {
    let mut pieces = Vec::new();
    let mut prose_start = 0;
    let mut at = 0;
    while let Some(found) = line[at..].find('`') {
        let start = at + found;
        let run = line[start..].len() - line[start..].trim_start_matches('`').len();
        let after = start + run;
        let Some(close) = closing_run(&line[after..], run) else {
            // No closing run: the backticks are text.
            at = after;
            continue;
        };
        pieces.push(LinePiece {
            text: &line[prose_start..start],
            is_code: false,
        });
        let mut code = &line[after..after + close];
        if code.len() >= 2
            && code.starts_with(' ')
            && code.ends_with(' ')
            && !code.trim().is_empty()
        {
            code = &code[1..code.len() - 1];
        }
        pieces.push(LinePiece {
            text: code,
            is_code: true,
        });
        at = after + close + run;
        prose_start = at;
    }
    pieces.push(LinePiece {
        text: &line[prose_start..],
        is_code: false,
    });
    pieces
}

/// Where, in `text`, the first run of exactly `run` backticks starts.
fn closing_run(text: &str, run: usize) -> Option<usize> {
    let mut at = 0;
    while let Some(found) = text[at..].find('`') {
        let start = at + found;
        let length = text[start..].len() - text[start..].trim_start_matches('`').len();
        if length == run {
            return Some(start);
        }
        at = start + length;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::plain_text;

    #[test]
    fn bold_code_spans_and_fences_are_taken_away() {
        let markdown = "**Move 2.** `b2-c1` — a comment\n\n\
                        - Moved null of Suns coin\n\n\
                        **Board 2.**\n\n```text\n2 ☾-+-+\n  a b\n```\nMarked: b2";
        assert_eq!(
            plain_text(markdown),
            "Move 2. b2-c1 — a comment\n\n\
             - Moved null of Suns coin\n\n\
             Board 2.\n\n2 ☾-+-+\n  a b\nMarked: b2"
        );
    }

    #[test]
    fn code_spans_keep_what_they_hold() {
        // Stars inside a code span (a PPN removal) and backticks held by a longer run.
        assert_eq!(plain_text("**Move 4...** `*d2`"), "Move 4... *d2");
        assert_eq!(plain_text("**Macro** `` `bridge' ``"), "Macro `bridge'");
        assert_eq!(plain_text("`SetUp` is given too"), "SetUp is given too");
    }

    #[test]
    fn bold_around_a_code_span_is_taken_away() {
        // A WXF move's hover: the label and the move in bold together.
        assert_eq!(
            plain_text("**1. `C8.5`** — Red cannon b2–e2"),
            "1. C8.5 — Red cannon b2–e2"
        );
        assert_eq!(plain_text("**a** `**` **b**"), "a ** b");
    }

    #[test]
    fn unpaired_marks_are_text() {
        assert_eq!(plain_text("a ` lone backtick"), "a ` lone backtick");
        assert_eq!(plain_text("2 ** 3"), "2 ** 3");
        assert_eq!(plain_text("``a` b"), "``a` b");
    }

    #[test]
    fn a_block_keeps_its_lines_as_they_are() {
        let markdown = "Starting board:\n\n```text\n**not bold** `x`\n```";
        assert_eq!(
            plain_text(markdown),
            "Starting board:\n\n**not bold** `x`\n"
        );
    }
}
