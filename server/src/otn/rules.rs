//! A tafl rules engine driven by an OTN rules string: which moves are legal (orthogonal
//! moves blocked by men, speed limits, special squares with their passable, stoppable and
//! re-enter lists, jumps), what a move captures (custodial captures with hostility, king
//! strength, armed king, commanders and knights, Linnaean capture, shieldwalls,
//! mercenaries changing sides, guards), berserk continuations, and who has won.
//!
//! Boards are slices of square codes (see [`crate::otn::board`]); every function is pure.

use crate::otn::board::{
    other_side, side_name, Census, Man, PieceSet, Square, TaflMan, TaflSide, MAX_DIM,
};
use crate::otn::variant::{
    Berserk, Escape, Jump, KingArmed, KingStrength, Rules, Shieldwall, Space,
};

const DIRECTIONS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    KingCaptured,
    KingEscaped,
    EdgeFort,
    Surrounded,
    AllCaptured,
    NoMoves,
    Repetition,
    Resigned,
}

impl Reason {
    pub fn describe(self) -> &'static str {
        match self {
            Reason::KingCaptured => "the king is captured",
            Reason::KingEscaped => "the king escapes",
            Reason::EdgeFort => "the king is in an edge fort the attackers cannot break",
            Reason::Surrounded => "the attackers enclose every defender",
            Reason::AllCaptured => "every man of one side is captured",
            Reason::NoMoves => "the side to move has no legal move",
            Reason::Repetition => "the position occurs for the third time",
            Reason::Resigned => "a side resigns",
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    Win(TaflSide, Reason),
    Draw(Reason),
}

impl Verdict {
    pub fn describe(self) -> String {
        match self {
            Verdict::Win(side, reason) => format!("{} win: {}", side_name(side), reason.describe()),
            Verdict::Draw(reason) => format!("draw: {}", reason.describe()),
        }
    }

    /// OTN's `result` tag value: 1 (attackers win), -1 (defenders win), 0 (draw).
    pub fn result_tag(self) -> &'static str {
        match self {
            Verdict::Win(TaflSide::Attackers, _) => "1",
            Verdict::Win(TaflSide::Defenders, _) => "-1",
            Verdict::Draw(_) => "0",
        }
    }
}

/// What a legal move did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub jump: bool,
    /// The squares whose men were captured, with the man each held before (a captured
    /// mercenary stays on its square, on the other side).
    pub captures: Vec<(usize, Man)>,
}

pub fn man_at(cells: &[u8], index: usize) -> Option<Man> {
    cells.get(index).and_then(|code| Man::from_code(*code))
}

fn step(rules: &Rules, index: usize, (dx, dy): (i32, i32)) -> Option<usize> {
    let dim = rules.dim as i32;
    let (x, y) = rules.coordinates(index);
    let (x, y) = (x as i32 + dx, y as i32 + dy);
    (x >= 0 && y >= 0 && x < dim && y < dim).then(|| (y * dim + x) as usize)
}

fn on_edge(rules: &Rules, index: usize) -> bool {
    let (x, y) = rules.coordinates(index);
    x == 0 || y == 0 || x + 1 == rules.dim || y + 1 == rules.dim
}

fn square(rules: &Rules, index: usize) -> String {
    Square::of_index(index, rules.dim).name()
}

fn jump_mode(rules: &Rules, man: Man) -> Jump {
    match man.kind {
        TaflMan::Taflman => Jump::None,
        TaflMan::Commander => rules.jumps[1],
        TaflMan::Knight => rules.jumps[2],
        TaflMan::King => rules.jumps[3],
        TaflMan::Mercenary => rules.jumps[4],
        TaflMan::Guard => rules.jumps[5],
    }
}

/// Whether `man`, which started its move on a square of kind `origin`, may pass `index`.
fn can_pass(rules: &Rules, man: Man, origin: Space, index: usize) -> bool {
    let space = rules.space(index);
    let Some(slot) = space.slot() else {
        return true;
    };
    (origin == space || rules.reenter[slot].contains(man)) && rules.passable[slot].contains(man)
}

fn can_stop(rules: &Rules, man: Man, origin: Space, index: usize) -> bool {
    let space = rules.space(index);
    let Some(slot) = space.slot() else {
        return true;
    };
    (origin == space || rules.reenter[slot].contains(man)) && rules.stoppable[slot].contains(man)
}

fn speed(rules: &Rules, man: Man) -> Option<usize> {
    rules.speed[man.type_index()].map(usize::from)
}

