//! Where a YAML error's cause is, for the YAML that PPN metadata and XAY files are written
//! in: the YAML reader reports where it gave up (often the end of the text), and names the
//! place of the quote or bracket left open only in its message.

use std::ops::Range;

use crate::diagnostic::Diagnostic;

/// A YAML error where its cause is: an unclosed quote or bracket at its opening, a
/// duplicate key at its second copy (with the first as related information).
pub fn located(
    file_text: &str,
    range: &Range<usize>,
    err: &serde_yaml::Error,
    code: &'static str,
    what: &str,
) -> Diagnostic {
    let yaml = &file_text[range.clone()];
    let text = err.to_string();
    let failed_at = err
        .location()
        .map_or(range.start, |loc| range.start + loc.index().min(yaml.len()));
    let point = |at: usize| at..next_char_end(file_text, at).min(range.end.max(at));

    if let Some(key) = duplicate_key(&text) {
        let mapping_start = err.location().map_or(0, |loc| loc.index().min(yaml.len()));
        if let Some((first, second)) = duplicate_key_ranges(yaml, mapping_start, &key) {
            return Diagnostic::error(
                range.start + second.start..range.start + second.end,
                code,
                format!("{what}: the key `{key}` is written twice"),
            )
            .with_related(
                range.start + first.start..range.start + first.end,
                format!("`{key}` is first written here"),
            );
        }
    }

    let problem = text.split(" at line ").next().unwrap_or(&text).to_string();
    let brackets = flow_brackets(yaml);
    let mut opening = None;
    if let Some((context, line, column)) = context_mark(&text) {
        let at = offset_of(yaml, line, column);
        match context.as_str() {
            "while scanning a quoted scalar" => {
                if let Some(at) = at {
                    return Diagnostic::error(
                        point(range.start + at),
                        code,
                        format!("{what}: the quote opened here is never closed ({problem})"),
                    )
                    .with_related(point(failed_at), "where the YAML reader gave up");
                }
            }
            "while parsing a flow sequence" | "while parsing a flow mapping" => opening = at,
            _ => {}
        }
    }
    // The reader names no opening, yet a bracket opened before it gave up is never closed
    // (`[[r], [h],` then the end): that bracket.
    let opening = opening.or_else(|| {
        let before = failed_at - range.start;
        let mut unclosed = brackets.iter().rev().filter(|b| b.close.is_none());
        unclosed
            .find(|bracket| bracket.open < before)
            .map(|bracket| bracket.open)
    });
    let Some(opening) = opening else {
        return Diagnostic::error(point(failed_at), code, format!("{what}: {problem}"));
    };
    let bracket = char::from(yaml.as_bytes()[opening]);
    // A row of a list written one row a line, left open: its `[` took the outer one's `]`,
    // so the outer bracket is the one the reader names. Where a reader looks is the row.
    if let Some(row) = row_left_open(yaml, &brackets, opening) {
        return Diagnostic::error(
            point(range.start + row),
            code,
            format!("{what}: this row's `[` is never closed on its line ({problem})"),
        )
        .with_related(
            point(range.start + opening),
            format!("the `{bracket}` the row is in, whose `]` closes the row instead"),
        )
        .with_related(point(failed_at), "where the YAML reader gave up");
    }
    Diagnostic::error(
        point(range.start + opening),
        code,
        format!("{what}: the `{bracket}` opened here is never closed ({problem})"),
    )
    .with_related(point(failed_at), "where the YAML reader gave up")
}

/// A `[` or `{` of a flow collection: where it opens, where its match closes it (if
/// anything does) and how many brackets it is inside.
struct FlowBracket {
    open: usize,
    close: Option<usize>,
    depth: usize,
}

/// Every flow bracket of `yaml`, in order. Brackets count where a flow collection may
/// start (after a line's start, `:`, `-`, `,`, `?` or another bracket), outside quotes and
/// comments: `a[b` is a plain scalar.
fn flow_brackets(yaml: &str) -> Vec<FlowBracket> {
    let bytes = yaml.as_bytes();
    let mut brackets: Vec<FlowBracket> = Vec::new();
    // Indices into `brackets` of those still open.
    let mut open: Vec<usize> = Vec::new();
    let mut quote: Option<u8> = None;
    // The last byte before this one that is not a space or tab, if on the same line.
    let mut previous: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if let Some(q) = quote {
            if q == b'"' && b == b'\\' {
                i += 1;
            } else if b == q {
                quote = None;
                previous = Some(b);
            }
            i += 1;
            continue;
        }
        let at_token_start = matches!(
            previous,
            None | Some(b':' | b'-' | b',' | b'?' | b'[' | b'{')
        );
        match b {
            b'\n' | b'\r' => {
                previous = None;
                i += 1;
                continue;
            }
            b' ' | b'\t' => {
                i += 1;
                continue;
            }
            b'#' if i == 0 || bytes[i - 1].is_ascii_whitespace() => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' | b'\'' if at_token_start => quote = Some(b),
            b'[' | b'{' if at_token_start => {
                open.push(brackets.len());
                brackets.push(FlowBracket {
                    open: i,
                    close: None,
                    depth: open.len() - 1,
                });
            }
            b']' | b'}' => {
                if let Some(index) = open.pop() {
                    brackets[index].close = Some(i);
                }
            }
            _ => {}
        }
        previous = Some(b);
        i += 1;
    }
    brackets
}

