//! The decoder that builds a [`Tape`]: Go `json.Decoder` with `UseNumber`
//! into `any` (sorted keys, last duplicate wins) or, for TOON, input order
//! with duplicates refused.

use super::tape::*;
use super::{is_ws, Keys, Options, PResult, SyntaxError, MAX_INPUT};

pub(super) struct Parser<'a> {
    pub(super) s: &'a [u8],
    pub(super) pos: usize,
    pub(super) opts: Options,
    pub(super) nodes: Vec<Node>,
    pub(super) decoded: String,
    pub(super) orders: rustc_hash::FxHashMap<u32, Box<[u32]>>,
    /// Scratch: the key nodes of the object being closed, and its members
    /// in their new order.
    pub(super) members: Vec<u32>,
    pub(super) moved: Vec<Node>,
}

impl<'a> Parser<'a> {
    #[inline]
    fn skip_ws(&mut self) {
        while self.pos < self.s.len() && is_ws(self.s[self.pos]) {
            self.pos += 1;
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    #[inline]
    fn expect(&mut self, b: u8) -> PResult<()> {
        if self.peek() != Some(b) {
            return Err(SyntaxError);
        }
        self.pos += 1;
        Ok(())
    }

    /// Sets a container's count and subtree size once its children are in.
    fn close(&mut self, at: usize, tag: u32, count: usize) {
        self.nodes[at] = Node::new(tag, count, self.nodes.len() - at);
    }

    pub(super) fn value(&mut self, depth: usize) -> PResult<()> {
        self.skip_ws();
        match self.peek().ok_or(SyntaxError)? {
            b'{' => {
                if depth + 1 > self.opts.max_depth {
                    return Err(SyntaxError);
                }
                self.pos += 1;
                let at = self.nodes.len();
                self.nodes.push(Node::new(OBJECT, 0, 1));
                self.skip_ws();
                if self.peek() == Some(b'}') {
                    self.pos += 1;
                    return Ok(());
                }
                loop {
                    self.skip_ws();
                    if self.peek() != Some(b'"') {
                        return Err(SyntaxError);
                    }
                    self.string()?;
                    self.skip_ws();
                    self.expect(b':')?;
                    self.value(depth + 1)?;
                    self.skip_ws();
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {
                            self.pos += 1;
                            break;
                        }
                        _ => return Err(SyntaxError),
                    }
                }
                let (tag, count) = self.order_members(at)?;
                self.close(at, tag, count);
                Ok(())
            }
            b'[' => {
                if depth + 1 > self.opts.max_depth {
                    return Err(SyntaxError);
                }
                self.pos += 1;
                let at = self.nodes.len();
                self.nodes.push(Node::new(ARRAY, 0, 1));
                self.skip_ws();
                if self.peek() == Some(b']') {
                    self.pos += 1;
                    return Ok(());
                }
                let mut count = 0;
                loop {
                    self.value(depth + 1)?;
                    count += 1;
                    self.skip_ws();
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            break;
                        }
                        _ => return Err(SyntaxError),
                    }
                }
                self.close(at, ARRAY, count);
                Ok(())
            }
            b'"' => self.string(),
            b't' => self.literal(b"true", BOOL, 1),
            b'f' => self.literal(b"false", BOOL, 0),
            b'n' => self.literal(b"null", NULL, 0),
            b'-' | b'0'..=b'9' => {
                let start = self.pos;
                self.pos = scan_number(self.s, self.pos).ok_or(SyntaxError)?;
                self.nodes.push(Node::new(NUMBER, self.pos - start, start));
                Ok(())
            }
            _ => Err(SyntaxError),
        }
    }

    /// Puts the members of the object at `at` in the order `opts.keys`
    /// asks for, or records that order; returns the object's tag and how
    /// many members it has in that order.
    fn order_members(&mut self, at: usize) -> PResult<(u32, usize)> {
        let mut members = std::mem::take(&mut self.members);
        members.clear();
        let mut j = at + 1;
        while j < self.nodes.len() {
            members.push(j as u32);
            j += 1 + self.nodes[j + 1].size();
        }
        let (src, decoded, nodes) = (self.s, self.decoded.as_str(), &self.nodes);
        let key = |k: u32| span(src, decoded, nodes[k as usize]);
        let mut out = (OBJECT, members.len());
        match self.opts.keys {
            Keys::SortedLastWins => {
                if !members.windows(2).all(|w| key(w[0]) < key(w[1])) {
                    // Stable sort keeps input order among equal keys; the
                    // last of each run wins.
                    members.sort_by(|&a, &b| key(a).cmp(key(b)));
                    let mut kept = 0;
                    for i in 0..members.len() {
                        let k = members[i];
                        if members.get(i + 1).is_some_and(|&next| key(next) == key(k)) {
                            continue;
                        }
                        members[kept] = k;
                        kept += 1;
                    }
                    members.truncate(kept);
                    out = self.reorder(at, &members);
                }
            }
            Keys::InputOrder => {}
            Keys::InputOrderUnique => {
                members.sort_unstable_by(|&a, &b| key(a).cmp(key(b)));
                if members.windows(2).any(|w| key(w[0]) == key(w[1])) {
                    self.members = members;
                    return Err(SyntaxError);
                }
            }
        }
        self.members = members;
        Ok(out)
    }

    /// Orders the object at `at` as `keys` lists its members' key nodes.
    fn reorder(&mut self, at: usize, keys: &[u32]) -> (u32, usize) {
        if self.nodes.len() - at > MOVABLE {
            self.orders.insert(at as u32, keys.into());
            return (REORDERED, keys.len());
        }
        let mut moved = std::mem::take(&mut self.moved);
        moved.clear();
        for &k in keys {
            let k = k as usize;
            moved.extend_from_slice(&self.nodes[k..k + 1 + self.nodes[k + 1].size()]);
        }
        self.nodes.truncate(at + 1);
        self.nodes.extend_from_slice(&moved);
        self.moved = moved;
        (OBJECT, keys.len())
    }

    fn literal(&mut self, word: &[u8], tag: u32, len: usize) -> PResult<()> {
        if self.s[self.pos..].starts_with(word) {
            self.pos += word.len();
            self.nodes.push(Node::new(tag, len, 0));
            Ok(())
        } else {
            Err(SyntaxError)
        }
    }

    /// A string at `pos` (which holds `"`), decoded.
    fn string(&mut self) -> PResult<()> {
        let start = self.pos + 1;
        let mut i = start;
        let s = self.s;
        // Fast path: plain ASCII without escapes, kept as a span of the input.
        while i < s.len() {
            let b = s[i];
            if b == b'"' {
                self.pos = i + 1;
                self.nodes.push(Node::new(PLAIN, i - start, start));
                return Ok(());
            }
            if b == b'\\' || !(0x20..0x80).contains(&b) {
                break;
            }
            i += 1;
        }
        // Slow path: validate, unescape, replace invalid bytes.
        let base = self.decoded.len();
        let out = &mut self.decoded;
        // The bytes so far are plain ASCII.
        out.push_str(std::str::from_utf8(&s[start..i]).map_err(|_| SyntaxError)?);
        loop {
            let b = *s.get(i).ok_or(SyntaxError)?;
            match b {
                b'"' => {
                    self.pos = i + 1;
                    let len = out.len() - base;
                    self.nodes.push(Node::new(DECODED, len, base));
                    return Ok(());
                }
                b'\\' => {
                    let e = *s.get(i + 1).ok_or(SyntaxError)?;
                    i += 2;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let r = hex4(s, i).ok_or(SyntaxError)?;
                            i += 4;
                            if (0xD800..0xE000).contains(&r) {
                                // A valid pair consumes the second escape.
                                if r < 0xDC00
                                    && s.get(i) == Some(&b'\\')
                                    && s.get(i + 1) == Some(&b'u')
                                {
                                    if let Some(r2) = hex4(s, i + 2) {
                                        if (0xDC00..0xE000).contains(&r2) {
                                            let c = 0x10000 + ((r - 0xD800) << 10) + (r2 - 0xDC00);
                                            out.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                                            i += 6;
                                            continue;
                                        }
                                    }
                                }
                                out.push('\u{FFFD}');
                            } else {
                                out.push(char::from_u32(r).unwrap_or('\u{FFFD}'));
                            }
                        }
                        _ => return Err(SyntaxError),
                    }
                }
                0..=0x1f => return Err(SyntaxError),
                0x20..=0x7f => {
                    let run_start = i;
                    while i < s.len()
                        && s[i] >= 0x20
                        && s[i] < 0x80
                        && s[i] != b'"'
                        && s[i] != b'\\'
                    {
                        i += 1;
                    }
                    out.push_str(std::str::from_utf8(&s[run_start..i]).map_err(|_| SyntaxError)?);
                }
                _ => {
                    let (c, l) = crate::go::utf8::decode_rune(&s[i..]);
                    out.push(c.unwrap_or('\u{FFFD}'));
                    i += l;
                }
            }
        }
    }
}

