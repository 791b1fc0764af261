//! OTN's answers to the notation contract ([`NotationDocument`]): one analysed revision of
//! an `.otg` or `.otn` file, its states as scenes, and its editor features.

use std::collections::HashMap;
use std::io;
use std::ops::Range;
use std::sync::OnceLock;

use serde_json::json;

use crate::diagnostic::Diagnostic;
use crate::model::edit::TextEdit;
use crate::model::editor_diagnostics::{Outline, Shown, Tally};
use crate::model::features::{Symbol, SymbolKind};
use crate::model::games::{tafl_board, tafl_man};
use crate::model::line_index::LineIndex;
use crate::model::notation_document::{LineState, StateRef};
use crate::model::scene::{Scene, SquareMark, SquareRole};
use crate::otn::board::{Man, Square};
use crate::otn::reader::{parse_file, parse_record_until, FileKind, OtnFile, ParseState, Turns};
use crate::otn::replay::{replay, Line, MoveProblem, Replay, Reuse};
use crate::otn::variant::Rules;
use crate::otn::variant::Space;

/// An analysed OTN file.
#[derive(Debug)]
pub struct OtnDocument {
    pub text: String,
    pub line_index: LineIndex,
    pub file: OtnFile,
    pub replay: Replay,
    diagnostics: OnceLock<Vec<Diagnostic>>,
}

/// A problem of a line's move with what putting it in words needs: the rules, its line,
/// the index of its state there, and how far its move now lies from where it was read.
struct ProblemAt<'a> {
    rules: &'a Rules,
    line: &'a Line,
    index: usize,
    problem: &'a MoveProblem,
    shift: isize,
}

impl ProblemAt<'_> {
    fn diagnostic(&self) -> Diagnostic {
        (self.line).problem_diagnostic(self.index, self.problem, self.shift, self.rules)
    }
}

impl OtnDocument {
    pub fn new(text: String) -> OtnDocument {
        let file = parse_file(&text);
        let replayed = replay(&text, &file, None);
        OtnDocument::from_parts(LineIndex::new(&text), text, file, replayed)
    }

    fn from_parts(
        line_index: LineIndex,
        text: String,
        file: OtnFile,
        replay: Replay,
    ) -> OtnDocument {
        OtnDocument {
            line_index,
            text,
            file,
            replay,
            diagnostics: OnceLock::new(),
        }
    }