/// Every square the man on `from` may move to, with whether the move is a jump.
pub fn destinations(rules: &Rules, cells: &[u8], from: usize) -> Vec<(usize, bool)> {
    let mut found = Vec::new();
    let Some(man) = man_at(cells, from) else {
        return found;
    };
    let origin = rules.space(from);
    let limit = speed(rules, man);
    for direction in DIRECTIONS {
        let mut at = from;
        let mut distance = 0;
        while let Some(next) = step(rules, at, direction) {
            distance += 1;
            if cells[next] != 0 || !can_pass(rules, man, origin, next) {
                break;
            }
            if limit.is_some_and(|limit| distance > limit) {
                break;
            }
            if can_stop(rules, man, origin, next) {
                found.push((next, false));
            }
            at = next;
        }
        if let Some(to) = jump_target(rules, cells, man, from, direction) {
            found.push((to, true));
        }
    }
    found
}

/// Where a jump from `from` in `direction` lands, if the man may make it.
fn jump_target(
    rules: &Rules,
    cells: &[u8],
    man: Man,
    from: usize,
    direction: (i32, i32),
) -> Option<usize> {
    jump_landing(rules, cells, man, from, direction).ok()
}

/// Why a jump cannot be made, put in words only when asked: the search for any legal move
/// asks it of every blocked direction and drops the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JumpProblem {
    NoJumps,
    OffBoard,
    NothingOver(u16),
    Friend(u16),
    Unjumpable(Man),
    Occupied(u16),
    Restricted,
    CannotStop(u16),
}

impl JumpProblem {
    fn describe(&self, rules: &Rules, man: Man) -> String {
        let square = |index: u16| square(rules, usize::from(index));
        match *self {
            JumpProblem::NoJumps => format!("{} may not jump ({})", plural(man), jump_key(man)),
            JumpProblem::OffBoard => "the jump leaves the board".to_string(),
            JumpProblem::NothingOver(over) => {
                format!("there is no man on {} to jump over", square(over))
            }
            JumpProblem::Friend(over) => {
                format!("{} is a friend: only enemy men are jumped", square(over))
            }
            JumpProblem::Unjumpable(jumped) => {
                format!("{} cannot be jumped over", jumped.describe())
            }
            JumpProblem::Occupied(to) => format!("{} is occupied", square(to)),
            JumpProblem::Restricted => format!(
                "{} jump only to or from the centre, a corner or a friendly fort ({}:r)",
                plural(man),
                jump_key(man)
            ),
            JumpProblem::CannotStop(to) => stop_reason(rules, man, usize::from(to)),
        }
    }
}

/// Where a jump from `from` in `direction` lands, or why it cannot be made.
fn jump_landing(
    rules: &Rules,
    cells: &[u8],
    man: Man,
    from: usize,
    direction: (i32, i32),
) -> Result<usize, JumpProblem> {
    let mode = jump_mode(rules, man);
    if mode == Jump::None {
        return Err(JumpProblem::NoJumps);
    }
    let over = step(rules, from, direction).ok_or(JumpProblem::OffBoard)?;
    let to = step(rules, over, direction).ok_or(JumpProblem::OffBoard)?;
    // Squares are fewer than 2^16 (see `MAX_DIM`).
    let jumped = man_at(cells, over).ok_or(JumpProblem::NothingOver(over as u16))?;
    if jumped.side == man.side {
        return Err(JumpProblem::Friend(over as u16));
    }
    if matches!(
        jumped.kind,
        TaflMan::King | TaflMan::Knight | TaflMan::Commander
    ) {
        return Err(JumpProblem::Unjumpable(jumped));
    }
    if cells[to] != 0 {
        return Err(JumpProblem::Occupied(to as u16));
    }
    let origin = rules.space(from);
    if mode == Jump::Restricted {
        let special = |index: usize| match rules.space(index) {
            Space::Center | Space::Corner => true,
            Space::AttackerFort => man.side == TaflSide::Attackers,
            Space::DefenderFort => man.side == TaflSide::Defenders,
            Space::Plain => false,
        };
        if !special(from) && !special(to) {
            return Err(JumpProblem::Restricted);
        }
    }
    if !can_stop(rules, man, origin, to) {
        return Err(JumpProblem::CannotStop(to as u16));
    }
    Ok(to)
}

fn plural(man: Man) -> &'static str {
    match man.kind {
        TaflMan::Taflman => "taflmen",
        TaflMan::King => "the king",
        TaflMan::Commander => "commanders",
        TaflMan::Knight => "knights",
        TaflMan::Guard => "guards",
        TaflMan::Mercenary => "mercenaries",
    }
}

fn jump_key(man: Man) -> &'static str {
    match man.kind {
        TaflMan::Taflman => "taflmen never jump",
        TaflMan::King => "kj",
        TaflMan::Commander => "cj",
        TaflMan::Knight => "nj",
        TaflMan::Guard => "gj",
        TaflMan::Mercenary => "mj",
    }
}

