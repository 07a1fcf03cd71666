//! The kind guard (spec/redundancy.md): after every other keep rule, a
//! dropped unit is kept when no surviving unit of the same masking mode
//! already holds at least 90 % of its word set, so that every dropped unit
//! resembles something still visible.

use crate::go::unicode::{is_decimal, is_letter, simple_lower};

/// A token set stops growing at this size.
const MAX_TOKENS: usize = 128;
/// Kept units sampled as the initial classes.
const MAX_SEEDS: usize = 64;
/// After this many promotions every later dropped unit is kept untested.
const MAX_PROMOTIONS: usize = 128;
/// Profiles remembered as already represented, at most.
const MAX_SEEN: usize = 1 << 16;
/// Dropped units profiled per parallel block.
const PROFILE_BLOCK: usize = 8192;

/// Token sets this small are held inside the profile, not on the heap: a
/// long array of numbers or short words profiles each element without an
/// allocation.
const INLINE_TOKENS: usize = 3;

/// A sorted token set, inline when small.
#[derive(Debug, Clone)]
enum Tokens {
    Inline(u8, [u64; INLINE_TOKENS]),
    Heap(Box<[u64]>),
}

impl Tokens {
    fn new(sorted: &[u64]) -> Tokens {
        if sorted.len() <= INLINE_TOKENS {
            let mut a = [0; INLINE_TOKENS];
            a[..sorted.len()].copy_from_slice(sorted);
            Tokens::Inline(sorted.len() as u8, a)
        } else {
            Tokens::Heap(sorted.into())
        }
    }
}

impl std::ops::Deref for Tokens {
    type Target = [u64];
    fn deref(&self) -> &[u64] {
        match self {
            Tokens::Inline(n, a) => &a[..*n as usize],
            Tokens::Heap(b) => b,
        }
    }
}

impl PartialEq for Tokens {
    fn eq(&self, other: &Tokens) -> bool {
        **self == **other
    }
}

impl Eq for Tokens {}

impl std::hash::Hash for Tokens {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (**self).hash(h)
    }
}

/// A unit's kind: its token hashes (sorted, unique) and masking mode.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Profile {
    tokens: Tokens,
    masked: bool,
    /// One bit per token (the top six bits of its hash pick it): a token
    /// of `d` whose bit a class lacks is certainly missing from it, so a
    /// class can often be ruled out without comparing the sets.
    bits: u64,
}

/// Incremental token hash (FNV-1a over the token's UTF-8, then a mix);
/// token sets only need equality, and 64-bit collisions are negligible.
#[derive(Clone, Copy)]
struct TokenHash(u64);

impl TokenHash {
    const EMPTY: TokenHash = TokenHash(0xcbf2_9ce4_8422_2325);

    #[inline]
    fn push_byte(&mut self, b: u8) {
        self.0 ^= b as u64;
        self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
    }

    #[inline]
    fn push(&mut self, c: char) {
        if c.is_ascii() {
            return self.push_byte(c as u8);
        }
        let mut buf = [0u8; 4];
        for &b in c.encode_utf8(&mut buf).as_bytes() {
            self.push_byte(b);
        }
    }

    #[inline]
    fn finish(self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^ (h >> 33)
    }
}

#[cfg(test)]
fn hash_token(t: &str) -> u64 {
    let mut h = TokenHash::EMPTY;
    for c in t.chars() {
        h.push(c);
    }
    h.finish()
}

/// What a rune is to the tokenizer.
#[derive(Clone, Copy)]
enum CharClass {
    Digit,
    Letter,
    Other,
}

