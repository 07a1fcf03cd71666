//! The HTML compressor (content type `html`, method `html`; spec/html.md):
//! the page parsed by a WHATWG tree builder, script/style/form-like
//! subtrees removed, block elements scored by text volume and commas, every
//! enclosing container credited (class/id hints ±25), the best container
//! after a link-density discount rendered as plain text.
//!
//! Every per-node quantity the spec defines over a subtree (text length,
//! commas, anchor text, the credit of a container) is computed bottom-up
//! in one pass, so 10,000 nested paragraphs cost linear time.

mod dom;
mod lean;

use std::sync::LazyLock;

use regex::Regex;

use self::dom::{link, Data, Dom, Id};
use super::{Compressed, Decline, Input};

/// Scorable elements need this much trimmed text.
const MIN_TEXT: u32 = 25;
/// At most this much is added for text volume (one per 100 bytes).
const MAX_VOLUME: u32 = 3;
/// The class/id hint's weight.
const HINT: i64 = 25;
/// Shorter renderings are not worth returning.
const MIN_OUTPUT: usize = 200;

const REMOVED: [&str; 9] = [
    "script", "style", "noscript", "svg", "iframe", "form", "button", "input", "template",
];
const SCORABLE: [&str; 11] = [
    "p",
    "pre",
    "td",
    "blockquote",
    "li",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
];
const CONTAINERS: [&str; 6] = ["div", "article", "main", "section", "td", "body"];
const BLOCKS: [&str; 19] = [
    "p",
    "div",
    "br",
    "li",
    "ul",
    "ol",
    "pre",
    "blockquote",
    "section",
    "article",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "tr",
    "table",
    "hr",
];

static POSITIVE: LazyLock<Regex> = LazyLock::new(|| {
    crate::go::regexp::compile(r"(?i)(article|body|content|entry|main|page|post|story|text|blog)")
});
static NEGATIVE: LazyLock<Regex> = LazyLock::new(|| {
    crate::go::regexp::compile(
        r"(?i)(comment|nav|sidebar|footer|header|menu|promo|banner|ad-|share|social|related|breadcrumb|cookie|popup|modal|widget)",
    )
});

pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    if input.profile.is_lean() {
        let out = extract(input.body, true)?;
        let out = with_title(input.body, out);
        // The rendered page is Markdown-like text: headings marked, code
        // fenced; the lean text rules cut it further.
        if let Ok(text) = std::str::from_utf8(&out) {
            let compat = || super::compat_room(input.body);
            if let Ok(c) = super::doc::lean(text, input.query, input.budget, &compat) {
                return Ok(c);
            }
        }
        return Ok(Compressed::new(out));
    }
    compress(input.body).map(Compressed::new)
}

fn heading_level(tag: &str) -> Option<usize> {
    match tag {
        "h1" => Some(1),
        "h2" => Some(2),
        "h3" => Some(3),
        "h4" => Some(4),
        "h5" => Some(5),
        "h6" => Some(6),
        _ => None,
    }
}

static TITLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?is)<title[^>]*>(.*?)</title>").expect("title pattern"));

