//! o200k_base token counting, identical to the reference (spec/engine.md §6).
//!
//! * Bytes become text the Go way: every byte that is not part of a valid
//!   UTF-8 sequence is one U+FFFD.
//! * Pre-tokenisation is a hand-written, linear-time matcher for the o200k
//!   split pattern with the reference's newline quirk (`[^\S\r\n]*[\r\n]+`
//!   instead of `\s*[\r\n]+`). No regex engine, so no stack overflow on a
//!   million spaces and no slowdown on long runs of one character.
//! * Each piece found in the vocabulary is one token; other pieces are merged
//!   by rank (lowest first, leftmost on ties). The vocabulary table is static
//!   data laid out by `build.rs`, so counting costs no start-up time.
//! * Pieces of `LONG_PIECE` (1 MiB) or more are counted in windows that are
//!   joined where their encodings meet: by the rank merge when the piece
//!   repeats, else by the linear-time exact encoder of the `bpe` crate,
//!   built lazily from the same vocabulary, on every core.

use std::borrow::Cow;
use std::sync::LazyLock;

use crate::vocab_hash::{filter_bits, fingerprint, slot_of, vocab_hash, TABLE_BITS};
use unicode_general_category::{get_general_category, GeneralCategory as G};

static BLOB: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_blob.bin"));
static OFFSETS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_offsets.bin"));
static TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_table.bin"));
static FILTER: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_filter.bin"));

/// Pieces at least this long use the heap-based merge (O(n log n)); shorter
/// ones the simple quadratic loop, which is faster on short pieces.
const MEDIUM_PIECE: usize = 64;

/// Pieces at least this long are counted in windows ([`long_count`]): only
/// runs of one class of character this long get here, and merging them
/// whole would need tens of bytes per input byte.
const LONG_PIECE: usize = 1 << 20;

/// Name of the counter, as the reference reports it.
pub const COUNTER_NAME: &str = "o200k_base";

#[inline]
fn read_u32(data: &[u8], i: usize) -> u32 {
    let b = &data[i * 4..i * 4 + 4];
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

/// Bytes of the token with this rank.
#[inline]
fn token_bytes(rank: usize) -> &'static [u8] {
    let a = read_u32(OFFSETS, rank) as usize;
    let b = read_u32(OFFSETS, rank + 1) as usize;
    &BLOB[a..b]
}

#[inline]
fn read_u64(data: &[u8], i: usize) -> u64 {
    let b = &data[i * 8..i * 8 + 8];
    u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
}

/// Rank of a byte string in the vocabulary, if it is a token.
#[inline]
fn rank_of(bytes: &[u8]) -> Option<u32> {
    let mask = (1usize << TABLE_BITS) - 1;
    let h = vocab_hash(bytes);
    let (a, b) = filter_bits(h);
    if read_u64(FILTER, a / 64) & (1 << (a % 64)) == 0
        || read_u64(FILTER, b / 64) & (1 << (b % 64)) == 0
    {
        return None;
    }
    let fp = fingerprint(h);
    let mut i = slot_of(h);
    loop {
        let v = read_u64(TABLE, i);
        if v == 0 {
            return None;
        }
        let rank = v as u32;
        if (v >> 32) as u32 == fp && token_bytes(rank as usize - 1) == bytes {
            return Some(rank - 1);
        }
        i = (i + 1) & mask;
    }
}

/// Text as the reference sees it: valid UTF-8 borrowed, otherwise each bad
/// byte replaced by one U+FFFD (Go's `[]rune` conversion, not Rust's
/// maximal-subpart rule).
pub fn go_lossy(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(e) => Cow::Owned(go_lossy_owned(bytes, e.valid_up_to())),
    }
}

/// [`go_lossy`] of bytes whose first `valid` bytes are valid UTF-8 and
/// the next are not (as `from_utf8` found them): the prefix is copied, not
/// decoded again.
fn go_lossy_owned(bytes: &[u8], valid: usize) -> String {
    let mut out = String::with_capacity(bytes.len() + bytes.len() / 2);
    out.push_str(std::str::from_utf8(&bytes[..valid]).unwrap_or_default());
    let n = bytes.len();
    let mut i = valid;
    while i < n {
        if bytes[i] < 0x80 {
            let start = i;
            while i < n && bytes[i] < 0x80 {
                i += 1;
            }
            if i - start < 16 {
                // Short runs (random bytes: two on average) are cheaper
                // pushed one by one than checked and copied as a slice.
                out.extend(bytes[start..i].iter().map(|&b| b as char));
            } else {
                out.push_str(std::str::from_utf8(&bytes[start..i]).unwrap_or_default());
            }
            continue;
        }
        // One character if the sequence at `i` is well formed (Go's
        // DecodeRune and Rust agree on that), else one U+FFFD for this byte.
        match decode_at(bytes, i) {
            Some((c, width)) => {
                out.push(c);
                i += width;
            }
            None => {
                out.push('\u{FFFD}');
                i += 1;
            }
        }
    }
    out
}

/// The character encoded at `bytes[i]` (a byte of 0x80 or more) and its
/// width, if the sequence there is well formed UTF-8: the lead byte's range
/// and the first continuation's range (no overlong forms, no surrogates,
/// nothing past U+10FFFF) as in RFC 3629's table.
#[inline]
fn decode_at(bytes: &[u8], i: usize) -> Option<(char, usize)> {
    let b = bytes[i];
    let (width, lo, hi, init) = match b {
        0xC2..=0xDF => (2, 0x80, 0xBF, b as u32 & 0x1F),
        0xE0 => (3, 0xA0, 0xBF, 0),
        0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80, 0xBF, b as u32 & 0x0F),
        0xED => (3, 0x80, 0x9F, 0x0D),
        0xF0 => (4, 0x90, 0xBF, 0),
        0xF1..=0xF3 => (4, 0x80, 0xBF, b as u32 & 0x07),
        0xF4 => (4, 0x80, 0x8F, 4),
        _ => return None,
    };
    let seq = bytes.get(i + 1..i + width)?;
    if !(lo..=hi).contains(&seq[0]) || seq[1..].iter().any(|&c| c & 0xC0 != 0x80) {
        return None;
    }
    let cp = seq.iter().fold(init, |cp, &c| cp << 6 | (c as u32 & 0x3F));
    char::from_u32(cp).map(|c| (c, width))
}

// Character classes used by the split pattern, as bit flags.
const UP: u8 = 1; // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
const LO: u8 = 2; // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
const LETTER: u8 = 4; // \p{L}
const NUM: u8 = 8; // \p{N}
const WS: u8 = 16; // \s (Unicode White_Space)
const NL: u8 = 32; // [\r\n]

static ASCII_CLASS: [u8; 128] = {
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
        } else {
            0
        };
        c += 1;
    }
    t
};

/// Unicode White_Space.
#[inline]
pub fn is_unicode_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n'
            | '\u{0B}'
            | '\u{0C}'
            | '\r'
            | ' '
            | '\u{85}'
            | '\u{A0}'
            | '\u{1680}'
            | '\u{2000}'
            ..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

