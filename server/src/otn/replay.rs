//! Replaying an OTN file: the rules, the start position, the main line and every variation,
//! state by state, with a diagnostic for everything the engine disagrees with. Replay never
//! stops at an error: an illegal move that can be made on the board is made, a move that
//! cannot is skipped, and the moves after it go on.

use std::ops::Range;

use crate::model::prefetch::prefetch;

use crate::otn::board::{
    parse_position, side_name, Census, Man, Square, TaflSide, MAX_DIM, MIN_DIM,
};
use crate::otn::reader::moves::{
    capture_record, shift_range, takes_a_move, Info, MoveRecord, MoveType, MoveWord,
};
use crate::otn::reader::{AddressMove, FileKind, LinePath, OtnFile};
use crate::otn::rules::{
    apply, berserk_continuation, captures_something, check_move, king_can_escape, king_threatened,
    man_at, verdict_hinted, Outcome, Reason, Verdict, VerdictHints,
};
use crate::otn::variant::{parse_rules, ParsedRules, Rules};

mod hashing;
mod ply;
mod positions;
mod problems;
mod states;
use crate::diagnostic::{Diagnostic, Fix, Severity};
pub use hashing::position_hash;
use hashing::{board_hash, board_hash_after, position_hash_of};
pub use ply::{MoveLabel, Ply};
pub use positions::Positions;
use positions::Repetitions;
pub use problems::MoveProblem;
use problems::{Illegality, Movement};
pub use states::{Plies, CHUNK};

/// How deep variations may nest (a variation of a variation of ...): deeper ones are
/// reported and not replayed, so that nothing recurses on the input's depth.
pub const MAX_NESTING: usize = 32;

/// The census and the hash of a line's last board, kept by the move that made it for the
/// next one. A cache: lines are the same whatever it holds.
#[derive(Clone, Copy, Debug, Default)]
struct LastBoardFacts(Option<(Census, u64)>);

impl PartialEq for LastBoardFacts {
    fn eq(&self, _: &LastBoardFacts) -> bool {
        true
    }
}

impl Eq for LastBoardFacts {}

/// A line of play: the main line or a variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub path: LinePath,
    /// The line this one branches from and the index of the state it starts from there.
    pub parent: Option<(usize, usize)>,
    /// The [`crate::model::notation_document::StateRef`] index of this line's state 1 (the main
    /// line's state 0 is the start, index 0).
    pub first_ref: usize,
    /// The StateRef index of this line's state 0.
    pub start_ref: usize,
    /// State 0 is the position the line starts from; then one state per move.
    pub plies: Plies,
    /// The board of the last state.
    last_board: Vec<u8>,
    /// Its census and hash, when the last move made it (they are taken anew otherwise).
    last_facts: LastBoardFacts,
    /// Which states hold each position, for repetitions (the main line's only).
    pub positions: Positions,
    /// The turn lines of the file this line is made of.
    pub turns: Vec<usize>,
    /// Who resigned, and where.
    pub resigned: Option<(TaflSide, Range<usize>)>,
}

impl Line {
    /// The board of state `index`.
    pub fn board(&self, index: usize) -> Vec<u8> {
        if index + 1 == self.plies.len() {
            self.last_board.clone()
        } else {
            self.plies.board(index)
        }
    }

    /// Appends a state, its position's hash, its move's captures and problems, and its
    /// board.
    fn push(
        &mut self,
        (ply, hash): (Ply, u64),
        captures: impl IntoIterator<Item = (u16, Man)>,
        problems: &mut Vec<MoveProblem>,
        board: Vec<u8>,
    ) {
        self.plies.push((ply, hash), captures, problems, &board);
        self.last_board = board;
        self.last_facts = LastBoardFacts(None);
    }

    pub fn ply_captures(&self, index: usize) -> &[(u16, Man)] {
        self.plies.captures(index)
    }

    /// The full address of state `index`: the line's prefix and the move's own address.
    pub fn label(&self, index: usize) -> String {
        if index == 0 && self.path.is_main() {
            return "start".to_string();
        }
        format!(
            "{}{}",
            self.path.prefix(),
            self.plies.as_read(index).0.address.name()
        )
    }

    /// The diagnostic of `problem`, a problem of the move of state `index` read `shift`
    /// bytes from where it now lies, under `rules`.
    pub fn problem_diagnostic(
        &self,
        index: usize,
        problem: &MoveProblem,
        shift: isize,
        rules: &Rules,
    ) -> Diagnostic {
        let label = MoveLabel {
            path: &self.path,
            address: self.plies.as_read(index).0.address,
        };
        problem.diagnostic(&label, rules, shift)
    }

    /// The verdict the last ply reached, if it reached one, with its index.
    fn last_ply_verdict(&self) -> Option<(usize, Verdict)> {
        let last = self.plies.len().checked_sub(1)?;
        self.plies
            .as_read(last)
            .0
            .verdict
            .map(|verdict| (last, verdict))
    }

    /// The verdict in force at state `index`: the last one reached on the way.
    pub fn verdict_at(&self, index: usize) -> Option<(usize, Verdict)> {
        let at = self.plies.last_verdict_at(index).filter(|at| *at > 0)?;
        self.plies
            .as_read(at)
            .0
            .verdict
            .map(|verdict| (at, verdict))
    }
}

/// A whole file replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    pub rules: Option<ParsedRules>,
    /// Where the rules string is (the `rules` tag's value, or the file's body).
    pub rules_range: Option<Range<usize>>,
    pub lines: Vec<Line>,
    pub diagnostics: Vec<Diagnostic>,
    /// The variations' moves' ranges and states, sorted by position: (line, state index).
    /// The main line's states are in the order of their moves already.
    pub variation_moves: Vec<(Range<usize>, usize, usize)>,
}

impl Replay {
    pub fn cells(&self) -> usize {
        self.dim() * self.dim()
    }

    pub fn dim(&self) -> usize {
        self.rules.as_ref().map_or(0, |r| r.rules.dim)
    }

    /// The line and state index of a StateRef index.
    pub fn locate(&self, state: usize) -> Option<(usize, usize)> {
        if state == 0 {
            return (!self.lines.is_empty()).then_some((0, 0));
        }
        self.lines.iter().enumerate().find_map(|(i, line)| {
            let own = line.plies.len().saturating_sub(1);
            (state >= line.first_ref && state < line.first_ref + own)
                .then(|| (i, state - line.first_ref + 1))
        })
    }

    pub fn state_ref(&self, line: usize, index: usize) -> usize {
        let line = &self.lines[line];
        if index == 0 {
            line.start_ref
        } else {
            line.first_ref + index - 1
        }
    }

    /// The move written last at or before `offset`: its range, line and state index.
    pub fn move_starting_before(&self, offset: usize) -> Option<(Range<usize>, usize, usize)> {
        let main = self.lines.first().and_then(|line| {
            let index = line.plies.moves_starting_before(offset.saturating_add(1));
            (index > 0).then(|| (line.plies.at(index).range, 0, index))
        });
        let moves = &self.variation_moves;
        let after = moves.partition_point(|(range, _, _)| range.start <= offset);
        let variation = after.checked_sub(1).map(|i| moves[i].clone());
        match (main, variation) {
            (Some(main), Some(variation)) => Some(
                if (variation.0.start, variation.0.end) > (main.0.start, main.0.end) {
                    variation
                } else {
                    main
                },
            ),
            (main, variation) => main.or(variation),
        }
    }

