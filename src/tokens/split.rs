//! The o200k pre-tokeniser: a hand-written, linear-time matcher for the
//! split pattern with the reference's newline quirk (spec/engine.md §6:
//! `[^\S\r\n]*[\r\n]+` instead of `\s*[\r\n]+`). No regex engine, so
//! no stack overflow on a million spaces and no slowdown on long runs of
//! one character.

pub(super) use super::classes::{class_of, ASCII_CLASS, LETTER, LO, NL, NUM, SKIP, UP, WS};

/// The one byte the scan steps over without a piece (see [`SKIP`]).
pub(super) const DEL: u8 = 0x7f;

/// Classes of the Basic Multilingual Plane, one byte per code point,
/// computed by the build script with [`class_of`] itself.
pub(super) static BMP_CLASS: &[u8; 0x10000] =
    include_bytes!(concat!(env!("OUT_DIR"), "/bmp_class.bin"));

/// Pre-tokeniser over valid UTF-8: precomputed classes per character.
pub(super) struct Splitter<'a> {
    pub(super) text: &'a [u8],
}

impl Splitter<'_> {
    /// Class and byte length of the character at `pos` (must be < len).
    #[inline(always)]
    fn at(&self, pos: usize) -> (u8, usize) {
        let b = self.text[pos];
        if b < 0x80 {
            return (ASCII_CLASS[b as usize], 1);
        }
        self.at_multibyte(pos, b)
    }

    #[inline(never)]
    fn at_multibyte(&self, pos: usize, b: u8) -> (u8, usize) {
        let t = self.text;
        // Valid UTF-8 (the caller converted invalid bytes): decode by hand.
        if b < 0xE0 {
            let c = ((b as u32 & 0x1F) << 6) | (t[pos + 1] as u32 & 0x3F);
            return (BMP_CLASS[c as usize], 2);
        }
        if b < 0xF0 {
            let c = ((b as u32 & 0x0F) << 12)
                | ((t[pos + 1] as u32 & 0x3F) << 6)
                | (t[pos + 2] as u32 & 0x3F);
            return (BMP_CLASS[c as usize], 3);
        }
        let c = ((b as u32 & 0x07) << 18)
            | ((t[pos + 1] as u32 & 0x3F) << 12)
            | ((t[pos + 2] as u32 & 0x3F) << 6)
            | (t[pos + 3] as u32 & 0x3F);
        (char::from_u32(c).map_or(0, class_of), 4)
    }

    /// End of a run of characters whose class intersects `mask`.
    #[inline(always)]
    fn run(&self, mut pos: usize, mask: u8) -> usize {
        while pos < self.text.len() {
            let (c, l) = self.at(pos);
            if c & mask == 0 {
                break;
            }
            pos += l;
        }
        pos
    }

    /// `[UP]*[LO]+` from `p` with backtracking; returns the end.
    fn up_then_lo(&self, p: usize) -> Option<usize> {
        // Greedy UP run, remembering the last position whose char is also LO.
        let mut pos = p;
        let mut last_lo_end = None;
        while pos < self.text.len() {
            let (c, l) = self.at(pos);
            if c & UP == 0 {
                break;
            }
            pos += l;
            if c & LO != 0 {
                last_lo_end = Some(pos);
            }
        }
        if pos < self.text.len() && self.at(pos).0 & LO != 0 {
            return Some(self.run(pos, LO));
        }
        last_lo_end
    }

    /// Optional contraction suffix `(?i:'s|'t|'re|'ve|'m|'ll|'d)` at `pos`.
    #[inline]
    fn contraction(&self, pos: usize) -> usize {
        let t = self.text;
        if pos + 1 < t.len() && t[pos] == b'\'' {
            let a = t[pos + 1].to_ascii_lowercase();
            match a {
                b's' | b't' | b'm' | b'd' => return pos + 2,
                b'r' | b'v' if pos + 2 < t.len() && t[pos + 2].eq_ignore_ascii_case(&b'e') => {
                    return pos + 3
                }
                b'l' if pos + 2 < t.len() && t[pos + 2].eq_ignore_ascii_case(&b'l') => {
                    return pos + 3
                }
                _ => {}
            }
        }
        pos
    }

    /// Fast paths for an ASCII first byte whose alternatives are decided by
    /// the next byte alone; `None` falls back to the general matcher.
    #[inline(always)]
    fn ascii_piece(&self, s: usize) -> Option<usize> {
        let t = self.text;
        let b = t[s];
        let next = t.get(s + 1).copied();
        match b {
            // Newlines: only alternative 5 can match, as a plain [\r\n]+ run.
            b'\r' | b'\n' => {
                let mut e = s + 1;
                while e < t.len() && matches!(t[e], b'\r' | b'\n') {
                    e += 1;
                }
                Some(e)
            }
            // Horizontal whitespace followed by ASCII whitespace: alternatives
            // 1-4 cannot match; run the whitespace alternatives directly.
            b' ' | b'\t' | 0x0b | 0x0c
                if next
                    .is_some_and(|n| matches!(n, b' ' | b'\t' | 0x0b | 0x0c | b'\r' | b'\n')) =>
            {
                let mut e = s;
                while e < t.len() && matches!(t[e], b' ' | b'\t' | 0x0b | 0x0c) {
                    e += 1;
                }
                if e < t.len() && t[e] >= 0x80 {
                    return None; // maybe a Unicode space: general path
                }
                if e < t.len() && matches!(t[e], b'\r' | b'\n') {
                    while e < t.len() && matches!(t[e], b'\r' | b'\n') {
                        e += 1;
                    }
                    return Some(e);
                }
                if e == t.len() {
                    return Some(e);
                }
                Some(e - 1)
            }
            // One horizontal space before a digit: alternative 7, one char.
            b' ' | b'\t' | 0x0b | 0x0c if next.is_some_and(|n| n.is_ascii_digit()) => Some(s + 1),
            // ASCII punctuation not followed by a letter (or anything that
            // might be one): alternative 4.
            _ if b < 0x80
                && ASCII_CLASS[b as usize] == 0
                && next.is_none_or(|n| n < 0x80 && !n.is_ascii_alphabetic()) =>
            {
                let mut e = s + 1;
                while e < t.len() && t[e] < 0x80 && ASCII_CLASS[t[e] as usize] == 0 {
                    e += 1;
                }
                if e < t.len() && t[e] >= 0x80 {
                    return None;
                }
                while e < t.len() && matches!(t[e], b'\r' | b'\n' | b'/') {
                    e += 1;
                }
                Some(e)
            }
            _ => None,
        }
    }

    /// End of the piece starting at `s` (s < len). At DEL, which no
    /// alternative matches, this is `s + 1`: a span that is no piece and
    /// counts no token.
    pub(super) fn next_piece(&self, s: usize) -> usize {
        if let Some(e) = self.ascii_piece(s) {
            return e;
        }
        self.general_piece(s)
    }

    /// The full matcher for the split pattern at `s`.
    fn general_piece(&self, s: usize) -> usize {
        let t = self.text;
        let (c0, l0) = self.at(s);
        if c0 & SKIP != 0 {
            return s + 1;
        }
        let prefix_ok = c0 & (NL | LETTER | NUM | SKIP) == 0;
        // Alternative 1: [^\r\n\p{L}\p{N}]?[UP]*[LO]+ contraction?
        if prefix_ok && s + l0 < t.len() {
            if let Some(e) = self.up_then_lo(s + l0) {
                return self.contraction(e);
            }
        }
        if let Some(e) = self.up_then_lo(s) {
            return self.contraction(e);
        }
        // Alternative 2: [^\r\n\p{L}\p{N}]?[UP]+[LO]* contraction?
        if prefix_ok && s + l0 < t.len() {
            let e = self.run(s + l0, UP);
            if e > s + l0 {
                return self.contraction(self.run(e, LO));
            }
        }
        if c0 & UP != 0 {
            let e = self.run(s, UP);
            return self.contraction(self.run(e, LO));
        }
        // Alternative 3: \p{N}{1,3}
        if c0 & NUM != 0 {
            let mut e = s + l0;
            for _ in 0..2 {
                if e < t.len() {
                    let (c, l) = self.at(e);
                    if c & NUM != 0 {
                        e += l;
                        continue;
                    }
                }
                break;
            }
            return e;
        }
        // Alternative 4: ' ?[^\s\p{L}\p{N}]+[\r\n/]*'
        let px = |c: u8| c & (WS | LETTER | NUM | SKIP) == 0;
        let mut start4 = None;
        if t[s] == b' ' && s + 1 < t.len() && px(self.at(s + 1).0) {
            start4 = Some(s + 1);
        } else if px(c0) {
            start4 = Some(s);
        }
        if let Some(p) = start4 {
            let mut e = p;
            while e < t.len() {
                let (c, l) = self.at(e);
                if !px(c) {
                    break;
                }
                e += l;
            }
            while e < t.len() && matches!(t[e], b'\r' | b'\n' | b'/') {
                e += 1;
            }
            return e;
        }
        // Alternative 5 (the reference's quirk): [^\S\r\n]*[\r\n]+
        let mut e = s;
        while e < t.len() {
            let (c, l) = self.at(e);
            if c & WS == 0 || c & NL != 0 {
                break;
            }
            e += l;
        }
        if e < t.len() && matches!(t[e], b'\r' | b'\n') {
            while e < t.len() && matches!(t[e], b'\r' | b'\n') {
                e += 1;
            }
            return e;
        }
        // Alternatives 6 and 7: \s+(?!\S) | \s+. Here the whitespace run
        // [s, e) holds no newline (alternative 5 would have matched).
        if e == t.len() {
            return e;
        }
        // Back off one character when the run is followed by non-space.
        let mut last = s;
        let mut p = s;
        while p < e {
            last = p;
            p += self.at(p).1;
        }
        if last > s {
            last
        } else {
            e
        }
    }
}
