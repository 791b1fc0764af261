//! The recursive brace expander ppn-ls used before its expander became iterative and
//! budgeted by length: the reference the iterative one must agree with wherever both
//! finish (inputs are kept short, so its recursion stays shallow).
#![allow(dead_code)]

use std::fmt;

/// The most strings one token may expand to; a longer range or a larger product is an
/// error rather than a memory hazard.
pub const MAX_EXPANSIONS: usize = 10_000;

/// Nesting depth beyond which expansion stops, so hostile input cannot exhaust the stack.
pub const MAX_NESTING: usize = 64;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BraceError {
    /// The expansion would produce more than [`MAX_EXPANSIONS`] strings.
    TooManyExpansions { count: u128 },
    /// A range with a step of zero between two different ends.
    ZeroStep { range: String },
    /// A range end is not representable (too many digits) or a letter range leaves ASCII.
    BadRangeEnd { range: String },
    /// Braces nested deeper than [`MAX_NESTING`].
    TooDeeplyNested,
}

impl fmt::Display for BraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BraceError::TooManyExpansions { count } => write!(
                f,
                "brace expansion gives {count} strings, more than the limit of {MAX_EXPANSIONS}"
            ),
            BraceError::ZeroStep { range } => {
                write!(f, "brace range `{{{range}}}` has a step of zero")
            }
            BraceError::BadRangeEnd { range } => write!(
                f,
                "brace range `{{{range}}}` has an end that cannot be expanded"
            ),
            BraceError::TooDeeplyNested => {
                write!(f, "braces are nested more than {MAX_NESTING} levels deep")
            }
        }
    }
}

impl std::error::Error for BraceError {}

/// Expands the braces of `token` the way a movetext token is expanded: a token that
/// both starts with `{` and ends with `}` is a comment word and is returned unchanged
/// (not even unescaped); anything else goes through [`expand_braces`].
pub fn expand_token(token: &str) -> Result<Vec<String>, BraceError> {
    if token.starts_with('{') && token.ends_with('}') {
        Ok(vec![token.to_string()])
    } else {
        expand_braces(token)
    }
}

/// Expands every top-level brace group of `token` (recursively), returning the
/// expansions in order. A token without braces comes back as itself, unescaped.
pub fn expand_braces(token: &str) -> Result<Vec<String>, BraceError> {
    let chars: Vec<char> = token.chars().collect();
    expand(&chars, true, 0)
}

fn expand(text: &[char], unescape_result: bool, depth: usize) -> Result<Vec<String>, BraceError> {
    if depth > MAX_NESTING {
        return Err(BraceError::TooDeeplyNested);
    }
    let groups = top_level_groups(text);
    if groups.is_empty() {
        // Unescaping here even for nested calls is what makes `{a\,b,c}` give `a,b`.
        return Ok(vec![unescape(&collect(text))]);
    }
    let alternatives = groups
        .iter()
        .map(|&(open, close)| expand_group(text, open, close, depth))
        .collect::<Result<Vec<_>, _>>()?;

    let preamble = collect(&text[..groups[0].0]);
    let mut separators = Vec::with_capacity(groups.len());
    for pair in groups.windows(2) {
        let (after, before) = (pair[0].1 + 1, pair[1].0);
        separators.push(if after < before {
            collect(&text[after..before])
        } else {
            String::new()
        });
    }
    let last_close = groups[groups.len() - 1].1;
    separators.push(collect(text.get(last_close + 1..).unwrap_or(&[])));

    let count = alternatives
        .iter()
        .try_fold(1u128, |acc, options| acc.checked_mul(options.len() as u128))
        .unwrap_or(u128::MAX);
    if count > MAX_EXPANSIONS as u128 {
        return Err(BraceError::TooManyExpansions { count });
    }

    let mut results = Vec::with_capacity(count as usize);
    let mut choice = vec![0usize; alternatives.len()];
    if alternatives.iter().any(Vec::is_empty) {
        return Ok(results);
    }
    loop {
        let mut value = preamble.clone();
        for (group, options) in alternatives.iter().enumerate() {
            value.push_str(&options[choice[group]]);
            value.push_str(&separators[group]);
        }
        results.push(if unescape_result {
            unescape(&value)
        } else {
            value
        });
        // Odometer with the last group turning fastest: left-major product.
        let mut group = alternatives.len();
        loop {
            if group == 0 {
                return Ok(results);
            }
            group -= 1;
            choice[group] += 1;
            if choice[group] < alternatives[group].len() {
                break;
            }
            choice[group] = 0;
        }
    }
}

