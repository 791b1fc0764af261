//! Replaying an OTN file: the rules, the start position, the main line and every variation,
//! state by state, with a diagnostic for everything the engine disagrees with. Replay never
//! stops at an error: an illegal move that can be made on the board is made, a move that
//! cannot is skipped, and the moves after it go on.

use std::ops::Range;

use crate::otn::board::{parse_position, Census, Man, TaflSide, MAX_DIM, MIN_DIM};
use crate::otn::reader::moves::{shift_range, MoveRecord};
use crate::otn::reader::{AddressMove, FileKind, LinePath, OtnFile};
use crate::otn::rules::{
    captures_something, check_move, man_at, Outcome, Reason, Verdict, VerdictHints,
};
use crate::otn::variant::{parse_rules, ParsedRules, Rules};

mod hashing;
mod ply;
mod positions;
mod problems;
mod states;
// The methods of `Player`, in three files by what they play or check. Only method calls
// reach them, so this file imports nothing from them and they import from it.
mod checks;
mod moving;
mod turns;
use crate::diagnostic::Diagnostic;
pub use hashing::position_hash;
pub use ply::{MoveLabel, Ply};
pub use positions::Positions;
use problems::Illegality;
pub use problems::MoveProblem;
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

#[cfg(test)]
pub(crate) mod tests;
