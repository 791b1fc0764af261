//! The layout of an OTN file: a game record (`[tag:value]` lines, the `[rules:...]` tag,
//! numbered turns, variations and commentary), a bare rules string, or a bare position
//! record. Every part keeps its byte range; text that fits nowhere becomes a diagnostic and
//! reading goes on at the next line.
//!
//! Commentary is read as written in practice (`[first|second]`, possibly over several
//! lines, after a turn) and as the specification writes it (an unbracketed line after a
//! turn, its parts separated by `|`).

pub mod moves;

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::model::edit::trimmed;
use crate::model::prefetch::prefetch_counts;
use crate::otn::reader::moves::{parse_move_word, read_move_word, shift_range, MoveWord};

/// What an OTN file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    GameRecord,
    /// A rules string alone (`dim:... start:...`).
    Rules,
    /// A position record alone (`/3t3/.../`).
    Position,
    Empty,
}

/// `[name:value]`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    pub range: Range<usize>,
    pub name: Range<usize>,
    pub value: Range<usize>,
}

/// One element of a move address: a move (`12b`: turn 12, letter b) or a variation number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AddressMove {
    pub turn: u32,
    /// 0 for `a`.
    pub letter: u8,
}

impl AddressMove {
    pub fn name(self) -> String {
        format!("{}{}", self.turn, char::from(b'a' + self.letter.min(25)))
    }
}

/// Which line of play a turn belongs to: the main line (empty path), or a variation, named
/// by the moves it branches from and the variation numbers (`7a.1.` → `[(7a, 1)]`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LinePath(pub Vec<(AddressMove, u32)>);

impl LinePath {
    pub fn is_main(&self) -> bool {
        self.0.is_empty()
    }

    /// `7a.1.`, empty for the main line.
    pub fn prefix(&self) -> String {
        self.0
            .iter()
            .map(|(m, v)| format!("{}.{}.", m.name(), v))
            .collect()
    }

    /// The line this one branches from, and the move of it it replaces.
    pub fn parent(&self) -> Option<(LinePath, AddressMove)> {
        let (last, _) = *self.0.last()?;
        Some((LinePath(self.0[..self.0.len() - 1].to_vec()), last))
    }
}

/// A turn's number as written: `12.` in the main line, `7a.1.2a.` in a variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnAddress {
    pub line: LinePath,
    pub turn: u32,
    /// The letter written on the turn's own number (`a` unless a variation writes `1b`).
    pub letter: Option<u8>,
    pub range: Range<usize>,
}

/// A numbered turn: its number and its move records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// From the number to the last move.
    pub range: Range<usize>,
    pub address: TurnAddress,
    pub moves: Vec<MoveWord>,
    /// The commentary written after the turn, if any.
    pub commentary: Option<Commentary>,
}

/// Commentary after a turn: one part per move, separated by `|`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Commentary {
    pub range: Range<usize>,
    /// The text of each part (without brackets, bars or the whitespace around it: a blank
    /// part is empty).
    pub parts: Vec<Range<usize>>,
    pub bracketed: bool,
}

impl TurnAddress {
    fn shifted(&self, delta: isize) -> TurnAddress {
        TurnAddress {
            line: self.line.clone(),
            turn: self.turn,
            letter: self.letter,
            range: shift_range(&self.range, delta),
        }
    }
}

impl Commentary {
    fn shifted(&self, delta: isize) -> Commentary {
        Commentary {
            range: shift_range(&self.range, delta),
            parts: self
                .parts
                .iter()
                .map(|part| shift_range(part, delta))
                .collect(),
            bracketed: self.bracketed,
        }
    }
}

impl Turn {
    /// The same turn written `delta` bytes further on.
    pub fn shifted(&self, delta: isize) -> Turn {
        Turn {
            range: shift_range(&self.range, delta),
            address: self.address.shifted(delta),
            moves: self.moves.iter().map(|word| word.shifted(delta)).collect(),
            commentary: self.commentary.as_ref().map(|c| c.shifted(delta)),
        }
    }

    /// Where the turn ends with its commentary.
    pub fn end(&self) -> usize {
        self.commentary
            .as_ref()
            .map_or(self.range.end, |c| c.range.end.max(self.range.end))
    }
}

