//! An HTML document as html5ever's WHATWG tree builder builds it, stored
//! in one arena: nodes are indices, links are indices, so a page of a
//! million nodes is a few vectors rather than a million reference-counted
//! cells, and every walk over it is a loop, not a recursion (10,000-deep
//! nesting is ordinary input).
//!
//! Where Go's `golang.org/x/net/html` (the reference's parser) and the
//! standard leave a choice, this follows Go: a `<template>`'s content is
//! children of the template element; declarative shadow roots and
//! `<selectedcontent>` cloning are not built.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};

use html5ever::interface::tree_builder::{
    ElemName, ElementFlags, NodeOrText, QuirksMode, TreeSink,
};
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::{Attribute, LocalName, Namespace, QualName};

/// A node's index in [`Dom::nodes`].
pub(super) type Id = u32;
const NONE: Id = u32::MAX;

/// What a node is.
#[derive(Debug)]
pub(super) enum Data {
    Document,
    /// An element: its namespace and local name, and what the extractor
    /// reads of its attributes (the values of `class` and `id`, each after
    /// a space, in attribute order; `None` when it has neither).
    Element {
        ns: Ns,
        local: LocalName,
    },
    Text(StrTendril),
    /// Comments, doctypes and processing instructions: no text of their own.
    Other,
}

/// An element's namespace: the three the tree builder distinguishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ns {
    Html,
    Svg,
    MathMl,
    Other,
}

impl Ns {
    fn of(ns: &Namespace) -> Ns {
        if *ns == html5ever::ns!(html) {
            Ns::Html
        } else if *ns == html5ever::ns!(svg) {
            Ns::Svg
        } else if *ns == html5ever::ns!(mathml) {
            Ns::MathMl
        } else {
            Ns::Other
        }
    }

    fn namespace(self) -> Namespace {
        // Static atoms: no interning on the tree builder's hot path.
        match self {
            Ns::Html => html5ever::ns!(html),
            Ns::Svg => html5ever::ns!(svg),
            Ns::MathMl => html5ever::ns!(mathml),
            Ns::Other => html5ever::ns!(),
        }
    }
}

/// The class/id hint of an attribute list (html.md §1: each attribute
/// named exactly `class` or `id`, a space and its value, in order).
fn hint_of<'a>(attrs: impl IntoIterator<Item = &'a Attribute>, mut s: String) -> Option<Box<str>> {
    let start = s.len();
    for a in attrs {
        let name: &str = &a.name.local;
        if a.name.ns.is_empty() && (name == "class" || name == "id") {
            s.push(' ');
            s.push_str(&a.value);
        }
    }
    (s.len() > start || start > 0).then(|| s.into_boxed_str())
}

#[derive(Debug)]
pub(super) struct Node {
    pub parent: Id,
    pub first_child: Id,
    pub last_child: Id,
    pub prev: Id,
    pub next: Id,
    pub data: Data,
}

impl Node {
    fn new(data: Data) -> Node {
        Node {
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            prev: NONE,
            next: NONE,
            data,
        }
    }

    /// The local name of an element (namespaces are not compared: the
    /// reference tests `Node.Data`, the tag name).
    pub fn tag(&self) -> Option<&str> {
        match &self.data {
            Data::Element { local, .. } => Some(local),
            _ => None,
        }
    }
}

/// A parsed document; node 0 is the document node.
#[derive(Debug)]
pub(super) struct Dom {
    pub nodes: Vec<Node>,
    /// Elements with a `class` or `id` attribute, and their hint (kept
    /// aside: most elements have neither).
    pub hints: rustc_hash::FxHashMap<Id, Box<str>>,
    /// Elements with a `role` attribute, and its value (the lean view
    /// reads landmarks: navigation, complementary, contentinfo).
    pub roles: rustc_hash::FxHashMap<Id, Box<str>>,
    /// Images, and what they show in words: the `alt` text, else the
    /// file stem of `src` (a status icon `not-finished.png` says
    /// `not-finished`). Only the lean view reads it.
    pub images: rustc_hash::FxHashMap<Id, Box<str>>,
}

/// What an image shows in words: its `alt` text, else its file's stem
/// (`/img/not-finished.png?v=2` is `not-finished`); at most 80 bytes.
fn image_words(attrs: &[Attribute]) -> Option<Box<str>> {
    let get = |n: &str| {
        attrs
            .iter()
            .find(|a| a.name.ns.is_empty() && &*a.name.local == n)
            .map(|a| a.value.trim())
            .filter(|v| !v.is_empty())
    };
    let words = match get("alt") {
        Some(alt) => alt,
        None => {
            let src = get("src")?;
            let path = src.split(['?', '#']).next().unwrap_or("");
            let file = path.rsplit('/').next().unwrap_or("");
            let stem = file.rsplit_once('.').map_or(file, |(s, _)| s);
            (!stem.is_empty() && !src.starts_with("data:")).then_some(stem)?
        }
    };
    // Numbers in a file's name are versions and sizes, not what it
    // shows: `fff-277-finished-2` is `fff-finished`.
    let words: String = if get("alt").is_some() {
        words.to_string()
    } else {
        let parts: Vec<&str> = words
            .split(['-', '_'])
            .filter(|p| !p.is_empty() && !p.bytes().all(|b| b.is_ascii_digit()))
            .collect();
        if parts.is_empty() {
            words.to_string()
        } else {
            parts.join("-")
        }
    };
    let mut end = words.len().min(80);
    while !words.is_char_boundary(end) {
        end -= 1;
    }
    Some(words[..end].into())
}

