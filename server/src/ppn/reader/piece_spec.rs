//! PieceSpec: the text that describes a piece, e.g. `t`, `Aa>`, `cC3b^`, `♛`, `🁐v` or
//! `t,s2,r3,a90,dominoes_red'`.
//!
//! Reading one happens in two stages, as the spec describes: first only what the text states
//! ([`StatedFeatures`], used by searches and `~`), then every assumption filled in
//! ([`PieceTemplate`], used by drops and `=`).

use crate::model::piece::{Cfg, PieceKind, Side, MAX_CFG_NAME_LEN, MAX_EXTRA_CFGS};
use crate::ppn::reader::find_ascii;
use crate::ppn::reader::issue::Issue;

/// Settings that the alternative movetext parsers (`MovetextParser: Marble`, ...) change.
#[derive(Clone, Debug, PartialEq)]
pub struct ParserOptions {
    /// Configuration of a coloured bit that names no `s`, `c` or `m` (e.g. `R●`).
    pub default_colored_bit_cfg: Option<Cfg>,
    pub default_checker_cfg: Cfg,
    pub default_chess_cfg: Cfg,
}

impl Default for ParserOptions {
    fn default() -> Self {
        ParserOptions {
            default_colored_bit_cfg: None,
            default_checker_cfg: Cfg::new("checkers2"),
            default_chess_cfg: Cfg::new("chess2"),
        }
    }
}

impl ParserOptions {
    /// The options of a `MovetextParser` by name (`Default`, `Marble`, `Checker`, ...);
    /// `cell_width` is the optional argument of the checker and chess parsers.
    /// `None` for a parser this crate does not know.
    pub fn for_parser(name: &str, cell_width: Option<u32>) -> Option<Self> {
        let normalized: String = name
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| *c != '\'' && *c != '-')
            .map(|c| if c.is_whitespace() { '_' } else { c })
            .collect();
        let colored = |cfg: &str| ParserOptions {
            default_colored_bit_cfg: Some(Cfg::new(cfg)),
            ..ParserOptions::default()
        };
        match normalized.as_str() {
            "default" | "piecepack" | "domino" => Some(ParserOptions::default()),
            "alquerque" => Some(colored("alquerque")),
            "go" => Some(colored("go")),
            "marble" | "marbles" => Some(colored("marbles")),
            "morris" => Some(colored("morris")),
            "tarot" => Some(colored("playing_cards_tarot")),
            "checker" | "checkers" | "chess" => {
                let width = cell_width.unwrap_or(2);
                Some(ParserOptions {
                    default_colored_bit_cfg: None,
                    default_checker_cfg: Cfg::new(&format!("checkers{width}")),
                    default_chess_cfg: Cfg::new(&format!("chess{width}")),
                })
            }
            _ => None,
        }
    }
}

/// What a PieceSpec states explicitly. Suit and rank are the internal 1-based integers
/// *before* the adjustment of configurations whose ranks start at one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StatedFeatures {
    pub kind: Option<PieceKind>,
    pub side: Option<Side>,
    pub suit: Option<i32>,
    pub rank: Option<i32>,
    pub angle: Option<f64>,
    pub cfg: Option<Cfg>,
}

impl StatedFeatures {
    pub fn is_empty(&self) -> bool {
        self.kind.is_none()
            && self.side.is_none()
            && self.suit.is_none()
            && self.rank.is_none()
            && self.angle.is_none()
            && self.cfg.is_none()
    }
}

/// A piece with every assumption made, but no position yet.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceTemplate {
    pub kind: PieceKind,
    pub side: Side,
    pub suit: i32,
    pub rank: i32,
    pub cfg: Cfg,
    pub angle: f64,
}

/// A parsed PieceSpec.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceSpec {
    pub stated: StatedFeatures,
    /// Set when the suit only comes from a glyph's default colour (a white die for `⚅`), so
    /// that `~⚅` can warn that it also turns the die white.
    pub suit_is_glyph_default: bool,
    /// What the simple part, once glyphs and aliases were rewritten to letters, holds:
    /// the input of the assumptions.
    letters: Letters,
    /// Warnings with ranges relative to the PieceSpec text.
    pub warnings: Vec<Issue>,
    len: usize,
}

/// Ranks that the configuration counts from one rather than from zero.
pub fn ranks_start_at_one(cfg: &str) -> bool {
    matches!(
        cfg,
        "checkers1"
            | "checkers2"
            | "chess1"
            | "chess2"
            | "go"
            | "dice"
            | "icehouse_pieces"
            | "playing_cards"
            | "playing_cards_colored"
            | "playing_cards_tarot"
    )
}

const PYRAMID: char = '\u{25b2}';
const CARD_BACK: char = '\u{1f0a0}';
const BIT: char = '\u{25cf}';
const BOARD: char = '\u{25a0}';
const HEXPACK: char = '\u{2b22}';

/// Whether a byte is a colour letter. They are ASCII: a byte equal to one is that letter.
fn is_color_letter(byte: u8) -> bool {
    matches!(byte, b'R' | b'K' | b'G' | b'B' | b'Y' | b'W')
}

fn has_color(text: &str) -> bool {
    text.bytes().any(is_color_letter)
}

fn color_name(letter: char) -> &'static str {
    match letter {
        'R' => "red",
        'K' => "black",
        'G' => "green",
        'B' => "blue",
        'Y' => "yellow",
        _ => "white",
    }
}

