//! The lean HTML view: the page without its chrome (navigation, sidebars,
//! footers, landmark roles, heading anchors), the main container when it
//! holds the page's text (else the whole body: a page no container wins,
//! a list of links, a search result page), raised to hold every long
//! block of text (a story in a layout table's cell is the page, whatever
//! won), rendered as Markdown-like text
//! the lean document rules read: headings marked, lists and definition
//! lists item by item (a `<dt>` signature is a line of its own, its `<dd>`
//! a paragraph), data tables as pipe rows, code fenced. A page that is
//! all chrome (an index whose links sit in a `nav`) keeps it: its links
//! are what it holds.

use std::sync::LazyLock;

use regex::Regex;
use rustc_hash::FxHashSet;

use super::dom::{link, Data, Dom, Id};
use super::{heading_level, preorder, text_content, trim_in_place, Cleaner, Measures, BLOCKS};

/// Elements that hold the site around the page, not the page.
const CHROME_TAGS: [&str; 3] = ["nav", "aside", "footer"];
/// Landmark roles of the same.
const CHROME_ROLES: [&str; 5] = [
    "navigation",
    "complementary",
    "contentinfo",
    "search",
    "banner",
];
/// Class or id words of the same.
static CHROME_HINT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(^|[\s_-])(nav|navbar|navigation|sidebar|breadcrumbs?|menu|footer|toc|related|share|social|cookies?|headerlink|skip|toolbar|pager|pagination)([\s_-]|$)",
    )
    .expect("chrome hint pattern")
});
/// More elements that start a line in the lean rendering.
const LEAN_BLOCKS: [&str; 12] = [
    "dl",
    "figure",
    "figcaption",
    "header",
    "main",
    "details",
    "summary",
    "caption",
    "address",
    "center",
    "dt",
    "dd",
];
/// Block elements that make a table a layout rather than data.
const LAYOUT: [&str; 14] = [
    "table",
    "p",
    "div",
    "ul",
    "ol",
    "dl",
    "pre",
    "blockquote",
    "section",
    "article",
    "h1",
    "h2",
    "h3",
    "h4",
];
/// The main container must hold this share (tenths) of the body's text;
/// else the whole body is rendered.
const MAIN_SHARE: u64 = 4;
/// A block with this much text (trimmed bytes), less than a quarter of
/// it in links, is the page's content wherever it sits: never chrome, and
/// always inside what is rendered.
const LONG_TEXT: usize = 400;
/// Blocks that hold running text.
const TEXT_BLOCKS: [&str; 4] = ["p", "pre", "blockquote", "dd"];
/// Containers that hold running text themselves when no block is inside
/// them (text set straight into a layout cell, with `<br>`s).
const TEXT_CELLS: [&str; 3] = ["td", "div", "li"];

/// Elements removed with their subtree: scripts, styles, images drawn in
/// SVG, frames, templates and form controls (a form's other content, such
/// as the results of a search page, stays).
const REMOVED: [&str; 10] = [
    "script", "style", "noscript", "svg", "iframe", "button", "input", "template", "select",
    "textarea",
];
/// Inline elements: no space of their own (their text carries it).
const INLINE: [&str; 24] = [
    "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "i", "ins", "kbd",
    "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "var",
];
/// A page whose text outside its chrome is under this many bytes (and
/// under a quarter of its text) is its chrome: see [`chrome_is_the_page`].
const PAGE_LEFT: usize = 400;
/// Preformatted text that is most of the page is the document itself (an
/// RFC, a plain-text page), not an example: at least this share (tenths).
const PRE_DOCUMENT: usize = 5;

/// Removes [`REMOVED`] elements and the page's chrome: `nav`, `aside`,
/// `footer`, landmark roles, class or id words of navigation, and a
/// `header` without a heading, unless the element holds the page's main
/// content or its title.
pub(super) fn remove_noise(dom: &mut Dom) {
    let m = super::measure(dom);
    // Σ trimmed text of every `a` in a subtree, it included.
    let mut links = vec![0u64; dom.nodes.len()];
    for id in children_first(dom) {
        let own = if dom.node(id).tag() == Some("a") {
            m.text_len(id) as u64
        } else {
            0
        };
        links[id as usize] = own + dom.children(id).map(|c| links[c as usize]).sum::<u64>();
    }
    let held = Held::new(dom, |k| {
        (m.text_len(k) as usize, links[k as usize] as usize)
    });
    let removed = |n: Id| dom.node(n).tag().is_some_and(|t| REMOVED.contains(&t));
    let mut doomed: Vec<Id> = preorder(dom, 0)
        .filter(|&n| removed(n) || chrome(dom, &held, n))
        .collect();
    if chrome_is_the_page(dom, &doomed, removed) {
        doomed.retain(|&n| removed(n));
    }
    for n in doomed {
        dom.detach(n);
    }
}

