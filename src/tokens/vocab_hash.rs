//! The hash shared by `build.rs` (which lays out the vocabulary table) and
//! `tokens.rs` (which probes it). Both sides must agree bit for bit.

/// log2 of the slot count of the open-addressing table (2^19 slots for
/// 199,998 tokens: load factor 0.38, short probe chains).
pub const TABLE_BITS: u32 = 19;

/// Hash of a byte string, reading eight bytes at a time.
#[inline]
pub fn vocab_hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = (bytes.len() as u64).wrapping_mul(K);
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        h = (h.rotate_left(23) ^ w).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        h = (h.rotate_left(23) ^ u64::from_le_bytes(w)).wrapping_mul(K);
    }
    h ^ (h >> 31)
}

/// The 32 bits of a hash stored beside its rank (independent of the slot bits).
#[inline]
pub fn fingerprint(h: u64) -> u32 {
    h as u32
}

/// Slot index of a hash.
#[inline]
pub fn slot_of(h: u64) -> usize {
    (h.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> (64 - TABLE_BITS)) as usize
}

/// log2 of the bit count of the membership filter in front of the table
/// (2^21 bits = 256 KB for 199,998 tokens, two bits each: about 3 % false
/// positives). A probe for a string that is not a token, the common case
/// when merging unique pieces, then costs one cache line, not a table miss.
pub const FILTER_BITS: u32 = 21;

/// The filter's two bit positions for a hash (bits independent of the
/// slot and fingerprint bits).
#[inline]
pub fn filter_bits(h: u64) -> (usize, usize) {
    let m = (1u64 << FILTER_BITS) - 1;
    let g = h.wrapping_mul(0xA076_1D64_78BD_642F);
    (((g >> 20) & m) as usize, ((g >> 42) & m) as usize)
}
