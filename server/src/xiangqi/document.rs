//! A xiangqi-setup file analysed: read in its format, its position checked, its WXF moves
//! played, and the answers of the notation contract ([`NotationDocument`]).

use std::fmt::Write as _;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use crate::diagnostic::{Diagnostic, Severity};
use crate::model::chunked::{ChunkedVec, CHUNK};
use crate::model::edit::TextEdit;
use crate::model::editor_diagnostics::{Outline, Shown};
use crate::model::format::Format;
use crate::model::games::{xiangqi_board, xiangqi_piece};
use crate::model::line_index::LineIndex;
use crate::model::notation_document::{HoverBoard, StateRef};
use crate::model::scene::{Annotation, Scene};

use crate::xiangqi::annotation::Code;
use crate::xiangqi::board::{Board, Side};
use crate::xiangqi::placement::check_position;
use crate::xiangqi::reader::annofen::{read_annofen, read_fen};
use crate::xiangqi::reader::parsed::{ChunkMarks, ChunkNumbers, Parsed, WrittenMove, WrittenMoves};
use crate::xiangqi::reader::position::{AtomKind, Position};
use crate::xiangqi::reader::wxf::{
    read_wxf, read_wxf_reusing, reread_moves, MovesSplice, Previous,
};
use crate::xiangqi::reader::xay::read_xay;
use crate::xiangqi::replay::{
    board_after, move_number, play, side_of, Divergence, Outcome, Played, Player,
};
use crate::xiangqi::wxf_move::{ResolveError, Which};

/// One analysed revision of a xiangqi-setup file.
#[derive(Debug)]
pub struct XiangqiDocument {
    pub(super) text: String,
    pub(super) line_index: LineIndex,
    pub(crate) parsed: Parsed,
    pub(crate) start: Arc<Board>,
    pub(crate) first: Side,
    pub(crate) played: ChunkedVec<Played>,
    diagnostics: OnceLock<Vec<Diagnostic>>,
}

/// A problem of a move, found but not put in words: a diagnostic's place, severity and code.
#[derive(Debug)]
struct MoveProblem {
    index: usize,
    range: Range<usize>,
    severity: Severity,
    code: &'static str,
    kind: MoveProblemKind,
}

#[derive(Debug)]
enum MoveProblemKind {
    /// What playing it gave.
    Outcome,
    /// Written in the case of that side's moves, when the other side is to move.
    WrongCase(Side),
    /// Numbered so.
    WrongNumber(u32),
}

fn read(format: Format, text: &str) -> Parsed {
    match format {
        Format::AnnoFen => read_annofen(text),
        Format::Xay => read_xay(text),
        Format::Wxf => read_wxf(text),
        _ => read_fen(text),
    }
}

impl XiangqiDocument {
    /// Read `text` as `format` (one of the four xiangqi-setup formats; anything else is
    /// read as plain FEN).
    pub fn new(format: Format, text: String) -> XiangqiDocument {
        let parsed = read(format, &text);
        let start = Arc::new(parsed.start.board());
        let first = parsed.start.side_to_move.unwrap_or(Side::Red);
        let mut played = ChunkedVec::new();
        play(&start, first, &parsed.moves, &mut played);
        XiangqiDocument::from_parts(LineIndex::new(&text), text, parsed, start, first, played)
    }

    fn from_parts(
        line_index: LineIndex,
        text: String,
        parsed: Parsed,
        start: Arc<Board>,
        first: Side,
        played: ChunkedVec<Played>,
    ) -> XiangqiDocument {
        XiangqiDocument {
            line_index,
            text,
            parsed,
            start,
            first,
            played,
            diagnostics: OnceLock::new(),
        }
    }

    /// Every diagnostic, sorted by position: put in words when first asked for (an editor
    /// is sent a few of them: see [`XiangqiDocument::shown`]).
    pub(super) fn all_diagnostics(&self) -> &[Diagnostic] {
        self.diagnostics.get_or_init(|| {
            let mut out = self.said();
            self.find_move_problems(true, |found| out.push(self.word(&found)));
            Diagnostic::sort_and_dedup(&mut out);
            out
        })
    }

