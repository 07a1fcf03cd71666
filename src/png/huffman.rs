//! Deflate blocks as Go's `compress/flate` writes them at level 6
//! (spec/pixel-render.md §7.4, *Blocks* to *Huffman lengths*): symbol
//! frequencies, length-limited code lengths by package-merge, canonical
//! codes, the fixed/dynamic/stored choice and the bit packing. The matcher
//! that produces the tokens is in [`super::deflate`].

/// A literal byte (`len == 0`, the byte in `dist`) or a match of `len`
/// bytes (3..=258) at distance `dist` (1..=32768).
#[derive(Clone, Copy, Debug)]
pub(super) struct Token {
    pub(super) len: u16,
    pub(super) dist: u16,
}

impl Token {
    pub(super) fn literal(b: u8) -> Token {
        Token {
            len: 0,
            dist: b as u16,
        }
    }

    pub(super) fn matched(len: usize, dist: usize) -> Token {
        Token {
            len: len as u16,
            dist: dist as u16,
        }
    }
}

/// Literal/length symbols (0–285) and distance symbols (0–29), RFC 1951.
const LIT_SYMBOLS: usize = 286;
const DIST_SYMBOLS: usize = 30;
/// The end-of-block symbol.
const END_OF_BLOCK: usize = 256;
/// Code-length alphabet order of the dynamic header (RFC 1951 §3.2.7).
const CODEGEN_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];
/// The largest input a stored block can hold.
const MAX_STORED: usize = 65535;

/// Base match length of each length code (257 + index), RFC 1951.
const LEN_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
/// Extra bits of each length code.
const LEN_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
/// Base distance of each distance code, RFC 1951.
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];

/// The length code of every match length (index = length, 3..=258).
static LEN_CODE: [u8; 259] = {
    let mut t = [0u8; 259];
    let mut code = 0;
    let mut len = 3;
    while len < 259 {
        while code < 28 && LEN_BASE[code + 1] as usize <= len && len != 258 {
            code += 1;
        }
        t[len] = if len == 258 { 28 } else { code as u8 };
        len += 1;
    }
    t
};

/// The distance code of distances 1..=256 (index dist − 1), and of the
/// farther ones by (dist − 1) >> 7 (their codes start at multiples of
/// 128 + 1).
static DIST_CODE: [[u8; 256]; 2] = {
    const fn code_of(dist: usize) -> u8 {
        let mut code = 0;
        while code < 29 && DIST_BASE[code + 1] as usize <= dist {
            code += 1;
        }
        code as u8
    }
    let mut t = [[0u8; 256]; 2];
    let mut i = 0;
    while i < 256 {
        t[0][i] = code_of(i + 1);
        t[1][i] = code_of((i << 7) + 1);
        i += 1;
    }
    t
};

/// Length symbol (257..=285) and its extra bits for a match length.
#[inline]
fn length_symbol(len: usize) -> (usize, u32, u32) {
    let code = LEN_CODE[len] as usize;
    (
        257 + code,
        LEN_EXTRA[code] as u32,
        (len - LEN_BASE[code] as usize) as u32,
    )
}

/// Distance symbol (0..=29) and its extra bits for a distance.
#[inline]
fn dist_symbol(dist: usize) -> (usize, u32, u32) {
    let code = if dist <= 256 {
        DIST_CODE[0][dist - 1]
    } else {
        DIST_CODE[1][(dist - 1) >> 7]
    } as usize;
    let extra = if code < 4 { 0 } else { (code as u32 - 2) / 2 };
    (code, extra, (dist - DIST_BASE[code] as usize) as u32)
}

/// Fixed code length of a literal/length symbol (RFC 1951 §3.2.6).
fn fixed_lit_len(sym: usize) -> u8 {
    match sym {
        0..=143 => 8,
        144..=255 => 9,
        256..=279 => 7,
        _ => 8,
    }
}

