//! The test oracle for [`super::deflate`]: the same compressor written
//! the plain way, straight from spec/pixel-render.md §7.4 (each search
//! walks the cursor's hash chain candidate by candidate). The fast one
//! must write exactly its bytes; the differential tests in
//! [`super::tests`] check that on random and page-like inputs.

use super::huffman::{write_block, BitWriter, Token};

/// The window holds this many bytes: the 32 KiB history and as much
/// lookahead again.
const WINDOW: usize = 1 << 16;
/// The farthest a match can reach back.
const MAX_DIST: usize = 1 << 15;
/// Longest and shortest match lengths, and the shortest one emitted.
const MAX_MATCH: usize = 258;
const MIN_MATCH: usize = 4;
/// Matching stops without the final flag when less lookahead than this
/// is buffered: `MIN_MATCH + MAX_MATCH`.
const MIN_LOOKAHEAD: usize = MIN_MATCH + MAX_MATCH;
/// The window slides when the cursor is this far into it.
const SLIDE_AT: usize = WINDOW - MIN_LOOKAHEAD;
/// Level 6: lazy matching below this length, stop at a `nice` match, at
/// most `chain` candidates.
const LAZY: usize = 16;
const NICE: usize = 128;
const CHAIN: usize = 128;
/// A length-4 match farther than this is not worth it.
const FAR_FOUR: usize = 4096;
/// Tokens per block.
const BLOCK_TOKENS: usize = 16384;
/// Hash table size: 17-bit hashes of 4 bytes.
const HASH_BITS: u32 = 17;
const HASH_MUL: u32 = 0x1E35_A7BD;

/// A streaming deflate compressor; each [`Oracle::write`] is one of
/// Go's `Write` calls, which matters for where the window refills.
pub(super) struct Oracle {
    /// `win[i]` is stream byte `base + i`, for `i < end - base`.
    win: Vec<u8>,
    base: usize,
    end: usize,
    /// The cursor (absolute stream position).
    p: usize,
    /// Bucket heads and chain links, as position + 1 − `hash_base` (0 =
    /// empty or forgotten), so they fit 32 bits on any stream length.
    head: Vec<u32>,
    prev: Vec<u32>,
    /// Positions below this are stored relative to it (moved forward when
    /// the window slides far, like Go's `hashOffset`).
    hash_base: usize,
    /// The previous bucket head found at the last insertion of the cursor
    /// (absolute position + 1, 0 = none).
    chain_head: usize,
    /// This step's match (length 3 = none) and distance.
    length: usize,
    dist: usize,
    /// The byte before the cursor is not emitted yet.
    pending: bool,
    tokens: Vec<Token>,
    /// Where the next block's input starts, while the window holds it.
    block_start: Option<usize>,
    pub(super) w: BitWriter,
}

impl Default for Oracle {
    fn default() -> Self {
        Self::new()
    }
}

