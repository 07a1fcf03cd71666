//! Go `image/png`'s scanline filter choice (spec/pixel-render.md §7.2):
//! all five filters, the smallest sum of |byte as i8|, ties to the first of
//! Up, Paeth, None, Sub, Average, always against the unfiltered previous
//! row.

/// Filter types in the order Go tries them.
const UP: u8 = 2;
const PAETH: u8 = 4;
const NONE: u8 = 0;
const SUB: u8 = 1;
const AVERAGE: u8 = 3;

/// Filters rows one after another, keeping the previous unfiltered row.
pub(super) struct Rows {
    bpp: usize,
    prev: Vec<u8>,
    out: Vec<u8>,
}

/// The cost of a filtered byte: |byte as i8| (128 costs 128).
#[inline(always)]
fn cost(v: u8) -> u8 {
    v.min(v.wrapping_neg())
}

/// The Paeth predictor of `a` (left), `b` (up) and `c` (up-left), without
/// branches so that it vectorises.
#[inline(always)]
fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let (a16, b16, c16) = (a as i16, b as i16, c as i16);
    let pa = (b16 - c16).abs();
    let pb = (a16 - c16).abs();
    let pc = (a16 + b16 - 2 * c16).abs();
    let bc = if pb <= pc { b } else { c };
    if pa <= pb && pa <= pc {
        a
    } else {
        bc
    }
}

/// The average predictor ⌊(a + b)/2⌋ in 8 bits.
#[inline(always)]
fn average(a: u8, b: u8) -> u8 {
    (a & b) + ((a ^ b) >> 1)
}

/// Bytes summed in 32 bits before the sum is widened (128 per byte at
/// most).
const SUM_RUN: usize = 1 << 20;

/// Σ cost(x − f(a, b, c)) over a row: `row` and `prev` are the current
/// and previous rows, the predictor sees the bytes `bpp` to the left
/// (zeros before the row's start).
#[inline(always)]
fn row_cost(row: &[u8], prev: &[u8], bpp: usize, f: impl Fn(u8, u8, u8) -> u8 + Copy) -> u64 {
    let n = row.len().min(prev.len()).min(bpp);
    let mut total: u64 = (0..n)
        .map(|i| cost(row[i].wrapping_sub(f(0, prev[i], 0))) as u64)
        .sum();
    if row.len() > bpp {
        let (x, a) = (&row[bpp..], &row[..row.len() - bpp]);
        let (b, c) = (&prev[bpp..row.len()], &prev[..row.len() - bpp]);
        let mut start = 0;
        while start < x.len() {
            let stop = (start + SUM_RUN).min(x.len());
            let part: u32 = x[start..stop]
                .iter()
                .zip(&a[start..stop])
                .zip(&b[start..stop])
                .zip(&c[start..stop])
                .map(|(((&x, &a), &b), &c)| cost(x.wrapping_sub(f(a, b, c))) as u32)
                .sum();
            total += part as u64;
            start = stop;
        }
    }
    total
}

/// Writes `row` filtered with `f` into `out`.
#[inline(always)]
fn apply(out: &mut [u8], row: &[u8], prev: &[u8], bpp: usize, f: impl Fn(u8, u8, u8) -> u8) {
    let n = row.len();
    let (out, row, prev) = (&mut out[..n], &row[..n], &prev[..n]);
    let head = n.min(bpp);
    for i in 0..head {
        out[i] = row[i].wrapping_sub(f(0, prev[i], 0));
    }
    if n > bpp {
        let (x, a) = (&row[bpp..], &row[..n - bpp]);
        let (b, c) = (&prev[bpp..], &prev[..n - bpp]);
        for ((((o, &x), &a), &b), &c) in out[bpp..].iter_mut().zip(x).zip(a).zip(b).zip(c) {
            *o = x.wrapping_sub(f(a, b, c));
        }
    }
}

impl Rows {
    pub(super) fn new(stride: usize, bpp: usize) -> Rows {
        Rows {
            bpp,
            prev: vec![0; stride],
            out: vec![0; stride + 1],
        }
    }

