//! `ppn-ls check --fix`: every safe fix made in a file, each listed, before the file is
//! checked.

use std::path::Path;

use crate::cli::fmt::write_in_place;
use crate::cli::output::report_error;
use crate::cli::output::{display_path, io_message, source_path};
use crate::cli::snippet::ColumnIndex;
use crate::ide::fix_all::fix_all;

/// The text of `file` after its safe fixes, written back to the file (standard input is
/// checked as it came: there is no file to write); the fixes made are listed on standard
/// error. `Err` when the fixed file cannot be written (said on standard error).
pub fn fix_file(file: &Path, text: String) -> Result<String, ()> {
    let name = display_path(file);
    let stdin = file.as_os_str() == "-";
    let fixed = fix_all(source_path(file), &text);
    if fixed.applied.is_empty() {
        return Ok(text);
    }
    if stdin {
        eprintln!(
            "{name}: {} safe fix{} not made: standard input has no file to write",
            fixed.applied.len(),
            if fixed.applied.len() == 1 { "" } else { "es" }
        );
        return Ok(text);
    }
    let index = ColumnIndex::new(&text);
    for fix in &fixed.applied {
        let at = index.position(fix.range.start);
        eprintln!(
            "{name}:{}:{}: fixed: {} ({})",
            at.line, at.column, fix.title, fix.code
        );
    }
    match write_in_place(file, &fixed.text) {
        Ok(()) => Ok(fixed.text),
        Err(err) => {
            report_error(&name, io_message(&err));
            Err(())
        }
    }
}
