//! The settings of `ppn-ls.toml` and of editors, read by one schema: every key with its
//! place, mistakes as diagnostics.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::diagnostic::{is_known_code, Diagnostic, Severity};

/// The configuration file's name.
pub const FILE_NAME: &str = "ppn-ls.toml";

/// How many diagnostics an editor is sent per document unless configured otherwise: each
/// costs about 10 µs between server and editor.
pub const DEFAULT_MAX_PER_DOCUMENT: usize = 100;

/// The most `diagnostics.max-per-document` may be.
const MAX_PER_DOCUMENT_LIMIT: usize = 100_000;

/// What a diagnostic code is reported as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Off,
    Hint,
    Info,
    Warning,
    Error,
}

impl Level {
    const NAMES: [(&'static str, Level); 5] = [
        ("off", Level::Off),
        ("hint", Level::Hint),
        ("info", Level::Info),
        ("warning", Level::Warning),
        ("error", Level::Error),
    ];

    /// The severity diagnostics get at this level; `None` for `off`.
    pub fn severity(self) -> Option<Severity> {
        match self {
            Level::Off => None,
            Level::Hint => Some(Severity::Hint),
            Level::Info => Some(Severity::Information),
            Level::Warning => Some(Severity::Warning),
            Level::Error => Some(Severity::Error),
        }
    }
}

/// How a board is drawn as text in a hover (`hover.board`).
pub use crate::render::text::BoardStyle;

/// The formatter's options as one source sets them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FormatSettings {
    /// The widest a line of movetext is made, in characters.
    pub line_width: Option<usize>,
}

/// What one source (a `ppn-ls.toml`, or the editor) sets: `None` (or empty) where it says
/// nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// `diagnostics.severity`: a level per diagnostic code.
    pub severity: BTreeMap<String, Level>,
    /// `diagnostics.max-per-document`.
    pub max_per_document: Option<usize>,
    /// `check.exclude`: globs as written.
    pub exclude: Option<Vec<String>>,
    /// `hover.board`.
    pub hover_board: Option<BoardStyle>,
    /// `format`.
    pub format: FormatSettings,
}

/// The configuration in force for a file: a `ppn-ls.toml`'s settings and the editor's
/// merged, with defaults for what neither sets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Config {
    severity: BTreeMap<String, Level>,
    pub max_per_document: Option<usize>,
    pub exclude: Vec<String>,
    pub hover_board: BoardStyle,
    pub format: FormatSettings,
}

impl Config {
    /// `file`'s settings and `editor`'s merged: the file's for what the project decides, the
    /// editor's for how things are shown.
    pub fn resolve(file: &Settings, editor: &Settings) -> Config {
        let mut severity = editor.severity.clone();
        severity.extend(
            file.severity
                .iter()
                .map(|(code, &level)| (code.clone(), level)),
        );
        Config {
            severity,
            max_per_document: editor.max_per_document.or(file.max_per_document),
            exclude: file
                .exclude
                .clone()
                .or_else(|| editor.exclude.clone())
                .unwrap_or_default(),
            hover_board: editor.hover_board.or(file.hover_board).unwrap_or_default(),
            format: FormatSettings {
                line_width: file.format.line_width.or(editor.format.line_width),
            },
        }
    }

    /// How many diagnostics an editor is sent per document.
    pub fn max_per_document(&self) -> usize {
        self.max_per_document.unwrap_or(DEFAULT_MAX_PER_DOCUMENT)
    }

    /// Whether any diagnostic's severity is changed: if not, diagnostics are used as the
    /// notations give them.
    pub fn changes_severities(&self) -> bool {
        !self.severity.is_empty()
    }

    /// The level configured for `code`, if any.
    pub fn level(&self, code: &str) -> Option<Level> {
        self.severity.get(code).copied()
    }

    /// `diagnostics` with the configured severities: those turned `off` dropped, the others
    /// at their level. The order stays that of [`Diagnostic::sort_and_dedup`].
    pub fn apply_severities(&self, diagnostics: &mut Vec<Diagnostic>) {
        if !self.changes_severities() {
            return;
        }
        let mut changed = false;
        diagnostics.retain_mut(|diagnostic| match self.level(diagnostic.code) {
            None => true,
            Some(level) => match level.severity() {
                None => false,
                Some(severity) => {
                    changed |= diagnostic.severity != severity;
                    diagnostic.severity = severity;
                    true
                }
            },
        });
        if changed {
            Diagnostic::sort_and_dedup(diagnostics);
        }
    }
}

/// A place in a source of settings: a range of a `ppn-ls.toml`'s text, or a dotted key of
/// the editor's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Place {
    // The browser reads no ppn-ls.toml.
    #[cfg_attr(not(feature = "native"), allow(dead_code))]
    Text(Range<usize>),
    Key(String),
}

