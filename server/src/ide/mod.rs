//! Features written once over [`crate::model::notation_document::NotationDocument`], for
//! every notation: which notation a file is in and its analysis ([`analyze`]), hovers with
//! their boards, pictures of a document's states, the viewer's game lines, fixes, the
//! formatter's checks, selection and highlights, lenses and the workspace's games. No LSP
//! types here, so the command line, the language server and the page always agree.

pub mod analyze;
pub mod board_grid;
pub mod diagnostics_only;
pub mod fix_all;
pub mod formatting;
pub mod game_line;
pub mod lenses;
pub mod plain_text;
pub mod selection;
pub mod viewer;
pub mod workspace;
