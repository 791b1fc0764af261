//! One reader per xiangqi-setup format, each giving a [`parsed::Parsed`] with exact ranges
//! and recovering from every error: annoFEN, XAY (through its own [`yaml`] reader), plain
//! FEN and WXF records; [`position`] is the FEN-style board field they share.

pub mod annofen;
pub mod parsed;
pub mod position;
pub mod wxf;
pub mod xay;
pub mod yaml;
