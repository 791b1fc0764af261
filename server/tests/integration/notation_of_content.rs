//! Text with no file name to say its notation (pasted into the page, piped to `-`, a `.txt`
//! file) is told by its content: every sample file of every notation, its extension taken
//! away, is read in the notation its extension names.

use std::path::{Path, PathBuf};

use ppn_ls::model::format::Format;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every file under `folder` (recursively) whose extension names a notation.
fn samples(folder: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(folder).expect("a sample folder is read") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            samples(&path, found);
        } else if Format::of_path(Some(&path)).is_some() {
            found.push(path);
        }
    }
}

#[test]
fn every_sample_is_read_in_its_own_notation_without_its_extension() {
    let mut files = Vec::new();
    for folder in [
        "examples",
        "tests/conformance",
        "tests/legacy",
        "tests/otn",
        "tests/xiangqi",
    ] {
        samples(&root().join(folder), &mut files);
    }
    let mut seen = std::collections::BTreeMap::new();
    let mut wrong = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("a sample is read");
        let expected = Format::detect(Some(path), &text);
        let told = Format::of_content(&text);
        *seen.entry(expected.name()).or_insert(0) += 1;
        if told != expected {
            wrong.push(format!(
                "{}: {} read as {}",
                path.strip_prefix(root()).unwrap_or(path).display(),
                expected.name(),
                told.name()
            ));
        }
        // A name without a known extension leaves the content to decide.
        let renamed = path.with_extension("txt");
        assert_eq!(Format::detect(Some(&renamed), &text), told);
        assert_eq!(Format::detect(None, &text), told);
    }
    assert!(
        wrong.is_empty(),
        "{} of {}: {wrong:#?}",
        wrong.len(),
        files.len()
    );
    for format in Format::ALL {
        assert!(
            seen.get(format.name()).copied().unwrap_or(0) > 0,
            "no sample of {}: {seen:?}",
            format.name()
        );
    }
}

#[test]
fn ambiguous_text_stays_ppn() {
    for text in [
        "",
        "1. e2-e4 1... e7-e5\n",
        "---\nGameType: Chess\n...\n",
        "{a comment}\n",
        "[1]\n",
    ] {
        assert_eq!(Format::of_content(text), Format::Ppn, "{text:?}");
    }
}