/// The turns of a record in the order written. A revision shares the turns an edit left
/// as they were with the revision before it: each turn is kept as first read, with how
/// far the edits since have moved it, so that an edit costs no copy of the turns.
#[derive(Clone, Debug, Default)]
pub struct Turns {
    slots: Vec<Slot>,
}

#[derive(Clone, Debug)]
struct Slot {
    shift: isize,
    turn: Arc<Turn>,
    outline: TurnOutline,
}

impl Slot {
    fn new(turn: Turn) -> Slot {
        Slot {
            shift: 0,
            outline: TurnOutline::of(&turn),
            turn: Arc::new(turn),
        }
    }

    fn start(&self) -> usize {
        self.turn.range.start.saturating_add_signed(self.shift)
    }
}

/// What a replay needs of a turn whose moves it does not play, kept next to the turn so
/// that passing over the turns costs no visit to each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnOutline {
    /// The turn's number as written.
    pub number: u32,
    /// How many move records it holds.
    pub moves: usize,
    pub main_line: bool,
    /// Whether it holds nothing but move records and words that are not moves: no
    /// resignation or placeholder, which have more to say than their count.
    pub only_moves: bool,
}

impl TurnOutline {
    fn of(turn: &Turn) -> TurnOutline {
        TurnOutline {
            number: turn.address.turn,
            moves: turn
                .moves
                .iter()
                .enumerate()
                .filter(|(position, word)| crate::otn::reader::moves::takes_a_move(*position, word))
                .count(),
            main_line: turn.address.line.is_main(),
            only_moves: turn
                .moves
                .iter()
                .all(|word| matches!(word, MoveWord::Move(_) | MoveWord::Bad { .. })),
        }
    }
}

impl Turns {
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Turn `index`, with its ranges where they are now.
    pub fn get(&self, index: usize) -> Option<Cow<'_, Turn>> {
        let slot = self.slots.get(index)?;
        Some(if slot.shift == 0 {
            Cow::Borrowed(&*slot.turn)
        } else {
            Cow::Owned(slot.turn.shifted(slot.shift))
        })
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = Cow<'_, Turn>> + '_ {
        self.iter_from(0)
    }

    /// The turns from `index` on.
    pub fn iter_from(&self, index: usize) -> impl DoubleEndedIterator<Item = Cow<'_, Turn>> + '_ {
        (index.min(self.len())..self.len()).filter_map(|index| self.get(index))
    }

    /// Turn `index` as first read, and how far it has moved since: reading it this way
    /// costs no copy.
    pub fn as_read(&self, index: usize) -> (&Turn, isize) {
        let slot = &self.slots[index];
        (&slot.turn, slot.shift)
    }

    /// The range of turn `index` (number to last move).
    pub fn range(&self, index: usize) -> Range<usize> {
        let (turn, shift) = self.as_read(index);
        shift_range(&turn.range, shift)
    }

    pub fn address_range(&self, index: usize) -> Range<usize> {
        let (turn, shift) = self.as_read(index);
        shift_range(&turn.address.range, shift)
    }

    pub fn commentary_range(&self, index: usize) -> Option<Range<usize>> {
        let (turn, shift) = self.as_read(index);
        turn.commentary
            .as_ref()
            .map(|c| shift_range(&c.range, shift))
    }

    /// The index of the first turn that ends (with its commentary) at or after `offset`.
    pub fn first_ending_from(&self, offset: usize) -> usize {
        self.slots
            .partition_point(|slot| slot.turn.end().saturating_add_signed(slot.shift) < offset)
    }

    /// How many turns start before `offset`.
    pub fn count_starting_before(&self, offset: usize) -> usize {
        self.slots.partition_point(|slot| slot.start() < offset)
    }

    /// The index of the turn that starts at `offset`, if one does.
    pub fn starting_at(&self, offset: usize) -> Option<usize> {
        let index = self.count_starting_before(offset);
        (index < self.len() && self.range(index).start == offset).then_some(index)
    }

    /// Whether turn `index` is `other`'s turn `other_index`, shared rather than read again.
    pub fn shares(&self, index: usize, other: &Turns, other_index: usize) -> bool {
        Arc::ptr_eq(&self.slots[index].turn, &other.slots[other_index].turn)
    }

