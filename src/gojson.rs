//! JSON with Go's `encoding/json` semantics (spec/json.md §2 and §8):
//! numbers kept as their literal text, duplicate keys last-wins (or
//! refused, for TOON), invalid UTF-8 and lone surrogates as U+FFFD, a
//! nesting limit, and output written exactly as `json.Marshal` writes it.
//!
//! A decoded document is a [`Tape`]: one flat array of 8-byte nodes in
//! document order, strings and numbers as spans of the input (or of one
//! buffer for strings that needed decoding). A 30 MB array of records takes
//! ~17 MB as a tape where a tree of enums, vectors and strings took ~85 MB,
//! and building it is one growing vector instead of an allocation per
//! container. [`Json`] is a cursor into it; [`Json::get`] shows one node as
//! a [`Value`].

use crate::gofmt::write_json_str;

/// Go's `maxNestingDepth`: 10,000 nested arrays/objects are fine, 10,001 not.
pub const MAX_DEPTH: usize = 10_000;

/// How object members are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keys {
    /// Go `map[string]any`: sorted byte-wise, a duplicate key keeps the last value.
    SortedLastWins,
    /// Input order, a duplicate key is an error (TOON encode).
    InputOrderUnique,
}

/// Decoder settings.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub keys: Keys,
    pub max_depth: usize,
}

impl Options {
    /// Go `json.Decoder` with `UseNumber`, decoding into `any`.
    pub const GO: Options = Options {
        keys: Keys::SortedLastWins,
        max_depth: MAX_DEPTH,
    };
}

/// The input is not JSON the decoder accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyntaxError;

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("invalid JSON")
    }
}

impl std::error::Error for SyntaxError {}

type PResult<T> = Result<T, SyntaxError>;

/// Inputs up to this size decode: every length and offset fits a node,
/// even a string of invalid bytes that triples in size as U+FFFDs. The
/// CLI reads at most 64 MiB.
pub const MAX_INPUT: usize = 1 << 27;

const TAG_SHIFT: u32 = 29;
const LEN_MASK: u32 = (1 << TAG_SHIFT) - 1;
const NULL: u32 = 0;
/// `true` with length 1, `false` with length 0.
const BOOL: u32 = 1;
const NUMBER: u32 = 2;
/// A string that is its input bytes (plain ASCII, no escapes).
const PLAIN: u32 = 3;
/// A string decoded into the tape's own buffer.
const DECODED: u32 = 4;
const ARRAY: u32 = 5;
/// An object whose members are in order as written.
const OBJECT: u32 = 6;
/// An object whose order is kept aside, in [`Tape::orders`].
const REORDERED: u32 = 7;
/// Objects whose subtree has at most this many nodes are put in order by
/// moving their members; larger ones keep their order aside, so that
/// nothing large is ever copied (an object holding a 30 MB array).
const MOVABLE: usize = 1024;

/// One node: a tag and a length (bytes of a string or number, items or
/// members of a container) in `head`; in `data` the offset of a string or
/// number, or the node count of a container's subtree (itself included).
/// An object node is followed by its members, each a key node and the
/// value's subtree: in the order decoded (sorted and unique, or input
/// order for [`Keys::InputOrderUnique`]) for [`OBJECT`], as written for
/// [`REORDERED`]. Subtree sizes are relative, so a subtree can move as a
/// block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Node {
    head: u32,
    data: u32,
}

impl Node {
    #[inline]
    fn new(tag: u32, len: usize, data: usize) -> Node {
        Node {
            head: tag << TAG_SHIFT | len as u32,
            data: data as u32,
        }
    }

    #[inline]
    fn tag(self) -> u32 {
        self.head >> TAG_SHIFT
    }

    #[inline]
    fn len(self) -> usize {
        (self.head & LEN_MASK) as usize
    }

    /// Nodes in this node's subtree, itself included.
    #[inline]
    fn size(self) -> usize {
        if self.tag() >= ARRAY {
            self.data as usize
        } else {
            1
        }
    }
}

