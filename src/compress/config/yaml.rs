//! YAML read into the line tree: block mappings and sequences by
//! indentation (indentless sequences too), one node per entry and item;
//! block scalars, multi-line flow collections, quoted and plain scalars
//! stay with the entry they are the value of; comments, blank lines,
//! document markers and directives are classed by line. What the reader
//! does not follow (complex `?` keys, TAB indentation, a scalar or flow
//! collection at the root) gives `None`: no structural view.

use super::tree::{indent, Class, Tree};

/// What the next lines continue, if anything.
#[derive(Clone, Copy)]
enum Cont {
    None,
    /// A block scalar: lines indented deeper than `col`, and blank lines.
    Block {
        owner: usize,
        col: usize,
    },
    /// A flow collection still open.
    Flow {
        owner: usize,
        depth: i32,
        quote: Option<char>,
    },
    /// A quoted scalar still open.
    Quoted {
        owner: usize,
        quote: char,
    },
    /// A plain scalar: lines indented deeper than `col` continue it.
    Plain {
        owner: usize,
        col: usize,
    },
}

/// An open node: id, column, is an item.
type Open = (usize, usize, bool);

/// Reads `lines` (no trailing CRs) as YAML.
pub(super) fn scan(lines: Vec<&str>) -> Option<Tree<'_>> {
    let mut tree = Tree::new(lines, false);
    let mut stack: Vec<Open> = Vec::new();
    let mut cont = Cont::None;
    for i in 0..tree.lines.len() {
        let l = tree.lines[i];
        let t = l.trim();
        match cont {
            Cont::Block { owner, col } => {
                if t.is_empty() {
                    continue;
                }
                if indent(l) > col {
                    tree.own(i, owner);
                    continue;
                }
                cont = Cont::None;
            }
            Cont::Flow {
                owner,
                mut depth,
                mut quote,
            } => {
                tree.own(i, owner);
                flow_scan(l, &mut depth, &mut quote);
                cont = if depth <= 0 && quote.is_none() {
                    Cont::None
                } else {
                    Cont::Flow {
                        owner,
                        depth,
                        quote,
                    }
                };
                continue;
            }
            Cont::Quoted { owner, quote } => {
                tree.own(i, owner);
                if close_quote(l, quote).is_some() {
                    cont = Cont::None;
                }
                continue;
            }
            Cont::Plain { owner, col } => {
                if t.is_empty() {
                    continue;
                }
                if !t.starts_with('#') && indent(l) > col {
                    tree.own(i, owner);
                    continue;
                }
                cont = Cont::None;
            }
            Cont::None => {}
        }
        if t.is_empty() {
            continue;
        }
        if t.starts_with('#') {
            tree.class[i] = Class::Comment;
            continue;
        }
        if let Some(rest) = doc_marker(l) {
            tree.class[i] = Class::Fixed;
            stack.clear();
            if !only_properties(rest) {
                return None;
            }
            continue;
        }
        if l.starts_with('%') {
            tree.class[i] = Class::Fixed;
            continue;
        }
        let ind = indent(l);
        if l[..ind].contains('\t') {
            return None;
        }
        let mut col = ind;
        let mut rest = &l[ind..];
        let mut owner: Option<(usize, usize)> = None;
        while rest == "-" || rest.starts_with("- ") {
            let id = open(&mut tree, &mut stack, i, col, None, true)?;
            owner = Some((id, col));
            let after = &rest[1..];
            let gap = after.len() - after.trim_start_matches(' ').len();
            col += 1 + gap;
            rest = &after[gap..];
        }
        if rest.starts_with("? ") || rest == "?" || rest.starts_with('\t') {
            return None;
        }
        let value = match split_key(rest) {
            Some((key, after)) => {
                let id = open(&mut tree, &mut stack, i, col, Some(key), false)?;
                owner = Some((id, col));
                after
            }
            None if owner.is_none() => {
                // A lone tag or anchor before a collection (`!sum`).
                if only_properties(rest) {
                    tree.class[i] = Class::Fixed;
                    continue;
                }
                return None;
            }
            None => rest,
        };
        let (id, c) = owner?;
        cont = value_cont(value, id, c);
    }
    tree.finish();
    Some(tree)
}