    /// What an editor is sent of the diagnostics: the problems of the moves are put in
    /// words only when shown (a move broken early in a long record makes thousands).
    pub(super) fn shown(&self, most: usize) -> Shown {
        let said = self.said();
        let mut found = Vec::new();
        self.find_move_problems(false, |problem| found.push(problem));
        let outlines = || {
            (said.iter().enumerate())
                .map(|(source, diagnostic)| Outline::of(diagnostic, source))
                .chain(found.iter().enumerate().map(|(number, problem)| Outline {
                    range: problem.range.clone(),
                    severity: problem.severity,
                    code: problem.code,
                    source: said.len() + number,
                }))
        };
        Shown::of_outline_passes(outlines, most, |source| {
            match source.checked_sub(said.len()) {
                None => said[source].clone(),
                Some(problem) => self.word(&found[problem]),
            }
        })
    }

    /// The diagnostics put in words as they were found: the reading's and the position's.
    fn said(&self) -> Vec<Diagnostic> {
        let mut said = self.parsed.diagnostics.clone();
        if self.parsed.position_range.is_some() {
            said.extend(check_position(&self.parsed.start));
        }
        said
    }

    /// Finds what is wrong with the moves, in order, without putting it in words. With
    /// `every_move`, each move is looked at; without, a full chunk whose marks show that
    /// its moves' case and numbers are right where it lies is looked at only in its moves
    /// that failed (a pass over every move of a long record read megabytes).
    fn find_move_problems(&self, every_move: bool, mut found: impl FnMut(MoveProblem)) {
        let moves = &self.parsed.moves;
        // Some software writes every move in upper case; lower case for Black's moves is
        // then a sign of the other convention, under which case must follow the side.
        let case_follows_side = moves
            .marked_chunks_as_read()
            .any(|(chunk, _, marks)| match marks.filter(|_| !every_move) {
                Some(marks) => marks.lower_case != 0,
                None => chunk.iter().any(|m| m.parsed.is_some_and(|p| p.lower_case)),
            });
        let chunks = moves.marked_chunks_as_read().zip(self.played.chunks());
        let mut start = 0;
        for ((chunk, shift, marks), played) in chunks {
            let right_where_it_lies = !every_move
                && marks.is_some_and(|marks| self.right_at(marks, start, case_follows_side));
            for (offset, (as_read, played)) in chunk.iter().zip(played).enumerate() {
                let failed = !matches!(played.outcome, Outcome::Legal | Outcome::Unreadable);
                if failed || !right_where_it_lies {
                    let index = start + offset;
                    self.move_problems(
                        index,
                        (as_read, shift),
                        played,
                        case_follows_side,
                        &mut found,
                    );
                }
            }
            start += chunk.len();
        }
    }

    /// Whether a full chunk with `marks`, starting at move `start`, has its moves' case
    /// and numbers right.
    fn right_at(&self, marks: ChunkMarks, start: usize, case_follows_side: bool) -> bool {
        // The moves of the chunk that are Black's.
        let blacks = match side_of(self.first, start) {
            Side::Red => 0xaaaa_aaaa_aaaa_aaaa_u64,
            Side::Black => 0x5555_5555_5555_5555_u64,
        };
        let in_the_other_case = marks.lettered & (marks.lower_case ^ blacks);
        let case_right = in_the_other_case
            & (marks.lower_case | if case_follows_side { u64::MAX } else { 0 })
            == 0;
        let numbers_right = match marks.numbers {
            ChunkNumbers::None => true,
            ChunkNumbers::RightFrom(right) => {
                self.first == Side::Red && i64::try_from(start).is_ok_and(|start| start == right)
            }
            ChunkNumbers::Mixed => false,
        };
        case_right && numbers_right
    }