/// A decoded JSON document.
#[derive(Debug, Clone)]
pub struct Tape<'a> {
    src: &'a [u8],
    /// `src` as text, when it is all UTF-8 (plain strings are then sliced
    /// from it without checking each again).
    src_text: Option<&'a str>,
    nodes: Vec<Node>,
    decoded: String,
    /// The key node indices, in order, of each [`REORDERED`] object (by
    /// its node index).
    orders: rustc_hash::FxHashMap<u32, Box<[u32]>>,
}

/// Bytes of a string or number node.
#[inline]
fn span<'t>(src: &'t [u8], decoded: &'t str, n: Node) -> &'t [u8] {
    let (start, end) = (n.data as usize, n.data as usize + n.len());
    if n.tag() == DECODED {
        &decoded.as_bytes()[start..end]
    } else {
        &src[start..end]
    }
}

impl<'a> Tape<'a> {
    /// The document's value.
    pub fn root(&self) -> Json<'_> {
        Json { tape: self, i: 0 }
    }

    #[inline]
    fn text(&self, n: Node) -> &str {
        let (start, end) = (n.data as usize, n.data as usize + n.len());
        match (n.tag(), self.src_text) {
            (DECODED, _) => &self.decoded[start..end],
            (_, Some(text)) => &text[start..end],
            // Plain strings and numbers are ASCII, checked when decoded.
            _ => std::str::from_utf8(&self.src[start..end]).unwrap_or_default(),
        }
    }
}

/// A value in a [`Tape`].
#[derive(Clone, Copy)]
pub struct Json<'t> {
    tape: &'t Tape<'t>,
    i: u32,
}

/// What a [`Json`] is.
#[derive(Clone, Copy)]
pub enum Value<'t> {
    Null,
    Bool(bool),
    /// The number's literal text, exactly as written.
    Number(&'t str),
    String(&'t str),
    Array(Items<'t>),
    /// Members; sorted by key with duplicates resolved when decoded with
    /// [`Keys::SortedLastWins`], in input order with [`Keys::InputOrderUnique`].
    Object(Members<'t>),
}

impl std::fmt::Debug for Json<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&String::from_utf8_lossy(&to_vec(*self)))
    }
}

impl<'t> Json<'t> {
    #[inline]
    fn node(self) -> Node {
        self.tape.nodes[self.i as usize]
    }

    /// This node as a value.
    #[inline]
    pub fn get(self) -> Value<'t> {
        let n = self.node();
        let tape = self.tape;
        match n.tag() {
            NULL => Value::Null,
            BOOL => Value::Bool(n.len() == 1),
            NUMBER => Value::Number(tape.text(n)),
            PLAIN | DECODED => Value::String(tape.text(n)),
            ARRAY => Value::Array(Items {
                tape,
                first: self.i + 1,
                len: n.len() as u32,
            }),
            _ => Value::Object(Members {
                tape,
                at: self.i,
                len: n.len() as u32,
            }),
        }
    }

    /// How many numbers this value holds, itself included.
    pub fn numbers(self) -> usize {
        let i = self.i as usize;
        self.tape.nodes[i..i + self.node().size()]
            .iter()
            .filter(|n| n.tag() == NUMBER)
            .count()
    }

    /// True for an object.
    pub fn is_object(self) -> bool {
        self.node().tag() >= OBJECT
    }

    /// True for an array or an object.
    pub fn is_container(self) -> bool {
        self.node().tag() >= ARRAY
    }
}

/// The items of an array.
#[derive(Clone, Copy)]
pub struct Items<'t> {
    tape: &'t Tape<'t>,
    first: u32,
    len: u32,
}

impl<'t> Items<'t> {
    pub fn len(self) -> usize {
        self.len as usize
    }

    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    pub fn iter(self) -> ItemsIter<'t> {
        ItemsIter {
            tape: self.tape,
            next: self.first,
            left: self.len,
        }
    }
}

impl<'t> IntoIterator for Items<'t> {
    type Item = Json<'t>;
    type IntoIter = ItemsIter<'t>;
    fn into_iter(self) -> ItemsIter<'t> {
        self.iter()
    }
}

