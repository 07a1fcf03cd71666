//! Robust centre and scale, MAD anomalies and CUSUM change points
//! (spec/json.md §5.3, §5.4, §5.6), in exactly the stated float order.

/// Anomaly threshold on the robust z score.
pub const ANOMALY_Z: f64 = 2.0;
/// A path needs this many values to be scored.
pub const MIN_VALUES: usize = 4;
/// Change points need a series at least this long.
pub const MIN_SERIES: usize = 8;
/// Segments shorter than this are never split.
pub const MIN_SEGMENT: usize = 4;
/// At most this many accepted splits: min(8, max(1, 50 div 4)).
pub const SPLIT_BUDGET: usize = 8;
/// Successive differences equal within this are a straight line.
pub const LINE_TOLERANCE: f64 = 1e-9;

/// The median of `s` (the mean of the two middle values for an even
/// length), reordering `s`.
fn median(s: &mut [f64]) -> f64 {
    let n = s.len();
    let (left, mid, _) = s.select_nth_unstable_by(n / 2, f64::total_cmp);
    let mid = *mid;
    if n % 2 == 1 {
        return mid;
    }
    let below = left.iter().copied().max_by(f64::total_cmp).expect("n >= 2");
    (below + mid) / 2.0
}

/// The statistics of §5.3, §5.4 and §5.6 over series of `f64` or of
/// lengths (`u32`, converted as read), with one scratch buffer for every
/// median and sort: a long array's paths and lengths reuse the same
/// memory rather than each taking a fresh copy.
#[derive(Default)]
pub struct Robust {
    scratch: Vec<f64>,
}

impl Robust {
    /// `R(xs)`: (centre, scale) per json.md §5.6.
    pub fn robust<T: Copy + Into<f64>>(&mut self, xs: &[T]) -> (f64, f64) {
        if xs.is_empty() {
            return (0.0, 0.0);
        }
        if let Some(counts) = counted(xs) {
            return robust_counted(&counts, xs.len());
        }
        // Medians by selection (linear); values equal under `total_cmp`
        // are the same bits, so any order of equal values gives the same
        // median. The scratch holds the values, then (in place, order
        // being free for a median) their deviations.
        let s = &mut self.scratch;
        s.clear();
        s.extend(xs.iter().map(|&x| x.into()));
        let med = median(s);
        for x in s.iter_mut() {
            *x = (*x - med).abs();
        }
        let mad = median(s);
        if mad > 0.0 {
            return (med, mad);
        }
        if s.len() < 2 {
            return (med, 0.0);
        }
        // The fallback sums in ascending order, as the definition does
        // (already-sorted values, such as all-equal ones, are not sorted
        // again: the order would be the same).
        s.clear();
        s.extend(xs.iter().map(|&x| x.into()));
        if !s.is_sorted_by(|a, b| a.total_cmp(b).is_le()) {
            s.sort_unstable_by(f64::total_cmp);
        }
        let mut sum = 0.0;
        for x in s.iter() {
            sum += x;
        }
        let mean = sum / s.len() as f64;
        let mut ss = 0.0;
        for x in s.iter() {
            ss += (x - mean) * (x - mean);
        }
        let std = (ss / (s.len() - 1) as f64).sqrt();
        (mean, std / 0.6745)
    }

    /// Indices (into `values`) of anomalies.
    pub fn anomalies<T: Copy + Into<f64>>(&mut self, values: &[T]) -> Vec<usize> {
        if values.len() < MIN_VALUES {
            return Vec::new();
        }
        let (c, s) = self.robust(values);
        if s <= 0.0 {
            return Vec::new();
        }
        values
            .iter()
            .enumerate()
            .filter(|(_, &v)| is_anomaly(v.into(), c, s))
            .map(|(i, _)| i)
            .collect()
    }

    /// Seam indices found by binary segmentation (json.md §5.4).
    pub fn change_points<T: Copy + Into<f64>>(&mut self, y: &[T]) -> Vec<usize> {
        let m = y.len();
        let mut seams = Vec::new();
        if m < MIN_SERIES {
            return seams;
        }
        let at = |i: usize| -> f64 { y[i].into() };
        let d0 = at(1) - at(0);
        if (2..m).all(|i| ((at(i) - at(i - 1)) - d0).abs() <= LINE_TOLERANCE) {
            return seams;
        }
        let mut work: Vec<(usize, usize)> = vec![(0, m)];
        let mut splits = 0;
        while splits < SPLIT_BUDGET && !work.is_empty() {
            let mut pick = 0;
            for (i, &(a, b)) in work.iter().enumerate() {
                if b - a > work[pick].1 - work[pick].0 {
                    pick = i;
                }
            }
            let (a, b) = work.remove(pick);
            if b - a < MIN_SEGMENT {
                continue;
            }
            let mu = mean(&y[a..b]);
            let mut cum = 0.0;
            let mut best = -1.0;
            let mut k_best = a;
            for (k, &v) in y.iter().enumerate().take(b - 1).skip(a) {
                cum += v.into() - mu;
                if cum.abs() > best {
                    best = cum.abs();
                    k_best = k;
                }
            }
            let k = k_best;
            let shift = (mean(&y[a..=k]) - mean(&y[k + 1..b])).abs();
            let ls = self.robust(&y[a..=k]).1;
            let rs = self.robust(&y[k + 1..b]).1;
            let accept = if ls.max(rs) <= 0.0 {
                shift > 0.0
            } else {
                let s = self.robust(&y[a..b]).1;
                s > 0.0 && shift > ANOMALY_Z * s
            };
            if !accept {
                continue;
            }
            seams.push(k);
            seams.push(k + 1);
            work.push((a, k + 1));
            work.push((k + 1, b));
            splits += 1;
        }
        seams
    }
}

