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
/// from the rest.
fn plain_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut prose = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        let run = rest[start..].len() - rest[start..].trim_start_matches('`').len();
        let after = &rest[start + run..];
        let Some(close) = closing_run(after, run) else {
            // No closing run: the backticks are text.
            prose.push_str(&rest[..start + run]);
            rest = after;
            continue;
        };
        prose.push_str(&rest[..start]);
        out.push_str(&without_bold(&std::mem::take(&mut prose)));
        let code = &after[..close];
        // A span padded with a space on each side (to hold a backtick at its edge) is
        // read without them.
        let padded = code.len() >= 2
            && code.starts_with(' ')
            && code.ends_with(' ')
            && !code.trim().is_empty();
        out.push_str(if padded {
            &code[1..code.len() - 1]
        } else {
            code
        });
        rest = &after[close + run..];
    }
    prose.push_str(rest);
    out.push_str(&without_bold(&prose));
    out
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

/// Text with its `**` marks dropped, when they pair up (a lone `**` is text).
fn without_bold(text: &str) -> String {
    if text.matches("**").count().is_multiple_of(2) {
        text.replace("**", "")
    } else {
        text.to_string()
    }
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