/// Token set (into `set`, cleared first) and count of new letter-bearing
/// tokens (redundancy.md §2).
#[allow(unused_assignments)] // the final close!() resets state nobody reads
fn tokenize(unit: &str, mask: bool, set: &mut Vec<u64>) -> usize {
    set.clear();
    let mut words = 0;
    let mut cur = TokenHash::EMPTY;
    let mut cur_len = 0usize;
    let mut has_letter = false;
    let mut last_masked_digit = false;
    macro_rules! close {
        () => {
            if cur_len > 0 {
                let h = cur.finish();
                if !set.contains(&h) {
                    set.push(h);
                    if has_letter {
                        words += 1;
                    }
                }
            }
            cur = TokenHash::EMPTY;
            cur_len = 0;
            has_letter = false;
        };
    }
    for c in unit.chars() {
        // Classify (after simple lowering) first, then handle each class once.
        let (class, lc) = if c.is_ascii() {
            let l = c.to_ascii_lowercase();
            let k = if l.is_ascii_digit() {
                CharClass::Digit
            } else if l.is_ascii_alphabetic() || l == '_' {
                CharClass::Letter
            } else {
                CharClass::Other
            };
            (k, l)
        } else {
            let l = simple_lower(c);
            let k = if is_decimal(l) {
                CharClass::Digit
            } else if is_letter(l) {
                CharClass::Letter
            } else {
                CharClass::Other
            };
            (k, l)
        };
        match class {
            CharClass::Digit if mask => {
                if !last_masked_digit {
                    cur.push_byte(b'#');
                    cur_len += 1;
                    last_masked_digit = true;
                }
            }
            CharClass::Digit => {
                cur.push(lc);
                cur_len += 1;
            }
            CharClass::Letter => {
                cur.push(lc);
                cur_len += 1;
                has_letter = true;
                last_masked_digit = false;
            }
            CharClass::Other => {
                close!();
                last_masked_digit = false;
            }
        }
        if set.len() >= MAX_TOKENS {
            cur_len = 0;
            break;
        }
    }
    close!();
    words
}

/// The kind of a unit (redundancy.md §3).
pub fn profile(unit: &str) -> Profile {
    /// Units up to this long whose profile is held inline are remembered
    /// with it (a copy, no allocation): a run of equal short units
    /// (`1,1,1,…`) is tokenised once.
    const REMEMBERED: usize = 256;
    struct Scratch {
        set: Vec<u64>,
        text: String,
        last: Option<Profile>,
    }
    thread_local! {
        static SCRATCH: std::cell::RefCell<Scratch> = const {
            std::cell::RefCell::new(Scratch { set: Vec::new(), text: String::new(), last: None })
        };
    }
    SCRATCH.with_borrow_mut(|Scratch { set, text, last }| {
        if let Some(p) = last.as_ref().filter(|_| text == unit) {
            return p.clone();
        }
        let masked = tokenize(unit, true, set) >= 1;
        if !masked {
            tokenize(unit, false, set);
        }
        set.sort_unstable();
        let bits = set.iter().fold(0, |b, h| b | 1 << (h >> 58));
        let p = Profile {
            tokens: Tokens::new(set),
            masked,
            bits,
        };
        *last = None;
        if unit.len() <= REMEMBERED && matches!(p.tokens, Tokens::Inline(..)) {
            text.clear();
            text.push_str(unit);
            *last = Some(p.clone());
        }
        p
    })
}

