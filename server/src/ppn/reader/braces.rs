//! Unix-shell-style brace expansion of one movetext token.
//!
//! The rules follow the brace expander the reference parser relies on, including its
//! corner cases: a brace group without a top-level comma or range is kept literally,
//! unbalanced braces are left alone, `\,` `\.` `\{` `\}` are unescaped, number ranges
//! take an optional step and zero padding, letter ranges walk the printable ASCII
//! table, and several groups in one token expand to their cartesian product with the
//! leftmost group varying slowest. Range values are written as plain integers (the
//! reference prints round numbers from a stepped range such as `100000` as `1e+05`).
//!
//! Hostile tokens are the rule here, not the exception: a few bytes can ask for billions
//! of strings or gigabytes of text, and braces can nest as deep as the token is long. So
//! a token is expanded twice over the same walk: first measuring (how many strings, how
//! many bytes) without building anything, and only when that fits the budgets, building
//! the strings. The walk keeps its own stack, so no depth of nesting can exhaust the
//! thread's, and each nesting level reads the token once.

use std::fmt;
use std::ops::Range;

/// The most strings one token may expand to; a longer range or a larger product is an
/// error rather than a memory hazard.
pub const MAX_EXPANSIONS: usize = 10_000;

/// The most bytes of text one token may expand to, all its strings together.
pub const MAX_EXPANDED_BYTES: usize = 256 * 1024;

