//! The vocabulary every notation and every tool shares: pieces and boards, the picture of
//! a board (a scene), and what an analysed document of any notation answers.

pub mod chunked;
pub mod edit;
pub mod editor_diagnostics;
pub mod features;
pub mod format;
pub mod games;
pub mod layout;
pub mod line_index;
pub mod notation_document;
pub mod piece;
pub mod prefetch;
pub mod scene;
pub mod suggest;
