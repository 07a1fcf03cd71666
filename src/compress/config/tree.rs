//! The line tree every lean config dialect is read into: each line is
//! blank, a comment, fixed (a document marker, a lone tag) or belongs to
//! one node; a node is a mapping entry, a list item or a section header,
//! with the lines of its own value and its children. The planner decides
//! on nodes (whole entries and items go, never parts of a value), so a
//! view cut from the tree keeps every kept key under its parent.

use std::ops::Range;

/// What a line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    Blank,
    /// A whole-line comment (never inside a string or block scalar).
    Comment,
    /// A line kept whatever happens: `---`, `...`, a directive, a lone
    /// tag or anchor.
    Fixed,
    /// A line of node `n`: its first line or a line of its own value.
    Own(usize),
}

/// An entry, an item or a section.
#[derive(Debug, Clone)]
pub(super) struct Node {
    /// The first line.
    pub start: usize,
    /// One past the last own line of the node or of a descendant.
    pub end: usize,
    /// Where a marker that stands for this node goes.
    pub col: usize,
    /// The key (entries), the header (sections); `None` for items.
    pub key: Option<String>,
    /// A list item (YAML `-`, an array value on its own line, an INI
    /// continuation line, a TOML `[[table]]`).
    pub item: bool,
    /// A section header (TOML/INI `[x]`): a root that owns the entries
    /// below it.
    pub section: bool,
    /// How many list values the node's lines hold (a TOML array line may
    /// hold several); 1 for everything else.
    pub values: usize,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
}

/// A config read as lines and nodes.
#[derive(Debug)]
pub(super) struct Tree<'a> {
    /// The lines, without a trailing CR.
    pub lines: Vec<&'a str>,
    pub class: Vec<Class>,
    pub nodes: Vec<Node>,
    /// Nodes without a parent, in order.
    pub roots: Vec<usize>,
    /// A flat file (.env, .properties): its comments are one section.
    pub flat: bool,
}

impl<'a> Tree<'a> {
    /// An empty tree over `text`'s lines (the trailing LF already off).
    pub fn new(lines: Vec<&'a str>, flat: bool) -> Tree<'a> {
        let n = lines.len();
        Tree {
            lines,
            class: vec![Class::Blank; n],
            nodes: Vec::new(),
            roots: Vec::new(),
            flat,
        }
    }

    /// Adds a node starting at line `start` under `parent`; its first line
    /// is its own.
    pub fn push(
        &mut self,
        start: usize,
        col: usize,
        key: Option<String>,
        item: bool,
        parent: Option<usize>,
    ) -> usize {
        let id = self.nodes.len();
        self.nodes.push(Node {
            start,
            end: start + 1,
            col,
            key,
            item,
            section: false,
            values: 1,
            parent,
            children: Vec::new(),
        });
        match parent {
            Some(p) => self.nodes[p].children.push(id),
            None => self.roots.push(id),
        }
        if self.class[start] == Class::Blank {
            self.class[start] = Class::Own(id);
        }
        id
    }

    /// Line `i` belongs to node `id`'s own value.
    pub fn own(&mut self, i: usize, id: usize) {
        self.class[i] = Class::Own(id);
        if self.nodes[id].end < i + 1 {
            self.nodes[id].end = i + 1;
        }
    }

    /// Sets every node's end past its descendants' (children are created
    /// after their parents).
    pub fn finish(&mut self) {
        for id in (0..self.nodes.len()).rev() {
            if let Some(p) = self.nodes[id].parent {
                if self.nodes[p].end < self.nodes[id].end {
                    self.nodes[p].end = self.nodes[id].end;
                }
            }
        }
    }

    pub fn span(&self, id: usize) -> Range<usize> {
        self.nodes[id].start..self.nodes[id].end
    }

    /// Nodes above `id`, nearest first.
    pub fn ancestors(&self, id: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.nodes[id].parent, |&p| self.nodes[p].parent)
    }

    pub fn depth(&self, id: usize) -> usize {
        self.ancestors(id).count()
    }

    /// Whether `id` can go without its parent's line going too: its first
    /// line is not one its parent starts on (`- name: x` starts an item
    /// and its first entry; `key = [ "a",` an entry and a value).
    pub fn detachable(&self, id: usize) -> bool {
        match self.nodes[id].parent {
            Some(p) => self.nodes[p].start != self.nodes[id].start,
            None => true,
        }
    }

    /// The node's name for a marker: `jobs.test.steps[2]`, `[tool.ruff]`.
    pub fn path(&self, id: usize) -> String {
        let mut parts: Vec<String> = Vec::new();
        let mut at = Some(id);
        while let Some(n) = at {
            let node = &self.nodes[n];
            let part = match (&node.key, node.section) {
                (Some(k), true) => format!("[{k}]"),
                (Some(k), false) => k.clone(),
                (None, _) => {
                    let siblings = match node.parent {
                        Some(p) => &self.nodes[p].children,
                        None => &self.roots,
                    };
                    let k = siblings
                        .iter()
                        .filter(|&&s| self.nodes[s].item)
                        .position(|&s| s == n)
                        .unwrap_or(0);
                    format!("[{k}]")
                }
            };
            parts.push(part);
            at = node.parent;
        }
        parts.reverse();
        let mut out = String::new();
        for p in parts {
            if !out.is_empty() && !p.starts_with('[') {
                out.push('.');
            }
            out.push_str(&p);
        }
        out
    }

    /// The node's lines that are neither blank nor comments.
    pub fn content_lines(&self, id: usize) -> usize {
        self.span(id)
            .filter(|&i| matches!(self.class[i], Class::Own(_) | Class::Fixed))
            .count()
    }
}

/// Leading spaces of a line (a TAB counts one: callers that care reject
/// TABs in indentation).
pub(super) fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_name_keys_and_items() {
        let lines = vec!["jobs:", "  test:", "    steps:", "    - a", "    - b"];
        let mut t = Tree::new(lines, false);
        let jobs = t.push(0, 0, Some("jobs".into()), false, None);
        let test = t.push(1, 2, Some("test".into()), false, Some(jobs));
        let steps = t.push(2, 4, Some("steps".into()), false, Some(test));
        t.push(3, 4, None, true, Some(steps));
        let b = t.push(4, 4, None, true, Some(steps));
        t.finish();
        assert_eq!(t.path(b), "jobs.test.steps[1]");
        assert_eq!(t.nodes[jobs].end, 5);
        assert!(t.detachable(b));
    }
}
