//! A reader for the YAML that XAY files are written in, which keeps where every node is:
//! a block mapping at the top, flow lists (`[[r], [h]]`, over several lines, with `#`
//! comments between items) and block lists (`- - r`), plain and quoted words.
//!
//! serde_yaml decides whether the text is YAML at all; this reader gives the ranges that
//! diagnostics, hovers and completions need. YAML outside this subset (anchors, tags,
//! flow mappings, block scalars) is reported as such by [`parse`], and the caller falls
//! back to serde_yaml's values without ranges.

use std::ops::Range;

/// A YAML node with its place in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    Scalar {
        /// The value: quotes removed, escapes resolved.
        value: String,
        /// Including the quotes.
        range: Range<usize>,
        quoted: bool,
    },
    Seq {
        items: Vec<Node>,
        range: Range<usize>,
    },
    Map {
        entries: Vec<Entry>,
        range: Range<usize>,
    },
    /// A key with no value.
    Null { range: Range<usize> },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: String,
    pub key_range: Range<usize>,
    pub value: Node,
}

impl Node {
    pub fn range(&self) -> Range<usize> {
        match self {
            Node::Scalar { range, .. }
            | Node::Seq { range, .. }
            | Node::Map { range, .. }
            | Node::Null { range } => range.clone(),
        }
    }

    /// What a plain scalar is in YAML 1.1 (as PyYAML reads it), for messages.
    pub fn describe(&self) -> &'static str {
        match self {
            Node::Scalar { quoted: true, .. } => "a string",
            Node::Scalar { value, .. } => plain_type(value),
            Node::Seq { .. } => "a list",
            Node::Map { .. } => "a mapping",
            Node::Null { .. } => "nothing",
        }
    }

    /// The scalar's text when YAML reads it as a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Node::Scalar {
                value,
                quoted: true,
                ..
            } => Some(value),
            Node::Scalar { value, .. } if plain_type(value) == "a string" => Some(value),
            _ => None,
        }
    }
}

/// The type PyYAML gives a plain scalar.
fn plain_type(value: &str) -> &'static str {
    let lower = value.to_ascii_lowercase();
    let is_number = {
        let digits = value.strip_prefix(['+', '-']).unwrap_or(value);
        !digits.is_empty()
            && (digits.chars().all(|c| c.is_ascii_digit() || c == '_')
                || (digits.parse::<f64>().is_ok() && digits.chars().any(|c| c.is_ascii_digit()))
                || digits.strip_prefix("0x").is_some_and(|hex| {
                    !hex.is_empty() && hex.chars().all(|c| c.is_ascii_hexdigit())
                }))
    };
    if matches!(lower.as_str(), "~" | "null" | "") {
        "nothing (null)"
    } else if matches!(
        value,
        "yes"
            | "Yes"
            | "YES"
            | "no"
            | "No"
            | "NO"
            | "true"
            | "True"
            | "TRUE"
            | "false"
            | "False"
            | "FALSE"
            | "on"
            | "On"
            | "ON"
            | "off"
            | "Off"
            | "OFF"
    ) {
        "a boolean"
    } else if is_number || matches!(lower.as_str(), ".inf" | "-.inf" | "+.inf" | ".nan") {
        "a number"
    } else {
        "a string"
    }
}

/// A document read, with its comments (for highlighting and folding).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    pub root: Node,
    pub comments: Vec<Range<usize>>,
}

/// Why the text is outside what this reader knows, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    pub range: Range<usize>,
    pub message: String,
}

/// Read `text`. Depth is bounded: lists nested deeper than [`MAX_DEPTH`] are refused.
pub fn parse(text: &str) -> Result<Document, Unreadable> {
    let mut reader = Reader {
        text,
        at: 0,
        comments: Vec::new(),
        depth: 0,
    };
    let root = reader.document()?;
    // A flow list the reader tries one way and then reads again another (`- Z]` after
    // block lists) passes its comments twice.
    let mut comments = reader.comments;
    comments.sort_by_key(|range| (range.start, range.end));
    comments.dedup();
    Ok(Document { root, comments })
}

/// XAY nests three lists deep; anything much deeper is not a XAY file.
pub const MAX_DEPTH: usize = 16;

struct Reader<'a> {
    text: &'a str,
    at: usize,
    comments: Vec<Range<usize>>,
    depth: usize,
}