fn die_value(c: char) -> Option<i32> {
    let code = c as u32;
    (0x2680..=0x2685)
        .contains(&code)
        .then(|| (code - 0x2680) as i32 + 1)
}

/// (suit, rank) of a playing-card glyph; the card back has neither.
fn card_suit_rank(c: char) -> Option<(Option<i32>, Option<i32>)> {
    let code = c as u32;
    let suited = |base: u32, suit: i32| -> Option<(Option<i32>, Option<i32>)> {
        (base..base + 14)
            .contains(&code)
            .then(|| (Some(suit), Some((code - base) as i32 + 1)))
    };
    suited(0x1f0a1, 2)
        .or_else(|| suited(0x1f0b1, 1))
        .or_else(|| suited(0x1f0c1, 4))
        .or_else(|| suited(0x1f0d1, 3))
        .or(match code {
            0x1f0a0 => Some((None, None)),
            0x1f0bf => Some((Some(4), Some(15))),
            0x1f0cf => Some((Some(2), Some(15))),
            0x1f0df => Some((Some(1), Some(15))),
            0x1f0e0 => Some((Some(5), Some(22))),
            0x1f0e1..=0x1f0f5 => Some((Some(5), Some((code - 0x1f0e0) as i32))),
            _ => None,
        })
}

const WHITE_CHESS: i32 = 6;
const BLACK_CHESS: i32 = 2;
const NEUTRAL_CHESS: i32 = 1;

/// The chess glyphs' sets, each counting down from its pawn: pawn, knight, bishop, rook,
/// queen, king; with their suit and angle.
const CHESS_SETS: [(u32, i32, f64); 12] = [
    (0x2659, WHITE_CHESS, 0.0),
    (0x265f, BLACK_CHESS, 0.0),
    (0x1fa05, NEUTRAL_CHESS, 0.0),
    (0x1fa0e, WHITE_CHESS, 270.0),
    (0x1fa14, BLACK_CHESS, 270.0),
    (0x1fa1a, NEUTRAL_CHESS, 270.0),
    (0x1fa23, WHITE_CHESS, 180.0),
    (0x1fa29, BLACK_CHESS, 180.0),
    (0x1fa2f, NEUTRAL_CHESS, 180.0),
    (0x1fa38, WHITE_CHESS, 90.0),
    (0x1fa3e, BLACK_CHESS, 90.0),
    (0x1fa44, NEUTRAL_CHESS, 90.0),
];

/// Knights turned by odd multiples of 45 degrees, each white, black and neutral.
const TURNED_KNIGHTS: [(u32, f64); 4] = [
    (0x1fa06, 315.0),
    (0x1fa1b, 225.0),
    (0x1fa30, 135.0),
    (0x1fa45, 45.0),
];

/// (suit, rank, angle) of a chess glyph, including the rotated ones of U+1FA00.
fn chess_glyph(c: char) -> Option<(i32, i32, f64)> {
    let code = c as u32;
    // Most characters asked about are no chess glyph: the two blocks rule them out.
    if !matches!(code, 0x2654..=0x265f | 0x1fa00..=0x1fa47) {
        return None;
    }
    // By reference: a loop over the constant by value copies the whole table each call.
    for &(pawn, suit, angle) in &CHESS_SETS {
        if code <= pawn && code + 5 >= pawn {
            return Some((suit, (pawn - code) as i32 + 1, angle));
        }
    }
    for &(first, angle) in &TURNED_KNIGHTS {
        if (first..first + 3).contains(&code) {
            let suit = [WHITE_CHESS, BLACK_CHESS, NEUTRAL_CHESS][(code - first) as usize];
            return Some((suit, 2, angle));
        }
    }
    None
}

/// Domino glyphs: (zero-based rank, zero-based suit, angle); backs have no rank or suit.
fn domino_glyph(c: char) -> Option<(Option<i32>, Option<i32>, f64)> {
    let code = c as u32;
    if !(0x1f030..=0x1f093).contains(&code) {
        return None;
    }
    let index = code - 0x1f030;
    let (within, vertical) = if index < 50 {
        (index, false)
    } else {
        (index - 50, true)
    };
    let turn = if vertical { -90.0 } else { 0.0 };
    if within == 0 {
        return Some((None, None, 90.0 + turn));
    }
    // The 49 faces run through the halves (a, b) with a the first half 0..=6 and b 0..=6;
    // the rank is the smaller half, the suit the larger, and the tile is turned half
    // around (270 rather than 90) when the first half is the larger one.
    let face = within - 1;
    let first = (face / 7) as i32;
    let second = (face % 7) as i32;
    let angle = if first > second { 270.0 } else { 90.0 };
    Some((
        Some(first.min(second)),
        Some(first.max(second)),
        angle + turn,
    ))
}

fn is_known_glyph(c: char) -> bool {
    matches!(
        c,
        'µ' | 'μ' | '\u{25cb}' | BIT | PYRAMID | BOARD | '\u{25a6}' | HEXPACK | '\u{26c0}'
            ..='\u{26c3}' | '♥' | '♠' | '♣' | '♦' | '♡' | '♤' | '♧' | '♢'
    ) || die_value(c).is_some()
        || card_suit_rank(c).is_some()
        || chess_glyph(c).is_some()
        || domino_glyph(c).is_some()
}

const KNOWN_ASCII: &str = "tcdpmsfblrxnaSMCARKGBYWuv^<>0123456789";
const KNOWN_SEQUENCES: [&str; 5] = ["/\\", "[]", "()", "[X]", "[#]"];