    /// Finds what is wrong with move `index`, `as_read` `shift` bytes from where it lies.
    fn move_problems(
        &self,
        index: usize,
        (as_read, shift): (&WrittenMove, isize),
        played: &Played,
        case_follows_side: bool,
        found: &mut impl FnMut(MoveProblem),
    ) {
        // The side whose case the letter is in, when that is not the side to move.
        let wrong_case = as_read.parsed.and_then(|parsed| {
            let letter_side = if parsed.lower_case {
                Side::Black
            } else {
                Side::Red
            };
            let wrong = parsed.kind.is_some()
                && letter_side != played.side
                && (parsed.lower_case || case_follows_side);
            wrong.then_some(letter_side)
        });
        let expected = move_number(self.first, index);
        let red_opens = played.side == Side::Red || index == 0;
        let wrong_number = as_read
            .number
            .as_ref()
            .filter(|(number, _)| *number as usize != expected && red_opens);
        let failed = !matches!(played.outcome, Outcome::Legal | Outcome::Unreadable);
        // Most moves have nothing to say: only those that do are moved to where they lie.
        if !failed && wrong_case.is_none() && wrong_number.is_none() {
            return;
        }
        let written = as_read.shifted(shift);
        let range = written.range.clone();
        match &played.outcome {
            Outcome::Legal | Outcome::Unreadable => {}
            Outcome::LooseTandem => found(MoveProblem {
                index,
                range: range.clone(),
                severity: Severity::Warning,
                code: "wxf-tandem",
                kind: MoveProblemKind::Outcome,
            }),
            Outcome::Illegal(error) | Outcome::Unresolved(error) => found(MoveProblem {
                index,
                range: range.clone(),
                severity: Severity::Error,
                code: match &**error {
                    ResolveError::NoPiece(_) => "wxf-no-piece",
                    ResolveError::Ambiguous(..) => "wxf-ambiguous-move",
                    ResolveError::Illegal { reason, .. } if reason.is_about_check() => {
                        "wxf-leaves-check"
                    }
                    _ => "wxf-illegal-move",
                },
                kind: MoveProblemKind::Outcome,
            }),
        }
        if let Some(letter_side) = wrong_case {
            found(MoveProblem {
                index,
                range: range.start..range.start + 1,
                severity: Severity::Warning,
                code: "wxf-side-to-move",
                kind: MoveProblemKind::WrongCase(letter_side),
            });
        }
        if let (Some((number, _)), Some((_, number_range))) = (wrong_number, &written.number) {
            found(MoveProblem {
                index,
                range: number_range.clone(),
                severity: Severity::Warning,
                code: "wxf-move-number",
                kind: MoveProblemKind::WrongNumber(*number),
            });
        }
    }

    /// The diagnostic of a problem found in a move.
    fn word(&self, problem: &MoveProblem) -> Diagnostic {
        let index = problem.index;
        let played = &self.played[index];
        let who = played.side.name();
        let written = self.parsed.moves.get(index).unwrap_or(WrittenMove {
            range: problem.range.clone(),
            parsed: None,
            number: None,
        });
        let text = written.text(&self.text);
        let range = problem.range.clone();
        let (severity, code) = (problem.severity, problem.code);
        let message = match problem.kind {
            MoveProblemKind::Outcome => match &played.outcome {
                Outcome::Legal | Outcome::Unreadable => String::new(),
                Outcome::LooseTandem => {
                    let front = written.parsed.is_some_and(|p| p.which == Which::Front);
                    format!(
                        "`{text}`: `{}` names the front or rear one of two pieces on one file, but no file holds two; read as the {} one, as xiangqi-setup does",
                        if front { "+" } else { "-" },
                        if front { "most advanced" } else { "least advanced" },
                    )
                }
                Outcome::Illegal(error) | Outcome::Unresolved(error) => {
                    // Written at once into a string long enough.
                    let mut message = String::with_capacity(text.len() + 192);
                    let _ = write!(message, "`{text}` ({who}): {error}");
                    if let ResolveError::Illegal { from, to, .. } = &**error {
                        let _ = write!(message, " (from {from} to {to}; played anyway)");
                    }
                    if let Outcome::Unresolved(_) = played.outcome {
                        message.push_str("; the move is skipped");
                    }
                    message
                }
            },
            MoveProblemKind::WrongCase(letter_side) => format!(
                "it is {who}'s turn (moves alternate), but `{text}` is written in {} case, as {}'s moves are",
                if letter_side == Side::Black { "lower" } else { "upper" },
                letter_side.name()
            ),
            MoveProblemKind::WrongNumber(number) => format!(
                "this is move {} (moves are counted in pairs, Red's then Black's), not {number}",
                move_number(self.first, index)
            ),
        };
        Diagnostic::new(range, severity, code, message)
    }

