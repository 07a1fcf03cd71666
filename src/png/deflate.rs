//! A deflate compressor that makes the same choices as Go's
//! `compress/flate` at level 6 (spec/pixel-render.md §7.4): a 64 KiB
//! window refilled at write boundaries, 4-byte hash chains of at most 128
//! candidates, lazy matching up to length 16, blocks of 16384 tokens, and
//! an empty final stored block. Written from the spec's description of
//! the behaviour; byte identity with the reference is what the PNG
//! conformance cases check, and [`super::oracle`] (the plain chain walk,
//! test-only) is what the differential tests compare it with.
//!
//! The search is the same function of the data as the plain walk, found
//! with less work (see [`Deflater::find_match`]): once a match of
//! [`LONG`] − 1 bytes is known, only candidates that share the cursor's
//! first [`LONG`] bytes can beat it, and a second hash chain over
//! [`LONG`]-byte strings lists just those. Each 4-byte chain entry carries
//! its rank in its bucket, which says whether the 128-candidate limit
//! reaches it. Positions are inserted into the chains in bulk just before
//! a search needs them, which gives the same chains as inserting each one
//! when the cursor passes it.

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
const CHAIN: u32 = 128;
/// A length-4 match farther than this is not worth it.
const FAR_FOUR: usize = 4096;
/// Tokens per block.
const BLOCK_TOKENS: usize = 16384;
/// Hash table size: 17-bit hashes of 4 bytes.
const HASH_BITS: u32 = 17;
const HASH_MUL: u32 = 0x1E35_A7BD;

/// The window array: [`WINDOW`] bytes and a tail that lets 16-byte reads
/// at any index in the window go without bounds checks.
type Window = [u8; WINDOW + 16];

/// A 4-byte chain entry: the bucket's entry count (high 32 bits,
/// wrapping) and a position (low 32 bits, stored as position + 1 −
/// `hash_base`; 0 = none).
type Entry = u64;
const POS: Entry = 0xFFFF_FFFF;
const COUNT_ONE: Entry = 1 << 32;
/// Positions index the link rings modulo [`MAX_DIST`].
const RING: usize = MAX_DIST - 1;

/// The string lengths of the two extra chains: a candidate that can beat
/// a match of `L − 1` bytes shares the cursor's first `L`.
const LONG: usize = 16;
const MID: usize = 8;
/// Bits of the extra chains' hashes.
const LONG_BITS: u32 = 16;
/// Steps along an extra chain before the search gives up on it and walks
/// the rest of the cursor's 4-byte chain one by one (only hash
/// collisions make an extra chain run long).
const LONG_STEPS: u32 = 256;

/// An extra chain: the newest position per bucket and the previous
/// position per position (stored like [`Entry`] positions).
struct Chain {
    head: Box<[u32; 1 << LONG_BITS]>,
    links: Box<[u32; MAX_DIST]>,
}

impl Chain {
    fn new() -> Chain {
        Chain {
            head: boxed(),
            links: boxed(),
        }
    }

    /// Makes `pos` (stored as `s`) the newest of bucket `h`.
    #[inline(always)]
    fn insert(&mut self, h: usize, pos: usize, s: u32) {
        self.links[pos & RING] = self.head[h];
        self.head[h] = s;
    }
}

thread_local! {
    /// The deflater this thread finished last, for its next stream.
    static SPARE: std::cell::Cell<Option<Deflater>> = const { std::cell::Cell::new(None) };
}