/// Iterator over an array's items.
pub struct ItemsIter<'t> {
    tape: &'t Tape<'t>,
    next: u32,
    left: u32,
}

impl<'t> Iterator for ItemsIter<'t> {
    type Item = Json<'t>;

    #[inline]
    fn next(&mut self) -> Option<Json<'t>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let j = Json {
            tape: self.tape,
            i: self.next,
        };
        self.next += j.node().size() as u32;
        Some(j)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

impl ExactSizeIterator for ItemsIter<'_> {}

/// The members of an object.
#[derive(Clone, Copy)]
pub struct Members<'t> {
    tape: &'t Tape<'t>,
    /// The object node.
    at: u32,
    len: u32,
}

impl<'t> Members<'t> {
    pub fn len(self) -> usize {
        self.len as usize
    }

    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    pub fn iter(self) -> MembersIter<'t> {
        MembersIter {
            tape: self.tape,
            keys: self.tape.keys(self.at as usize),
        }
    }
}

impl<'t> IntoIterator for Members<'t> {
    type Item = (&'t str, Json<'t>);
    type IntoIter = MembersIter<'t>;
    fn into_iter(self) -> MembersIter<'t> {
        self.iter()
    }
}

/// Key node indices of an object's members, in order.
enum KeyNodes<'t> {
    /// Members as written: the next key node and how many remain.
    InOrder {
        nodes: &'t [Node],
        next: usize,
        left: usize,
    },
    Reordered(std::slice::Iter<'t, u32>),
}

impl Iterator for KeyNodes<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        match self {
            KeyNodes::InOrder { nodes, next, left } => {
                if *left == 0 {
                    return None;
                }
                *left -= 1;
                let k = *next;
                *next += 1 + nodes[k + 1].size();
                Some(k)
            }
            KeyNodes::Reordered(keys) => keys.next().map(|&k| k as usize),
        }
    }
}

impl Tape<'_> {
    /// The key nodes of the object at node `at`, in order.
    #[inline]
    fn keys(&self, at: usize) -> KeyNodes<'_> {
        let n = self.nodes[at];
        let aside = if n.tag() == REORDERED {
            self.orders.get(&(at as u32))
        } else {
            None
        };
        match aside {
            Some(keys) => KeyNodes::Reordered(keys.iter()),
            None => KeyNodes::InOrder {
                nodes: &self.nodes,
                next: at + 1,
                left: n.len(),
            },
        }
    }
}

/// Iterator over an object's members.
pub struct MembersIter<'t> {
    tape: &'t Tape<'t>,
    keys: KeyNodes<'t>,
}

impl<'t> Iterator for MembersIter<'t> {
    type Item = (&'t str, Json<'t>);

    #[inline]
    fn next(&mut self) -> Option<(&'t str, Json<'t>)> {
        let k = self.keys.next()?;
        let tape = self.tape;
        let v = Json {
            tape,
            i: k as u32 + 1,
        };
        Some((tape.text(tape.nodes[k]), v))
    }
}

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    opts: Options,
    nodes: Vec<Node>,
    decoded: String,
    orders: rustc_hash::FxHashMap<u32, Box<[u32]>>,
    /// Scratch: the key nodes of the object being closed, and its members
    /// in their new order.
    members: Vec<u32>,
    moved: Vec<Node>,
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

    fn value(&mut self, depth: usize) -> PResult<()> {
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
                    let (c, l) = crate::gofmt::decode_go_rune(&s[i..]);
                    out.push(c.unwrap_or('\u{FFFD}'));
                    i += l;
                }
            }
        }
    }
}

fn hex4(s: &[u8], i: usize) -> Option<u32> {
    let h = s.get(i..i + 4)?;
    let mut v = 0u32;
    for &b in h {
        v = v * 16 + (b as char).to_digit(16)?;
    }
    Some(v)
}