    /// The analysis of `text`, made from this one's by `edit`. An edit among a record's
    /// moves reads again only the words around it; the moves before it are not played
    /// again, the moves after it are taken over where the boards' differences cannot
    /// change them, and none is played again once the board is back in step with this
    /// one's.
    pub fn updated(&self, text: String, edit: &TextEdit) -> XiangqiDocument {
        let edit = edit.checked(&self.text, &text);
        let line_index = self.line_index.update(&text, &edit);
        let spliced = match self.parsed.format {
            Format::Wxf => reread_moves(&self.parsed, &text, &edit),
            _ => None,
        };
        let (parsed, splice) = match spliced {
            Some((parsed, splice)) => (parsed, Some(splice)),
            None if self.parsed.format == Format::Wxf => {
                let previous = Previous {
                    parsed: &self.parsed,
                    edit: &edit,
                };
                (read_wxf_reusing(&text, Some(previous)), None)
            }
            None => (read(self.parsed.format, &text), None),
        };
        let start = Arc::new(parsed.start.board());
        let first = parsed.start.side_to_move.unwrap_or(Side::Red);
        let mut played = ChunkedVec::new();
        if *self.start != *start || self.first != first {
            play(&start, first, &parsed.moves, &mut played);
        } else {
            let splice = splice.unwrap_or_else(|| {
                unchanged_ends(&self.parsed.moves, &self.text, &parsed.moves, &text)
            });
            replay_from(self, &start, first, &parsed.moves, splice, &mut played);
        }
        XiangqiDocument::from_parts(line_index, text, parsed, start, first, played)
    }

    /// The label of state `index` (0 = the start).
    pub fn state_label(&self, index: usize) -> String {
        if index == 0 {
            return "start".to_string();
        }
        let side = side_of(self.first, index - 1);
        let number = move_number(self.first, index - 1);
        match side {
            Side::Red => format!("{number}."),
            Side::Black => format!("{number}..."),
        }
    }

    /// The board of state `index` (0 = the start), made from the last board kept before it.
    pub fn board_at_state(&self, index: usize) -> Option<Board> {
        match index.checked_sub(1) {
            None => Some(Board::clone(&self.start)),
            Some(last) => board_after(&self.start, &self.played, last),
        }
    }

    /// The index of the move whose text holds `offset` (just past its end counts).
    pub fn move_index(&self, offset: usize) -> Option<usize> {
        let moves = &self.parsed.moves;
        let after = moves.partition_point(|m| m.range.end < offset);
        moves
            .get(after)
            .filter(|m| {
                m.range.start <= offset || m.number.as_ref().is_some_and(|n| n.1.start <= offset)
            })
            .map(|_| after)
    }

    pub fn start_position(&self) -> &Position {
        &self.parsed.start
    }

    pub fn played(&self) -> &ChunkedVec<Played> {
        &self.played
    }

    pub fn written_moves(&self) -> &WrittenMoves {
        &self.parsed.moves
    }

    pub fn first_side(&self) -> Side {
        self.first
    }

    /// Describe move `index` in words: `Red horse h0–g2, captures Black cannon`.
    pub fn move_description(&self, index: usize) -> String {
        let Some(played) = self.played.get(index) else {
            return String::new();
        };
        let mut text = match (played.mover, played.from, played.to) {
            (Some(mover), Some(from), Some(to)) => format!("{} {from}–{to}", mover.describe()),
            _ => format!("{} does not move", played.side.name()),
        };
        if let Some(captured) = played.captured {
            text.push_str(&format!(", captures the {}", captured.describe()));
        }
        text
    }
}

/// Which moves of `new` differ from `old`'s: those between the longest common start and
/// the longest common end (compared as written).
fn unchanged_ends(
    old: &WrittenMoves,
    old_text: &str,
    new: &WrittenMoves,
    new_text: &str,
) -> MovesSplice {
    let same = |a: Option<WrittenMove>, b: Option<WrittenMove>| {
        a.zip(b)
            .is_some_and(|(a, b)| a.text(old_text) == b.text(new_text))
    };
    // A chunk both share holds the same moves, moved along the text with it: one look
    // for its 64 moves (an edit outside the moves shares them all).
    let shortest = old.len().min(new.len());
    let mut first = 0;
    while first < shortest {
        if first.is_multiple_of(CHUNK) && new.shares_chunk(old, first / CHUNK) {
            first += CHUNK;
        } else if same(old.get(first), new.get(first)) {
            first += 1;
        } else {
            break;
        }
    }
    let first = first.min(shortest);
    let common_end = (1..=(old.len() - first).min(new.len() - first))
        .take_while(|&back| same(old.get(old.len() - back), new.get(new.len() - back)))
        .count();
    MovesSplice {
        first,
        old_end: old.len() - common_end,
        new_end: new.len() - common_end,
    }
}