/// Bit `c` is set for the characters of [`KNOWN_ASCII`].
const KNOWN_ASCII_SET: u128 = {
    let mut set = 0u128;
    let mut i = 0;
    while i < KNOWN_ASCII.len() {
        set |= 1 << KNOWN_ASCII.as_bytes()[i];
        i += 1;
    }
    set
};

/// Ranges of characters that mean nothing in the simple part of a PieceSpec.
fn unknown_ranges(simple: &str) -> Vec<std::ops::Range<usize>> {
    let mut ranges: Vec<std::ops::Range<usize>> = Vec::new();
    let mut pos = 0;
    while pos < simple.len() {
        let rest = &simple[pos..];
        // Every known sequence starts with `/`, `[` or `(`: only those need comparing.
        if rest.starts_with(['/', '[', '(']) {
            if let Some(seq) = KNOWN_SEQUENCES.iter().find(|s| rest.starts_with(**s)) {
                pos += seq.len();
                continue;
            }
        }
        let Some(c) = rest.chars().next() else { break };
        let width = c.len_utf8();
        let known = if c.is_ascii() {
            KNOWN_ASCII_SET & (1 << (c as u32)) != 0
        } else {
            is_known_glyph(c)
        };
        if !known {
            match ranges.last_mut() {
                Some(last) if last.end == pos => last.end = pos + width,
                _ => ranges.push(pos..pos + width),
            }
        }
        pos += width;
    }
    ranges
}

fn replace_first_glyph<F, T>(text: &str, probe: F) -> Option<(char, T)>
where
    F: Fn(char) -> Option<T>,
{
    text.chars().find_map(|c| probe(c).map(|v| (c, v)))
}

/// Parse a PieceSpec. Never fails: what cannot be read becomes a warning (the reference
/// ignores it too), so that the board stays the same as the reference's.
pub fn parse_piece_spec(text: &str, options: &ParserOptions) -> PieceSpec {
    let mut warnings = Vec::new();
    let (simple_raw, complex) = match find_ascii(text, b',') {
        Some(comma) => (&text[..comma], Some(comma)),
        None => (text, None),
    };

    let mut angle: Option<f64> = None;
    let mut rank: Option<i32> = None;
    let mut suit: Option<i32> = None;
    let mut cfg: Option<Cfg> = None;
    if let Some(comma) = complex {
        let mut start = comma + 1;
        for element in text[comma + 1..].split(',') {
            let range = start..start + element.len();
            start += element.len() + 1;
            let bytes = element.as_bytes();
            let digit_after = |skip: usize| bytes.get(skip).is_some_and(u8::is_ascii_digit);
            let skip_minus = bytes.iter().skip(1).take_while(|b| **b == b'-').count();
            if element.starts_with('a') && digit_after(1 + skip_minus) {
                if angle.is_none() {
                    match element[1..].parse::<f64>() {
                        Ok(value) => angle = Some(value.rem_euclid(360.0)),
                        Err(_) => warnings.push(Issue::warning(
                            range,
                            "unknown-piece",
                            format!("`{element}` is not an angle; it is ignored"),
                        )),
                    }
                }
            } else if (element.starts_with('r') || element.starts_with('s')) && digit_after(1) {
                let slot = if element.starts_with('r') {
                    &mut rank
                } else {
                    &mut suit
                };
                if slot.is_none() {
                    match element[1..].parse::<i32>() {
                        Ok(value) => *slot = Some(value.saturating_add(1)),
                        Err(_) => warnings.push(Issue::warning(
                            range,
                            "unknown-piece",
                            format!("`{element}` is not a whole number; it is ignored"),
                        )),
                    }
                }
            } else if let Some(name) = element.strip_suffix('\'') {
                if !Cfg::reference_knows(name) {
                    warnings.push(Issue::warning(
                        range.clone(),
                        "unknown-configuration",
                        format!("`{name}` is not a configuration this program knows"),
                    ));
                }
                if cfg.is_none() {
                    match Cfg::intern(name) {
                        Some(named) => cfg = Some(named),
                        None => warnings.push(Issue::warning(
                            range,
                            "too-many-configurations",
                            format!(
                                "`{name}` is ignored: configuration names are at most \
                                 {MAX_CFG_NAME_LEN} bytes, and a session keeps at most \
                                 {MAX_EXTRA_CFGS} unknown ones"
                            ),
                        )),
                    }
                }
            } else {
                warnings.push(Issue::warning(
                    range,
                    "unknown-piece",
                    format!(
                        "`,{element}` is not `,aN`, `,sN`, `,rN` or `,configuration'`; it is ignored"
                    ),
                ));
            }
        }
    }

    for range in unknown_ranges(simple_raw) {
        let chars = &simple_raw[range.clone()];
        warnings.push(Issue::warning(
            range,
            "unknown-piece",
            format!("`{chars}` does not describe a piece; it is ignored"),
        ));
    }

    // Every glyph and every sequence rewritten below holds a non-ASCII character, `/`, `[`
    // or `(`: the usual ASCII spec only has `n` and `a` to rewrite.
    let plain = simple_raw
        .bytes()
        .all(|byte| byte.is_ascii() && !matches!(byte, b'/' | b'[' | b'('));
    let mut suit_is_glyph_default = false;
    let letters = if plain {
        Letters::of_plain(simple_raw)
    } else {
        Letters::of(&rewrite_glyphs(
            simple_raw,
            options,
            GlyphFeatures {
                angle: &mut angle,
                rank: &mut rank,
                suit: &mut suit,
                cfg: &mut cfg,
                suit_is_glyph_default: &mut suit_is_glyph_default,
            },
        ))
    };

    let mut stated = simple_features(&letters);
    if let Some(extra) = angle {
        stated.angle = Some(match stated.angle {
            Some(a) => (a + extra).rem_euclid(360.0),
            None => extra,
        });
    }
    if rank.is_some() {
        stated.rank = rank;
    }
    if suit.is_some() {
        stated.suit = suit;
    }
    if cfg.is_some() {
        stated.cfg = cfg;
    }
    PieceSpec {
        stated,
        suit_is_glyph_default: suit_is_glyph_default && suit.is_none(),
        letters,
        warnings,
        len: text.len(),
    }
}