/// End of a JSON number starting at `i`, or `None` if malformed.
fn scan_number(s: &[u8], mut i: usize) -> Option<usize> {
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

/// True when `t` is exactly one JSON number literal.
pub fn is_number_literal(t: &[u8]) -> bool {
    !t.is_empty() && scan_number(t, 0) == Some(t.len())
}

/// Decodes the first value of `s`; returns it and the offset after it.
pub fn decode_first(s: &[u8], opts: Options) -> PResult<(Tape<'_>, usize)> {
    if s.len() > MAX_INPUT {
        return Err(SyntaxError);
    }
    let mut p = Parser {
        s,
        pos: 0,
        opts,
        // Room for a node per 4 input bytes (typical JSON has one per 8-16):
        // the vector rarely grows, and pages never written are never touched.
        nodes: Vec::with_capacity(s.len() / 4 + 16),
        decoded: String::new(),
        orders: Default::default(),
        members: Vec::new(),
        moved: Vec::new(),
    };
    p.value(0)?;
    let tape = Tape {
        src: s,
        src_text: std::str::from_utf8(s).ok(),
        nodes: p.nodes,
        decoded: p.decoded,
        orders: p.orders,
    };
    Ok((tape, p.pos))
}

/// Go `json.Decoder` + `More()` as the JSON compressor uses it (json.md §2):
/// one value; after whitespace, a further byte other than `]`/`}` fails.
pub fn decode_go(s: &[u8]) -> PResult<Tape<'_>> {
    let (v, mut end) = decode_first(s, Options::GO)?;
    while end < s.len() && is_ws(s[end]) {
        end += 1;
    }
    if end < s.len() && s[end] != b']' && s[end] != b'}' {
        return Err(SyntaxError);
    }
    Ok(v)
}

/// Exactly one value with only JSON whitespace around it.
pub fn decode_exact(s: &[u8], opts: Options) -> PResult<Tape<'_>> {
    let (v, mut end) = decode_first(s, opts)?;
    while end < s.len() && is_ws(s[end]) {
        end += 1;
    }
    if end != s.len() {
        return Err(SyntaxError);
    }
    Ok(v)
}
/// Go `json.Valid`, without building values: one value, whitespace around,
/// depth <= 10,000, invalid UTF-8 inside strings accepted.
pub fn is_valid(s: &[u8]) -> bool {
    let mut stack: Vec<u8> = Vec::new();
    let mut i = 0;
    let n = s.len();
    let skip = |i: &mut usize| {
        while *i < n && is_ws(s[*i]) {
            *i += 1;
        }
    };
    // State: expecting a value.
    'value: loop {
        skip(&mut i);
        if i >= n {
            return false;
        }
        match s[i] {
            b'{' | b'[' => {
                if stack.len() >= MAX_DEPTH {
                    return false;
                }
                let open = s[i];
                i += 1;
                skip(&mut i);
                let close = if open == b'{' { b'}' } else { b']' };
                if i < n && s[i] == close {
                    i += 1;
                } else {
                    stack.push(open);
                    if open == b'{' {
                        if i >= n || s[i] != b'"' {
                            return false;
                        }
                        match skip_string(s, i) {
                            Some(e) => i = e,
                            None => return false,
                        }
                        skip(&mut i);
                        if i >= n || s[i] != b':' {
                            return false;
                        }
                        i += 1;
                    }
                    continue 'value;
                }
            }
            b'"' => match skip_string(s, i) {
                Some(e) => i = e,
                None => return false,
            },
            b't' if s[i..].starts_with(b"true") => i += 4,
            b'f' if s[i..].starts_with(b"false") => i += 5,
            b'n' if s[i..].starts_with(b"null") => i += 4,
            b'-' | b'0'..=b'9' => match scan_number(s, i) {
                Some(e) => i = e,
                None => return false,
            },
            _ => return false,
        }
        // After a value: close containers or continue.
        loop {
            skip(&mut i);
            let Some(&top) = stack.last() else {
                return i == n;
            };
            if i >= n {
                return false;
            }
            match (top, s[i]) {
                (_, b',') => {
                    i += 1;
                    if top == b'{' {
                        skip(&mut i);
                        if i >= n || s[i] != b'"' {
                            return false;
                        }
                        match skip_string(s, i) {
                            Some(e) => i = e,
                            None => return false,
                        }
                        skip(&mut i);
                        if i >= n || s[i] != b':' {
                            return false;
                        }
                        i += 1;
                    }
                    continue 'value;
                }
                (b'{', b'}') | (b'[', b']') => {
                    stack.pop();
                    i += 1;
                }
                _ => return false,
            }
        }
    }
}

