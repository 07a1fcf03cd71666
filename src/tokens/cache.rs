//! The two caches that make counting fast, and their tuning: a direct-
//! mapped cache of short pieces and their counts (probed a few pieces late,
//! after a prefetch: the crate's one `unsafe` block), and a cache of
//! vocabulary probes for the rank merge.

use super::piece_count;
use super::vocab::rank_of;

/// Texts (or chunks) at least this long get the larger piece cache.
pub(super) const BIG_TEXT: usize = 1 << 20;

/// Pieces up to this many bytes go through [`PieceCache`]: a slot holds 14
/// bytes of piece, its length and its count in 16 bytes.
pub(super) const CACHED_PIECE: usize = 14;
/// log2 of the piece cache's slots (32768 x 16 bytes, a quarter of L2:
/// text with a few thousand distinct words still hits).
pub(super) const CACHE_BITS: u32 = 15;
/// The same for texts of [`BIG_TEXT`] bytes or more, where zeroing a larger
/// cache is amortised and text with hundreds of thousands of distinct short
/// pieces (random bytes: 528k distinct in 3.3M pieces per 8 MiB) still hits.
pub(super) const BIG_CACHE_BITS: u32 = 17;
/// The same for parts of at least [`HUGE_LOSSY`] bytes of invalid UTF-8,
/// whose distinct short pieces (random bytes: 528k per 8 MiB) overflow the
/// big cache: 8 MiB a counting thread, on inputs of 32 MiB and more.
pub(super) const HUGE_CACHE_BITS: u32 = 19;
pub(super) const HUGE_LOSSY: usize = 16 << 20;

/// A string of at most 16 bytes as a little-endian number: byte `i` of the
/// result is `b[i]`, the rest zero. Two overlapping loads instead of a
/// copy of variable length (which is a call to `memcpy`).
#[inline]
pub(super) fn short_bytes(b: &[u8]) -> u128 {
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
pub(super) fn short_hash(key: u128, len: usize) -> u64 {
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
pub(super) struct PieceCache {
    pub(super) slots: Vec<u128>,
    /// 64 minus the slot bits: the top bits of a hash pick the slot.
    pub(super) shift: u32,
    pub(super) ranks: RankCache,
}

/// Bytes 0..15 of a piece cache slot: the piece and its length.
pub(super) const KEY_MASK: u128 = (1 << 120) - 1;

/// Direct-mapped cache of vocabulary probes for strings of at most 16
/// bytes. Merging probes the same pairs and triples over and over (a CJK
/// lead byte and its continuation, `\xEF\xBF` of every U+FFFD), and each
/// probe of the 4 MB table costs a few cache misses. Allocated on first use.
#[derive(Default)]
pub(super) struct RankCache {
    pub(super) slots: Vec<RankSlot>,
}

/// A cached probe: the string (zero-padded) and its length (0: empty
/// slot), and its rank (`u32::MAX`: not a token).
#[derive(Clone, Copy, Default)]
pub(super) struct RankSlot {
    pub(super) bytes: u128,
    pub(super) len: u32,
    pub(super) rank: u32,
}

/// log2 of the rank cache's slot count (8192 x 32 bytes).
pub(super) const RANK_SLOT_BITS: u32 = 13;

impl RankCache {
    #[inline]
    pub(super) fn rank(&mut self, bytes: &[u8]) -> Option<u32> {
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
pub(super) struct Pending {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) key: u128,
    pub(super) slot: usize,
}

impl PieceCache {
    pub(super) fn new(bits: u32) -> PieceCache {
        PieceCache {
            slots: vec![0; 1 << bits],
            shift: 64 - bits,
            ranks: RankCache::default(),
        }
    }

    /// A cache sized for a text (or chunk) of `len` bytes, `invalid` when
    /// they are not UTF-8.
    pub(super) fn for_text(len: usize, invalid: bool) -> PieceCache {
        PieceCache::new(if invalid && len >= HUGE_LOSSY {
            HUGE_CACHE_BITS
        } else if len >= BIG_TEXT {
            BIG_CACHE_BITS
        } else {
            // A short text has at most `len` distinct pieces: a slot per
            // byte (at least 256), not a full-size table to zero.
            CACHE_BITS.min(len.max(256).next_power_of_two().trailing_zeros())
        })
    }

    /// The piece `text[start..end]` (2..=[`CACHED_PIECE`] bytes) with its
    /// slot, which is fetched into cache meanwhile.
    #[inline]
    pub(super) fn pending(&self, text: &[u8], start: usize, end: usize) -> Pending {
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
    pub(super) fn resolve(&mut self, text: &[u8], p: Pending) -> usize {
        let s = self.slots[p.slot];
        if s & KEY_MASK == p.key {
            return (s >> 120) as usize;
        }
        let c = piece_count(&text[p.start..p.end], &mut self.ranks);
        self.slots[p.slot] = p.key | (c as u128) << 120;
        c
    }
}