fn stop_reason(rules: &Rules, man: Man, index: usize) -> String {
    let space = rules.space(index);
    let slot = space.slot().unwrap_or(0);
    if rules.stoppable[slot] == PieceSet::NONE {
        format!(
            "no man may stop on the {} ({}s:)",
            space.name(),
            space.key()
        )
    } else if !rules.stoppable[slot].contains(man) {
        format!(
            "only {} may stop on the {} ({}s: {})",
            rules.stoppable[slot].describe(),
            space.name(),
            space.key(),
            rules.stoppable[slot].letters()
        )
    } else {
        format!(
            "{} may not re-enter the {} from outside ({}re: {})",
            man.describe(),
            space.name(),
            space.key(),
            rules.reenter[slot].letters()
        )
    }
}

/// Why a move cannot be made, put in words only when asked (see [`MoveError::describe`]):
/// a replay that goes wrong finds one at most moves, and says few of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    NoMan {
        from: u16,
    },
    SameSquare,
    NotStraight {
        from: u16,
        to: u16,
    },
    Occupied {
        to: u16,
    },
    Jump {
        man: Man,
        problem: JumpProblem,
    },
    PassesThrough {
        from: u16,
        to: u16,
        at: u16,
    },
    /// Past a special square the man may not pass (or not re-enter).
    Barred {
        man: Man,
        from: u16,
        to: u16,
        at: u16,
    },
    TooFar {
        man: Man,
        from: u16,
        to: u16,
        distance: u16,
        limit: u16,
    },
    CannotStop {
        man: Man,
        to: u16,
    },
}

impl MoveError {
    /// Appends why the move cannot be made, in words, under `rules`, to `out`: the common
    /// reasons written piece by piece (see [`crate::otn::board::push_number`]).
    pub fn push_description(self, rules: &Rules, out: &mut String) {
        let square = |index: u16| Square::of_index(usize::from(index), rules.dim);
        match self {
            MoveError::NoMan { from } => {
                out.push_str("there is no man on ");
                square(from).push_name(out);
            }
            MoveError::NotStraight { from, to } => {
                square(from).push_name(out);
                out.push('-');
                square(to).push_name(out);
                out.push_str(" is not along a rank or a file");
            }
            MoveError::Occupied { to } => {
                square(to).push_name(out);
                out.push_str(" is occupied");
            }
            MoveError::PassesThrough { from, to, at } => {
                square(from).push_name(out);
                out.push('-');
                square(to).push_name(out);
                out.push_str(" passes through ");
                square(at).push_name(out);
            }
            _ => out.push_str(&self.describe(rules)),
        }
    }

    /// Why the move cannot be made, in words, under `rules`.
    pub fn describe(self, rules: &Rules) -> String {
        let square = |index: u16| square(rules, usize::from(index));
        match self {
            MoveError::NoMan { from } => format!("there is no man on {}", square(from)),
            MoveError::SameSquare => "a move goes somewhere else".to_string(),
            MoveError::NotStraight { from, to } => format!(
                "{}-{} is not along a rank or a file",
                square(from),
                square(to)
            ),
            MoveError::Occupied { to } => format!("{} is occupied", square(to)),
            MoveError::Jump { man, problem } => problem.describe(rules, man),
            MoveError::PassesThrough { from, to, at } => format!(
                "{}-{} passes through {}",
                square(from),
                square(to),
                square(at)
            ),
            MoveError::Barred { man, from, to, at } => {
                let space = rules.space(usize::from(at));
                let slot = space.slot().unwrap_or(0);
                if !rules.passable[slot].contains(man) {
                    format!(
                        "{}-{} passes through the {} at {}, which only {} may pass ({}p: {})",
                        square(from),
                        square(to),
                        space.name(),
                        square(at),
                        rules.passable[slot].describe(),
                        space.key(),
                        rules.passable[slot].letters()
                    )
                } else {
                    format!(
                        "{} may not re-enter the {} at {} ({}re: {})",
                        man.describe(),
                        space.name(),
                        square(at),
                        space.key(),
                        rules.reenter[slot].letters()
                    )
                }
            }
            MoveError::TooFar {
                man,
                from,
                to,
                distance,
                limit,
            } => format!(
                "{}-{} goes {distance} squares; {} move at most {limit} (spd)",
                square(from),
                square(to),
                plural(man)
            ),
            MoveError::CannotStop { man, to } => stop_reason(rules, man, usize::from(to)),
        }
    }
}

