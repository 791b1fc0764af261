//! The integration tests, in one binary (one link of the whole crate instead of one per
//! file): the command line and the language server driven as editors and CI drive them,
//! conformance with the reference implementation, hostile inputs, budgets.

mod common;

mod broken_games;
mod budgets;
mod check_in_batches;
mod cli;
mod cli_fmt_fix_find;
mod conformance;
mod documented_commands;
mod editor_queries;
mod engine_conformance;
mod formatting;
mod hostile_braces_and_games;
mod incremental_analysis;
mod lsp;
mod lsp_configuration;
mod lsp_features;
mod lsp_format_and_find;
mod lsp_protocol;
mod lsp_stdio;
mod module_graph;
mod notation_conformance;
mod notation_of_content;
mod old_versions;
mod otn;
mod piece_queries;
mod render;
mod setups_conformance;
mod updates_found_by_fuzzing;
mod xiangqi;