/// Code lengths for `freq`, limited to `max_bits`: zero for unused
/// symbols, 1 for each when at most two are used, else package-merge over
/// the used symbols sorted by (frequency, symbol), packages before leaves
/// of equal weight. This gives Go's lengths (spec §7.4 *Huffman lengths*).
pub(super) fn code_lengths(freq: &[u32], max_bits: usize) -> Vec<u8> {
    let mut lens = vec![0u8; freq.len()];
    let mut used: Vec<(u32, usize)> = freq
        .iter()
        .enumerate()
        .filter(|(_, &f)| f > 0)
        .map(|(s, &f)| (f, s))
        .collect();
    if used.len() <= 2 {
        for &(_, s) in &used {
            lens[s] = 1;
        }
        return lens;
    }
    used.sort_unstable();
    let n = used.len();
    let levels = max_bits.min(n - 1);
    // Items are leaves (index into `used`) or packages (index into `pkgs`,
    // a pair of items of the previous list).
    #[derive(Clone, Copy)]
    enum Item {
        Leaf(usize),
        Pkg(usize),
    }
    let leaves: Vec<(u64, Item)> = used
        .iter()
        .enumerate()
        .map(|(i, &(f, _))| (f as u64, Item::Leaf(i)))
        .collect();
    let mut pkgs: Vec<(Item, Item)> = Vec::new();
    let mut list = leaves.clone();
    for _ in 1..levels {
        let mut packaged = Vec::with_capacity(list.len() / 2);
        for pair in list.chunks_exact(2) {
            pkgs.push((pair[0].1, pair[1].1));
            packaged.push((pair[0].0 + pair[1].0, Item::Pkg(pkgs.len() - 1)));
        }
        let mut merged = Vec::with_capacity(leaves.len() + packaged.len());
        let (mut i, mut j) = (0, 0);
        while i < leaves.len() || j < packaged.len() {
            let take_pkg =
                j < packaged.len() && (i == leaves.len() || packaged[j].0 <= leaves[i].0);
            if take_pkg {
                merged.push(packaged[j]);
                j += 1;
            } else {
                merged.push(leaves[i]);
                i += 1;
            }
        }
        list = merged;
    }
    let mut counts = vec![0u8; n];
    let mut stack: Vec<Item> = list[..2 * n - 2].iter().map(|&(_, it)| it).collect();
    while let Some(it) = stack.pop() {
        match it {
            Item::Leaf(i) => counts[i] += 1,
            Item::Pkg(p) => {
                stack.push(pkgs[p].0);
                stack.push(pkgs[p].1);
            }
        }
    }
    for (i, &(_, s)) in used.iter().enumerate() {
        lens[s] = counts[i];
    }
    lens
}

/// Canonical codes for `lens` (RFC 1951 §3.2.2), bit-reversed so they can
/// be written LSB first.
fn canonical_codes(lens: &[u8]) -> Vec<u16> {
    let mut count = [0u16; 16];
    for &l in lens {
        count[l as usize] += 1;
    }
    count[0] = 0;
    let mut next = [0u16; 16];
    let mut code = 0u16;
    for bits in 1..16 {
        code = (code + count[bits - 1]) << 1;
        next[bits] = code;
    }
    lens.iter()
        .map(|&l| {
            if l == 0 {
                return 0;
            }
            let c = next[l as usize];
            next[l as usize] += 1;
            c.reverse_bits() >> (16 - l)
        })
        .collect()
}

/// An LSB-first bit writer over the output stream. It also records where
/// a stored block's raw bytes went, because Go writes them in one call and
/// the PNG chunking can depend on that (spec §7.1).
#[derive(Default)]
pub(super) struct BitWriter {
    pub(super) out: Vec<u8>,
    bits: u64,
    nbits: u32,
    /// `(start, len)` of each raw stored-block payload in `out`.
    pub(super) raw_writes: Vec<(usize, usize)>,
}

impl BitWriter {
    /// Appends the `n` low bits of `value` (`n` ≤ 32), whole 32-bit
    /// words at a time.
    #[inline]
    pub(super) fn bits(&mut self, value: u32, n: u32) {
        self.bits |= (value as u64) << self.nbits;
        self.nbits += n;
        if self.nbits >= 32 {
            self.out
                .extend_from_slice(&(self.bits as u32).to_le_bytes());
            self.bits >>= 32;
            self.nbits -= 32;
        }
    }

    /// Writes the pending bits and pads to a byte boundary with zero bits.
    pub(super) fn align(&mut self) {
        while self.nbits > 0 {
            self.out.push(self.bits as u8);
            self.bits >>= 8;
            self.nbits = self.nbits.saturating_sub(8);
        }
        self.bits = 0;
    }

    fn raw(&mut self, bytes: &[u8]) {
        self.raw_writes.push((self.out.len(), bytes.len()));
        self.out.extend_from_slice(bytes);
    }

    /// A stored block header: BFINAL, type 00, padding, LEN, NLEN.
    pub(super) fn stored_header(&mut self, len: usize, last: bool) {
        self.bits(last as u32, 3);
        self.align();
        self.bits(len as u32, 16);
        self.bits(!len as u32 & 0xFFFF, 16);
    }
}

