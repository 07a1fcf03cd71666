//! Differential tests: the fast deflater writes exactly the bytes of
//! the plain one ([`super::super::oracle`]) on random and page-like
//! inputs cut into writes in many ways.

use super::super::{filter, oracle::Oracle};
use super::*;
use proptest::prelude::*;

/// Compresses `writes` with both and compares the streams, with the
/// long chain given up after `long_steps` steps.
fn assert_same(writes: &[&[u8]], long_steps: u32) {
    let mut fast = Deflater::new();
    fast.long_steps = long_steps;
    let mut plain = Oracle::new();
    for w in writes {
        fast.write(w);
        plain.write(w);
    }
    let (a, b) = (fast.finish(), plain.finish());
    if a.out != b.out {
        let at = a.out.iter().zip(&b.out).take_while(|(x, y)| x == y).count();
        panic!(
            "streams differ at byte {at} of {} (oracle {}), input {} bytes in {} writes",
            a.out.len(),
            b.out.len(),
            writes.iter().map(|w| w.len()).sum::<usize>(),
            writes.len()
        );
    }
    assert_eq!(a.raw_writes, b.raw_writes);
    let input: Vec<u8> = writes.concat();
    assert!(
        miniz_oxide::inflate::decompress_to_vec(&a.out).ok() == Some(input),
        "the stream does not inflate to its input"
    );
}

/// `data` cut into writes of `step` bytes, with both give-up limits.
fn check(data: &[u8], step: usize) {
    let writes: Vec<&[u8]> = data.chunks(step.max(1)).collect();
    assert_same(&writes, LONG_STEPS);
    assert_same(&writes, 2);
}

/// A xorshift stream for the generators.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The filtered scanlines of a page-like image: rows of "glyphs"
/// (small bitmaps of a few inks from a small palette) on a white
/// background with blank rows between lines, as the renderer draws
/// them; one write per scanline, as the PNG writer feeds them.
fn page_rows(seed: u64, width: usize, lines: usize, bpp: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng(seed | 1);
    let (gw, gh, pitch) = (4 + rng.below(2), 6 + rng.below(3), 8 + rng.below(3));
    let glyphs: Vec<Vec<u8>> = (0..12 + rng.below(40))
        .map(|_| {
            (0..gw * gh)
                .map(|_| [0u8, 0, 0, 90, 255][rng.below(5)])
                .collect()
        })
        .collect();
    let palette: Vec<[u8; 3]> = (0..3).map(|_| [rng.next() as u8, 15, 200]).collect();
    let height = 8 + lines * pitch;
    let mut img = vec![255u8; width * height * bpp];
    for line in 0..lines {
        let ink = palette[line % 3];
        let mut x = 4;
        while x + gw + 4 <= width {
            if rng.below(6) == 0 {
                x += gw; // a space
                continue;
            }
            let g = &glyphs[rng.below(glyphs.len())];
            for gy in 0..gh {
                for gx in 0..gw {
                    let cov = g[gy * gw + gx] as u32;
                    let i = ((4 + line * pitch + gy) * width + x + gx) * bpp;
                    for (k, &c) in ink.iter().take(bpp).enumerate() {
                        let c = if bpp == 1 { 0 } else { c as u32 };
                        img[i + k] = (255 - cov * (255 - c) / 255) as u8;
                    }
                }
            }
            x += gw;
        }
    }
    let stride = width * bpp;
    let mut rows = filter::Rows::new(stride, bpp);
    img.chunks(stride)
        .map(|r| rows.next_row(r).to_vec())
        .collect()
}

#[test]
fn pages_give_the_oracles_bytes() {
    for (seed, width, lines, bpp) in [
        (1, 700, 12, 3),
        (2, 1565, 6, 3),
        (3, 1568, 10, 1),
        (4, 300, 40, 3),
        (5, 33, 30, 1),
    ] {
        let rows = page_rows(seed, width, lines, bpp);
        let writes: Vec<&[u8]> = rows.iter().map(|r| &r[..]).collect();
        assert_same(&writes, LONG_STEPS);
        assert_same(&writes, 2);
    }
}