/// Whether the page's chrome is what the page holds: without it less
/// than [`PAGE_LEFT`] bytes of text would be left, and under a quarter of
/// the text outside [`REMOVED`] elements (an index page whose list of
/// links sits in a `nav`, a site map). Such a page is rendered with its
/// chrome.
fn chrome_is_the_page(dom: &Dom, doomed: &[Id], removed: impl Fn(Id) -> bool) -> bool {
    // 0: kept, 1: under chrome, 2: under a removed element.
    let mut under = vec![0u8; dom.nodes.len()];
    let mut next = doomed.iter().peekable();
    let (mut shown, mut left) = (0usize, 0usize);
    for n in preorder(dom, 0) {
        let from_parent = link(dom.node(n).parent).map_or(0, |p| under[p as usize]);
        let own = if next.next_if(|&&d| d == n).is_some() {
            if removed(n) {
                2
            } else {
                1
            }
        } else {
            0
        };
        under[n as usize] = from_parent.max(own);
        if let Data::Text(t) = &dom.node(n).data {
            let len = t.trim().len();
            match under[n as usize] {
                0 => {
                    shown += len;
                    left += len;
                }
                1 => shown += len,
                _ => {}
            }
        }
    }
    left < PAGE_LEFT && left * 4 < shown
}

/// Nodes of the document, children before parents.
fn children_first(dom: &Dom) -> impl Iterator<Item = Id> {
    let order: Vec<Id> = preorder(dom, 0).collect();
    order.into_iter().rev()
}

/// Bits of the tags [`Held::tags`] records.
const MAIN: u8 = 1;
const ARTICLE: u8 = 2;
const H1: u8 = 4;
const H2: u8 = 8;
/// Any of [`LAYOUT`].
const LAYOUT_BIT: u8 = 16;

fn tag_bits(tag: &str) -> u8 {
    let named = match tag {
        "main" => MAIN,
        "article" => ARTICLE,
        "h1" => H1,
        "h2" => H2,
        _ => 0,
    };
    named | if LAYOUT.contains(&tag) { LAYOUT_BIT } else { 0 }
}

/// What [`chrome`] and [`root`] ask of each node's subtree, computed once,
/// children before parents: walking the subtree again for each node (and
/// again for each text container in it) took cubic time on nested chrome.
struct Held {
    /// The tags strictly inside a node, as [`tag_bits`].
    tags: Vec<u8>,
    /// Whether a node's subtree, it included, holds a block of running
    /// text.
    long: Vec<bool>,
}

impl Held {
    /// `sizes` gives a node's trimmed text and link text.
    fn new(dom: &Dom, sizes: impl Fn(Id) -> (usize, usize)) -> Held {
        let n = dom.nodes.len();
        let mut h = Held {
            tags: vec![0; n],
            long: vec![false; n],
        };
        for id in children_first(dom) {
            let (mut tags, mut long) = (0u8, false);
            for c in dom.children(id) {
                tags |= h.tags[c as usize] | dom.node(c).tag().map_or(0, tag_bits);
                long |= h.long[c as usize];
            }
            h.tags[id as usize] = tags;
            h.long[id as usize] = long || long_text(dom, id, &sizes, tags & LAYOUT_BIT != 0);
        }
        h
    }
}

fn chrome(dom: &Dom, held: &Held, n: Id) -> bool {
    let Some(tag) = dom.node(n).tag() else {
        return false;
    };
    if matches!(tag, "html" | "body" | "main" | "article" | "head") {
        return false;
    }
    let holds = |bits: u8| held.tags[n as usize] & bits != 0;
    let long = held.long[n as usize];
    let looks = CHROME_TAGS.contains(&tag)
        || dom.role(n).is_some_and(|r| CHROME_ROLES.contains(&r))
        || dom.hint(n).is_some_and(|h| CHROME_HINT.is_match(h));
    if looks {
        return !holds(MAIN | ARTICLE | H1) && !long;
    }
    tag == "header" && !holds(H1 | H2 | MAIN | ARTICLE) && !long
}