/// Writes one non-final block of `tokens` (end-of-block added here) the
/// way Go chooses it: dynamic if smaller than fixed, stored if smaller
/// still and its input (`input`, when the window still holds it) is at
/// most 65535 bytes.
pub(super) fn write_block(w: &mut BitWriter, tokens: &[Token], input: Option<&[u8]>) {
    let mut lit_freq = [0u32; LIT_SYMBOLS];
    let mut dist_freq = [0u32; DIST_SYMBOLS];
    let mut extra_bits = 0u64;
    for t in tokens {
        if t.len == 0 {
            lit_freq[t.dist as usize] += 1;
        } else {
            let (ls, le, _) = length_symbol(t.len as usize);
            let (ds, de, _) = dist_symbol(t.dist as usize);
            lit_freq[ls] += 1;
            dist_freq[ds] += 1;
            extra_bits += (le + de) as u64;
        }
    }
    lit_freq[END_OF_BLOCK] += 1;
    let num_lit = LIT_SYMBOLS - lit_freq.iter().rev().take_while(|&&f| f == 0).count();
    let mut num_dist = DIST_SYMBOLS - dist_freq.iter().rev().take_while(|&&f| f == 0).count();
    if num_dist == 0 {
        // Go's phantom distance code: HDIST = 1, and it enters the sizes.
        dist_freq[0] = 1;
        num_dist = 1;
    }
    let storable = input.filter(|i| i.len() <= MAX_STORED);
    if storable.is_none() {
        extra_bits = 0;
    }

    let fixed_size = 3
        + lit_freq
            .iter()
            .enumerate()
            .map(|(s, &f)| f as u64 * fixed_lit_len(s) as u64)
            .sum::<u64>()
        + 5 * dist_freq.iter().map(|&f| f as u64).sum::<u64>()
        + extra_bits;

    let lit_lens = code_lengths(&lit_freq, 15);
    let dist_lens = code_lengths(&dist_freq, 15);
    let mut seq: Vec<u8> = Vec::with_capacity(num_lit + num_dist);
    seq.extend_from_slice(&lit_lens[..num_lit]);
    seq.extend_from_slice(&dist_lens[..num_dist]);
    let (codegen, cg_freq) = run_length(&seq);
    let cg_lens = code_lengths(&cg_freq, 7);
    let mut num_cg = 19;
    while num_cg > 4 && cg_freq[CODEGEN_ORDER[num_cg - 1]] == 0 {
        num_cg -= 1;
    }
    let weigh = |freq: &[u32], lens: &[u8]| -> u64 {
        freq.iter()
            .zip(lens)
            .map(|(&f, &l)| f as u64 * l as u64)
            .sum()
    };
    let dynamic_size = 3
        + 5
        + 5
        + 4
        + 3 * num_cg as u64
        + weigh(&cg_freq, &cg_lens)
        + 2 * cg_freq[16] as u64
        + 3 * cg_freq[17] as u64
        + 7 * cg_freq[18] as u64
        + weigh(&lit_freq, &lit_lens)
        + weigh(&dist_freq, &dist_lens)
        + extra_bits;

    let dynamic = dynamic_size < fixed_size;
    let size = fixed_size.min(dynamic_size);
    if let Some(input) = storable {
        if ((input.len() as u64) + 5) * 8 < size {
            w.stored_header(input.len(), false);
            w.raw(input);
            return;
        }
    }
    let (lit_lens, dist_lens) = if dynamic {
        w.bits(4, 3); // BFINAL 0, BTYPE 10
        w.bits((num_lit - 257) as u32, 5);
        w.bits((num_dist - 1) as u32, 5);
        w.bits((num_cg - 4) as u32, 4);
        for &s in &CODEGEN_ORDER[..num_cg] {
            w.bits(cg_lens[s] as u32, 3);
        }
        let cg_codes = canonical_codes(&cg_lens);
        let mut i = 0;
        while i < codegen.len() {
            let sym = codegen[i] as usize;
            w.bits(cg_codes[sym] as u32, cg_lens[sym] as u32);
            i += 1;
            let extra = match sym {
                16 => 2,
                17 => 3,
                18 => 7,
                _ => 0,
            };
            if extra > 0 {
                w.bits(codegen[i] as u32, extra);
                i += 1;
            }
        }
        (lit_lens, dist_lens)
    } else {
        w.bits(2, 3); // BFINAL 0, BTYPE 01
                      // All 288 fixed codes take part in the canonical numbering, the
                      // two unused ones (286, 287) included.
        let lit: Vec<u8> = (0..288).map(fixed_lit_len).collect();
        (lit, vec![5u8; DIST_SYMBOLS])
    };
    let lit_codes = canonical_codes(&lit_lens);
    let dist_codes = canonical_codes(&dist_lens);
    for t in tokens {
        if t.len == 0 {
            let s = t.dist as usize;
            w.bits(lit_codes[s] as u32, lit_lens[s] as u32);
        } else {
            let (ls, le, lv) = length_symbol(t.len as usize);
            w.bits(lit_codes[ls] as u32, lit_lens[ls] as u32);
            if le > 0 {
                w.bits(lv, le);
            }
            let (ds, de, dv) = dist_symbol(t.dist as usize);
            w.bits(dist_codes[ds] as u32, dist_lens[ds] as u32);
            if de > 0 {
                w.bits(dv, de);
            }
        }
    }
    w.bits(
        lit_codes[END_OF_BLOCK] as u32,
        lit_lens[END_OF_BLOCK] as u32,
    );
}