/// Checks that the man on `from` may move to `to`; `Ok(jump)` or why not.
#[inline]
pub fn check_move(rules: &Rules, cells: &[u8], from: usize, to: usize) -> Result<bool, MoveError> {
    // Squares are fewer than 2^16 (see `MAX_DIM`).
    let (from_square, to_square) = (from as u16, to as u16);
    let Some(man) = man_at(cells, from) else {
        return Err(MoveError::NoMan { from: from_square });
    };
    if from == to {
        return Err(MoveError::SameSquare);
    }
    let (fx, fy) = rules.coordinates(from);
    let (fx, fy) = (fx as i32, fy as i32);
    let (tx, ty) = rules.coordinates(to);
    let (tx, ty) = (tx as i32, ty as i32);
    if fx != tx && fy != ty {
        return Err(MoveError::NotStraight {
            from: from_square,
            to: to_square,
        });
    }
    let direction = ((tx - fx).signum(), (ty - fy).signum());
    let distance = (tx - fx).abs().max((ty - fy).abs()) as usize;
    if cells[to] != 0 {
        return Err(MoveError::Occupied { to: to_square });
    }
    let origin = rules.space(from);
    // A jump: two squares over an adjacent man.
    if distance == 2 && jump_mode(rules, man) != Jump::None {
        let over = step(rules, from, direction).unwrap_or(from);
        if cells[over] != 0 {
            return jump_landing(rules, cells, man, from, direction)
                .map(|_| true)
                .map_err(|problem| MoveError::Jump { man, problem });
        }
    }
    let mut at = from;
    while let Some(next) = step(rules, at, direction) {
        if next == to {
            break;
        }
        if cells[next] != 0 {
            return Err(MoveError::PassesThrough {
                from: from_square,
                to: to_square,
                at: next as u16,
            });
        }
        if !can_pass(rules, man, origin, next) {
            return Err(MoveError::Barred {
                man,
                from: from_square,
                to: to_square,
                at: next as u16,
            });
        }
        at = next;
    }
    if let Some(limit) = speed(rules, man) {
        if distance > limit {
            return Err(MoveError::TooFar {
                man,
                from: from_square,
                to: to_square,
                distance: distance as u16,
                limit: limit as u16,
            });
        }
    }
    if !can_pass(rules, man, origin, to) || !can_stop(rules, man, origin, to) {
        return Err(MoveError::CannotStop { man, to: to_square });
    }
    Ok(false)
}

/// Whether the square `index` is hostile to `man` (a man between it and an enemy mover is
/// captured).
pub fn hostile(rules: &Rules, cells: &[u8], index: usize, man: Man) -> bool {
    if let Some(occupant) = man_at(cells, index) {
        if occupant.side != man.side {
            let anvil = match occupant.kind {
                TaflMan::Guard => false,
                TaflMan::King => matches!(rules.king_armed, KingArmed::Yes | KingArmed::Anvil),
                _ => true,
            };
            if anvil {
                return true;
            }
        }
    }
    let space = rules.space(index);
    match space {
        Space::Plain => false,
        Space::Center if cells[index] == 0 => rules.hostile_empty_center.contains(man),
        _ => rules.hostile[space.slot().unwrap_or(0)].contains(man),
    }
}

fn is_center(rules: &Rules, index: usize) -> bool {
    rules.space(index) == Space::Center
}

fn near_center(rules: &Rules, index: usize) -> bool {
    is_center(rules, index)
        || DIRECTIONS
            .iter()
            .filter_map(|d| step(rules, index, *d))
            .any(|n| is_center(rules, n))
}

fn is_commander_like(man: Option<Man>) -> bool {
    man.is_some_and(|m| matches!(m.kind, TaflMan::Commander | TaflMan::Knight))
}

/// Whether the king on `at`, next to the mover on `to`, is captured.
fn king_captured(
    rules: &Rules,
    cells: &[u8],
    king: Man,
    at: usize,
    to: usize,
    far: Option<usize>,
) -> bool {
    let strong = match rules.king_strength {
        KingStrength::Strong => true,
        KingStrength::StrongCenter => near_center(rules, at),
        KingStrength::Middleweight => {
            return DIRECTIONS
                .iter()
                .filter_map(|d| step(rules, at, *d))
                .all(|n| hostile(rules, cells, n, king));
        }
        KingStrength::Weak => false,
    };
    if !strong {
        return far.is_some_and(|f| hostile(rules, cells, f, king));
    }
    let surrounded = DIRECTIONS
        .iter()
        .all(|d| step(rules, at, *d).is_some_and(|n| hostile(rules, cells, n, king)));
    if surrounded {
        return true;
    }
    // Two commanders or knights (or one and a hostile corner) capture a strong king, except
    // on or against the throne.
    let Some(far) = far else {
        return false;
    };
    if is_center(rules, at) || is_center(rules, far) || !hostile(rules, cells, far, king) {
        return false;
    }
    let mover = man_at(cells, to);
    let far_man = man_at(cells, far).filter(|m| m.side != king.side);
    let count = usize::from(is_commander_like(mover))
        + usize::from(is_commander_like(far_man))
        + usize::from(rules.space(far) == Space::Corner);
    count >= 2
}