/// Bytes that end a plain run inside a string: `"`, `\\` and controls.
static STRING_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// End of the string starting at `i` (a `"`), validating escapes and
/// rejecting raw control bytes; invalid UTF-8 is accepted.
fn skip_string(s: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    loop {
        while i < s.len() && !STRING_STOP[s[i] as usize] {
            i += 1;
        }
        let b = *s.get(i)?;
        match b {
            b'"' => return Some(i + 1),
            b'\\' => match *s.get(i + 1)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                b'u' => {
                    hex4(s, i + 2)?;
                    i += 6;
                }
                _ => return None,
            },
            0..=0x1f => return None,
            _ => i += 1,
        }
    }
}

/// Writes `v` as Go's `json.Marshal` would (compact, sorted keys, HTML-safe).
pub fn write(out: &mut Vec<u8>, v: Json<'_>) {
    write_node(out, v.tape, v.i as usize);
}

/// Writes the subtree at node `i`.
fn write_node(out: &mut Vec<u8>, t: &Tape<'_>, i: usize) {
    let n = t.nodes[i];
    match n.tag() {
        NULL => out.extend_from_slice(b"null"),
        BOOL if n.len() == 1 => out.extend_from_slice(b"true"),
        BOOL => out.extend_from_slice(b"false"),
        NUMBER => out.extend_from_slice(span(t.src, &t.decoded, n)),
        PLAIN | DECODED => write_json_str(out, span(t.src, &t.decoded, n)),
        ARRAY => {
            out.push(b'[');
            let mut j = i + 1;
            for k in 0..n.len() {
                if k > 0 {
                    out.push(b',');
                }
                write_node(out, t, j);
                j += t.nodes[j].size();
            }
            out.push(b']');
        }
        _ => {
            out.push(b'{');
            for (m, k) in t.keys(i).enumerate() {
                if m > 0 {
                    out.push(b',');
                }
                write_json_str(out, span(t.src, &t.decoded, t.nodes[k]));
                out.push(b':');
                write_node(out, t, k + 1);
            }
            out.push(b'}');
        }
    }
}

/// `write` into a new buffer.
pub fn to_vec(v: Json<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    write(&mut out, v);
    out
}