/// Distinct values this few are counted rather than copied.
const MAX_DISTINCT: usize = 64;

/// A count of distinct values (by bits) that gives up past
/// [`MAX_DISTINCT`]. A series of few values (flags, small counts, equal
/// lengths) then needs no copy and no selection: its medians and its
/// sorted sums follow from the counts. Runs of one value are counted
/// without a lookup; tallies of consecutive parts merge.
#[derive(Default)]
pub struct Tally {
    counts: Vec<(u64, usize)>,
    run: Option<(u64, usize)>,
    over: bool,
}

impl Tally {
    /// Counts one value.
    #[inline]
    pub fn push(&mut self, x: f64) {
        let bits = x.to_bits();
        match &mut self.run {
            Some((b, c)) if *b == bits => *c += 1,
            run => {
                if let Some(r) = run.replace((bits, 1)) {
                    self.add(r);
                }
            }
        }
    }

    fn add(&mut self, (bits, c): (u64, usize)) {
        if self.over {
            return;
        }
        if let Some(e) = self.counts.iter_mut().find(|e| e.0 == bits) {
            e.1 += c;
        } else if self.counts.len() < MAX_DISTINCT {
            self.counts.push((bits, c));
        } else {
            self.over = true;
        }
    }

    /// Adds the values `other` counted.
    pub fn merge(&mut self, other: Tally) {
        self.over |= other.over;
        for e in other.counts.into_iter().chain(other.run) {
            self.add(e);
        }
    }

    /// The distinct values in ascending `total_cmp` order with how often
    /// each occurs, or `None` past [`MAX_DISTINCT`].
    pub fn finish(mut self) -> Option<Vec<(f64, usize)>> {
        if let Some(r) = self.run.take() {
            self.add(r);
        }
        if self.over {
            return None;
        }
        let mut sorted: Vec<(f64, usize)> = self
            .counts
            .into_iter()
            .map(|(b, c)| (f64::from_bits(b), c))
            .collect();
        sorted.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        Some(sorted)
    }
}

/// [`Tally`] of `xs`.
fn counted<T: Copy + Into<f64>>(xs: &[T]) -> Option<Vec<(f64, usize)>> {
    let mut t = Tally::default();
    for &x in xs {
        t.push(x.into());
        if t.over {
            return None;
        }
    }
    t.finish()
}

/// Whether `v` is an anomaly for the centre and scale `(c, s)` (§5.3).
#[inline]
pub fn is_anomaly(v: f64, c: f64, s: f64) -> bool {
    ((0.6745 * (v - c)) / s).abs() >= ANOMALY_Z
}

/// The value at `rank` of the sorted multiset `counts`.
fn at_rank(counts: &[(f64, usize)], mut rank: usize) -> f64 {
    for &(v, c) in counts {
        if rank < c {
            return v;
        }
        rank -= c;
    }
    unreachable!("rank within the multiset")
}

/// The median of the sorted multiset `counts` of `n` values.
fn median_counted(counts: &[(f64, usize)], n: usize) -> f64 {
    let mid = at_rank(counts, n / 2);
    if n % 2 == 1 {
        return mid;
    }
    (at_rank(counts, n / 2 - 1) + mid) / 2.0
}

/// [`Robust::robust`] of the `n` values `counts` describes, with the same
/// float operations in the same order.
pub fn robust_counted(counts: &[(f64, usize)], n: usize) -> (f64, f64) {
    let med = median_counted(counts, n);
    let mut devs: Vec<(f64, usize)> = counts.iter().map(|&(v, c)| ((v - med).abs(), c)).collect();
    devs.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let mad = median_counted(&devs, n);
    if mad > 0.0 {
        return (med, mad);
    }
    if n < 2 {
        return (med, 0.0);
    }
    let mut sum = 0.0;
    for &(v, c) in counts {
        for _ in 0..c {
            sum += v;
        }
    }
    let mean = sum / n as f64;
    let mut ss = 0.0;
    for &(v, c) in counts {
        for _ in 0..c {
            ss += (v - mean) * (v - mean);
        }
    }
    let std = (ss / (n - 1) as f64).sqrt();
    (mean, std / 0.6745)
}