    /// The move whose record holds `offset` (or ends at it).
    pub fn move_at(&self, offset: usize) -> Option<(Range<usize>, usize, usize)> {
        self.move_starting_before(offset)
            .filter(|(range, _, _)| offset <= range.end)
    }

    /// The line and state index of the move written at exactly `range`.
    pub fn move_with_range(&self, range: &Range<usize>) -> Option<(usize, usize)> {
        self.move_starting_before(range.start)
            .filter(|(found, _, _)| found == range)
            .map(|(_, line, index)| (line, index))
    }

    pub fn state_count(&self) -> usize {
        self.lines
            .iter()
            .map(|line| line.plies.len().saturating_sub(1))
            .sum::<usize>()
            + usize::from(!self.lines.is_empty())
    }
}

/// What can be kept of a previous replay of the same rules: the main line's states before
/// the first move that changed, and its states after the edit once the replay is in step
/// with it again.
pub struct Reuse<'a> {
    pub line: &'a Line,
    /// How many states (start included) to keep.
    pub keep: usize,
    /// Where the text after the edit starts (the same text as `line`'s from
    /// `tail_from - delta` on).
    pub tail_from: usize,
    /// How far the edit moved the text after it.
    pub delta: isize,
    /// The first turn of the file from which on the turns are those `line` was played
    /// from, `delta` further on.
    pub same_turns_from: usize,
}

