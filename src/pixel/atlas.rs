//! The glyph atlases (data from pxpipe, Spleen and GNU Unifont; see
//! `assets/pixel/NOTICE`): 35,501 glyphs of 5 × 8 or 10 × 8 pixels in a
//! 1-bit plane and a coverage plane that share one index
//! (spec/pixel-render.md §3.2, ../shared/pixel/README.md).
//!
//! Packed so the binary stays small (1 MB instead of 3.4 MB raw): the
//! code points are 31 runs, the glyph offsets are the running sum of the
//! widths, the wide flags are one bit each, and the coverage plane (whose
//! only values are 0, 136, 187, 224 and 255, non-zero exactly where the
//! 1-bit plane has ink) is a 2-bit level per pixel. A test rebuilds the
//! five original files from this and checks their SHA-256.

use std::sync::LazyLock;

/// The atlas's code points: inclusive runs in increasing order.
const RUNS: [(u32, u32); 31] = [
    (0x0020, 0x007E),
    (0x00A0, 0x00AC),
    (0x00AE, 0x024F),
    (0x0370, 0x0482),
    (0x048A, 0x04FF),
    (0x0590, 0x0590),
    (0x05BE, 0x05BE),
    (0x05C0, 0x05C0),
    (0x05C3, 0x05C3),
    (0x05C6, 0x05C6),
    (0x05C8, 0x060F),
    (0x061B, 0x061B),
    (0x061D, 0x064A),
    (0x0660, 0x066F),
    (0x0671, 0x06D5),
    (0x06DD, 0x06DE),
    (0x06E5, 0x06E6),
    (0x06E9, 0x06E9),
    (0x06EE, 0x06FF),
    (0x2000, 0x200A),
    (0x2010, 0x2027),
    (0x202F, 0x205F),
    (0x2100, 0x214F),
    (0x2190, 0x23FF),
    (0x2460, 0x27BF),
    (0x3000, 0x3029),
    (0x302E, 0x3098),
    (0x309B, 0x30FF),
    (0x4E00, 0x9FFF),
    (0xAC00, 0xD7AF),
    (0xFF00, 0xFFEF),
];

/// Number of glyphs.
pub const GLYPHS: usize = 35501;

/// Glyph height, and the width of a narrow glyph (a wide one is twice).
pub const GLYPH_H: usize = 8;
pub const GLYPH_W: usize = 5;

/// 1 bit per pixel, most significant bit first; 1 is ink.
static MONO: &[u8] = include_bytes!("../../assets/pixel/mono.bin");
/// 2 bits per pixel, most significant first: the coverage level of an
/// inked pixel.
static GRAY_LEVELS: &[u8] = include_bytes!("../../assets/pixel/gray-levels.bin");
/// 1 bit per glyph, most significant first: the glyph is wide.
static WIDE: &[u8] = include_bytes!("../../assets/pixel/wide.bin");
/// Coverage of an inked pixel by level.
const LEVELS: [u8; 4] = [136, 187, 224, 255];

/// Index of the first glyph of each run.
static RUN_START: LazyLock<[usize; 31]> = LazyLock::new(|| {
    let mut out = [0; 31];
    let mut k = 0;
    for (i, &(a, b)) in RUNS.iter().enumerate() {
        out[i] = k;
        k += (b - a + 1) as usize;
    }
    out
});

/// Pixel offset of each glyph: the running sum of 40 (narrow) or 80 (wide).
static OFFSETS: LazyLock<Vec<u32>> = LazyLock::new(|| {
    let mut out = Vec::with_capacity(GLYPHS);
    let mut at = 0u32;
    for k in 0..GLYPHS {
        out.push(at);
        at += if is_wide(k) { 80 } else { 40 };
    }
    out
});

#[inline]
fn is_wide(k: usize) -> bool {
    WIDE[k >> 3] >> (7 - (k & 7)) & 1 == 1
}

/// A glyph of the atlas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glyph(usize);

impl Glyph {
    /// The glyph for `c`, if the atlas has one (exact code point only).
    pub fn of(c: char) -> Option<Glyph> {
        let c = c as u32;
        if (0x20..0x7F).contains(&c) {
            return Some(Glyph((c - 0x20) as usize));
        }
        let i = RUNS.partition_point(|&(a, _)| a <= c).checked_sub(1)?;
        let (a, b) = RUNS[i];
        (c <= b).then(|| Glyph(RUN_START[i] + (c - a) as usize))
    }

    /// Cells the glyph takes: 2 when wide, else 1.
    pub fn cells(self) -> usize {
        1 + is_wide(self.0) as usize
    }

    /// Width in pixels.
    pub fn width(self) -> usize {
        GLYPH_W * self.cells()
    }