/// Character references of a title: numeric ones and the common names.
fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(k) = rest.find('&') {
        out.push_str(&rest[..k]);
        let after = &rest[k + 1..];
        let end = after.find(';').filter(|&e| e <= 10);
        let decoded = end.and_then(|e| {
            let name = &after[..e];
            let c = if let Some(h) = name.strip_prefix("#x").or_else(|| name.strip_prefix("#X")) {
                u32::from_str_radix(h, 16).ok().and_then(char::from_u32)
            } else if let Some(d) = name.strip_prefix('#') {
                d.parse::<u32>().ok().and_then(char::from_u32)
            } else {
                match name {
                    "amp" => Some('&'),
                    "lt" => Some('<'),
                    "gt" => Some('>'),
                    "quot" => Some('"'),
                    "apos" => Some('\''),
                    "nbsp" => Some(' '),
                    "mdash" => Some('\u{2014}'),
                    "ndash" => Some('\u{2013}'),
                    "middot" => Some('\u{b7}'),
                    "raquo" => Some('\u{bb}'),
                    "laquo" => Some('\u{ab}'),
                    "hellip" => Some('\u{2026}'),
                    _ => None,
                }
            };
            c.map(|c| (c, e))
        });
        match decoded {
            Some((c, e)) => {
                out.push(c);
                rest = &after[e + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The page's `<title>` first (lean): the extractor reads the body only.
fn with_title(body: &[u8], text: Vec<u8>) -> Vec<u8> {
    let Ok(page) = std::str::from_utf8(body) else {
        return text;
    };
    let Some(m) = TITLE.captures(page).and_then(|c| c.get(1)) else {
        return text;
    };
    let title = decode_entities(m.as_str());
    let title: Vec<&str> = title.split_whitespace().collect();
    let title = title.join(" ");
    if title.is_empty() || text.starts_with(title.as_bytes()) {
        return text;
    }
    let mut out = Vec::with_capacity(title.len() + 2 + text.len());
    out.extend_from_slice(title.as_bytes());
    out.extend_from_slice(b"\n\n");
    out.extend_from_slice(&text);
    out
}

pub(crate) fn compress(body: &[u8]) -> Result<Vec<u8>, Decline> {
    extract(body, false)
}

/// Elements nested deeper than this are not parsed: the tree builder's
/// scope checks walk the stack of open elements, so unclosed nesting costs
/// time quadratic in its depth (50,000 unclosed `<div>`s: 11 s).
const MAX_NESTING: usize = 4096;

/// Elements that never hold others (void) or whose end tag the parser
/// implies (a new `<p>` closes the open one): they do not deepen the tree.
const FLAT: [&str; 31] = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr", "keygen", "p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th",
    "thead", "tbody", "tfoot", "rb", "rt", "rp", "colgroup",
];

/// The tree builder's scope checks walk the open elements at every start
/// tag: their work is about the sum of the depths at which elements open
/// (14 ns a level measured). A page whose sum passes this many levels a
/// byte, plus [`NESTING_WORK_BASE`], is not parsed: 4,000 levels once
/// (8 M) is parsed in 0.1 s, the same nest 200 times over (1.6 G, 22 s)
/// is declined at once.
const NESTING_WORK_PER_BYTE: usize = 8;
const NESTING_WORK_BASE: usize = 1 << 24;

/// The deepest nesting of elements a linear scan of the tags sees (an
/// over-estimate: misnested formatting elements count as nested), and the
/// sum of the depths at which elements open.
fn nesting(text: &str) -> (usize, usize) {
    let b = text.as_bytes();
    let (mut depth, mut max, mut work) = (0usize, 0usize, 0usize);
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'<', &b[i..]) {
        i += k + 1;
        if b[i..].starts_with(b"!--") {
            i = memchr::memmem::find(&b[i..], b"-->").map_or(b.len(), |e| i + e + 3);
            continue;
        }
        let close = b.get(i) == Some(&b'/');
        let start = i + usize::from(close);
        let len = b[start..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        if len == 0 || !b[start].is_ascii_alphabetic() {
            continue;
        }
        let name = text[start..start + len].to_ascii_lowercase();
        let end = memchr::memchr(b'>', &b[start..]).map_or(b.len(), |e| start + e);
        let self_closing = end > 0 && b.get(end - 1) == Some(&b'/');
        i = end;
        if FLAT.contains(&name.as_str()) || self_closing {
            continue;
        }
        if close {
            depth = depth.saturating_sub(1);
            continue;
        }
        if matches!(
            name.as_str(),
            "script" | "style" | "textarea" | "title" | "xmp"
        ) {
            let closing = format!("</{name}");
            i = find_lower(&b[i..], closing.as_bytes()).map_or(b.len(), |e| i + e);
            continue;
        }
        depth += 1;
        max = max.max(depth);
        work = work.saturating_add(depth);
    }
    (max, work)
}

/// Case-insensitive search for an ASCII needle.
fn find_lower(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

/// The main content as text; `lean` marks headings (`#`) and fences code.
fn extract(body: &[u8], lean: bool) -> Result<Vec<u8>, Decline> {
    let mut clock = crate::timings::Clock::new("html");
    let (text, mapped) = to_text(body);
    if text.trim().is_empty() {
        return Err(Decline("empty"));
    }
    let (deepest, work) = nesting(&text);
    if deepest > MAX_NESTING {
        return Err(Decline(
            "elements nested deeper than 4096 (parsing would take quadratic time)",
        ));
    }
    if work > NESTING_WORK_PER_BYTE * text.len() + NESTING_WORK_BASE {
        return Err(Decline(
            "elements nested too deep too often (parsing would take quadratic time)",
        ));
    }
    let mut dom = dom::parse(&text);
    clock.mark("parse");
    if lean {
        lean::remove_noise(&mut dom);
    } else {
        remove_noise(&mut dom);
    }
    let body_el = preorder(&dom, 0)
        .find(|&n| dom.node(n).tag() == Some("body"))
        .ok_or(Decline("no body element"))?;
    let m = measure(&dom);
    clock.mark("measure");
    let out = if lean {
        lean::render(&dom, lean::root(&dom, &m, body_el))
    } else {
        let winner = winner(&dom, &m, body_el).ok_or(Decline("no container scored"))?;
        let total = m.text_len(winner);
        if total == 0 || 2 * m.anchor[winner as usize] as u64 >= total as u64 {
            return Err(Decline("the best container is empty or mostly links"));
        }
        render(&dom, winner)
    };
    clock.mark("render");
    drop(dom);
    if out.len() < MIN_OUTPUT {
        return Err(Decline("under 200 bytes of text"));
    }
    let out = if mapped {
        from_text(&out)
    } else {
        out.into_bytes()
    };
    if out.len() >= body.len() {
        return Err(Decline("not shorter than the page"));
    }
    Ok(out)
}

/// First code point of the range invalid bytes are mapped to: Go's parser
/// keeps a byte that is not UTF-8 as it is, so each becomes a private-use
/// character for html5ever and the byte again on the way out.
const RAW_BYTE_BASE: u32 = 0x10_FF00;

/// The body as text for the parser, and whether any byte was mapped.
fn to_text(body: &[u8]) -> (std::borrow::Cow<'_, str>, bool) {
    if let Ok(s) = std::str::from_utf8(body) {
        return (s.into(), false);
    }
    let mut out = String::with_capacity(body.len() + body.len() / 2);
    let mut rest = body;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                break;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(good).unwrap_or_default());
                out.push(char::from_u32(RAW_BYTE_BASE + bad[0] as u32).unwrap_or('\u{FFFD}'));
                rest = &bad[1..];
            }
        }
    }
    (out.into(), true)
}