    /// What a replay needs of turn `index` when it does not play its moves.
    pub fn outline(&self, index: usize) -> TurnOutline {
        self.slots[index].outline
    }

    pub fn push(&mut self, turn: Turn) {
        self.slots.push(Slot::new(turn));
    }

    /// Appends `other`'s turns `range`, moved `delta` bytes further on, sharing them.
    pub fn extend_shared(&mut self, other: &Turns, range: Range<usize>, delta: isize) {
        // Sharing a turn counts it in its allocation: the turns a few places on are asked
        // for ahead, as their counts are far apart in memory (see `prefetch`).
        const AHEAD: usize = 8;
        let slots = &other.slots[range];
        self.slots.reserve(slots.len());
        for (index, slot) in slots.iter().enumerate() {
            if let Some(ahead) = slots.get(index + AHEAD) {
                prefetch_counts(&ahead.turn);
            }
            self.slots.push(Slot {
                shift: slot.shift + delta,
                ..slot.clone()
            });
        }
    }

    pub fn append(&mut self, other: Turns) {
        self.slots.extend(other.slots);
    }
}

impl From<Vec<Turn>> for Turns {
    fn from(turns: Vec<Turn>) -> Turns {
        Turns {
            slots: turns.into_iter().map(Slot::new).collect(),
        }
    }
}

impl PartialEq for Turns {
    fn eq(&self, other: &Turns) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Turns {}

/// An OTN file as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtnFile {
    pub kind: FileKind,
    pub tags: Vec<Tag>,
    pub turns: Turns,
    /// The rules string of a rules file, or the position record of a position file.
    pub body: Option<Range<usize>>,
    pub diagnostics: Vec<Diagnostic>,
}

impl OtnFile {
    pub fn tag(&self, text: &str, name: &str) -> Option<&Tag> {
        self.tags
            .iter()
            .rev()
            .find(|tag| &text[tag.name.clone()] == name)
    }
}

/// Reads a whole OTN file.
pub fn parse_file(text: &str) -> OtnFile {
    let first = text
        .char_indices()
        .find(|(_, c)| !c.is_whitespace() && *c != '\u{feff}');
    let kind = match first {
        None => FileKind::Empty,
        Some((_, '/')) => FileKind::Position,
        Some((i, _)) if text[i..].starts_with("dim:") || looks_like_rules(&text[i..]) => {
            FileKind::Rules
        }
        Some(_) => FileKind::GameRecord,
    };
    match kind {
        FileKind::Empty => OtnFile {
            kind,
            tags: Vec::new(),
            turns: Turns::default(),
            body: None,
            diagnostics: Vec::new(),
        },
        FileKind::Rules | FileKind::Position => {
            let start = first.map_or(0, |(i, _)| i);
            let end = text.trim_end().len().max(start);
            OtnFile {
                kind,
                tags: Vec::new(),
                turns: Turns::default(),
                body: Some(start..end),
                diagnostics: Vec::new(),
            }
        }
        FileKind::GameRecord => parse_record_from(text, 0, ParseState::default()),
    }
}

fn looks_like_rules(text: &str) -> bool {
    let word = text.split_ascii_whitespace().next().unwrap_or("");
    word.split_once(':').is_some_and(|(key, _)| {
        crate::otn::variant::key_info(key).is_some() && !word.starts_with('[')
    })
}

/// What reading a game record knows at an item boundary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParseState {
    /// Whether a turn has been read (brackets after one are commentary, not tags).
    pub in_moves: bool,
}

/// Reads a game record from byte `start` of `text` (an item boundary), in `state`.
pub fn parse_record_from(text: &str, start: usize, state: ParseState) -> OtnFile {
    parse_record_until(text, start, state, |_| false).0
}