/// Makes the move `from`-`to` (already checked legal) on `cells` and returns what it did.
pub fn apply(rules: &Rules, cells: &mut [u8], from: usize, to: usize) -> Outcome {
    let Some(mover) = man_at(cells, from) else {
        return Outcome::default();
    };
    let (fx, fy) = rules.coordinates(from);
    let (fx, fy) = (fx as i32, fy as i32);
    let (tx, ty) = rules.coordinates(to);
    let (tx, ty) = (tx as i32, ty as i32);
    let distance = (tx - fx).abs().max((ty - fy).abs());
    let direction = ((tx - fx).signum(), (ty - fy).signum());
    let over = step(rules, from, direction);
    let jump = distance == 2 && over.is_some_and(|o| cells[o] != 0);
    cells[to] = cells[from];
    cells[from] = 0;
    let mut captured: Vec<usize> = Vec::new();
    if jump && jump_mode(rules, mover) == Jump::Capturing {
        if let Some(over) = over {
            if man_at(cells, over).is_some_and(|m| m.side != mover.side && m.kind != TaflMan::Guard)
            {
                captured.push(over);
            }
        }
    }
    let armed = match mover.kind {
        TaflMan::Guard => false,
        TaflMan::King => matches!(rules.king_armed, KingArmed::Yes | KingArmed::Hammer),
        _ => true,
    };
    if armed {
        for direction in DIRECTIONS {
            let Some(next) = step(rules, to, direction) else {
                continue;
            };
            let Some(victim) = man_at(cells, next) else {
                continue;
            };
            if victim.side == mover.side || victim.kind == TaflMan::Guard {
                continue;
            }
            let far = step(rules, next, direction);
            let taken = if victim.kind == TaflMan::King {
                king_captured(rules, cells, victim, next, to, far)
            } else {
                far.is_some_and(|f| hostile(rules, cells, f, victim))
            };
            let linnaean = !taken
                && rules.linnaean
                && linnaean_capture(rules, cells, mover, victim, next, far);
            if (taken || linnaean) && !captured.contains(&next) {
                captured.push(next);
            }
        }
        if rules.shieldwall != Shieldwall::None {
            for index in shieldwall_captures(rules, cells, mover, to) {
                if !captured.contains(&index) {
                    captured.push(index);
                }
            }
        }
    }
    let mut outcome = Outcome {
        jump,
        captures: Vec::with_capacity(captured.len()),
    };
    for index in captured {
        let Some(man) = man_at(cells, index) else {
            continue;
        };
        cells[index] = if man.kind == TaflMan::Mercenary {
            Man::new(other_side(man.side), man.kind).code()
        } else {
            0
        };
        outcome.captures.push((index, man));
    }
    outcome
}

/// A defender next to the king on the throne, the king's three other sides held by
/// attackers, is captured against the throne.
fn linnaean_capture(
    rules: &Rules,
    cells: &[u8],
    mover: Man,
    victim: Man,
    at: usize,
    throne: Option<usize>,
) -> bool {
    let Some(throne) = throne else {
        return false;
    };
    if mover.side != TaflSide::Attackers
        || victim.side != TaflSide::Defenders
        || !is_center(rules, throne)
    {
        return false;
    }
    if !man_at(cells, throne).is_some_and(|m| m.is_king() && m.side == TaflSide::Defenders) {
        return false;
    }
    let attackers = DIRECTIONS
        .iter()
        .filter_map(|d| step(rules, throne, *d))
        .filter(|n| *n != at)
        .filter(|n| man_at(cells, *n).is_some_and(|m| m.side == TaflSide::Attackers))
        .count();
    attackers >= 3
}

/// The direction along an edge square's edge, and the direction into the board (two for
/// a corner square).
fn edge_axes(rules: &Rules, index: usize) -> impl Iterator<Item = ((i32, i32), (i32, i32))> {
    let (x, y) = rules.coordinates(index);
    let last = rules.dim - 1;
    [
        (y == 0).then_some(((1, 0), (0, 1))),
        (y == last).then_some(((1, 0), (0, -1))),
        (x == 0).then_some(((0, 1), (1, 0))),
        (x == last).then_some(((0, 1), (-1, 0))),
    ]
    .into_iter()
    .flatten()
}

/// The men of a run along an edge, at most a side of the board.
struct Run {
    men: [u16; MAX_DIM],
    len: usize,
}

