//! The brace expander against the recursive one it replaced: the same strings or the same
//! error wherever the old one finishes within the new length budget; never a panic, and
//! never more than the budgets allow.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ppn_ls::ppn::reader::braces::{
    expand_braces, expand_token, expands_to_itself, BraceError, MAX_EXPANDED_BYTES,
    MAX_EXPANSIONS,
};

mod braces_oracle;

/// Longer inputs only go through the new expander: the old one recurses on them.
const ORACLE_LIMIT: usize = 256;

fuzz_target!(|data: &[u8]| {
    let Ok(token) = std::str::from_utf8(data) else {
        return;
    };
    let expanded = expand_braces(token);
    if let Ok(strings) = &expanded {
        assert!(strings.len() <= MAX_EXPANSIONS);
        let bytes: usize = strings.iter().map(String::len).sum();
        assert!(bytes <= MAX_EXPANDED_BYTES, "{bytes} bytes");
    }
    let as_token = expand_token(token);
    // The movetext splitter keeps a token said to expand to itself without expanding it.
    if expands_to_itself(token) {
        assert_eq!(as_token, Ok(vec![token.to_string()]), "said to expand to itself");
    }
    if token.len() > ORACLE_LIMIT {
        return;
    }
    let old = braces_oracle::expand_braces(token);
    match (&expanded, &old) {
        (Err(BraceError::TooLong { .. }), Ok(strings)) => {
            let bytes: usize = strings.iter().map(String::len).sum();
            assert!(
                bytes > MAX_EXPANDED_BYTES / 2,
                "{bytes} bytes were too long"
            );
        }
        (Err(BraceError::TooLong { .. }), Err(_)) => {}
        (new, old) => assert_eq!(
            format!("{new:?}"),
            format!("{old:?}"),
            "the iterative expander disagrees with the recursive one"
        ),
    }
});