/// A value of either source, reduced to what the schema looks at.
enum Value<'a> {
    Table(Vec<(Entry<'a>, Node<'a>)>),
    Array(Vec<Node<'a>>),
    String(&'a str),
    Integer(Option<i64>),
    Other(&'static str),
}

struct Entry<'a> {
    key: &'a str,
    place: Place,
}

struct Node<'a> {
    value: Value<'a>,
    place: Place,
}

/// The problems found reading settings.
#[derive(Default)]
struct Problems {
    found: Vec<(Place, &'static str, String)>,
}

impl Problems {
    fn unknown_key(&mut self, entry: &Entry<'_>, section: &str, known: &[&str]) {
        let message = if section.is_empty() {
            format!(
                "unknown key `{}`: the keys are {}",
                entry.key,
                list(known.iter().map(|key| format!("`{key}`")))
            )
        } else {
            format!(
                "unknown key `{}` in `{section}`: the keys there are {}",
                entry.key,
                list(known.iter().map(|key| format!("`{key}`")))
            )
        };
        self.found
            .push((entry.place.clone(), "config-unknown-key", message));
    }

    fn bad_value(&mut self, node: &Node<'_>, message: String) {
        self.found
            .push((node.place.clone(), "config-bad-value", message));
    }
}

/// `a, b and c` (or `a, b or c`).
fn list_joined(items: impl Iterator<Item = String>, last_joint: &str) -> String {
    let items: Vec<String> = items.collect();
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} {last_joint} {last}", rest.join(", ")),
    }
}

fn list(items: impl Iterator<Item = String>) -> String {
    list_joined(items, "and")
}

fn kind_name(value: &Value<'_>) -> &'static str {
    match value {
        Value::Table(_) => "a table",
        Value::Array(_) => "a list",
        Value::String(_) => "a string",
        Value::Integer(_) => "a number",
        Value::Other(kind) => kind,
    }
}

const TOP_KEYS: &[&str] = &["diagnostics", "check", "hover", "format"];
const DIAGNOSTICS_KEYS: &[&str] = &["severity", "max-per-document"];
const CHECK_KEYS: &[&str] = &["exclude"];
const HOVER_KEYS: &[&str] = &["board"];
const FORMAT_KEYS: &[&str] = &["line-width"];

/// Reads the schema from a tree of either source.
fn read_settings(root: &Node<'_>, problems: &mut Problems) -> Settings {
    let mut settings = Settings::default();
    for_each_entry(
        root,
        "",
        TOP_KEYS,
        problems,
        |entry, node, problems| match entry.key {
            "diagnostics" => read_diagnostics(node, &mut settings, problems),
            "check" => for_each_entry(node, "check", CHECK_KEYS, problems, |_, node, problems| {
                settings.exclude = read_globs(node, problems);
            }),
            "hover" => for_each_entry(node, "hover", HOVER_KEYS, problems, |_, node, problems| {
                settings.hover_board = read_name(node, &BoardStyle::NAMES, problems);
            }),
            _ => for_each_entry(
                node,
                "format",
                FORMAT_KEYS,
                problems,
                |_, node, problems| {
                    settings.format.line_width = read_count(node, 20..=1000, problems);
                },
            ),
        },
    );
    settings
}

fn read_diagnostics(node: &Node<'_>, settings: &mut Settings, problems: &mut Problems) {
    for_each_entry(
        node,
        "diagnostics",
        DIAGNOSTICS_KEYS,
        problems,
        |entry, node, problems| match entry.key {
            "severity" => read_severities(node, settings, problems),
            _ => settings.max_per_document = read_count(node, 1..=MAX_PER_DOCUMENT_LIMIT, problems),
        },
    );
}

fn read_severities(node: &Node<'_>, settings: &mut Settings, problems: &mut Problems) {
    let Value::Table(entries) = &node.value else {
        problems.bad_value(
            node,
            format!(
                "`diagnostics.severity` is a table of diagnostic codes and levels, not {}",
                kind_name(&node.value)
            ),
        );
        return;
    };
    for (entry, value) in entries {
        if !is_known_code(entry.key) {
            let near = nearest_code(entry.key)
                .map(|code| format!(" (did you mean `{code}`?)"))
                .unwrap_or_default();
            problems.found.push((
                entry.place.clone(),
                "config-unknown-code",
                format!(
                    "ppn-ls reports no diagnostic with the code `{}`{near}",
                    entry.key
                ),
            ));
            continue;
        }
        if let Some(level) = read_name(value, &Level::NAMES, problems) {
            settings.severity.insert(entry.key.to_string(), level);
        }
    }
}

/// The known code most like `code` (a typo's fix), if one is close enough.
fn nearest_code(code: &str) -> Option<&'static str> {
    crate::diagnostic::CODES
        .iter()
        .map(|known| (edit_distance(code, known), *known))
        .filter(|&(distance, _)| distance <= 2.max(code.len() / 5))
        .min()
        .map(|(_, known)| known)
}

