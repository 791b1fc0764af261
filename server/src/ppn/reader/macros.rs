//! Macros: `` `name' `` in a move stands for the macro's value.
//!
//! Values come from three places, the earlier overriding the later: the metadata's `Macros`,
//! the game setup, the built-in table. A value may itself use macros. Values are expanded
//! only when a move uses them, without recursion, and within budgets (depth, length,
//! references followed), so a small file of macros that multiply each other or chain through
//! thousands of names costs nothing until used and then gives one diagnostic at the use.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::OnceLock;

use crate::ppn::reader::issue::Issue;

/// How deep macros may use macros that use macros.
pub const MAX_MACRO_DEPTH: usize = 100;
/// The longest text one use of a macro may expand to.
pub const MAX_MACRO_EXPANSION_BYTES: usize = 100_000;
/// The most macro references one use of a macro may follow (empty values can multiply
/// without making the text longer).
pub const MAX_MACRO_REFERENCES: usize = 100_000;

/// Why a macro has no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacroError {
    /// It uses itself, directly or through others.
    Cycle,
    /// Its expansion is longer than [`MAX_MACRO_EXPANSION_BYTES`] or follows more than
    /// [`MAX_MACRO_REFERENCES`] references.
    TooLong,
    /// It nests macros deeper than [`MAX_MACRO_DEPTH`].
    TooDeep,
}

impl MacroError {
    pub fn code(self) -> &'static str {
        match self {
            MacroError::Cycle => "macro-cycle",
            MacroError::TooLong => "macro-too-long",
            MacroError::TooDeep => "macro-too-deep",
        }
    }

    /// Why macro `name` has no value, in words.
    pub fn message(self, name: &str) -> String {
        match self {
            MacroError::Cycle => format!("macro `{name}` uses itself, so it has no value"),
            MacroError::TooLong => format!(
                "macro `{name}` expands to more than {MAX_MACRO_EXPANSION_BYTES} bytes \
                 (or through more than {MAX_MACRO_REFERENCES} macro uses); it is not expanded"
            ),
            MacroError::TooDeep => format!(
                "macro `{name}` nests macros more than {MAX_MACRO_DEPTH} deep; it is not \
                 expanded"
            ),
        }
    }
}

/// The macros of one game: the built-in table (built once for the whole process) under the
/// setup's and the metadata's own macros.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MacroTable {
    /// Setup and metadata macros (the metadata's replaced the setup's of the same name).
    own: HashMap<String, String>,
}

fn builtin_table() -> &'static HashMap<String, String> {
    static TABLE: OnceLock<HashMap<String, String>> = OnceLock::new();
    TABLE.get_or_init(|| builtin_pairs().into_iter().collect())
}

/// Byte ranges of every `` `name' `` in `text` (backtick, at least one character, quote).
pub fn macro_references(text: &str) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find('`').map(|p| p + from) {
        let Some(close) = text[open + 1..].find('\'').map(|p| p + open + 1) else {
            break;
        };
        if close == open + 1 {
            from = open + 1;
            continue;
        }
        found.push(open..close + 1);
        from = close + 1;
    }
    found
}

fn builtin_pairs() -> Vec<(String, String)> {
    let ch = |code: u32| char::from_u32(code).map(String::from).unwrap_or_default();
    let mut pairs: Vec<(String, String)> = [
        ("H", 0x2665),
        ("S", 0x2660),
        ("C", 0x2663),
        ("D", 0x2666),
        ("WH", 0x2664),
        ("WS", 0x2661),
        ("WD", 0x2662),
        ("WC", 0x2667),
        ("RJ", 0x1f0bf),
        ("BJ", 0x1f0cf),
        ("WJ", 0x1f0df),
        ("TF", 0x1f0e0),
        ("p", 0x265f),
        ("n", 0x265e),
        ("b", 0x265d),
        ("r", 0x265c),
        ("q", 0x265b),
        ("k", 0x265a),
        ("P", 0x2659),
        ("N", 0x2658),
        ("B", 0x2657),
        ("R", 0x2656),
        ("Q", 0x2655),
        ("K", 0x2654),
    ]
    .into_iter()
    .map(|(name, code)| (name.to_string(), ch(code)))
    .collect();
    let ranks = [
        "A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "C", "Q", "K",
    ];
    for (suit, first) in [
        ("S", 0x1f0a1),
        ("H", 0x1f0b1),
        ("D", 0x1f0c1),
        ("C", 0x1f0d1),
    ] {
        for (offset, rank) in (0u32..).zip(ranks) {
            pairs.push((format!("{suit}{rank}"), ch(first + offset)));
        }
    }
    for trump in 1..=21u32 {
        pairs.push((format!("T{trump}"), ch(0x1f0e0 + trump)));
    }
    for high in 0..7u32 {
        for low in 0..7u32 {
            pairs.push((format!("{high}-{low}"), ch(0x1f063 + high * 7 + low)));
        }
    }
    pairs
}

