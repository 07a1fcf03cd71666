//! Pieces of a megabyte or more (a run of one class of characters: a line
//! of `=`, a DNA sequence, 8 MiB of `a`), counted in windows joined where
//! their encodings meet, so time is linear and memory bounded by a window.

#[cfg(test)]
use std::sync::LazyLock;

use super::cache::RankCache;
use super::merge::{heap_merge_count, heap_merge_lengths};

/// Hash factor that makes the `bpe` crate's token hashes collision-free for
/// o200k_base (found with `bpe::byte_pair_encoding::find_hash_factor_for_dictionary`).
#[cfg(test)]
const BPE_HASH_FACTOR: u64 = 17_846_336_922_010_275_747;

/// The `bpe` crate's linear encoder for o200k_base, built from the
/// vocabulary: the tests' independent oracle for the rank merge. The
/// binary does not ship it (serialised it took 32 MB; built, a second).
#[cfg(test)]
pub(super) static LONG_ENCODER: LazyLock<Option<bpe::byte_pair_encoding::BytePairEncoding>> =
    LazyLock::new(|| {
        let n = super::vocab::OFFSETS.len() / 4 - 1;
        let tokens = (0..n).map(|r| super::vocab::token_bytes(r).to_vec());
        Some(bpe::byte_pair_encoding::BytePairEncoding::from_dictionary(
            tokens,
            Some(BPE_HASH_FACTOR),
        ))
    });

/// Bytes of a long piece encoded at a time by the `bpe` crate's encoder.
pub(super) const WINDOW: usize = 1 << 20;
/// Bytes of a window of a periodic piece, merged by rank (see
/// [`long_count`]).
pub(super) const REPEAT_WINDOW: usize = 1 << 16;
/// Bytes each window runs into the next one's start, where the two are
/// synchronised.
pub(super) const WINDOW_OVERLAP: usize = 1 << 12;

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
pub(super) fn long_count(piece: &[u8]) -> usize {
    if let Some((lead, p)) = lead_and_period(piece) {
        // Windows a whole number of periods long, after the lead, all
        // hold the same bytes.
        let window = REPEAT_WINDOW / p * p;
        let merge = |w: &[u8]| heap_merge_lengths(w, &mut RankCache::default());
        if let Some(c) = windows_met_from(piece, lead, window, WINDOW_OVERLAP, &merge) {
            return c;
        }
    }
    // Any other piece: the rank merge in windows on every core.
    let merge = |w: &[u8]| heap_merge_lengths(w, &mut RankCache::default());
    windows_met(piece, WINDOW, WINDOW_OVERLAP, &merge)
        .unwrap_or_else(|| heap_merge_count(piece, &mut RankCache::default()))
}

/// The lengths of the tokens the `bpe` crate's encoder makes of `w`.
#[cfg(test)]
pub(super) fn encoded_lengths(
    enc: &bpe::byte_pair_encoding::BytePairEncoding,
    w: &[u8],
) -> Vec<usize> {
    let tokens = enc.encode_via_backtracking(w);
    tokens.iter().map(|&t| enc.token_len(t)).collect()
}

/// Longest period [`short_period`] looks for.
pub(super) const MAX_PERIOD: usize = 4096;

/// The smallest period of `piece` if it is at most [`MAX_PERIOD`] bytes
/// and the piece holds at least two windows' worth of it: the piece is one
/// block repeated (`a` over and over, `abcdefg` over and over). The
/// smallest period q of its first [`REPEAT_WINDOW`] bytes (prefix function,
/// linear) is the only candidate: if the whole piece has a period
/// p <= 4096, that prefix has periods p and q, so (Fine and Wilf) it has
/// period gcd(p, q), which is q as q is the smallest; q divides p, and the
/// piece, p bytes repeated, has period q. One comparison of the piece with
/// itself shifted by q confirms it.
pub(super) fn short_period(piece: &[u8]) -> Option<usize> {
    let n = piece.len();
    if n < 2 * REPEAT_WINDOW {
        return None;
    }
    let q = smallest_period(&piece[..REPEAT_WINDOW]);
    (q <= MAX_PERIOD && piece[q..] == piece[..n - q]).then_some(q)
}

/// The smallest period of `prefix` (prefix function, linear).
fn smallest_period(prefix: &[u8]) -> usize {
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
    prefix.len() - border[prefix.len() - 1]
}

/// Bytes before a repeated block that [`lead_and_period`] looks past.
pub(super) const MAX_LEAD: usize = 64;

/// Where a piece starts repeating a short block, and the block's length:
/// the whole piece ([`short_period`]), else a block repeated for at least
/// two windows after a lead of at most [`MAX_LEAD`] bytes (`[` and then
/// `[],` five million times and `]`: a JSON array of empty arrays). Only
/// the windows' layout follows from it; the count is exact either way.
pub(super) fn lead_and_period(piece: &[u8]) -> Option<(usize, usize)> {
    if let Some(p) = short_period(piece) {
        return Some((0, p));
    }
    let run = 2 * REPEAT_WINDOW;
    (0..=MAX_LEAD)
        .take_while(|&lead| lead + run <= piece.len())
        .find_map(|lead| {
            let block = &piece[lead..lead + run];
            let q = smallest_period(&block[..REPEAT_WINDOW]);
            (q <= MAX_PERIOD && block[q..] == block[..run - q]).then_some((lead, q))
        })
}

/// An encoding of a window, as the lengths of its tokens.
pub(super) type Encode<'a> = dyn Fn(&[u8]) -> Vec<usize> + Sync + 'a;

/// A window's encoding as the joining needs it: its token count, and its
/// tokens (start, end relative to the window, index) that end within the
/// first `overlap` bytes (its head) or start at or past `window` (its
/// tail, inside the next window).
pub(super) struct WindowTokens {
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
pub(super) fn windows_met(
    piece: &[u8],
    window: usize,
    overlap: usize,
    encode: &Encode,
) -> Option<usize> {
    windows_met_from(piece, 0, window, overlap, encode)
}

/// [`windows_met`] with a first window `lead` bytes longer than the
/// others, so that the windows after it start where a repeated block does.
pub(super) fn windows_met_from(
    piece: &[u8],
    lead: usize,
    window: usize,
    overlap: usize,
    encode: &Encode,
) -> Option<usize> {
    debug_assert!(window > overlap, "a window's two overlaps must not cross");
    let n = piece.len();
    let starts: Vec<usize> = std::iter::once(0)
        .chain((lead + window..n).step_by(window))
        .collect();
    let span = |k: usize| starts[k]..starts.get(k + 1).map_or(n, |&s| (s + overlap).min(n));
    // Where window k's own bytes end (its tail is past it).
    let own = |k: usize| starts.get(k + 1).map_or(n, |&s| s) - starts[k];
    let fresh: Vec<usize> = (0..starts.len())
        .filter(|&k| k == 0 || piece[span(k)] != piece[span(k - 1)])
        .collect();
    let tokens_of = |k: usize| -> WindowTokens {
        let lengths = encode(&piece[span(k)]);
        let window = own(k);
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
