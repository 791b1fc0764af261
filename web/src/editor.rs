//! What a code editor asks of a [`Session`]: the answers the language server gives VS Code,
//! for the extension when it runs ppn-ls as WebAssembly (VS Code for the Web, or a desktop
//! with no `ppn-ls` executable). Each answer is built from the same `ppn_ls::ide` functions
//! as the language server's, and written as JSON text with offsets in UTF-16 code units
//! (the editor turns them into lines and columns with its own document).

use std::ops::Range;

use ppn_ls::ide::analyze::{analyze, hover_with, reanalyze, render_at, HoverOptions};
use ppn_ls::ide::formatting::{format_document, FormatOptions};
use ppn_ls::ide::game_line::{game_line_at, LineStop};
use ppn_ls::ide::lenses::code_lenses;
use ppn_ls::model::edit::TextEdit;
use ppn_ls::model::features::{outline, CompletionKind, FoldKind, Symbol, SymbolKind};
use ppn_ls::render::svg::SvgOptions;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use crate::{Session, Utf16Offsets};

#[wasm_bindgen]
impl Session {
    /// Reads `text` as the file `name`, as [`Session::open`] does, answering nothing: an
    /// editor asks for what it shows.
    pub fn editor_open(&mut self, name: &str, text: String) {
        self.name = name.to_string();
        self.offsets = Utf16Offsets::new(&text);
        self.document = analyze(self.path(), text);
        self.games = std::cell::OnceCell::new();
    }

    /// The text changed: `inserted` replaces UTF-16 units `from..to`, as in
    /// [`Session::edit`], answering nothing.
    pub fn editor_edit(&mut self, from: u32, to: u32, inserted: &str) {
        let old = self.document.text();
        let start = self.offsets.byte(old, from as usize);
        let end = self.offsets.byte(old, to as usize).max(start);
        let mut text = String::with_capacity(old.len() - (end - start) + inserted.len());
        text.push_str(&old[..start]);
        text.push_str(inserted);
        text.push_str(&old[end..]);
        let edit = TextEdit {
            start,
            old_end: end,
            new_end: start + inserted.len(),
        };
        self.offsets = Utf16Offsets::new(&text);
        self.document = reanalyze(&*self.document, self.path(), text, &edit);
        self.games = std::cell::OnceCell::new();
    }

