//! Real files of older PPN versions: each old form is recognised, and `migrate` turns the
//! file into one PPN 0.14 reads without a problem.

use std::path::PathBuf;

use ppn_ls::model::format::Format::Ppn;
use ppn_ls::ppn::migrate::migrate;

use crate::common::diagnostics::diagnostic_codes;

fn legacy(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/legacy")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_old_file_is_clean_after_migration() {
    for name in [
        "four-field-kono-2019-07.ppn",
        "tic-tac-toe-2019-07.ppn",
        "fujisan-2019-09.ppn",
        "relativity-2020-05.ppn",
        "american-checkers-2020-04.ppn",
        "american-checkers-2021-01.ppn",
    ] {
        let (migrated, _) = migrate(&legacy(name));
        assert_eq!(
            diagnostic_codes(Ppn, &migrated),
            Vec::<&str>::new(),
            "{name}:\n{migrated}"
        );
    }
}

#[test]
fn the_first_drafts_capture_is_one_error_with_a_fix() {
    let text = legacy("four-field-kono-2019-07.ppn");
    assert_eq!(diagnostic_codes(Ppn, &text), ["old-capture"]);
    let (migrated, applied) = migrate(&text);
    assert_eq!(applied.len(), 1);
    assert!(migrated.ends_with("1. b1:b3\n"));
}

#[test]
fn the_old_checkers_board_is_one_error_and_migrates_as_its_author_did() {
    let text = legacy("american-checkers-2020-04.ppn");
    // 79 moves fail on today's board; they are one mistake.
    assert_eq!(diagnostic_codes(Ppn, &text), ["mirrored-checkers"]);
    let (migrated, _) = migrate(&text);
    let by_author = legacy("american-checkers-2021-01.ppn");
    // The author mirrored the moves the same way; only the coins chosen to crown kings
    // differ.
    let differing: Vec<(&str, &str)> = migrated
        .lines()
        .zip(by_author.lines())
        .filter(|(ours, theirs)| ours.trim_end() != theirs.trim_end())
        .collect();
    assert_eq!(differing.len(), 3, "{differing:#?}");
    for (ours, theirs) in differing {
        let crowns = |line: &str| line.split(' ').filter(|t| t.contains('@')).count();
        assert_eq!(crowns(ours), crowns(theirs), "{ours}\n{theirs}");
    }
}