/// The men a shieldwall captures after `mover` arrived on `to`.
fn shieldwall_captures(rules: &Rules, cells: &[u8], mover: Man, to: usize) -> Vec<usize> {
    let mut captured = Vec::new();
    let side = mover.side;
    let closes = |index: usize| {
        man_at(cells, index).is_some_and(|m| m.side == side)
            || (rules.shieldwall == Shieldwall::Strong
                && cells[index] == 0
                && rules.space(index) == Space::Corner)
    };
    // The run of enemies pinned against the edge, starting next to `start` and going
    // `along`; `Some(run)` if it is closed at its far end.
    let run = |start: usize, along: (i32, i32), inward: (i32, i32)| -> Option<Run> {
        let mut men = Run {
            men: [0; MAX_DIM],
            len: 0,
        };
        let mut at = start;
        loop {
            at = step(rules, at, along)?;
            match man_at(cells, at) {
                Some(man) if man.side != side => {
                    let pin = step(rules, at, inward)?;
                    if !man_at(cells, pin)
                        .is_some_and(|m| m.side == side && m.kind != TaflMan::Guard)
                    {
                        return None;
                    }
                    men.men[men.len] = at as u16;
                    men.len += 1;
                }
                _ => return (closes(at) && men.len >= 2).then_some(men),
            }
        }
    };
    let mut take = |men: Run| {
        for index in men.men[..men.len].iter().map(|index| usize::from(*index)) {
            let man = man_at(cells, index);
            if man.is_some_and(|m| !matches!(m.kind, TaflMan::King | TaflMan::Guard))
                && !captured.contains(&index)
            {
                captured.push(index);
            }
        }
    };
    if on_edge(rules, to) {
        for (along, inward) in edge_axes(rules, to) {
            for along in [along, (-along.0, -along.1)] {
                if let Some(men) = run(to, along, inward) {
                    take(men);
                }
            }
        }
    }
    if !rules.shieldwall_flank {
        // Any wall the move completed: the mover pins one of its men, or closes it.
        for direction in DIRECTIONS {
            let Some(edge) = step(rules, to, direction) else {
                continue;
            };
            if !on_edge(rules, edge) || man_at(cells, edge).is_none_or(|m| m.side == side) {
                continue;
            }
            for (along, inward) in edge_axes(rules, edge) {
                if step(rules, edge, inward) != Some(to) {
                    continue;
                }
                // Walk to one end of the run, then read it from there.
                let back = (-along.0, -along.1);
                let mut start = edge;
                while let Some(prev) = step(rules, start, back) {
                    if man_at(cells, prev).is_some_and(|m| m.side != side) {
                        start = prev;
                    } else {
                        break;
                    }
                }
                if let Some(flank) = step(rules, start, back) {
                    if closes(flank) {
                        if let Some(men) = run(flank, along, inward) {
                            take(men);
                        }
                    }
                }
            }
        }
    }
    captured
}

/// The side that moves next after `mover` moved `to` with `outcome`, and the berserking
/// man's square if the same side moves again.
pub fn berserk_continuation(
    rules: &Rules,
    cells: &[u8],
    to: usize,
    outcome: &Outcome,
) -> Option<usize> {
    if outcome.captures.is_empty() || rules.berserk == Berserk::None {
        return None;
    }
    let moves = destinations(rules, cells, to);
    let continues = match rules.berserk {
        Berserk::None => false,
        Berserk::Move => !moves.is_empty(),
        Berserk::Capture => moves
            .iter()
            .any(|(target, _)| captures_something(rules, cells, to, *target)),
    };
    continues.then_some(to)
}

/// Whether the move `from`-`to` would capture.
pub fn captures_something(rules: &Rules, cells: &[u8], from: usize, to: usize) -> bool {
    let mut board = cells.to_vec();
    !apply(rules, &mut board, from, to).captures.is_empty()
}

fn defender_king(cells: &[u8]) -> Option<usize> {
    cells.iter().position(|code| {
        Man::from_code(*code).is_some_and(|m| m.is_king() && m.side == TaflSide::Defenders)
    })
}

/// Whether the king on `index` stands where he escapes.
fn escaped(rules: &Rules, index: usize) -> bool {
    match rules.escape {
        Escape::Corner => rules.space(index) == Space::Corner,
        Escape::Edge => on_edge(rules, index),
    }
}

/// Who has won after a move by `mover`, the board now being `cells` and `census` its
/// census; `had_king` tells whether the defenders had a king before the move. Repetitions
/// are the replay's business.
pub fn verdict(
    rules: &Rules,
    cells: &[u8],
    census: Census,
    mover: TaflSide,
    had_king: bool,
    berserk_pending: bool,
) -> Option<Verdict> {
    verdict_hinted(
        rules,
        cells,
        (census, had_king),
        mover,
        berserk_pending,
        &mut VerdictHints::default(),
    )
}

/// Squares a verdict found that the next one, a move later, looks at first: a man of each
/// side that could move, and a defender that saw an edge. A board changes little from one
/// move to the next, and these mostly still can, where a search from the first square
/// passed most of the board. Verdicts are the same whatever the hints.
#[derive(Clone, Debug, Default)]
pub struct VerdictHints {
    movable: [Option<u16>; 2],
    sees_edge: Option<u16>,
    /// Room for the searches' squares, kept from one verdict to the next.
    stack: Vec<u16>,
    wall: Vec<u16>,
}

