//! TOML read into the line tree: `[table]` and `[[array]]` headers are
//! roots that own the `key = value` lines below them; a value that goes on
//! over several lines (an array, an inline table, a multi-line string)
//! stays with its key, except that an array's values on lines of their
//! own become item nodes, so a long array can lose values and still be an
//! array. What the reader does not follow gives `None`.

use super::tree::{indent, Class, Tree};

#[derive(Clone, Copy)]
enum Cont {
    None,
    /// A multi-line basic (`"""`) or literal (`'''`) string.
    Str {
        owner: usize,
        delim: &'static str,
    },
    /// An array still open: its entry, the depth at the start of the next
    /// line, the item a nested value is still open in.
    Array {
        entry: usize,
        depth: i32,
        open: Option<usize>,
    },
    /// An inline table (TOML 1.1) still open: every line is its entry's.
    Inline {
        entry: usize,
        depth: i32,
    },
}

pub(super) fn scan(lines: Vec<&str>) -> Option<Tree<'_>> {
    let mut tree = Tree::new(lines, false);
    let mut section: Option<usize> = None;
    let mut cont = Cont::None;
    for i in 0..tree.lines.len() {
        let l = tree.lines[i];
        let t = l.trim();
        match cont {
            Cont::Str { owner, delim } => {
                tree.own(i, owner);
                if closes_string(l, delim) {
                    cont = Cont::None;
                }
                continue;
            }
            Cont::Inline { entry, mut depth } => {
                tree.own(i, entry);
                depth += brackets(l)?;
                cont = if depth > 0 {
                    Cont::Inline { entry, depth }
                } else {
                    Cont::None
                };
                continue;
            }
            Cont::Array {
                entry,
                mut depth,
                mut open,
            } => {
                if depth > 1 {
                    tree.own(i, open.unwrap_or(entry));
                } else if t.is_empty() {
                    continue;
                } else if t.starts_with('#') {
                    tree.class[i] = Class::Comment;
                    continue;
                } else {
                    let after = depth + brackets(l)?;
                    if after <= 0 || t.starts_with(']') {
                        // The closing line stays with the key.
                        tree.own(i, entry);
                    } else {
                        let id = tree.push(i, indent(l), None, true, Some(entry));
                        tree.nodes[id].values = values(t);
                        open = Some(id);
                    }
                    depth = after;
                    if depth <= 1 {
                        open = None;
                    }
                    cont = if depth > 0 {
                        Cont::Array { entry, depth, open }
                    } else {
                        Cont::None
                    };
                    continue;
                }
                depth += brackets(l)?;
                if depth <= 1 {
                    open = None;
                }
                cont = if depth > 0 {
                    Cont::Array { entry, depth, open }
                } else {
                    Cont::None
                };
                continue;
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
        if let Some((name, array)) = header(t) {
            let id = tree.push(i, indent(l), Some(name), array, None);
            tree.nodes[id].section = true;
            section = Some(id);
            continue;
        }
        let (key, value) = split_assignment(t)?;
        let id = tree.push(i, indent(l), Some(key), false, section);
        let v = value.trim_start();
        for delim in ["\"\"\"", "'''"] {
            if let Some(body) = v.strip_prefix(delim) {
                if !closes_string(body, delim) {
                    cont = Cont::Str { owner: id, delim };
                }
            }
        }
        if matches!(cont, Cont::Str { .. }) {
            continue;
        }
        let depth = brackets(v)?;
        if depth > 0 {
            cont = if v.starts_with('[') {
                Cont::Array {
                    entry: id,
                    depth,
                    open: None,
                }
            } else {
                Cont::Inline { entry: id, depth }
            };
        }
    }
    if !matches!(cont, Cont::None) {
        return None;
    }
    tree.finish();
    Some(tree)
}

/// `[a.b]` → (`a.b`, false); `[[a.b]]` → (`a.b`, true); a comment may
/// follow.
fn header(t: &str) -> Option<(String, bool)> {
    let array = t.starts_with("[[");
    let open = if array { 2 } else { 1 };
    if !t.starts_with('[') {
        return None;
    }
    let mut quote = None;
    for (k, c) in t.char_indices().skip(open) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, ']') => {
                let close = if array { "]]" } else { "]" };
                if !t[k..].starts_with(close) {
                    return None;
                }
                let rest = t[k + close.len()..].trim_start();
                if !(rest.is_empty() || rest.starts_with('#')) {
                    return None;
                }
                return Some((t[open..k].trim().to_string(), array));
            }
            (None, '=') => return None,
            _ => {}
        }
    }
    None
}

/// `key = value` → the key (as written) and the value text.
fn split_assignment(t: &str) -> Option<(String, &str)> {
    let mut quote = None;
    for (k, c) in t.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '=') => {
                let key = t[..k].trim();
                if key.is_empty() {
                    return None;
                }
                return Some((key.to_string(), &t[k + 1..]));
            }
            (None, '#') => return None,
            _ => {}
        }
    }
    None
}