    /// Every diagnostic, sorted by position: put in words when first asked for (an editor
    /// is sent a few of them: see [`OtnDocument::shown`]).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        self.diagnostics.get_or_init(|| {
            let problems = self.move_problems();
            let mut diagnostics: Vec<Diagnostic> = self.said().cloned().collect();
            diagnostics.reserve(problems.len());
            diagnostics.extend(problems.iter().map(ProblemAt::diagnostic));
            Diagnostic::sort_and_dedup(&mut diagnostics);
            diagnostics
        })
    }

    /// What an editor is sent of the diagnostics: the problems of the moves are put in
    /// words only when shown (a broken move halfway into a long record makes tens of
    /// thousands of them).
    pub(super) fn shown(&self, most: usize) -> Shown {
        let said: Vec<&Diagnostic> = self.said().collect();
        let Some(parsed) = &self.replay.rules else {
            return Shown::of_outlines(
                (said.iter().enumerate())
                    .map(|(source, diagnostic)| Outline::of(diagnostic, source))
                    .collect(),
                most,
                |source| said[source].clone(),
            );
        };
        let lines = &self.replay.lines;
        let outlines = || {
            let problems = lines.iter().flat_map(|line| line.plies.problems());
            (said.iter().enumerate())
                .map(|(source, diagnostic)| Outline::of(diagnostic, source))
                .chain(problems.enumerate().map(|(number, (_, problem, shift))| {
                    let (range, severity, code) = problem.outline(shift);
                    Outline {
                        range,
                        severity,
                        code,
                        source: said.len() + number,
                    }
                }))
        };
        // Where each chunk's problems start among all, once one is put in words.
        let chunk_starts = std::cell::OnceCell::new();
        let chunk_starts = || {
            chunk_starts.get_or_init(|| {
                let mut starts = Vec::new();
                let mut number = 0;
                for (line_number, line) in lines.iter().enumerate() {
                    for (chunk, count) in line.plies.problem_counts().enumerate() {
                        if count > 0 {
                            starts.push((number, line_number, chunk));
                            number += count;
                        }
                    }
                }
                starts
            })
        };
        let mut tally = Tally::default();
        for (source, diagnostic) in said.iter().enumerate() {
            tally.add(&Outline::of(diagnostic, source));
        }
        for line in lines {
            line.plies.tally_problems(&mut tally);
        }
        Shown::of_tallied_outlines(outlines, &tally, most, |source| {
            let Some(number) = source.checked_sub(said.len()) else {
                return said[source].clone();
            };
            let starts = chunk_starts();
            let (first, line, chunk) =
                starts[starts.partition_point(|(first, _, _)| *first <= number) - 1];
            let line = &lines[line];
            let (index, problem, shift) = line
                .plies
                .chunk_problem(chunk, number - first)
                .expect("a problem counted is there");
            line.problem_diagnostic(index, problem, shift, &parsed.rules)
        })
    }

    /// The diagnostics put in words as they were found: those of the file and the replay's.
    fn said(&self) -> impl Iterator<Item = &Diagnostic> + '_ {
        self.file
            .diagnostics
            .iter()
            .chain(self.replay.diagnostics.iter())
    }

    /// The problems of the lines' moves, in the order found (lines are played only under
    /// rules).
    fn move_problems(&self) -> Vec<ProblemAt<'_>> {
        let mut problems = Vec::new();
        if let Some(parsed) = &self.replay.rules {
            // Counted first: tens of thousands of them grown into place were copied again
            // and again.
            problems.reserve(
                (self.replay.lines.iter())
                    .map(|line| line.plies.problem_count())
                    .sum(),
            );
            for line in &self.replay.lines {
                line.plies.each_problem(|index, problem, shift| {
                    problems.push(ProblemAt {
                        rules: &parsed.rules,
                        line,
                        index,
                        problem,
                        shift,
                    });
                });
            }
        }
        problems
    }

    /// The analysis of `text`, made from this one's by `edit`: the turns are read again
    /// from the one before the edit until a turn starts where one started before, past the
    /// edit; the main line's states before the edit are kept, and so are those after it
    /// once the replay reaches the same state as before at the same move.
    pub fn updated(&self, text: String, edit: &TextEdit) -> OtnDocument {
        let edit = edit.checked(&self.text, &text);
        let fresh = || OtnDocument::new(text.clone());
        if self.file.kind != FileKind::GameRecord {
            return fresh();
        }
        let old_turns = &self.file.turns;
        // Start reading again at the last turn that begins before the edit.
        let Some(restart_turn) = old_turns.count_starting_before(edit.start).checked_sub(1) else {
            return fresh();
        };
        let restart = old_turns.range(restart_turn).start;
        if self.file.tags.iter().any(|tag| tag.range.end > restart) {
            return fresh();
        }
        let delta = edit.new_end as isize - edit.old_end as isize;
        // Reading stops at the first turn past the edit that starts where one started.
        let same_turn_at = |offset: usize| {
            offset >= edit.new_end
                && old_turns
                    .starting_at(offset.wrapping_add_signed(-delta))
                    .is_some_and(|t| t > restart_turn)
        };
        let (read, stopped) =
            parse_record_until(&text, restart, ParseState { in_moves: true }, same_turn_at);
        let old_same_from =
            stopped.and_then(|offset| old_turns.starting_at(offset.wrapping_add_signed(-delta)));
        let old_same_offset = old_same_from.map_or(usize::MAX, |t| old_turns.range(t).start);
        let mut turns = Turns::default();
        turns.extend_shared(old_turns, 0..restart_turn, 0);
        turns.append(read.turns);
        let same_turns_from = turns.len();
        if let Some(from) = old_same_from {
            turns.extend_shared(old_turns, from..old_turns.len(), delta);
        }
        let mut diagnostics: Vec<Diagnostic> = self
            .file
            .diagnostics
            .iter()
            .filter(|d| d.range.start < restart)
            .cloned()
            .collect();
        diagnostics.extend(read.diagnostics);
        diagnostics.extend(
            self.file
                .diagnostics
                .iter()
                .filter(|d| d.range.start >= old_same_offset)
                .map(|d| d.shifted(delta)),
        );
        let file = OtnFile {
            kind: FileKind::GameRecord,
            tags: self.file.tags.clone(),
            turns,
            body: None,
            diagnostics,
        };
        let reuse = self.replay.lines.first().map(|line| Reuse {
            line,
            // The main line's states of the moves before the turn read again.
            keep: 1 + line.plies.moves_starting_before(restart),
            tail_from: edit.new_end,
            delta,
            same_turns_from,
        });
        let replayed = replay(&text, &file, reuse);
        OtnDocument::from_parts(self.line_index.update(&text, &edit), text, file, replayed)
    }

    pub fn line(&self, index: usize) -> Option<&Line> {
        self.replay.lines.get(index)
    }

    /// The line and index of a state.
    pub fn locate(&self, state: StateRef) -> Option<(usize, usize)> {
        if state.game != 0 {
            return None;
        }
        self.replay.locate(state.index)
    }

    pub fn state_ref(&self, line: usize, index: usize) -> StateRef {
        StateRef {
            game: 0,
            index: self.replay.state_ref(line, index),
        }
    }

    /// The board of a state as square codes.
    pub fn board(&self, line: usize, index: usize) -> Option<Vec<u8>> {
        let line = self.replay.lines.get(line)?;
        (index < line.plies.len()).then(|| line.board(index))
    }

    /// The OTN position record after state `index` of `line`.
    pub fn position(&self, line: usize, index: usize) -> String {
        let dim = self.replay.dim();
        self.board(line, index)
            .map(|cells| crate::otn::board::position_record(&cells, dim))
            .unwrap_or_default()
    }

    /// The move record's text of a state.
    pub fn move_text(&self, line: usize, index: usize) -> &str {
        let Some(line) = self.replay.lines.get(line) else {
            return "";
        };
        if index == 0 {
            return "";
        }
        self.text.get(line.plies.at(index).range).unwrap_or("")
    }

    /// The squares captured by a state's move, by name.
    pub fn captured(&self, line: usize, index: usize) -> Vec<(String, Man)> {
        let dim = self.replay.dim();
        self.replay
            .lines
            .get(line)
            .map(|l| {
                l.ply_captures(index)
                    .iter()
                    .map(|(i, man)| (Square::of_index(usize::from(*i), dim).name(), *man))
                    .collect()
            })
            .unwrap_or_default()
    }

    pub fn comment(&self, line: usize, index: usize) -> String {
        let Some(line) = self.replay.lines.get(line) else {
            return String::new();
        };
        let range = if index == 0 && line.path.is_main() {
            self.file
                .tag(&self.text, "start-comment")
                .map(|tag| tag.value.clone())
        } else {
            line.plies.get(index).and_then(|p| p.comment.clone())
        };
        range
            .and_then(|r| self.text.get(r))
            .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_default()
    }

    /// The rules string as written, on one line.
    pub fn rules_text(&self) -> String {
        self.replay
            .rules_range
            .clone()
            .and_then(|r| self.text.get(r))
            .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_default()
    }

    pub(super) fn game_name(&self) -> String {
        let dim = self.replay.dim();
        let tag = |name: &str| {
            self.file
                .tag(&self.text, name)
                .map(|t| self.text[t.value.clone()].trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let variant = tag("variant").or_else(|| {
            self.replay
                .rules
                .as_ref()
                .map(|r| r.rules.name.clone())
                .filter(|n| !n.is_empty())
        });
        match variant {
            Some(name) => format!("{name} ({dim}×{dim})"),
            None => format!("Tafl ({dim}×{dim})"),
        }
    }

    pub(super) fn scene_of(&self, line: usize, index: usize) -> Option<Scene> {
        let rules = &self.replay.rules.as_ref()?.rules;
        let dim = rules.dim;
        let cells = self.board(line, index)?;
        let mut scene = Scene::default();
        scene.pieces.push(tafl_board(dim as u32));
        let ply = self.replay.lines[line].plies.at(index);
        let changed: Vec<usize> = self.replay.lines[line]
            .ply_captures(index)
            .iter()
            .map(|(i, _)| usize::from(*i))
            .collect();
        for (i, code) in cells.iter().enumerate() {
            let Some(man) = Man::from_code(*code) else {
                continue;
            };
            let square = Square::of_index(i, dim);
            let moved_here = index > 0 && ply.moved.is_some_and(|(_, _, to)| usize::from(to) == i);
            if moved_here || changed.contains(&i) {
                scene.highlighted.push(scene.pieces.len());
            }
            scene.pieces.push(tafl_man(
                man.side,
                man.kind,
                u32::from(square.x) + 1,
                u32::from(square.y) + 1,
            ));
        }
        if index > 0 {
            let emptied = ply
                .moved
                .map(|(_, from, _)| usize::from(from))
                .into_iter()
                .chain(changed.iter().copied())
                .filter(|i| cells.get(*i) == Some(&0));
            for i in emptied {
                let square = Square::of_index(i, dim);
                let at = (f64::from(square.x) + 1.0, f64::from(square.y) + 1.0);
                if !scene.vacated.contains(&at) {
                    scene.vacated.push(at);
                }
            }
        }
        for (i, space) in rules.spaces.iter().enumerate() {
            let role = match space {
                Space::Plain => continue,
                Space::Center => SquareRole::Throne,
                Space::Corner => SquareRole::Corner,
                Space::AttackerFort => SquareRole::AttackerFort,
                Space::DefenderFort => SquareRole::DefenderFort,
            };
            let square = Square::of_index(i, dim);
            scene.squares.push(SquareMark {
                x: f64::from(square.x) + 1.0,
                y: f64::from(square.y) + 1.0,
                role,
            });
        }
        Some(scene)
    }

    pub(super) fn line_state(&self, line: usize, index: usize) -> LineState {
        let l = &self.replay.lines[line];
        LineState {
            label: l.label(index),
            text: self.move_text(line, index).to_string(),
            comment: self.comment(line, index),
            range: (index > 0).then(|| l.plies.at(index).range),
            state: self.state_ref(line, index),
        }
    }

    pub(super) fn write_states(
        &self,
        line: usize,
        only: Option<&[StateRef]>,
        include_start: bool,
        out: &mut dyn io::Write,
    ) -> io::Result<()> {
        let l = &self.replay.lines[line];
        let mut first = true;
        let start = usize::from(!include_start);
        for index in start..l.plies.len() {
            let state = self.state_ref(line, index);
            if only.is_some_and(|only| !only.contains(&state)) {
                continue;
            }
            if !std::mem::take(&mut first) {
                out.write_all(b",")?;
            }
            let value = if index == 0 {
                json!({"move": "start", "position": self.position(line, 0)})
            } else {
                let captures: Vec<String> = self
                    .captured(line, index)
                    .into_iter()
                    .map(|(s, _)| s)
                    .collect();
                json!({
                    "move": l.label(index),
                    "text": self.move_text(line, index),
                    "position": self.position(line, index),
                    "captures": captures,
                })
            };
            serde_json::to_writer(&mut *out, &value)?;
        }
        Ok(())
    }

    /// The variations of each move: `(parent line, index of the move replaced)` → lines.
    pub(super) fn children(&self) -> HashMap<(usize, usize), Vec<usize>> {
        let mut children: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
        for (l, line) in self.replay.lines.iter().enumerate() {
            if let Some((parent, before)) = line.parent {
                children.entry((parent, before + 1)).or_default().push(l);
            }
        }
        children
    }

    /// Where a variation is written: from its first turn to its last turn's commentary.
    pub(super) fn line_range(&self, line: &Line) -> Range<usize> {
        let turns = &self.file.turns;
        let first = line.turns.first().map(|t| turns.range(*t));
        let last = line.turns.last().map(|t| {
            turns
                .commentary_range(*t)
                .map_or(turns.range(*t).end, |c| c.end)
        });
        match (first, last) {
            (Some(first), Some(last)) => first.start..last.max(first.end),
            _ => 0..0,
        }
    }

    fn line_symbol(&self, l: usize, children: &HashMap<(usize, usize), Vec<usize>>) -> Symbol {
        let line = &self.replay.lines[l];
        let range = self.line_range(line);
        let selection = line
            .turns
            .first()
            .map(|t| self.file.turns.address_range(*t))
            .unwrap_or(range.clone());
        Symbol {
            name: format!("variation {}", line.path.prefix()),
            detail: line
                .plies
                .get(1)
                .map(|p| self.text[p.range.clone()].to_string()),
            kind: SymbolKind::Variation,
            range,
            selection,
            children: self.move_symbols(l, children),
        }
    }

    pub(super) fn move_symbols(
        &self,
        l: usize,
        children: &HashMap<(usize, usize), Vec<usize>>,
    ) -> Vec<Symbol> {
        let line = &self.replay.lines[l];
        (1..line.plies.len())
            .map(|index| {
                let ply = line.plies.at(index);
                Symbol {
                    name: line.label(index),
                    detail: Some(self.text[ply.range.clone()].to_string()),
                    kind: SymbolKind::Move,
                    range: ply.range.clone(),
                    selection: ply.range.clone(),
                    children: children
                        .get(&(l, index))
                        .map(|lines| {
                            lines
                                .iter()
                                .map(|c| self.line_symbol(*c, children))
                                .collect()
                        })
                        .unwrap_or_default(),
                }
            })
            .collect()
    }

    /// What the offset is in: a state's move, for hover and the board panel.
    pub(super) fn move_index_at(&self, offset: usize) -> Option<(usize, usize)> {
        self.replay
            .move_at(offset)
            .map(|(_, line, index)| (line, index))
    }
}

#[cfg(test)]
mod tests;
