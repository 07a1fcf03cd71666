//! Rank merging of one piece that is not itself a token (tiktoken's
//! `byte_pair_merge`): the quadratic loop for short pieces, a heap over
//! adjacent pairs for longer ones. Both make the same merges in the same
//! order: lowest rank first, leftmost on ties.

use super::cache::RankCache;
use super::MEDIUM_PIECE;

/// UTF-8 of U+FFFD, which every invalid byte becomes.
pub(super) const REPLACEMENT: &[u8] = "\u{FFFD}".as_bytes();

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
pub(super) fn merge_count(piece: &[u8], ranks: &mut RankCache) -> usize {
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
pub(super) fn heap_merge_count(piece: &[u8], ranks: &mut RankCache) -> usize {
    heap_merge_next(piece, ranks).1
}

/// The lengths of the tokens [`heap_merge_count`] finds, in order.
pub(super) fn heap_merge_lengths(piece: &[u8], ranks: &mut RankCache) -> Vec<usize> {
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
pub(super) fn heap_merge_next(piece: &[u8], ranks: &mut RankCache) -> (Vec<u32>, usize) {
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