/// The aliases of a PieceSpec's simple part rewritten: `µ` and `μ` as `u`, `/\` as `▲`,
/// `[]` as `🂠`, `()` as `●`, `○` as `W●`, `[X]` as `■`, `n` as `0` and `a` as `1`. One
/// pass gives what replacing each in turn gives: no replacement writes a character that
/// another one looks for, and no two of them can overlap.
fn rewrite_aliases(simple_raw: &str) -> String {
    const SEQUENCES: [(&str, char); 4] = [
        ("/\\", PYRAMID),
        ("[]", CARD_BACK),
        ("()", BIT),
        ("[X]", BOARD),
    ];
    let mut x = String::with_capacity(simple_raw.len() + 8);
    let mut rest = simple_raw;
    while let Some(c) = rest.chars().next() {
        // Every sequence starts with `/`, `[` or `(`: only those need comparing.
        let sequence = if matches!(c, '/' | '[' | '(') {
            SEQUENCES.iter().find(|(s, _)| rest.starts_with(s))
        } else {
            None
        };
        if let Some((sequence, glyph)) = sequence {
            x.push(*glyph);
            rest = &rest[sequence.len()..];
            continue;
        }
        match c {
            'µ' | 'μ' => x.push('u'),
            '\u{25cb}' => {
                x.push('W');
                x.push(BIT);
            }
            'n' => x.push('0'),
            'a' => x.push('1'),
            c => x.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    x
}

/// What the glyphs of a PieceSpec state besides its letters.
struct GlyphFeatures<'a> {
    angle: &'a mut Option<f64>,
    rank: &'a mut Option<i32>,
    suit: &'a mut Option<i32>,
    cfg: &'a mut Option<Cfg>,
    suit_is_glyph_default: &'a mut bool,
}

/// The simple part of a PieceSpec with its glyphs and aliases rewritten to letters.
fn rewrite_glyphs(
    simple_raw: &str,
    options: &ParserOptions,
    features: GlyphFeatures<'_>,
) -> String {
    let GlyphFeatures {
        angle,
        rank,
        suit,
        cfg,
        suit_is_glyph_default,
    } = features;
    let mut x = rewrite_aliases(simple_raw);
    let kinds = GlyphKinds::of(&x);

    // Checkers men, then kings: a colour letter overrides the glyph's own colour.
    if kinds.checkers {
        for (black, white, replacement) in [
            ('\u{26c2}', '\u{26c0}', "c"),
            ('\u{26c3}', '\u{26c1}', "cf"),
        ] {
            if x.contains([black, white]) && has_color(&x) {
                x = x.replace([black, white], replacement);
            } else if x.contains(black) {
                x = x.replace(black, &format!("K{replacement}"));
            } else if x.contains(white) {
                x = x.replace(white, &format!("W{replacement}"));
            }
        }
    }

    if kinds.go_board && (x.contains("[#]") || x.contains('\u{25a6}')) {
        let board = if has_color(&x) {
            BOARD.to_string()
        } else {
            format!("K{BOARD}")
        };
        x = x.replace("[#]", &board).replace('\u{25a6}', &board);
        *cfg = Some(Cfg::new("go"));
    }

    if let Some((glyph, value)) = kinds
        .die
        .then(|| replace_first_glyph(&x, die_value))
        .flatten()
    {
        *rank = Some(value + 1);
        if has_color(&x) {
            x = x.replace(glyph, "d");
        } else {
            x = x.replace(glyph, "Wd");
            *suit_is_glyph_default = true;
        }
    }

    if let Some((glyph, (card_suit, card_rank))) = kinds
        .card
        .then(|| replace_first_glyph(&x, card_suit_rank))
        .flatten()
    {
        *rank = card_rank.map(|r| r + 1);
        *suit = card_suit;
        x = x.replace(glyph, &CARD_BACK.to_string());
    }

    if let Some((glyph, (glyph_suit, glyph_rank, glyph_angle))) = kinds
        .chess
        .then(|| replace_first_glyph(&x, chess_glyph))
        .flatten()
    {
        *rank = Some(glyph_rank + 1);
        if !has_color(&x) {
            *suit = Some(glyph_suit);
        }
        *angle = Some(match *angle {
            Some(a) => (a + glyph_angle).rem_euclid(360.0),
            None => glyph_angle,
        });
        *cfg = Some(options.default_chess_cfg);
        let bit = if x.contains('b') {
            BIT.to_string()
        } else {
            format!("f{BIT}")
        };
        x = x.replace(glyph, &bit);
    }

    if let Some((glyph, (tile_rank, tile_suit, tile_angle))) = kinds
        .domino
        .then(|| replace_first_glyph(&x, domino_glyph))
        .flatten()
    {
        let is_back = tile_rank.is_none();
        x = x.replace(glyph, if is_back { "b" } else { "" });
        *rank = tile_rank.map(|r| r + 1);
        *suit = tile_suit.map(|s| s + 1);
        *angle = Some(match *angle {
            Some(a) => (a + tile_angle).rem_euclid(360.0),
            None => tile_angle,
        });
        if let Some(color) = x
            .bytes()
            .find(|&byte| is_color_letter(byte))
            .map(char::from)
        {
            x = x.replace(color, "");
            if cfg.is_none() {
                *cfg = Some(Cfg::new(&format!("dominoes_{}", color_name(color))));
            }
        } else if cfg.is_none() {
            *cfg = Some(Cfg::new("dominoes"));
        }
    }

    x
}

/// Which kinds of glyph the simple part of a PieceSpec holds, found in one pass: each
/// kind's rewriting searches and copies the text, and most specs hold no glyph at all.
/// The rewriting of one kind writes no glyph of a kind rewritten after it.
#[derive(Default)]
struct GlyphKinds {
    checkers: bool,
    go_board: bool,
    die: bool,
    card: bool,
    chess: bool,
    domino: bool,
}

impl GlyphKinds {
    fn of(x: &str) -> GlyphKinds {
        let mut kinds = GlyphKinds::default();
        for c in x.chars() {
            match c {
                '\u{26c0}'..='\u{26c3}' => kinds.checkers = true,
                // `[#]` is looked for only where there is a `#`.
                '#' | '\u{25a6}' => kinds.go_board = true,
                c if c.is_ascii() => {}
                c if die_value(c).is_some() => kinds.die = true,
                c if card_suit_rank(c).is_some() => kinds.card = true,
                c if chess_glyph(c).is_some() => kinds.chess = true,
                c if domino_glyph(c).is_some() => kinds.domino = true,
                _ => {}
            }
        }
        kinds
    }
}

/// The characters of a normalized PieceSpec that say something, read in one pass: the
/// features are then looked up without searching the text again for each one.
#[derive(Clone, Debug, PartialEq)]
struct Letters {
    ascii: u128,
    /// Bit `i`: the text holds `GLYPHS[i]`.
    glyphs: u16,
    first_digit: Option<u8>,
    /// The first of the colour letters ([`is_color_letter`]).
    first_color: Option<u8>,
    /// The first of `s`, `m` and `c`, which make a coloured bit a stone, a meeple or a
    /// checker.
    first_bit_letter: Option<u8>,
}

impl Letters {
    const GLYPHS: [char; 13] = [
        '♥', '♡', '♠', '♤', '♣', '♧', '♦', '♢', CARD_BACK, PYRAMID, BIT, BOARD, HEXPACK,
    ];

    fn of(x: &str) -> Letters {
        let mut letters = Letters::none();
        for c in x.chars() {
            if c.is_ascii() {
                letters.add_ascii(c as u8);
            } else if let Some(i) = Letters::GLYPHS.iter().position(|&g| g == c) {
                letters.glyphs |= 1 << i;
            }
        }
        letters
    }

    /// The letters of an ASCII simple part with nothing to rewrite but `n` and `a` (the
    /// ranks zero and one), read without writing the rewritten text.
    fn of_plain(simple: &str) -> Letters {
        let mut letters = Letters::none();
        for byte in simple.bytes() {
            letters.add_ascii(match byte {
                b'n' => b'0',
                b'a' => b'1',
                byte => byte,
            });
        }
        letters
    }

    fn none() -> Letters {
        Letters {
            ascii: 0,
            glyphs: 0,
            first_digit: None,
            first_color: None,
            first_bit_letter: None,
        }
    }

    fn add_ascii(&mut self, byte: u8) {
        self.ascii |= 1 << byte;
        if byte.is_ascii_digit() && self.first_digit.is_none() {
            self.first_digit = Some(byte - b'0');
        }
        if is_color_letter(byte) && self.first_color.is_none() {
            self.first_color = Some(byte);
        }
        if matches!(byte, b's' | b'm' | b'c') && self.first_bit_letter.is_none() {
            self.first_bit_letter = Some(byte);
        }
    }

    fn has(&self, chars: &CharSet) -> bool {
        self.ascii & chars.ascii != 0 || self.glyphs & chars.glyphs != 0
    }
}

/// Characters asked about together, as the masks of [`Letters`]: one test answers whether
/// a text holds any of them.
struct CharSet {
    ascii: u128,
    glyphs: u16,
}

impl CharSet {
    const fn of(chars: &[char]) -> CharSet {
        let mut set = CharSet {
            ascii: 0,
            glyphs: 0,
        };
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c.is_ascii() {
                set.ascii |= 1 << (c as u32);
            } else {
                let mut g = 0;
                while Letters::GLYPHS[g] != c {
                    // Past the end, the index panics: a glyph outside the table is a
                    // mistake in this file, caught when it is compiled.
                    g += 1;
                }
                set.glyphs |= 1 << g;
            }
            i += 1;
        }
        set
    }
}

