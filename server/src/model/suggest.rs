//! Closeness of words, for "did you mean" suggestions in every notation.

/// Levenshtein distance over characters: how many single-character insertions, deletions
/// and substitutions turn `a` into `b`.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_single_character_edits() {
        assert_eq!(edit_distance("pm", "pm"), 0);
        assert_eq!(edit_distance("pn", "pm"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("bgx", "bg"), 1);
    }
}
