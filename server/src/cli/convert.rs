//! `ppn-ls convert`: a file written in another notation.

use std::path::Path;

use super::{print_out, read_input, EXIT_USAGE};
use crate::ide::document::analyze;
use crate::model::document::Target;

pub fn run(file: &Path, to: &str, output: Option<&Path>) -> i32 {
    let Some(target) = Target::from_name(to) else {
        eprintln!("ppn-ls: --to {to}: not a notation; choose ppn, otn, annofen, xay or wxf");
        return EXIT_USAGE;
    };
    let text = match read_input(file) {
        Ok(text) => text,
        Err(err) => {
            eprintln!("ppn-ls: {}: {err}", file.display());
            return EXIT_USAGE;
        }
    };
    let path = (file.as_os_str() != "-").then_some(file);
    let document = analyze(path, text);
    let converted = match document.convert(target) {
        Ok(converted) => converted,
        Err(err) => {
            eprintln!("ppn-ls: {}: {err}", file.display());
            return 1;
        }
    };
    match output {
        None => print_out(&converted),
        Some(output) => {
            if let Err(err) = std::fs::write(output, converted) {
                eprintln!("ppn-ls: {}: {err}", output.display());
                return EXIT_USAGE;
            }
        }
    }
    0
}