/// Plays `moves` reusing what `previous` played from the same start, where `splice` says
/// which moves changed: the moves before them are kept; after them, a move is taken over
/// from `previous` when its verdict reads none of the points where the boards differ (a
/// move's outcome depends only on the board before it, the side and its text), and play
/// stops as soon as the boards are the same after the same move, for the same side to
/// move: the rest of `previous` holds as it was.
fn replay_from(
    previous: &XiangqiDocument,
    start: &Arc<Board>,
    first: Side,
    moves: &WrittenMoves,
    splice: MovesSplice,
    played: &mut ChunkedVec<Played>,
) {
    let old_played = &previous.played;
    played.extend_from(old_played, 0..splice.first);
    // Move `index` of `moves` is move `index + shift` of `previous` in the common tail.
    let shift = splice.old_end as isize - splice.new_end as isize;
    let mut player = Player::after(start, first, played);
    // Once the moves are in the common tail: where the board `previous` had before the move
    // matched with the next one differs from the player's.
    let mut divergence: Option<Divergence> = None;
    // Only what each move says counts here, not where it lies.
    for (written, _) in moves.iter_as_read_from(played.len()) {
        let written = written.parsed.as_ref();
        let index = played.len();
        let old_index = usize::try_from(index as isize + shift)
            .ok()
            .filter(|old_index| *old_index < old_played.len());
        let (divergence, old_index) = match (&mut divergence, old_index) {
            (Some(divergence), Some(old_index)) => {
                player.follow(written, &old_played[old_index], divergence, played);
                (&*divergence, old_index)
            }
            _ => {
                player.play(written, played);
                // The moves after `index` are all in the common tail, for the same sides.
                let in_tail = index + 1 >= splice.new_end && shift % 2 == 0;
                let Some(old_index) = old_index.filter(|_| in_tail) else {
                    continue;
                };
                let board = board_after(&previous.start, old_played, old_index)
                    .expect("the old move is played");
                (
                    &*divergence.insert(Divergence::between(&board, player.board())),
                    old_index,
                )
            }
        };
        if divergence.is_empty() {
            played.extend_from(old_played, old_index + 1..old_played.len());
            break;
        }
    }
}

/// The scene of a position: the board, its men in the order written, its annotations.
pub fn position_scene(position: &Position) -> Scene {
    let mut scene = Scene {
        pieces: vec![xiangqi_board()],
        ..Scene::default()
    };
    for atom in &position.atoms {
        match atom.kind {
            AtomKind::Man(man) => scene.pieces.push(xiangqi_piece(
                man.side,
                man.kind,
                u32::from(atom.point.file),
                u32::from(atom.point.rank),
            )),
            AtomKind::Code(code) => match code {
                Code::Arrow { .. } => {
                    if let Some(end) = code.arrow_end(atom.point) {
                        scene.annotations.push(Annotation::Arrow {
                            from: atom.point.scene_xy(),
                            to: end.scene_xy(),
                        });
                    }
                }
                Code::Marker { shape, meaning } => scene.annotations.push(Annotation::Marker {
                    at: atom.point.scene_xy(),
                    shape,
                    color: meaning.color(),
                }),
            },
        }
    }
    scene
}

/// The scene of a board after a move (men in point order).
pub(super) fn board_scene(board: &Board, played: Option<&Played>) -> Scene {
    let mut scene = Scene {
        pieces: vec![xiangqi_board()],
        ..Scene::default()
    };
    for (point, man) in board.men() {
        if played.is_some_and(|p| p.to == Some(point) && p.mover.is_some()) {
            scene.highlighted.push(scene.pieces.len());
        }
        scene.pieces.push(xiangqi_piece(
            man.side,
            man.kind,
            u32::from(point.file),
            u32::from(point.rank),
        ));
    }
    if let Some(from) = played.and_then(|p| p.from.filter(|_| p.mover.is_some())) {
        scene.vacated.push(from.scene_xy());
    }
    scene
}

impl XiangqiDocument {
    pub fn has_errors(&self) -> bool {
        self.all_diagnostics()
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    pub fn hover_board(&self, index: usize) -> HoverBoard {
        HoverBoard {
            state: StateRef { game: 0, index },
            label: if index == 0 {
                "start".to_string()
            } else {
                format!(
                    "{} {}",
                    self.state_label(index),
                    self.parsed
                        .moves
                        .get(index - 1)
                        .map_or("", |m| m.text(&self.text))
                )
            },
            marked: None,
        }
    }
}