/// The inverse of [`to_text`]'s mapping.
fn from_text(s: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    for c in s.chars() {
        let u = c as u32;
        if (RAW_BYTE_BASE..RAW_BYTE_BASE + 256).contains(&u) {
            out.push((u - RAW_BYTE_BASE) as u8);
        } else {
            let mut b = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
        }
    }
    out
}

/// Nodes of the subtree of `root` in pre-order (root first).
fn preorder(dom: &Dom, root: Id) -> impl Iterator<Item = Id> + '_ {
    let mut next = Some(root);
    std::iter::from_fn(move || {
        let here = next?;
        next = link(dom.node(here).first_child).or_else(|| {
            let mut n = here;
            loop {
                if n == root {
                    return None;
                }
                let node = dom.node(n);
                if let Some(s) = link(node.next) {
                    return Some(s);
                }
                n = link(node.parent)?;
            }
        });
        Some(here)
    })
}

/// Removes every element whose tag is in [`REMOVED`], with its subtree.
fn remove_noise(dom: &mut Dom) {
    let doomed: Vec<Id> = preorder(dom, 0)
        .filter(|&n| dom.node(n).tag().is_some_and(|t| REMOVED.contains(&t)))
        .collect();
    for n in doomed {
        dom.detach(n);
    }
}

/// Per node, what the spec asks of its subtree's text: byte length, commas,
/// leading and trailing whitespace (for the trimmed length), anchor text,
/// and the credit scorable descendants give it. Lengths are 32-bit: a
/// page is at most a few hundred MiB even with every byte escaped.
struct Measures {
    len: Vec<u32>,
    commas: Vec<u32>,
    lead: Vec<u32>,
    trail: Vec<u32>,
    /// Σ trimmed text of the outermost `a` elements strictly inside.
    anchor: Vec<u32>,
    /// Σ base scores of qualifying scorable elements strictly inside (64
    /// bits: nested scorables each count their whole text's commas), and
    /// how many there are.
    credit: Vec<u64>,
    credited: Vec<u32>,
}

impl Measures {
    /// textLen: the byte length of the trimmed text content.
    fn text_len(&self, n: Id) -> u32 {
        let n = n as usize;
        if self.lead[n] == self.len[n] {
            0
        } else {
            self.len[n] - self.lead[n] - self.trail[n]
        }
    }
}