/// The first child of `n`, or `None`.
pub(super) fn link(id: Id) -> Option<Id> {
    (id != NONE).then_some(id)
}

impl Dom {
    pub fn node(&self, id: Id) -> &Node {
        &self.nodes[id as usize]
    }

    /// The class/id hint of element `id`, if it has one.
    pub fn hint(&self, id: Id) -> Option<&str> {
        self.hints.get(&id).map(|h| &**h)
    }

    /// The `role` attribute of element `id`, if it has one.
    pub fn role(&self, id: Id) -> Option<&str> {
        self.roles.get(&id).map(|h| &**h)
    }

    pub fn children(&self, id: Id) -> impl Iterator<Item = Id> + '_ {
        let mut c = self.node(id).first_child;
        std::iter::from_fn(move || {
            let here = link(c)?;
            c = self.node(here).next;
            Some(here)
        })
    }

    /// Detaches `id` (and with it its subtree) from its parent.
    pub fn detach(&mut self, id: Id) {
        detach(&mut self.nodes, id);
    }
}

/// Detaches `id` (and with it its subtree) from its parent.
fn detach(nodes: &mut [Node], id: Id) {
    let (parent, prev, next) = {
        let n = &nodes[id as usize];
        (n.parent, n.prev, n.next)
    };
    if let Some(p) = link(prev) {
        nodes[p as usize].next = next;
    } else if let Some(par) = link(parent) {
        nodes[par as usize].first_child = next;
    }
    if let Some(x) = link(next) {
        nodes[x as usize].prev = prev;
    } else if let Some(par) = link(parent) {
        nodes[par as usize].last_child = prev;
    }
    let n = &mut nodes[id as usize];
    n.parent = NONE;
    n.prev = NONE;
    n.next = NONE;
}

/// Parses a document as Go's `html.Parse` does (scripting on). The text
/// must be the input with each byte that is not UTF-8 mapped by the caller
/// (html5ever reads Unicode text).
pub(super) fn parse(text: &str) -> Dom {
    // At most two nodes per `<` (an element and the text after it): room
    // for them up front, as growing by doubling would copy the arena.
    let mut nodes = Vec::with_capacity(2 * memchr::memchr_iter(b'<', text.as_bytes()).count() + 8);
    nodes.push(Node::new(Data::Document));
    let sink = Sink {
        nodes: RefCell::new(nodes),
        hints: RefCell::new(Default::default()),
        roles: RefCell::new(Default::default()),
        images: RefCell::new(Default::default()),
        quirks: Cell::new(QuirksMode::NoQuirks),
    };
    html5ever::parse_document(sink, Default::default()).one(StrTendril::from_slice(text))
}

/// The tree builder's view of the arena.
struct Sink {
    nodes: RefCell<Vec<Node>>,
    hints: RefCell<rustc_hash::FxHashMap<Id, Box<str>>>,
    roles: RefCell<rustc_hash::FxHashMap<Id, Box<str>>>,
    images: RefCell<rustc_hash::FxHashMap<Id, Box<str>>>,
    quirks: Cell<QuirksMode>,
}

/// An element's name, owned (atoms are cheap to clone), so that the tree
/// builder can hold it while the arena changes.
#[derive(Debug)]
pub(super) struct Name(QualName);

impl ElemName for Name {
    fn ns(&self) -> &Namespace {
        &self.0.ns
    }
    fn local_name(&self) -> &LocalName {
        &self.0.local
    }
}

impl Sink {
    fn push(&self, data: Data) -> Id {
        let mut nodes = self.nodes.borrow_mut();
        nodes.push(Node::new(data));
        (nodes.len() - 1) as Id
    }

    fn append_node(&self, parent: Id, child: Id) {
        let nodes = &mut *self.nodes.borrow_mut();
        detach(nodes, child);
        let last = nodes[parent as usize].last_child;
        {
            let c = &mut nodes[child as usize];
            c.parent = parent;
            c.prev = last;
        }
        match link(last) {
            Some(l) => nodes[l as usize].next = child,
            None => nodes[parent as usize].first_child = child,
        }
        nodes[parent as usize].last_child = child;
    }