#[inline]
fn class_of(c: char) -> u8 {
    if (c as u32) < 128 {
        return ASCII_CLASS[c as usize];
    }
    if is_unicode_space(c) {
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

/// Classes of the Basic Multilingual Plane, built on first use (only
/// non-ASCII text pays for it, about a millisecond).
static BMP_CLASS: LazyLock<Box<[u8]>> = LazyLock::new(|| {
    (0u32..0x10000)
        .map(|u| char::from_u32(u).map_or(0, class_of))
        .collect::<Vec<u8>>()
        .into_boxed_slice()
});

/// Pre-tokeniser over valid UTF-8: precomputed classes per character.
struct Splitter<'a> {
    text: &'a [u8],
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

    /// End of the piece starting at `s` (s < len).
    fn next_piece(&self, s: usize) -> usize {
        if let Some(e) = self.ascii_piece(s) {
            return e;
        }
        self.general_piece(s)
    }

    /// The full matcher for the split pattern at `s`.
    fn general_piece(&self, s: usize) -> usize {
        let t = self.text;
        let (c0, l0) = self.at(s);
        let prefix_ok = c0 & (NL | LETTER | NUM) == 0;
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
        let px = |c: u8| c & (WS | LETTER | NUM) == 0;
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

/// UTF-8 of U+FFFD, which every invalid byte becomes.
const REPLACEMENT: &[u8] = "\u{FFFD}".as_bytes();

/// Rank-merge of one piece (tiktoken's `byte_pair_merge`), returning the
/// number of tokens. Quadratic; used for pieces shorter than
/// [`MEDIUM_PIECE`] only.
///
/// Each U+FFFD starts as one part instead of three bytes. That changes no
/// count: its two merges (`\xEF\xBF`, rank 2828, then `\xEF\xBF\xBD`,
/// rank 3251) rank below every token that holds part of a U+FFFD or a
/// U+FFFD and more (the lowest is 10123), so whenever a U+FFFD is still in
/// bytes, one of its own merges is pending and ranks below anything that
/// could touch its bytes; the merges elsewhere happen in the same order
/// either way. `replacement_merges_first` checks this against the whole
/// vocabulary. It saves two merges and two probes per invalid byte.
fn merge_count(piece: &[u8], ranks: &mut RankCache) -> usize {
    const MAX: u32 = u32::MAX;
    let n = piece.len();
    debug_assert!((2..MEDIUM_PIECE).contains(&n));
    // (start, rank of this part merged with the next), then the end.
    let mut parts = [(0u32, MAX); MEDIUM_PIECE + 1];
    let mut len = 0;
    let mut i = 0;
    while i < n {
        parts[len].0 = i as u32;
        len += 1;
        i += if piece[i..].starts_with(REPLACEMENT) {
            REPLACEMENT.len()
        } else {
            1
        };
    }
    parts[len] = (n as u32, MAX);
    len += 1;
    let mut min = (MAX, usize::MAX);
    for k in 0..len - 2 {
        let r = ranks
            .rank(&piece[parts[k].0 as usize..parts[k + 2].0 as usize])
            .unwrap_or(MAX);
        parts[k].1 = r;
        if r < min.0 {
            min = (r, k);
        }
    }
    let mut rank_at = |parts: &[(u32, u32)], i: usize| -> u32 {
        if i + 3 < parts.len() {
            ranks
                .rank(&piece[parts[i].0 as usize..parts[i + 3].0 as usize])
                .unwrap_or(MAX)
        } else {
            MAX
        }
    };
    while min.0 != MAX {
        let i = min.1;
        if i > 0 {
            parts[i - 1].1 = rank_at(&parts[..len], i - 1);
        }
        parts[i].1 = rank_at(&parts[..len], i);
        parts.copy_within(i + 2..len, i + 1);
        len -= 1;
        min = (MAX, usize::MAX);
        for (j, &(_, r)) in parts[..len - 1].iter().enumerate() {
            if r < min.0 {
                min = (r, j);
            }
        }
    }
    len - 1
}

/// Rank-merge of one piece with a binary heap over adjacent pairs and a
/// linked list of parts: the same merges in the same order as
/// [`merge_count`] (lowest rank first, leftmost on ties), in O(n log n).
fn heap_merge_count(piece: &[u8], ranks: &mut RankCache) -> usize {
    heap_merge_next(piece, ranks).1
}

/// The lengths of the tokens [`heap_merge_count`] finds, in order.
fn heap_merge_lengths(piece: &[u8], ranks: &mut RankCache) -> Vec<usize> {
    let (next, parts) = heap_merge_next(piece, ranks);
    let mut lengths = Vec::with_capacity(parts);
    let mut i = 0;
    while i < piece.len() {
        let j = next[i] as usize;
        lengths.push(j - i);
        i = j;
    }
    lengths
}

/// The merge of [`heap_merge_count`]: each part's successor (by start
/// byte; the parts are the chain from 0) and the number of parts.
fn heap_merge_next(piece: &[u8], ranks: &mut RankCache) -> (Vec<u32>, usize) {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    const NONE: u32 = u32::MAX;
    let n = piece.len();
    // Parts are identified by their start byte; `next[i]` is the start of the
    // following part (n at the end), `prev[i]` the previous one.
    let mut next: Vec<u32> = (1..=n as u32).collect();
    let mut prev: Vec<u32> = (0..n as u32).map(|i| i.wrapping_sub(1)).collect();
    let mut alive = vec![true; n];
    // Current rank of the pair starting at part i (NONE if not a token).
    let mut pair_rank: Vec<u32> = vec![NONE; n];
    let mut heap: BinaryHeap<Reverse<(u32, u32)>> = BinaryHeap::with_capacity(n);
    let mut rank_between = |a: usize, end: usize| ranks.rank(&piece[a..end]).unwrap_or(NONE);
    for (i, slot) in pair_rank.iter_mut().enumerate().take(n - 1) {
        *slot = rank_between(i, i + 2);
        if *slot != NONE {
            heap.push(Reverse((*slot, i as u32)));
        }
    }
    let mut parts = n;
    while let Some(Reverse((r, i))) = heap.pop() {
        let i = i as usize;
        if !alive[i] || pair_rank[i] != r {
            continue;
        }
        // Merge part i with the next one.
        let j = next[i] as usize;
        let k = next[j] as usize;
        alive[j] = false;
        next[i] = k as u32;
        if k < n {
            prev[k] = i as u32;
        }
        parts -= 1;
        // New pair (i, k).
        pair_rank[i] = if k < n {
            rank_between(i, next[k] as usize)
        } else {
            NONE
        };
        if pair_rank[i] != NONE {
            heap.push(Reverse((pair_rank[i], i as u32)));
        }
        // Pair (prev, i) changed too.
        let p = prev[i];
        if p != NONE {
            let p = p as usize;
            pair_rank[p] = rank_between(p, k);
            if pair_rank[p] != NONE {
                heap.push(Reverse((pair_rank[p], p as u32)));
            }
        }
    }
    (next, parts)
}

static BPE_DATA: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_bpe.msgpack"));

/// The `bpe` crate's encoder for o200k_base, built by `build.rs`.
static LONG_ENCODER: LazyLock<Option<bpe::byte_pair_encoding::BytePairEncoding>> =
    LazyLock::new(|| rmp_serde::from_slice(BPE_DATA).ok());

#[inline]
/// Tokens of one piece. `linear`: the text is large enough that loading
/// the linear encoder is amortised, so it also takes long non-token pieces
/// (it beats rank merging on long unique pieces such as CJK runs).
fn piece_count(piece: &[u8], linear: bool, ranks: &mut RankCache) -> usize {
    let n = piece.len();
    if n == 1 || rank_of(piece).is_some() {
        return 1;
    }
    if n >= LONG_PIECE {
        return long_count(piece);
    }
    if linear && n > LINEAR_PIECE {
        if let Some(enc) = LONG_ENCODER.as_ref() {
            return enc.count(piece);
        }
        // Unreachable with the data build.rs writes; stay exact anyway.
    }
    if n < MEDIUM_PIECE {
        merge_count(piece, ranks)
    } else {
        heap_merge_count(piece, ranks)
    }
}

/// Bytes of a long piece encoded at a time by the `bpe` crate's encoder.
const WINDOW: usize = 1 << 20;
/// Bytes of a window of a periodic piece, merged by rank (see
/// [`long_count`]).
const REPEAT_WINDOW: usize = 1 << 16;
/// Bytes each window runs into the next one's start, where the two are
/// synchronised.
const WINDOW_OVERLAP: usize = 1 << 12;

/// Token count of a piece of [`LONG_PIECE`] bytes or more: a run of one
/// class of characters (a line of `=`, a DNA sequence, 8 MiB of `a`).
///
/// A piece that is a short block repeated (one character, a short
/// pattern: see [`short_period`]) is counted by the rank merge in windows
/// of a whole number of periods, about [`REPEAT_WINDOW`] bytes, all alike
/// but the last, each distinct window once: two windows' worth of work, and
/// no encoder to load (65 MB: eleven times 8 MiB of `a`). Any other piece
/// is encoded by the `bpe` crate's linear encoder in windows of [`WINDOW`]
/// bytes on every core, which also bounds memory by the window rather than
/// the piece (the encoder keeps every token: 381 MB for 64 MiB of random
/// letters encoded whole).
fn long_count(piece: &[u8]) -> usize {
    if let Some(p) = short_period(piece) {
        // Windows a whole number of periods long all hold the same bytes.
        let window = REPEAT_WINDOW / p * p;
        let merge = |w: &[u8]| heap_merge_lengths(w, &mut RankCache::default());
        if let Some(c) = windows_met(piece, window, WINDOW_OVERLAP, &merge) {
            return c;
        }
    }
    match LONG_ENCODER.as_ref() {
        Some(enc) => {
            let encode = |w: &[u8]| encoded_lengths(enc, w);
            windows_met(piece, WINDOW, WINDOW_OVERLAP, &encode).unwrap_or_else(|| enc.count(piece))
        }
        // Unreachable with the data build.rs writes; stay exact anyway.
        None => heap_merge_count(piece, &mut RankCache::default()),
    }
}

/// The lengths of the tokens the `bpe` crate's encoder makes of `w`.
fn encoded_lengths(enc: &bpe::byte_pair_encoding::BytePairEncoding, w: &[u8]) -> Vec<usize> {
    let tokens = enc.encode_via_backtracking(w);
    tokens.iter().map(|&t| enc.token_len(t)).collect()
}

/// Longest period [`short_period`] looks for.
const MAX_PERIOD: usize = 4096;

/// The smallest period of `piece` if it is at most [`MAX_PERIOD`] bytes
/// and the piece holds at least two windows' worth of it: the piece is one
/// block repeated (`a` over and over, `abcdefg` over and over). The
/// smallest period q of its first [`REPEAT_WINDOW`] bytes (prefix function,
/// linear) is the only candidate: if the whole piece has a period
/// p <= 4096, that prefix has periods p and q, so (Fine and Wilf) it has
/// period gcd(p, q), which is q as q is the smallest; q divides p, and the
/// piece, p bytes repeated, has period q. One comparison of the piece with
/// itself shifted by q confirms it.
fn short_period(piece: &[u8]) -> Option<usize> {
    let n = piece.len();
    if n < 2 * REPEAT_WINDOW {
        return None;
    }
    let prefix = &piece[..REPEAT_WINDOW];
    // border[i]: the longest proper border of prefix[..=i]; the smallest
    // period of the prefix is its length minus its longest border.
    let mut border = vec![0usize; prefix.len()];
    for i in 1..prefix.len() {
        let mut k = border[i - 1];
        while k > 0 && prefix[i] != prefix[k] {
            k = border[k - 1];
        }
        if prefix[i] == prefix[k] {
            k += 1;
        }
        border[i] = k;
    }
    let q = prefix.len() - border[prefix.len() - 1];
    (q <= MAX_PERIOD && piece[q..] == piece[..n - q]).then_some(q)
}

/// An encoding of a window, as the lengths of its tokens.
type Encode<'a> = dyn Fn(&[u8]) -> Vec<usize> + Sync + 'a;

/// A window's encoding as the joining needs it: its token count, and its
/// tokens (start, end relative to the window, index) that end within the
/// first `overlap` bytes (its head) or start at or past `window` (its
/// tail, inside the next window).
struct WindowTokens {
    count: usize,
    head: Vec<(usize, usize, usize)>,
    tail: Vec<(usize, usize, usize)>,
}

/// Token count of `piece` from the encodings (`encode`: token lengths) of
/// windows `[k * window, (k + 1) * window + overlap)`, or `None` if some
/// pair of neighbouring windows does not meet.
///
/// Where two neighbours' encodings have the same token at the same place
/// in their overlap, the first's tokens up to it and the second's from it
/// are the piece's encoding (the `bpe` crate's README, Corollary III: two
/// valid encodings sharing a token join into a valid one, and the valid
/// encoding is unique). Encodings of random text meet within a few tokens;
/// a periodic run whose period does not divide the window may never meet.
/// A window with the same bytes as the one before is not encoded again.
fn windows_met(piece: &[u8], window: usize, overlap: usize, encode: &Encode) -> Option<usize> {
    debug_assert!(window > overlap, "a window's two overlaps must not cross");
    let n = piece.len();
    let starts: Vec<usize> = (0..n).step_by(window).collect();
    let span = |k: usize| starts[k]..starts.get(k + 1).map_or(n, |&s| (s + overlap).min(n));
    let fresh: Vec<usize> = (0..starts.len())
        .filter(|&k| k == 0 || piece[span(k)] != piece[span(k - 1)])
        .collect();
    let tokens_of = |k: usize| -> WindowTokens {
        let lengths = encode(&piece[span(k)]);
        let (mut head, mut tail) = (Vec::new(), Vec::new());
        let mut pos = 0;
        for (i, len) in lengths.iter().enumerate() {
            let end = pos + len;
            if end <= overlap {
                head.push((pos, end, i));
            }
            if pos >= window {
                tail.push((pos - window, end - window, i));
            }
            pos = end;
        }
        WindowTokens {
            count: lengths.len(),
            head,
            tail,
        }
    };
    let encoded: Vec<WindowTokens> = crate::par::map_chunks(&fresh, crate::par::workers(), |ks| {
        ks.iter().map(|&k| tokens_of(k)).collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect();
    // Window k's encoding: that of the last fresh window at or before k.
    let mut windows: Vec<&WindowTokens> = Vec::with_capacity(starts.len());
    let mut f = 0;
    for k in 0..starts.len() {
        if fresh.get(f + 1) == Some(&k) {
            f += 1;
        }
        windows.push(&encoded[f]);
    }
    // Where window k meets window k + 1: the first token both have (the
    // tail is relative to the next window's start, like its head), as its
    // index in each. Both lists are in order of start.
    let mut meets = Vec::with_capacity(windows.len() - 1);
    for pair in windows.windows(2) {
        let (tail, head) = (&pair[0].tail, &pair[1].head);
        let (mut i, mut j) = (0, 0);
        let mut meet = None;
        while i < tail.len() && j < head.len() {
            let ((s, e, x), (s2, e2, y)) = (tail[i], head[j]);
            match s.cmp(&s2) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal if e == e2 => {
                    meet = Some((x, y));
                    break;
                }
                std::cmp::Ordering::Equal => (i, j) = (i + 1, j + 1),
            }
        }
        meets.push(meet?);
    }
    // Window k counts its tokens after the meeting with k - 1 up to and
    // including the meeting with k + 1.
    let count = (0..windows.len())
        .map(|k| {
            let from = if k == 0 { 0 } else { meets[k - 1].1 + 1 };
            let to = meets.get(k).map_or(windows[k].count, |m| m.0 + 1);
            to - from
        })
        .sum();
    Some(count)
}

/// Texts (or chunks) at least this long get the larger piece cache.
const BIG_TEXT: usize = 1 << 20;

/// Texts at least this long may use the linear encoder for pieces longer
/// than [`LINEAR_PIECE`]. It loads in ~60 ms and takes ~65 MB: worth it
/// here (64 MiB of CJK: 2.1 s instead of 2.8 s), not for smaller texts,
/// where it would be most of the peak memory (8 MiB of CJK: 0.29 s with
/// it, 0.32 s without, and 101 MB instead of 33 MB).
const LINEAR_TEXT: usize = 48 << 20;

/// Pieces longer than this may go to the linear encoder (see
/// [`LINEAR_TEXT`]).
const LINEAR_PIECE: usize = 16;
/// Pieces up to this many bytes go through [`PieceCache`]: a slot holds 14
/// bytes of piece, its length and its count in 16 bytes.
const CACHED_PIECE: usize = 14;
/// log2 of the piece cache's slots (32768 x 16 bytes, a quarter of L2:
/// text with a few thousand distinct words still hits).
const CACHE_BITS: u32 = 15;
/// The same for texts of [`BIG_TEXT`] bytes or more, where zeroing a larger
/// cache is amortised and text with hundreds of thousands of distinct short
/// pieces (random bytes: 528k distinct in 3.3M pieces per 8 MiB) still hits.
const BIG_CACHE_BITS: u32 = 17;
/// The same for parts of at least [`HUGE_LOSSY`] bytes of invalid UTF-8,
/// whose distinct short pieces (random bytes: 528k per 8 MiB) overflow the
/// big cache: 8 MiB a counting thread, on inputs of 32 MiB and more.
const HUGE_CACHE_BITS: u32 = 19;
const HUGE_LOSSY: usize = 16 << 20;

/// A string of at most 16 bytes as a little-endian number: byte `i` of the
/// result is `b[i]`, the rest zero. Two overlapping loads instead of a
/// copy of variable length (which is a call to `memcpy`).
#[inline]
fn short_bytes(b: &[u8]) -> u128 {
    let n = b.len();
    debug_assert!(n <= 16);
    let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
    let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap_or([0; 4]));
    if n >= 8 {
        // The last eight bytes, shifted down past the ones the first load has.
        let tail = (u64_at(n - 8) as u128) >> (8 * (16 - n));
        u64_at(0) as u128 | tail << 64
    } else if n >= 4 {
        let tail = (u32_at(n - 4) as u64) >> (8 * (8 - n));
        (u32_at(0) as u64 | tail << 32) as u128
    } else {
        b.iter()
            .enumerate()
            .fold(0, |k, (i, &x)| k | (x as u128) << (8 * i))
    }
}

/// Slot-picking hash of a short string's key (its bytes and length).
#[inline]
fn short_hash(key: u128, len: usize) -> u64 {
    let (a, b) = (key as u64, (key >> 64) as u64);
    (a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
        .wrapping_add(len as u64)
        .wrapping_mul(0x1656_67B1_9E37_79F9)
}

/// Direct-mapped cache of short pieces and their token counts: text repeats
/// the same pieces (`"name`, `":`, indentation) far more often than the
/// vocabulary table fits in cache. A slot is one `u128`, so a probe touches
/// one cache line: the piece's bytes in bytes 0..14, its length in byte 14
/// (never 0 in a used slot), its count in byte 15.
struct PieceCache {
    slots: Vec<u128>,
    /// 64 minus the slot bits: the top bits of a hash pick the slot.
    shift: u32,
    ranks: RankCache,
}

/// Bytes 0..15 of a piece cache slot: the piece and its length.
const KEY_MASK: u128 = (1 << 120) - 1;

/// Direct-mapped cache of vocabulary probes for strings of at most 16
/// bytes. Merging probes the same pairs and triples over and over (a CJK
/// lead byte and its continuation, `\xEF\xBF` of every U+FFFD), and each
/// probe of the 4 MB table costs a few cache misses. Allocated on first use.
#[derive(Default)]
struct RankCache {
    slots: Vec<RankSlot>,
}

/// A cached probe: the string (zero-padded) and its length (0: empty
/// slot), and its rank (`u32::MAX`: not a token).
#[derive(Clone, Copy, Default)]
struct RankSlot {
    bytes: u128,
    len: u32,
    rank: u32,
}

/// log2 of the rank cache's slot count (8192 x 32 bytes).
const RANK_SLOT_BITS: u32 = 13;

impl RankCache {
    #[inline]
    fn rank(&mut self, bytes: &[u8]) -> Option<u32> {
        let n = bytes.len();
        if n > 16 {
            return rank_of(bytes);
        }
        if self.slots.is_empty() {
            self.slots = vec![RankSlot::default(); 1 << RANK_SLOT_BITS];
        }
        let key = short_bytes(bytes);
        let h = short_hash(key, n);
        let slot = &mut self.slots[(h >> (64 - RANK_SLOT_BITS)) as usize];
        if slot.len == n as u32 && slot.bytes == key {
            return (slot.rank != u32::MAX).then_some(slot.rank);
        }
        let r = rank_of(bytes);
        *slot = RankSlot {
            bytes: key,
            len: n as u32,
            rank: r.unwrap_or(u32::MAX),
        };
        r
    }
}

/// A piece waiting for its cache slot (prefetched) to arrive.
#[derive(Clone, Copy, Default)]
struct Pending {
    start: usize,
    end: usize,
    key: u128,
    slot: usize,
}

impl PieceCache {
    fn new(bits: u32) -> PieceCache {
        PieceCache {
            slots: vec![0; 1 << bits],
            shift: 64 - bits,
            ranks: RankCache::default(),
        }
    }

    /// A cache sized for a text (or chunk) of `len` bytes, `invalid` when
    /// they are not UTF-8.
    fn for_text(len: usize, invalid: bool) -> PieceCache {
        PieceCache::new(if invalid && len >= HUGE_LOSSY {
            HUGE_CACHE_BITS
        } else if len >= BIG_TEXT {
            BIG_CACHE_BITS
        } else {
            CACHE_BITS
        })
    }

    /// The piece `text[start..end]` (2..=[`CACHED_PIECE`] bytes) with its
    /// slot, which is fetched into cache meanwhile.
    #[inline]
    fn pending(&self, text: &[u8], start: usize, end: usize) -> Pending {
        let n = end - start;
        let key = short_bytes(&text[start..end]) | (n as u128) << 112;
        let slot = (short_hash(key, 0) >> self.shift) as usize;
        #[cfg(target_arch = "x86_64")]
        if let Some(x) = self.slots.get(slot) {
            // SAFETY: a prefetch is a hint; it reads nothing and `x` is valid.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    (x as *const u128).cast(),
                )
            }
        }
        Pending {
            start,
            end,
            key,
            slot,
        }
    }

    /// Token count of a pending piece, from the cache or counted and kept.
    #[inline]
    fn resolve(&mut self, text: &[u8], p: Pending, linear: bool) -> usize {
        let s = self.slots[p.slot];
        if s & KEY_MASK == p.key {
            return (s >> 120) as usize;
        }
        let c = piece_count(&text[p.start..p.end], linear, &mut self.ranks);
        self.slots[p.slot] = p.key | (c as u128) << 120;
        c
    }
}

/// Token count of valid UTF-8 text.
pub fn count_str(text: &str) -> usize {
    count_in(
        text,
        &mut PieceCache::for_text(text.len(), false),
        text.len() >= LINEAR_TEXT,
    )
}

/// Short pieces whose cache slots are being fetched at a time (2, 4 and 8
/// measured the same, within the host's noise; 1 was 5-10 % slower on
/// 64 MiB of random bytes).
const IN_FLIGHT: usize = 4;

/// Token count of valid UTF-8 text (or a chunk of it cut at a piece
/// boundary) with a cache that may have counted earlier chunks. A short
/// piece is looked up [`IN_FLIGHT`] short pieces late: its slot is
/// prefetched when it is found and read after that many more are found, so
/// the cache miss (the cache is larger than L2 for large texts) overlaps
/// the splitting and the merging of other pieces.
fn count_in(text: &str, cache: &mut PieceCache, linear: bool) -> usize {
    let sp = Splitter {
        text: text.as_bytes(),
    };
    let t = sp.text;
    let mut pos = 0;
    let mut total = 0;
    // Short piece number k waits in ring[k % IN_FLIGHT] until number
    // k + IN_FLIGHT takes its place.
    let mut ring = [Pending::default(); IN_FLIGHT];
    let mut short = 0;
    while pos < t.len() {
        let end = sp.next_piece(pos);
        let n = end - pos;
        if n == 1 {
            total += 1;
        } else if n > CACHED_PIECE {
            total += piece_count(&t[pos..end], linear, &mut cache.ranks);
        } else {
            let next = cache.pending(t, pos, end);
            let at = short % IN_FLIGHT;
            if short >= IN_FLIGHT {
                total += cache.resolve(t, ring[at], linear);
            }
            ring[at] = next;
            short += 1;
        }
        pos = end;
    }
    for &p in &ring[..short.min(IN_FLIGHT)] {
        total += cache.resolve(t, p, linear);
    }
    total
}

/// Texts shorter than this are counted on one thread.
const PARALLEL_MIN: usize = 2 << 20;
/// How far past a chunk's target end to look for a safe split point.
const SPLIT_SEARCH: usize = 1 << 16;

/// True when the split pattern always starts a new piece at `p`
/// (0 < p < len) of `t`, valid UTF-8 or not:
/// * after an ASCII digit followed by ASCII punctuation other than `'`
///   (a digit piece cannot take punctuation);
/// * after a newline followed by a non-space character other than `/`
///   (only a punctuation piece's `[\r\n/]*` tail can continue past a
///   newline);
/// * after a letter (`\p{L}`) followed by a character that is neither a
///   letter, a mark nor `'`: a letter belongs to a letter piece, which can
///   only continue with letters, marks or a contraction. This is what lets
///   text without ASCII punctuation (CJK, emoji) be split at all.
///
/// On invalid UTF-8 it also cuts where conversion agrees on both sides: it
/// never cuts before a continuation byte, so no well-formed sequence spans
/// the cut and the conversion, which steps over a well-formed sequence or
/// one bad byte at a time, reaches the cut exactly and goes on from it as
/// from a start; the characters it decodes on each side are those the
/// conversion makes (a bad byte there makes it answer no). Mostly valid
/// text without ASCII (CJK with a bad byte here and there) is cut at its
/// letter boundaries like valid text.
#[inline]
fn safe_split(t: &[u8], p: usize) -> bool {
    let (a, b) = (t[p - 1], t[p]);
    if (0x80..0xC0).contains(&b) {
        return false;
    }
    if a.is_ascii_digit() {
        return b < 0x80 && ASCII_CLASS[b as usize] == 0 && b != b'\'';
    }
    if a == b'\n' {
        return b < 0x80 && ASCII_CLASS[b as usize] & WS == 0 && b != b'/';
    }
    let start = (p.saturating_sub(4)..p)
        .find(|&q| !(0x80..0xC0).contains(&t[q]))
        .unwrap_or(p - 1);
    let before = std::str::from_utf8(&t[start..p])
        .ok()
        .and_then(|s| s.chars().next_back());
    let at = std::str::from_utf8(&t[p..(p + 4).min(t.len())]).map_or_else(
        |e| {
            std::str::from_utf8(&t[p..p + e.valid_up_to()])
                .ok()
                .and_then(|s| s.chars().next())
        },
        |s| s.chars().next(),
    );
    match (before, at) {
        (Some(c1), Some(c2)) => {
            class_of(c1) & LETTER != 0 && class_of(c2) & (LETTER | UP | LO) == 0 && c2 != '\''
        }
        _ => false,
    }
}

/// Chunk boundaries for counting `t` on `parts` threads: the first point
/// at or after each even share where `cut_ok` holds.
fn split_points(t: &[u8], parts: usize, cut_ok: impl Fn(usize) -> bool) -> Vec<usize> {
    let mut cuts = vec![0];
    for k in 1..parts {
        let target = t.len() * k / parts;
        let limit = (target + SPLIT_SEARCH).min(t.len());
        if let Some(p) = (target.max(1)..limit).find(|&p| cut_ok(p)) {
            if p > cuts[cuts.len() - 1] {
                cuts.push(p);
            }
        }
    }
    cuts.push(t.len());
    cuts
}

/// Token count of valid UTF-8 text, using every core for large texts.
pub fn count_parallel(text: &str) -> usize {
    let parts = crate::par::workers();
    if text.len() < PARALLEL_MIN || parts < 2 {
        return count_str(text);
    }
    let t = text.as_bytes();
    let cuts = split_points(t, parts, |p| safe_split(t, p));
    let chunks: Vec<&str> = cuts.windows(2).map(|w| &text[w[0]..w[1]]).collect();
    let linear = text.len() >= LINEAR_TEXT;
    crate::par::map(chunks, |c| {
        count_in(c, &mut PieceCache::for_text(c.len(), false), linear)
    })
    .into_iter()
    .sum()
}

/// Token count of raw bytes, as the reference counts them.
pub fn count(bytes: &[u8]) -> usize {
    match std::str::from_utf8(bytes) {
        Ok(text) => count_parallel(text),
        Err(_) => count_lossy_parallel(bytes),
    }
}

/// Token count of bytes that are not valid UTF-8, using every core: the
/// bytes are cut where conversion and split agree on both sides (see
/// [`safe_split`]), and each worker converts and counts its part.
fn count_lossy_parallel(bytes: &[u8]) -> usize {
    let parts = crate::par::workers();
    if bytes.len() < PARALLEL_MIN || parts < 2 {
        return count_lossy(bytes);
    }
    let cuts = split_points(bytes, parts, |p| safe_split(bytes, p));
    let chunks: Vec<&[u8]> = cuts.windows(2).map(|w| &bytes[w[0]..w[1]]).collect();
    crate::par::map(chunks, count_lossy).into_iter().sum()
}

/// Bytes of invalid UTF-8 converted at a time: converting a whole part
/// would hold up to three times its size (each invalid byte becomes a
/// 3-byte U+FFFD).
const LOSSY_PART: usize = 1 << 20;

/// Token count of bytes that are not valid UTF-8, converted and counted a
/// part at a time with one cache. The linear encoder takes no piece under
/// [`LONG_PIECE`] here, as it does in valid text of [`LINEAR_TEXT`] bytes:
/// detection holds a converted copy of such input (one to one and a half
/// times its size), and the encoder's 65 MB on top would pass three times
/// the input (64 MiB of CJK with a bad byte every 100 KB: 231 MB with it,
/// 165 MB and 0.4 s slower without); the short pieces dense bad bytes make
/// are merged faster by rank anyway (U+FFFD is one part).
fn count_lossy(bytes: &[u8]) -> usize {
    count_lossy_by(bytes, LOSSY_PART)
}

fn count_lossy_by(bytes: &[u8], part: usize) -> usize {
    let cuts = split_points(bytes, bytes.len().div_ceil(part), |p| safe_split(bytes, p));
    let mut cache = PieceCache::for_text(bytes.len(), true);
    cuts.windows(2)
        .map(|w| count_in(&go_lossy(&bytes[w[0]..w[1]]), &mut cache, false))
        .sum()
}

/// Pieces of the split, for differential tests.
#[doc(hidden)]
pub fn split_pieces(text: &str) -> Vec<&str> {
    let sp = Splitter {
        text: text.as_bytes(),
    };
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < text.len() {
        let end = sp.next_piece(pos);
        out.push(&text[pos..end]);
        pos = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Number of tokens in the vocabulary.
    fn vocab_size() -> usize {
        OFFSETS.len() / 4 - 1
    }

    /// One step of the xorshift generator the tests draw inputs from.
    pub(super) fn xorshift(x: &mut u64) {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
    }

    #[test]
    fn quirks_from_the_spec() {
        assert_eq!(count(b""), 0);
        assert_eq!(count(b"\n \n"), 2);
        assert_eq!(count(b" \n \n"), 2);
        assert_eq!(count(b"a\n\t\nb"), 4);
    }

    #[test]
    fn chunked_counts_equal_sequential_counts() {
        let json: String = (0..40_000)
            .map(|i| format!("  {{\n    \"id\": {i},\n    \"name\": \"user{i}\",\n    \"it's\": \"x/y\"\n  }},\n"))
            .collect();
        let log: String = (0..60_000)
            .map(|i| {
                format!(
                    "2024-01-02 03:04:{:02} INFO worker-{i} done\n/path/{i}\n",
                    i % 60
                )
            })
            .collect();
        // No ASCII punctuation, no newline: only letter boundaries split it.
        let cjk: String = (0..900_000)
            .map(|i: usize| {
                ["日本語", "😀", "한국어", "、", " ", "テキスト", "\u{301}"][i * 7 % 11 % 7]
            })
            .collect();
        for text in [json, log, cjk] {
            assert!(text.len() > PARALLEL_MIN);
            // Long pieces through the linear encoder count the same.
            let linear = count_in(&text, &mut PieceCache::for_text(text.len(), false), true);
            assert_eq!(linear, count_str(&text));
            for parts in 2..6 {
                let t = text.as_bytes();
                let cuts = split_points(t, parts, |p| safe_split(t, p));
                assert!(cuts.len() > 2, "no split found");
                let sum: usize = cuts.windows(2).map(|w| count_str(&text[w[0]..w[1]])).sum();
                assert_eq!(sum, count_str(&text));
                // Every cut is a piece boundary of the whole text.
                let mut ends = std::collections::HashSet::new();
                let mut pos = 0;
                for p in split_pieces(&text) {
                    pos += p.len();
                    ends.insert(pos);
                }
                for c in &cuts[1..cuts.len() - 1] {
                    assert!(ends.contains(c), "cut {c} splits a piece");
                }
            }
        }
    }

    #[test]
    fn parallel_count_of_invalid_bytes_equals_sequential_count() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let bytes: Vec<u8> = (0..PARALLEL_MIN + 12_345)
            .map(|_| {
                xorshift(&mut x);
                (x >> 24) as u8
            })
            .collect();
        assert!(std::str::from_utf8(&bytes).is_err());
        let whole = count_str(&go_lossy(&bytes));
        assert_eq!(count(&bytes), whole);
        // Converted and counted 64 KiB at a time.
        assert_eq!(count_lossy_by(&bytes, 1 << 16), whole);
        // Text without ASCII and a bad byte (a stray continuation, a cut
        // sequence, 0xFF) here and there: still cut, between letters and
        // symbols, into parts that count the same.
        let words = [
            "日本語",
            "😀",
            "한국어",
            "、",
            "テキスト",
            "\u{301}",
            "\u{FFFD}",
        ];
        let bad: [&[u8]; 4] = [b"\xBF", b"\xE6\x97", b"\xFF", b"\xF0\x9F\x98"];
        let mut text = Vec::new();
        for i in 0..400_000usize {
            text.extend_from_slice(words[i * 7 % 11 % 7].as_bytes());
            if i % 997 == 0 {
                text.extend_from_slice(bad[i % 4]);
            }
        }
        assert!(std::str::from_utf8(&text).is_err() && !text.iter().any(u8::is_ascii));
        let cuts = split_points(&text, 8, |p| safe_split(&text, p));
        assert!(cuts.len() > 8, "no cut found");
        let whole = count_str(&go_lossy(&text));
        let sum: usize = cuts
            .windows(2)
            .map(|w| count_str(&go_lossy(&text[w[0]..w[1]])))
            .sum();
        assert_eq!(sum, whole);
        assert_eq!(count(&text), whole);
        assert_eq!(count_lossy_by(&text, 1 << 16), whole);
    }

    #[test]
    fn invalid_bytes_are_one_replacement_each() {
        assert_eq!(go_lossy(b"a\xE2\x82b"), "a\u{FFFD}\u{FFFD}b");
        assert_eq!(go_lossy(b"\xED\xA0\x80"), "\u{FFFD}\u{FFFD}\u{FFFD}");
        assert_eq!(go_lossy(b"ok"), "ok");
        // Against the byte-at-a-time definition, on random bytes.
        fn one_at_a_time(mut bytes: &[u8]) -> String {
            let mut out = String::new();
            loop {
                match std::str::from_utf8(bytes) {
                    Ok(s) => return out + s,
                    Err(e) => {
                        let good = e.valid_up_to();
                        out.push_str(std::str::from_utf8(&bytes[..good]).unwrap());
                        out.push('\u{FFFD}');
                        bytes = &bytes[good + 1..];
                    }
                }
            }
        }
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..20_000 {
            let len = (x % 24) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    xorshift(&mut x);
                    [
                        0x41, 0x80, 0xBF, 0xC2, 0xE2, 0xED, 0xF0, 0xF4, 0xF5, 0xA0, 0x9F, 0x90,
                    ][(x % 12) as usize]
                })
                .collect();
            assert_eq!(go_lossy(&bytes), one_at_a_time(&bytes), "{bytes:x?}");
        }
        // Every lead byte against every second byte, with tails that
        // complete, break or cut short a sequence.
        let tails: [&[u8]; 7] = [
            b"",
            b"\x80",
            b"\xBF\x80",
            b"A\x80",
            b"\x80A",
            b"\x8F\xBF\xBD",
            b"\xC0\xBF",
        ];
        for b0 in 0x80..=0xFFu8 {
            for b1 in 0..=0xFFu8 {
                for tail in tails {
                    let bytes = [&[b0, b1][..], tail].concat();
                    assert_eq!(go_lossy(&bytes), one_at_a_time(&bytes), "{bytes:x?}");
                }
            }
        }
    }

    #[test]
    fn every_rank_is_found() {
        for r in (0..vocab_size()).step_by(97) {
            assert_eq!(rank_of(token_bytes(r)), Some(r as u32));
        }
    }

    #[test]
    fn heap_merge_is_exact() {
        let enc = LONG_ENCODER.as_ref().expect("encoder");
        let samples = [
            "[".repeat(500),
            "=".repeat(333),
            " ".repeat(200),
            "a".repeat(300),
            "\u{1F600}".repeat(80),
            "日本語のテキストです".repeat(20),
            "abcabcabdabxyzzy".repeat(30),
            "-=-=*#*#".repeat(40),
        ];
        for s in &samples {
            assert_eq!(
                heap_merge_count(s.as_bytes(), &mut RankCache::default()),
                enc.count(s.as_bytes()),
                "{s}"
            );
        }
        // Pseudo-random bytes from a fixed seed.
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for len in [64usize, 65, 100, 257, 1000] {
            let mut v = Vec::with_capacity(len);
            for _ in 0..len {
                xorshift(&mut x);
                v.push(b"ab cd.,!?xyz\n\t"[(x % 14) as usize]);
            }
            assert_eq!(
                heap_merge_count(&v, &mut RankCache::default()),
                enc.count(&v)
            );
        }
    }

    /// The proof obligation of [`merge_count`]'s U+FFFD parts, against the
    /// whole vocabulary: its own merges rank below every token that could
    /// match a piece's bytes across part of a U+FFFD (starting inside one,
    /// ending inside one) or a whole U+FFFD and more.
    #[test]
    fn replacement_merges_first() {
        let ff = rank_of(&REPLACEMENT[..2]);
        let fd = rank_of(&REPLACEMENT[1..]);
        let whole = rank_of(REPLACEMENT).expect("U+FFFD is a token");
        let first = [ff, fd].into_iter().flatten().min().expect("a first merge");
        let formed_by = first.max(whole);
        let vocab = vocab_size();
        let mut lowest_other = u32::MAX;
        for r in 0..vocab {
            let t = token_bytes(r);
            if t.len() < 2 || t == REPLACEMENT || t == &REPLACEMENT[..2] || t == &REPLACEMENT[1..] {
                continue;
            }
            let starts_inside = [&REPLACEMENT[1..], &REPLACEMENT[2..]]
                .iter()
                .any(|p| t.starts_with(p));
            let ends_inside = [&REPLACEMENT[..1], &REPLACEMENT[..2]]
                .iter()
                .any(|p| t.ends_with(p));
            let holds_one = t.windows(3).any(|w| w == REPLACEMENT);
            if starts_inside || ends_inside || holds_one {
                lowest_other = lowest_other.min(r as u32);
            }
        }
        assert!(
            lowest_other > formed_by,
            "token {lowest_other} could take part of a U+FFFD before rank {formed_by} forms it"
        );
    }

    /// Pieces of U+FFFD, ASCII symbols and letters counted by the rank merge
    /// (U+FFFD as one part) equal the `bpe` crate's exact encoder.
    #[test]
    fn merge_with_replacement_parts_is_exact() {
        let enc = LONG_ENCODER.as_ref().expect("encoder");
        let alphabet = [
            "\u{FFFD}", "!", "?", "\n", "a", "s", "/", "\u{1}", "€", " ", "&",
        ];
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            xorshift(&mut x);
            let chars = 1 + (x % 20) as usize;
            let mut piece = String::new();
            for k in 0..chars {
                piece.push_str(alphabet[((x >> (3 * k % 60)) % alphabet.len() as u64) as usize]);
            }
            let b = piece.as_bytes();
            if (2..MEDIUM_PIECE).contains(&b.len()) {
                assert_eq!(
                    merge_count(b, &mut RankCache::default()),
                    enc.count(b),
                    "{piece:?}"
                );
            }
        }
    }

    /// Long pieces counted in windows equal the whole encoding, windows
    /// encoded by the `bpe` crate or by the rank merge: random letters, a
    /// DNA-like alphabet and punctuation (whose windows always meet), and
    /// periodic runs, including a pattern whose period does not divide the
    /// window (which may not meet, and then fall back).
    #[test]
    fn windowed_counts_equal_whole_counts() {
        let enc = LONG_ENCODER.as_ref().expect("encoder");
        let by_encoder = |w: &[u8]| encoded_lengths(enc, w);
        let by_merge = |w: &[u8]| heap_merge_lengths(w, &mut RankCache::default());
        let encoders: [&Encode; 2] = [&by_encoder, &by_merge];
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut random = |alphabet: &[u8], len: usize| -> Vec<u8> {
            (0..len)
                .map(|_| {
                    xorshift(&mut x);
                    alphabet[(x % alphabet.len() as u64) as usize]
                })
                .collect()
        };
        let pieces = [
            random(b"abcdefghijklmnopqrstuvwxyz", 300_000),
            random(b"ACGT", 300_000),
            random(b"!#$%&()*+,-./:;<=>?@[]^_{|}~", 300_000),
            "a".repeat(300_000).into_bytes(),
            " ".repeat(300_000).into_bytes(),
            "abcdefg".repeat(40_000).into_bytes(),
        ];
        for (k, piece) in pieces.iter().enumerate() {
            let whole = enc.count(piece);
            assert_eq!(
                heap_merge_lengths(piece, &mut RankCache::default()).len(),
                whole
            );
            for (window, overlap) in [(4096, 256), (65_536, 4096), (100_003, 64)] {
                for encode in encoders {
                    let met = windows_met(piece, window, overlap, encode);
                    let what = String::from_utf8_lossy(&piece[..20]);
                    if k < 3 {
                        assert_eq!(met, Some(whole), "{what:?}… in windows of {window}");
                    } else {
                        assert!(met.is_none_or(|c| c == whole), "{what:?}…");
                    }
                }
            }
            assert_eq!(long_count(piece), whole);
        }
        // Runs that repeat every window take the rank merge and meet there:
        // two windows encoded, whatever the length.
        for (piece, period) in [
            ("a".repeat(3 << 20), 1),
            (" ".repeat(3 << 20), 1),
            ("=-".repeat(3 << 19), 2),
            ("abcdefg".repeat(450_000), 7),
            ("qwertyuiopasdfghjklzxcvbnm".repeat(120_000) + "qwe", 26),
        ] {
            let p = piece.as_bytes();
            assert_eq!(short_period(p), Some(period));
            let window = REPEAT_WINDOW / period * period;
            let met = windows_met(p, window, WINDOW_OVERLAP, &by_merge);
            assert_eq!(met, Some(enc.count(p)), "{:?}…", &piece[..4]);
            assert_eq!(long_count(p), enc.count(p));
        }
        // Not periodic: a run of one letter that changes at the very end,
        // random letters, a block longer than the longest period.
        let mut almost = "a".repeat(3 << 20);
        almost.push('b');
        assert_eq!(short_period(almost.as_bytes()), None);
        assert_eq!(short_period(&pieces[0]), None);
        assert_eq!(short_period(&pieces[0][..5000].repeat(200)), None);
    }

    /// Counts equal tiktoken's own rank merge (`byte_pair_split`, over the
    /// same vocabulary) on the pieces of the split, for short and large
    /// mixes of words, numbers, whitespace, CJK, emoji, U+FFFD and invalid
    /// bytes: the caches, the prefetching, U+FFFD as one part, the parallel
    /// and per-part cuts all count as the plain algorithm does.
    #[test]
    fn counts_equal_tiktoken_merge() {
        // tiktoken-rs's own map type (its rustc-hash), by inference.
        let ranks = (0..vocab_size())
            .map(|r| (token_bytes(r).to_vec(), r as u32))
            .collect();
        let reference = |bytes: &[u8]| -> usize {
            let text = go_lossy(bytes);
            split_pieces(&text)
                .iter()
                .map(|p| match p.len() {
                    1 => 1,
                    _ => tiktoken_rs::byte_pair_split(p.as_bytes(), &ranks).len(),
                })
                .sum()
        };
        let alphabet: [&[u8]; 24] = [
            b"a",
            b"The",
            b" ",
            b"\n",
            b"  ",
            b"\t",
            b"{\"id\": ",
            b"123",
            b"4567",
            b"'s",
            b"\xFF",
            b"\xE6\x97",
            b"\xBF",
            "日本語".as_bytes(),
            "😀".as_bytes(),
            "\u{FFFD}".as_bytes(),
            b"!",
            b"?!",
            b"==",
            b"\r\n",
            "é".as_bytes(),
            b"\x00",
            b"xyzzy",
            b"\xF0\x9F",
        ];
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut mix = |parts: usize| -> Vec<u8> {
            let mut v = Vec::new();
            for _ in 0..parts {
                xorshift(&mut x);
                v.extend_from_slice(alphabet[(x % alphabet.len() as u64) as usize]);
            }
            v
        };
        for k in 0..3000 {
            let bytes = mix(1 + k % 200);
            assert_eq!(count(&bytes), reference(&bytes), "{bytes:x?}");
        }
        // Large: counted on every core, invalid UTF-8 in parts.
        let bytes = mix(1_200_000);
        assert!(bytes.len() > PARALLEL_MIN && std::str::from_utf8(&bytes).is_err());
        assert_eq!(count(&bytes), reference(&bytes));
    }

    #[test]
    fn long_runs_are_linear_and_do_not_panic() {
        assert!(LONG_ENCODER.is_some());
        for unit in [" ", "a", "=", "\u{1F600}", "日"] {
            let long = unit.repeat((LONG_PIECE + 4096) / unit.len());
            let short = unit.repeat((LONG_PIECE - 4096) / unit.len());
            // Both encoders agree where they meet.
            let piece = &long.as_bytes()[..LONG_PIECE - 4096 - (LONG_PIECE - 4096) % unit.len()];
            assert_eq!(
                heap_merge_count(piece, &mut RankCache::default()),
                LONG_ENCODER.as_ref().unwrap().count(piece)
            );
            assert!(count(long.as_bytes()) > count(short.as_bytes()));
        }
    }
}