fn simple_features(letters: &Letters) -> StatedFeatures {
    // Each set of characters is made once, when this file is compiled.
    macro_rules! has {
        ($($c:expr),+) => {
            letters.has(&const { CharSet::of(&[$($c),+]) })
        };
    }
    let suit = if has!('S', '♥', 'R', '♡') {
        Some(1)
    } else if has!('M', '♠', 'K', '♤') {
        Some(2)
    } else if has!('C', '♣', 'G', '♧') {
        Some(3)
    } else if has!('A', '♦', 'B', '♢') {
        Some(4)
    } else if has!('Y') {
        Some(5)
    } else if has!('W') {
        Some(6)
    } else {
        None
    };
    let rank = letters.first_digit.map(|d| i32::from(d) + 1);
    let angle = if has!('^') {
        Some(0.0)
    } else if has!('<') {
        Some(90.0)
    } else if has!('v') {
        Some(180.0)
    } else if has!('>') {
        Some(270.0)
    } else {
        None
    };
    let colored = letters.first_color.is_some();
    let kind = if has!('t') {
        Some(PieceKind::Tile)
    } else if has!('c') {
        Some(if colored {
            PieceKind::Bit
        } else {
            PieceKind::Coin
        })
    } else if has!('d') {
        Some(PieceKind::Die)
    } else if has!('p') {
        Some(PieceKind::Pawn)
    } else if has!('m') {
        Some(if colored {
            PieceKind::Bit
        } else {
            PieceKind::Matchstick
        })
    } else if has!('s') {
        Some(if colored {
            PieceKind::Bit
        } else {
            PieceKind::Saucer
        })
    } else if has!(CARD_BACK) {
        Some(PieceKind::Card)
    } else if has!(PYRAMID) {
        Some(PieceKind::Pyramid)
    } else if has!(BIT) {
        Some(PieceKind::Bit)
    } else if has!(BOARD) {
        Some(PieceKind::Board)
    } else {
        None
    };
    let side = if has!('f') {
        Some(Side::Face)
    } else if has!('b') {
        Some(Side::Back)
    } else if has!('l') {
        Some(Side::Left)
    } else if has!('r') {
        Some(Side::Right)
    } else if has!('x') {
        Some(Side::Top)
    } else {
        None
    };
    let cfg = if has!('♥', '♠', '♣', '♦') {
        Some(Cfg::new("playing_cards_expansion"))
    } else if has!('♡', '♤', '♧', '♢') {
        Some(Cfg::new("dual_piecepacks_expansion"))
    } else if has!(HEXPACK) {
        Some(Cfg::new("hexpack"))
    } else {
        None
    };
    StatedFeatures {
        kind,
        side,
        suit,
        rank,
        angle,
        cfg,
    }
}