fn collect(chars: &[char]) -> String {
    chars.iter().collect()
}

fn is_escaped(text: &[char], index: usize) -> bool {
    index > 0 && text[index - 1] == '\\'
}

/// The (open, close) indices of the top-level brace groups. Unescaped braces are
/// paired by nesting depth; the resulting list of depth-1 brace positions is read two
/// at a time, reusing positions cyclically when it has an odd length, so stray braces
/// degrade into literal text instead of failing.
fn top_level_groups(text: &[char]) -> Vec<(usize, usize)> {
    let braces: Vec<(usize, char)> = text
        .iter()
        .enumerate()
        .filter(|&(i, &c)| (c == '{' || c == '}') && !is_escaped(text, i))
        .map(|(i, &c)| (i, c))
        .collect();
    let has_open = braces.iter().any(|&(_, c)| c == '{');
    let has_close = braces.iter().any(|&(_, c)| c == '}');
    if !has_open || !has_close {
        return Vec::new();
    }
    let mut depth: i64 = 1;
    let mut outer = Vec::new();
    for &(index, brace) in &braces {
        let level = if brace == '{' {
            depth += 1;
            depth - 1
        } else {
            depth -= 1;
            depth
        };
        if level == 1 {
            outer.push(index);
        }
    }
    let rows = outer.len().div_ceil(2);
    (0..rows)
        .map(|row| {
            (
                outer[(2 * row) % outer.len()],
                outer[(2 * row + 1) % outer.len()],
            )
        })
        .collect()
}

fn expand_group(
    text: &[char],
    open: usize,
    close: usize,
    depth: usize,
) -> Result<Vec<String>, BraceError> {
    let group: &[char] = if open <= close {
        &text[open..=close]
    } else {
        &[]
    };
    let inner: &[char] = if group.len() >= 2 {
        &group[1..group.len() - 1]
    } else {
        &[]
    };
    let commas = splitting_commas(inner);
    if !commas.is_empty() {
        let mut options = Vec::new();
        let mut start = 0;
        for end in commas.into_iter().chain(std::iter::once(inner.len())) {
            options.extend(expand(&inner[start..end], false, depth + 1)?);
            if options.len() > MAX_EXPANSIONS {
                return Err(BraceError::TooManyExpansions {
                    count: options.len() as u128,
                });
            }
            start = end + 1;
        }
        return Ok(options);
    }
    if let Some(range) = parse_range(inner) {
        return expand_range(&range, &collect(inner));
    }
    if has_brace_pair(inner) {
        return Ok(expand(inner, false, depth + 1)?
            .into_iter()
            .map(|option| format!("{{{option}}}"))
            .collect());
    }
    Ok(vec![collect(group)])
}

/// Commas that separate alternatives: unescaped, and not followed by a `}` before the
/// next `{` (such a comma belongs to a nested group).
fn splitting_commas(inner: &[char]) -> Vec<usize> {
    let mut closes_before_next_open = vec![false; inner.len() + 1];
    for i in (0..inner.len()).rev() {
        closes_before_next_open[i] = match inner[i] {
            '{' => false,
            '}' => true,
            _ => closes_before_next_open[i + 1],
        };
    }
    (0..inner.len())
        .filter(|&i| inner[i] == ',' && !is_escaped(inner, i) && !closes_before_next_open[i + 1])
        .collect()
}

fn has_brace_pair(text: &[char]) -> bool {
    let mut seen_open = false;
    for (i, &c) in text.iter().enumerate() {
        if is_escaped(text, i) {
            continue;
        }
        if c == '{' {
            seen_open = true;
        } else if c == '}' && seen_open {
            return true;
        }
    }
    false
}

/// Replaces the escapes `\.`, `\,`, `\{`, `\}` one kind after the other (the order
/// matters for runs of backslashes).
fn unescape(text: &str) -> String {
    text.replace("\\.", ".")
        .replace("\\,", ",")
        .replace("\\{", "{")
        .replace("\\}", "}")
}

