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

#[inline]
fn cost(v: u8) -> u32 {
    if v < 128 {
        v as u32
    } else {
        256 - v as u32
    }
}

#[inline]
fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let pa = (b as i32 - c as i32).abs();
    let pb = (a as i32 - c as i32).abs();
    let pc = (a as i32 + b as i32 - 2 * c as i32).abs();
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
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
        let kind = self.choose(row);
        let (bpp, prev) = (self.bpp, &self.prev);
        let out = &mut self.out[1..];
        for i in 0..row.len() {
            let a = if i >= bpp { row[i - bpp] } else { 0 };
            let c = if i >= bpp { prev[i - bpp] } else { 0 };
            let b = prev[i];
            out[i] = row[i].wrapping_sub(match kind {
                NONE => 0,
                SUB => a,
                UP => b,
                AVERAGE => ((a as u16 + b as u16) / 2) as u8,
                _ => paeth(a, b, c),
            });
        }
        self.out[0] = kind;
        self.prev.copy_from_slice(row);
        &self.out
    }

    /// The filter with the smallest cost, ties to the earlier one.
    fn choose(&self, row: &[u8]) -> u8 {
        let (bpp, prev) = (self.bpp, &self.prev);
        let sum = |f: &dyn Fn(usize) -> u8, best: u32| -> u32 {
            let mut s = 0;
            for i in 0..row.len() {
                s += cost(row[i].wrapping_sub(f(i)));
                if s >= best {
                    break;
                }
            }
            s
        };
        let left = |i: usize| if i >= bpp { row[i - bpp] } else { 0 };
        let upleft = |i: usize| if i >= bpp { prev[i - bpp] } else { 0 };
        let mut best = sum(&|i| prev[i], u32::MAX);
        let mut kind = UP;
        for (k, f) in [
            (
                PAETH,
                &(|i| paeth(left(i), prev[i], upleft(i))) as &dyn Fn(usize) -> u8,
            ),
            (NONE, &|_| 0),
            (SUB, &left),
            (AVERAGE, &|i| ((left(i) as u16 + prev[i] as u16) / 2) as u8),
        ] {
            let s = sum(f, best);
            if s < best {
                best = s;
                kind = k;
            }
        }
        kind
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
