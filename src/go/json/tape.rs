//! A decoded document as a flat tape of 8-byte nodes, and the cursors that
//! read it ([`Json`], [`Value`], member and item iterators).

pub(super) const TAG_SHIFT: u32 = 29;
pub(super) const LEN_MASK: u32 = (1 << TAG_SHIFT) - 1;
pub(super) const NULL: u32 = 0;
/// `true` with length 1, `false` with length 0.
pub(super) const BOOL: u32 = 1;
pub(super) const NUMBER: u32 = 2;
/// A string that is its input bytes (plain ASCII, no escapes).
pub(super) const PLAIN: u32 = 3;
/// A string decoded into the tape's own buffer.
pub(super) const DECODED: u32 = 4;
pub(super) const ARRAY: u32 = 5;
/// An object whose members are in order as written.
pub(super) const OBJECT: u32 = 6;
/// An object whose order is kept aside, in [`Tape::orders`].
pub(super) const REORDERED: u32 = 7;
/// Objects whose subtree has at most this many nodes are put in order by
/// moving their members; larger ones keep their order aside, so that
/// nothing large is ever copied (an object holding a 30 MB array).
pub(super) const MOVABLE: usize = 1024;

/// One node: a tag and a length (bytes of a string or number, items or
/// members of a container) in `head`; in `data` the offset of a string or
/// number, or the node count of a container's subtree (itself included).
/// An object node is followed by its members, each a key node and the
/// value's subtree: in the order decoded (sorted and unique, or input
/// order for [`Keys::InputOrderUnique`]) for [`OBJECT`], as written for
/// [`REORDERED`]. Subtree sizes are relative, so a subtree can move as a
/// block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Node {
    head: u32,
    data: u32,
}

impl Node {
    #[inline]
    pub(super) fn new(tag: u32, len: usize, data: usize) -> Node {
        Node {
            head: tag << TAG_SHIFT | len as u32,
            data: data as u32,
        }
    }

    #[inline]
    pub(super) fn tag(self) -> u32 {
        self.head >> TAG_SHIFT
    }

    #[inline]
    pub(super) fn len(self) -> usize {
        (self.head & LEN_MASK) as usize
    }

    /// Nodes in this node's subtree, itself included.
    #[inline]
    pub(super) fn size(self) -> usize {
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
    pub(super) src: &'a [u8],
    /// `src` as text, when it is all UTF-8 (plain strings are then sliced
    /// from it without checking each again).
    pub(super) src_text: Option<&'a str>,
    pub(super) nodes: Vec<Node>,
    pub(super) decoded: String,
    /// The key node indices, in order, of each [`REORDERED`] object (by
    /// its node index).
    pub(super) orders: rustc_hash::FxHashMap<u32, Box<[u32]>>,
}

/// Bytes of a string or number node.
#[inline]
pub(super) fn span<'t>(src: &'t [u8], decoded: &'t str, n: Node) -> &'t [u8] {
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
    pub(super) fn text(&self, n: Node) -> &str {
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
    pub(super) tape: &'t Tape<'t>,
    pub(super) i: u32,
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
        f.write_str(&String::from_utf8_lossy(&super::to_vec(*self)))
    }
}

impl<'t> Json<'t> {
    #[inline]
    pub(super) fn node(self) -> Node {
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
    pub(super) tape: &'t Tape<'t>,
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

impl<'t> Items<'t> {
    /// Random access to the items: free when every item is a scalar (one
    /// node each), else one `u32` per item.
    pub fn indexed(self) -> Indexed<'t> {
        let nodes = self.tape.nodes[self.first as usize - 1].size() - 1;
        let starts = if nodes == self.len as usize {
            None
        } else {
            let mut v = Vec::with_capacity(self.len as usize);
            let mut next = self.first;
            for _ in 0..self.len {
                v.push(next);
                next += self.tape.nodes[next as usize].size() as u32;
            }
            Some(v)
        };
        Indexed {
            items: self,
            starts,
        }
    }
}

/// An array's items by position (see [`Items::indexed`]).
pub struct Indexed<'t> {
    items: Items<'t>,
    /// Node index of each item; `None` when item `i` is node `first + i`.
    starts: Option<Vec<u32>>,
}

impl<'t> Indexed<'t> {
    pub fn len(&self) -> usize {
        self.items.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.items.len == 0
    }

    /// Item `i`.
    #[inline]
    pub fn get(&self, i: usize) -> Json<'t> {
        let at = match &self.starts {
            Some(v) => v[i],
            None => self.items.first + i as u32,
        };
        Json {
            tape: self.items.tape,
            i: at,
        }
    }
}

/// Iterator over an array's items.
pub struct ItemsIter<'t> {
    pub(super) tape: &'t Tape<'t>,
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
    pub(super) tape: &'t Tape<'t>,
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
pub(super) enum KeyNodes<'t> {
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
    pub(super) fn keys(&self, at: usize) -> KeyNodes<'_> {
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
    pub(super) tape: &'t Tape<'t>,
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