#[derive(Debug)]
enum RangeSpec {
    Letters {
        from: char,
        to: char,
        step: Option<String>,
    },
    Numbers {
        from: String,
        to: String,
        step: Option<String>,
    },
}

fn is_signed_integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

fn single_letter(text: &str) -> Option<char> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_alphabetic() => Some(c),
        _ => None,
    }
}

/// Recognises `a..e`, `a..e..2`, `-3..10` and `1..10..3` (the whole group content).
fn parse_range(inner: &[char]) -> Option<RangeSpec> {
    let inner = collect(inner);
    let parts: Vec<&str> = inner.split("..").collect();
    if parts.len() != 2 && parts.len() != 3 {
        return None;
    }
    let step = parts.get(2).map(|s| s.to_string());
    if let Some(step) = &step {
        if !is_signed_integer(step) {
            return None;
        }
    }
    if let (Some(from), Some(to)) = (single_letter(parts[0]), single_letter(parts[1])) {
        return Some(RangeSpec::Letters { from, to, step });
    }
    if is_signed_integer(parts[0]) && is_signed_integer(parts[1]) {
        return Some(RangeSpec::Numbers {
            from: parts[0].to_string(),
            to: parts[1].to_string(),
            step,
        });
    }
    None
}

fn parse_number(text: &str, range: &str) -> Result<i64, BraceError> {
    text.parse().map_err(|_| BraceError::BadRangeEnd {
        range: range.to_string(),
    })
}

/// The values from `from` to `to` (both included when reached), moving by `step` in
/// the direction of `to` whatever the sign of `step`.
fn stepped_values(from: i64, to: i64, step: i64, range: &str) -> Result<Vec<i64>, BraceError> {
    if from == to {
        return Ok(vec![from]);
    }
    if step == 0 {
        return Err(BraceError::ZeroStep {
            range: range.to_string(),
        });
    }
    let magnitude = step.unsigned_abs() as u128;
    let distance = (i128::from(to) - i128::from(from)).unsigned_abs();
    let count = distance / magnitude + 1;
    if count > MAX_EXPANSIONS as u128 {
        return Err(BraceError::TooManyExpansions { count });
    }
    let signed_step = if to > from {
        i128::from(step.unsigned_abs())
    } else {
        -i128::from(step.unsigned_abs())
    };
    Ok((0..count as i128)
        .map(|k| (i128::from(from) + k * signed_step) as i64)
        .collect())
}

fn expand_range(spec: &RangeSpec, range: &str) -> Result<Vec<String>, BraceError> {
    match spec {
        RangeSpec::Letters { from, to, step } => {
            let printable = |c: char| (' '..='~').contains(&c);
            if !printable(*from) || !printable(*to) {
                return Err(BraceError::BadRangeEnd {
                    range: range.to_string(),
                });
            }
            let step = match step {
                Some(step) => parse_number(step, range)?,
                None => 1,
            };
            let values =
                stepped_values(i64::from(*from as u32), i64::from(*to as u32), step, range)?;
            Ok(values
                .into_iter()
                .filter_map(|code| u32::try_from(code).ok().and_then(char::from_u32))
                .map(String::from)
                .collect())
        }
        RangeSpec::Numbers { from, to, step } => {
            let start = parse_number(from, range)?;
            let end = parse_number(to, range)?;
            let step = match step {
                Some(step) => parse_number(step, range)?,
                None => 1,
            };
            let values = stepped_values(start, end, step, range)?;
            let padded = |end: &str| {
                let digits = end.strip_prefix('-').unwrap_or(end);
                digits.len() >= 2 && digits.starts_with('0')
            };
            if padded(from) || padded(to) {
                let width = from.chars().count().max(to.chars().count());
                Ok(values.into_iter().map(|v| zero_pad(v, width)).collect())
            } else {
                Ok(values.into_iter().map(|v| v.to_string()).collect())
            }
        }
    }
}

/// Pads to `width` characters with zeros after the sign.
fn zero_pad(value: i64, width: usize) -> String {
    let digits = value.unsigned_abs().to_string();
    if value < 0 {
        format!("-{digits:0>pad$}", pad = width.saturating_sub(1))
    } else {
        format!("{digits:0>width$}")
    }
}
