//! The vocabulary every notation and every tool shares: pieces and boards, the picture of
//! a board (a scene), and what an analysed document of any notation answers.

pub mod chunked;
pub mod document;
pub mod edit;
pub mod features;
pub mod format;
pub mod games;
pub mod line_index;
pub mod piece;
pub mod prefetch;
pub mod scene;
pub mod shown;
pub mod suggest;
