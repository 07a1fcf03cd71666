//! Lays out the o200k_base vocabulary as static data so the binary never
//! builds a rank table at run time: a blob of all token bytes, an offset per
//! rank, and an open-addressing hash table of ranks. The vocabulary comes from
//! the tiktoken-rs crate (build dependency); nothing is downloaded. Also
//! tabulates the split pattern's character class of every BMP code point.

#[path = "src/tokens/vocab_hash.rs"]
mod vocab_hash;

#[path = "src/tokens/classes.rs"]
mod classes;

use std::io::Write;

const VOCAB_SIZE: u32 = 199_998;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/tokens/vocab_hash.rs");
    println!("cargo:rerun-if-changed=src/tokens/classes.rs");
    let out_dir = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap());
    // The split pattern's class of every BMP code point (surrogates: 0),
    // so no process computes the table at run time.
    let bmp: Vec<u8> = (0u32..0x10000)
        .map(|u| char::from_u32(u).map_or(0, classes::class_of))
        .collect();
    std::fs::write(out_dir.join("bmp_class.bin"), bmp).unwrap();
    let bpe = tiktoken_rs::o200k_base().expect("o200k_base vocabulary");
    let mut blob = Vec::with_capacity(1 << 21);
    let mut offsets: Vec<u32> = Vec::with_capacity(VOCAB_SIZE as usize + 1);
    for rank in 0..VOCAB_SIZE {
        let bytes = bpe
            ._decode_native_and_split(vec![rank])
            .next()
            .expect("every rank decodes");
        offsets.push(blob.len() as u32);
        blob.extend_from_slice(&bytes);
    }
    offsets.push(blob.len() as u32);
    let slots = 1usize << vocab_hash::TABLE_BITS;
    // Each slot: rank + 1 in the low 32 bits (0 = empty), the hash's
    // fingerprint in the high 32, so a probe rarely has to read the blob.
    let mut table = vec![0u64; slots];
    for rank in 0..VOCAB_SIZE as usize {
        let bytes = &blob[offsets[rank] as usize..offsets[rank + 1] as usize];
        let h = vocab_hash::vocab_hash(bytes);
        let mut i = vocab_hash::slot_of(h);
        while table[i] != 0 {
            i = (i + 1) & (slots - 1);
        }
        table[i] = (rank as u64 + 1) | ((vocab_hash::fingerprint(h) as u64) << 32);
    }
    let mut filter = vec![0u64; (1usize << vocab_hash::FILTER_BITS) / 64];
    for rank in 0..VOCAB_SIZE as usize {
        let bytes = &blob[offsets[rank] as usize..offsets[rank + 1] as usize];
        let (a, b) = vocab_hash::filter_bits(vocab_hash::vocab_hash(bytes));
        filter[a / 64] |= 1 << (a % 64);
        filter[b / 64] |= 1 << (b % 64);
    }
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let mut f = std::fs::File::create(out.join("o200k_filter.bin")).unwrap();
    for w in &filter {
        f.write_all(&w.to_le_bytes()).unwrap();
    }
    std::fs::write(out.join("o200k_blob.bin"), &blob).unwrap();
    let mut f = std::fs::File::create(out.join("o200k_offsets.bin")).unwrap();
    for o in &offsets {
        f.write_all(&o.to_le_bytes()).unwrap();
    }
    let mut f = std::fs::File::create(out.join("o200k_table.bin")).unwrap();
    for t in &table {
        f.write_all(&t.to_le_bytes()).unwrap();
    }
}
