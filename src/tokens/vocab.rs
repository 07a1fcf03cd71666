//! The o200k_base vocabulary as static data laid out by `build.rs`: a blob
//! of every token's bytes, an offset per rank, and an open-addressing table
//! of ranks behind a two-bit membership filter.

use super::vocab_hash::{filter_bits, fingerprint, slot_of, vocab_hash, TABLE_BITS};

pub(super) static BLOB: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_blob.bin"));
pub(super) static OFFSETS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_offsets.bin"));
pub(super) static TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_table.bin"));
pub(super) static FILTER: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_filter.bin"));

#[inline]
pub(super) fn read_u32(data: &[u8], i: usize) -> u32 {
    let b = &data[i * 4..i * 4 + 4];
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

/// Bytes of the token with this rank.
#[inline]
pub(super) fn token_bytes(rank: usize) -> &'static [u8] {
    let a = read_u32(OFFSETS, rank) as usize;
    let b = read_u32(OFFSETS, rank + 1) as usize;
    &BLOB[a..b]
}

#[inline]
pub(super) fn read_u64(data: &[u8], i: usize) -> u64 {
    let b = &data[i * 8..i * 8 + 8];
    u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
}

/// Rank of a byte string in the vocabulary, if it is a token.
#[inline]
pub(super) fn rank_of(bytes: &[u8]) -> Option<u32> {
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

/// BLAKE3 of the embedded o200k_base vocabulary (token bytes in rank
/// order), for `--version --verbose`: two builds count alike when it is
/// the same.
pub(crate) fn checksum() -> String {
    let mut h = blake3::Hasher::new();
    h.update(BLOB);
    h.update(OFFSETS);
    h.finalize().to_hex()[..16].to_string()
}