    /// Whether pixel (x, y) of the glyph is ink in the 1-bit atlas.
    #[inline]
    pub fn mono(self, x: usize, y: usize) -> bool {
        let i = OFFSETS[self.0] as usize + y * self.width() + x;
        MONO[i >> 3] >> (7 - (i & 7)) & 1 == 1
    }

    /// Coverage (0–255) of pixel (x, y) in the coverage atlas.
    #[inline]
    pub fn coverage(self, x: usize, y: usize) -> u8 {
        let i = OFFSETS[self.0] as usize + y * self.width() + x;
        if MONO[i >> 3] >> (7 - (i & 7)) & 1 == 0 {
            return 0;
        }
        LEVELS[(GRAY_LEVELS[i >> 2] >> (6 - 2 * (i & 3)) & 3) as usize]
    }
}

impl Glyph {
    /// Calls `f(x, y, value)` for every inked pixel: value 255 (`gray`
    /// false, the 1-bit atlas) or the coverage.
    #[inline]
    pub fn each_ink(self, gray: bool, mut f: impl FnMut(usize, usize, u8)) {
        let w = self.width();
        let start = OFFSETS[self.0] as usize;
        for y in 0..GLYPH_H {
            for x in 0..w {
                let i = start + y * w + x;
                if MONO[i >> 3] >> (7 - (i & 7)) & 1 == 0 {
                    continue;
                }
                let v = if gray {
                    LEVELS[(GRAY_LEVELS[i >> 2] >> (6 - 2 * (i & 3)) & 3) as usize]
                } else {
                    255
                };
                f(x, y, v);
            }
        }
    }
}

/// Cells `c` takes when drawn: 2 for a wide glyph, else 1 (also when the
/// atlas has no glyph for it).
pub fn cells(c: char) -> usize {
    Glyph::of(c).map_or(1, Glyph::cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};

    fn sha(b: &[u8]) -> String {
        Sha256::digest(b)
            .iter()
            .map(|x| format!("{x:02x}"))
            .collect()
    }

    /// The packed atlas rebuilds the five files of ../shared/pixel
    /// byte for byte (their SHA-256 from its README).
    #[test]
    fn rebuilds_the_published_files() {
        let mut codepoints = Vec::new();
        let mut offsets = Vec::new();
        let mut wide = Vec::new();
        let mut mono = vec![0u8; MONO.len()];
        let mut gray = Vec::new();
        for &(a, b) in &RUNS {
            for c in a..=b {
                codepoints.extend_from_slice(&c.to_le_bytes());
                let g = Glyph::of(char::from_u32(c).unwrap()).unwrap();
                offsets.extend_from_slice(&OFFSETS[g.0].to_le_bytes());
                wide.push((g.cells() == 2) as u8);
                for y in 0..GLYPH_H {
                    for x in 0..g.width() {
                        let i = OFFSETS[g.0] as usize + y * g.width() + x;
                        if g.mono(x, y) {
                            mono[i >> 3] |= 0x80 >> (i & 7);
                        }
                        gray.push(g.coverage(x, y));
                    }
                }
            }
        }
        assert_eq!(codepoints.len() / 4, GLYPHS);
        for (name, bytes, want) in [
            (
                "codepoints",
                &codepoints,
                "71342047ad78e59fe840abd0af1bc9d84a4dea4256e9606ced2c79e5bf041db8",
            ),
            (
                "offsets",
                &offsets,
                "90a435c007643958bf3469b8fa2904cf882472b36aa6939358cd1243f1f88cb4",
            ),
            (
                "wideflags",
                &wide,
                "e7b2d59ba7b5bbe1beff2aafcf13fd17f0c8769848342b52d6a8b34fda7ebea7",
            ),
            (
                "mono",
                &mono,
                "60cf02f00cb6b3f84ca592bf0ad1fcd6127a8fc04acc154117903151b29562b9",
            ),
            (
                "gray",
                &gray,
                "c0825c9074fd812c5e23986aa9881add9248d9d904cb2403f534ed9ae3c11b14",
            ),
        ] {
            assert_eq!(sha(bytes), want, "{name}.bin");
        }
    }

    #[test]
    fn lookup() {
        assert_eq!(Glyph::of('\u{1f}'), None);
        assert_eq!(Glyph::of(' ').map(Glyph::cells), Some(1));
        assert_eq!(Glyph::of('中').map(Glyph::cells), Some(2));
        assert_eq!(Glyph::of('\u{23CE}').map(Glyph::cells), Some(2));
        assert_eq!(Glyph::of('\u{21B5}').map(Glyph::cells), Some(1));
        assert_eq!(Glyph::of('\u{AD}'), None);
        assert_eq!(Glyph::of('\u{FFFD}'), None);
        assert_eq!(Glyph::of('\u{1F600}'), None);
        assert_eq!(cells('\u{1F600}'), 1);
    }
}