/// Length of the common prefix of two slices of equal length, 8 bytes at
/// a time.
#[inline]
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n {
        let x = u64::from_le_bytes(a[i..i + 8].try_into().unwrap())
            ^ u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
        if x != 0 {
            return i + (x.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

impl Oracle {
    pub(super) fn new() -> Oracle {
        Oracle {
            win: vec![0; WINDOW],
            base: 0,
            end: 0,
            p: 0,
            head: vec![0; 1 << HASH_BITS],
            prev: vec![0; MAX_DIST],
            hash_base: 0,
            chain_head: 0,
            length: MIN_MATCH - 1,
            dist: 0,
            pending: false,
            tokens: Vec::with_capacity(BLOCK_TOKENS + 1),
            block_start: Some(0),
            w: BitWriter::default(),
        }
    }

    /// Compresses `data` as one write.
    pub(super) fn write(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            self.step(false);
            if self.p - self.base >= SLIDE_AT {
                self.win.copy_within(MAX_DIST..WINDOW, 0);
                self.base += MAX_DIST;
                if self.block_start.is_some_and(|s| s < self.base) {
                    self.block_start = None;
                }
                self.rebase_links();
            }
            let room = self.base + WINDOW - self.end;
            let n = room.min(data.len());
            let at = self.end - self.base;
            self.win[at..at + n].copy_from_slice(&data[..n]);
            self.end += n;
            data = &data[n..];
        }
    }

    /// Ends the stream: the rest of the tokens, then an empty final stored
    /// block. Returns the raw deflate bytes and where stored payloads lie.
    pub(super) fn finish(mut self) -> BitWriter {
        self.step(true);
        self.w.stored_header(0, true);
        self.w.align();
        self.w
    }

    #[inline]
    fn byte(&self, pos: usize) -> u8 {
        self.win[pos - self.base]
    }

    #[inline]
    fn hash(&self, pos: usize) -> usize {
        let i = pos - self.base;
        let v = u32::from_be_bytes([
            self.win[i],
            self.win[i + 1],
            self.win[i + 2],
            self.win[i + 3],
        ]);
        (v.wrapping_mul(HASH_MUL) >> (32 - HASH_BITS)) as usize
    }

    /// Records `pos` as the head of its bucket; returns the old head
    /// (absolute position + 1, 0 = none).
    #[inline]
    fn insert(&mut self, pos: usize) -> usize {
        let h = self.hash(pos);
        let old = self.head[h];
        self.prev[pos & (MAX_DIST - 1)] = old;
        self.head[h] = (pos + 1 - self.hash_base) as u32;
        self.unstore(old)
    }

    /// A stored link as absolute position + 1 (0 = none).
    #[inline]
    fn unstore(&self, v: u32) -> usize {
        if v == 0 {
            0
        } else {
            v as usize + self.hash_base
        }
    }

    /// Moves `hash_base` up to the window base when links could outgrow 32
    /// bits; links below it become empty (they were unusable anyway).
    fn rebase_links(&mut self) {
        if self.end - self.hash_base < 1 << 30 {
            return;
        }
        let delta = (self.base - self.hash_base) as u32;
        for v in self.head.iter_mut().chain(self.prev.iter_mut()) {
            *v = v.saturating_sub(delta);
        }
        self.hash_base = self.base;
    }

    fn emit(&mut self, t: Token, input_end: usize) {
        self.tokens.push(t);
        if self.tokens.len() == BLOCK_TOKENS {
            self.flush_block(input_end);
        }
    }

    fn flush_block(&mut self, input_end: usize) {
        let input = match self.block_start {
            Some(s) if s <= input_end => Some(&self.win[s - self.base..input_end - self.base]),
            _ => None,
        };
        write_block(&mut self.w, &self.tokens, input);
        self.block_start = Some(input_end);
        self.tokens.clear();
    }

    /// The matcher (spec §7.4 *Matcher*); `last` is the final mode.
    fn step(&mut self, last: bool) {
        if !last && self.end - self.p < MIN_LOOKAHEAD {
            return;
        }
        let max_insert = self.end.saturating_sub(MIN_MATCH - 1);
        loop {
            let look = self.end - self.p;
            if look < MIN_LOOKAHEAD {
                if !last {
                    return;
                }
                if look == 0 {
                    if self.pending {
                        self.tokens.push(Token::literal(self.byte(self.p - 1)));
                        self.pending = false;
                    }
                    if !self.tokens.is_empty() {
                        self.flush_block(self.p);
                    }
                    return;
                }
            }
            if self.p < max_insert {
                self.chain_head = self.insert(self.p);
            }
            let (plen, pdist) = (self.length, self.dist);
            self.length = MIN_MATCH - 1;
            self.dist = 0;
            let min_pos = self.p.saturating_sub(MAX_DIST).max(self.base);
            if self.chain_head > min_pos && look > plen && plen < LAZY {
                if let Some((len, dist)) = self.find_match(self.chain_head - 1, look) {
                    self.length = len;
                    self.dist = dist;
                }
            }
            if plen >= MIN_MATCH && self.length <= plen {
                let next = self.p + plen - 1;
                for q in self.p + 1..next {
                    if q < max_insert {
                        self.insert(q);
                    }
                }
                self.p = next;
                self.pending = false;
                self.length = MIN_MATCH - 1;
                self.emit(Token::matched(plen, pdist), next);
            } else {
                if self.pending {
                    let b = self.byte(self.p - 1);
                    self.emit(Token::literal(b), self.p);
                }
                self.p += 1;
                self.pending = true;
            }
        }
    }

    /// The longest match at the cursor along the chain from `first`.
    fn find_match(&self, first: usize, look: usize) -> Option<(usize, usize)> {
        let p = self.p;
        let look = look.min(MAX_MATCH);
        let nice = look.min(NICE);
        let min_pos = p.saturating_sub(MAX_DIST).max(self.base);
        let pw = p - self.base;
        let cur = &self.win[pw..pw + look];
        let mut best = MIN_MATCH - 1;
        let mut found = None;
        let mut c = first;
        for _ in 0..CHAIN {
            let cw = c - self.base;
            // A longer match agrees on bytes best − 3 ..= best: test the
            // four at once before comparing from the start.
            let tail = |s: &[u8], at: usize| u32::from_le_bytes(s[at - 3..=at].try_into().unwrap());
            if tail(&self.win[cw..], best) == tail(cur, best) {
                let n = common_prefix(&self.win[cw..cw + look], cur);
                if n > best && (n > MIN_MATCH || p - c <= FAR_FOUR) {
                    best = n;
                    found = Some((n, p - c));
                    if n >= nice {
                        break;
                    }
                }
            }
            if p >= MAX_DIST && c == p - MAX_DIST {
                break;
            }
            let next = self.unstore(self.prev[c & (MAX_DIST - 1)]);
            if next == 0 || next - 1 < min_pos {
                break;
            }
            c = next - 1;
        }
        found
    }
}
