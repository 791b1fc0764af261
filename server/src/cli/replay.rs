//! `ppn-ls replay`: the board after every move, as JSON or as diagrams.

use std::path::Path;

use super::ReplayFormat;

pub fn run(_file: &Path, _format: ReplayFormat, _game: Option<usize>, _label: Option<&str>) -> i32 {
    0
}