/// The code-length sequence run-length coded with symbols 16/17/18 (each
/// followed by its repeat value), and the frequencies of the 19 symbols
/// (spec §7.4 *Code-length RLE*).
fn run_length(seq: &[u8]) -> (Vec<u8>, [u32; 19]) {
    let mut out = Vec::with_capacity(seq.len());
    let mut freq = [0u32; 19];
    let mut i = 0;
    while i < seq.len() {
        let v = seq[i];
        let mut k = seq[i..].iter().take_while(|&&x| x == v).count();
        i += k;
        if v != 0 {
            out.push(v);
            freq[v as usize] += 1;
            k -= 1;
            while k >= 3 {
                let n = k.min(6);
                out.extend_from_slice(&[16, (n - 3) as u8]);
                freq[16] += 1;
                k -= n;
            }
        } else {
            while k >= 11 {
                let n = k.min(138);
                out.extend_from_slice(&[18, (n - 11) as u8]);
                freq[18] += 1;
                k -= n;
            }
            if k >= 3 {
                out.extend_from_slice(&[17, (k - 3) as u8]);
                freq[17] += 1;
                k = 0;
            }
        }
        for _ in 0..k {
            out.push(v);
            freq[v as usize] += 1;
        }
    }
    (out, freq)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kraft's sum is exactly 1 for three or more used symbols, and no
    /// length passes the limit.
    #[test]
    fn lengths_form_a_complete_limited_code() {
        let mut seed = 12345u64;
        for round in 0..300 {
            let n = 3 + round % 280;
            let freq: Vec<u32> = (0..n)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let r = (seed >> 33) as u32;
                    if r.is_multiple_of(5) {
                        0
                    } else {
                        1 + (r >> 3) % (1 + (round as u32 * 37) % 5000)
                    }
                })
                .collect();
            let used = freq.iter().filter(|&&f| f > 0).count();
            // The code-length alphabet has 19 symbols; the others fit 2^15.
            for limit in [7, 15] {
                if limit == 7 && freq.len() > 19 {
                    let small = &freq[..19];
                    let lens = code_lengths(small, 7);
                    let kraft: f64 = lens
                        .iter()
                        .filter(|&&l| l > 0)
                        .map(|&l| 0.5f64.powi(l as i32))
                        .sum();
                    let used = small.iter().filter(|&&f| f > 0).count();
                    assert!(lens.iter().all(|&l| l <= 7));
                    assert!(used < 2 || (kraft - 1.0).abs() < 1e-12);
                    continue;
                }
                let lens = code_lengths(&freq, limit);
                assert!(lens.iter().all(|&l| (l as usize) <= limit));
                if used >= 2 && used <= 1 << limit {
                    let kraft: f64 = lens
                        .iter()
                        .filter(|&&l| l > 0)
                        .map(|&l| 0.5f64.powi(l as i32))
                        .sum();
                    assert!((kraft - 1.0).abs() < 1e-12, "kraft {kraft} for {freq:?}");
                }
            }
        }
    }

    #[test]
    fn symbol_tables() {
        assert_eq!(length_symbol(3), (257, 0, 0));
        assert_eq!(length_symbol(11), (265, 1, 0));
        assert_eq!(length_symbol(257), (284, 5, 30));
        assert_eq!(length_symbol(258), (285, 0, 0));
        assert_eq!(dist_symbol(1), (0, 0, 0));
        assert_eq!(dist_symbol(5), (4, 1, 0));
        assert_eq!(dist_symbol(32768), (29, 13, 8191));
        // The tables agree with the code bases everywhere: each length and
        // distance falls in its code's range, below the next code's base.
        for len in 3..=258 {
            let (sym, extra, value) = length_symbol(len);
            let code = sym - 257;
            assert_eq!(LEN_BASE[code] as usize + value as usize, len);
            assert!(value < 1 << extra || (len == 258 && extra == 0));
            assert!(code == 28 || len < LEN_BASE[code + 1] as usize || len == 258);
        }
        for dist in 1..=32768 {
            let (code, extra, value) = dist_symbol(dist);
            assert_eq!(DIST_BASE[code] as usize + value as usize, dist);
            assert!(value < 1 << extra);
        }
    }

    #[test]
    fn run_length_matches_the_rules() {
        let (out, freq) = run_length(&[8, 8, 8, 8, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 5]);
        assert_eq!(out, vec![8, 16, 1, 18, 1, 5, 5]);
        assert_eq!((freq[8], freq[16], freq[18], freq[5]), (1, 1, 1, 2));
    }
}