pub(super) fn hex4(s: &[u8], i: usize) -> Option<u32> {
    let h = s.get(i..i + 4)?;
    let mut v = 0u32;
    for &b in h {
        v = v * 16 + (b as char).to_digit(16)?;
    }
    Some(v)
}

/// End of a JSON number starting at `i`, or `None` if malformed.
pub(super) fn scan_number(s: &[u8], mut i: usize) -> Option<usize> {
    if s.get(i) == Some(&b'-') {
        i += 1;
    }
    match s.get(i)? {
        b'0' => i += 1,
        b'1'..=b'9' => {
            while i < s.len() && s[i].is_ascii_digit() {
                i += 1;
            }
        }
        _ => return None,
    }
    if s.get(i) == Some(&b'.') {
        i += 1;
        if !s.get(i)?.is_ascii_digit() {
            return None;
        }
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(s.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !s.get(i)?.is_ascii_digit() {
            return None;
        }
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
    }
    Some(i)
}

/// A tape's node room under this many bytes is given back once decoded.
const SMALL_TAPE: usize = 1 << 20;

/// Decodes the first value of `s`; returns it and the offset after it.
pub fn decode_first(s: &[u8], opts: Options) -> PResult<(Tape<'_>, usize)> {
    if s.len() > MAX_INPUT {
        return Err(SyntaxError);
    }
    let mut p = Parser {
        s,
        pos: 0,
        opts,
        // Every node takes at least two input bytes (`1,`, `[]`, `""`), so
        // this room is never outgrown: no copy of a grown tape, and pages
        // never written are never touched (typical JSON uses a quarter).
        nodes: Vec::with_capacity(s.len() / 2 + 16),
        decoded: String::new(),
        orders: Default::default(),
        members: Vec::new(),
        moved: Vec::new(),
    };
    p.value(0)?;
    // The room above is free for a large document (its pages are never
    // touched) but not for a small one, whose block the allocator hands
    // out whole: NDJSON keeps a tape per line, and 660,000 lines of 100
    // bytes held 350 MB of room for 70 MB of nodes.
    if p.nodes.capacity() * std::mem::size_of::<Node>() < SMALL_TAPE
        && p.nodes.capacity() > p.nodes.len() + p.nodes.len() / 4 + 4
    {
        p.nodes.shrink_to_fit();
    }
    let tape = Tape {
        src: s,
        src_text: std::str::from_utf8(s).ok(),
        nodes: p.nodes,
        decoded: p.decoded,
        orders: p.orders,
    };
    Ok((tape, p.pos))
}