#[cfg(test)]
thread_local! {
    /// How many moves this thread's replays have played rather than kept or copied.
    pub static MOVES_PLAYED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Whether the rest of `old` holds for `new` from state `index` on.
#[derive(Debug, PartialEq, Eq)]
enum InStep {
    /// Not at this state (it may be later).
    No,
    /// Yes (the positions the two lines went through since `from` may differ, but none
    /// of those that do comes again later).
    Yes,
    /// Never: the lines reached a position a later state of `old` reaches again by other
    /// ways, so its repetitions count otherwise.
    Never,
}

/// Whether state `index`, the last of `new`, is the same position as `old`'s, reached the
/// same way for what the rest of the line can see: board, side, berserker, address, the
/// last move's man, no verdict yet; and whether the positions the two lines went through
/// since `from` (the states before are the same) make any later position of `old` come
/// up a different number of times (for repetitions).
fn in_step(new: &Line, old: &Line, index: usize, from: usize) -> InStep {
    if index >= new.plies.len() || index >= old.plies.len() {
        return InStep::No;
    }
    let (a, b) = (new.plies.as_read(index).0, old.plies.as_read(index).0);
    let same_state = index + 1 == new.plies.len()
        && new.plies.hash(index) == old.plies.hash(index)
        && a.next_side == b.next_side
        && a.berserker == b.berserker
        && a.address == b.address
        && a.moved.map(|(man, _, _)| man.side) == b.moved.map(|(man, _, _)| man.side)
        && a.checked == b.checked
        // Where the boards stopped being checked at this state in one line and before it in
        // the other, only one has its note about it after.
        && (a.checked
            || index == 0
            || new.plies.as_read(index - 1).0.checked == old.plies.as_read(index - 1).0.checked)
        && new.last_board == old.board(index);
    // The states before `from` are the same in both; the caller knows `new` has no verdict.
    if !same_state
        || from > index
        || (from..=index).any(|i| old.plies.as_read(i).0.verdict.is_some())
    {
        return InStep::No;
    }
    let mut seen_new: Vec<u64> = new.plies.hashes(from..index + 1).collect();
    let mut seen_old: Vec<u64> = old.plies.hashes(from..index + 1).collect();
    seen_new.sort_unstable();
    seen_old.sort_unstable();
    if seen_new == seen_old {
        return InStep::Yes;
    }
    // The positions one line went through more often than the other.
    let mut different = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < seen_new.len() || j < seen_old.len() {
        match (seen_new.get(i), seen_old.get(j)) {
            (Some(x), Some(y)) if x == y => {
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x < y => {
                different.push(*x);
                i += 1;
            }
            (Some(x), None) => {
                different.push(*x);
                i += 1;
            }
            (_, Some(y)) => {
                different.push(*y);
                j += 1;
            }
            (None, None) => break,
        }
    }
    different.dedup();
    let comes_again = old
        .plies
        .hashes(index + 1..old.plies.len())
        .any(|hash| different.binary_search(&hash).is_ok());
    if comes_again {
        InStep::Never
    } else {
        InStep::Yes
    }
}

/// Replays `file`, the analysis of `text`.
pub fn replay(text: &str, file: &OtnFile, reuse: Option<Reuse<'_>>) -> Replay {
    let mut diagnostics = Vec::new();
    let (rules, rules_range) = match file.kind {
        FileKind::Empty => (None, None),
        FileKind::Rules => {
            let range = file.body.clone().unwrap_or(0..0);
            (
                Some(parse_rules(
                    &text[range.clone()],
                    range.start,
                    &mut diagnostics,
                )),
                Some(range),
            )
        }
        FileKind::Position => {
            let range = file.body.clone().unwrap_or(0..0);
            let parsed = parse_position(&text[range.clone()], range.start, &mut diagnostics);
            let dim = parsed.rows.len().clamp(MIN_DIM, MAX_DIM);
            let board = parsed.board(dim, false, &mut diagnostics);
            (
                Some(ParsedRules {
                    rules: Rules::new(dim, board),
                    entries: Vec::new(),
                    range: range.clone(),
                    start_range: Some(range.clone()),
                }),
                None,
            )
        }
        FileKind::GameRecord => match file.tag(text, "rules") {
            Some(tag) => {
                let range = tag.value.clone();
                let mut parsed = parse_rules(&text[range.clone()], range.start, &mut diagnostics);
                if let Some(position) = file.tag(text, "position") {
                    let value = position.value.clone();
                    let dim = parsed.rules.dim;
                    let start = parse_position(&text[value.clone()], value.start, &mut diagnostics)
                        .board(dim, false, &mut diagnostics);
                    parsed.rules.start = start;
                }
                (Some(parsed), Some(range))
            }
            None => {
                let at = if file.turns.is_empty() {
                    0..0
                } else {
                    file.turns.address_range(0)
                };
                let at = if at.is_empty() {
                    file.tags.first().map_or(0..0, |t| t.name.clone())
                } else {
                    at
                };
                diagnostics.push(Diagnostic::error(
                    at,
                    "missing-rules",
                    "a game record needs a `[rules:...]` tag (e.g. `[rules:dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]`) to replay its moves",
                ));
                (None, None)
            }
        },
    };
    let mut replay = Replay {
        rules,
        rules_range,
        lines: Vec::new(),
        diagnostics,
        variation_moves: Vec::new(),
    };
    let Some(parsed) = replay.rules.take() else {
        return replay;
    };
    let rules = &parsed.rules;
    let mut lines = Vec::new();
    let mut diagnostics = std::mem::take(&mut replay.diagnostics);
    let mut player = Player {
        text,
        file,
        rules,
        diagnostics: &mut diagnostics,
        ply_diagnostics: Vec::new(),
        spare_board: Vec::new(),
        verdict_hints: VerdictHints::default(),
    };
    // The main line.
    let main_turns: Vec<usize> = (0..file.turns.len())
        .filter(|i| file.turns.outline(*i).main_line)
        .collect();
    let start_side = if rules.attackers_first {
        TaflSide::Attackers
    } else {
        TaflSide::Defenders
    };
    let main = player.play_line(
        LinePath::default(),
        None,
        StartFrom {
            board: rules.start.cells.clone(),
            side: start_side,
            address: AddressMove { turn: 1, letter: 0 },
            first_address: Some(AddressMove { turn: 1, letter: 0 }),
            start_moved: None,
            history: Vec::new(),
            berserker: None,
            unmade_before: None,
            start_ref: 0,
            first_ref: 1,
        },
        main_turns,
        reuse,
    );
    let mut next_ref = 1 + main.plies.len() - 1;
    lines.push(main);
    // Variations, each once the line it branches from is there.
    let mut groups: Vec<(LinePath, Vec<usize>)> = Vec::new();
    for i in 0..file.turns.len() {
        if file.turns.outline(i).main_line {
            continue;
        }
        let (turn, _) = file.turns.as_read(i);
        match groups
            .iter_mut()
            .find(|(path, _)| *path == turn.address.line)
        {
            Some((_, turns)) => turns.push(i),
            None => groups.push((turn.address.line.clone(), vec![i])),
        }
    }
    let (deep, mut pending): (Vec<_>, Vec<_>) = groups
        .into_iter()
        .partition(|(path, _)| path.0.len() > MAX_NESTING);
    for (path, turns) in deep {
        player.diagnostics.push(Diagnostic::error(
            file.turns.address_range(turns[0]),
            "variation-too-deep",
            format!(
                "{}: variations nest at most {MAX_NESTING} deep; this one is not replayed",
                path.prefix()
            ),
        ));
    }
    loop {
        let mut progressed = false;
        let mut still = Vec::new();
        for (path, turns) in pending {
            let Some((parent_path, root)) = path.parent() else {
                continue;
            };
            let Some(parent) = lines.iter().position(|l: &Line| l.path == parent_path) else {
                still.push((path, turns));
                continue;
            };
            progressed = true;
            let parent_line = &lines[parent];
            let root_index = (1..parent_line.plies.len())
                .find(|i| parent_line.plies.as_read(*i).0.address == root);
            let Some(root_index) = root_index else {
                player.diagnostics.push(Diagnostic::error(
                    file.turns.address_range(turns[0]),
                    "unknown-variation-root",
                    format!(
                        "{}: the {} has no move {}{}",
                        path.prefix(),
                        if parent_path.is_main() {
                            "main line".to_string()
                        } else {
                            format!("variation {}", parent_path.prefix())
                        },
                        parent_path.prefix(),
                        root.name()
                    ),
                ));
                continue;
            };
            // As OpenTafl reads them: a variation off a main-line move replaces that move;
            // a variation off a variation's move follows it (and replaces the next one).
            let nested = !parent_path.is_main();
            let before = if nested { root_index } else { root_index - 1 };
            // A variation's turns count from 1, its first move keeping its root's letter.
            let address = AddressMove {
                turn: 1,
                letter: root.letter,
            };
            let start = StartFrom {
                board: parent_line.board(before),
                side: parent_line.plies.as_read(before).0.next_side,
                address,
                first_address: (!nested).then_some(address),
                start_moved: if nested {
                    parent_line.plies.as_read(root_index).0.moved
                } else {
                    None
                },
                history: history(&lines, parent, before),
                berserker: parent_line.plies.as_read(before).0.berserker,
                unmade_before: unmade_move(&lines, parent, before),
                start_ref: if before == 0 {
                    parent_line.start_ref
                } else {
                    parent_line.first_ref + before - 1
                },
                first_ref: next_ref,
            };
            let line = player.play_line(path, Some((parent, before)), start, turns, None);
            next_ref += line.plies.len() - 1;
            lines.push(line);
        }
        pending = still;
        if pending.is_empty() || !progressed {
            break;
        }
    }
    for (path, turns) in pending {
        player.diagnostics.push(Diagnostic::error(
            file.turns.address_range(turns[0]),
            "unknown-variation-root",
            format!(
                "{}: no line of play {} exists to branch from",
                path.prefix(),
                path.parent().map_or(String::new(), |(p, _)| p.prefix())
            ),
        ));
    }
    player.check_tags(&lines);
    let mut variation_moves: Vec<(Range<usize>, usize, usize)> = lines
        .iter()
        .enumerate()
        .skip(1)
        .flat_map(|(l, line)| {
            line.plies
                .iter()
                .enumerate()
                .skip(1)
                .map(move |(i, ply)| (ply.range, l, i))
        })
        .collect();
    variation_moves.sort_by_key(|(range, _, _)| (range.start, range.end));
    replay.rules = Some(parsed.clone());
    replay.lines = lines;
    replay.diagnostics = diagnostics;
    replay.variation_moves = variation_moves;
    replay
}

/// Starts `line` with `old`'s first `keep` states.
fn keep_states(line: &mut Line, old: &Line, keep: usize) {
    line.plies = old.plies.truncated(keep);
    line.last_board = old.board(keep - 1);
    line.last_facts = LastBoardFacts(None);
}

/// Appends `old`'s states after `line`'s last one (in step with `old`'s), written `delta`
/// bytes further on.
fn copy_rest(line: &mut Line, old: &Line, delta: isize) {
    if line.plies.len() < old.plies.len() {
        line.plies.extend_from(&old.plies, delta);
        line.last_board.clone_from(&old.last_board);
        line.last_facts = LastBoardFacts(None);
    }
}

/// The position hashes of a line's states up to `index`, its ancestors' included.
fn history(lines: &[Line], line: usize, index: usize) -> Vec<u64> {
    // From the line up to the main line, then the hashes from the main line down.
    let mut chain = vec![(line, index)];
    while let Some(&(at, _)) = chain.last() {
        match lines[at].parent {
            Some(parent) => chain.push(parent),
            None => break,
        }
    }
    let mut hashes = Vec::new();
    for &(at, upto) in chain.iter().rev() {
        let this = &lines[at];
        let skip = usize::from(this.parent.is_some());
        hashes.extend(this.plies.hashes(skip..upto + 1));
    }
    hashes
}

/// The move that could not be made that leaves state `index` of line `line` unchecked,
/// in that line or a line it branches from: its range and address.
fn unmade_move(lines: &[Line], line: usize, index: usize) -> Option<(Range<usize>, String)> {
    let (mut line, mut index) = (line, index);
    loop {
        let plies = &lines[line].plies;
        if plies.as_read(index).0.checked {
            return None;
        }
        while index > 0 && !plies.as_read(index - 1).0.checked {
            index -= 1;
        }
        if index > 0 {
            return Some((plies.at(index).range, lines[line].label(index)));
        }
        (line, index) = lines[line].parent?;
    }
}

struct StartFrom {
    board: Vec<u8>,
    side: TaflSide,
    /// The address of state 0.
    address: AddressMove,
    /// The address of the first move, when it is not the one after state 0's.
    first_address: Option<AddressMove>,
    /// The move state 0 stands for (the root move a nested variation follows).
    start_moved: Option<(Man, u16, u16)>,
    /// Hashes of the positions before the start (for repetitions).
    history: Vec<u64>,
    berserker: Option<u16>,
    /// The move that could not be made that leaves state 0's board unchecked (a
    /// variation's, branching after it): its range and address.
    unmade_before: Option<(Range<usize>, String)>,
    start_ref: usize,
    first_ref: usize,
}

struct Player<'a> {
    text: &'a str,
    file: &'a OtnFile,
    rules: &'a Rules,
    diagnostics: &'a mut Vec<Diagnostic>,
    /// What the move being played has wrong with it.
    ply_diagnostics: Vec<MoveProblem>,
    /// The board before the last move played, kept to be the next move's board after:
    /// a board allocated and freed for every move showed in long replays.
    spare_board: Vec<u8>,
    /// Where the last verdict found men that could move, to look first.
    verdict_hints: VerdictHints,
}

/// What a move of the record is to the replay: a move record, or a word in a move's place
/// that does not read as one (skipped, its side's turn passing).
#[derive(Clone, Copy)]
enum Played<'a> {
    Record(&'a MoveRecord),
    Unreadable(&'a Range<usize>),
}

impl Played<'_> {
    fn range(&self) -> &Range<usize> {
        match self {
            Played::Record(record) => &record.range,
            Played::Unreadable(range) => range,
        }
    }
}

/// One move of the record as a line's replay plays it.
struct MoveToPlay<'r> {
    played: Played<'r>,
    /// How far the record now sits from where it was read: the ranges of its state and
    /// diagnostics are moved by that much (copying a moved record for every move replayed
    /// cost more).
    shift: isize,
    /// The commentary part that goes with it.
    comment: Option<Range<usize>>,
    /// Its turn's place among the line's turns.
    turn_position: usize,
    /// Whether it is the first move written in its turn (placeholders count as moves).
    first_of_turn: bool,
}