/// Reads a game record from byte `start` of `text` (an item boundary), in `state`, up to
/// the first turn at an offset `stop_at` accepts, and where that turn is. What follows a
/// turn's start never changes what was read before it, so the caller may take the turns
/// from there on from an earlier reading of the same text.
pub fn parse_record_until(
    text: &str,
    start: usize,
    mut state: ParseState,
    mut stop_at: impl FnMut(usize) -> bool,
) -> (OtnFile, Option<usize>) {
    let bytes = text.as_bytes();
    let mut file = OtnFile {
        kind: FileKind::GameRecord,
        tags: Vec::new(),
        turns: Turns::default(),
        body: None,
        diagnostics: Vec::new(),
    };
    let mut turns: Vec<Turn> = Vec::new();
    let mut stopped = None;
    let mut i = start;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() || text[i..].starts_with('\u{feff}') {
            i += if b.is_ascii() { 1 } else { 3 };
            continue;
        }
        if b.is_ascii_digit() && state.in_moves && stop_at(i) {
            stopped = Some(i);
            break;
        }
        if b == b'[' {
            let close = find_close(text, i);
            let end = close.map_or(text.len(), |c| c + 1);
            if close.is_none() {
                file.diagnostics.push(Diagnostic::error(
                    i..i + 1,
                    "unclosed-bracket",
                    if state.in_moves {
                        "this commentary has no closing `]`"
                    } else {
                        "this tag has no closing `]`"
                    },
                ));
            }
            let inner = i + 1..close.unwrap_or(text.len());
            if state.in_moves {
                let commentary = Commentary {
                    range: i..end,
                    parts: split_parts(text, inner),
                    bracketed: true,
                };
                attach_commentary(&mut turns, &mut file.diagnostics, commentary, i..end);
            } else {
                read_tag(text, i..end, inner, &mut file);
            }
            i = end;
            continue;
        }
        let line_stop = line_end(text, i);
        if b.is_ascii_digit() || (state.in_moves && is_mistyped_turn(text, i..line_stop)) {
            state.in_moves = true;
            let turn = read_turn(text, i, line_stop, &mut file.diagnostics);
            i = turn.range.end.max(i + 1);
            turns.push(turn);
            // Commentary may follow on the same line.
            while i < line_stop && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            if i < line_stop && bytes[i] == b'[' {
                continue;
            }
            i = line_stop;
            continue;
        }
        // A line that is neither a tag nor a turn: the specification's unbracketed
        // commentary after a turn, else stray text.
        let content_end = i + text[i..line_stop].trim_end().len();
        if state.in_moves && !turns.is_empty() {
            let range = i..content_end;
            if turns.last().is_none_or(|t| t.commentary.is_none())
                && is_all_moves(text, range.clone())
            {
                file.diagnostics.push(Diagnostic::warning(
                    range.clone(),
                    "moves-without-turn-number",
                    "this line reads as commentary, but it holds move records: number the turn \
                     (e.g. `12.`) if these are moves",
                ));
            }
            let commentary = Commentary {
                range: range.clone(),
                parts: split_parts(text, range.clone()),
                bracketed: false,
            };
            attach_commentary(&mut turns, &mut file.diagnostics, commentary, range);
        } else {
            file.diagnostics.push(Diagnostic::error(
                i..content_end,
                "unexpected-text",
                "expected a tag (`[name:value]`) or a numbered turn (`1. e5-e8 d3-d1`)",
            ));
        }
        i = line_stop;
    }
    file.turns = Turns::from(turns);
    (file, stopped)
}

/// Whether the line at `line` is a turn whose number has something typed before it
/// (`x12. e5-e8 d3-d1`): read as commentary, the turn's moves would go unplayed and every
/// later move would fail.
fn is_mistyped_turn(text: &str, line: Range<usize>) -> bool {
    let stop = text[line.clone()]
        .find('[')
        .map_or(line.end, |n| line.start + n);
    let Some((start, number)) = words(text, line.start..stop).next() else {
        return false;
    };
    let moves_start = start + number.len();
    number.ends_with('.')
        && typed_before_number(number.trim_end_matches('.')).is_some()
        && moves_start < stop
        && is_all_moves(text, moves_start..stop)
}

fn is_all_moves(text: &str, range: Range<usize>) -> bool {
    let mut any = false;
    for (start, word) in words(text, range) {
        any = true;
        if !matches!(
            parse_move_word(word, start),
            MoveWord::Move(_) | MoveWord::Resign(_)
        ) {
            return false;
        }
    }
    any
}

