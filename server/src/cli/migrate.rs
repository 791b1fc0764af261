//! `ppn-ls migrate`: a PPN file of an older version rewritten in the spelling of PPN 0.14.

use std::path::PathBuf;

use clap::Args;

use crate::cli::output::{display_path, io_message};
use crate::cli::output::{print_out, read_input, report_error};
use crate::cli::snippet::ColumnIndex;
use crate::exit_code;
use crate::ppn::migrate::migrate;

#[derive(Args, Debug)]
pub struct MigrateArgs {
    /// The PPN file, or `-` for standard input.
    file: PathBuf,
    /// Rewrite the file itself instead of printing the result.
    #[arg(long, conflicts_with = "output")]
    in_place: bool,
    /// Write the result to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

pub fn run(args: &MigrateArgs) -> i32 {
    let name = display_path(&args.file);
    let text = match read_input(&args.file) {
        Ok(text) => text,
        Err(err) => {
            report_error(&name, io_message(&err));
            return exit_code::USAGE;
        }
    };
    let (migrated, changes) = migrate(&text);
    let index = ColumnIndex::new(&text);
    for change in &changes {
        let at = index.position(change.range.start);
        let title = change.fixes.first().map_or("", |fix| fix.title.as_str());
        eprintln!(
            "{name}:{}:{}: {title} ({})",
            at.line, at.column, change.code
        );
    }
    eprintln!(
        "{name}: {} change{}",
        changes.len(),
        if changes.len() == 1 { "" } else { "s" }
    );
    let destination = if args.in_place && args.file.as_os_str() != "-" {
        Some(args.file.clone())
    } else {
        args.output.clone()
    };
    match destination {
        None => print_out(&migrated),
        Some(path) => {
            if let Err(err) = std::fs::write(&path, migrated) {
                report_error(display_path(&path), io_message(&err));
                return exit_code::USAGE;
            }
        }
    }
    exit_code::SUCCESS
}
