//! Character classes of the o200k split pattern, as bit flags. Shared
//! with the build script (`#[path]`), which tabulates [`class_of`] for the
//! whole Basic Multilingual Plane, so the table and the function cannot
//! disagree.
#![allow(dead_code)] // the build script uses only part of it

use unicode_general_category::{get_general_category, GeneralCategory as G};

// Character classes used by the split pattern, as bit flags.
pub const UP: u8 = 1; // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
pub const LO: u8 = 2; // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
pub const LETTER: u8 = 4; // \p{L}
pub const NUM: u8 = 8; // \p{N}
pub const WS: u8 = 16; // \s (Unicode White_Space)
pub const NL: u8 = 32; // [\r\n]
/// U+007F DEL: in none of the pattern's character classes. The reference's
/// generated matcher tests ASCII characters against a table that leaves
/// DEL out of every class it should be in (`[^\s\p{L}\p{N}]`,
/// `[^\r\n\p{L}\p{N}]`), while its `(?!\S)` asks `unicode.IsSpace` and so
/// still sees DEL as non-space. No alternative can start at DEL and none
/// can continue through it, so the scan steps over it: no piece holds it
/// and it counts no token (pixel-render.md §6: `\x7f` → 0, `a\x7fb` → 2).
/// Only DEL is affected: the table covers code points below 128, and every
/// other one there (NUL, BEL, ESC, …) is matched as the pattern says (the
/// conformance cases with ESC, BEL and NUL pin that); C1 controls
/// (U+0080–U+009F) are tested by category, as punctuation-class
/// characters.
pub const SKIP: u8 = 64;

pub static ASCII_CLASS: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut c = 0;
    while c < 128 {
        let b = c as u8;
        t[c] = if b.is_ascii_uppercase() {
            UP | LETTER
        } else if b.is_ascii_lowercase() {
            LO | LETTER
        } else if b.is_ascii_digit() {
            NUM
        } else if b == b'\r' || b == b'\n' {
            WS | NL
        } else if b == b'\t' || b == 0x0b || b == 0x0c || b == b' ' {
            WS
        } else if b == 0x7f {
            SKIP
        } else {
            0
        };
        c += 1;
    }
    t
};

/// The split pattern's classes of `c`.
#[inline]
pub fn class_of(c: char) -> u8 {
    if (c as u32) < 128 {
        return ASCII_CLASS[c as usize];
    }
    if c.is_whitespace() {
        return WS;
    }
    match get_general_category(c) {
        G::UppercaseLetter | G::TitlecaseLetter => UP | LETTER,
        G::LowercaseLetter => LO | LETTER,
        G::ModifierLetter | G::OtherLetter => UP | LO | LETTER,
        G::NonspacingMark | G::SpacingMark | G::EnclosingMark => UP | LO,
        G::DecimalNumber | G::LetterNumber | G::OtherNumber => NUM,
        _ => 0,
    }
}