/// A move made on the board, or not.
#[derive(Default)]
struct MadeMove {
    /// The man moved, from and to; `None` when the move could not be made.
    moved: Option<(Man, u16, u16)>,
    outcome: Outcome,
    /// Whether the record's move was made (the turn passes otherwise).
    playable: bool,
    /// Whether the rules allow it.
    legal: bool,
}

/// Why `man` may not move `from` → `to` on `board` with `side` to move (and, after a
/// berserk capture, `berserker` the man that must move again); `None` when it may.
#[inline(always)]
pub fn illegality(
    rules: &Rules,
    board: &[u8],
    (from, to): (usize, usize),
    man: Man,
    side: TaflSide,
    berserker: Option<u16>,
) -> Option<Illegality> {
    if man.side != side {
        return Some(Illegality::NotToMove(side));
    }
    if let Some(b) = berserker.filter(|&b| usize::from(b) != from) {
        return Some(Illegality::MustMoveAgain {
            man: man_at(board, usize::from(b)),
            at: b,
        });
    }
    if let Err(why) = check_move(rules, board, from, to) {
        return Some(Illegality::Rule(why));
    }
    if berserker.is_some()
        && rules.berserk == crate::otn::variant::Berserk::Capture
        && !captures_something(rules, board, from, to)
    {
        return Some(Illegality::OnlyToCapture);
    }
    None
}

/// What the third repetition of a position means under `rules` for the side that made it.
fn repetition_verdict(rules: &Rules, mover: TaflSide) -> Option<Verdict> {
    use crate::otn::variant::Threefold;
    match rules.threefold {
        Threefold::Ignore => None,
        Threefold::Draw => Some(Verdict::Draw(Reason::Repetition)),
        Threefold::MoverLoses => Some(Verdict::Win(
            crate::otn::board::other_side(mover),
            Reason::Repetition,
        )),
        Threefold::MoverWins => Some(Verdict::Win(mover, Reason::Repetition)),
    }
}

/// A turn of a line, as its replay plays it.
#[derive(Clone, Copy)]
struct TurnToPlay {
    /// The turn's index in the file.
    index: usize,
    /// Its place among the line's turns.
    position: usize,
    /// Whether it is the line's last turn.
    last: bool,
}

/// A line holding its starting state alone, and that state's position hash.
fn start_line(path: LinePath, parent: Option<(usize, usize)>, start: &StartFrom) -> (Line, u64) {
    let mut line = Line {
        path,
        parent,
        first_ref: start.first_ref,
        start_ref: start.start_ref,
        plies: Plies::default(),
        last_board: Vec::new(),
        last_facts: LastBoardFacts(None),
        positions: Positions::default(),
        turns: Vec::new(),
        resigned: None,
    };
    let start_hash = position_hash(&start.board, start.side, start.berserker);
    line.push(
        (
            Ply {
                address: start.address,
                range: 0..0,
                comment: None,
                moved: start.start_moved,
                captures: 0..0,
                next_side: start.side,
                berserker: start.berserker,
                verdict: None,
                checked: start.unmade_before.is_none(),
            },
            start_hash,
        ),
        [],
        &mut Vec::new(),
        start.board.clone(),
    );
    (line, start_hash)
}

/// Past the edit, where the turns are the previous replay's: whether the move at
/// `record_range` is the previous replay's next one, from the same state, so that the
/// rest of the line is the previous replay's.
#[inline(always)]
fn steps_into(
    line: &Line,
    progress: &mut LineProgress,
    reuse: &Reuse<'_>,
    record_range: &Range<usize>,
) -> bool {
    let index = line.plies.len() - 1;
    if progress.ended.is_some() || index + 1 >= reuse.line.plies.len() || !progress.may_step_in {
        return false;
    }
    // Read in place: a copy of every state compared showed.
    let (next, shift) = reuse.line.plies.as_read(index + 1);
    if shift_range(&next.range, shift + reuse.delta) != *record_range {
        return false;
    }
    match in_step(line, reuse.line, index, reuse.keep.min(index)) {
        InStep::No => false,
        InStep::Never => {
            progress.may_step_in = false;
            false
        }
        InStep::Yes => true,
    }
}

/// Where the replay of a line stands between its moves.
struct LineProgress {
    /// How many moves of the line the previous replay's states are kept for.
    reused: usize,
    /// The moves of the line so far, kept, copied or played.
    move_count: usize,
    /// The number of the turn before.
    previous_turn: Option<u32>,
    /// The game ends at the first verdict (its state and what it is); the moves after it
    /// are replayed all the same.
    ended: Option<(usize, Verdict)>,
    warned_after_end: bool,
    /// Once the rest of the line is the previous replay's, its moves are only counted.
    copied_rest: bool,
    /// Whether the rest of the line may still turn out to be the previous replay's.
    may_step_in: bool,
    /// Where the states played end, once the rest is the previous replay's.
    played_until: Option<usize>,
}

