//! o200k_base token counting, identical to the reference (spec/engine.md §6).
//!
//! * Bytes become text the Go way: every byte that is not part of a valid
//!   UTF-8 sequence is one U+FFFD.
//! * Pre-tokenisation is a hand-written, linear-time matcher for the o200k
//!   split pattern with the reference's newline quirk (`[^\S\r\n]*[\r\n]+`
//!   instead of `\s*[\r\n]+`), and its DEL quirk (U+007F is in no class, so
//!   it yields no token: `classes::SKIP`). No regex engine, so no stack
//!   overflow on a million spaces and no slowdown on long runs of one
//!   character.
//! * Each piece found in the vocabulary is one token; other pieces are merged
//!   by rank (lowest first, leftmost on ties). The vocabulary table is static
//!   data laid out by `build.rs`, so counting costs no start-up time.
//! * Pieces of `LONG_PIECE` (1 MiB) or more are counted in windows that are
//!   joined where their encodings meet: by the rank merge when the piece
//!   repeats, else by the linear-time exact encoder of the `bpe` crate,
//!   built lazily from the same vocabulary, on every core.

mod cache;
mod classes;
mod long;
mod merge;
mod split;
#[cfg(test)]
mod tests;
pub(crate) mod vocab;
pub(crate) mod vocab_hash;

use cache::{Pending, PieceCache, RankCache, CACHED_PIECE};
use long::long_count;
use merge::{heap_merge_count, merge_count};
use split::{class_of, Splitter, ASCII_CLASS, DEL, LETTER, LO, UP, WS};
use vocab::rank_of;

use crate::go::utf8::go_lossy;

/// Pieces at least this long use the heap-based merge (O(n log n)); shorter
/// ones the simple quadratic loop, which is faster on short pieces.
pub(super) const MEDIUM_PIECE: usize = 64;

/// Pieces at least this long are counted in windows ([`long_count`]): only
/// runs of one class of character this long get here, and merging them
/// whole would need tens of bytes per input byte.
pub(super) const LONG_PIECE: usize = 1 << 20;

/// Tokens of one piece.
#[inline]
fn piece_count(piece: &[u8], ranks: &mut RankCache) -> usize {
    let n = piece.len();
    if n == 1 || rank_of(piece).is_some() {
        return 1;
    }
    if n >= LONG_PIECE {
        return long_count(piece);
    }
    if n < MEDIUM_PIECE {
        merge_count(piece, ranks)
    } else {
        heap_merge_count(piece, ranks)
    }
}

/// Token count of valid UTF-8 text.
pub fn count_str(text: &str) -> usize {
    count_in(text, &mut PieceCache::for_text(text.len(), false))
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
fn count_in(text: &str, cache: &mut PieceCache) -> usize {
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
            // A one-byte piece is one token; DEL is no piece at all.
            total += (t[pos] != DEL) as usize;
        } else if n > CACHED_PIECE {
            total += piece_count(&t[pos..end], &mut cache.ranks);
        } else {
            let next = cache.pending(t, pos, end);
            let at = short % IN_FLIGHT;
            if short >= IN_FLIGHT {
                total += cache.resolve(t, ring[at]);
            }
            ring[at] = next;
            short += 1;
        }
        pos = end;
    }
    for &p in &ring[..short.min(IN_FLIGHT)] {
        total += cache.resolve(t, p);
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

/// The first point in `from..t.len()` (from at least 1) where text may be
/// cut and counted in parts with the same total as whole (see
/// [`safe_split`]): how a stream too large to hold is counted exactly.
pub fn cut_point(t: &[u8], from: usize) -> Option<usize> {
    (from.max(1)..t.len()).find(|&p| safe_split(t, p))
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
    crate::par::map(chunks, |c| {
        count_in(c, &mut PieceCache::for_text(c.len(), false))
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
/// part at a time with one cache (U+FFFD is one part of the rank merge).
fn count_lossy(bytes: &[u8]) -> usize {
    count_lossy_by(bytes, LOSSY_PART)
}

fn count_lossy_by(bytes: &[u8], part: usize) -> usize {
    let cuts = split_points(bytes, bytes.len().div_ceil(part), |p| safe_split(bytes, p));
    let mut cache = PieceCache::for_text(bytes.len(), true);
    cuts.windows(2)
        .map(|w| count_in(&go_lossy(&bytes[w[0]..w[1]]), &mut cache))
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
        if text.as_bytes()[pos] != DEL {
            out.push(&text[pos..end]);
        }
        pos = end;
    }
    out
}