/// Nesting depth beyond which expansion stops: each level costs a pass over the token.
pub const MAX_NESTING: usize = 64;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BraceError {
    /// The expansion would produce more than [`MAX_EXPANSIONS`] strings.
    TooManyExpansions { count: u128 },
    /// The expansion would produce more than [`MAX_EXPANDED_BYTES`] bytes of text.
    TooLong { bytes: u128 },
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
            BraceError::TooLong { bytes } => write!(
                f,
                "brace expansion gives {bytes} bytes of text, more than the limit of \
                 {MAX_EXPANDED_BYTES}"
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

/// A [`BraceError`] and the part of the token it is about: the brace group (or groups)
/// that asked for too much, or that cannot be expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocatedBraceError {
    pub error: BraceError,
    /// Byte range in the token.
    pub at: Range<usize>,
}

impl fmt::Display for LocatedBraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

/// Expands the braces of `token` the way a movetext token is expanded: a token that
/// both starts with `{` and ends with `}` is a comment word and is returned unchanged
/// (not even unescaped); anything else goes through [`expand_braces`].
pub fn expand_token(token: &str) -> Result<Vec<String>, BraceError> {
    expand_token_located(token).map_err(|located| located.error)
}

/// [`expand_token`], telling where in the token an error is.
pub fn expand_token_located(token: &str) -> Result<Vec<String>, LocatedBraceError> {
    if token.starts_with('{') && token.ends_with('}') {
        Ok(vec![token.to_string()])
    } else {
        expand_braces_located(token)
    }
}

/// Whether [`expand_token_located`] gives `token` back as it is, seen without expanding:
/// a token wrapped in braces is kept whole, and a token without an escape (`\.`, `\,`,
/// `\{`, `\}`) that lacks either brace has no group to expand and nothing to unescape.
/// Most movetext tokens are such, comment words like `{resigns.` and drops below such as
/// `b4\c5` included, and expanding one would allocate.
pub fn expands_to_itself(token: &str) -> bool {
    let bytes = token.as_bytes();
    if bytes.first() == Some(&b'{') && bytes.last() == Some(&b'}') {
        return true;
    }
    if has_escape(bytes) {
        return false;
    }
    let (mut open, mut close) = (false, false);
    for &byte in bytes {
        match byte {
            b'{' => open = true,
            b'}' => close = true,
            _ => {}
        }
    }
    !(open && close)
}

/// Whether `text` holds one of the escapes [`unescape`] replaces.
fn has_escape(text: &[u8]) -> bool {
    text.windows(2)
        .any(|pair| pair[0] == b'\\' && matches!(pair[1], b'.' | b',' | b'{' | b'}'))
}

/// Expands every top-level brace group of `token` (and the groups inside them),
/// returning the expansions in order. A token without braces comes back as itself,
/// unescaped.
pub fn expand_braces(token: &str) -> Result<Vec<String>, BraceError> {
    expand_braces_located(token).map_err(|located| located.error)
}

/// [`expand_braces`], telling where in the token an error is.
pub fn expand_braces_located(token: &str) -> Result<Vec<String>, LocatedBraceError> {
    if let Some(expansions) = single_group_expansions(token) {
        return Ok(expansions);
    }
    walk::<Measure>(token)?;
    walk::<Vec<String>>(token)
}

/// The expansions of the usual braced token, `*{a,h}4` or `?M{0..4}@>90;`: one `{`, then
/// one `}`, and no backslash. Its group is a comma list, a range or kept as written, and
/// the expansions are the text before it, each alternative, and the text after it, as the
/// walk gives them, without measuring and walking the token twice. `None` for any other
/// token, for a range the walk would reject (it then says why), and for one so long that
/// it might exceed a budget.
fn single_group_expansions(token: &str) -> Option<Vec<String>> {
    // At most 128 alternatives of at most 256 bytes: far within both budgets.
    const MOST_BYTES: usize = 256;
    const MOST_RANGE_VALUES: u128 = 256;
    const MOST_RANGE_BYTES: u128 = 4096;
    if token.len() > MOST_BYTES {
        return None;
    }
    let (mut open, mut close) = (None, None);
    for (at, &byte) in token.as_bytes().iter().enumerate() {
        let seen = match byte {
            b'\\' => return None,
            b'{' => open.replace(at),
            b'}' => close.replace(at),
            _ => None,
        };
        if seen.is_some() {
            return None;
        }
    }
    let (open, close) = (open?, close?);
    if close < open {
        return None;
    }
    let (before, inner, after) = (&token[..open], &token[open + 1..close], &token[close + 1..]);
    let around = |middle: &str| {
        let mut expansion = String::with_capacity(before.len() + middle.len() + after.len());
        expansion.push_str(before);
        expansion.push_str(middle);
        expansion.push_str(after);
        expansion
    };
    if inner.contains(',') {
        return Some(inner.split(',').map(around).collect());
    }
    if let Some(spec) = parse_range(inner) {
        let values = range_values(&spec, inner).ok()?;
        if values.count > MOST_RANGE_VALUES || values.bytes() > MOST_RANGE_BYTES {
            return None;
        }
        // A letter range may give a backslash, which the walk unescapes with what
        // follows it (`{Z..a}.` gives `.` for `\.`): so is every expansion here.
        return Some(
            values
                .strings()
                .iter()
                .map(|value| unescape(around(value)))
                .collect(),
        );
    }
    Some(vec![token.to_string()])
}

/// What the walk computes for each piece of the token: the strings themselves, or only
/// how many there would be and how long they would be.
trait Expansions: Sized {
    fn one(text: String) -> Self;
    fn none() -> Self;
    fn range(values: &RangeValues) -> Self;
    fn append(&mut self, other: Self);
    /// Each expansion in braces.
    fn wrap(self) -> Self;
    /// Every combination of one alternative per group, in order, with the preamble and
    /// the separators around them; the product is unescaped as a whole if `unescape`.
    fn product(token: &str, plan: &ProductPlan, groups: Vec<Self>) -> Self;
    fn count(&self) -> u128;
    fn bytes(&self) -> u128;
}

/// The size of an expansion. Its bytes are counted before the final unescaping, which
/// only ever shortens a string.
#[derive(Clone, Copy, Debug)]
struct Measure {
    count: u128,
    bytes: u128,
}

impl Expansions for Measure {
    fn one(text: String) -> Self {
        Measure {
            count: 1,
            bytes: text.len() as u128,
        }
    }

    fn none() -> Self {
        Measure { count: 0, bytes: 0 }
    }

    fn range(values: &RangeValues) -> Self {
        Measure {
            count: values.count,
            bytes: values.bytes(),
        }
    }

    fn append(&mut self, other: Self) {
        self.count = self.count.saturating_add(other.count);
        self.bytes = self.bytes.saturating_add(other.bytes);
    }

    fn wrap(self) -> Self {
        Measure {
            count: self.count,
            bytes: self.bytes.saturating_add(self.count.saturating_mul(2)),
        }
    }

    fn product(_: &str, plan: &ProductPlan, groups: Vec<Self>) -> Self {
        let count = product_count(groups.iter().map(|group| group.count));
        if count == 0 {
            return Measure::none();
        }
        let fixed = plan.preamble.len() + plan.separators.iter().map(Range::len).sum::<usize>();
        let mut bytes = count.saturating_mul(fixed as u128);
        for group in &groups {
            // Each alternative of a group appears in count / (its group's size) strings.
            bytes = bytes.saturating_add(group.bytes.saturating_mul(count / group.count));
        }
        Measure { count, bytes }
    }

    fn count(&self) -> u128 {
        self.count
    }

    fn bytes(&self) -> u128 {
        self.bytes
    }
}

impl Expansions for Vec<String> {
    fn one(text: String) -> Self {
        vec![text]
    }

    fn none() -> Self {
        Vec::new()
    }

    fn range(values: &RangeValues) -> Self {
        values.strings()
    }

    fn append(&mut self, other: Self) {
        self.extend(other);
    }

    fn wrap(self) -> Self {
        self.into_iter()
            .map(|option| format!("{{{option}}}"))
            .collect()
    }

    fn product(token: &str, plan: &ProductPlan, groups: Vec<Self>) -> Self {
        let count = product_count(groups.iter().map(|group| group.len() as u128));
        // The walk measured first: `count` is within the budget here.
        let mut results = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
        if groups.iter().any(Vec::is_empty) {
            return results;
        }
        let preamble = &token[plan.preamble.clone()];
        let mut choice = vec![0usize; groups.len()];
        loop {
            let mut value = preamble.to_string();
            for (group, options) in groups.iter().enumerate() {
                value.push_str(&options[choice[group]]);
                value.push_str(&token[plan.separators[group].clone()]);
            }
            results.push(if plan.unescape {
                unescape(value)
            } else {
                value
            });
            // Odometer with the last group turning fastest: left-major product.
            let mut group = groups.len();
            loop {
                if group == 0 {
                    return results;
                }
                group -= 1;
                choice[group] += 1;
                if choice[group] < groups[group].len() {
                    break;
                }
                choice[group] = 0;
            }
        }
    }

    fn count(&self) -> u128 {
        self.len() as u128
    }

    fn bytes(&self) -> u128 {
        self.iter().map(|string| string.len() as u128).sum()
    }
}

fn product_count(counts: impl Iterator<Item = u128>) -> u128 {
    counts
        .into_iter()
        .try_fold(1u128, |acc, count| acc.checked_mul(count))
        .unwrap_or(u128::MAX)
}

/// How the groups of one piece of text combine. All ranges are byte ranges of the token.
#[derive(Debug)]
struct ProductPlan {
    /// The text before the first group.
    preamble: Range<usize>,
    /// The text after each group, up to the next one (or the end of the text).
    separators: Vec<Range<usize>>,
    unescape: bool,
    /// From the first group's `{` through the last group's `}`, for errors.
    groups: Range<usize>,
}

/// One step of the walk. Each step leaves its result on the value stack; a step that
/// needs the results of others pushes itself back below them.
#[derive(Debug)]
enum Step {
    /// Expand the text at `range`, nested `depth` groups deep; `at` is the group it is
    /// in, for errors.
    Expand {
        range: Range<usize>,
        unescape: bool,
        depth: usize,
        at: Range<usize>,
    },
    /// Expand the group from the `{` at `open` to the `}` at `close` (`open > close` for
    /// the empty group stray braces make).
    Group {
        open: usize,
        close: usize,
        depth: usize,
    },
    /// Combine the results of the last `groups` steps.
    Product { plan: ProductPlan, groups: usize },
    /// Add the last result to the alternatives collected below it, then expand the
    /// remaining parts of the comma list, from `next` on.
    Alternative {
        group: Range<usize>,
        parts: Vec<Range<usize>>,
        next: usize,
        depth: usize,
    },
    /// Put the last result back in braces.
    Wrap { group: Range<usize> },
}

fn walk<V: Expansions>(token: &str) -> Result<V, LocatedBraceError> {
    let bytes = token.as_bytes();
    let whole = 0..token.len();
    let mut steps = vec![Step::Expand {
        range: whole.clone(),
        unescape: true,
        depth: 0,
        at: whole.clone(),
    }];
    let mut values: Vec<V> = Vec::new();
    let located = |error, at: &Range<usize>| LocatedBraceError {
        error,
        at: at.clone(),
    };
    while let Some(step) = steps.pop() {
        match step {
            Step::Expand {
                range,
                unescape: unescape_result,
                depth,
                at,
            } => {
                if depth > MAX_NESTING {
                    return Err(located(BraceError::TooDeeplyNested, &at));
                }
                let groups = top_level_groups(&bytes[range.clone()]);
                if groups.is_empty() {
                    // Unescaping here even inside groups is what makes `{a\,b,c}` give `a,b`.
                    values.push(V::one(unescape(token[range].to_string())));
                    continue;
                }
                let start = range.start;
                let separators = groups
                    .iter()
                    .enumerate()
                    .map(|(index, &(_, close))| {
                        let after = start + close + 1;
                        match groups.get(index + 1) {
                            Some(&(open, _)) if after < start + open => after..start + open,
                            Some(_) => after..after,
                            None => after.min(range.end)..range.end,
                        }
                    })
                    .collect();
                let first = groups.iter().map(|&(open, close)| open.min(close)).min();
                let last = groups.iter().map(|&(open, close)| open.max(close)).max();
                steps.push(Step::Product {
                    plan: ProductPlan {
                        preamble: start..start + groups[0].0,
                        separators,
                        unescape: unescape_result,
                        groups: start + first.unwrap_or(0)..start + last.unwrap_or(0) + 1,
                    },
                    groups: groups.len(),
                });
                for &(open, close) in groups.iter().rev() {
                    steps.push(Step::Group {
                        open: start + open,
                        close: start + close,
                        depth,
                    });
                }
            }
            Step::Group { open, close, depth } => {
                let group = if open <= close {
                    open..close + 1
                } else {
                    open..open
                };
                let inner = if group.len() >= 2 {
                    group.start + 1..group.end - 1
                } else {
                    group.start..group.start
                };
                let commas = splitting_commas(&bytes[inner.clone()]);
                if !commas.is_empty() {
                    let mut parts = Vec::with_capacity(commas.len() + 1);
                    let mut part_start = inner.start;
                    for comma in commas {
                        parts.push(part_start..inner.start + comma);
                        part_start = inner.start + comma + 1;
                    }
                    parts.push(part_start..inner.end);
                    let first = parts[0].clone();
                    values.push(V::none());
                    steps.push(Step::Alternative {
                        group: group.clone(),
                        parts,
                        next: 1,
                        depth,
                    });
                    steps.push(Step::Expand {
                        range: first,
                        unescape: false,
                        depth: depth + 1,
                        at: group,
                    });
                } else if let Some(spec) = parse_range(&token[inner.clone()]) {
                    let values_of_range = range_values(&spec, &token[inner])
                        .map_err(|error| located(error, &group))?;
                    values.push(V::range(&values_of_range));
                } else if has_brace_pair(&bytes[inner.clone()]) {
                    steps.push(Step::Wrap {
                        group: group.clone(),
                    });
                    steps.push(Step::Expand {
                        range: inner,
                        unescape: false,
                        depth: depth + 1,
                        at: group,
                    });
                } else {
                    values.push(V::one(token[group].to_string()));
                }
            }
            Step::Alternative {
                group,
                parts,
                next,
                depth,
            } => {
                let part = pop(&mut values);
                let options = values.last_mut().expect("the alternatives so far");
                options.append(part);
                check_budget(options, &group)?;
                if let Some(range) = parts.get(next).cloned() {
                    steps.push(Step::Alternative {
                        group: group.clone(),
                        parts,
                        next: next + 1,
                        depth,
                    });
                    steps.push(Step::Expand {
                        range,
                        unescape: false,
                        depth: depth + 1,
                        at: group,
                    });
                }
            }
            Step::Product { plan, groups } => {
                let alternatives = values.split_off(values.len() - groups);
                let product = V::product(token, &plan, alternatives);
                check_budget(&product, &plan.groups)?;
                values.push(product);
            }
            Step::Wrap { group } => {
                let wrapped = pop(&mut values).wrap();
                check_budget(&wrapped, &group)?;
                values.push(wrapped);
            }
        }
    }
    Ok(pop(&mut values))
}

fn pop<V>(values: &mut Vec<V>) -> V {
    values
        .pop()
        .expect("every step leaves its result on the stack")
}

fn check_budget<V: Expansions>(value: &V, at: &Range<usize>) -> Result<(), LocatedBraceError> {
    let error = if value.count() > MAX_EXPANSIONS as u128 {
        BraceError::TooManyExpansions {
            count: value.count(),
        }
    } else if value.bytes() > MAX_EXPANDED_BYTES as u128 {
        BraceError::TooLong {
            bytes: value.bytes(),
        }
    } else {
        return Ok(());
    };
    Err(LocatedBraceError {
        error,
        at: at.clone(),
    })
}

fn is_escaped(text: &[u8], index: usize) -> bool {
    index > 0 && text[index - 1] == b'\\'
}

/// The (open, close) indices of the top-level brace groups. Unescaped braces are
/// paired by nesting depth; the resulting list of depth-1 brace positions is read two
/// at a time, reusing positions cyclically when it has an odd length, so stray braces
/// degrade into literal text instead of failing.
fn top_level_groups(text: &[u8]) -> Vec<(usize, usize)> {
    let is_brace = |i: usize, c: u8| (c == b'{' || c == b'}') && !is_escaped(text, i);
    let has = |wanted: u8| {
        text.iter()
            .enumerate()
            .any(|(i, &c)| c == wanted && is_brace(i, c))
    };
    if !has(b'{') || !has(b'}') {
        return Vec::new();
    }
    let mut depth: i64 = 1;
    let mut outer = Vec::new();
    for (index, &brace) in text.iter().enumerate() {
        if !is_brace(index, brace) {
            continue;
        }
        let level = if brace == b'{' {
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

/// Commas that separate alternatives: unescaped, and not followed by a `}` before the
/// next `{` (such a comma belongs to a nested group).
fn splitting_commas(inner: &[u8]) -> Vec<usize> {
    let mut commas = Vec::new();
    // Reading from the right: whether a `}` comes before any `{` after this position.
    let mut closes_first = false;
    for i in (0..inner.len()).rev() {
        match inner[i] {
            b'{' => closes_first = false,
            b'}' => closes_first = true,
            b',' if !is_escaped(inner, i) && !closes_first => commas.push(i),
            _ => {}
        }
    }
    commas.reverse();
    commas
}

fn has_brace_pair(text: &[u8]) -> bool {
    let mut seen_open = false;
    for (i, &c) in text.iter().enumerate() {
        if is_escaped(text, i) {
            continue;
        }
        if c == b'{' {
            seen_open = true;
        } else if c == b'}' && seen_open {
            return true;
        }
    }
    false
}

/// Replaces the escapes `\.`, `\,`, `\{`, `\}` one kind after the other (the order
/// matters for runs of backslashes).
fn unescape(text: String) -> String {
    if !has_escape(text.as_bytes()) {
        return text;
    }
    text.replace("\\.", ".")
        .replace("\\,", ",")
        .replace("\\{", "{")
        .replace("\\}", "}")
}

#[derive(Debug)]
enum RangeSpec<'a> {
    Letters {
        from: char,
        to: char,
        step: Option<&'a str>,
    },
    Numbers {
        from: &'a str,
        to: &'a str,
        step: Option<&'a str>,
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
fn parse_range(inner: &str) -> Option<RangeSpec<'_>> {
    let mut parts = inner.split("..");
    let (from, to, step) = (parts.next()?, parts.next()?, parts.next());
    if parts.next().is_some() {
        return None;
    }
    if step.is_some_and(|step| !is_signed_integer(step)) {
        return None;
    }
    if let (Some(from), Some(to)) = (single_letter(from), single_letter(to)) {
        return Some(RangeSpec::Letters { from, to, step });
    }
    (is_signed_integer(from) && is_signed_integer(to)).then_some(RangeSpec::Numbers {
        from,
        to,
        step,
    })
}

fn parse_number(text: &str, range: &str) -> Result<i64, BraceError> {
    text.parse().map_err(|_| BraceError::BadRangeEnd {
        range: range.to_string(),
    })
}

/// The values of a range: `count` values from `from`, `step` apart.
#[derive(Debug)]
struct RangeValues {
    from: i64,
    /// Signed: towards the range's end.
    step: i128,
    count: u128,
    kind: RangeKind,
}

#[derive(Debug)]
enum RangeKind {
    Letters,
    /// Zero-padded to `width` characters when the range asks for it.
    Numbers {
        width: Option<usize>,
    },
}

impl RangeValues {
    fn value(&self, k: u128) -> i64 {
        // Every value lies between the range's two ends, both of which are i64.
        (i128::from(self.from) + k as i128 * self.step) as i64
    }

    fn strings(&self) -> Vec<String> {
        (0..self.count)
            .map(|k| self.value(k))
            .filter_map(|value| match self.kind {
                RangeKind::Letters => u32::try_from(value)
                    .ok()
                    .and_then(char::from_u32)
                    .map(String::from),
                RangeKind::Numbers { width: None } => Some(value.to_string()),
                RangeKind::Numbers { width: Some(width) } => Some(zero_pad(value, width)),
            })
            .collect()
    }

    /// The bytes of all the values together: the usual short range value by value, a
    /// long one by classes of values of equal length.
    fn bytes(&self) -> u128 {
        match self.kind {
            // Letter ranges stay within printable ASCII.
            RangeKind::Letters => self.count,
            RangeKind::Numbers { width } if self.count <= 64 => {
                let width = width.unwrap_or(0) as u128;
                (0..self.count)
                    .map(|k| {
                        let value = self.value(k);
                        let digits = value.unsigned_abs().checked_ilog10().unwrap_or(0) + 1;
                        (u128::from(digits) + u128::from(value < 0)).max(width)
                    })
                    .sum()
            }
            RangeKind::Numbers { width } => self.bytes_by_length(width.unwrap_or(0) as u128),
        }
    }

    fn bytes_by_length(&self, width: u128) -> u128 {
        let mut total = 0u128;
        let mut power = 1i128;
        for digits in 1..=19u128 {
            let (low, high) = (if digits == 1 { 0 } else { power }, power * 10 - 1);
            let positive = self.count_between(low, high);
            let negative = self.count_between(-high, -power);
            total += positive * digits.max(width) + negative * (digits + 1).max(width);
            power *= 10;
        }
        total
    }

    /// How many values lie in `low..=high`.
    fn count_between(&self, low: i128, high: i128) -> u128 {
        let from = i128::from(self.from);
        let last = self.count as i128 - 1;
        let (first_k, last_k) = if self.step > 0 {
            (
                ceil_div(low - from, self.step),
                (high - from).div_euclid(self.step),
            )
        } else if self.step < 0 {
            let step = -self.step;
            (ceil_div(from - high, step), (from - low).div_euclid(step))
        } else {
            return u128::from(low <= from && from <= high && self.count > 0);
        };
        let (first_k, last_k) = (first_k.max(0), last_k.min(last));
        (last_k - first_k + 1).max(0) as u128
    }
}

fn ceil_div(numerator: i128, denominator: i128) -> i128 {
    -(-numerator).div_euclid(denominator)
}

/// The values from `from` to `to` (both included when reached), moving by `step` in
/// the direction of `to` whatever the sign of `step`.
fn stepped(from: i64, to: i64, step: i64, range: &str) -> Result<(i128, u128), BraceError> {
    if from == to {
        return Ok((0, 1));
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
    Ok((signed_step, count))
}

fn range_values(spec: &RangeSpec<'_>, range: &str) -> Result<RangeValues, BraceError> {
    match *spec {
        RangeSpec::Letters { from, to, step } => {
            let printable = |c: char| (' '..='~').contains(&c);
            if !printable(from) || !printable(to) {
                return Err(BraceError::BadRangeEnd {
                    range: range.to_string(),
                });
            }
            let step = match step {
                Some(step) => parse_number(step, range)?,
                None => 1,
            };
            let (from, to) = (i64::from(from as u32), i64::from(to as u32));
            let (step, count) = stepped(from, to, step, range)?;
            Ok(RangeValues {
                from,
                step,
                count,
                kind: RangeKind::Letters,
            })
        }
        RangeSpec::Numbers { from, to, step } => {
            let start = parse_number(from, range)?;
            let end = parse_number(to, range)?;
            let step = match step {
                Some(step) => parse_number(step, range)?,
                None => 1,
            };
            let (step, count) = stepped(start, end, step, range)?;
            let padded = |end: &str| {
                let digits = end.strip_prefix('-').unwrap_or(end);
                digits.len() >= 2 && digits.starts_with('0')
            };
            let width =
                (padded(from) || padded(to)).then(|| from.chars().count().max(to.chars().count()));
            Ok(RangeValues {
                from: start,
                step,
                count,
                kind: RangeKind::Numbers { width },
            })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_group_expands_as_the_walk_expands_it() {
        let groups = [
            "{a,h}",
            "{n,a,2,3,5}",
            "{a,}",
            "{,}",
            "{,a}",
            "{}",
            "{a}",
            "{0..4}",
            "{d..e}",
            "{e..a}",
            "{a..z..3}",
            "{05..10}",
            "{-2..2}",
            "{1..3..0}",
            "{1..100000}",
            "{1..3..-1}",
            "{..}",
            "{1..}",
            "{a..b..c}",
            "{ä,ö}",
            "{~b,_%?Cd}",
            "{1,2..3}",
            "{9223372036854775807..9223372036854775806}",
            "{1..2..3..4}",
            "{A..c}",
            "{a..C}",
            "{Z..a}",
            "{[..^}",
            "{\\..\\}",
        ];
        let mut single = 0;
        for group in groups {
            for (before, after) in [
                ("", ""),
                ("*", "2"),
                ("?M", "@>90;"),
                ("é", ""),
                ("", "‿"),
                ("", "."),
                ("x", ",{"),
                ("", "}."),
            ] {
                let token = format!("{before}{group}{after}");
                let walked = walk::<Measure>(&token).and_then(|_| walk::<Vec<String>>(&token));
                if let Some(expansions) = single_group_expansions(&token) {
                    assert_eq!(Ok(expansions), walked, "{token}");
                    single += 1;
                }
            }
        }
        assert!(single > 100, "{single}");
        let many = "{1,2}".repeat(60);
        for other in [
            "a}{b",
            "{a,b}{c}",
            "{a\\,b}",
            "{{a,b}}",
            "a",
            "{a",
            many.as_str(),
        ] {
            assert_eq!(single_group_expansions(other), None, "{other}");
        }
        let long = format!("{{a,b}}{}", "x".repeat(300));
        assert_eq!(single_group_expansions(&long), None);
        assert_eq!(single_group_expansions("{1..100000}"), None);
    }

    #[test]
    fn tokens_said_to_expand_to_themselves_do() {
        let tokens = [
            "",
            "a",
            "b2-b4",
            "{",
            "}",
            "{}",
            "{a",
            "a}",
            "}{",
            "{resigns.",
            "was}",
            "{a,b}",
            "{a,b}1",
            "x{a,b}",
            "{a}{b}",
            "{a,b}}",
            "{{a,b}",
            "\\",
            "a\\,b",
            "{a\\,b}",
            "\\{a,b}",
            "{a,b\\}",
            "{1..3}",
            "a{1..3}b",
            "}a,b{",
            "{{}}",
            "}}{{",
            "{,}",
            "{x}y",
            "y{x}",
            "{a\\}",
            "\\{",
            "{2-3}*",
            "‿{ä,ö}",
            "{ä,ö",
            "ö}",
            "b4\\c5",
            "\\\\.",
            "a\\b{c",
            "b4\\{c5",
            "x\\%y}",
        ];
        for token in tokens {
            if expands_to_itself(token) {
                assert_eq!(
                    expand_token_located(token).ok(),
                    Some(vec![token.to_string()]),
                    "{token}"
                );
            }
        }
        assert!(expands_to_itself("{resigns."));
        assert!(expands_to_itself("{a,b}"));
        assert!(!expands_to_itself("{a,b}1"));
        assert!(!expands_to_itself("a\\,b"));
        // A backslash that escapes nothing is a drop below.
        assert!(expands_to_itself("b4\\c5"));
        assert!(!expands_to_itself("b4\\{c5"));
    }

    fn measured(token: &str) -> (u128, u128) {
        let measure = walk::<Measure>(token).expect("within the budgets");
        (measure.count, measure.bytes)
    }

    fn built(token: &str) -> (u128, u128) {
        let strings = walk::<Vec<String>>(token).expect("within the budgets");
        (strings.count(), strings.bytes())
    }

    #[test]
    fn the_measure_is_what_building_gives() {
        for token in [
            "S@{a..h}{1..8}",
            "x{-12..12..5}y",
            "x{-01..2}",
            "x{001..9..4}",
            "{Y..b}{,z}",
            "a{b,c{d,e},{f,g}h}x{y,z}",
            "a{b{c,d}}e",
            "x{9..-1000..7}",
            "{-9223372036854775808..-9223372036854775800}",
            "{9223372036854775800..9223372036854775807..3}",
            "x{1..10000}",
        ] {
            assert_eq!(measured(token), built(token), "{token}");
        }
    }

    #[test]
    fn short_ranges_are_measured_as_by_classes_of_length() {
        for (from, to, step) in [(0, 9, 1), (-12, 12, 5), (-1, 100, 3), (95, 105, 1)] {
            for width in [None, Some(3), Some(5)] {
                let (step, count) = stepped(from, to, step, "").expect("a range");
                let values = RangeValues {
                    from,
                    step,
                    count,
                    kind: RangeKind::Numbers { width },
                };
                let built: u128 = values.strings().iter().map(|s| s.len() as u128).sum();
                assert_eq!(values.bytes(), built, "{from}..{to} {width:?}");
                let by_length = values.bytes_by_length(width.unwrap_or(0) as u128);
                assert_eq!(by_length, built, "{from}..{to} {width:?}");
            }
        }
    }

    #[test]
    fn a_long_expansion_is_refused_before_it_is_built() {
        let token = format!("S@{{1..9999}}{}", "a".repeat(5_000));
        let error = expand_braces_located(&token).unwrap_err();
        assert_eq!(
            error.error,
            BraceError::TooLong {
                bytes: 9_999 * 5_002 + 9 + 90 * 2 + 900 * 3 + 9_000 * 4
            }
        );
        // At the groups that multiply: here the one group.
        assert_eq!(&token[error.at], "{1..9999}");
    }

    #[test]
    fn errors_point_at_their_group() {
        let token = "b2-{c,d}{1..5..0}";
        let error = expand_braces_located(token).unwrap_err();
        assert_eq!(&token[error.at], "{1..5..0}");
        let token = "x{a,b}{1..200}{1..200}";
        let error = expand_braces_located(token).unwrap_err();
        assert_eq!(error.error, BraceError::TooManyExpansions { count: 80_000 });
        assert_eq!(&token[error.at], "{a,b}{1..200}{1..200}");
    }

    #[test]
    fn deep_nesting_uses_no_call_stack_and_stops_at_the_limit() {
        // A hundred thousand levels: a recursive walk would overflow any thread's stack.
        let depth = 100_000;
        let token = format!("x{}a,b{}", "{".repeat(depth), "}".repeat(depth));
        let error = expand_braces_located(&token).unwrap_err();
        assert_eq!(error.error, BraceError::TooDeeplyNested);
        // Reported at the group that is one level too deep.
        assert_eq!(error.at.start, 1 + MAX_NESTING);
        let within = format!("{}a,b{}", "{".repeat(MAX_NESTING), "}".repeat(MAX_NESTING));
        let wrapped = "{".repeat(MAX_NESTING - 1);
        let closed = "}".repeat(MAX_NESTING - 1);
        assert_eq!(
            expand_braces(&within),
            Ok(vec![
                format!("{wrapped}a{closed}"),
                format!("{wrapped}b{closed}")
            ])
        );
    }

    #[test]
    fn many_alternatives_are_counted_as_they_come() {
        let token = format!("{{{}}}", ["{1..9999}"; 3].join(","));
        assert_eq!(
            expand_braces(&token),
            Err(BraceError::TooManyExpansions { count: 19_998 })
        );
    }
}
