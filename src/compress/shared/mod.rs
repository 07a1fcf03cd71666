//! Machinery shared by the compressors: marker summaries, the kind guard,
//! BM25 relevance and robust statistics.

pub mod clean;
pub mod commits;
pub mod fold;
pub mod invariants;
pub mod kinds;
pub mod lean;
pub mod lines;
pub mod names;
pub mod relevance;
pub mod robust;
pub mod runsum;
mod screen;
pub mod secrets;
pub mod signal;
pub mod stats;

/// Maximal runs of dropped units (`keep[i]` false), in order: each becomes
/// one marker, or stays as it is when a marker would not pay.
pub fn dropped_runs(keep: &[bool]) -> Vec<std::ops::Range<usize>> {
    lines::runs_where(keep, |k| !k)
}

#[cfg(test)]
mod tests {
    #[test]
    fn dropped_runs_are_maximal() {
        let k = [true, false, false, true, false, true, true, false];
        assert_eq!(super::dropped_runs(&k), vec![1..3, 4..5, 7..8]);
        assert!(super::dropped_runs(&[true, true]).is_empty());
        assert_eq!(super::dropped_runs(&[false; 3]), vec![0..3]);
    }
}