#[test]
fn a_reused_deflater_writes_the_oracles_bytes() {
    // Each stream is compressed by the tables the one before left.
    let runs = vec![0u8; 100_000];
    for (seed, width, bpp) in [(21, 900, 3), (22, 1565, 3), (23, 400, 1)] {
        let mut d = Deflater::take();
        d.write(&runs);
        d.finish();
        let rows = page_rows(seed, width, 12, bpp);
        let (mut fast, mut plain) = (Deflater::take(), Oracle::new());
        for r in &rows {
            fast.write(r);
            plain.write(r);
        }
        assert!(fast.finish().out == plain.finish().out, "seed {seed}");
    }
}

#[test]
fn runs_and_lagging_long_chains_take_their_ways() {
    // A match that reaches the end of the buffered data when the
    // window slides leaves the long chains behind; runs of zeros go
    // in by the run way. (The bytes are checked below.)
    let mut d = Deflater::new();
    for w in vec![0u8; 200_000].chunks(4_697) {
        d.write(w);
    }
    assert!(d.caught_up > 0 && d.runs_inserted > 0);
}

#[test]
fn runs_and_periods_give_the_oracles_bytes() {
    check(&vec![0u8; 200_000], 4_697);
    for period in 1..=19 {
        let unit: Vec<u8> = (0..period as u8).map(|i| i.wrapping_mul(37)).collect();
        check(&unit.repeat(70_000 / period), 1000 + period * 13);
    }
}

#[test]
fn small_alphabets_give_the_oracles_bytes() {
    // Many equal strings: long chains, the 128 limit, ties.
    for (seed, symbols) in [(7, 2), (8, 3), (9, 5)] {
        let mut rng = Rng(seed);
        let data: Vec<u8> = (0..150_000).map(|_| rng.below(symbols) as u8).collect();
        check(&data, 4_000);
    }
}

#[test]
fn matches_at_the_window_edge_give_the_oracles_bytes() {
    // A block repeated at exactly the farthest distance, and just
    // beyond it, so candidates sit at p − 32768.
    let mut rng = Rng(11);
    let block: Vec<u8> = (0..MAX_DIST).map(|_| rng.below(4) as u8).collect();
    let mut data = block.repeat(3);
    data.extend(std::iter::repeat_n(9u8, 700));
    data.extend_from_slice(&block[..5000]);
    check(&data, 1);
    check(&data, 65_536);
}

#[test]
fn the_limit_reaches_the_farthest_candidate_as_the_walk_does() {
    // The cursor's string also starts exactly 32768 bytes back, and
    // nearer copies share its first 15 bytes only: whether that far
    // one counts depends on how many copies lie between (more than
    // 128: the walk stops before it).
    // (Sharing 7 bytes instead puts the far one on the mid chain.)
    for (copies, shared) in [50, 127, 128, 200]
        .into_iter()
        .flat_map(|c| [(c, 15), (c, 7)])
    {
        let mut rng = Rng(13 + copies as u64);
        let mut data: Vec<u8> = (0..MAX_DIST + 1000).map(|_| rng.next() as u8).collect();
        let s: Vec<u8> = (0..64).map(|_| rng.next() as u8).collect();
        let x = 300;
        data[x..x + 64].copy_from_slice(&s);
        for i in 0..copies {
            let at = 1000 + i * 24;
            data[at..at + shared].copy_from_slice(&s[..shared]);
            data[at + shared] = !s[shared];
        }
        data[x + MAX_DIST..x + MAX_DIST + 64].copy_from_slice(&s);
        check(&data, 7000);
    }
}

fn mixed() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            prop::collection::vec(any::<u8>(), 0..300),
            prop::collection::vec(0u8..3, 0..3000),
            (any::<u8>(), 1usize..2000).prop_map(|(b, n)| vec![b; n]),
            (0u8..4, 1usize..400).prop_map(|(k, n)| b"abcabd\xff\x00"[k as usize..].repeat(n)),
        ],
        0..40,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random mixtures of noise, small alphabets, runs and repeats,
    /// cut into writes of any size.
    #[test]
    fn mixtures_give_the_oracles_bytes(data in mixed(), step in 1usize..70_000) {
        check(&data, step);
    }

    /// Page-like images of any width, gray or RGB.
    #[test]
    fn page_like_images_give_the_oracles_bytes(
        seed in any::<u64>(),
        width in 12usize..1600,
        lines in 1usize..12,
        rgb in any::<bool>(),
    ) {
        let rows = page_rows(seed, width, lines, if rgb { 3 } else { 1 });
        let writes: Vec<&[u8]> = rows.iter().map(|r| &r[..]).collect();
        assert_same(&writes, LONG_STEPS);
        assert_same(&writes, 2);
    }
}
