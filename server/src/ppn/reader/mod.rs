//! Reading PPN: the tree-sitter [`syntax`], the games and their metadata blocks, movetext,
//! brace expansion, macros, and the parts of a move (PieceSpec, Location, PieceId), each
//! with its byte range.

pub mod braces;
pub mod games;
pub mod issue;
pub mod location;
pub mod macros;
pub mod metadata;
pub mod movetext;
pub mod piece_id;
pub mod piece_spec;
pub mod syntax;

/// Where the ASCII byte `byte` first occurs in `text`. The parts of a move are a few
/// bytes long: a plain loop finds the byte sooner than `str::find`, which sets up a
/// search made for long texts. No byte of a character of several bytes is ASCII, so the
/// offset is that of the character.
pub(crate) fn find_ascii(text: &str, byte: u8) -> Option<usize> {
    debug_assert!(byte.is_ascii());
    text.bytes().position(|b| b == byte)
}

/// Where the ASCII byte `byte` last occurs in `text` (see [`find_ascii`]).
pub(crate) fn rfind_ascii(text: &str, byte: u8) -> Option<usize> {
    debug_assert!(byte.is_ascii());
    text.bytes().rposition(|b| b == byte)
}

/// `text` cut at the first ASCII byte `byte` (see [`find_ascii`]), without it.
pub(crate) fn split_once_ascii(text: &str, byte: u8) -> Option<(&str, &str)> {
    let at = find_ascii(text, byte)?;
    Some((&text[..at], &text[at + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ascii_byte_is_found_where_str_finds_its_character() {
        for text in ["", "b4", "(1,2)", "♠,a90", "µ‿%c,d'", ",,", "a♥,b,♦"] {
            for byte in [b',', b'%', b'\'', b'a', b'z'] {
                let c = char::from(byte);
                assert_eq!(find_ascii(text, byte), text.find(c), "{text:?} {c:?}");
                assert_eq!(rfind_ascii(text, byte), text.rfind(c), "{text:?} {c:?}");
                assert_eq!(
                    split_once_ascii(text, byte),
                    text.split_once(c),
                    "{text:?} {c:?}"
                );
            }
        }
    }
}