/// Whether `c` holds at least `need` of `d`'s tokens (both sorted): a merge
/// that stops as soon as the answer is known.
fn holds(d: &[u64], c: &[u64], need: usize) -> bool {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < d.len() && j < c.len() {
        if n >= need {
            return true;
        }
        if n + (d.len() - i) < need {
            return false;
        }
        match d[i].cmp(&c[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n >= need
}

/// The index of a class that represents `d` (redundancy.md §4), trying
/// `first` before the others: consecutive units tend to share a class, and
/// which class answers does not change whether one does.
fn representative(d: &Profile, classes: &[Profile], first: usize) -> Option<usize> {
    let need = (0.9 * d.tokens.len() as f64 + 0.999999) as usize;
    let spare = d.tokens.len() - need;
    let fits = |c: &Profile| {
        c.masked == d.masked
            && c.tokens.len() >= need
            && (d.bits & !c.bits).count_ones() as usize <= spare
            && holds(&d.tokens, &c.tokens, need)
    };
    if classes.get(first).is_some_and(fits) {
        return Some(first);
    }
    classes.iter().position(fits)
}

/// Turns on `keep` for one representative of every kind (redundancy.md §5);
/// `profile_of(i)` is the [`profile`] of unit `i` (the JSON elider renders
/// its elements only here, rather than keeping every element's text).
pub fn guard(profile_of: impl Fn(usize) -> Profile + Sync, keep: &mut [bool]) {
    // Seeds: every step-th kept unit (no list of them: a unit's index is
    // the only per-unit state, and only for a block at a time).
    let kept = keep.iter().filter(|&&k| k).count();
    let step = if kept > MAX_SEEDS {
        kept / MAX_SEEDS
    } else {
        1
    };
    let mut classes: Vec<Profile> = Vec::new();
    for (k, i) in (0..keep.len()).filter(|&i| keep[i]).enumerate() {
        if classes.len() >= MAX_SEEDS {
            break;
        }
        if k % step == 0 {
            classes.push(profile_of(i));
        }
    }
    let mut promotions = 0;
    // Classes only grow, so a profile seen once (represented, or promoted
    // and so a class itself) is represented from then on. Remembered up to
    // a bound: units that all differ (a request id on every log line) would
    // otherwise keep one set per unit.
    let mut seen: rustc_hash::FxHashSet<Profile> = Default::default();
    let mut last = 0;
    let mut prev: Option<Profile> = None;
    // Profiles are pure: compute them a block at a time on every core, and
    // stop computing once the promotion cap keeps everything that is left.
    let mut cursor = 0;
    let mut block: Vec<usize> = Vec::with_capacity(PROFILE_BLOCK);
    loop {
        // The next block of dropped units (the loop below only changes
        // units already behind the cursor).
        block.clear();
        while cursor < keep.len() && block.len() < PROFILE_BLOCK {
            if !keep[cursor] {
                block.push(cursor);
            }
            cursor += 1;
        }
        if block.is_empty() {
            break;
        }
        let block = &block[..];
        if promotions >= MAX_PROMOTIONS {
            for &i in block {
                keep[i] = true;
            }
            continue;
        }
        // Each part's units whose profile differs from the unit before
        // them: a unit of the same profile as the one just handled is
        // represented by then (seen, or promoted and a class itself), so
        // runs of one kind never reach the loop below.
        let changes = crate::par::map(crate::par::ranges(block.len(), 2048), |part| {
            let mut out: Vec<(usize, Profile)> = Vec::new();
            for at in part {
                let d = profile_of(block[at]);
                if out.last().is_none_or(|(_, p)| *p != d) {
                    out.push((at, d));
                }
            }
            out
        });
        for (at, d) in changes.into_iter().flatten() {
            let i = block[at];
            if d.tokens.is_empty() || prev.as_ref() == Some(&d) {
                continue;
            }
            if seen.contains(&d) {
                prev = Some(d);
                continue;
            }
            prev = Some(d.clone());
            if let Some(c) = representative(&d, &classes, last) {
                last = c;
                if seen.len() < MAX_SEEN {
                    seen.insert(d);
                }
                continue;
            }
            keep[i] = true;
            promotions += 1;
            classes.push(d.clone());
            if seen.len() < MAX_SEEN {
                seen.insert(d);
            }
            if promotions >= MAX_PROMOTIONS {
                // Every later unit is kept untested.
                for &i in &block[at + 1..] {
                    keep[i] = true;
                }
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set_of(unit: &str, mask: bool) -> Vec<u64> {
        let mut v = Vec::new();
        tokenize(unit, mask, &mut v);
        v.sort_unstable();
        v
    }

    fn hashes(toks: &[&str]) -> Vec<u64> {
        let mut v: Vec<u64> = toks.iter().map(|t| hash_token(t)).collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn tokenizer_examples() {
        assert_eq!(set_of("x1y22z", true), hashes(&["x#y#z"]));
        assert_eq!(set_of("case_017", true), hashes(&["case_#"]));
        assert_eq!(
            set_of(r#"{"id":3,"state":"ok"}"#, true),
            hashes(&["#", "id", "ok", "state"])
        );
        let p = profile("[1973, 251]");
        assert!(!p.masked);
        assert_eq!(*p.tokens, hashes(&["1973", "251"]));
        assert_eq!(set_of("row-٣٤ abc", true), hashes(&["row", "#", "abc"]));
        assert!(profile("---").tokens.is_empty());
    }

    #[test]
    fn ceiling_of_ninety_percent() {
        for (n, need) in [(1, 1), (3, 3), (4, 4), (6, 6), (10, 9), (11, 10), (20, 18)] {
            assert_eq!((0.9 * n as f64 + 0.999999) as usize, need);
        }
    }

    #[test]
    fn skip_row_is_promoted() {
        let units = [
            "orders case_001 pass 41",
            "orders case_029 skip 69",
            "orders case_030 pass 70",
        ];
        let mut keep = [true, false, false];
        guard(|i| profile(units[i]), &mut keep);
        assert_eq!(keep, [true, true, false]);
    }
}
