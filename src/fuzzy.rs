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

/// Edit distance between two words (Levenshtein, an adjacent transposition counting as
/// one edit: "chnage" is one edit from "change").
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut rows: Vec<Vec<usize>> = vec![(0..=b.len()).collect()];
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let prev = &rows[i - 1];
            let mut d = (prev[j - 1] + usize::from(a[i - 1] != b[j - 1]))
                .min(prev[j] + 1)
                .min(cur[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            cur[j] = d;
        }
        rows.push(cur);
    }
    rows[a.len()][b.len()]
}