/// A streaming deflate compressor; each [`Deflater::write`] is one of
/// Go's `Write` calls, which matters for where the window refills.
pub(super) struct Deflater {
    /// `win[i]` is stream byte `base + i`, for `i < end - base`.
    win: Box<Window>,
    base: usize,
    end: usize,
    /// The cursor (absolute stream position).
    p: usize,
    /// Per 4-byte hash bucket: how many positions it has had, and the
    /// newest.
    head: Box<[Entry; 1 << HASH_BITS]>,
    /// Per position (modulo [`MAX_DIST`]): its bucket's entry just before
    /// it was inserted, i.e. its rank in the chain and the previous
    /// position there.
    links: Box<[Entry; MAX_DIST]>,
    /// Positions below this are in the 4-byte chains.
    inserted: usize,
    /// The link of `p − MAX_DIST`, which inserting `p` overwrote: that
    /// position can still be a candidate.
    evicted: Entry,
    /// The chains of [`LONG`]-byte and [`MID`]-byte strings, and how far
    /// they are filled in (positions are added only when a search needs
    /// them).
    long: Chain,
    mid: Chain,
    long_inserted: usize,
    /// [`LONG_STEPS`], smaller in tests that exercise the way back.
    long_steps: u32,
    /// Positions inserted as runs ([`Deflater::insert_run`]) and by a
    /// catch-up of lagging long chains: the tests check that both ways
    /// were taken.
    #[cfg(test)]
    runs_inserted: usize,
    #[cfg(test)]
    caught_up: usize,
    /// Positions below this are stored relative to it (moved forward when
    /// the window slides far, like Go's `hashOffset`).
    hash_base: usize,
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

impl Default for Deflater {
    fn default() -> Self {
        Self::new()
    }
}

/// Length of the common prefix of two slices of equal length, 8 bytes at
/// a time.
#[inline]
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
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

/// The 4 bytes at window index `i` as one number (little-endian), for
/// equality tests. (The mask only tells the compiler that the index is
/// inside the window; it always is.)
#[inline(always)]
fn quad(win: &Window, i: usize) -> u32 {
    let i = i & (WINDOW - 1);
    u32::from_le_bytes(win[i..i + 4].try_into().unwrap())
}

/// The 16 bytes at window index `i` as two numbers (little-endian).
#[inline(always)]
fn sixteen(win: &Window, i: usize) -> (u64, u64) {
    let i = i & (WINDOW - 1);
    (
        u64::from_le_bytes(win[i..i + 8].try_into().unwrap()),
        u64::from_le_bytes(win[i + 8..i + 16].try_into().unwrap()),
    )
}

/// The 4-byte hash bucket of a string whose first 8 bytes are `a`
/// (little-endian; spec §7.4 *Hashing*).
#[inline(always)]
fn hash4(a: u64) -> usize {
    ((a as u32).swap_bytes().wrapping_mul(HASH_MUL) >> (32 - HASH_BITS)) as usize
}

/// The long-chain bucket of a string whose [`LONG`] bytes are `(a, b)`
/// (any good mix will do: it only decides which strings share a list).
#[inline(always)]
fn hash_long((a, b): (u64, u64)) -> usize {
    let h = (a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (h >> (64 - LONG_BITS)) as usize
}

/// The mid-chain bucket of a string whose first [`MID`] bytes are `a`.
#[inline(always)]
fn hash_mid(a: u64) -> usize {
    (a.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - LONG_BITS)) as usize
}

/// Whether 16 bytes (as [`sixteen`] reads them) are one byte repeated.
#[inline(always)]
fn is_run((a, b): (u64, u64)) -> bool {
    a == b && a == (a as u8 as u64).wrapping_mul(0x0101_0101_0101_0101)
}

/// One search's best match so far, and the rule that improves it (spec
/// §7.4 *Search*).
struct Best {
    len: usize,
    dist: usize,
    /// The cursor's 4 bytes that end at index `len`.
    tail: u32,
    /// Stop at a match this long: `nice`, or less when no candidate can
    /// be longer.
    nice: usize,
    /// Compare at most this many bytes.
    look: usize,
}

impl Best {
    /// Offers the candidate at window index `cw` for the cursor at `pw`,
    /// `dist` bytes back; true when the search is over.
    #[inline(always)]
    fn offer(&mut self, win: &Window, cw: usize, pw: usize, dist: usize) -> bool {
        // A longer match agrees on bytes best − 3 ..= best: test the four
        // at once before comparing from the start.
        if quad(win, cw + self.len - 3) != self.tail {
            return false;
        }
        let n = common_prefix(&win[cw..cw + self.look], &win[pw..pw + self.look]);
        if n > self.len && (n > MIN_MATCH || dist <= FAR_FOUR) {
            self.len = n;
            self.dist = dist;
            if n >= self.nice {
                return true;
            }
            self.tail = quad(win, pw + n - 3);
        }
        false
    }
}

/// The cursor of one search in stored coordinates (see [`Entry`]).
#[derive(Clone, Copy)]
struct Cursor {
    /// The cursor, and its window index.
    s_p: Entry,
    pw: usize,
    /// The oldest usable candidate, and the window's start.
    s_lo: Entry,
    s_base: Entry,
    /// The cursor's rank in its 4-byte chain.
    rank: u32,
}

/// How a walk along a [`LONG`] or [`MID`] chain ended.
enum Walk {
    /// It found the search's result.
    Settled,
    /// No candidate of the search shares the chain's length with the
    /// cursor: the result is shorter.
    NoneShares,
    /// Hash collisions made the chain too long to follow: nothing is
    /// known.
    GaveUp,
}

impl Walk {
    /// The end of a walk that reached the last candidate it could:
    /// settled when some candidate shared the chain's length.
    fn ended(found: bool) -> Walk {
        if found {
            Walk::Settled
        } else {
            Walk::NoneShares
        }
    }
}

impl Deflater {
    pub(super) fn new() -> Deflater {
        Deflater {
            win: boxed(),
            base: 0,
            end: 0,
            p: 0,
            head: boxed(),
            links: boxed(),
            inserted: 0,
            evicted: 0,
            long: Chain::new(),
            mid: Chain::new(),
            long_inserted: 0,
            long_steps: LONG_STEPS,
            #[cfg(test)]
            runs_inserted: 0,
            #[cfg(test)]
            caught_up: 0,
            hash_base: 0,
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
                // The positions the cursor has passed go into the chains
                // while their bytes are still in the window.
                self.insert_until(self.p.min(self.end.saturating_sub(MIN_MATCH - 1)));
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
    /// The deflater is kept for this thread's next stream
    /// ([`Deflater::take`]).
    pub(super) fn finish(mut self) -> BitWriter {
        self.step(true);
        self.w.stored_header(0, true);
        self.w.align();
        let w = std::mem::take(&mut self.w);
        SPARE.with(|s| s.set(Some(self)));
        w
    }

    /// A deflater for a new stream: the one this thread finished last,
    /// reset (its tables are reused, not allocated and zeroed by the
    /// kernel again), or a new one.
    pub(super) fn take() -> Deflater {
        match SPARE.with(|s| s.take()) {
            Some(mut d) => {
                d.reset();
                d
            }
            None => Deflater::new(),
        }
    }

    /// The state of [`Deflater::new`]. Only the chain heads are cleared:
    /// a link is read only for a position this stream has inserted.
    fn reset(&mut self) {
        self.head.fill(0);
        self.long.head.fill(0);
        self.mid.head.fill(0);
        self.base = 0;
        self.end = 0;
        self.p = 0;
        self.inserted = 0;
        self.evicted = 0;
        self.long_inserted = 0;
        self.hash_base = 0;
        self.length = MIN_MATCH - 1;
        self.dist = 0;
        self.pending = false;
        self.tokens.clear();
        self.block_start = Some(0);
        self.w = BitWriter::default();
        self.long_steps = LONG_STEPS;
    }

    #[inline]
    fn byte(&self, pos: usize) -> u8 {
        self.win[pos - self.base]
    }

    /// The stored form of a position.
    #[inline]
    fn stored(&self, pos: usize) -> Entry {
        (pos + 1 - self.hash_base) as Entry
    }

    /// Inserts the positions from where the chains stop up to `until`
    /// (exclusive) into them, in order. A position enters the [`LONG`]
    /// and [`MID`] chains once its [`LONG`] bytes are in the window: those
    /// chains may lag a few positions behind the 4-byte chains near the
    /// end of the buffered data, and catch up here on the next call (a
    /// search reads them only for cursors with [`LONG`] bytes of
    /// lookahead, whose chains are complete by then).
    fn insert_until(&mut self, until: usize) {
        let (base, win) = (self.base, &*self.win);
        let both = until.min((self.end + 1).saturating_sub(LONG));
        let lag_end = self.inserted.min(both);
        if self.long_inserted < lag_end {
            let hash_base = self.hash_base;
            for pos in self.long_inserted..lag_end {
                let key = sixteen(win, pos - base);
                let s = (pos + 1 - hash_base) as u32;
                self.long.insert(hash_long(key), pos, s);
                self.mid.insert(hash_mid(key.0), pos, s);
            }
            #[cfg(test)]
            {
                self.caught_up += lag_end - self.long_inserted;
            }
            self.long_inserted = lag_end;
        }
        if self.long_inserted == self.inserted {
            let mut pos = self.inserted;
            while pos < both {
                let win = &*self.win;
                let i = pos - base;
                let key = sixteen(win, i);
                if i > 0 && is_run(key) && win[i - 1] == key.0 as u8 {
                    // The position before has the same 16 bytes, and so
                    // have the ones after while the run lasts.
                    let mut stop = pos + 1;
                    while stop + 8 <= both
                        && u64::from_le_bytes(
                            win[stop - base + LONG - 1..stop - base + LONG + 7]
                                .try_into()
                                .unwrap(),
                        ) == key.0
                    {
                        stop += 8;
                    }
                    while stop < both && win[stop - base + LONG - 1] == key.0 as u8 {
                        stop += 1;
                    }
                    self.insert_run(pos, stop, key);
                    pos = stop;
                    continue;
                }
                let s = self.stored(pos) as u32;
                let h = hash4(key.0);
                let old = self.head[h];
                self.links[pos & RING] = old;
                self.head[h] = (old & !POS).wrapping_add(COUNT_ONE) | s as Entry;
                self.long.insert(hash_long(key), pos, s);
                self.mid.insert(hash_mid(key.0), pos, s);
                pos += 1;
            }
            self.inserted = self.inserted.max(both);
            self.long_inserted = self.inserted;
        }
        let (win, hash_base) = (&*self.win, self.hash_base);
        for pos in self.inserted..until {
            let i = pos - base;
            let h = hash4(u32::from_le_bytes(win[i..i + 4].try_into().unwrap()) as u64);
            let old = self.head[h];
            self.links[pos & RING] = old;
            self.head[h] = (old & !POS).wrapping_add(COUNT_ONE) | (pos + 1 - hash_base) as Entry;
        }
        self.inserted = self.inserted.max(until);
    }

    /// Inserts the positions `pos..stop`, which all start with the same
    /// [`LONG`] bytes `key` (one byte repeated) as `pos − 1`, which is in
    /// the chains already: in every chain each position's link is the one
    /// before it, so the links are written without reading the heads
    /// back (the counts go up by one per position).
    fn insert_run(&mut self, pos: usize, stop: usize, key: (u64, u64)) {
        let n = stop - pos;
        let h = hash4(key.0);
        let old = self.head[h];
        let s0 = (old & POS) as u32;
        #[cfg(test)]
        {
            assert_eq!(s0 as Entry, self.stored(pos - 1));
            assert_eq!(self.long.head[hash_long(key)], s0);
            assert_eq!(self.mid.head[hash_mid(key.0)], s0);
            self.runs_inserted += n;
        }
        const STEP: Entry = COUNT_ONE + 1;
        for k in 0..n {
            self.links[(pos + k) & RING] = old.wrapping_add(k as Entry * STEP);
        }
        self.head[h] = old.wrapping_add(n as Entry * STEP);
        for (chain, hc) in [
            (&mut self.long, hash_long(key)),
            (&mut self.mid, hash_mid(key.0)),
        ] {
            for k in 0..n {
                chain.links[(pos + k) & RING] = s0 + k as u32;
            }
            chain.head[hc] = s0 + n as u32;
        }
    }

    /// Moves `hash_base` up to the window base when positions could
    /// outgrow 32 bits; older positions become none (they were unusable
    /// anyway). Counts are kept.
    fn rebase_links(&mut self) {
        if self.end - self.hash_base < 1 << 30 {
            return;
        }
        let delta = (self.base - self.hash_base) as Entry;
        let rebase = |e: &mut Entry| *e = (*e & !POS) | (*e & POS).saturating_sub(delta);
        self.head.iter_mut().for_each(rebase);
        self.links.iter_mut().for_each(rebase);
        rebase(&mut self.evicted);
        let delta = delta as u32;
        for c in [&mut self.long, &mut self.mid] {
            for v in c.head.iter_mut().chain(c.links.iter_mut()) {
                *v = v.saturating_sub(delta);
            }
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
    /// Positions enter the chains only when a search is about to read
    /// them: the chains a search sees are the same.
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
            let (plen, pdist) = (self.length, self.dist);
            self.length = MIN_MATCH - 1;
            self.dist = 0;
            // A search needs the cursor inserted (else the lookahead is
            // at most 3, which no previous length is below).
            if look > plen && plen < LAZY && self.p < max_insert {
                self.insert_until(self.p);
                self.evicted = self.links[self.p & RING];
                self.insert_until(self.p + 1);
                let chain_head = self.links[self.p & RING];
                let min_pos = self.p.saturating_sub(MAX_DIST).max(self.base);
                if chain_head & POS >= self.stored(min_pos) {
                    if let Some((len, dist)) = self.find_match(chain_head, look) {
                        self.length = len;
                        self.dist = dist;
                    }
                }
            }
            if plen >= MIN_MATCH && self.length <= plen {
                let next = self.p + plen - 1;
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

    /// The longest match at the cursor among the first 128 candidates of
    /// its chain, whose entry for the cursor is `chain_head`, with `look`
    /// bytes of lookahead (spec §7.4 *Search*).
    ///
    /// The walk keeps the first candidate of the greatest length (capped
    /// at `nice`). If some candidate shares the cursor's first [`LONG`]
    /// bytes, every newer one is shorter, so the result is the walk's
    /// result over just the candidates on the cursor's long chain
    /// ([`Deflater::walk_chain`]); failing that, the same holds for
    /// [`MID`] bytes and the mid chain. Otherwise the plain walk finds it.
    fn find_match(&self, chain_head: Entry, look: usize) -> Option<(usize, usize)> {
        let p = self.p;
        let look = look.min(MAX_MATCH);
        let pw = p - self.base;
        let mut best = Best {
            len: MIN_MATCH - 1,
            dist: 0,
            tail: quad(&self.win, pw),
            nice: look.min(NICE),
            look,
        };
        let at = Cursor {
            s_p: self.stored(p),
            pw,
            s_lo: self.stored(p.saturating_sub(MAX_DIST).max(self.base)),
            s_base: self.stored(self.base),
            rank: (chain_head >> 32) as u32,
        };
        let found = |best: Best| (best.len > MIN_MATCH - 1).then_some((best.len, best.dist));
        if look >= LONG {
            #[cfg(test)]
            assert!(
                self.long_inserted > p,
                "the long chains lag behind a search"
            );
            // A chain that proves no candidate shares its length also
            // bounds the result: a match one shorter cannot be beaten,
            // so the search may stop there.
            match self.walk_chain::<LONG>(&self.long, &mut best, at) {
                Walk::Settled => return found(best),
                Walk::NoneShares => best.nice = best.nice.min(LONG - 1),
                Walk::GaveUp => {}
            }
            match self.walk_chain::<MID>(&self.mid, &mut best, at) {
                Walk::Settled => return found(best),
                Walk::NoneShares => best.nice = best.nice.min(MID - 1),
                Walk::GaveUp => {}
            }
        }
        self.walk(&mut best, at, chain_head & POS);
        found(best)
    }

    /// The walk over the candidates that share the cursor's first `L`
    /// bytes, newest first, as listed by `chain` (whose other entries are
    /// hash collisions). A position there is one of the
    /// walk's candidates when its rank in the cursor's 4-byte bucket is
    /// within 128 of the cursor's; the first one ranked beyond that ends
    /// the walk, as the limit would have. [`Walk::Settled`] when a
    /// candidate was found; [`Walk::NoneShares`] when no candidate of the
    /// walk shares `L` bytes (`best` untouched); [`Walk::GaveUp`] when the
    /// chain ran long with collisions (`best` reset). In the last two a
    /// shorter chain or the plain walk must decide.
    /// The candidate `MAX_DIST` back is the last: its link is the
    /// cursor's own now.
    fn walk_chain<const L: usize>(&self, chain: &Chain, best: &mut Best, at: Cursor) -> Walk {
        let win = &*self.win;
        let key = sixteen(win, at.pw);
        let same = |k: (u64, u64)| {
            if L == LONG {
                k == key
            } else {
                k.0 == key.0
            }
        };
        // The cursor is in the chain already: start after it.
        let mut v = chain.links[self.p & RING] as Entry;
        for _ in 0..self.long_steps {
            if v < at.s_lo {
                return Walk::ended(best.len >= L);
            }
            let cw = (v - at.s_base) as usize;
            let farthest = at.s_p - v == MAX_DIST as Entry;
            if same(sixteen(win, cw)) {
                let link = if farthest {
                    self.evicted
                } else {
                    self.links[(v - 1) as usize & RING]
                };
                if at.rank.wrapping_sub((link >> 32) as u32) > CHAIN {
                    return Walk::ended(best.len >= L);
                }
                if best.offer(win, cw, at.pw, (at.s_p - v) as usize) {
                    return Walk::Settled;
                }
            }
            if farthest {
                return Walk::ended(best.len >= L);
            }
            v = chain.links[(v - 1) as usize & RING] as Entry;
        }
        best.len = MIN_MATCH - 1;
        best.dist = 0;
        best.tail = quad(win, at.pw);
        Walk::GaveUp
    }

    /// The plain walk along the cursor's 4-byte chain from `v`.
    fn walk(&self, best: &mut Best, at: Cursor, mut v: Entry) {
        let win = &*self.win;
        for _ in 0..CHAIN {
            if best.offer(win, (v - at.s_base) as usize, at.pw, (at.s_p - v) as usize)
                || at.s_p - v == MAX_DIST as Entry
            {
                return;
            }
            v = self.links[(v - 1) as usize & RING] & POS;
            if v < at.s_lo {
                return;
            }
        }
    }
}

/// A zeroed fixed-size array on the heap.
fn boxed<T: Copy + Default, const N: usize>() -> Box<[T; N]> {
    vec![T::default(); N]
        .into_boxed_slice()
        .try_into()
        .ok()
        .unwrap()
}

#[cfg(test)]
mod tests;