impl PieceSpec {
    /// Every assumption of the spec made: the piece a drop or `=` creates. Warnings (where
    /// the reference implementation would read the spec differently) are appended to
    /// `notes`; ranges are relative to the PieceSpec text.
    pub fn complete(
        &self,
        options: &ParserOptions,
        notes: &mut Vec<Issue>,
    ) -> Result<PieceTemplate, Issue> {
        let whole = 0..self.len;
        let stated = &self.stated;
        let letters = &self.letters;
        let colored = letters.first_color.is_some();
        let kind = match stated.kind {
            Some(kind) => kind,
            None if matches!(stated.side, Some(Side::Left | Side::Right | Side::Top)) => {
                PieceKind::Pyramid
            }
            None if colored => PieceKind::Bit,
            None if stated.suit.is_some() == stated.rank.is_some() => PieceKind::Tile,
            None => PieceKind::Coin,
        };
        let cfg: Cfg = match &stated.cfg {
            Some(cfg) => *cfg,
            None if colored => match kind {
                PieceKind::Bit => match letters.first_bit_letter {
                    Some(b's') => Cfg::new("go"),
                    Some(b'c') => options.default_checker_cfg,
                    Some(_) => Cfg::new("meeples"),
                    None => match &options.default_colored_bit_cfg {
                        Some(cfg) => *cfg,
                        None => {
                            notes.push(Issue::warning(
                                whole.clone(),
                                "reference-differs",
                                "a coloured bit is a go stone; the reference implementation \
                                 rejects it with this parser",
                            ));
                            Cfg::new("go")
                        }
                    },
                },
                PieceKind::Die => Cfg::new("dice"),
                PieceKind::Pyramid => Cfg::new("icehouse_pieces"),
                PieceKind::Tile => {
                    let color = letters.first_color.map_or('W', char::from);
                    Cfg::new(&format!("dominoes_{}", color_name(color)))
                }
                PieceKind::Board => {
                    notes.push(Issue::warning(
                        whole.clone(),
                        "reference-differs",
                        "a coloured board is a checkers board; the reference implementation \
                         rejects it",
                    ));
                    options.default_checker_cfg
                }
                other => {
                    return Err(Issue::error(
                        whole,
                        "unknown-piece",
                        format!("no game system has a coloured {}", other.name()),
                    ))
                }
            },
            None => match kind {
                PieceKind::Card => Cfg::new("playing_cards_tarot"),
                PieceKind::Bit => Cfg::new("go"),
                PieceKind::Board => options.default_checker_cfg,
                PieceKind::Pyramid => {
                    if stated.suit.is_none() {
                        notes.push(Issue::warning(
                            whole.clone(),
                            "assumed-piece",
                            "a pyramid with neither a colour nor a suit is taken to be a \
                             piecepack pyramid of Suns; write a colour (`R▲`) for an Icehouse \
                             pyramid or a suit (`S▲`) to say so",
                        ));
                    }
                    Cfg::piecepack()
                }
                _ => Cfg::piecepack(),
            },
        };
        let cfg: Cfg = if letters.has(&const { CharSet::of(&['u']) }) {
            match &*cfg {
                "chess1" | "chess2" => Cfg::new("chess1"),
                "checkers1" | "checkers2" => Cfg::new("checkers1"),
                "piecepack" => Cfg::new("subpack"),
                other => {
                    return Err(Issue::error(
                        whole,
                        "unknown-piece",
                        format!("there is no miniature version of `{other}` pieces"),
                    ))
                }
            }
        } else {
            cfg
        };
        let side = stated.side.unwrap_or(match kind {
            PieceKind::Tile | PieceKind::Card => {
                if stated.suit.is_none() || stated.rank.is_none() {
                    Side::Back
                } else {
                    Side::Face
                }
            }
            PieceKind::Coin | PieceKind::Saucer => {
                if stated.suit.is_none() {
                    Side::Face
                } else {
                    Side::Back
                }
            }
            PieceKind::Pyramid => Side::Top,
            PieceKind::Bit => Side::Back,
            _ => Side::Face,
        });
        // The name is looked up once: each look-up takes the table's lock.
        let cfg_name: &str = &cfg;
        let suit = stated.suit.unwrap_or(match cfg_name {
            "go" => 2,
            "checkers1" | "checkers2" => 3,
            "dice" => 6,
            _ => 1,
        });
        let rank = match stated.rank {
            None => match (kind, cfg_name) {
                (PieceKind::Board, "go") => 19,
                (PieceKind::Board, "marbles") => 4,
                (PieceKind::Board, _) => 8,
                (PieceKind::Bit, "marbles") => 9,
                _ => 1,
            },
            Some(rank) if ranks_start_at_one(cfg_name) => rank - 1,
            Some(rank) => rank,
        };
        Ok(PieceTemplate {
            kind,
            side,
            suit,
            rank,
            cfg,
            angle: stated.angle.unwrap_or(0.0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_are_rewritten_in_one_pass_as_in_turn() {
        let in_turn = |text: &str| {
            text.replace(['µ', 'μ'], "u")
                .replace("/\\", &PYRAMID.to_string())
                .replace("[]", &CARD_BACK.to_string())
                .replace("()", &BIT.to_string())
                .replace('\u{25cb}', &format!("W{BIT}"))
                .replace("[X]", &BOARD.to_string())
                .replace('n', "0")
                .replace('a', "1")
        };
        for text in [
            "",
            "Sa",
            "µna○[X]()",
            "[[]X]",
            "[X[]",
            "/\\/\\",
            "[X]]",
            "(()",
            "n[]a",
            "W○b/\\",
            "[#]",
            "μ♥[]",
        ] {
            assert_eq!(rewrite_aliases(text), in_turn(text), "{text}");
        }
    }

    fn template(text: &str) -> PieceTemplate {
        let spec = parse_piece_spec(text, &ParserOptions::default());
        spec.complete(&ParserOptions::default(), &mut Vec::new())
            .expect(text)
    }

    fn summary(text: &str) -> (String, i32, i32, String, f64) {
        let t = template(text);
        (
            format!("{}_{}", t.kind.name(), t.side.name()),
            t.suit,
            t.rank,
            t.cfg.to_string(),
            t.angle,
        )
    }

    fn s(
        piece_side: &str,
        suit: i32,
        rank: i32,
        cfg: &str,
        angle: f64,
    ) -> (String, i32, i32, String, f64) {
        (piece_side.to_string(), suit, rank, cfg.to_string(), angle)
    }

    #[test]
    fn spec_examples() {
        assert_eq!(summary("t"), s("tile_back", 1, 1, "piecepack", 0.0));
        assert_eq!(summary("Aa>"), s("tile_face", 4, 2, "piecepack", 270.0));
        assert_eq!(summary("μAa>"), s("tile_face", 4, 2, "subpack", 270.0));
        assert_eq!(summary("C"), s("coin_back", 3, 1, "piecepack", 0.0));
        assert_eq!(summary("cC3b^"), s("coin_back", 3, 4, "piecepack", 0.0));
        assert_eq!(summary("nv"), s("coin_face", 1, 1, "piecepack", 180.0));
        assert_eq!(summary("<dM4"), s("die_face", 2, 5, "piecepack", 90.0));
        assert_eq!(summary("pM"), s("pawn_face", 2, 1, "piecepack", 0.0));
        assert_eq!(
            summary("p♥"),
            s("pawn_face", 1, 1, "playing_cards_expansion", 0.0)
        );
        assert_eq!(
            summary("K3▲"),
            s("pyramid_top", 2, 3, "icehouse_pieces", 0.0)
        );
        assert_eq!(summary("/\\3"), s("pyramid_top", 1, 4, "piecepack", 0.0));
    }

    #[test]
    fn glyphs() {
        assert_eq!(summary("♛"), s("bit_face", 2, 5, "chess2", 0.0));
        assert_eq!(summary("♘"), s("bit_face", 6, 2, "chess2", 0.0));
        assert_eq!(summary("uB♟"), s("bit_face", 4, 1, "chess1", 0.0));
        assert_eq!(summary("⚅"), s("die_face", 6, 6, "dice", 0.0));
        assert_eq!(summary("R⚂"), s("die_face", 1, 3, "dice", 0.0));
        assert_eq!(summary("⛂"), s("bit_back", 2, 1, "checkers2", 0.0));
        assert_eq!(summary("⛁"), s("bit_face", 6, 1, "checkers2", 0.0));
        assert_eq!(summary("()"), s("bit_back", 2, 1, "go", 0.0));
        assert_eq!(summary("○"), s("bit_back", 6, 1, "go", 0.0));
        assert_eq!(summary("[#]"), s("board_face", 2, 19, "go", 0.0));
        assert_eq!(summary("[X]"), s("board_face", 3, 8, "checkers2", 0.0));
        assert_eq!(
            summary("🂠"),
            s("card_back", 1, 1, "playing_cards_tarot", 0.0)
        );
        assert_eq!(
            summary("🃢"),
            s("card_face", 5, 2, "playing_cards_tarot", 0.0)
        );
        assert_eq!(summary("🁐v"), s("tile_face", 5, 4, "dominoes", 90.0));
        assert_eq!(summary("R🀱"), s("tile_face", 1, 1, "dominoes_red", 90.0));
        assert_eq!(
            summary("t,s2,r3,a-90,dominoes_red'"),
            s("tile_face", 3, 4, "dominoes_red", 270.0)
        );
    }

    #[test]
    fn every_chess_glyph_lies_in_the_blocks_looked_at() {
        let glyph = |code: u32| chess_glyph(char::from_u32(code).expect("a character"));
        for &(pawn, suit, angle) in &CHESS_SETS {
            for code in pawn - 5..=pawn {
                let rank = (pawn - code) as i32 + 1;
                assert_eq!(glyph(code), Some((suit, rank, angle)), "{code:x}");
            }
        }
        for &(first, angle) in &TURNED_KNIGHTS {
            for code in first..first + 3 {
                assert_eq!(glyph(code).map(|(_, rank, a)| (rank, a)), Some((2, angle)));
            }
        }
        for code in [0x2653, 0x2660, 0x1f9ff, 0x1fa48, 0x41, 0x265a + 0x10000] {
            assert_eq!(glyph(code), None, "{code:x}");
        }
    }

    #[test]
    fn colour_letters_and_letters_of_kind_decide_the_assumed_configuration() {
        for (text, expected) in [
            ("Rc", s("bit_back", 1, 1, "checkers2", 0.0)),
            ("Rm", s("bit_back", 1, 1, "meeples", 0.0)),
            ("Rcm", s("bit_back", 1, 1, "checkers2", 0.0)),
            ("Rmc", s("bit_back", 1, 1, "meeples", 0.0)),
            ("GKt", s("tile_back", 2, 1, "dominoes_green", 0.0)),
            ("Ks", s("bit_back", 2, 1, "go", 0.0)),
            ("Gt", s("tile_back", 3, 1, "dominoes_green", 0.0)),
            ("Wt", s("tile_back", 6, 1, "dominoes_white", 0.0)),
            ("ut", s("tile_back", 1, 1, "subpack", 0.0)),
            ("cu", s("coin_face", 1, 1, "subpack", 0.0)),
        ] {
            assert_eq!(summary(text), expected, "{text}");
        }
    }

    /// [`unknown_ranges`] as first written: every sequence tried at every character, and
    /// the known ASCII characters looked up in their string.
    fn unknown_ranges_by_search(simple: &str) -> Vec<std::ops::Range<usize>> {
        let mut ranges: Vec<std::ops::Range<usize>> = Vec::new();
        let mut pos = 0;
        while pos < simple.len() {
            let rest = &simple[pos..];
            if let Some(seq) = KNOWN_SEQUENCES.iter().find(|s| rest.starts_with(**s)) {
                pos += seq.len();
                continue;
            }
            let Some(c) = rest.chars().next() else { break };
            let width = c.len_utf8();
            let known = if c.is_ascii() {
                KNOWN_ASCII.as_bytes().contains(&(c as u8))
            } else {
                is_known_glyph(c)
            };
            if !known {
                match ranges.last_mut() {
                    Some(last) if last.end == pos => last.end = pos + width,
                    _ => ranges.push(pos..pos + width),
                }
            }
            pos += width;
        }
        ranges
    }

    #[test]
    fn unknown_characters_are_found_as_by_searching_every_sequence() {
        for simple in [
            "",
            "Q",
            "S5",
            "tcdpmsfblrxnaSMCARKGBYWuv^<>0123456789",
            "/\\",
            "/",
            "[",
            "(",
            "[X]",
            "[#]",
            "[]",
            "()",
            "[Y]",
            "(]",
            "/x",
            "Qz!S",
            "\u{7f}~`",
            "♠5",
            "é[X]é",
            "R●",
            "W[]",
            "[[]]",
            "(()",
            "/\\/\\",
            "a,b",
            "-_=+",
        ] {
            assert_eq!(
                unknown_ranges(simple),
                unknown_ranges_by_search(simple),
                "{simple}"
            );
        }
    }

    #[test]
    fn unknown_characters_are_warnings() {
        let spec = parse_piece_spec("Q", &ParserOptions::default());
        assert_eq!(spec.warnings.len(), 1);
        assert_eq!(spec.warnings[0].range, 0..1);
        assert!(spec.stated.is_empty());
        assert_eq!(summary("Q"), s("tile_back", 1, 1, "piecepack", 0.0));
    }

    #[test]
    fn stated_features_of_a_search() {
        let spec = parse_piece_spec("S5", &ParserOptions::default());
        assert_eq!(spec.stated.suit, Some(1));
        assert_eq!(spec.stated.rank, Some(6));
        assert_eq!(spec.stated.kind, None);
        let die = parse_piece_spec("⚅", &ParserOptions::default());
        assert!(die.suit_is_glyph_default);
    }
}