/// Computes [`Measures`] for every node, children before parents.
fn measure(dom: &Dom) -> Measures {
    let n = dom.nodes.len();
    let mut m = Measures {
        len: vec![0; n],
        commas: vec![0; n],
        lead: vec![0; n],
        trail: vec![0; n],
        anchor: vec![0; n],
        credit: vec![0; n],
        credited: vec![0; n],
    };
    let order: Vec<Id> = preorder(dom, 0).collect();
    for &id in order.iter().rev() {
        let i = id as usize;
        let node = dom.node(id);
        if let Data::Text(t) = &node.data {
            let lead = t.len() - t.trim_start().len();
            m.len[i] = t.len() as u32;
            m.commas[i] = memchr::memchr_iter(b',', t.as_bytes()).count() as u32;
            m.lead[i] = lead as u32;
            m.trail[i] = if lead == t.len() {
                t.len() as u32
            } else {
                (t.len() - t.trim_end().len()) as u32
            };
            continue;
        }
        // The children's texts, concatenated.
        let (mut len, mut commas, mut lead, mut trail) = (0u32, 0u32, 0u32, 0u32);
        let (mut anchor, mut credit, mut credited) = (0u32, 0u64, 0u32);
        for c in dom.children(id) {
            let ci = c as usize;
            let blank = m.lead[ci] == m.len[ci];
            if lead == len {
                lead += m.lead[ci];
            }
            trail = if blank {
                trail + m.len[ci]
            } else {
                m.trail[ci]
            };
            len += m.len[ci];
            commas += m.commas[ci];
            let child = dom.node(c);
            anchor += if child.tag() == Some("a") {
                m.text_len(c)
            } else {
                m.anchor[ci]
            };
            credit += m.credit[ci];
            credited += m.credited[ci];
            if child.tag().is_some_and(|t| SCORABLE.contains(&t)) && m.text_len(c) >= MIN_TEXT {
                let volume = (m.len[ci] / 100).min(MAX_VOLUME);
                credit += 1 + m.commas[ci] as u64 + volume as u64;
                credited += 1;
            }
        }
        m.len[i] = len;
        m.commas[i] = commas;
        m.lead[i] = lead;
        m.trail[i] = trail.min(len);
        m.anchor[i] = anchor;
        m.credit[i] = credit;
        m.credited[i] = credited;
    }
    m
}

/// The class/id weight of a container (html.md §1): 0 without a `class`
/// or `id` attribute.
fn weight(hint: Option<&str>) -> i64 {
    let Some(s) = hint else {
        return 0;
    };
    let mut w = 0;
    if POSITIVE.is_match(s) {
        w += HINT;
    }
    if NEGATIVE.is_match(s) {
        w -= HINT;
    }
    w
}

/// The winning container (html.md §4 steps 3–4), if any scored above 0.
fn winner(dom: &Dom, m: &Measures, body: Id) -> Option<Id> {
    let mut best: Option<(Id, i64)> = None;
    for id in preorder(dom, body) {
        let i = id as usize;
        let node = dom.node(id);
        let Data::Element { local, .. } = &node.data else {
            continue;
        };
        let tag: &str = local;
        if tag == "body" || !CONTAINERS.contains(&tag) || m.credited[i] == 0 {
            continue;
        }
        let raw = m.credit[i] as i64 + weight(dom.hint(id));
        if raw <= 0 {
            continue;
        }
        let total = m.text_len(id) as i64;
        let score = if total == 0 {
            raw
        } else {
            raw * (total - m.anchor[i] as i64) / total
        };
        if score > best.map_or(0, |b| b.1) {
            best = Some((id, score));
        }
    }
    best.map(|b| b.0)
}

/// Text content of a subtree: its text nodes' data in order.
fn text_content(dom: &Dom, root: Id) -> String {
    let mut s = String::new();
    for id in preorder(dom, root) {
        if let Data::Text(t) = &dom.node(id).data {
            s.push_str(t);
        }
    }
    s
}

