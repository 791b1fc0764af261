//! A game's metadata block: the YAML mapping between `---` and `...`.

use std::ops::Range;
use std::sync::Arc;

use serde_yaml::{Mapping, Value};

use crate::diagnostic::Diagnostic;
use crate::model::edit::trimmed;
use crate::yaml_errors;

/// The parsed metadata of one game, with where it came from.
#[derive(Clone, Debug, Default)]
pub struct Metadata {
    /// Shared by the revisions of a game whose metadata an edit left alone.
    pub mapping: Arc<Mapping>,
    /// The YAML text in the file, to locate keys and values for diagnostics.
    pub source: Option<Range<usize>>,
}

/// The largest metadata block read, in bytes. Real metadata is a few hundred bytes; a
/// cap keeps a hostile block from costing the YAML parser seconds on every keystroke.
pub const MAX_METADATA_BYTES: usize = 64 * 1024;
/// The deepest nesting of `[` and `{` read: the YAML parser recurses on it.
pub const MAX_METADATA_DEPTH: usize = 64;

/// Parse a metadata block. A YAML error or a block that is not a mapping gives an error
/// diagnostic and empty metadata, so the movetext is still replayed. A block over
/// [`MAX_METADATA_BYTES`] or nested deeper than [`MAX_METADATA_DEPTH`] is refused before
/// the YAML parser sees it.
pub fn parse_metadata(
    file_text: &str,
    source: Option<Range<usize>>,
) -> (Metadata, Vec<Diagnostic>) {
    let Some(range) = source.clone() else {
        return (Metadata::default(), Vec::new());
    };
    let yaml = &file_text[range.clone()];
    let mut diagnostics = Vec::new();
    let mapping = if let Some(refused) = refuse_before_parsing(file_text, &range) {
        diagnostics.push(refused);
        Mapping::new()
    } else {
        match serde_yaml::from_str::<Value>(yaml) {
            Ok(Value::Mapping(mapping)) => mapping,
            Ok(Value::Null) => Mapping::new(),
            Ok(_) => {
                diagnostics.push(Diagnostic::error(
                    trimmed(file_text, range.clone()),
                    "metadata-not-mapping",
                    "metadata must be a YAML mapping of keys to values (e.g. `GameType: Tablut`)",
                ));
                Mapping::new()
            }
            Err(err) => {
                diagnostics.push(yaml_errors::located(
                    file_text,
                    &range,
                    &err,
                    "yaml-error",
                    "metadata is not valid YAML",
                ));
                Mapping::new()
            }
        }
    };
    (
        Metadata {
            mapping: Arc::new(mapping),
            source: Some(range),
        },
        diagnostics,
    )
}

/// A block too large or too deeply nested for the YAML parser, as a diagnostic.
fn refuse_before_parsing(file_text: &str, range: &Range<usize>) -> Option<Diagnostic> {
    let yaml = &file_text[range.clone()];
    if yaml.len() > MAX_METADATA_BYTES {
        let first_line_end = yaml.find(['\n', '\r']).unwrap_or(yaml.len());
        return Some(Diagnostic::error(
            range.start..range.start + first_line_end.max(1).min(yaml.len()),
            "metadata-too-large",
            format!(
                "this metadata block is {} bytes; ppn-ls reads at most {MAX_METADATA_BYTES} \
                 (is a `...` line missing after the metadata?)",
                yaml.len()
            ),
        ));
    }
    let too_deep = flow_nesting_past(yaml, MAX_METADATA_DEPTH)?;
    Some(Diagnostic::error(
        range.start + too_deep..range.start + too_deep + 1,
        "metadata-too-deep",
        format!(
            "`[` and `{{` nest more than {MAX_METADATA_DEPTH} deep here; ppn-ls reads no deeper"
        ),
    ))
}

/// Where `[`/`{` first nest deeper than `limit` (outside quotes and comments), if they do.
fn flow_nesting_past(yaml: &str, limit: usize) -> Option<usize> {
    let bytes = yaml.as_bytes();
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(b'"') if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => match b {
                b'"' | b'\'' => quote = Some(b),
                b'#' if i == 0 || bytes[i - 1].is_ascii_whitespace() => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                }
                b'[' | b'{' => {
                    depth += 1;
                    if depth > limit {
                        return Some(i);
                    }
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
        i += 1;
    }
    None
}

/// Up to this many keys, a key is looked for by comparing texts: the mapping's own look-up
/// makes and hashes a YAML value for each question, and every edit of a file of many games
/// asks each game's metadata a few.
const KEYS_COMPARED: usize = 16;