/// Writes `v` indented by two spaces per level (Go `json.MarshalIndent(v, "", "  ")`),
/// with an initial indent prefix level.
pub fn write_indented(out: &mut Vec<u8>, v: Json<'_>, level: usize) {
    let nl = |out: &mut Vec<u8>, l: usize| {
        out.push(b'\n');
        for _ in 0..l {
            out.extend_from_slice(b"  ");
        }
    };
    match v.get() {
        Value::Array(items) if !items.is_empty() => {
            out.push(b'[');
            for (i, it) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                nl(out, level + 1);
                write_indented(out, it, level + 1);
            }
            nl(out, level);
            out.push(b']');
        }
        Value::Object(members) if !members.is_empty() => {
            out.push(b'{');
            for (i, (k, val)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                nl(out, level + 1);
                write_json_str(out, k.as_bytes());
                out.extend_from_slice(b": ");
                write_indented(out, val, level + 1);
            }
            nl(out, level);
            out.push(b'}');
        }
        _ => write(out, v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_example_duplicates_and_escapes() {
        let v = decode_go(br#"{"b":"x\/y","a":"<&>","a":1.50}"#).unwrap();
        assert_eq!(to_vec(v.root()), br#"{"a":1.50,"b":"x/y"}"#);
        let v = decode_go(br#"["<&>"]"#).unwrap();
        assert_eq!(to_vec(v.root()), br#"["\u003c\u0026\u003e"]"#);
    }

    #[test]
    fn surrogates_and_invalid_bytes() {
        let v = decode_go(b"[\"\\ud800\\u0041\", \"\\udc00\", \"\\ud83d\\ude00\", \"a\xffb\"]")
            .unwrap();
        assert_eq!(
            String::from_utf8(to_vec(v.root())).unwrap(),
            "[\"\u{FFFD}A\",\"\u{FFFD}\",\"\u{1F600}\",\"a\u{FFFD}b\"]"
        );
    }

    #[test]
    fn trailing_data_rule() {
        assert!(decode_go(b"{\"a\":1}}").is_ok());
        assert!(decode_go(b"[1]]garbage").is_ok());
        assert!(decode_go(b"[1] [2]").is_err());
        assert!(decode_go(b"[1] x").is_err());
        assert!(decode_go(b"  ").is_err());
    }

    /// Random objects with repeated keys, small and larger than
    /// [`MOVABLE`] nodes, nested: written as `serde_json` writes a map
    /// sorted by key where a repeated key keeps its last value.
    #[test]
    fn members_sorted_last_wins_moved_or_aside() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        fn gen(next: &mut dyn FnMut(u64) -> u64, depth: u32, out: &mut String) {
            match if depth > 3 { 0 } else { next(4) } {
                0 => out.push_str(&next(1000).to_string()),
                1 => out.push_str(&format!("\"s{}\"", next(50))),
                2 => {
                    // A long array (of scalars) makes its parent object
                    // too large to move.
                    let long = next(4) == 0;
                    let n = if long { 1000 + next(600) } else { next(6) };
                    out.push('[');
                    for i in 0..n {
                        if i > 0 {
                            out.push(',');
                        }
                        gen(next, if long { 9 } else { depth + 1 }, out);
                    }
                    out.push(']');
                }
                _ => {
                    let n = next(12);
                    out.push('{');
                    for i in 0..n {
                        if i > 0 {
                            out.push(',');
                        }
                        out.push_str(&format!("\"k{}\":", next(8)));
                        gen(next, depth + 1, out);
                    }
                    out.push('}');
                }
            }
        }
        let mut reordered = 0;
        for _ in 0..300 {
            let mut s = String::new();
            gen(&mut next, 0, &mut s);
            let tape = decode_go(s.as_bytes()).unwrap();
            reordered += tape.orders.len();
            let want: serde_json::Value = serde_json::from_str(&s).unwrap();
            assert_eq!(
                String::from_utf8(to_vec(tape.root())).unwrap(),
                serde_json::to_string(&want).unwrap(),
                "{s}"
            );
        }
        assert!(reordered > 0, "no object took the aside path");
    }

    #[test]
    fn depth_limit() {
        crate::with_big_stack(depth_limit_body);
    }

    fn depth_limit_body() {
        let ok = "[".repeat(10_000) + &"]".repeat(10_000);
        assert!(is_valid(ok.as_bytes()));
        assert!(decode_go(ok.as_bytes()).is_ok());
        let bad = "[".repeat(10_001) + &"]".repeat(10_001);
        assert!(!is_valid(bad.as_bytes()));
        assert!(decode_go(bad.as_bytes()).is_err());
    }

    #[test]
    fn validity() {
        for good in [
            "{}",
            " [1, -0.5e+3, \"x\", true, null] ",
            "\"\\u00e9\"",
            "0",
        ] {
            assert!(is_valid(good.as_bytes()), "{good}");
        }
        for bad in [
            "",
            "[1,]",
            "{\"a\"}",
            "01",
            "[1",
            "\u{feff}{}",
            "\"\u{1}\"",
            "{} {}",
            "1.",
            "-",
        ] {
            assert!(!is_valid(bad.as_bytes()), "{bad}");
        }
        assert!(is_valid(b"\"\xff\""));
    }
}