/// The winner as plain text (html.md §5), written through a [`Cleaner`]
/// as it is walked: the spec's intermediate buffer (as large as the text)
/// is never built.
fn render(dom: &Dom, root: Id) -> String {
    let mut out = Cleaner::default();
    // An explicit stack of (node, entered): elements write their break on
    // the way in and again on the way out.
    let mut stack: Vec<(Id, bool)> = vec![(root, false)];
    while let Some((id, entered)) = stack.pop() {
        let node = dom.node(id);
        match &node.data {
            Data::Text(t) => out.push_str(t),
            Data::Element { local, .. } => {
                let tag: &str = local;
                if tag == "pre" {
                    let text = text_content(dom, id);
                    out.push_char('\n');
                    out.push_verbatim(text.trim_matches('\n'));
                    out.push_char('\n');
                    continue;
                }
                out.push_char(if BLOCKS.contains(&tag) { '\n' } else { ' ' });
                if !entered {
                    stack.push((id, true));
                    let mut c = node.last_child;
                    while let Some(k) = link(c) {
                        stack.push((k, false));
                        c = dom.node(k).prev;
                    }
                }
            }
            _ => {}
        }
    }
    trim_in_place(out.out)
}

/// html.md §5 steps 2–4 as a stream: the rendered text arrives in pieces
/// and comes out with each line trimmed and its space/TAB runs squeezed,
/// runs of blank lines squeezed to one, and `<pre>` texts (each a line of
/// its own, never blank, placed after the squeezing) verbatim. Squeezing a
/// trimmed line gives what trimming a squeezed line gives, so whitespace
/// can be held back until the next visible character decides its fate.
#[derive(Default)]
struct Cleaner {
    out: String,
    /// Something visible has been written (a line break may follow).
    started: bool,
    /// The current line has visible text.
    in_line: bool,
    /// Line feeds since the last line with visible text.
    breaks: usize,
    /// Whitespace after the current line's last visible character: written
    /// (squeezed) if more text follows on this line, dropped at its end.
    held: String,
    /// Written before the next line's first visible character (lean: a
    /// list item's `- `, a table row's `| `).
    prefix: Option<&'static str>,
}

/// A [`Cleaner`]'s state at a point of the text.
struct Mark {
    len: usize,
    started: bool,
    in_line: bool,
    breaks: usize,
    held: String,
    prefix: Option<&'static str>,
}

impl Cleaner {
    fn push_str(&mut self, s: &str) {
        for c in s.chars() {
            self.push_char(c);
        }
    }

    fn push_char(&mut self, c: char) {
        if c == '\n' {
            if self.in_line {
                self.in_line = false;
                self.breaks = 0;
            }
            self.breaks += 1;
            self.held.clear();
            return;
        }
        if c.is_whitespace() {
            if self.in_line {
                let squeeze = (c == ' ' || c == '\t') && self.held.ends_with(' ');
                if !squeeze {
                    self.held.push(if c == '\t' { ' ' } else { c });
                }
            }
            return;
        }
        self.start_text();
        if !self.held.is_empty() {
            self.out.push_str(&self.held);
            self.held.clear();
        }
        self.out.push(c);
    }

    /// Where the text stands, to go back to with [`Cleaner::reset`].
    fn mark(&self) -> Mark {
        Mark {
            len: self.out.len(),
            started: self.started,
            in_line: self.in_line,
            breaks: self.breaks,
            held: self.held.clone(),
            prefix: self.prefix,
        }
    }

    /// Undoes what was written since `m`.
    fn reset(&mut self, m: Mark) {
        self.out.truncate(m.len);
        self.started = m.started;
        self.in_line = m.in_line;
        self.breaks = m.breaks;
        self.held = m.held;
        self.prefix = m.prefix;
    }

    /// Text that is written as it is, as a line of its own.
    fn push_verbatim(&mut self, s: &str) {
        self.start_text();
        self.held.clear();
        self.out.push_str(s);
    }

    /// Visible text begins: the line break (one, or two after blank lines)
    /// that separates it from the previous line with text.
    fn start_text(&mut self) {
        if !self.in_line {
            if self.started {
                self.out
                    .push_str(if self.breaks > 1 { "\n\n" } else { "\n" });
            }
            self.started = true;
            self.in_line = true;
            self.breaks = 0;
            if let Some(p) = self.prefix.take() {
                self.out.push_str(p);
            }
        }
    }
}

/// `s` without its leading and trailing Unicode whitespace, in place.
fn trim_in_place(mut s: String) -> String {
    let end = s.trim_end().len();
    s.truncate(end);
    let lead = s.len() - s.trim_start().len();
    s.drain(..lead);
    s
}

#[cfg(test)]
mod tests;
