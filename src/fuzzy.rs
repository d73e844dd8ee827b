//! Closest known names, for "did you mean" answers.

/// The known name closest to `typed` (edit distance), when reasonably close.
pub fn closest<'a>(typed: &str, names: &'a [String]) -> Option<&'a str> {
    let t = typed.to_ascii_lowercase();
    names
        .iter()
        .map(|n| (edit_distance(&t, &n.to_ascii_lowercase()), n))
        .filter(|(d, n)| *d <= n.len().max(3) / 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n.as_str())
}

/// Levenshtein distance between two names.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}