/// Levenshtein distance, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != cb))
                .min(above + 1)
                .min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Calls `read` for each entry of a table whose key is one of `known`, and reports the
/// others and a value that is not a table.
fn for_each_entry<'a>(
    node: &Node<'a>,
    section: &str,
    known: &[&str],
    problems: &mut Problems,
    mut read: impl FnMut(&Entry<'a>, &Node<'a>, &mut Problems),
) {
    let Value::Table(entries) = &node.value else {
        problems.bad_value(
            node,
            format!("`{section}` is a table, not {}", kind_name(&node.value)),
        );
        return;
    };
    for (entry, value) in entries {
        if known.contains(&entry.key) {
            read(entry, value, problems);
        } else {
            problems.unknown_key(entry, section, known);
        }
    }
}

fn read_name<T: Copy>(node: &Node<'_>, names: &[(&str, T)], problems: &mut Problems) -> Option<T> {
    let choices = list_joined(names.iter().map(|(name, _)| format!("\"{name}\"")), "or");
    match &node.value {
        Value::String(name) => {
            let found = names.iter().find(|(known, _)| known == name);
            if found.is_none() {
                problems.bad_value(node, format!("expected {choices}, not \"{name}\""));
            }
            found.map(|&(_, value)| value)
        }
        other => {
            problems.bad_value(
                node,
                format!("expected {choices}, not {}", kind_name(other)),
            );
            None
        }
    }
}

fn read_count(
    node: &Node<'_>,
    allowed: std::ops::RangeInclusive<usize>,
    problems: &mut Problems,
) -> Option<usize> {
    let number = match &node.value {
        Value::Integer(number) => *number,
        other => {
            problems.bad_value(
                node,
                format!("expected a whole number, not {}", kind_name(other)),
            );
            return None;
        }
    };
    match number
        .and_then(|number| usize::try_from(number).ok())
        .filter(|number| allowed.contains(number))
    {
        Some(number) => Some(number),
        None => {
            problems.bad_value(
                node,
                format!(
                    "expected a whole number from {} to {}",
                    allowed.start(),
                    allowed.end()
                ),
            );
            None
        }
    }
}

fn read_globs(node: &Node<'_>, problems: &mut Problems) -> Option<Vec<String>> {
    let Value::Array(items) = &node.value else {
        problems.bad_value(
            node,
            format!(
                "`check.exclude` is a list of globs, not {}",
                kind_name(&node.value)
            ),
        );
        return None;
    };
    let mut globs = Vec::new();
    for item in items {
        match &item.value {
            Value::String(glob) => match check_glob(glob) {
                Ok(()) => globs.push(glob.to_string()),
                Err(why) => problems.bad_value(item, format!("not a glob: {why}")),
            },
            other => problems.bad_value(item, format!("expected a glob, not {}", kind_name(other))),
        }
    }
    Some(globs)
}

#[cfg(feature = "native")]
fn check_glob(glob: &str) -> Result<(), String> {
    globset::Glob::new(glob)
        .map(|_| ())
        .map_err(|err| err.kind().to_string())
}

/// Without files to leave out (the browser), globs are only kept.
#[cfg(not(feature = "native"))]
fn check_glob(_glob: &str) -> Result<(), String> {
    Ok(())
}

/// A `ppn-ls.toml` as read: its settings and what is wrong in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConfigFile {
    pub settings: Settings,
    /// Sorted by place: problems of the file itself, each key with one keeping its default.
    pub diagnostics: Vec<Diagnostic>,
}

#[cfg(feature = "native")]
impl ConfigFile {
    /// Reads the text of a `ppn-ls.toml`.
    pub fn parse(text: &str) -> ConfigFile {
        let (table, errors) = toml::de::DeTable::parse_recoverable(text);
        let mut diagnostics: Vec<Diagnostic> = errors
            .iter()
            .map(|error| {
                let range = error.span().map_or(0..0, |span| {
                    span.start.min(text.len())..span.end.min(text.len())
                });
                Diagnostic::error(range, "config-syntax", first_line(error.message()))
            })
            .collect();
        let root = Node {
            place: Place::Text(0..0),
            value: toml_table(table.get_ref()),
        };
        let mut problems = Problems::default();
        let settings = read_settings(&root, &mut problems);
        diagnostics.extend(problems.found.into_iter().map(|(place, code, message)| {
            let range = match place {
                Place::Text(range) => range,
                Place::Key(_) => 0..0,
            };
            Diagnostic::warning(range, code, message)
        }));
        Diagnostic::sort_and_dedup(&mut diagnostics);
        ConfigFile {
            settings,
            diagnostics,
        }
    }
}