    /// The diagnostics an editor is sent: at most `most` (errors first, with a note on the
    /// others), as `[{from, to, severity, code, message, related: [{from, to, message}],
    /// fixes: [{title, edits: [{from, to, text}]}]}]`.
    pub fn editor_diagnostics(&self, most: u32) -> String {
        let shown = self.document.diagnostics_shown(most.max(1) as usize);
        let answer: Vec<Value> = shown
            .diagnostics
            .iter()
            .chain(shown.note.as_ref())
            .map(|d| {
                let (from, to) = self.units(&d.range);
                json!({
                    "from": from,
                    "to": to,
                    "severity": d.severity.name(),
                    "code": d.code,
                    "message": d.message,
                    "related": d.related.iter().map(|related| {
                        let (from, to) = self.units(&related.range);
                        json!({"from": from, "to": to, "message": related.message})
                    }).collect::<Vec<_>>(),
                    "fixes": d.fixes.iter().map(|fix| json!({
                        "title": fix.title,
                        "edits": self.edits_json(&fix.edits),
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        Value::Array(answer).to_string()
    }

    /// The hover at UTF-16 offset `at` as the language server writes it (Markdown, the
    /// board drawn as text below), `{from, to, markdown}`; `null` where there is none.
    /// `reference_board` draws it with the reference implementation's glyphs.
    pub fn editor_hover(&self, at: u32, reference_board: bool) -> String {
        let offset = self.byte(at);
        let options = HoverOptions {
            board: if reference_board {
                ppn_ls::render::text::BoardStyle::Reference
            } else {
                ppn_ls::render::text::BoardStyle::Plain
            },
            plain_text: false,
        };
        match hover_with(&*self.document, offset, &options) {
            Some(found) => {
                let (from, to) = self.units(&found.range);
                json!({"from": from, "to": to, "markdown": found.text}).to_string()
            }
            None => "null".to_string(),
        }
    }

    /// The completions at UTF-16 offset `at`: `[{label, kind, detail, documentation,
    /// insert, from, to, sort}]`, `kind` as the language server maps it (`constant`,
    /// `property`, `value`, `enumMember`).
    pub fn editor_completions(&self, at: u32) -> String {
        let offset = self.byte(at);
        let items: Vec<Value> = self
            .document
            .completions(offset)
            .into_iter()
            .map(|item| {
                let (from, to) = self.units(&item.replace);
                json!({
                    "label": item.label,
                    "kind": completion_kind(item.kind),
                    "detail": item.detail,
                    "documentation": item.documentation,
                    "insert": item.insert,
                    "from": from,
                    "to": to,
                    "sort": item.sort,
                })
            })
            .collect();
        Value::Array(items).to_string()
    }

    /// The outline, as the language server gives it (a long line's moves in stretches),
    /// flattened: `[{name, detail, kind, from, to, selectionFrom, selectionTo, parent}]`,
    /// each after its parent (`parent` is the index of its parent in the list, or -1), so
    /// that no side has to recurse as deep as a game's variations go.
    pub fn editor_symbols(&self) -> String {
        let mut flat = Vec::new();
        let mut pending: Vec<(Symbol, i64)> = outline(self.document.symbols())
            .into_iter()
            .rev()
            .map(|symbol| (symbol, -1))
            .collect();
        while let Some((mut symbol, parent)) = pending.pop() {
            let children = std::mem::take(&mut symbol.children);
            let (from, to) = self.units(&symbol.range);
            let (selection_from, selection_to) = self.units(&symbol.selection);
            let index = flat.len() as i64;
            flat.push(json!({
                "name": symbol.name,
                "detail": symbol.detail,
                "kind": symbol_kind(symbol.kind),
                "from": from,
                "to": to,
                "selectionFrom": selection_from,
                "selectionTo": selection_to,
                "parent": parent,
            }));
            pending.extend(children.into_iter().rev().map(|child| (child, index)));
        }
        Value::Array(flat).to_string()
    }

    /// The folds: `[{start, end, kind}]` in lines (0-based), `kind` `region` or `comment`.
    pub fn editor_folds(&self) -> String {
        let folds: Vec<Value> = self
            .document
            .folds()
            .into_iter()
            .map(|fold| {
                json!({
                    "start": fold.start_line,
                    "end": fold.end_line,
                    "kind": match fold.kind {
                        FoldKind::Comment => "comment",
                        FoldKind::Region => "region",
                    },
                })
            })
            .collect();
        Value::Array(folds).to_string()
    }

    /// The document laid out as `ppn-ls fmt` lays it out, lines at most `line_width` wide
    /// where they can be cut: `{edits: [{from, to, text}]}`, or `{error}` saying why it is
    /// not formatted (it does not parse; ppn-ls has no layout for the notation).
    pub fn editor_format(&self, line_width: u32) -> String {
        let options = FormatOptions {
            line_width: line_width.max(1) as usize,
        };
        match format_document(&*self.document, &options) {
            Ok(formatted) => json!({"edits": self.edits_json(&formatted.edits)}).to_string(),
            Err(error) => json!({"error": error.to_string()}).to_string(),
        }
    }

    /// The picture of the board after the move under (or last before) UTF-16 offset `at`,
    /// as the language server's `ppn/render` answers: `{label, svg, game, state}`, or
    /// `null` outside every game.
    pub fn editor_render(&self, at: u32, flipped: bool) -> String {
        let options = SvgOptions {
            flip: flipped,
            ..SvgOptions::default()
        };
        match render_at(&*self.document, self.byte(at), &options) {
            Some(rendered) => json!({
                "label": rendered.label,
                "svg": rendered.svg,
                "game": rendered.state.game,
                "state": rendered.state.index,
            })
            .to_string(),
            None => "null".to_string(),
        }
    }

    /// The states of the game at UTF-16 offset `at`, as the language server's
    /// `ppn/gameLine` answers, with offsets for places: `{game, name, from, to, states,
    /// variations: [{name, from, states}], current}`, each state as `{label, text, comment,
    /// ref, cursor}` (`cursor` the offset that shows it); `null` outside every game.
    pub fn editor_game_line(&self, at: u32) -> String {
        let Some(line) = game_line_at(&*self.document, self.byte(at)) else {
            return "null".to_string();
        };
        let text = self.document.text();
        let stops = |stops: &[LineStop]| -> Vec<Value> {
            stops
                .iter()
                .map(|stop| {
                    json!({
                        "label": stop.label,
                        "text": stop.text,
                        "comment": stop.comment,
                        "ref": stop.state.index,
                        "cursor": self.offsets.unit(text, stop.cursor),
                    })
                })
                .collect()
        };
        let variations: Vec<Value> = line
            .variations
            .iter()
            .map(|variation| {
                json!({
                    "name": variation.name,
                    "from": variation.from.index,
                    "states": stops(&variation.stops),
                })
            })
            .collect();
        let (from, to) = self.units(&line.range);
        json!({
            "game": line.game,
            "name": line.name,
            "from": from,
            "to": to,
            "states": stops(&line.stops),
            "variations": variations,
            "current": line.current.index,
        })
        .to_string()
    }

    /// Where what is named at UTF-16 offset `at` is defined: `{from, to}`, or `null`.
    pub fn editor_definition(&self, at: u32) -> String {
        match self.document.definition(self.byte(at)) {
            Some(range) => {
                let (from, to) = self.units(&range);
                json!({"from": from, "to": to}).to_string()
            }
            None => "null".to_string(),
        }
    }

    /// Every use of what is named at UTF-16 offset `at` (its definition too if asked):
    /// `[{from, to}]`.
    pub fn editor_references(&self, at: u32, include_declaration: bool) -> String {
        let found = self.document.references(self.byte(at), include_declaration);
        let ranges: Vec<Value> = found
            .iter()
            .map(|range| {
                let (from, to) = self.units(range);
                json!({"from": from, "to": to})
            })
            .collect();
        Value::Array(ranges).to_string()
    }

    /// The name at UTF-16 offset `at` that a rename would change: `{from, to,
    /// placeholder}`, `null` where nothing is named, `{error}` where it cannot be renamed.
    pub fn editor_prepare_rename(&self, at: u32) -> String {
        match self.document.prepare_rename(self.byte(at)) {
            Ok(Some((range, placeholder))) => {
                let (from, to) = self.units(&range);
                json!({"from": from, "to": to, "placeholder": placeholder}).to_string()
            }
            Ok(None) => "null".to_string(),
            Err(error) => json!({"error": error}).to_string(),
        }
    }

    /// The edits that rename what is named at UTF-16 offset `at` to `new_name`: `{edits:
    /// [{from, to, text}]}`, or `{error}` saying why it cannot be renamed.
    pub fn editor_rename(&self, at: u32, new_name: &str) -> String {
        match self.document.rename(self.byte(at), new_name) {
            Ok(edits) => json!({"edits": self.edits_json(&edits)}).to_string(),
            Err(error) => json!({"error": error}).to_string(),
        }
    }

    /// The code lenses above each game ("Show board", "Animate"), as the language server
    /// gives them: `[{from, to, title, at, animate}]`, `at` the offset the board is shown
    /// from (for the editor's `ppn.showBoard`).
    pub fn editor_lenses(&self) -> String {
        let lenses: Vec<Value> = code_lenses(&*self.document)
            .into_iter()
            .map(|lens| {
                let (from, to) = self.units(&lens.range);
                json!({
                    "from": from,
                    "to": to,
                    "title": lens.title,
                    "at": self.offsets.unit(self.document.text(), lens.offset),
                    "animate": lens.animate,
                })
            })
            .collect();
        Value::Array(lenses).to_string()
    }

    /// The inlay hints whose place is in UTF-16 units `from..to`: `[{at, label, tooltip}]`.
    pub fn editor_inlay_hints(&self, from: u32, to: u32) -> String {
        let hints: Vec<Value> = self
            .document
            .inlay_hints(self.byte(from)..self.byte(to))
            .into_iter()
            .map(|hint| {
                json!({
                    "at": self.offsets.unit(self.document.text(), hint.offset),
                    "label": hint.label,
                    "tooltip": hint.tooltip,
                })
            })
            .collect();
        Value::Array(hints).to_string()
    }

    /// The text's length in UTF-16 code units (for checking that the editor and the
    /// session hold the same text).
    pub fn length(&self) -> u32 {
        let text = self.document.text();
        self.offsets.unit(text, text.len()) as u32
    }
}

impl Session {
    fn byte(&self, unit: u32) -> usize {
        self.offsets.byte(self.document.text(), unit as usize)
    }

    fn units(&self, range: &Range<usize>) -> (usize, usize) {
        let text = self.document.text();
        (
            self.offsets.unit(text, range.start),
            self.offsets.unit(text, range.end.max(range.start)),
        )
    }

    fn edits_json(&self, edits: &[(Range<usize>, String)]) -> Vec<Value> {
        edits
            .iter()
            .map(|(range, text)| {
                let (from, to) = self.units(range);
                json!({"from": from, "to": to, "text": text})
            })
            .collect()
    }
}

/// The completion kinds as the language server maps them to the protocol's.
fn completion_kind(kind: CompletionKind) -> &'static str {
    match kind {
        CompletionKind::Macro => "constant",
        CompletionKind::MetadataKey | CompletionKind::Key => "property",
        CompletionKind::Game | CompletionKind::Value => "value",
        CompletionKind::System | CompletionKind::Parser | CompletionKind::Code => "enumMember",
    }
}

fn symbol_kind(kind: SymbolKind) -> &'static str {
    match kind {
        SymbolKind::Game => "game",
        SymbolKind::Move => "move",
        SymbolKind::Variation => "variation",
        SymbolKind::Moves => "moves",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Value {
        serde_json::from_str(text).expect("JSON")
    }

    #[test]
    fn a_broken_ppn_file_has_diagnostics_in_utf16_units() {
        let mut session = Session::new();
        session.open_without_games(
            "game.ppn",
            "---\nGameType: Chess\n...\n1. é2-e4 ?!!\n".into(),
        );
        let diagnostics = parse(&session.editor_diagnostics(100));
        let all = diagnostics.as_array().expect("a list");
        assert!(!all.is_empty(), "{diagnostics}");
        assert!(all.iter().all(|d| d["from"].as_u64() <= d["to"].as_u64()));
        assert_eq!(session.length(), 37);
    }

    #[test]
    fn hover_completion_symbols_folds_format_and_the_board_panel_answer() {
        let mut session = Session::new();
        session.editor_open("game.ppn", "---\nGameType: Chess\n...\n1.  e2-e4\n".into());
        session.editor_edit(33, 33, "   e7-e5\n2. g1-f3");
        let text = "---\nGameType: Chess\n...\n1.  e2-e4   e7-e5\n2. g1-f3\n";
        assert_eq!(session.text(), text);
        let hover = parse(&session.editor_hover(text.find("e7").unwrap() as u32, false));
        assert!(
            hover["markdown"].as_str().unwrap().contains("Board"),
            "{hover}"
        );
        let completions = parse(&session.editor_completions(4));
        assert!(!completions.as_array().unwrap().is_empty(), "{completions}");
        let symbols = parse(&session.editor_symbols());
        assert_eq!(symbols[0]["parent"], -1);
        assert!(symbols.as_array().unwrap().len() > 1);
        assert!(parse(&session.editor_folds()).is_array());
        let format = parse(&session.editor_format(80));
        assert!(!format["edits"].as_array().unwrap().is_empty(), "{format}");
        let render = parse(&session.editor_render(text.len() as u32 - 2, false));
        assert!(render["svg"].as_str().unwrap().contains("<svg"));
        let macros =
            "---\nGameType: Tablut\nMacros:\n  opening: a4-a3\n...\n1. `opening' 1... c5-c3\n";
        let mut named = Session::new();
        named.editor_open("macros.ppn", macros.into());
        let use_at = macros.find("`opening").unwrap() as u32 + 2;
        let definition = parse(&named.editor_definition(use_at));
        assert_eq!(definition["from"], macros.find("opening:").unwrap());
        let references = parse(&named.editor_references(use_at, true));
        assert_eq!(references.as_array().unwrap().len(), 2, "{references}");
        let prepared = parse(&named.editor_prepare_rename(use_at));
        assert_eq!(prepared["placeholder"], "opening");
        let renamed = parse(&named.editor_rename(use_at, "start"));
        assert_eq!(renamed["edits"].as_array().unwrap().len(), 2, "{renamed}");
        let lenses = parse(&session.editor_lenses());
        assert_eq!(lenses.as_array().unwrap().len(), 2, "{lenses}");
        assert_eq!(lenses[1]["title"], "Animate");
        assert!(parse(&session.editor_inlay_hints(0, text.len() as u32)).is_array());
        let line = parse(&session.editor_game_line(text.len() as u32 - 2));
        assert_eq!(line["current"], render["state"]);
        assert!(line["states"].as_array().unwrap().len() >= 3);
    }

    #[test]
    fn a_diagram_has_no_layout_and_says_so() {
        let mut session = Session::new();
        session.open_without_games(
            "start.fen",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".into(),
        );
        let format = parse(&session.editor_format(80));
        assert!(format["error"].as_str().unwrap().contains("not formatted"));
    }
}