impl Metadata {
    pub fn get(&self, key: &str) -> Option<&Value> {
        if self.mapping.len() <= KEYS_COMPARED {
            return self
                .mapping
                .iter()
                .find_map(|(k, value)| (k.as_str() == Some(key)).then_some(value));
        }
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

impl Metadata {
    /// The keys of the mapping written as `parent`'s value, as a block or a flow mapping
    /// (`{Name: Tablut, Colour: red}`), each with its byte range in the file, as written.
    pub fn nested_keys(&self, file_text: &str, parent: &str) -> Vec<(Range<usize>, String)> {
        let Some(value) = self.value_range(file_text, parent) else {
            return Vec::new();
        };
        let text = &file_text[value.clone()];
        if let Some(inner) = text.strip_prefix('{') {
            return flow_keys(inner, value.start + 1);
        }
        let line_start = file_text[..value.start]
            .rfind(['\n', '\r'])
            .map_or(0, |i| i + 1);
        let indent = value.start - line_start;
        let mut keys = Vec::new();
        let mut offset = value.start;
        for (i, line) in text.split_inclusive('\n').enumerate() {
            let (lead, entry) = if i == 0 {
                (0, line)
            } else {
                let body = line.trim_start_matches([' ', '\t']);
                (line.len() - body.len(), body)
            };
            if i == 0 || lead == indent {
                if let Some(key) = key_of(entry) {
                    keys.push((offset + lead..offset + lead + key.len(), key.to_string()));
                }
            }
            offset += line.len();
        }
        keys
    }
}

/// The key written at the start of `entry` (`Key: value`), if any.
fn key_of(entry: &str) -> Option<&str> {
    let colon = entry.find(':')?;
    let key = entry[..colon].trim_end();
    let unquoted = key.trim_matches(['"', '\'']);
    let plain = !unquoted.is_empty()
        && !unquoted.starts_with(['#', '-', '{', '['])
        && !unquoted.contains(['{', '}', '[', ']', ',']);
    plain.then_some(key)
}

/// The keys of a flow mapping's entries, `inner` being its text after the `{`.
fn flow_keys(inner: &str, inner_start: usize) -> Vec<(Range<usize>, String)> {
    let mut keys = Vec::new();
    let mut depth = 0usize;
    let mut entry_start = 0;
    let mut quote = None;
    let bytes = inner.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => match b {
                b'"' | b'\'' => quote = Some(b),
                b'{' | b'[' => depth += 1,
                b'}' | b']' if depth > 0 => depth -= 1,
                b',' | b'}' if depth == 0 => {
                    let entry = &inner[entry_start..i];
                    let body = entry.trim_start();
                    if let Some(key) = key_of(body) {
                        let start = inner_start + entry_start + (entry.len() - body.len());
                        keys.push((start..start + key.len(), key.to_string()));
                    }
                    entry_start = i + 1;
                    if b == b'}' {
                        break;
                    }
                }
                _ => {}
            },
        }
    }
    keys
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
    fn an_unclosed_quote_is_reported_at_the_quote() {
        let text = "---\nGameType: \"Chess\nEvent: x\n...\n";
        let (_, diags) = parse(text);
        assert_eq!(diags[0].code, "yaml-error");
        assert_eq!(diags[0].range.start, text.find('"').unwrap());
        assert!(
            diags[0].message.contains("never closed"),
            "{}",
            diags[0].message
        );
        assert_eq!(diags[0].related.len(), 1);
    }

    #[test]
    fn an_unclosed_bracket_is_reported_at_the_bracket() {
        let text = "---\nSetUp: {Name: Tablut\nEvent: x\n...\n";
        let (_, diags) = parse(text);
        assert_eq!(diags[0].range.start, text.find('{').unwrap());
        assert!(
            diags[0].message.contains("`{` opened here"),
            "{}",
            diags[0].message
        );
    }

    #[test]
    fn a_duplicate_key_is_reported_at_its_second_copy() {
        let text = "---\nGameType: Chess\nEvent: x\nGameType: Tablut\n...\n";
        let (_, diags) = parse(text);
        let second = text.rfind("GameType").unwrap();
        assert_eq!(diags[0].range, second..second + 8);
        assert_eq!(
            diags[0].related[0].range.start,
            text.find("GameType").unwrap()
        );
        let nested = "---\nSetUp:\n  Name: Tablut\n  Seed: 1\n  Name: Chess\n...\n";
        let (_, diags) = parse(nested);
        let second = nested.rfind("Name").unwrap();
        assert_eq!(diags[0].range, second..second + 4, "{:?}", diags[0]);
    }

    #[test]
    fn huge_or_deeply_nested_metadata_is_refused_before_parsing() {
        let deep = format!(
            "---\nSetUp: {}{}\n...\n",
            "{a: ".repeat(100_000),
            "}".repeat(100_000)
        );
        let started = std::time::Instant::now();
        let (meta, diags) = parse(&deep);
        assert!(meta.mapping.is_empty());
        assert_eq!(diags.len(), 1);
        // Over the size cap first; under it, the depth cap answers.
        assert_eq!(diags[0].code, "metadata-too-large");
        let nested = format!("---\nSetUp: {}{}\n...\n", "[".repeat(70), "]".repeat(70));
        let (_, diags) = parse(&nested);
        assert_eq!(diags[0].code, "metadata-too-deep");
        assert_eq!(
            diags[0].range.start,
            nested.find('[').unwrap() + MAX_METADATA_DEPTH
        );
        let quoted = format!("---\nEvent: \"{}\"\n...\n", "[".repeat(70));
        assert!(parse(&quoted).1.is_empty());
        // Refusing is linear: the whole check of 500 KB takes milliseconds, not seconds.
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn nested_keys_are_found_as_written() {
        let text = "---\nSetUp:\n  Name: Tablut\n  NRows: 5\n  Sub:\n    Deep: 1\nEvent: x\n...\n";
        let (meta, _) = parse(text);
        let keys: Vec<_> = meta
            .nested_keys(text, "SetUp")
            .into_iter()
            .map(|(range, key)| (text[range].to_string(), key))
            .collect();
        let names: Vec<_> = keys.iter().map(|(_, k)| k.as_str()).collect();
        assert_eq!(names, ["Name", "NRows", "Sub"]);
        assert!(keys.iter().all(|(written, key)| written == key));
        let flow = "---\nGameType: {Name: Tablut, Colour: red, \"Seed\": 3}\n...\n";
        let (meta, _) = parse(flow);
        let names: Vec<_> = meta
            .nested_keys(flow, "GameType")
            .into_iter()
            .map(|(range, _)| &flow[range])
            .collect();
        assert_eq!(names, ["Name", "Colour", "\"Seed\""]);
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