    fn insert_before(&self, sibling: Id, child: Id) {
        let nodes = &mut *self.nodes.borrow_mut();
        detach(nodes, child);
        let (parent, prev) = {
            let s = &nodes[sibling as usize];
            (s.parent, s.prev)
        };
        {
            let c = &mut nodes[child as usize];
            c.parent = parent;
            c.prev = prev;
            c.next = sibling;
        }
        nodes[sibling as usize].prev = child;
        match link(prev) {
            Some(p) => nodes[p as usize].next = child,
            None => {
                if let Some(par) = link(parent) {
                    nodes[par as usize].first_child = child;
                }
            }
        }
    }

    /// Appends text to node `id` if it is a text node.
    fn extend_text(&self, id: Id, text: &StrTendril) -> bool {
        let mut nodes = self.nodes.borrow_mut();
        match &mut nodes[id as usize].data {
            Data::Text(t) => {
                t.push_tendril(text);
                true
            }
            _ => false,
        }
    }
}

impl TreeSink for Sink {
    type Handle = Id;
    type Output = Dom;
    type ElemName<'a> = Name;

    fn finish(self) -> Dom {
        Dom {
            nodes: self.nodes.into_inner(),
            hints: self.hints.into_inner(),
            roles: self.roles.into_inner(),
            images: self.images.into_inner(),
        }
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> Id {
        0
    }

    fn elem_name<'a>(&'a self, target: &'a Id) -> Name {
        match &self.nodes.borrow()[*target as usize].data {
            Data::Element { ns, local } => Name(QualName::new(None, ns.namespace(), local.clone())),
            _ => Name(QualName::new(
                None,
                Namespace::from(""),
                LocalName::from(""),
            )),
        }
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, _flags: ElementFlags) -> Id {
        let image = &*name.local == "img";
        let id = self.push(Data::Element {
            ns: Ns::of(&name.ns),
            local: name.local,
        });
        if let Some(h) = hint_of(&attrs, String::new()) {
            self.hints.borrow_mut().insert(id, h);
        }
        if let Some(r) = attrs
            .iter()
            .find(|a| a.name.ns.is_empty() && &*a.name.local == "role")
        {
            self.roles.borrow_mut().insert(id, (&*r.value).into());
        }
        if image {
            if let Some(w) = image_words(&attrs) {
                self.images.borrow_mut().insert(id, w);
            }
        }
        id
    }

    fn create_comment(&self, _text: StrTendril) -> Id {
        self.push(Data::Other)
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> Id {
        self.push(Data::Other)
    }

    fn append(&self, parent: &Id, child: NodeOrText<Id>) {
        match child {
            NodeOrText::AppendNode(n) => self.append_node(*parent, n),
            NodeOrText::AppendText(text) => {
                let last = self.nodes.borrow()[*parent as usize].last_child;
                if link(last).is_some_and(|l| self.extend_text(l, &text)) {
                    return;
                }
                let t = self.push(Data::Text(text));
                self.append_node(*parent, t);
            }
        }
    }

    fn append_based_on_parent_node(&self, element: &Id, prev_element: &Id, child: NodeOrText<Id>) {
        let has_parent = link(self.nodes.borrow()[*element as usize].parent).is_some();
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(
        &self,
        _name: StrTendril,
        _public: StrTendril,
        _system: StrTendril,
    ) {
        let d = self.push(Data::Other);
        self.append_node(0, d);
    }

    fn get_template_contents(&self, target: &Id) -> Id {
        // Go keeps a template's content as the element's children.
        *target
    }

    fn same_node(&self, x: &Id, y: &Id) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.quirks.set(mode);
    }

    fn append_before_sibling(&self, sibling: &Id, new_node: NodeOrText<Id>) {
        match new_node {
            NodeOrText::AppendNode(n) => self.insert_before(*sibling, n),
            NodeOrText::AppendText(text) => {
                let prev = self.nodes.borrow()[*sibling as usize].prev;
                if link(prev).is_some_and(|p| self.extend_text(p, &text)) {
                    return;
                }
                let t = self.push(Data::Text(text));
                self.insert_before(*sibling, t);
            }
        }
    }

    fn add_attrs_if_missing(&self, target: &Id, attrs: Vec<Attribute>) {
        // Only `<html>` and `<body>` get attributes this way, and neither
        // is ever credited; a `class` or `id` they already had is kept.
        let mut hints = self.hints.borrow_mut();
        let had = hints.remove(target).map(String::from).unwrap_or_default();
        let fresh = if had.is_empty() { &attrs[..] } else { &[] };
        if let Some(h) = hint_of(fresh, had) {
            hints.insert(*target, h);
        }
    }

    fn remove_from_parent(&self, target: &Id) {
        detach(&mut self.nodes.borrow_mut(), *target);
    }

    fn reparent_children(&self, node: &Id, new_parent: &Id) {
        let mut c = self.nodes.borrow()[*node as usize].first_child;
        while let Some(child) = link(c) {
            c = self.nodes.borrow()[child as usize].next;
            self.append_node(*new_parent, child);
        }
    }

    fn allow_declarative_shadow_roots(&self, _intended_parent: &Id) -> bool {
        false
    }
}