/// Opens a node at `col` on line `i`: closes what it ends, finds its
/// parent, and pushes it.
fn open(
    tree: &mut Tree<'_>,
    stack: &mut Vec<Open>,
    i: usize,
    col: usize,
    key: Option<String>,
    item: bool,
) -> Option<usize> {
    while let Some(&(_, c, is_item)) = stack.last() {
        let closes = if item {
            c > col || (c == col && is_item)
        } else {
            c >= col
        };
        if !closes {
            break;
        }
        stack.pop();
    }
    let parent = stack.last().map(|o| o.0);
    let id = tree.push(i, col, key, item, parent);
    stack.push((id, col, item));
    Some(id)
}

/// What the value text after a key or `- ` makes of the following lines.
fn value_cont(value: &str, owner: usize, col: usize) -> Cont {
    let mut v = value.trim_start();
    while v.starts_with('&') || v.starts_with('!') {
        let end = v.find([' ', '\t']).unwrap_or(v.len());
        v = v[end..].trim_start();
    }
    if v.is_empty() || v.starts_with('#') || v.starts_with('*') {
        return Cont::None;
    }
    match v.as_bytes()[0] {
        b'|' | b'>' => Cont::Block { owner, col },
        b'[' | b'{' => {
            let (mut depth, mut quote) = (0, None);
            flow_scan(v, &mut depth, &mut quote);
            if depth > 0 || quote.is_some() {
                Cont::Flow {
                    owner,
                    depth,
                    quote,
                }
            } else {
                Cont::None
            }
        }
        q @ (b'"' | b'\'') => {
            let q = q as char;
            if close_quote(&v[1..], q).is_some() {
                Cont::None
            } else {
                Cont::Quoted { owner, quote: q }
            }
        }
        _ => Cont::Plain { owner, col },
    }
}

/// `---` or `...` at column 0, and what follows it on the line.
fn doc_marker(l: &str) -> Option<&str> {
    for m in ["---", "..."] {
        if let Some(rest) = l.strip_prefix(m) {
            if rest.is_empty() || rest.starts_with([' ', '\t']) {
                return Some(rest);
            }
        }
    }
    None
}

/// Nothing but tags, anchors and a comment.
fn only_properties(s: &str) -> bool {
    s.split_whitespace()
        .take_while(|w| !w.starts_with('#'))
        .all(|w| w.starts_with('!') || w.starts_with('&'))
}

/// `key: value` → the key and the text after the colon. The key is plain
/// (up to the first `: `) or quoted.
pub(super) fn split_key(s: &str) -> Option<(String, &str)> {
    let b = s.as_bytes();
    let first = *b.first()?;
    if matches!(
        first,
        b'[' | b'{' | b'#' | b'|' | b'>' | b'*' | b'@' | b'`' | b'%'
    ) {
        return None;
    }
    let key_end = if first == b'"' || first == b'\'' {
        1 + close_quote(&s[1..], first as char)?
    } else {
        0
    };
    let mut prev_space = false;
    for (k, c) in s.char_indices().skip_while(|&(k, _)| k < key_end) {
        match c {
            '#' if prev_space => return None,
            ':' => {
                let after = &s[k + 1..];
                if after.is_empty() || after.starts_with([' ', '\t']) {
                    let key = s[..k].trim_end();
                    if key.is_empty() {
                        return None;
                    }
                    return Some((key.to_string(), after));
                }
            }
            _ => {}
        }
        prev_space = c == ' ' || c == '\t';
    }
    None
}