    /// The filter byte and the filtered bytes of `row`.
    pub(super) fn next_row(&mut self, row: &[u8]) -> &[u8] {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above).
            unsafe { self.next_row_avx2(row) };
            return &self.out;
        }
        self.filter_row(row);
        &self.out
    }

    /// [`Rows::filter_row`] compiled for AVX2, whose 32-byte vectors sum
    /// the costs twice as fast as the baseline's 16-byte ones.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn next_row_avx2(&mut self, row: &[u8]) {
        self.filter_row(row)
    }

    /// Chooses the filter of `row` and writes the filtered row to `out`.
    #[inline(always)]
    fn filter_row(&mut self, row: &[u8]) {
        let kind = self.choose(row);
        let (bpp, prev) = (self.bpp, &self.prev[..]);
        let out = &mut self.out[1..];
        match kind {
            NONE => out.copy_from_slice(row),
            SUB => apply(out, row, prev, bpp, |a, _, _| a),
            UP => apply(out, row, prev, bpp, |_, b, _| b),
            AVERAGE => apply(out, row, prev, bpp, |a, b, _| average(a, b)),
            _ => apply(out, row, prev, bpp, paeth),
        }
        self.out[0] = kind;
        self.prev.copy_from_slice(row);
    }

    /// The filter with the smallest cost, ties to the earlier one in Go's
    /// order. (Go stops summing a filter once it reaches the best so far;
    /// that changes no choice, so every sum is taken whole here, in loops
    /// that vectorise.)
    #[inline(always)]
    fn choose(&self, row: &[u8]) -> u8 {
        let (bpp, prev) = (self.bpp, &self.prev[..]);
        let costs = [
            (UP, row_cost(row, prev, bpp, |_, b, _| b)),
            (PAETH, row_cost(row, prev, bpp, paeth)),
            (NONE, row_cost(row, prev, bpp, |_, _, _| 0)),
            (SUB, row_cost(row, prev, bpp, |a, _, _| a)),
            (AVERAGE, row_cost(row, prev, bpp, |a, b, _| average(a, b))),
        ];
        let mut best = costs[0];
        for c in &costs[1..] {
            if c.1 < best.1 {
                best = *c;
            }
        }
        best.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's definition (§7.2), one byte at a time.
    fn plain(row: &[u8], prev: &[u8], bpp: usize) -> Vec<u8> {
        let filtered = |kind: u8| -> Vec<u8> {
            (0..row.len())
                .map(|i| {
                    let a = if i >= bpp { row[i - bpp] } else { 0 };
                    let c = if i >= bpp { prev[i - bpp] } else { 0 };
                    let b = prev[i];
                    let pred = match kind {
                        NONE => 0,
                        SUB => a,
                        UP => b,
                        AVERAGE => ((a as u16 + b as u16) / 2) as u8,
                        _ => {
                            let (a, b, c) = (a as i16, b as i16, c as i16);
                            let (pa, pb, pc) =
                                ((b - c).abs(), (a - c).abs(), (a + b - 2 * c).abs());
                            (if pa <= pb && pa <= pc {
                                a
                            } else if pb <= pc {
                                b
                            } else {
                                c
                            }) as u8
                        }
                    };
                    row[i].wrapping_sub(pred)
                })
                .collect()
        };
        let cost = |f: &[u8]| {
            f.iter()
                .map(|&v| (v as i8).unsigned_abs() as u64)
                .sum::<u64>()
        };
        let mut best: Option<(u64, u8, Vec<u8>)> = None;
        for kind in [UP, PAETH, NONE, SUB, AVERAGE] {
            let f = filtered(kind);
            let c = cost(&f);
            if best.as_ref().is_none_or(|b| c < b.0) {
                best = Some((c, kind, f));
            }
        }
        let (_, kind, f) = best.unwrap();
        let mut out = vec![kind];
        out.extend(f);
        out
    }

    /// Both the vector path this CPU takes and the baseline one give the
    /// spec's filter choice and bytes, on rows of few and of many values.
    #[test]
    fn rows_filter_as_the_spec_says() {
        let mut seed = 7u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for (width, bpp, levels) in [(1, 1, 2), (2, 3, 3), (33, 1, 4), (700, 3, 3), (257, 3, 256)] {
            let stride = width * bpp;
            let (mut fast, mut base) = (Rows::new(stride, bpp), Rows::new(stride, bpp));
            let mut prev = vec![0u8; stride];
            for _ in 0..40 {
                let row: Vec<u8> = (0..stride)
                    .map(|_| {
                        let r = next();
                        if levels == 256 {
                            r as u8
                        } else {
                            [255, 0, 90, 165][r as usize % levels]
                        }
                    })
                    .collect();
                let want = plain(&row, &prev, bpp);
                assert_eq!(fast.next_row(&row), &want[..]);
                base.filter_row(&row);
                assert_eq!(base.out, want);
                prev = row;
            }
        }
    }

    #[test]
    fn ties_go_to_up_then_paeth() {
        // First row against zeros: Up, Paeth, None and Sub... all equal
        // for a constant-zero row, so Up wins.
        let mut r = Rows::new(4, 1);
        assert_eq!(r.next_row(&[0, 0, 0, 0])[0], UP);
        // A ramp is cheapest with Sub, and Paeth (which predicts the left byte here) ties it first.
        let mut r = Rows::new(6, 1);
        assert_eq!(r.next_row(&[10, 20, 30, 40, 50, 60])[0], PAETH);
    }
}