/// Inside the bracket opening at `outer`, the row whose `[` is not closed on its own line
/// and whose `]` comes only after another row has started below it at its column: the
/// row a `]` is missing from. `None` when the rows are not written one a line.
fn row_left_open(yaml: &str, brackets: &[FlowBracket], outer: usize) -> Option<usize> {
    let first = brackets.iter().position(|bracket| bracket.open == outer)?;
    let depth = brackets[first].depth + 1;
    let inside: Vec<&FlowBracket> = brackets[first + 1..]
        .iter()
        .take_while(|bracket| bracket.depth >= depth)
        .collect();
    // The rows that start their lines, by offset: a row begun inside another is one of
    // these with the other's depth plus one.
    let starts_line = |at: usize| yaml[line_start(yaml, at)..at].trim().is_empty();
    for row in inside.iter().filter(|bracket| bracket.depth == depth) {
        let Some(close) = row.close else {
            continue;
        };
        let line_end = yaml[row.open..]
            .find('\n')
            .map_or(yaml.len(), |i| row.open + i);
        if close < line_end || !starts_line(row.open) {
            continue;
        }
        let column = row.open - line_start(yaml, row.open);
        let sibling_inside = inside.iter().any(|other| {
            other.depth == depth + 1
                && (line_end..close).contains(&other.open)
                && other.open - line_start(yaml, other.open) == column
                && starts_line(other.open)
        });
        if sibling_inside {
            return Some(row.open);
        }
    }
    None
}

fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |i| i + 1)
}

/// `duplicate entry with key "GameType"` → `GameType`.
fn duplicate_key(message: &str) -> Option<String> {
    let rest = &message[message.find("duplicate entry with key ")? + 25..];
    let rest = rest.strip_prefix('"')?;
    Some(rest[..rest.find('"')?].to_string())
}

/// The first two block-mapping lines at the indentation of the mapping starting at
/// `mapping_start` (a byte offset of `yaml`) that write `key:`.
fn duplicate_key_ranges(
    yaml: &str,
    mapping_start: usize,
    key: &str,
) -> Option<(Range<usize>, Range<usize>)> {
    let line_start = yaml[..mapping_start].rfind('\n').map_or(0, |i| i + 1);
    let indent = mapping_start - line_start;
    let mut found = Vec::new();
    let mut offset = line_start;
    for line in yaml[line_start..].split_inclusive('\n') {
        let this_indent = line.len() - line.trim_start_matches([' ', '\t']).len();
        let content = line.trim();
        if this_indent < indent && !content.is_empty() && !content.starts_with('#') {
            break;
        }
        if this_indent == indent {
            let entry = &line[indent..];
            let written = [key.to_string(), format!("\"{key}\""), format!("'{key}'")]
                .into_iter()
                .find(|k| {
                    entry.starts_with(k.as_str())
                        && entry[k.len()..]
                            .trim_start_matches([' ', '\t'])
                            .starts_with(':')
                });
            if let Some(written) = written {
                let start = offset + indent;
                found.push(start..start + written.len());
                if found.len() == 2 {
                    let second = found.pop()?;
                    return Some((found.pop()?, second));
                }
            }
        }
        offset += line.len();
    }
    None
}

/// `..., while scanning a quoted scalar at line 1 column 11` → the context and its
/// one-based line and column.
fn context_mark(message: &str) -> Option<(String, usize, usize)> {
    let context_start = message.find(", while ")? + 2;
    let context_text = &message[context_start..];
    let at = context_text.find(" at line ")?;
    let context = context_text[..at].to_string();
    let mut numbers = context_text[at + 9..].split(" column ");
    let line = numbers.next()?.trim().parse().ok()?;
    let column = numbers
        .next()?
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()?;
    Some((context, line, column))
}

/// The byte offset of a one-based line and character column.
fn offset_of(text: &str, line: usize, column: usize) -> Option<usize> {
    let mut start = 0;
    for _ in 1..line {
        start += text[start..].find('\n')? + 1;
    }
    let line_text = &text[start..];
    let within = line_text
        .char_indices()
        .nth(column.checked_sub(1)?)
        .map_or(line_text.len(), |(i, _)| i);
    Some(start + within)
}

fn next_char_end(text: &str, at: usize) -> usize {
    text[at..].chars().next().map_or(at, |c| at + c.len_utf8())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn located_in(text: &str) -> Diagnostic {
        let err = serde_yaml::from_str::<serde_yaml::Value>(text).unwrap_err();
        located(text, &(0..text.len()), &err, "yaml-error", "not valid YAML")
    }

    #[test]
    fn a_bracket_left_open_is_found_past_brackets_in_scalars_quotes_and_comments() {
        let text = "a: x[y\nb: '[' # [\nc: [1, {d: [2]},\n";
        let found = located_in(text);
        let bracket = text.find("[1").unwrap();
        assert_eq!(found.range, bracket..bracket + 1, "{}", found.message);
        assert!(found
            .message
            .contains("the `[` opened here is never closed"));
        assert_eq!(found.related[0].message, "where the YAML reader gave up");
        // A mapping left open.
        let text = "a: {b: 1, c: [2],\n";
        let found = located_in(text);
        assert_eq!(found.range, 3..4, "{}", found.message);
        assert!(found.message.contains("the `{` opened here"));
        // Brackets all closed: the place the reader gave up.
        let text = "a: [1]\n b: 2\n";
        let found = located_in(text);
        assert!(found.related.is_empty());
        assert!(!found.message.contains("opened here"), "{}", found.message);
    }
}
