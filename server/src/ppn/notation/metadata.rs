//! A game's metadata block: the YAML mapping between `---` and `...`.

use std::ops::Range;

use serde_yaml::{Mapping, Value};

use crate::diagnostic::{Diagnostic, Severity};

/// The parsed metadata of one game, with where it came from.
#[derive(Clone, Debug, Default)]
pub struct Metadata {
    pub mapping: Mapping,
    /// The YAML text in the file, to locate keys and values for diagnostics.
    pub source: Option<Range<usize>>,
}

/// Parse a metadata block. A YAML error or a block that is not a mapping gives an error
/// diagnostic and empty metadata, so the movetext is still replayed.
pub fn parse_metadata(
    file_text: &str,
    source: Option<Range<usize>>,
) -> (Metadata, Vec<Diagnostic>) {
    let Some(range) = source.clone() else {
        return (Metadata::default(), Vec::new());
    };
    let yaml = &file_text[range.clone()];
    let mut diagnostics = Vec::new();
    let mapping = match serde_yaml::from_str::<Value>(yaml) {
        Ok(Value::Mapping(mapping)) => mapping,
        Ok(Value::Null) => Mapping::new(),
        Ok(_) => {
            diagnostics.push(Diagnostic {
                related: Vec::new(),
                fixes: Vec::new(),
                range: trimmed(yaml, range.clone()),
                severity: Severity::Error,
                code: "metadata-not-mapping",
                message:
                    "metadata must be a YAML mapping of keys to values (e.g. `GameType: Tablut`)"
                        .to_string(),
            });
            Mapping::new()
        }
        Err(err) => {
            let at = err
                .location()
                .map_or(range.start, |loc| range.start + loc.index().min(yaml.len()));
            let end = next_char_end(file_text, at).min(range.end.max(at));
            diagnostics.push(Diagnostic {
                related: Vec::new(),
                fixes: Vec::new(),
                range: at..end,
                severity: Severity::Error,
                code: "yaml-error",
                message: format!("metadata is not valid YAML: {}", yaml_message(&err)),
            });
            Mapping::new()
        }
    };
    (
        Metadata {
            mapping,
            source: Some(range),
        },
        diagnostics,
    )
}

/// serde_yaml appends "at line X column Y"; the diagnostic's range already says where.
fn yaml_message(err: &serde_yaml::Error) -> String {
    let text = err.to_string();
    match text.find(" at line ") {
        Some(cut) => text[..cut].to_string(),
        None => text,
    }
}

fn next_char_end(text: &str, at: usize) -> usize {
    text[at..].chars().next().map_or(at, |c| at + c.len_utf8())
}

fn trimmed(text: &str, range: Range<usize>) -> Range<usize> {
    let start = range.start + (text.len() - text.trim_start().len());
    let end = range.start + text.trim_end().len();
    start..end.max(start)
}

impl Metadata {
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.mapping.get(key)
    }

    /// The text of the value written after `key:` (the rest of that line, or the indented
    /// block below it), for pointing diagnostics at a value.
    pub fn value_range(&self, file_text: &str, key: &str) -> Option<Range<usize>> {
        let source = self.source.clone()?;
        let yaml = &file_text[source.clone()];
        let mut offset = 0;
        let mut lines = yaml.split_inclusive('\n').peekable();
        while let Some(line) = lines.next() {
            let line_start = offset;
            offset += line.len();
            let indent = line.len() - line.trim_start().len();
            let Some(rest) = line.trim_start().strip_prefix(key) else {
                continue;
            };
            let Some(after_colon) = rest.trim_start_matches([' ', '\t']).strip_prefix(':') else {
                continue;
            };
            let value_start = line_start + line.len() - after_colon.len();
            let inline = after_colon.trim();
            if !inline.is_empty() {
                let start = value_start + (after_colon.len() - after_colon.trim_start().len());
                return Some(source.start + start..source.start + start + inline.len());
            }
            // A block value: the following lines indented deeper than the key.
            let block_start = offset;
            let mut block_end = offset;
            while let Some(next) = lines.peek() {
                let next_indent = next.len() - next.trim_start().len();
                if next.trim().is_empty() || next_indent > indent {
                    block_end += next.len();
                    lines.next();
                } else {
                    break;
                }
            }
            let block = &yaml[block_start..block_end];
            let lead = block.len() - block.trim_start().len();
            let start = block_start + lead;
            let end = block_start + block.trim_end().len();
            return Some(source.start + start..source.start + end.max(start));
        }
        None
    }
}

/// A YAML scalar as text, the way R's yaml reader would hand it to the parser.
pub fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(if *b { "TRUE" } else { "FALSE" }.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Metadata, Vec<Diagnostic>) {
        let start = text.find('\n').map_or(0, |i| i + 1);
        let end = text.find("\n...").map_or(text.len(), |i| i + 1);
        parse_metadata(text, Some(start..end))
    }

    #[test]
    fn reads_a_mapping() {
        let (meta, diags) = parse("---\nGameType: Tablut\nEvent: Test\n...\n");
        assert!(diags.is_empty());
        assert_eq!(
            meta.get("GameType").and_then(scalar_text).as_deref(),
            Some("Tablut")
        );
    }

    #[test]
    fn yaml_errors_point_at_their_place() {
        let text = "---\nGameType: Tablut\nEvent: [unclosed\n...\n";
        let (meta, diags) = parse(text);
        assert!(meta.mapping.is_empty());
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code, "yaml-error");
        let line_of_error = text[..diags[0].range.start].matches('\n').count();
        assert!(
            (2..=3).contains(&line_of_error),
            "error at line {line_of_error}: {:?}",
            diags[0]
        );
    }

    #[test]
    fn a_scalar_is_not_metadata() {
        let text = "---\njust words\n...\n";
        let (_, diags) = parse(text);
        assert_eq!(diags[0].code, "metadata-not-mapping");
        assert_eq!(&text[diags[0].range.clone()], "just words");
    }

    #[test]
    fn finds_inline_and_block_values() {
        let text =
            "---\nGameType: Four Field Kono\nSetUp:\n  Name: Desfases\n  Seed: 42\nEvent: x\n...\n";
        let (meta, _) = parse(text);
        let inline = meta.value_range(text, "GameType").unwrap();
        assert_eq!(&text[inline], "Four Field Kono");
        let block = meta.value_range(text, "SetUp").unwrap();
        assert_eq!(&text[block], "Name: Desfases\n  Seed: 42");
        assert_eq!(meta.value_range(text, "Macros"), None);
    }
}
