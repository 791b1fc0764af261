//! The compact piece strings setups accept as arguments, e.g. tiles
//! `C3^Sa^S5v...` (suit, rank, direction), coins `n45a5n/...` (ranks) or
//! `SASASS/...` (suits).

use crate::ppn::rules::rng::RRng;
use crate::ppn::rules::setups::args::bad;
use crate::ppn::rules::setups::error::SetupError;

/// Suit letters: piecepack suits (Suns, Moons, Crowns, Arms) or colours; a
/// digit is the suit number itself.
pub(crate) fn suit_of(c: char) -> Option<i32> {
    if let Some(digit) = c.to_digit(10) {
        return Some(digit as i32);
    }
    match c.to_ascii_uppercase() {
        'S' | 'R' => Some(1),
        'M' | 'K' => Some(2),
        'C' | 'G' => Some(3),
        'A' | 'B' => Some(4),
        'Y' => Some(5),
        'W' => Some(6),
        _ => None,
    }
}

/// Rank characters: `n` (null), `a` (ace), `2`..`5`; as reference rank integers.
pub(crate) fn rank_of(c: char) -> Option<i32> {
    match c {
        'n' => Some(1),
        'a' => Some(2),
        d if d.is_ascii_digit() => d.to_digit(10).map(|v| v as i32 + 1),
        _ => None,
    }
}

/// Direction arrows: `^` up, `<` left, `v` down, `>` right.
pub(crate) fn angle_of(c: char) -> Option<f64> {
    match c {
        '^' => Some(0.0),
        '<' => Some(90.0),
        'v' => Some(180.0),
        '>' => Some(270.0),
        _ => None,
    }
}

fn significant(text: &str) -> impl Iterator<Item = char> + '_ {
    text.chars()
        .filter(|c| !c.is_whitespace() && !c.is_ascii_punctuation())
}

/// A string of `count` rank characters, punctuation and spaces ignored.
pub(crate) fn ranks(argument: &str, text: &str, count: usize) -> Result<Vec<i32>, SetupError> {
    let ranks = significant(text)
        .map(|c| rank_of(c).ok_or_else(|| bad(argument, &format!("unknown rank `{c}`"))))
        .collect::<Result<Vec<i32>, SetupError>>()?;
    exactly(argument, ranks, count, "ranks")
}

/// A string of `count` suit letters, punctuation and spaces ignored.
pub(crate) fn suits(argument: &str, text: &str, count: usize) -> Result<Vec<i32>, SetupError> {
    let suits = significant(text)
        .map(|c| suit_of(c).ok_or_else(|| bad(argument, &format!("unknown suit `{c}`"))))
        .collect::<Result<Vec<i32>, SetupError>>()?;
    exactly(argument, suits, count, "suits")
}

fn exactly(
    argument: &str,
    values: Vec<i32>,
    count: usize,
    what: &str,
) -> Result<Vec<i32>, SetupError> {
    if values.len() == count {
        Ok(values)
    } else {
        Err(bad(
            argument,
            &format!("expected {count} {what}, found {}", values.len()),
        ))
    }
}

/// A tile described by a tiles string.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TileSpec {
    pub suit: i32,
    pub rank: i32,
    pub angle: f64,
}

/// Parse a tiles string of `count` tiles: either suit+rank+direction per tile,
/// suit+rank (pointing up), or suit+direction (ranks then dealt at random).
pub(crate) fn tiles(text: &str, count: usize, rng: &mut RRng) -> Result<Vec<TileSpec>, SetupError> {
    let chars: Vec<char> = text
        .chars()
        .filter(|c| !c.is_whitespace() && !"/:;\\|".contains(*c))
        .collect();
    let unknown = |what: &str, c: char| bad("tiles", &format!("unknown {what} `{c}`"));
    let suit = |c: char| suit_of(c).ok_or_else(|| unknown("suit", c));
    let rank = |c: char| rank_of(c).ok_or_else(|| unknown("rank", c));
    let angle = |c: char| angle_of(c).ok_or_else(|| unknown("direction", c));
    if chars.len() == 3 * count {
        return chars
            .chunks(3)
            .map(|t| {
                Ok(TileSpec {
                    suit: suit(t[0])?,
                    rank: rank(t[1])?,
                    angle: angle(t[2])?,
                })
            })
            .collect();
    }
    if chars.len() != 2 * count {
        return Err(bad(
            "tiles",
            &format!("expected {count} tiles of 2 or 3 characters each"),
        ));
    }
    if angle_of(chars[1]).is_none() {
        return chars
            .chunks(2)
            .map(|t| {
                Ok(TileSpec {
                    suit: suit(t[0])?,
                    rank: rank(t[1])?,
                    angle: 0.0,
                })
            })
            .collect();
    }
    let mut specs: Vec<TileSpec> = chars
        .chunks(2)
        .map(|t| {
            Ok(TileSpec {
                suit: suit(t[0])?,
                rank: 0,
                angle: angle(t[1])?,
            })
        })
        .collect::<Result<_, SetupError>>()?;
    // Ranks are dealt at random within each suit, suit by suit.
    let per_suit = count / 4;
    for s in 1..=4 {
        let members: Vec<usize> = (0..specs.len()).filter(|&i| specs[i].suit == s).collect();
        let n_ranks = if s == 4 {
            per_suit + count % 4
        } else {
            per_suit
        };
        let dealt = rng.permutation(n_ranks);
        if dealt.len() != members.len() {
            return Err(bad("tiles", "each suit needs its share of the tiles"));
        }
        for (i, r) in members.into_iter().zip(dealt) {
            specs[i].rank = r as i32;
        }
    }
    Ok(specs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_with_suit_rank_and_direction() {
        let mut rng = RRng::from_seed(1);
        let parsed = tiles("S2^Mn>", 2, &mut rng);
        assert_eq!(
            parsed,
            Ok(vec![
                TileSpec {
                    suit: 1,
                    rank: 3,
                    angle: 0.0
                },
                TileSpec {
                    suit: 2,
                    rank: 1,
                    angle: 270.0
                },
            ])
        );
    }

    #[test]
    fn rank_and_suit_strings() {
        assert_eq!(ranks("coins", "n4a/5 2", 5), Ok(vec![1, 5, 2, 6, 3]));
        assert_eq!(suits("coins", "SM/CA", 4), Ok(vec![1, 2, 3, 4]));
        assert!(ranks("coins", "x", 1).is_err());
        assert!(suits("coins", "SM/CA", 5).is_err());
        assert_eq!(suits("coins", "1234", 4), Ok(vec![1, 2, 3, 4]));
    }
}