impl Player<'_> {
    /// Replays one line of play (the main line or a variation) from `start` through
    /// `turns`, keeping what `reuse` holds of the previous replay of this line.
    fn play_line(
        &mut self,
        path: LinePath,
        parent: Option<(usize, usize)>,
        start: StartFrom,
        turns: Vec<usize>,
        reuse: Option<Reuse<'_>>,
    ) -> Line {
        let (mut line, start_hash) = start_line(path.clone(), parent, &start);
        let mut reused = 0;
        if let Some(reuse) = &reuse {
            let keep = reuse.keep.min(reuse.line.plies.len());
            if keep > 1 {
                keep_states(&mut line, reuse.line, keep);
                reused = keep - 1;
            }
        }
        // The states this replay plays, from the first not kept (the start, if none is).
        let first_played = if reused > 0 { line.plies.len() } else { 0 };
        let mut repetitions = match &reuse {
            Some(reuse) => Repetitions::keeping(&reuse.line.positions, first_played),
            None if path.is_main() => Repetitions::after(std::iter::empty()),
            None => Repetitions::after(
                (start.history.iter())
                    .chain(std::iter::once(&start_hash))
                    .copied(),
            ),
        };
        if first_played == 0 && path.is_main() {
            repetitions.reach(start_hash, 0, &line.plies);
        }
        repetitions.expected = (turns.iter())
            .map(|&turn| self.file.turns.outline(turn).moves)
            .sum::<usize>()
            .saturating_sub(reused);
        let ended = (line.plies.first_verdict_before(line.plies.len())).and_then(|at| {
            line.plies
                .as_read(at)
                .0
                .verdict
                .map(|verdict| (at, verdict))
        });
        let mut progress = LineProgress {
            reused,
            move_count: 0,
            previous_turn: None,
            ended,
            warned_after_end: ended.is_some_and(|(at, _)| at + 1 < line.plies.len()),
            copied_rest: false,
            may_step_in: true,
            played_until: None,
        };
        for (turn_position, &turn_index) in turns.iter().enumerate() {
            let outline = self.file.turns.outline(turn_index);
            let plays = !progress.copied_rest && progress.move_count + outline.moves > reused;
            let numbered_in_order =
                progress
                    .previous_turn
                    .map_or(outline.number == 1, |previous| {
                        outline.number > previous
                            && u64::from(outline.number) <= u64::from(previous) + 1
                    });
            if !plays && outline.only_moves && numbered_in_order && turn_position > 0 {
                // Kept or copied, and nothing to say about it.
                progress.previous_turn = Some(outline.number);
                progress.move_count += outline.moves;
                continue;
            }
            self.prefetch_turns_after(&turns, turn_position);
            let turn = TurnToPlay {
                index: turn_index,
                position: turn_position,
                last: turn_position + 1 == turns.len(),
            };
            self.play_turn(
                &mut line,
                &mut progress,
                &mut repetitions,
                turn,
                &start,
                reuse.as_ref(),
            );
        }
        line.turns = turns;
        if path.is_main() {
            let played = first_played..progress.played_until.unwrap_or(line.plies.len());
            line.positions = repetitions.into_positions(
                reuse.as_ref().map(|reuse| &reuse.line.positions),
                &line.plies,
                played,
            );
        }
        line
    }

    /// Plays the moves of one turn of `line`, and says what is wrong with its number, its
    /// placeholders and its resignations.
    #[inline(always)]
    fn play_turn(
        &mut self,
        line: &mut Line,
        progress: &mut LineProgress,
        repetitions: &mut Repetitions,
        to_play: TurnToPlay,
        start: &StartFrom,
        reuse: Option<&Reuse<'_>>,
    ) {
        // A turn is read where it was first read, `shift` bytes off, rather than copied
        // moved along: only the moves played are moved, one at a time.
        let (turn, shift) = self.file.turns.as_read(to_play.index);
        let shifted = |range: &Range<usize>| shift_range(range, shift);
        self.check_turn_number(
            &line.path,
            progress.previous_turn,
            turn.address.turn,
            shifted(&turn.address.range),
        );
        progress.previous_turn = Some(turn.address.turn);
        let comments: &[Range<usize>] =
            turn.commentary.as_ref().map_or(&[], |c| c.parts.as_slice());
        let mut real_moves = 0usize;
        let mut placeholders = 0usize;
        for (word_position, word) in turn.moves.iter().enumerate() {
            match word {
                MoveWord::Placeholder(range) => {
                    let misplaced = if line.path.is_main() {
                        Some("`.....` stands for a parent line's move, at the start of a variation: the main line has none")
                    } else if to_play.position != 0 || real_moves > 0 {
                        Some("`.....` only stands at the start of a variation's first turn, for the moves it shares with its parent line")
                    } else {
                        None
                    };
                    match misplaced {
                        Some(why) => self.diagnostics.push(Diagnostic::error(
                            shifted(range),
                            "misplaced-placeholder",
                            why,
                        )),
                        None => placeholders += 1,
                    }
                }
                MoveWord::Bad { .. } if !takes_a_move(word_position, word) => {}
                MoveWord::Resign(range) => {
                    let more_after = word_position + 1 < turn.moves.len() || !to_play.last;
                    self.resign(line, progress.move_count, start, shifted(range), more_after);
                }
                MoveWord::Move(_) | MoveWord::Bad { .. } => {
                    let played = match word {
                        MoveWord::Move(record) => Played::Record(record),
                        _ => Played::Unreadable(word.range_ref()),
                    };
                    real_moves += 1;
                    if progress.move_count < progress.reused || progress.copied_rest {
                        progress.move_count += 1;
                        continue;
                    }
                    let record_range = shifted(played.range());
                    if let Some(reuse) = reuse {
                        let from_here = to_play.index >= reuse.same_turns_from
                            && shifted(&turn.range).start >= reuse.tail_from;
                        if from_here && steps_into(line, progress, reuse, &record_range) {
                            // The rest of the line is the previous replay's.
                            progress.played_until = Some(line.plies.len());
                            copy_rest(line, reuse.line, reuse.delta);
                            progress.copied_rest = true;
                            progress.move_count += 1;
                            continue;
                        }
                    }
                    self.warn_once_after_end(line, progress, &record_range);
                    let comment = (comments.get(real_moves - 1))
                        .map(shifted)
                        .filter(|c| !c.is_empty());
                    let to_play = MoveToPlay {
                        played,
                        shift,
                        comment,
                        turn_position: to_play.position,
                        first_of_turn: real_moves == 1 && placeholders == 0,
                    };
                    self.play_move(line, repetitions, to_play, start);
                    if progress.ended.is_none() {
                        progress.ended = line.last_ply_verdict();
                    }
                    progress.move_count += 1;
                }
            }
        }
        if to_play.position == 0 && !line.path.is_main() && real_moves + placeholders > 0 {
            self.check_placeholders(line, placeholders, shifted(&turn.address.range));
        }
    }

    /// Turn numbers: one after the other, the first one 1.
    fn check_turn_number(
        &mut self,
        path: &LinePath,
        previous: Option<u32>,
        written: u32,
        range: Range<usize>,
    ) {
        let Some(previous) = previous else {
            if written != 1 {
                self.diagnostics.push(Diagnostic::error(
                    range,
                    "missing-turn",
                    format!("the first turn of {} is numbered 1", line_name(path)),
                ));
            }
            return;
        };
        if u64::from(written) > u64::from(previous) + 1 {
            let missing = if u64::from(written) == u64::from(previous) + 2 {
                format!("turn {} is missing", u64::from(previous) + 1)
            } else {
                format!(
                    "turns {} to {} are missing",
                    u64::from(previous) + 1,
                    written - 1
                )
            };
            self.diagnostics.push(Diagnostic::error(
                range,
                "missing-turn",
                format!(
                    "{missing} before {}{written}; OpenTafl drops every turn after a gap, ppn-ls replays them in order",
                    path.prefix()
                ),
            ));
        } else if written <= previous {
            self.diagnostics.push(Diagnostic::error(
                range,
                "repeated-turn",
                format!(
                    "turn {}{written} comes after turn {previous}; its moves are replayed in the order written",
                    path.prefix()
                ),
            ));
        }
    }

    /// A resignation: the side to move at the state the moves so far reached resigns
    /// (the first resignation of the line counts), and a record that goes on after it says so.
    fn resign(
        &mut self,
        line: &mut Line,
        move_count: usize,
        start: &StartFrom,
        range: Range<usize>,
        more_after: bool,
    ) {
        let last = (line.plies.get(move_count))
            .or_else(|| line.plies.last())
            .map_or(start.side, |p| p.next_side);
        if line.resigned.is_none() {
            line.resigned = Some((last, range.clone()));
        }
        if more_after {
            self.diagnostics.push(Diagnostic::warning(
                range,
                "move-after-end",
                format!(
                    "the {} resign here, yet the record goes on",
                    side_name(last)
                ),
            ));
        }
    }

    /// Past the game's end, the first move played says so (once).
    fn warn_once_after_end(
        &mut self,
        line: &Line,
        progress: &mut LineProgress,
        range: &Range<usize>,
    ) {
        let Some((at, verdict)) = progress.ended else {
            return;
        };
        if !progress.warned_after_end {
            progress.warned_after_end = true;
            self.ply_diagnostics.push(MoveProblem::said(
                Diagnostic::warning(
                    range.clone(),
                    "move-after-end",
                    format!(
                        "the game ended after {} ({}); the moves after it are replayed all the same",
                        line.label(at),
                        verdict.describe()
                    ),
                )
                .with_related(line.plies.at(at).range, "the game ends here"),
            ));
        }
    }

    /// A variation's first turn holds one `.....` for each move of the turn it shares with
    /// its parent line.
    fn check_placeholders(&mut self, line: &Line, placeholders: usize, range: Range<usize>) {
        let expected = (line.plies.get(1))
            .filter(|p| p.address.turn == 1)
            .map_or(placeholders, |p| usize::from(p.address.letter));
        if placeholders != expected {
            self.diagnostics.push(Diagnostic::warning(
                range,
                "variation-placeholders",
                format!(
                    "this variation's first move is the {} move of its turn: write {} `.....` before it",
                    ordinal(expected + 1),
                    expected
                ),
            ));
        }
    }

    /// Asks for the memory of the turns after `turns[position]` ahead of their replay: the
    /// record of the one after next, and the moves and commentary of the next one.
    fn prefetch_turns_after(&self, turns: &[usize], position: usize) {
        if let Some(&after_next) = turns.get(position + 2) {
            prefetch(self.file.turns.as_read(after_next).0);
        }
        if let Some(&next) = turns.get(position + 1) {
            let (next, _) = self.file.turns.as_read(next);
            for word in next.moves.iter().take(2) {
                prefetch(word);
            }
            if let Some(part) = next.commentary.as_ref().and_then(|c| c.parts.first()) {
                prefetch(part);
            }
        }
    }

    /// Plays one move of the record at the end of `line`: its address, the checks of its
    /// turn's length, the move made (or refused) on the board, its verdict and repetitions,
    /// and what is wrong with it, pushed with the state after it.
    fn play_move(
        &mut self,
        line: &mut Line,
        repetitions: &mut Repetitions,
        to_play: MoveToPlay<'_>,
        start: &StartFrom,
    ) {
        #[cfg(test)]
        MOVES_PLAYED.with(|played| played.set(played.get() + 1));
        let (played, shift) = (to_play.played, to_play.shift);
        let record = match played {
            Played::Record(record) => Some(record),
            Played::Unreadable(_) => None,
        };
        let own_diagnostics = self.ply_diagnostics.len();
        let previous = line.plies.len() - 1;
        // The last board becomes this move's board before; the board after it, the last.
        let before = std::mem::take(&mut line.last_board);
        let (census_before, board_hash_before) = line
            .last_facts
            .0
            .take()
            .unwrap_or_else(|| (Census::of(&before), board_hash(&before)));
        let (previous_ply, _) = line.plies.as_read(previous);
        let side = previous_ply.next_side;
        let berserker = previous_ply.berserker;
        // After a move that could not be made, the boards are not the record's: what would
        // be found wrong with the moves would only echo it.
        let checking = previous_ply.checked;
        let address = self.next_address(line, start, previous_ply);
        let label = MoveLabel {
            path: &line.path,
            address,
        };
        if previous > 0 {
            self.check_turn_length(&to_play, address, &label);
        }
        let mut after = std::mem::take(&mut self.spare_board);
        after.clone_from(&before);
        // An unreadable move is skipped: its side's turn passes.
        let made = match record {
            Some(record) => self.make_move(record, (&before, &mut after), side, berserker, &label),
            None => MadeMove::default(),
        };
        let rules = self.rules;
        let next_berserker = made.moved.filter(|_| made.playable).and_then(|(_, _, to)| {
            berserk_continuation(rules, &after, usize::from(to), &made.outcome).map(|b| b as u16)
        });
        // A move made by a man of the side not to move still takes its side's place: the
        // other side moves next, as the record has it.
        let next_side = match (next_berserker, made.moved) {
            (Some(_), Some((man, _, _))) => man.side,
            _ => crate::otn::board::other_side(side),
        };
        let had_king = census_before.king.is_some();
        let census = match made.moved {
            Some((man, _, _)) => census_before.after_move(&after, man, &made.outcome.captures),
            None => census_before,
        };
        let mut verdict = if made.playable && checking {
            verdict_hinted(
                rules,
                &after,
                (census, had_king),
                side,
                next_berserker.is_some(),
                &mut self.verdict_hints,
            )
        } else {
            None
        };
        let board_hash = match made.moved {
            Some((_, from, to)) => board_hash_after(
                board_hash_before,
                (&before, &after),
                [usize::from(from), usize::from(to)]
                    .into_iter()
                    .chain(made.outcome.captures.iter().map(|(square, _)| *square)),
            ),
            None => board_hash_before,
        };
        let hash = position_hash_of(board_hash, next_side, next_berserker);
        let seen = repetitions.reach(hash, line.plies.len(), &line.plies);
        if checking && made.playable && verdict.is_none() && seen >= 3 && next_berserker.is_none() {
            verdict = repetition_verdict(rules, side);
        }
        // The info symbol against the board.
        if let Some((info, range)) = record.and_then(|record| record.info.as_ref()) {
            if made.playable {
                self.check_info(*info, range.clone(), &after, verdict, side, next_side);
            }
        }
        if shift != 0 {
            for problem in &mut self.ply_diagnostics[own_diagnostics..] {
                problem.shift(shift);
            }
        }
        let range = shift_range(played.range(), shift);
        if !checking {
            self.ply_diagnostics.truncate(own_diagnostics);
            self.say_moves_not_checked(line, start, &range);
        }
        line.push(
            (
                Ply {
                    address,
                    range,
                    comment: to_play.comment,
                    moved: made.moved,
                    captures: 0..0,
                    next_side,
                    berserker: next_berserker,
                    verdict,
                    checked: checking && made.playable,
                },
                hash,
            ),
            (made.outcome.captures.iter()).map(|(index, man)| (*index as u16, *man)),
            &mut self.ply_diagnostics,
            after,
        );
        line.last_facts = LastBoardFacts(Some((census, board_hash)));
        self.spare_board = before;
    }

    /// The address of the next move of `line`, whose last state is `previous_ply`: a new
    /// turn when the side that starts turns moves after the other side has.
    #[inline(always)]
    fn next_address(&self, line: &Line, start: &StartFrom, previous_ply: &Ply) -> AddressMove {
        let previous = line.plies.len() - 1;
        if let Some(first) = start.first_address.filter(|_| previous == 0) {
            return first;
        }
        // The side whose move the last one was (made by a man of the other side, it was
        // still theirs).
        let last_mover = match previous.checked_sub(1) {
            Some(before_previous) => Some(line.plies.as_read(before_previous).0.next_side),
            None => previous_ply.moved.map(|(m, _, _)| m.side),
        };
        let start_side = if self.rules.attackers_first {
            TaflSide::Attackers
        } else {
            TaflSide::Defenders
        };
        let address = previous_ply.address;
        let new_turn = previous_ply.next_side == start_side
            && previous_ply.berserker.is_none()
            && last_mover != Some(start_side);
        if new_turn {
            AddressMove {
                turn: address.turn.saturating_add(1),
                letter: 0,
            }
        } else {
            AddressMove {
                turn: address.turn,
                letter: address.letter.saturating_add(1),
            }
        }
    }

    /// A move written first in its turn that the moves played make another turn's second,
    /// or the other way round.
    fn check_turn_length(
        &mut self,
        to_play: &MoveToPlay<'_>,
        address: AddressMove,
        label: &MoveLabel<'_>,
    ) {
        let range = to_play.played.range();
        if to_play.first_of_turn && address.letter != 0 && to_play.turn_position > 0 {
            self.ply_diagnostics.push(MoveProblem::said(Diagnostic::warning(
                range.clone(),
                "turn-length",
                format!(
                    "by the moves played this is move {label}: the turn before lacks a move (a turn holds one move per side)"
                ),
            )));
        } else if !to_play.first_of_turn && address.letter == 0 {
            self.ply_diagnostics.push(MoveProblem::said(Diagnostic::warning(
                range.clone(),
                "turn-length",
                format!("this move starts turn {label}: a turn holds one move per side, unless a capture lets a berserk man move again"),
            )));
        }
    }

    /// `record` made on `boards.1` (a copy of the board before, `boards.0`), with what is
    /// wrong with it: squares off the board, no man to move, the wrong man named, an
    /// illegal move (made all the same when it can be), the move type and the captures
    /// written against the engine's.
    #[inline(always)]
    fn make_move(
        &mut self,
        record: &MoveRecord,
        (before, after): (&[u8], &mut [u8]),
        side: TaflSide,
        berserker: Option<u16>,
        label: &MoveLabel<'_>,
    ) -> MadeMove {
        let mut made = MadeMove {
            playable: self.on_board(record),
            ..MadeMove::default()
        };
        let dim = self.rules.dim;
        if made.playable {
            let (from, to) = (record.from.0.index(dim), record.to.0.index(dim));
            match man_at(before, from) {
                None => {
                    self.ply_diagnostics.push(MoveProblem::NoMan {
                        range: record.from.1.clone(),
                        movement: Movement::of(record),
                    });
                    made.playable = false;
                }
                Some(man) => {
                    self.check_mover(record, man);
                    let illegality =
                        illegality(self.rules, before, (from, to), man, side, berserker);
                    // A move that breaks the rules is made all the same when the board
                    // allows it, so that the record goes on as written.
                    let physical = before[to] == 0 && from != to;
                    match illegality {
                        Some(why) => self.ply_diagnostics.push(MoveProblem::Illegal {
                            range: record.from.1.start..record.to.1.end,
                            movement: Movement::of(record),
                            why,
                            made: physical,
                        }),
                        None => made.legal = true,
                    }
                    if physical {
                        made.outcome = apply(self.rules, after, from, to);
                        made.moved = Some((man, from as u16, to as u16));
                    } else {
                        made.playable = false;
                    }
                }
            }
        }
        if made.moved.is_some() && made.legal {
            let actual = MoveType::of(made.outcome.jump, berserker.is_some());
            self.check_move_type(record, actual);
        }
        // Captures as written against the engine's.
        if made.playable {
            self.check_captures(record, &made.outcome, label);
        } else if !record.captures.is_empty() {
            self.ply_diagnostics
                .push(MoveProblem::said(Diagnostic::warning(
                    record.captures_range.clone(),
                    "capture-not-made",
                    format!("{label} could not be made, so it captures nothing"),
                )));
        }
        made
    }

    /// Whether both squares of `record` are on the board (saying so for each that is not).
    #[inline(always)]
    fn on_board(&mut self, record: &MoveRecord) -> bool {
        let dim = self.rules.dim;
        let mut on_board = true;
        for (square, range) in [&record.from, &record.to] {
            if !square.on_board(dim) {
                self.ply_diagnostics
                    .push(MoveProblem::said(Diagnostic::error(
                        range.clone(),
                        "square-off-board",
                        format!("{} is off the {dim}×{dim} board", square.name()),
                    )));
                on_board = false;
            }
        }
        on_board
    }

    /// The man written before the move (`K` of `Ke1-a1`) against the man on its square.
    fn check_mover(&mut self, record: &MoveRecord, man: Man) {
        let Some((written, range)) = &record.mover else {
            return;
        };
        if *written != man {
            self.ply_diagnostics.push(MoveProblem::said(
                Diagnostic::error(
                    range.clone(),
                    "mover-mismatch",
                    format!(
                        "`{}` says {} moves, but {} holds {}",
                        written.letter(),
                        written.describe(),
                        record.from.0.name(),
                        man.describe()
                    ),
                )
                .with_fix(Fix {
                    title: format!("Write `{}`", man_letter(man)),
                    edits: vec![(range.clone(), man_letter(man))],
                }),
            ));
        }
    }

    /// The move type written (`-`, `^`, `=`) against the one played.
    fn check_move_type(&mut self, record: &MoveRecord, actual: MoveType) {
        let written = record.kind.0;
        if written == actual {
            return;
        }
        self.ply_diagnostics.push(MoveProblem::said(
            Diagnostic::warning(
                record.kind.1.clone(),
                "move-type-mismatch",
                format!(
                    "`{}` marks {}, but this is {}",
                    written.symbol(),
                    move_type_words(written),
                    move_type_words(actual)
                ),
            )
            .with_fix(Fix {
                title: format!("Write `{}`", actual.symbol()),
                edits: vec![(record.kind.1.clone(), actual.symbol().to_string())],
            }),
        ));
    }

    /// At the first move of a line whose boards are no longer the record's (a move before
    /// it could not be made), says once that the moves from there on are not checked.
    fn say_moves_not_checked(&mut self, line: &Line, start: &StartFrom, range: &Range<usize>) {
        let previous = line.plies.len() - 1;
        let unmade = if previous == 0 {
            start.unmade_before.as_ref().map(|(_, label)| label.clone())
        } else if line.plies.as_read(previous - 1).0.checked {
            Some(line.label(previous))
        } else {
            None
        };
        if let Some(unmade) = unmade {
            self.ply_diagnostics.push(MoveProblem::said(Diagnostic::new(
                range.clone(),
                Severity::Information,
                "moves-not-checked",
                format!(
                    "the moves of {} from here on are not checked: {unmade} could not be made, so the boards after it are not the record's",
                    line_name(&line.path)
                ),
            )));
        }
    }

    fn check_captures(&mut self, record: &MoveRecord, outcome: &Outcome, label: &MoveLabel<'_>) {
        let dim = self.rules.dim;
        let computed: Vec<(Square, Man)> = outcome
            .captures
            .iter()
            .map(|(index, man)| (Square::of_index(*index, dim), *man))
            .collect();
        let count = record.captures.len();
        for (position, written) in record.captures.iter().enumerate() {
            match computed
                .iter()
                .find(|(square, _)| *square == written.square)
            {
                None => {
                    // The fix takes the square out of the record, with its separator.
                    let removed = if count == 1 {
                        record.captures_range.clone()
                    } else if position + 1 < count {
                        written.range.start..record.captures[position + 1].range.start
                    } else {
                        record.captures[position - 1].range.end..written.range.end
                    };
                    self.ply_diagnostics.push(MoveProblem::said(
                        Diagnostic::error(
                            written.range.clone(),
                            "capture-not-made",
                            format!(
                                "{label} {} does not capture on {}",
                                record.movement(),
                                written.square.name()
                            ),
                        )
                        .with_fix(Fix {
                            title: format!("Remove the capture on {}", written.square.name()),
                            edits: vec![(removed, String::new())],
                        }),
                    ))
                }
                Some((_, man)) => {
                    if let Some(letter) = written.man {
                        if letter != *man {
                            let letter_range = written.range.start..written.range.start + 1;
                            self.ply_diagnostics.push(MoveProblem::said(
                                Diagnostic::warning(
                                    written.range.clone(),
                                    "capture-mismatch",
                                    format!(
                                        "`{}` says {} is captured on {}, but it is {}",
                                        letter.letter(),
                                        letter.describe(),
                                        written.square.name(),
                                        man.describe()
                                    ),
                                )
                                .with_fix(Fix {
                                    title: format!("Write `{}`", man_letter(*man)),
                                    edits: vec![(letter_range, man_letter(*man))],
                                }),
                            ));
                        }
                    }
                }
            }
        }
        let missing: Vec<(Square, Man)> = computed
            .iter()
            .filter(|(square, _)| !record.captures.iter().any(|c| c.square == *square))
            .copied()
            .collect();
        // A record whose end does not read may have meant them: its end is reported.
        if missing.is_empty() || record.unread.is_some() {
            return;
        }
        let names: Vec<String> = missing
            .iter()
            .map(|(square, man)| format!("{} on {}", man.describe(), square.name()))
            .collect();
        // The fix appends the missing squares to the capture record, or writes one.
        let insert_at = record.captures_range.end;
        let addition = if record.captures.is_empty() {
            capture_record(&missing)
        } else {
            capture_record(&missing).replacen('x', "/", 1)
        };
        self.ply_diagnostics.push(MoveProblem::said(
            Diagnostic::warning(
                record.range.clone(),
                "missing-capture",
                format!(
                    "{label} {} captures {} (not written)",
                    record.movement(),
                    names.join(" and ")
                ),
            )
            .with_fix(Fix {
                title: format!("Write the capture: {addition}"),
                edits: vec![(insert_at..insert_at, addition)],
            }),
        ));
    }

    fn check_info(
        &mut self,
        info: Info,
        range: Range<usize>,
        after: &[u8],
        verdict: Option<Verdict>,
        mover: TaflSide,
        next_side: TaflSide,
    ) {
        let rules = self.rules;
        let holds = match info {
            Info::KingCaptured => matches!(verdict, Some(Verdict::Win(_, Reason::KingCaptured))),
            Info::KingEscaped => matches!(
                verdict,
                Some(Verdict::Win(
                    TaflSide::Defenders,
                    Reason::KingEscaped | Reason::EdgeFort
                ))
            ),
            Info::Threat => {
                king_threatened(rules, after, next_side)
                    || (mover == TaflSide::Defenders && king_can_escape(rules, after))
            }
            Info::EscapeRoute => king_can_escape(rules, after),
        };
        if !holds {
            self.ply_diagnostics.push(MoveProblem::said(
                Diagnostic::warning(
                    range.clone(),
                    "info-mismatch",
                    format!(
                        "`{}` says {}, but the board disagrees",
                        info.symbol(),
                        info.meaning()
                    ),
                )
                .with_fix(Fix {
                    title: format!("Remove `{}`", info.symbol()),
                    edits: vec![(range, String::new())],
                }),
            ));
        }
    }

    fn check_tags(&mut self, lines: &[Line]) {
        let text = self.text;
        let Some(main) = lines.first() else {
            return;
        };
        if let Some(tag) = self.file.tag(text, "result") {
            let value = text[tag.value.clone()].trim();
            let last = main.plies.len() - 1;
            let verdict = main
                .verdict_at(last)
                .map(|(i, v)| (main.label(i), v))
                .or_else(|| {
                    main.resigned.as_ref().map(|(side, _)| {
                        (
                            "the resignation".to_string(),
                            Verdict::Win(crate::otn::board::other_side(*side), Reason::Resigned),
                        )
                    })
                });
            match value {
                "1" | "-1" | "0" | "?" => {
                    if let Some((at, verdict)) = verdict {
                        if value != "?" && value != verdict.result_tag() {
                            self.diagnostics.push(Diagnostic::warning(
                                tag.value.clone(),
                                "result-mismatch",
                                format!(
                                    "the result says {} ({}), but at {at} the {}",
                                    value,
                                    result_words(value),
                                    verdict.describe()
                                ),
                            ));
                        }
                    }
                }
                _ => self.diagnostics.push(Diagnostic::warning(
                    tag.value.clone(),
                    "invalid-tag-value",
                    "a result is 1 (attackers win), -1 (defenders win), 0 (draw) or ? (other)",
                )),
            }
        }
        for name in ["puzzle-start", "puzzle-prestart"] {
            let Some(tag) = self.file.tag(text, name) else {
                continue;
            };
            let value = text[tag.value.clone()].trim().trim_end_matches('.');
            if value == "0a" || value == "0" {
                continue;
            }
            let known = lines
                .iter()
                .any(|line| (1..line.plies.len()).any(|i| line.label(i) == value));
            if !known {
                self.diagnostics.push(Diagnostic::warning(
                    tag.value.clone(),
                    "unknown-address",
                    format!("{name}: no move has the address `{value}` (`0a` is the start)"),
                ));
            }
        }
        if let Some(tag) = self.file.tag(text, "puzzle-mode") {
            let value = text[tag.value.clone()].trim();
            if !matches!(value, "none" | "loose" | "strict") {
                self.diagnostics.push(Diagnostic::warning(
                    tag.value.clone(),
                    "invalid-tag-value",
                    "a puzzle mode is none, loose or strict",
                ));
            }
        }
    }
}

/// The letter a record writes for a moving or captured man: none for a plain taflman.
fn man_letter(man: Man) -> String {
    if man.kind == crate::otn::board::TaflMan::Taflman {
        String::new()
    } else {
        man.letter().to_string()
    }
}

fn result_words(value: &str) -> &'static str {
    match value {
        "1" => "attackers win",
        "-1" => "defenders win",
        "0" => "draw",
        _ => "other",
    }
}

fn move_type_words(kind: MoveType) -> &'static str {
    match kind {
        MoveType::Move => "a plain move",
        MoveType::Jump => "a jump",
        MoveType::Berserk => "a berserk move",
        MoveType::BerserkJump => "a berserk jump",
    }
}

fn line_name(path: &LinePath) -> String {
    if path.is_main() {
        "the main line".to_string()
    } else {
        format!("variation {}", path.prefix())
    }
}

fn ordinal(n: usize) -> String {
    match n {
        1 => "first".to_string(),
        2 => "second".to_string(),
        3 => "third".to_string(),
        _ => format!("{n}th"),
    }
}

#[cfg(test)]
pub(crate) mod tests;