/// Whether `n` is a block of running text ([`LONG_TEXT`]); `sizes` gives
/// a node's trimmed text and link text, `layout` whether one of
/// [`LAYOUT`] is inside it.
fn long_text(dom: &Dom, n: Id, sizes: impl Fn(Id) -> (usize, usize), layout: bool) -> bool {
    let Some(tag) = dom.node(n).tag() else {
        return false;
    };
    let block = TEXT_BLOCKS.contains(&tag);
    if !block && !TEXT_CELLS.contains(&tag) {
        return false;
    }
    let (text, links) = sizes(n);
    if text < LONG_TEXT || links * 4 >= text {
        return false;
    }
    block || !layout
}

/// Whether `n` is `root` or below it.
fn inside(dom: &Dom, n: Id, root: Id) -> bool {
    let mut k = Some(n);
    while let Some(x) = k {
        if x == root {
            return true;
        }
        k = link(dom.node(x).parent);
    }
    false
}

/// What to render: the winning container when it holds enough of the
/// body's text and is not mostly links, else the body.
pub(super) fn root(dom: &Dom, m: &Measures, body: Id) -> Id {
    let total = m.text_len(body) as u64;
    let sizes = |k: Id| (m.text_len(k) as usize, m.anchor[k as usize] as usize);
    let held = Held::new(dom, sizes);
    let winner = super::winner(dom, m, body).map(|w| {
        // Raised to the nearest ancestor that holds every long block.
        let mut root = w;
        let long = |k: Id| long_text(dom, k, sizes, held.tags[k as usize] & LAYOUT_BIT != 0);
        for b in preorder(dom, body).filter(|&k| long(k)) {
            while !inside(dom, b, root) {
                match link(dom.node(root).parent) {
                    Some(p) => root = p,
                    None => return body,
                }
            }
        }
        root
    });
    match winner {
        Some(w) => {
            let t = m.text_len(w) as u64;
            let linked = 2 * m.anchor[w as usize] as u64 >= t;
            if t * 10 >= total * MAIN_SHARE && !linked {
                w
            } else {
                body
            }
        }
        None => body,
    }
}

/// Tables under `root` whose cells hold only inline content: rendered as
/// pipe rows (a layout table renders as blocks).
fn data_tables(dom: &Dom, root: Id) -> FxHashSet<Id> {
    preorder(dom, root)
        .filter(|&t| dom.node(t).tag() == Some("table"))
        .filter(|&t| {
            !preorder(dom, t)
                .skip(1)
                .any(|k| dom.node(k).tag().is_some_and(|x| LAYOUT.contains(&x)))
        })
        .collect()
}

/// A data table being rendered.
#[derive(Default)]
struct Table {
    rows: usize,
    cells: usize,
    headers: usize,
    /// Where the current row began: a row with no text in any cell (a
    /// layout spacer) is taken back.
    row: Option<super::Mark>,
}

/// A `pre` element's text, its `<br>` elements line breaks (syntax
/// highlighters write a code block's lines that way).
fn pre_text(dom: &Dom, pre: Id) -> String {
    let mut s = String::new();
    for id in preorder(dom, pre) {
        match &dom.node(id).data {
            Data::Text(t) => s.push_str(t),
            _ if dom.node(id).tag() == Some("br") => s.push('\n'),
            _ => {}
        }
    }
    s
}

