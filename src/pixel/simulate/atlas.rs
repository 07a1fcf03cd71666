//! Which code points the glyph atlas holds, and how many cells each takes
//! (`../shared/pixel/README.md`): the only facts about glyphs that the
//! counters need besides the pixels themselves. A code point outside the
//! atlas takes one cell and is *dropped* when drawn.
//!
//! Looked up through two 64 Ki-bit tables (every atlas entry is in the
//! Basic Multilingual Plane), built once from the shipped index.

use std::sync::LazyLock;

/// The atlas index: code points (u32 LE, increasing) and wide flags (u8).
const CODEPOINTS: &[u8] = include_bytes!("../../../../shared/pixel/codepoints.bin");
const WIDEFLAGS: &[u8] = include_bytes!("../../../../shared/pixel/wideflags.bin");

struct Tables {
    present: Box<[u64; 1024]>,
    wide: Box<[u64; 1024]>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut present = Box::new([0u64; 1024]);
    let mut wide = Box::new([0u64; 1024]);
    for (k, cp) in CODEPOINTS.chunks_exact(4).enumerate() {
        let cp = u32::from_le_bytes([cp[0], cp[1], cp[2], cp[3]]) as usize;
        if cp < 0x10000 {
            present[cp >> 6] |= 1 << (cp & 63);
            if WIDEFLAGS.get(k) == Some(&1) {
                wide[cp >> 6] |= 1 << (cp & 63);
            }
        }
    }
    Tables { present, wide }
});

/// The glyph atlas holds `c`.
#[inline]
pub fn has_glyph(c: char) -> bool {
    let cp = c as usize;
    if (0x20..0x7F).contains(&cp) {
        return true;
    }
    cp < 0x10000 && TABLES.present[cp >> 6] >> (cp & 63) & 1 == 1
}

/// Cells `c` takes on a page: 2 for a wide glyph, else 1 (a character
/// outside the atlas too).
#[inline]
pub fn cells(c: char) -> usize {
    let cp = c as usize;
    if cp < 0x7F {
        return 1;
    }
    if cp < 0x10000 && TABLES.wide[cp >> 6] >> (cp & 63) & 1 == 1 {
        2
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atlas_facts_from_the_readme() {
        assert!(has_glyph(' ') && has_glyph('~') && has_glyph('↵') && has_glyph('→'));
        assert_eq!((cells('↵'), cells('→'), cells('⏎')), (1, 1, 2));
        assert_eq!(
            (cells('中'), cells('한'), cells('Ａ'), cells('ｱ')),
            (2, 2, 2, 1)
        );
        for c in [
            '\r', '\0', '\u{7f}', '\u{ad}', '\u{301}', '\u{200b}', '\u{fffd}', '😀',
        ] {
            assert!(!has_glyph(c), "{c:?}");
            assert_eq!(cells(c), 1);
        }
        assert!(has_glyph('\u{378}') && cells('\u{378}') == 2);
    }
}