/// [`verdict`], looking first where `hints` say, and keeping in them what it found.
pub fn verdict_hinted(
    rules: &Rules,
    cells: &[u8],
    (census, had_king): (Census, bool),
    mover: TaflSide,
    berserk_pending: bool,
    hints: &mut VerdictHints,
) -> Option<Verdict> {
    let Census {
        attackers,
        defenders,
        king,
    } = census;
    if had_king && king.is_none() {
        return Some(Verdict::Win(TaflSide::Attackers, Reason::KingCaptured));
    }
    if let Some(king) = king {
        if escaped(rules, king) {
            return Some(Verdict::Win(TaflSide::Defenders, Reason::KingEscaped));
        }
    }
    if defenders == 0 {
        return Some(Verdict::Win(TaflSide::Attackers, Reason::AllCaptured));
    }
    if attackers == 0 {
        return Some(Verdict::Win(TaflSide::Defenders, Reason::AllCaptured));
    }
    if rules.edge_fort && king.is_some_and(|k| edge_fort(rules, cells, k, hints)) {
        return Some(Verdict::Win(TaflSide::Defenders, Reason::EdgeFort));
    }
    if rules.surround_fatal
        && mover == TaflSide::Attackers
        && defenders_enclosed_hinted(rules, cells, &mut hints.sees_edge, &mut hints.stack)
    {
        return Some(Verdict::Win(TaflSide::Attackers, Reason::Surrounded));
    }
    if !berserk_pending {
        let next = other_side(mover);
        let hint = &mut hints.movable[usize::from(next == TaflSide::Defenders)];
        if !side_can_move_hinted(rules, cells, next, hint) {
            return Some(Verdict::Win(mover, Reason::NoMoves));
        }
    }
    None
}

pub fn side_can_move(rules: &Rules, cells: &[u8], side: TaflSide) -> bool {
    side_can_move_hinted(rules, cells, side, &mut None)
}

/// [`side_can_move`], trying the man on `hint` first, and keeping there the man found.
fn side_can_move_hinted(
    rules: &Rules,
    cells: &[u8],
    side: TaflSide,
    hint: &mut Option<u16>,
) -> bool {
    let movable = |index: usize| {
        man_at(cells, index).is_some_and(|m| m.side == side) && can_move(rules, cells, index)
    };
    if hint.is_some_and(|index| movable(usize::from(index))) {
        return true;
    }
    match (0..cells.len()).find(|index| movable(*index)) {
        Some(index) => {
            *hint = Some(index as u16);
            true
        }
        None => false,
    }
}

/// Whether the man on `from` has a legal move (what `destinations` finds, without
/// listing them).
fn can_move(rules: &Rules, cells: &[u8], from: usize) -> bool {
    let Some(man) = man_at(cells, from) else {
        return false;
    };
    let origin = rules.space(from);
    let limit = speed(rules, man);
    for direction in DIRECTIONS {
        let mut at = from;
        let mut distance = 0;
        while let Some(next) = step(rules, at, direction) {
            distance += 1;
            if cells[next] != 0
                || !can_pass(rules, man, origin, next)
                || limit.is_some_and(|limit| distance > limit)
            {
                break;
            }
            if can_stop(rules, man, origin, next) {
                return true;
            }
            at = next;
        }
        if jump_target(rules, cells, man, from, direction).is_some() {
            return true;
        }
    }
    false
}

/// A set of a board's squares, one bit each.
#[derive(Default)]
struct Squares([u64; (MAX_DIM * MAX_DIM).div_ceil(64)]);

impl Squares {
    fn insert(&mut self, index: usize) {
        self.0[index / 64] |= 1 << (index % 64);
    }

    fn contains(&self, index: usize) -> bool {
        self.0[index / 64] & (1 << (index % 64)) != 0
    }
}

/// No defender can reach an edge square: every path from a defender to the edge meets an
/// attacker. (Searched from the defenders, which usually reach an edge in a few steps.)
#[cfg(test)]
fn defenders_enclosed(rules: &Rules, cells: &[u8]) -> bool {
    defenders_enclosed_hinted(rules, cells, &mut None, &mut Vec::new())
}