impl Reader<'_> {
    fn fail<T>(&self, range: Range<usize>, message: impl Into<String>) -> Result<T, Unreadable> {
        Err(Unreadable {
            range,
            message: message.into(),
        })
    }

    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    fn line_start(&self, at: usize) -> usize {
        self.text[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1)
    }

    fn line_end(&self, at: usize) -> usize {
        self.text[at..]
            .find(['\n', '\r'])
            .map_or(self.text.len(), |i| at + i)
    }

    fn column(&self, at: usize) -> usize {
        at - self.line_start(at)
    }

    /// Skip spaces and tabs on this line, and a comment to its end.
    fn skip_inline(&mut self) {
        while let Some(c) = self.peek() {
            if c == ' ' || c == '\t' {
                self.at += 1;
            } else if c == '#'
                && (self.at == 0
                    || matches!(
                        self.text.as_bytes()[self.at - 1],
                        b' ' | b'\t' | b'\n' | b'\r' | b',' | b'['
                    ))
            {
                let end = self.line_end(self.at);
                self.comments.push(self.at..end);
                self.at = end;
            } else {
                break;
            }
        }
    }

    /// Skip whitespace, newlines and comments.
    fn skip_all(&mut self) {
        loop {
            self.skip_inline();
            match self.peek() {
                Some('\n' | '\r') => self.at += 1,
                Some('\u{feff}') => self.at += '\u{feff}'.len_utf8(),
                _ => break,
            }
        }
    }

    fn at_line_end(&self) -> bool {
        matches!(self.peek(), None | Some('\n' | '\r'))
    }

    fn document(&mut self) -> Result<Node, Unreadable> {
        self.skip_all();
        if self.text[self.at..].starts_with("---") {
            self.at += 3;
            self.skip_all();
        }
        let start = self.at;
        let mut entries = Vec::new();
        while self.at < self.text.len() {
            if self.text[self.at..].starts_with("...") && self.column(self.at) == 0 {
                self.at += 3;
                self.skip_all();
                continue;
            }
            if self.column(self.at) != 0 {
                return self.fail(
                    self.at..self.line_end(self.at),
                    "a XAY file is a mapping whose keys start at the beginning of a line",
                );
            }
            entries.push(self.entry(0)?);
            self.skip_all();
        }
        Ok(Node::Map {
            entries,
            range: start..self.at,
        })
    }

    fn entry(&mut self, indent: usize) -> Result<Entry, Unreadable> {
        let key_start = self.at;
        let (key, key_range) = match self.peek() {
            Some('\'' | '"') => {
                let (value, range) = self.quoted()?;
                (value, range)
            }
            _ => {
                let end = self.text[self.at..]
                    .find([':', '\n', '\r', '#'])
                    .map_or(self.text.len(), |i| self.at + i);
                let key = self.text[self.at..end].trim_end();
                if key.is_empty() {
                    return self.fail(
                        key_start..end.max(key_start + 1).min(self.text.len()),
                        "expected a key",
                    );
                }
                if key.starts_with(['[', '{', '-', '&', '*', '!', '|', '>', '?']) {
                    return self.fail(
                        key_start..key_start + key.len(),
                        "a XAY file is a mapping of `version` and `setup`; this line is not a `key: value`",
                    );
                }
                self.at = key_start + key.len();
                (key.to_string(), key_start..self.at)
            }
        };
        self.skip_inline();
        if self.peek() != Some(':') {
            let end = self.line_end(self.at);
            return self.fail(
                key_range.start..end.max(key_range.end),
                format!("expected `:` after `{key}`"),
            );
        }
        self.at += 1;
        if !self.at_line_end() && !matches!(self.peek(), Some(' ' | '\t')) {
            return self.fail(self.at - 1..self.at, "`:` must be followed by a space");
        }
        self.skip_inline();
        let value = if self.at_line_end() {
            self.block_value(indent, true)?
        } else {
            let node = self.flow_value()?;
            self.skip_inline();
            if !self.at_line_end() {
                let end = self.line_end(self.at);
                return self.fail(self.at..end, "unexpected text after the value");
            }
            node
        };
        Ok(Entry {
            key,
            key_range,
            value,
        })
    }

    /// The value on the lines after `key:` (or after `-`): a block list, or nothing.
    fn block_value(
        &mut self,
        parent_indent: usize,
        sequence_may_align: bool,
    ) -> Result<Node, Unreadable> {
        let here = self.at;
        self.skip_all();
        let column = self.column(self.at);
        let is_item = self.peek() == Some('-')
            && matches!(
                self.text[self.at + 1..].chars().next(),
                None | Some(' ' | '\t' | '\n' | '\r')
            );
        let deeper =
            column > parent_indent || (sequence_may_align && column == parent_indent && is_item);
        if self.at >= self.text.len() || !deeper || (column == 0 && !is_item) {
            self.at = here;
            return Ok(Node::Null { range: here..here });
        }
        if is_item {
            return self.block_sequence(column);
        }
        self.fail(
            self.at..self.line_end(self.at),
            "ppn-ls reads XAY values written as lists (`[...]` or `- ` items); this is a nested mapping",
        )
    }

    fn enter(&mut self) -> Result<(), Unreadable> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.fail(self.at..self.at + 1, "lists nested too deep");
        }
        Ok(())
    }

    fn block_sequence(&mut self, indent: usize) -> Result<Node, Unreadable> {
        self.enter()?;
        let start = self.at;
        let mut items = Vec::new();
        let mut end = self.at;
        loop {
            // At a `-` of this sequence.
            self.at += 1;
            self.skip_inline();
            let item = if self.at_line_end() {
                self.block_value(indent, false)?
            } else if self.peek() == Some('-')
                && matches!(
                    self.text[self.at + 1..].chars().next(),
                    None | Some(' ' | '\t' | '\n' | '\r')
                )
            {
                let column = self.column(self.at);
                self.block_sequence(column)?
            } else {
                let node = self.flow_value()?;
                self.skip_inline();
                if !self.at_line_end() {
                    let line_end = self.line_end(self.at);
                    return self.fail(self.at..line_end, "unexpected text after the list item");
                }
                node
            };
            end = end
                .max(item.range().end)
                .max(self.at.min(self.line_end(self.at)));
            items.push(item);
            let here = self.at;
            self.skip_all();
            let next_is_item = self.peek() == Some('-')
                && self.column(self.at) == indent
                && matches!(
                    self.text[self.at + 1..].chars().next(),
                    None | Some(' ' | '\t' | '\n' | '\r')
                );
            if !next_is_item {
                self.at = here;
                break;
            }
        }
        self.depth -= 1;
        Ok(Node::Seq {
            items,
            range: start..end,
        })
    }

    fn flow_value(&mut self) -> Result<Node, Unreadable> {
        match self.peek() {
            Some('[') => self.flow_sequence(),
            Some('\'' | '"') => {
                let (value, range) = self.quoted()?;
                Ok(Node::Scalar {
                    value,
                    range,
                    quoted: true,
                })
            }
            Some(c @ ('{' | '&' | '*' | '!' | '|' | '>' | '%' | '@' | '`')) => self.fail(
                self.at..self.at + 1,
                format!("ppn-ls does not read YAML's `{c}` in XAY files: write lists of plain or quoted words"),
            ),
            _ => Ok(self.plain(false)),
        }
    }

    fn flow_sequence(&mut self) -> Result<Node, Unreadable> {
        self.enter()?;
        let start = self.at;
        self.at += 1;
        let mut items = Vec::new();
        loop {
            self.skip_all();
            match self.peek() {
                None => {
                    return self.fail(start..start + 1, "this `[` has no closing `]`");
                }
                Some(']') => {
                    self.at += 1;
                    break;
                }
                Some(',') => {
                    return self.fail(
                        self.at..self.at + 1,
                        "a list item is missing before this `,`",
                    );
                }
                _ => {}
            }
            let item = match self.peek() {
                Some('[') => self.flow_sequence()?,
                Some('\'' | '"') => {
                    let (value, range) = self.quoted()?;
                    Node::Scalar {
                        value,
                        range,
                        quoted: true,
                    }
                }
                Some(c @ ('{' | '&' | '*' | '!' | '|' | '>' | '%' | '@' | '`')) => {
                    return self.fail(
                        self.at..self.at + c.len_utf8(),
                        format!("ppn-ls does not read YAML's `{c}` in XAY files: write lists of plain or quoted words"),
                    )
                }
                _ => self.plain(true),
            };
            items.push(item);
            self.skip_all();
            match self.peek() {
                Some(',') => self.at += 1,
                Some(']') => {
                    self.at += 1;
                    break;
                }
                None => return self.fail(start..start + 1, "this `[` has no closing `]`"),
                Some(c) => {
                    return self.fail(
                        self.at..self.at + c.len_utf8(),
                        format!("expected `,` or `]`, found `{c}`"),
                    )
                }
            }
        }
        self.depth -= 1;
        Ok(Node::Seq {
            items,
            range: start..self.at,
        })
    }

    /// A plain word: in a flow list it ends at `,` `]` or a comment; outside, at a comment
    /// or the end of the line.
    fn plain(&mut self, in_flow: bool) -> Node {
        let start = self.at;
        let mut end = start;
        while let Some(c) = self.peek() {
            let stops = match c {
                '\n' | '\r' => true,
                ',' | ']' | '[' | '{' | '}' => in_flow,
                '#' => self.at > start && matches!(self.text.as_bytes()[self.at - 1], b' ' | b'\t'),
                _ => false,
            };
            if stops {
                break;
            }
            self.at += c.len_utf8();
            if c != ' ' && c != '\t' {
                end = self.at;
            }
        }
        self.at = end.max(start);
        Node::Scalar {
            value: self.text[start..end].to_string(),
            range: start..end,
            quoted: false,
        }
    }

    fn quoted(&mut self) -> Result<(String, Range<usize>), Unreadable> {
        let start = self.at;
        let Some(quote) = self.peek() else {
            return self.fail(start..start, "expected a quoted word");
        };
        self.at += 1;
        let mut value = String::new();
        loop {
            let Some(c) = self.peek() else {
                return self.fail(
                    start..self.text.len(),
                    format!("this {quote} is never closed"),
                );
            };
            self.at += c.len_utf8();
            match (quote, c) {
                ('\'', '\'') => {
                    if self.peek() == Some('\'') {
                        self.at += 1;
                        value.push('\'');
                    } else {
                        break;
                    }
                }
                ('"', '"') => break,
                ('"', '\\') => {
                    let Some(escaped) = self.peek() else {
                        return self.fail(start..self.text.len(), "this \" is never closed");
                    };
                    self.at += escaped.len_utf8();
                    value.push(match escaped {
                        'n' => '\n',
                        't' => '\t',
                        other => other,
                    });
                }
                (_, '\n' | '\r') => {
                    return self.fail(
                        start..self.at - 1,
                        format!("this {quote} is not closed on its line"),
                    );
                }
                (_, c) => value.push(c),
            }
        }
        Ok((value, start..self.at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq(node: &Node) -> &[Node] {
        match node {
            Node::Seq { items, .. } => items,
            other => panic!("not a list: {other:?}"),
        }
    }

    fn entry<'a>(doc: &'a Document, key: &str) -> &'a Entry {
        match &doc.root {
            Node::Map { entries, .. } => entries.iter().find(|e| e.key == key).unwrap(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn flow_lists_over_several_lines_with_comments() {
        let text = "# a comment\nversion: '1'\nsetup: [\n  [[r], [h, pm]],\n  # river\n  [],\n]\n";
        let doc = parse(text).unwrap();
        let version = &entry(&doc, "version").value;
        assert_eq!(version.as_str(), Some("1"));
        assert_eq!(&text[version.range()], "'1'");
        let rows = seq(&entry(&doc, "setup").value);
        assert_eq!(rows.len(), 2);
        let cells = seq(&rows[0]);
        let atoms = seq(&cells[1]);
        assert_eq!(atoms[1].as_str(), Some("pm"));
        assert_eq!(&text[atoms[1].range()], "pm");
        assert_eq!(doc.comments.len(), 2);
        assert_eq!(&text[doc.comments[1].clone()], "# river");
    }

    #[test]
    fn block_lists_and_typed_scalars() {
        let text = "version: 1\nsetup:\n- - [r]\n  - [a+1-2, 'K']\n-\n- []\n";
        let doc = parse(text).unwrap();
        let version = &entry(&doc, "version").value;
        assert_eq!(version.as_str(), None);
        assert_eq!(version.describe(), "a number");
        let rows = seq(&entry(&doc, "setup").value);
        assert_eq!(rows.len(), 3);
        let cells = seq(&rows[0]);
        assert_eq!(seq(&cells[1])[0].as_str(), Some("a+1-2"));
        assert_eq!(seq(&cells[1])[1].as_str(), Some("K"));
        assert!(matches!(rows[1], Node::Null { .. }));
    }

    #[test]
    fn broken_text_is_located() {
        let unclosed = parse("setup: [\n  [[r], [h]],\n").unwrap_err();
        assert_eq!(unclosed.range, 7..8);
        let comma = parse("setup: [[r],, [h]]\n").unwrap_err();
        assert_eq!(comma.range, 12..13);
        let anchor = parse("setup: &rows [[r]]\n").unwrap_err();
        assert_eq!(anchor.range, 7..8);
        let deep = format!("setup: {}{}\n", "[".repeat(40), "]".repeat(40));
        assert!(parse(&deep).unwrap_err().message.contains("too deep"));
    }
}
