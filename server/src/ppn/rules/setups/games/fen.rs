//! Piece placement strings in the style of FEN (`rnbqkbnr/pppppppp/8/...`):
//! rows from the top, letters are pieces, numbers skip cells.

/// One letter of a placement string and its cell (a1 = (1, 1)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Placement {
    pub symbol: char,
    pub x: f64,
    pub y: f64,
}

/// Only the first field (before a space) is read.
pub(crate) fn placements(fen: &str) -> Vec<Placement> {
    let field = fen.split(' ').next().unwrap_or("");
    let rows: Vec<&str> = field.split('/').collect();
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let y = (rows.len() - i) as f64;
        let mut x = 1.0;
        let mut digits = String::new();
        for c in row.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            if !digits.is_empty() {
                x += digits.parse::<f64>().unwrap_or(0.0);
                digits.clear();
            }
            if c.is_ascii_alphabetic() {
                out.push(Placement { symbol: c, x, y });
                x += 1.0;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_skip_cells() {
        let placed = placements("S12M/A12C w - -");
        let cells: Vec<(char, f64, f64)> = placed.iter().map(|p| (p.symbol, p.x, p.y)).collect();
        assert_eq!(
            cells,
            vec![
                ('S', 1.0, 2.0),
                ('M', 14.0, 2.0),
                ('A', 1.0, 1.0),
                ('C', 14.0, 1.0)
            ]
        );
    }
}