/// [`defenders_enclosed`], trying the defender on `hint` first, and keeping there a
/// defender that sees an edge; `stack` is room for the search.
fn defenders_enclosed_hinted(
    rules: &Rules,
    cells: &[u8],
    hint: &mut Option<u16>,
    stack: &mut Vec<u16>,
) -> bool {
    // Checked after every attackers' move: squares marked in bits, each stacked once at
    // most. The search starts from one defender and takes the next only when it found no
    // way out, since the first usually finds one in a few steps.
    let is_defender =
        |index: usize| man_at(cells, index).is_some_and(|m| m.side == TaflSide::Defenders);
    let is_attacker =
        |index: usize| man_at(cells, index).is_some_and(|m| m.side == TaflSide::Attackers);
    // Most often a defender sees an edge along a file or rank with no attacker between:
    // looked at first, without the search's tables.
    let sees_edge = |from: usize| {
        DIRECTIONS.iter().any(|&direction| {
            let mut at = from;
            while let Some(next) = step(rules, at, direction) {
                if is_attacker(next) {
                    return false;
                }
                at = next;
            }
            true
        })
    };
    let free = |index: usize| is_defender(index) && sees_edge(index);
    if hint.is_some_and(|index| free(usize::from(index))) {
        return false;
    }
    if let Some(index) = (0..cells.len()).find(|index| free(*index)) {
        *hint = Some(index as u16);
        return false;
    }
    let mut seen = Squares::default();
    for start in 0..cells.len() {
        if seen.contains(start) || !is_defender(start) {
            continue;
        }
        seen.insert(start);
        stack.clear();
        stack.push(start as u16);
        while let Some(index) = stack.pop() {
            let index = usize::from(index);
            if on_edge(rules, index) {
                return false;
            }
            for direction in DIRECTIONS {
                if let Some(next) = step(rules, index, direction) {
                    if !seen.contains(next) && !is_attacker(next) {
                        seen.insert(next);
                        stack.push(next as u16);
                    }
                }
            }
        }
    }
    true
}

/// The king on an edge, able to move, in an area of empty squares walled by defenders,
/// with no attacker inside and no corner, and no wall man capturable; `hints` has room for
/// the search.
fn edge_fort(rules: &Rules, cells: &[u8], king: usize, hints: &mut VerdictHints) -> bool {
    if !on_edge(rules, king) {
        return false;
    }
    let can_move = DIRECTIONS
        .iter()
        .filter_map(|d| step(rules, king, *d))
        .any(|n| cells[n] == 0);
    if !can_move {
        return false;
    }
    // Asked after every move while the king stands on an edge: squares marked in bits,
    // each stacked once at most.
    let mut inside = Squares::default();
    let mut stacked = Squares::default();
    let (stack, wall) = (&mut hints.stack, &mut hints.wall);
    stack.clear();
    wall.clear();
    stack.push(king as u16);
    stacked.insert(king);
    while let Some(index) = stack.pop() {
        let index = usize::from(index);
        if index != king {
            match man_at(cells, index) {
                Some(man) if man.side == TaflSide::Attackers => return false,
                Some(_) => {
                    wall.push(index as u16);
                    continue;
                }
                None => {}
            }
        }
        if rules.space(index) == Space::Corner {
            return false;
        }
        inside.insert(index);
        for direction in DIRECTIONS {
            if let Some(next) = step(rules, index, direction) {
                if !stacked.contains(next) {
                    stacked.insert(next);
                    stack.push(next as u16);
                }
            }
        }
    }
    let attacker = Man::new(TaflSide::Attackers, TaflMan::Taflman);
    wall.iter().map(|&index| usize::from(index)).all(|index| {
        let Some(man) = man_at(cells, index) else {
            return true;
        };
        let safe = |next: Option<usize>| match next {
            None => true,
            Some(n) if inside.contains(n) => !hostile(rules, cells, n, man),
            Some(n) => {
                !hostile(rules, cells, n, man)
                    && (cells[n] != 0 || !can_stop(rules, attacker, Space::Plain, n))
            }
        };
        [[(0, 1), (0, -1)], [(1, 0), (-1, 0)]]
            .iter()
            .all(|axis| axis.iter().any(|d| safe(step(rules, index, *d))))
    })
}

/// Whether the side to move could capture the defenders' king with one move.
pub fn king_threatened(rules: &Rules, cells: &[u8], side_to_move: TaflSide) -> bool {
    let Some(king) = defender_king(cells) else {
        return false;
    };
    if side_to_move != TaflSide::Attackers {
        return false;
    }
    (0..cells.len()).any(|from| {
        man_at(cells, from).is_some_and(|m| m.side == TaflSide::Attackers)
            && destinations(rules, cells, from).into_iter().any(|(to, _)| {
                let mut board = cells.to_vec();
                apply(rules, &mut board, from, to)
                    .captures
                    .iter()
                    .any(|(index, _)| *index == king)
            })
    })
}

/// Whether the defenders' king could escape with one move.
pub fn king_can_escape(rules: &Rules, cells: &[u8]) -> bool {
    let Some(king) = defender_king(cells) else {
        return false;
    };
    destinations(rules, cells, king)
        .into_iter()
        .any(|(to, _)| escaped(rules, to))
}

#[cfg(test)]
mod tests;
