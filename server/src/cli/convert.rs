//! `ppn-ls convert`: a file written in another notation.

use std::path::Path;

use crate::cli::output::{display_path, io_message, source_path};
use crate::cli::output::{print_out, read_input, report_error};
use crate::exit_code;
use crate::ide::analyze::analyze;
use crate::model::notation_document::Target;

pub fn run(file: &Path, to: &str, output: Option<&Path>) -> i32 {
    let Some(target) = Target::from_name(to) else {
        report_error(
            format!("--to {to}"),
            "not a notation; choose ppn, otn, annofen, xay or wxf",
        );
        return exit_code::USAGE;
    };
    let text = match read_input(file) {
        Ok(text) => text,
        Err(err) => {
            report_error(display_path(file), io_message(&err));
            return exit_code::USAGE;
        }
    };
    let path = source_path(file);
    let document = analyze(path, text);
    let converted = match document.convert(target) {
        Ok(converted) => converted,
        Err(err) => {
            report_error(display_path(file), err);
            return exit_code::PROBLEMS;
        }
    };
    match output {
        None => print_out(&converted),
        Some(output) => {
            if let Err(err) = std::fs::write(output, converted) {
                report_error(display_path(output), io_message(&err));
                return exit_code::USAGE;
            }
        }
    }
    exit_code::SUCCESS
}
