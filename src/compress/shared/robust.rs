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

/// `R(xs)`: (centre, scale) per json.md §5.6.
pub fn robust(xs: &[f64]) -> (f64, f64) {
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    // Medians by selection (linear); values equal under `total_cmp` are
    // the same bits, so any order of equal values gives the same median.
    // One scratch copy: the values, then (in place, order being free for
    // a median) their deviations.
    let mut s = xs.to_vec();
    let med = median(&mut s);
    for x in s.iter_mut() {
        *x = (*x - med).abs();
    }
    let mad = median(&mut s);
    if mad > 0.0 {
        return (med, mad);
    }
    if s.len() < 2 {
        return (med, 0.0);
    }
    // The fallback sums in ascending order, as the definition does.
    s.copy_from_slice(xs);
    s.sort_unstable_by(f64::total_cmp);
    let mut sum = 0.0;
    for x in &s {
        sum += x;
    }
    let mean = sum / s.len() as f64;
    let mut ss = 0.0;
    for x in &s {
        ss += (x - mean) * (x - mean);
    }
    let std = (ss / (s.len() - 1) as f64).sqrt();
    (mean, std / 0.6745)
}

/// Indices (into `values`) of anomalies.
pub fn anomalies(values: &[f64]) -> Vec<usize> {
    if values.len() < MIN_VALUES {
        return Vec::new();
    }
    let (c, s) = robust(values);
    if s <= 0.0 {
        return Vec::new();
    }
    values
        .iter()
        .enumerate()
        .filter(|(_, &v)| ((0.6745 * (v - c)) / s).abs() >= ANOMALY_Z)
        .map(|(i, _)| i)
        .collect()
}

fn mean(y: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in y {
        s += v;
    }
    s / y.len() as f64
}

/// Seam indices found by binary segmentation (json.md §5.4).
pub fn change_points(y: &[f64]) -> Vec<usize> {
    let m = y.len();
    let mut seams = Vec::new();
    if m < MIN_SERIES {
        return seams;
    }
    let d0 = y[1] - y[0];
    if (2..m).all(|i| ((y[i] - y[i - 1]) - d0).abs() <= LINE_TOLERANCE) {
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
        for (k, v) in y.iter().enumerate().take(b - 1).skip(a) {
            cum += v - mu;
            if cum.abs() > best {
                best = cum.abs();
                k_best = k;
            }
        }
        let k = k_best;
        let shift = (mean(&y[a..=k]) - mean(&y[k + 1..b])).abs();
        let ls = robust(&y[a..=k]).1;
        let rs = robust(&y[k + 1..b]).1;
        let accept = if ls.max(rs) <= 0.0 {
            shift > 0.0
        } else {
            let s = robust(&y[a..b]).1;
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