fn mean<T: Copy + Into<f64>>(y: &[T]) -> f64 {
    let mut s = 0.0;
    for &v in y {
        s += v.into();
    }
    s / y.len() as f64
}

#[cfg(test)]
mod tests {

    #[test]
    fn selected_median_is_the_sorted_median() {
        let mut seed = 7u64;
        for n in 1..200 {
            let xs: Vec<f64> = (0..n)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                    ((seed >> 40) % 17) as f64 - 8.0
                })
                .collect();
            let mut sorted = xs.clone();
            sorted.sort_unstable_by(f64::total_cmp);
            let want = if n % 2 == 1 {
                sorted[n / 2]
            } else {
                (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
            };
            assert_eq!(median(&mut xs.clone()).to_bits(), want.to_bits(), "{xs:?}");
        }
    }

    use super::*;

    fn anomalies(values: &[f64]) -> Vec<usize> {
        Robust::default().anomalies(values)
    }

    fn change_points(y: &[f64]) -> Vec<usize> {
        Robust::default().change_points(y)
    }

    /// The counted path gives the same bits as selection and sorting.
    #[test]
    fn counted_matches_copied() {
        let mut seed = 11u64;
        for n in 1..300 {
            for distinct in [1u64, 2, 3, 7, 64, 500] {
                let xs: Vec<f64> = (0..n)
                    .map(|_| {
                        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                        let k = (seed >> 40) % distinct;
                        [0.1, -0.0, 0.0, 3.5, 1e-300, 7.25][k as usize % 6] * (1 + k / 6) as f64
                    })
                    .collect();
                let want = copied(&xs);
                let bits = |(c, s): (f64, f64)| (c.to_bits(), s.to_bits());
                if let Some(counts) = counted(&xs) {
                    assert_eq!(
                        bits(robust_counted(&counts, xs.len())),
                        bits(want),
                        "{xs:?}"
                    );
                }
                assert_eq!(bits(Robust::default().robust(&xs)), bits(want), "{xs:?}");
            }
        }
    }

    /// Tallies of consecutive parts merge into the tally of the whole,
    /// and give up past the limit wherever the values fall.
    #[test]
    fn merged_tallies_equal_one_tally() {
        let xs: Vec<f64> = (0..1000).map(|i| ((i * 7) % 13) as f64).collect();
        for cut in [1, 2, 500, 999] {
            let mut a = Tally::default();
            let mut b = Tally::default();
            xs[..cut].iter().for_each(|&x| a.push(x));
            xs[cut..].iter().for_each(|&x| b.push(x));
            a.merge(b);
            assert_eq!(a.finish(), counted(&xs));
        }
        let many: Vec<f64> = (0..200).map(|i| i as f64).collect();
        let mut a = Tally::default();
        let mut b = Tally::default();
        many[..60].iter().for_each(|&x| a.push(x));
        many[60..].iter().for_each(|&x| b.push(x));
        a.merge(b);
        assert_eq!(a.finish(), None);
    }

    /// `R(xs)` by the definition: sorted copies.
    fn copied(xs: &[f64]) -> (f64, f64) {
        let mut s = xs.to_vec();
        s.sort_unstable_by(f64::total_cmp);
        let n = s.len();
        let med = |s: &[f64]| {
            if n % 2 == 1 {
                s[n / 2]
            } else {
                (s[n / 2 - 1] + s[n / 2]) / 2.0
            }
        };
        let m = med(&s);
        let mut d: Vec<f64> = xs.iter().map(|x| (x - m).abs()).collect();
        d.sort_unstable_by(f64::total_cmp);
        let mad = med(&d);
        if mad > 0.0 {
            return (m, mad);
        }
        if n < 2 {
            return (m, 0.0);
        }
        let sum: f64 = s.iter().fold(0.0, |a, x| a + x);
        let mean = sum / n as f64;
        let ss: f64 = s.iter().fold(0.0, |a, x| a + (x - mean) * (x - mean));
        (mean, (ss / (n - 1) as f64).sqrt() / 0.6745)
    }

    #[test]
    fn spike_example() {
        let ms: Vec<f64> = (0..30)
            .map(|i| {
                if i == 12 {
                    900.0
                } else {
                    40.0 + (i % 5) as f64
                }
            })
            .collect();
        assert_eq!(anomalies(&ms), vec![12]);
        let mut seams = change_points(&ms);
        seams.sort();
        seams.dedup();
        assert_eq!(seams, vec![11, 12, 13]);
    }

    #[test]
    fn one_deviant_among_identical() {
        let mut v = vec![5.0; 19];
        v.push(9.0);
        assert!(anomalies(&v).is_empty());
        let mut v = vec![5.0; 22];
        v.push(9.0);
        assert_eq!(anomalies(&v), vec![22]);
    }

    #[test]
    fn straight_line_has_no_seams() {
        let v: Vec<f64> = (0..100).map(|i| i as f64).collect();
        assert!(change_points(&v).is_empty());
    }
}