impl MacroTable {
    /// The built-in macros of the default movetext parser.
    pub fn builtins() -> Self {
        MacroTable::default()
    }

    /// Built-ins, overridden by the setup's macros, overridden by the metadata's `Macros`.
    pub fn with_overrides(setup: &[(String, String)], metadata: &[(String, String)]) -> Self {
        let mut own = HashMap::new();
        for (name, value) in setup.iter().chain(metadata) {
            own.insert(name.clone(), value.clone());
        }
        MacroTable { own }
    }

    /// The value of a macro as written, before its own macro uses are expanded.
    pub fn raw(&self, name: &str) -> Option<&str> {
        match self.own.get(name) {
            Some(value) => Some(value),
            None => builtin_table().get(name).map(String::as_str),
        }
    }

    /// The fully expanded value of a macro; `None` when unknown. References to unknown
    /// macros stay as written.
    pub fn resolve(&self, name: &str) -> Option<Result<Cow<'_, str>, MacroError>> {
        let value = self.raw(name)?;
        if !value.contains('`') {
            return Some(Ok(Cow::Borrowed(value)));
        }
        Some(self.expand(name, value).map(Cow::Owned))
    }

    /// Expands `value`, the value of `name`, with an explicit stack of the macros being
    /// expanded, so that the depth of the input never becomes the depth of the call stack.
    fn expand(&self, name: &str, value: &str) -> Result<String, MacroError> {
        struct Frame<'a> {
            name: &'a str,
            value: &'a str,
            at: usize,
        }
        let mut stack = vec![Frame { name, value, at: 0 }];
        let mut out = String::with_capacity(value.len());
        let mut references = 0usize;
        while let Some(frame) = stack.last_mut() {
            let rest = &frame.value[frame.at..];
            let Some(reference) = macro_references(rest).into_iter().next() else {
                out.push_str(rest);
                stack.pop();
                continue;
            };
            out.push_str(&rest[..reference.start]);
            let written = &rest[reference.clone()];
            frame.at += reference.end;
            let inner = &written[1..written.len() - 1];
            match self.raw(inner) {
                // Unknown references stay as written; using them is reported later.
                None => out.push_str(written),
                Some(inner_value) => {
                    if stack.iter().any(|frame| frame.name == inner) {
                        return Err(MacroError::Cycle);
                    }
                    if stack.len() >= MAX_MACRO_DEPTH {
                        return Err(MacroError::TooDeep);
                    }
                    references += 1;
                    if references > MAX_MACRO_REFERENCES {
                        return Err(MacroError::TooLong);
                    }
                    stack.push(Frame {
                        name: inner,
                        value: inner_value,
                        at: 0,
                    });
                }
            }
            if out.len() > MAX_MACRO_EXPANSION_BYTES {
                return Err(MacroError::TooLong);
            }
        }
        if out.len() > MAX_MACRO_EXPANSION_BYTES {
            return Err(MacroError::TooLong);
        }
        Ok(out)
    }

    /// Every macro name, sorted.
    pub fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.own.keys().map(String::as_str).collect();
        names.extend(
            builtin_table()
                .keys()
                .map(String::as_str)
                .filter(|name| !self.own.contains_key(*name)),
        );
        names.sort_unstable();
        names
    }

    /// Replace every macro reference of `text`. Errors carry the range of `` `name' ``.
    pub fn substitute<'t>(&self, text: &'t str) -> Result<Cow<'t, str>, Vec<Issue>> {
        let references = macro_references(text);
        if references.is_empty() {
            return Ok(Cow::Borrowed(text));
        }
        let mut out = String::with_capacity(text.len());
        let mut errors = Vec::new();
        let mut last = 0;
        for range in references {
            out.push_str(&text[last..range.start]);
            let name = &text[range.start + 1..range.end - 1];
            match self.resolve(name) {
                Some(Ok(value)) => match macro_references(&value).first() {
                    None => out.push_str(&value),
                    Some(inner) => errors.push(Issue::error(
                        range.clone(),
                        "unknown-macro",
                        format!(
                            "macro `{name}` uses `{}`, which is not defined",
                            &value[inner.start + 1..inner.end - 1]
                        ),
                    )),
                },
                Some(Err(error)) => errors.push(Issue::error(
                    range.clone(),
                    error.code(),
                    error.message(name),
                )),
                None => errors.push(Issue::error(
                    range.clone(),
                    "unknown-macro",
                    format!("there is no macro named `{name}`"),
                )),
            }
            if out.len() > MAX_MACRO_EXPANSION_BYTES {
                errors.push(Issue::error(
                    range.clone(),
                    MacroError::TooLong.code(),
                    format!(
                        "the macros of this token expand to more than \
                         {MAX_MACRO_EXPANSION_BYTES} bytes; it is not expanded"
                    ),
                ));
                return Err(errors);
            }
            last = range.end;
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        out.push_str(&text[last..]);
        Ok(Cow::Owned(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn builtins_cover_the_appendix() {
        let table = MacroTable::builtins();
        assert_eq!(table.resolve("q"), Some(Ok(Cow::Borrowed("♛"))));
        assert_eq!(table.resolve("K"), Some(Ok(Cow::Borrowed("♔"))));
        assert_eq!(table.resolve("WH"), Some(Ok(Cow::Borrowed("♤"))));
        assert_eq!(table.resolve("SA"), Some(Ok(Cow::Borrowed("🂡"))));
        assert_eq!(table.resolve("CK"), Some(Ok(Cow::Borrowed("🃞"))));
        assert_eq!(table.resolve("T21"), Some(Ok(Cow::Borrowed("🃵"))));
        assert_eq!(table.resolve("6-6"), Some(Ok(Cow::Borrowed("🂓"))));
        assert_eq!(table.resolve("0-0"), Some(Ok(Cow::Borrowed("🁣"))));
        assert_eq!(table.resolve("nope"), None);
    }

    #[test]
    fn overrides_and_nesting() {
        let table = MacroTable::with_overrides(
            &pairs(&[("q", "setup"), ("x", "from setup")]),
            &pairs(&[("x", "`q'@b2"), ("y", "`x' `m1'")]),
        );
        assert_eq!(table.resolve("x"), Some(Ok("setup@b2".into())));
        assert_eq!(table.resolve("y"), Some(Ok("setup@b2 `m1'".into())));
        assert_eq!(table.substitute("`x';`K'").as_deref(), Ok("setup@b2;♔"));
        let errors = table.substitute("a `y'").unwrap_err();
        assert_eq!(
            (errors[0].code, errors[0].range.clone()),
            ("unknown-macro", 2..5)
        );
        assert!(errors[0].message.contains("`m1`"), "{}", errors[0].message);
    }

    #[test]
    fn cycles_and_unknown_names_are_errors_with_ranges() {
        let table =
            MacroTable::with_overrides(&[], &pairs(&[("a", "`b'"), ("b", "x`a'"), ("c", "ok")]));
        assert_eq!(table.resolve("a"), Some(Err(MacroError::Cycle)));
        assert_eq!(table.resolve("b"), Some(Err(MacroError::Cycle)));
        let errors = table.substitute("`c'-`a'`zz'").unwrap_err();
        assert_eq!(errors.len(), 2);
        assert_eq!(
            (errors[0].code, errors[0].range.clone()),
            ("macro-cycle", 4..7)
        );
        assert_eq!(
            (errors[1].code, errors[1].range.clone()),
            ("unknown-macro", 7..11)
        );
    }

    /// `m1` is ten times `m0`, `m2` ten times `m1`, ...: expanding every macro up front
    /// would need terabytes.
    fn exponential(levels: usize, base: &str) -> MacroTable {
        let mut macros = vec![("m0".to_string(), base.to_string())];
        for level in 1..=levels {
            macros.push((format!("m{level}"), format!("`m{}'", level - 1).repeat(10)));
        }
        MacroTable::with_overrides(&[], &macros)
    }

    #[test]
    fn multiplying_macros_cost_nothing_unused_and_stop_at_the_length_budget() {
        let table = exponential(12, "S@a1;");
        assert_eq!(
            table.resolve("m2").map(|v| v.map(|v| v.len())),
            Some(Ok(500))
        );
        assert_eq!(table.resolve("m12"), Some(Err(MacroError::TooLong)));
        let errors = table.substitute("x`m12'").unwrap_err();
        assert_eq!(
            (errors[0].code, errors[0].range.clone()),
            ("macro-too-long", 1..6)
        );
        // Empty values multiply the work without making the text longer.
        let empty = exponential(12, "");
        assert_eq!(empty.resolve("m12"), Some(Err(MacroError::TooLong)));
    }

    #[test]
    fn a_long_chain_of_macros_stops_at_the_depth_budget_without_recursion() {
        let mut macros: Vec<(String, String)> = (0..100_000)
            .map(|i| (format!("m{i}"), format!("`m{}'", i + 1)))
            .collect();
        macros.push(("m100000".to_string(), "S@a1".to_string()));
        let table = MacroTable::with_overrides(&[], &macros);
        assert_eq!(table.resolve("m0"), Some(Err(MacroError::TooDeep)));
        assert_eq!(table.resolve("m99990"), Some(Ok("S@a1".into())));
        let errors = table.substitute("`m0'").unwrap_err();
        assert_eq!(errors[0].code, "macro-too-deep");
    }

    #[test]
    fn reference_scanning_needs_a_name() {
        assert_eq!(macro_references("`'x`a'"), vec![3..6]);
        assert_eq!(
            macro_references("no quote `here"),
            Vec::<Range<usize>>::new()
        );
    }
}