#[cfg(test)]
mod differential {
    //! The hand-written splitter against a backtracking regex engine running
    //! the quirked o200k pattern of spec/engine.md §6.
    use super::split_pieces;
    use super::tests::xorshift;

    const QUIRKED: &str = r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|[^\S\r\n]*[\r\n]+|\s+(?!\S)|\s+";

    const ALPHABET: &[&str] = &[
        "a", "b", "Z", "Q", "x", "1", "2", "9", " ", " ", "  ", "\t", "\n", "\r", "\r\n", "'",
        "'s", "'LL", "'re", "\"", ",", ".", "/", "{", "}", ":", "-", "!", "é", "É", "日", "ǅ", "ʰ",
        "\u{301}", "\u{a0}", "\u{3000}", "\u{85}", "😀", "٣", "Ⅷ", "\u{b}", "\u{c}", "_", "#",
        "、", "。", "キ", "한", "\u{fffd}", "\u{200d}",
    ];

    #[test]
    fn splitter_matches_backtracking_regex() {
        let re = fancy_regex::Regex::new(QUIRKED).unwrap();
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            xorshift(&mut x);
            x
        };
        let rounds: usize = std::env::var("DIFF_ROUNDS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(50_000);
        for round in 0..rounds {
            let len = 1 + (next() % 40) as usize;
            let s: String = (0..len)
                .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize])
                .collect();
            let want: Vec<&str> = re.find_iter(&s).map(|m| m.unwrap().as_str()).collect();
            let got = split_pieces(&s);
            assert_eq!(got, want, "round {round}: {s:?}");
            let mut ends = Vec::new();
            let mut pos = 0;
            for p in &want {
                pos += p.len();
                ends.push(pos);
            }
            for p in 1..s.len() {
                if s.is_char_boundary(p) && super::safe_split(s.as_bytes(), p) {
                    assert!(ends.contains(&p), "safe split {p} inside a piece: {s:?}");
                }
            }
        }
    }
}
