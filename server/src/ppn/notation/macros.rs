//! Macros: `` `name' `` in a move stands for the macro's value.
//!
//! Values come from three places, the earlier overriding the later: the metadata's `Macros`,
//! the game setup, the built-in table. A value may itself use macros; those are expanded
//! when the table is built, and a macro that (indirectly) uses itself is an error wherever
//! it is used.

use std::collections::HashMap;
use std::ops::Range;

use super::issue::Issue;

#[derive(Clone, Debug, PartialEq)]
enum Expansion {
    Value(String),
    /// The macro uses itself, directly or through others.
    Cycle,
}

/// A macro that uses itself, directly or through others, and so has no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MacroCycle;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct MacroTable {
    expanded: HashMap<String, Expansion>,
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
        Self::from_layers(&[&builtin_pairs()])
    }

    /// Built-ins, overridden by the setup's macros, overridden by the metadata's `Macros`.
    pub fn with_overrides(setup: &[(String, String)], metadata: &[(String, String)]) -> Self {
        Self::from_layers(&[&builtin_pairs(), setup, metadata])
    }

    /// Later layers override earlier ones.
    fn from_layers(layers: &[&[(String, String)]]) -> Self {
        let mut raw: HashMap<String, String> = HashMap::new();
        for layer in layers {
            for (name, value) in layer.iter() {
                raw.insert(name.clone(), value.clone());
            }
        }
        let mut expanded = HashMap::new();
        let names: Vec<String> = raw.keys().cloned().collect();
        for name in names {
            let mut in_progress = Vec::new();
            expand(&name, &raw, &mut expanded, &mut in_progress);
        }
        MacroTable { expanded }
    }

    /// The fully expanded value of a macro; `None` when unknown.
    pub fn resolve(&self, name: &str) -> Option<Result<&str, MacroCycle>> {
        self.expanded.get(name).map(|e| match e {
            Expansion::Value(v) => Ok(v.as_str()),
            Expansion::Cycle => Err(MacroCycle),
        })
    }

    /// Every macro name, sorted.
    pub fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.expanded.keys().map(String::as_str).collect();
        names.sort_unstable();
        names
    }

    /// Names of the macros that use themselves (sorted).
    pub fn cyclic_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self
            .expanded
            .iter()
            .filter(|(_, e)| **e == Expansion::Cycle)
            .map(|(n, _)| n.as_str())
            .collect();
        names.sort_unstable();
        names
    }

    /// Replace every macro reference of `text`. Errors carry the range of `` `name' ``.
    pub fn substitute(&self, text: &str) -> Result<String, Vec<Issue>> {
        let mut out = String::with_capacity(text.len());
        let mut errors = Vec::new();
        let mut last = 0;
        for range in macro_references(text) {
            out.push_str(&text[last..range.start]);
            let name = &text[range.start + 1..range.end - 1];
            match self.resolve(name) {
                Some(Ok(value)) => match macro_references(value).first() {
                    None => out.push_str(value),
                    Some(inner) => errors.push(Issue::error(
                        range.clone(),
                        "unknown-macro",
                        format!(
                            "macro `{name}` uses `{}`, which is not defined",
                            &value[inner.start + 1..inner.end - 1]
                        ),
                    )),
                },
                Some(Err(MacroCycle)) => errors.push(Issue::error(
                    range.clone(),
                    "macro-cycle",
                    format!("macro `{name}` uses itself, so it has no value"),
                )),
                None => errors.push(Issue::error(
                    range.clone(),
                    "unknown-macro",
                    format!("there is no macro named `{name}`"),
                )),
            }
            last = range.end;
        }
        out.push_str(&text[last..]);
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(errors)
        }
    }
}

fn expand(
    name: &str,
    raw: &HashMap<String, String>,
    expanded: &mut HashMap<String, Expansion>,
    in_progress: &mut Vec<String>,
) -> Expansion {
    if let Some(done) = expanded.get(name) {
        return done.clone();
    }
    if in_progress.iter().any(|n| n == name) {
        return Expansion::Cycle;
    }
    let Some(value) = raw.get(name) else {
        return Expansion::Cycle;
    };
    in_progress.push(name.to_string());
    let mut result = String::with_capacity(value.len());
    let mut last = 0;
    let mut cyclic = false;
    for range in macro_references(value) {
        result.push_str(&value[last..range.start]);
        let inner = &value[range.start + 1..range.end - 1];
        if raw.contains_key(inner) {
            match expand(inner, raw, expanded, in_progress) {
                Expansion::Value(v) => result.push_str(&v),
                Expansion::Cycle => cyclic = true,
            }
        } else {
            // Unknown references stay as written; using them is reported later.
            result.push_str(&value[range.clone()]);
        }
        last = range.end;
    }
    result.push_str(&value[last..]);
    in_progress.pop();
    let expansion = if cyclic {
        Expansion::Cycle
    } else {
        Expansion::Value(result)
    };
    expanded.insert(name.to_string(), expansion.clone());
    expansion
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
        assert_eq!(table.resolve("q"), Some(Ok("♛")));
        assert_eq!(table.resolve("K"), Some(Ok("♔")));
        assert_eq!(table.resolve("WH"), Some(Ok("♤")));
        assert_eq!(table.resolve("SA"), Some(Ok("🂡")));
        assert_eq!(table.resolve("CK"), Some(Ok("🃞")));
        assert_eq!(table.resolve("T21"), Some(Ok("🃵")));
        assert_eq!(table.resolve("6-6"), Some(Ok("🂓")));
        assert_eq!(table.resolve("0-0"), Some(Ok("🁣")));
        assert_eq!(table.resolve("nope"), None);
    }

    #[test]
    fn overrides_and_nesting() {
        let table = MacroTable::with_overrides(
            &pairs(&[("q", "setup"), ("x", "from setup")]),
            &pairs(&[("x", "`q'@b2"), ("y", "`x' `m1'")]),
        );
        assert_eq!(table.resolve("x"), Some(Ok("setup@b2")));
        assert_eq!(table.resolve("y"), Some(Ok("setup@b2 `m1'")));
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
        assert_eq!(table.cyclic_names(), vec!["a", "b"]);
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

    #[test]
    fn reference_scanning_needs_a_name() {
        assert_eq!(macro_references("`'x`a'"), vec![3..6]);
        assert_eq!(
            macro_references("no quote `here"),
            Vec::<Range<usize>>::new()
        );
    }
}