/// The subtree of `root` as Markdown-like text.
pub(super) fn render(dom: &Dom, root: Id) -> String {
    let data = data_tables(dom, root);
    let pre: usize = preorder(dom, root)
        .filter(|&k| dom.node(k).tag() == Some("pre"))
        .map(|k| text_content(dom, k).len())
        .sum();
    let pre_document = pre * 10 >= text_content(dom, root).len() * PRE_DOCUMENT;
    let mut out = Cleaner::default();
    let mut stack: Vec<(Id, bool)> = vec![(root, false)];
    let mut tables: Vec<Table> = Vec::new();
    // Open cells of data tables: line breaks inside them are spaces.
    let mut in_cell = 0usize;
    while let Some((id, entered)) = stack.pop() {
        let node = dom.node(id);
        let tag: &str = match &node.data {
            Data::Text(t) => {
                out.push_str(&t.replace(['\n', '\r'], " "));
                continue;
            }
            Data::Element { local, .. } => local,
            _ => continue,
        };
        let brk = |out: &mut Cleaner, n: usize| {
            for _ in 0..n {
                out.push_char(if in_cell > 0 { ' ' } else { '\n' });
            }
        };
        if tag == "pre" {
            let text = pre_text(dom, id);
            if in_cell > 0 {
                out.push_str(&text.replace(['\n', '\r'], " "));
            } else if pre_document {
                out.prefix = None;
                out.push_char('\n');
                out.push_verbatim(text.trim_matches('\n'));
                out.push_char('\n');
            } else {
                out.prefix = None;
                out.push_char('\n');
                out.push_verbatim("```");
                out.push_char('\n');
                out.push_verbatim(text.trim_matches('\n'));
                out.push_char('\n');
                out.push_verbatim("```");
                out.push_char('\n');
            }
            continue;
        }
        let in_data = |t: Id| {
            let mut p = link(dom.node(t).parent);
            while let Some(k) = p {
                if dom.node(k).tag() == Some("table") {
                    return data.contains(&k);
                }
                p = link(dom.node(k).parent);
            }
            false
        };
        match (tag, entered) {
            _ if heading_level(tag).is_some() => {
                brk(&mut out, 2);
                if !entered {
                    out.push_str(&"#".repeat(heading_level(tag).unwrap_or(1)));
                    out.push_char(' ');
                }
            }
            ("dt" | "dd", _) => brk(&mut out, 2),
            // A line break, not a paragraph's end: lines set with `<br>`
            // (a list of links, an address, a poem) stay one block.
            ("br", false) => brk(&mut out, 1),
            ("br", true) => {}
            ("li", false) => {
                brk(&mut out, 1);
                out.prefix = Some("- ");
            }
            ("li", true) => {
                brk(&mut out, 1);
                out.prefix = None;
            }
            ("table", _) if data.contains(&id) => {
                brk(&mut out, 2);
                if entered {
                    tables.pop();
                } else {
                    tables.push(Table::default());
                }
            }
            ("tr", false) if in_data(id) => {
                let mark = out.mark();
                brk(&mut out, 1);
                if let Some(t) = tables.last_mut() {
                    t.cells = 0;
                    t.headers = 0;
                    t.row = Some(mark);
                }
                out.prefix = Some("| ");
            }
            ("tr", true) if in_data(id) => {
                if let Some(t) = tables.last_mut() {
                    let empty = t.row.as_ref().is_some_and(|m| {
                        out.out[m.len..]
                            .chars()
                            .all(|c| c == '|' || c.is_whitespace())
                    });
                    if let (true, Some(m)) = (empty, t.row.take()) {
                        out.reset(m);
                        continue;
                    }
                    if t.cells > 0 {
                        out.push_str(" |");
                    }
                    // The first row is the header row, `th` or not: the
                    // document reader reads pipe rows under a separator.
                    if t.rows == 0 {
                        out.push_char('\n');
                        out.push_str(&format!("|{}", " --- |".repeat(t.cells)));
                    }
                    t.rows += 1;
                }
                // The next row (or the table's end) breaks the line: no
                // blank line between rows.
                out.prefix = None;
            }
            ("td" | "th", _) if in_data(id) => {
                if entered {
                    in_cell = in_cell.saturating_sub(1);
                } else {
                    if let Some(t) = tables.last_mut() {
                        if t.cells > 0 {
                            out.push_str(" | ");
                        }
                        t.cells += 1;
                        t.headers += usize::from(tag == "th");
                    }
                    in_cell += 1;
                }
            }
            _ if BLOCKS.contains(&tag)
                || LEAN_BLOCKS.contains(&tag)
                || matches!(tag, "td" | "th") =>
            {
                brk(&mut out, 1)
            }
            // An image in a data table's cell says what it shows (a
            // status icon's name), else the cell reads blank.
            ("img", false) if in_cell > 0 => {
                if let Some(w) = dom.images.get(&id) {
                    out.push_char(' ');
                    out.push_str(&w.replace(['|', '\n', '\r'], " "));
                    out.push_char(' ');
                }
            }
            _ if INLINE.contains(&tag) => {}
            _ => out.push_char(' '),
        }
        if !entered {
            stack.push((id, true));
            let mut c = node.last_child;
            while let Some(k) = link(c) {
                stack.push((k, false));
                c = dom.node(k).prev;
            }
        }
    }
    trim_in_place(out.out)
}