fn attach_commentary(
    turns: &mut [Turn],
    diagnostics: &mut Vec<Diagnostic>,
    commentary: Commentary,
    range: Range<usize>,
) {
    match turns.last_mut() {
        Some(turn) if turn.commentary.is_none() => turn.commentary = Some(commentary),
        Some(_) => diagnostics.push(Diagnostic::warning(
            range,
            "extra-commentary",
            "this turn already has its commentary; OpenTafl shows only the first",
        )),
        None => diagnostics.push(Diagnostic::error(
            range,
            "unexpected-text",
            "commentary before the first turn",
        )),
    }
}

/// The end of the line holding `i` (the offset of its line break, or the end of the text).
pub fn line_end(text: &str, i: usize) -> usize {
    text[i.min(text.len())..]
        .find(['\n', '\r'])
        .map_or(text.len(), |n| i + n)
}

/// The `]` closing the bracket at `open`; commentary and tag values may span lines but
/// never hold a `[` or `]`.
fn find_close(text: &str, open: usize) -> Option<usize> {
    text[open + 1..]
        .find([']', '['])
        .filter(|n| text.as_bytes()[open + 1 + n] == b']')
        .map(|n| open + 1 + n)
}

fn split_parts(text: &str, inner: Range<usize>) -> Vec<Range<usize>> {
    let mut parts = Vec::new();
    let mut start = inner.start;
    for (i, b) in text[inner.clone()].bytes().enumerate() {
        if b == b'|' {
            parts.push(trimmed(text, start..inner.start + i));
            start = inner.start + i + 1;
        }
    }
    parts.push(trimmed(text, start..inner.end));
    parts
}

fn read_tag(text: &str, range: Range<usize>, inner: Range<usize>, file: &mut OtnFile) {
    let content = &text[inner.clone()];
    match content.find(':') {
        Some(colon) => {
            let name = inner.start..inner.start + colon;
            let name_text = &text[name.clone()];
            if name_text.is_empty()
                || !name_text
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            {
                file.diagnostics.push(Diagnostic::error(
                    name.start..name.end.max(name.start + 1),
                    "tag-syntax",
                    "a tag name is a word such as `event` or `rules`, followed by `:`",
                ));
            }
            file.tags.push(Tag {
                range,
                name,
                value: inner.start + colon + 1..inner.end,
            });
        }
        None => file.diagnostics.push(Diagnostic::error(
            range,
            "tag-syntax",
            "a tag reads `[name:value]`",
        )),
    }
}

fn words(text: &str, range: Range<usize>) -> impl Iterator<Item = (usize, &str)> {
    let slice = &text[range.clone()];
    slice
        .split([' ', '\t'])
        .scan(range.start, |offset, word| {
            let start = *offset;
            *offset += word.len() + 1;
            Some((start, word))
        })
        .filter(|(_, word)| !word.is_empty())
}

