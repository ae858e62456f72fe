//! "Did you mean": the closest known name to a misspelled one.

/// Edit distance (insertions, deletions, substitutions, adjacent swaps),
/// case-insensitive so that `egypt` finds `Egypt`.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut prev2 = vec![0usize; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0usize; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(prev2[j - 2] + 1);
            }
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// How much comparing one check may do in all, in units of one candidate
/// looked at plus one per cell of its edit-distance table. A file with
/// thousands of unknown names would otherwise compare each with thousands
/// of names: past the budget, mistakes get no "did you mean" (the first
/// hundreds still do, and nobody reads further).
pub const BUDGET: u64 = 300_000_000;

/// Names longer than this get no suggestion and are not suggested: their
/// edit distance would cost their lengths multiplied (two names of 200,000
/// characters took hours), and no typo of such a name is worth one.
pub const MAX_NAME: usize = 255;

thread_local! {
    static LEFT: std::cell::Cell<u64> = const { std::cell::Cell::new(BUDGET) };
}

/// Spend `cost` of the budget; false once it is gone.
fn spend(cost: u64) -> bool {
    LEFT.with(|l| {
        let left = l.get();
        l.set(left.saturating_sub(cost));
        left >= cost
    })
}

/// Give this thread's next check a fresh budget.
pub fn reset_budget() {
    LEFT.with(|l| l.set(BUDGET));
}

/// Whether suggestions may still be looked for (callers that gather many
/// candidates ask first).
pub fn budget_left() -> bool {
    LEFT.with(|l| l.get() > 0)
}

/// The candidate closest to `name`, if it is close enough to be a typo:
/// at most a third of the name's length in edits (at least one).
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    if name.len() > MAX_NAME {
        return None;
    }
    let limit = (name.chars().count() / 3).max(1);
    let len = name.chars().count();
    candidates
        .into_iter()
        .filter(|c| *c != name && c.len() <= MAX_NAME)
        // Spend the budget; a name whose length is too far off cannot be
        // close enough, and costs no edit distance.
        .filter(|_| spend(1))
        .filter(|c| c.len().abs_diff(name.len()) <= 4 * limit && c.chars().count().abs_diff(len) <= limit)
        .filter(|c| spend((c.len() * name.len()) as u64))
        .map(|c| (distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by(|(da, a), (db, b)| da.cmp(db).then_with(|| a.cmp(b)))
        .map(|(_, c)| c.to_string())
}

/// The help line for a misspelled name, or `None` when nothing is close.
pub fn help_for<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    did_you_mean(name, candidates).map(|c| format!("did you mean `{c}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_typos_and_case_slips() {
        let places = ["London", "Paris", "Egypt", "Mesopotamia"];
        assert_eq!(did_you_mean("Egpyt", places).as_deref(), Some("Egypt"));
        assert_eq!(did_you_mean("egypt", places).as_deref(), Some("Egypt"));
        assert_eq!(did_you_mean("Mesopotamai", places).as_deref(), Some("Mesopotamia"));
        assert_eq!(did_you_mean("Tokyo", places), None);
    }
}