#[cfg(feature = "native")]
fn first_line(message: &str) -> String {
    message.lines().next().unwrap_or("").trim().to_string()
}

#[cfg(feature = "native")]
fn toml_table<'a>(table: &'a toml::de::DeTable<'_>) -> Value<'a> {
    Value::Table(
        table
            .iter()
            .map(|(key, value)| {
                (
                    Entry {
                        key: key.get_ref(),
                        place: Place::Text(key.span()),
                    },
                    toml_node(value),
                )
            })
            .collect(),
    )
}

#[cfg(feature = "native")]
fn toml_node<'a>(value: &'a toml::Spanned<toml::de::DeValue<'_>>) -> Node<'a> {
    use toml::de::DeValue;
    let node_value = match value.get_ref() {
        DeValue::Table(table) => toml_table(table),
        DeValue::Array(items) => Value::Array(items.iter().map(toml_node).collect()),
        DeValue::String(text) => Value::String(text),
        DeValue::Integer(number) => Value::Integer(
            i64::from_str_radix(&number.as_str().replace('_', ""), number.radix()).ok(),
        ),
        DeValue::Float(_) => Value::Other("a fraction"),
        DeValue::Boolean(_) => Value::Other("true or false"),
        DeValue::Datetime(_) => Value::Other("a date"),
    };
    Node {
        value: node_value,
        place: Place::Text(value.span()),
    }
}

/// The editor's settings, as sent under `ppn-ls`: what they set, and each problem with
/// the dotted key it is at (`ppn-ls.hover.board: ...`).
pub fn editor_settings(value: &serde_json::Value) -> (Settings, Vec<String>) {
    let root = json_node(value, "ppn-ls".to_string());
    let mut problems = Problems::default();
    let settings = if matches!(value, serde_json::Value::Null) {
        Settings::default()
    } else {
        read_settings(&root, &mut problems)
    };
    let messages = problems
        .found
        .into_iter()
        .map(|(place, _, message)| match place {
            Place::Key(key) => format!("{key}: {message}"),
            Place::Text(_) => message,
        })
        .collect();
    (settings, messages)
}

fn json_node(value: &serde_json::Value, key: String) -> Node<'_> {
    use serde_json::Value as Json;
    let node_value = match value {
        Json::Object(entries) => Value::Table(
            entries
                .iter()
                .map(|(name, value)| {
                    let key = format!("{key}.{name}");
                    (
                        Entry {
                            key: name,
                            place: Place::Key(key.clone()),
                        },
                        json_node(value, key),
                    )
                })
                .collect(),
        ),
        Json::Array(items) => Value::Array(
            items
                .iter()
                .enumerate()
                .map(|(i, item)| json_node(item, format!("{key}[{i}]")))
                .collect(),
        ),
        Json::String(text) => Value::String(text),
        Json::Number(number) => match number.as_i64() {
            Some(whole) => Value::Integer(Some(whole)),
            None if number.is_u64() => Value::Integer(None),
            None => Value::Other("a fraction"),
        },
        Json::Bool(_) => Value::Other("true or false"),
        Json::Null => Value::Other("null"),
    };
    Node {
        value: node_value,
        place: Place::Key(key),
    }
}

/// Globs of `check.exclude`, matched against paths relative to the folder of the
/// `ppn-ls.toml` that lists them.
#[cfg(feature = "native")]
#[derive(Clone, Debug)]
pub struct Exclude {
    globs: globset::GlobSet,
}

#[cfg(feature = "native")]
impl Exclude {
    /// The globs of a configuration (each was checked when it was read).
    pub fn new(globs: &[String]) -> Exclude {
        let mut set = globset::GlobSetBuilder::new();
        for glob in globs {
            // A glob that ends in a folder's name leaves out what the folder holds.
            for pattern in [glob.clone(), format!("{}/**", glob.trim_end_matches('/'))] {
                if let Ok(glob) = globset::GlobBuilder::new(&pattern)
                    .literal_separator(true)
                    .build()
                {
                    set.add(glob);
                }
            }
        }
        Exclude {
            globs: set.build().unwrap_or_else(|_| globset::GlobSet::empty()),
        }
    }

    /// Whether a path, relative to the configuration's folder, is left out. A glob without
    /// a `/` matches a file's or folder's name at any depth (as `.gitignore`'s do).
    pub fn excludes(&self, relative: &std::path::Path) -> bool {
        if self.globs.is_empty() {
            return false;
        }
        self.globs.is_match(relative)
            || relative
                .components()
                .any(|component| self.globs.is_match(component.as_os_str()))
    }
}

#[cfg(all(test, feature = "native"))]
#[path = "tests.rs"]
mod tests;