/// Whether `s` holds the delimiter that ends a multi-line string.
fn closes_string(s: &str, delim: &str) -> bool {
    let b = s.as_bytes();
    let mut k = 0;
    while k + 3 <= b.len() {
        if delim == "\"\"\"" && b[k] == b'\\' {
            k += 2;
            continue;
        }
        if &s[k..k + 3] == delim {
            return true;
        }
        k += 1;
    }
    false
}

/// Net opening brackets of a line outside strings and comments; `None`
/// when a multi-line string opens inside a bracketed value (not followed).
fn brackets(s: &str) -> Option<i32> {
    let b = s.as_bytes();
    let mut d = 0;
    let mut k = 0;
    while k < b.len() {
        match b[k] {
            q @ (b'"' | b'\'') => {
                if b[k..].starts_with(&[q, q, q]) {
                    // A triple-quoted string closed on the same line.
                    let delim = if q == b'"' { "\"\"\"" } else { "'''" };
                    let close = s[k + 3..].find(delim)?;
                    k += 3 + close + 3;
                    continue;
                }
                k += 1;
                while k < b.len() && b[k] != q {
                    if q == b'"' && b[k] == b'\\' {
                        k += 1;
                    }
                    k += 1;
                }
            }
            b'#' => break,
            b'[' | b'{' => d += 1,
            b']' | b'}' => d -= 1,
            _ => {}
        }
        k += 1;
    }
    Some(d)
}

/// How many array values a line holds: its pieces between commas at its
/// own depth, outside strings and comments.
fn values(t: &str) -> usize {
    let b = t.as_bytes();
    let (mut n, mut d, mut k) = (0, 0, 0);
    let mut piece = false;
    while k < b.len() {
        match b[k] {
            q @ (b'"' | b'\'') => {
                piece = true;
                if b[k..].starts_with(&[q, q, q]) {
                    let delim = if q == b'"' { "\"\"\"" } else { "'''" };
                    match t[k + 3..].find(delim) {
                        Some(close) => k += 3 + close + 3,
                        None => k = b.len(),
                    }
                    continue;
                }
                k += 1;
                while k < b.len() && b[k] != q {
                    if q == b'"' && b[k] == b'\\' {
                        k += 1;
                    }
                    k += 1;
                }
            }
            b'#' => break,
            b'[' | b'{' => {
                d += 1;
                piece = true;
            }
            b']' | b'}' => d -= 1,
            b',' if d == 0 => {
                if piece {
                    n += 1;
                }
                piece = false;
            }
            c if !c.is_ascii_whitespace() => piece = true,
            _ => {}
        }
        k += 1;
    }
    n + usize::from(piece)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str) -> Tree<'_> {
        scan(s.lines().collect()).expect("reads")
    }

    #[test]
    fn tables_own_their_keys_and_arrays_their_values() {
        let t = read("top = 1\n[a]\nx = [\n  \"p\",\n  # c\n  \"q\", \"r\",\n  [1,\n   2],\n]\ny = \"\"\"\nz = 1\n\"\"\"\n[[b]]\nn = 1\n");
        assert_eq!(t.roots.len(), 3);
        let a = t.roots[1];
        assert!(t.nodes[a].section);
        let x = t.nodes[a].children[0];
        let items = &t.nodes[x].children;
        assert_eq!(items.len(), 3);
        assert_eq!(t.nodes[items[1]].values, 2);
        assert_eq!(t.class[4], Class::Comment);
        assert_eq!(t.class[7], Class::Own(items[2]));
        assert_eq!(t.class[8], Class::Own(x));
        assert_eq!(t.class[10], Class::Own(t.nodes[a].children[1]));
        assert!(t.nodes[t.roots[2]].item);
    }

    #[test]
    fn headers_and_assignments() {
        assert_eq!(header("[a.\"b]\"] # c"), Some(("a.\"b]\"".into(), false)));
        assert_eq!(header("[[x]]"), Some(("x".into(), true)));
        assert_eq!(header("[x] y"), None);
        assert_eq!(
            split_assignment("\"a=b\" = 1").map(|x| x.0),
            Some("\"a=b\"".into())
        );
        assert_eq!(values("\"a\", \"b\", # x, y"), 2);
        assert_eq!(values("{ name = \"x\" },"), 1);
        assert_eq!(brackets("'''a'b''', \"\"\"[\"\"\","), Some(0));
        assert_eq!(brackets("x = '''open"), None);
    }

    #[test]
    fn unfollowed_shapes_give_none() {
        assert!(scan(vec!["just words"]).is_none());
        assert!(scan(vec!["a = [", "  \"x\","]).is_none());
    }
}