/// The byte offset of the quote that closes a scalar opened by `q`
/// before `s` (a doubled `'` and a `\"` do not close).
fn close_quote(s: &str, q: char) -> Option<usize> {
    let b = s.as_bytes();
    let mut k = 0;
    while k < b.len() {
        match (q, b[k]) {
            ('"', b'\\') => k += 1,
            ('"', b'"') => return Some(k),
            ('\'', b'\'') => {
                if b.get(k + 1) == Some(&b'\'') {
                    k += 1;
                } else {
                    return Some(k);
                }
            }
            _ => {}
        }
        k += 1;
    }
    None
}

/// Follows flow brackets and quotes through `s`, stopping at a comment.
fn flow_scan(s: &str, depth: &mut i32, quote: &mut Option<char>) {
    let b = s.as_bytes();
    let mut k = 0;
    let mut prev = b' ';
    while k < b.len() {
        let c = b[k];
        match *quote {
            Some(q) => match (q, c) {
                ('"', b'\\') => k += 1,
                ('"', b'"') => *quote = None,
                ('\'', b'\'') => {
                    if b.get(k + 1) == Some(&b'\'') {
                        k += 1;
                    } else {
                        *quote = None;
                    }
                }
                _ => {}
            },
            None => match c {
                b'[' | b'{' => *depth += 1,
                b']' | b'}' => *depth -= 1,
                b'"' | b'\'' if matches!(prev, b' ' | b'\t' | b'[' | b'{' | b',' | b':') => {
                    *quote = Some(c as char)
                }
                b'#' if matches!(prev, b' ' | b'\t') => return,
                _ => {}
            },
        }
        prev = c;
        k += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str) -> Tree<'_> {
        scan(s.lines().collect()).expect("reads")
    }

    #[test]
    fn keys_split_at_colon_space() {
        assert_eq!(split_key("a: b"), Some(("a".into(), " b")));
        assert_eq!(
            split_key("url: http://x:80"),
            Some(("url".into(), " http://x:80"))
        );
        assert_eq!(split_key("http://x"), None);
        assert_eq!(split_key("\"a: b\": c"), Some(("\"a: b\"".into(), " c")));
        assert_eq!(split_key("echo # a: b"), None);
        assert_eq!(split_key("k:"), Some(("k".into(), "")));
    }

    #[test]
    fn indentless_sequences_go_under_their_key() {
        let t = read("repos:\n- repo: a\n  rev: 1\n- repo: b\nother: 2\n");
        let repos = t.roots[0];
        assert_eq!(t.nodes[repos].children.len(), 2);
        assert_eq!(t.roots.len(), 2);
        let item = t.nodes[repos].children[1];
        assert_eq!(t.path(item), "repos[1]");
        assert_eq!(t.nodes[repos].end, 4);
    }

    #[test]
    fn block_scalars_and_flows_are_the_entry_s_own() {
        let t = read("run: |\n  echo a\n\n  # not a comment\nargs: [\n  a, b\n]\nx: \"multi\n  line\"\ny: plain\n  more\n# c\n");
        assert_eq!(t.class[3], Class::Own(0));
        assert_eq!(t.class[5], Class::Own(1));
        assert_eq!(t.class[6], Class::Own(1));
        assert_eq!(t.class[8], Class::Own(2));
        assert_eq!(t.class[10], Class::Own(3));
        assert_eq!(t.class[11], Class::Comment);
        assert_eq!(t.roots.len(), 4);
    }

    #[test]
    fn nested_items_and_documents() {
        let t = read("---\na:\n  - - x\n    - y\n---\nb: 1\n");
        assert_eq!(t.class[0], Class::Fixed);
        assert_eq!(t.roots.len(), 2);
        let a = t.roots[0];
        let outer = t.nodes[a].children[0];
        assert_eq!(t.nodes[outer].children.len(), 2);
    }

    #[test]
    fn unfollowed_shapes_give_none() {
        assert!(scan(vec!["? a", ": b"]).is_none());
        assert!(scan(vec!["just a scalar"]).is_none());
        assert!(scan(vec!["a:", "\tb: 1"]).is_none());
    }
}