fn read_turn(
    text: &str,
    start: usize,
    line_stop: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> Turn {
    // The moves stop at the end of the line or where commentary opens.
    let stop = text[start..line_stop]
        .find('[')
        .map_or(line_stop, |n| start + n);
    let number_end = text[start..stop]
        .find([' ', '\t'])
        .map_or(stop, |n| start + n);
    let address_range = start..number_end;
    let address = parse_address(&text[address_range.clone()], start, diagnostics);
    let mut moves = Vec::new();
    let mut end = number_end;
    for (offset, word) in words(text, number_end..stop) {
        let word_end = offset + word.len();
        moves.push(read_move_word(word, offset, diagnostics));
        end = word_end;
    }
    Turn {
        range: start..end,
        address,
        moves,
        commentary: None,
    }
}

/// The number of a turn number with something other than a digit typed before it (`x12`).
fn typed_before_number(part: &str) -> Option<u32> {
    let digits = part.trim_start_matches(|c: char| !c.is_ascii_digit());
    (digits.len() < part.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

/// Reads a turn number or variation address (`12.`, `7a.1.2a.`, `3b.3.1a`).
pub fn parse_address(word: &str, offset: usize, diagnostics: &mut Vec<Diagnostic>) -> TurnAddress {
    let range = offset..offset + word.len();
    let bad = |diagnostics: &mut Vec<Diagnostic>, message: &str| {
        diagnostics.push(Diagnostic::error(
            range.clone(),
            "turn-number-syntax",
            message.to_string(),
        ));
    };
    let body = word.strip_suffix('.').unwrap_or(word);
    let mut elements = Vec::new();
    for part in body.split('.') {
        // A letter typed before a turn's number (`x12.`): the turn keeps its number and its
        // moves are played, rather than the turn falling out of its line and every later
        // move failing.
        if let Some(number) = typed_before_number(part).filter(|_| elements.is_empty()) {
            bad(
                diagnostics,
                &format!("`{word}` is not a turn number: write `12.` or a variation address such as `7a.1.2a.`"),
            );
            elements.push((number, None));
            continue;
        }
        let digits = part.bytes().take_while(u8::is_ascii_digit).count();
        let number: Option<u32> = part[..digits].parse().ok();
        let letter = match &part[digits..] {
            "" => None,
            l if l.len() == 1 && l.as_bytes()[0].is_ascii_lowercase() => {
                Some(l.as_bytes()[0] - b'a')
            }
            _ => {
                bad(
                    diagnostics,
                    &format!("`{word}` is not a turn number: write `12.` or a variation address such as `7a.1.2a.`"),
                );
                return TurnAddress {
                    line: LinePath::default(),
                    turn: number.unwrap_or(0),
                    letter: None,
                    range,
                };
            }
        };
        match number {
            Some(number) => elements.push((number, letter)),
            None => {
                bad(
                    diagnostics,
                    &format!("`{word}` is not a turn number: write `12.` or a variation address such as `7a.1.2a.`"),
                );
                return TurnAddress {
                    line: LinePath::default(),
                    turn: 0,
                    letter: None,
                    range,
                };
            }
        }
    }
    if !word.ends_with('.') && elements.len() == 1 {
        diagnostics.push(Diagnostic::warning(
            range.clone(),
            "turn-number-syntax",
            format!("a turn number ends with a period: `{word}.`"),
        ));
    }
    // Elements alternate: move, variation, move, variation, ..., move.
    let mut path = Vec::new();
    let mut k = 0;
    while k + 2 < elements.len() {
        let (turn, letter) = elements[k];
        let (variation, variation_letter) = elements[k + 1];
        if letter.is_none() || variation_letter.is_some() {
            bad(
                diagnostics,
                &format!(
                    "`{word}` is not a variation address: it reads move, variation, move (`7a.1.2a.`), \
                     each move a turn number and a letter"
                ),
            );
            break;
        }
        path.push((
            AddressMove {
                turn,
                letter: letter.unwrap_or(0),
            },
            variation,
        ));
        k += 2;
    }
    if elements.len() % 2 == 0 {
        bad(
            diagnostics,
            &format!(
                "`{word}` ends with a variation number: a variation's turns read like `7a.1.1a.`"
            ),
        );
    }
    let (turn, letter) = elements.last().copied().unwrap_or((0, None));
    if path.is_empty() && letter.is_some() && elements.len() == 1 {
        diagnostics.push(Diagnostic::warning(
            range.clone(),
            "turn-number-syntax",
            format!("turns of the main line are numbered without a letter: `{turn}.`"),
        ));
    }
    if !path.is_empty() && letter.is_none() {
        bad(
            diagnostics,
            &format!(
                "the turns of a variation carry a letter: `{}{turn}a.`",
                LinePath(path.clone()).prefix()
            ),
        );
    }
    TurnAddress {
        line: LinePath(path),
        turn,
        letter,
        range,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECORD: &str = "[date:2016.09.25]\n[rules:dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n1. d2-e2 d3-d2 \n[ |\t]\n\n7a.1.1a. a3-c3 b4-b3xc3 \n[ first\n\nsecond\n|]\n";

    #[test]
    fn tags_turns_and_commentary_with_ranges() {
        let file = parse_file(RECORD);
        assert_eq!(file.kind, FileKind::GameRecord);
        assert!(file.diagnostics.is_empty(), "{:?}", file.diagnostics);
        assert_eq!(file.tags.len(), 2);
        assert_eq!(&RECORD[file.tags[0].name.clone()], "date");
        assert_eq!(&RECORD[file.tags[0].value.clone()], "2016.09.25");
        let rules = file.tag(RECORD, "rules").unwrap();
        assert!(RECORD[rules.value.clone()].starts_with("dim:7"));
        assert_eq!(file.turns.len(), 2);
        let first = &file.turns.get(0).unwrap();
        assert_eq!(first.address.turn, 1);
        assert!(first.address.line.is_main());
        assert_eq!(first.moves.len(), 2);
        assert_eq!(&RECORD[first.range.clone()], "1. d2-e2 d3-d2");
        let commentary = first.commentary.as_ref().unwrap();
        assert_eq!(commentary.parts.len(), 2);
        assert!(
            commentary.parts.iter().all(Range::is_empty),
            "blank parts are empty"
        );
        let variation = &file.turns.get(1).unwrap();
        assert_eq!(variation.address.line.prefix(), "7a.1.");
        assert_eq!(variation.address.turn, 1);
        let text = &RECORD[variation.commentary.as_ref().unwrap().parts[0].clone()];
        assert_eq!(text, "first\n\nsecond");
    }

    #[test]
    fn the_specification_s_commentary_and_placeholders() {
        let text = "[rules:dim:7 start:/7/7/7/7/7/7/7/]\n3. h2-a2 b1-b2\nfirst move|second move\n3b.3.1a ..... a4-a3xa2\n";
        let file = parse_file(text);
        let first = file.turns.get(0).unwrap();
        let comment = first.commentary.as_ref().unwrap();
        assert!(!comment.bracketed);
        assert_eq!(&text[comment.parts[1].clone()], "second move");
        let variation = &file.turns.get(1).unwrap();
        assert_eq!(variation.address.line.0[0].0.name(), "3b");
        assert_eq!(variation.address.line.0[0].1, 3);
        assert!(matches!(variation.moves[0], MoveWord::Placeholder(_)));
        assert!(file.diagnostics.is_empty(), "{:?}", file.diagnostics);
    }

    #[test]
    fn nested_variation_addresses() {
        let mut diagnostics = Vec::new();
        let address = parse_address("3a.2.1a.1.4a.", 0, &mut diagnostics);
        assert!(diagnostics.is_empty());
        assert_eq!(address.line.prefix(), "3a.2.1a.1.");
        assert_eq!(address.turn, 4);
        let (parent, root) = address.line.parent().unwrap();
        assert_eq!(parent.prefix(), "3a.2.");
        assert_eq!(root.name(), "1a");
    }

    #[test]
    fn stray_text_and_unclosed_brackets_are_reported() {
        let text = "hello there\n[rules:dim:7\n";
        let file = parse_file(text);
        let codes: Vec<_> = file
            .diagnostics
            .iter()
            .map(|d| (d.code, d.range.clone()))
            .collect();
        assert!(codes.contains(&("unexpected-text", 0..11)), "{codes:?}");
        assert!(codes.contains(&("unclosed-bracket", 12..13)), "{codes:?}");
    }

    #[test]
    fn unnumbered_moves_after_a_turn_are_flagged() {
        let text = "[rules:dim:7 start:/7/7/7/7/7/7/7/]\n1. a1-a2 b1-b2\n[x]\nc1-c2 d1-d2\n";
        let file = parse_file(text);
        assert!(file
            .diagnostics
            .iter()
            .any(|d| d.code == "extra-commentary"));
        let text = "[rules:dim:7 start:/7/7/7/7/7/7/7/]\n1. a1-a2 b1-b2\nc1-c2 d1-d2\n";
        let file = parse_file(text);
        assert!(
            file.diagnostics
                .iter()
                .any(|d| d.code == "moves-without-turn-number"),
            "{:?}",
            file.diagnostics
        );
    }

    #[test]
    fn rules_and_position_files() {
        assert_eq!(
            parse_file("dim:7 start:/7/7/7/7/7/7/7/\n").kind,
            FileKind::Rules
        );
        assert_eq!(parse_file("  /3t3/3t3/\n").kind, FileKind::Position);
        assert_eq!(parse_file("\n\n").kind, FileKind::Empty);
        assert_eq!(parse_file("atkf:n dim:7").kind, FileKind::Rules);
    }
}
