//! The vocabulary every notation and every tool shares: pieces and boards, the picture of
//! a board (a scene), and what an analysed document of any notation answers.

pub mod piece;
