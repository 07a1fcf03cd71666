//! What a lean config view promises, checked on every view before it is
//! printed: the view parses in the input's dialect, and its value is a
//! sub-tree of the original's (every key under the same parent, every
//! scalar the same, every list a subsequence of the original list). YAML
//! is read with yaml-rust2's event parser, TOML with the `toml` crate,
//! INI, .env and .properties by their own line grammars here.

use rustc_hash::FxHashMap;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;

use crate::detect::ConfigKind as Dialect;

/// A parsed config, the same shape for every dialect.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Scalar(String),
    Map(Vec<(String, Value)>),
    Seq(Vec<Value>),
}

/// How a text had to be read: a view is read the way its original was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Strict,
    /// YAML with flow collections closed at their key's own column.
    Lenient,
}

/// `s` parsed as `dialect`, or `None` when it does not parse.
pub(crate) fn parse(dialect: Dialect, s: &str) -> Option<Value> {
    parse_mode(dialect, s).map(|x| x.0)
}

/// [`parse`], and whether the lenient YAML reading was needed.
pub(crate) fn parse_mode(dialect: Dialect, s: &str) -> Option<(Value, Mode)> {
    match parse_as(dialect, s, Mode::Strict) {
        Some(v) => Some((v, Mode::Strict)),
        None if dialect == Dialect::Yaml => {
            parse_as(dialect, s, Mode::Lenient).map(|v| (v, Mode::Lenient))
        }
        None => None,
    }
}

/// yaml-rust2 refuses a flow collection closed at the column of the key
/// it is the value of (`]` under `target:`), which GitHub Actions,
/// PyYAML and yaml.v3 accept; the lenient reading moves such closing
/// lines two columns in. Original and view are read alike, so a block
/// scalar line that starts with `}` compares as it should.
fn lenient(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 64);
    for line in s.split_inclusive('\n') {
        if line.trim_start().starts_with([']', '}']) {
            out.push_str("  ");
        }
        out.push_str(line);
    }
    out
}

/// `s` parsed as `dialect` in `mode`.
pub(crate) fn parse_as(dialect: Dialect, s: &str, mode: Mode) -> Option<Value> {
    match dialect {
        Dialect::Yaml if mode == Mode::Lenient => yaml(&lenient(s)),
        Dialect::Yaml => yaml(s),
        Dialect::Toml => s.parse::<toml::Table>().ok().map(|t| from_toml_table(&t)),
        Dialect::Ini => Some(ini(s)),
        Dialect::Env | Dialect::Properties => Some(flat(dialect, s)),
    }
}

/// `view` ⊑ `orig`: every key of a view mapping is a key of the original
/// mapping with a sub-tree value, a view list is a subsequence of the
/// original list (each element a sub-tree of the one it stands for),
/// scalars are equal.
pub(crate) fn sub(view: &Value, orig: &Value) -> bool {
    match (view, orig) {
        (Value::Scalar(a), Value::Scalar(b)) => a == b,
        (Value::Map(v), Value::Map(o)) => {
            if o.len() > 16 {
                let mut index: FxHashMap<&str, Vec<&Value>> = FxHashMap::default();
                for (k, x) in o {
                    index.entry(k.as_str()).or_default().push(x);
                }
                v.iter().all(|(k, x)| {
                    index
                        .get(k.as_str())
                        .is_some_and(|c| c.iter().any(|y| sub(x, y)))
                })
            } else {
                v.iter()
                    .all(|(k, x)| o.iter().any(|(ok, y)| ok == k && sub(x, y)))
            }
        }
        (Value::Seq(v), Value::Seq(o)) => {
            // Earliest matches first: if any embedding exists, this finds one.
            let mut j = 0;
            for x in v {
                while j < o.len() && !sub(x, &o[j]) {
                    j += 1;
                }
                if j == o.len() {
                    return false;
                }
                j += 1;
            }
            true
        }
        _ => false,
    }
}

/// Nodes a YAML value may hold per byte of text before aliases are taken
/// for an expansion bomb.
const YAML_NODES_PER_BYTE: usize = 4;
const YAML_NODES_MIN: usize = 100_000;

fn yaml(s: &str) -> Option<Value> {
    let mut b = YamlBuilder {
        limit: YAML_NODES_MIN.max(s.len().saturating_mul(YAML_NODES_PER_BYTE)),
        ..YamlBuilder::default()
    };
    Parser::new_from_str(s).load(&mut b, true).ok()?;
    if b.failed || !b.stack.is_empty() {
        return None;
    }
    Some(Value::Seq(b.docs))
}

/// Builds [`Value`]s from parser events; anchors are kept and aliases
/// copied, within a node budget.
#[derive(Default)]
struct YamlBuilder {
    docs: Vec<Value>,
    /// Open collections: the value so far, its anchor, and (mappings) the
    /// key waiting for its value.
    stack: Vec<(Value, usize, Option<String>)>,
    anchors: FxHashMap<usize, (Value, usize)>,
    nodes: usize,
    limit: usize,
    failed: bool,
}

impl YamlBuilder {
    fn insert(&mut self, v: Value, size: usize, anchor: usize) {
        self.nodes = self.nodes.saturating_add(size);
        if self.nodes > self.limit {
            self.failed = true;
            return;
        }
        if anchor > 0 {
            self.anchors.insert(anchor, (v.clone(), size));
        }
        let Some((top, _, key)) = self.stack.last_mut() else {
            self.docs.push(v);
            return;
        };
        match top {
            Value::Seq(items) => items.push(v),
            Value::Map(entries) => match key.take() {
                None => *key = Some(canonical_key(&v)),
                Some(k) => entries.push((k, v)),
            },
            Value::Scalar(_) => self.failed = true,
        }
    }
}

fn canonical_key(v: &Value) -> String {
    match v {
        Value::Scalar(s) => s.clone(),
        other => format!("{other:?}"),
    }
}

fn size_of(v: &Value) -> usize {
    match v {
        Value::Scalar(_) => 1,
        Value::Map(m) => 1 + m.iter().map(|(_, x)| size_of(x)).sum::<usize>(),
        Value::Seq(s) => 1 + s.iter().map(size_of).sum::<usize>(),
    }
}

impl MarkedEventReceiver for YamlBuilder {
    fn on_event(&mut self, ev: Event, _mark: Marker) {
        if self.failed {
            return;
        }
        match ev {
            Event::SequenceStart(anchor, _) => {
                self.stack.push((Value::Seq(Vec::new()), anchor, None))
            }
            Event::MappingStart(anchor, _) => {
                self.stack.push((Value::Map(Vec::new()), anchor, None))
            }
            Event::SequenceEnd | Event::MappingEnd => match self.stack.pop() {
                Some((v, anchor, _)) => {
                    let size = size_of(&v);
                    // The members were counted as they came.
                    self.nodes = self.nodes.saturating_sub(size - 1);
                    self.insert(v, size, anchor);
                }
                None => self.failed = true,
            },
            Event::Scalar(text, style, anchor, tag) => {
                let plain = matches!(style, yaml_rust2::scanner::TScalarStyle::Plain);
                let tag = tag.map_or(String::new(), |t| format!("!{}{}", t.handle, t.suffix));
                let v = Value::Scalar(format!("{tag}{}{text}", if plain { "" } else { "\"" }));
                self.insert(v, 1, anchor);
            }
            Event::Alias(id) => match self.anchors.get(&id) {
                Some((v, size)) => {
                    let (v, size) = (v.clone(), *size);
                    self.insert(v, size, 0);
                }
                None => self.failed = true,
            },
            _ => {}
        }
    }
}

fn from_toml_table(t: &toml::Table) -> Value {
    Value::Map(t.iter().map(|(k, v)| (k.clone(), from_toml(v))).collect())
}

fn from_toml(v: &toml::Value) -> Value {
    match v {
        toml::Value::String(s) => Value::Scalar(format!("\"{s}")),
        toml::Value::Integer(i) => Value::Scalar(format!("i{i}")),
        toml::Value::Float(f) => Value::Scalar(format!("f{f:?}")),
        toml::Value::Boolean(b) => Value::Scalar(format!("b{b}")),
        toml::Value::Datetime(d) => Value::Scalar(format!("d{d}")),
        toml::Value::Array(a) => Value::Seq(a.iter().map(from_toml).collect()),
        toml::Value::Table(t) => from_toml_table(t),
    }
}

/// INI as Python's configparser reads it: `[section]` headers; `key =
/// value` or `key: value` (or a bare key); indented lines continue the
/// value above; whole-line `#` and `;` comments are skipped, also inside
/// a value. A value is its lines (blank ones left out).
fn ini(s: &str) -> Value {
    let mut sections: Vec<(String, Value)> = vec![(String::new(), Value::Map(Vec::new()))];
    let mut open = false;
    for raw in s.split('\n') {
        let l = raw.strip_suffix('\r').unwrap_or(raw);
        let t = l.trim();
        if t.starts_with('#') || t.starts_with(';') {
            continue;
        }
        if t.is_empty() {
            continue;
        }
        let Some((_, Value::Map(entries))) = sections.last_mut() else {
            continue;
        };
        if open && l.starts_with([' ', '\t']) {
            if let Some((_, Value::Seq(lines))) = entries.last_mut() {
                lines.push(Value::Scalar(t.to_string()));
            }
            continue;
        }
        if t.starts_with('[') && t.ends_with(']') {
            sections.push((t[1..t.len() - 1].trim().to_string(), Value::Map(Vec::new())));
            open = false;
            continue;
        }
        let (key, value) = match t.find(['=', ':']) {
            Some(k) => (t[..k].trim(), t[k + 1..].trim()),
            None => (t, ""),
        };
        let first = if value.is_empty() {
            Vec::new()
        } else {
            vec![Value::Scalar(value.to_string())]
        };
        entries.push((key.to_string(), Value::Seq(first)));
        open = true;
    }
    Value::Map(sections)
}

/// .env (`NAME=value`, `export NAME=value`, quoted values over several
/// lines) and .properties (`key=value`, `key: value`, `key value`, `\`
/// continuations, `#` and `!` comments): one mapping of keys to values.
fn flat(dialect: Dialect, s: &str) -> Value {
    let mut entries = Vec::new();
    let mut lines = s.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    while let Some(l) = lines.next() {
        let t = l.trim_start();
        if t.is_empty()
            || t.starts_with('#')
            || (dialect == Dialect::Properties && t.starts_with('!'))
        {
            continue;
        }
        let mut logical = t.to_string();
        match dialect {
            Dialect::Properties => {
                while ends_continued(&logical) {
                    logical.pop();
                    match lines.next() {
                        Some(next) => logical.push_str(next.trim_start()),
                        None => break,
                    }
                }
            }
            _ => {
                while open_quote(&logical) {
                    match lines.next() {
                        Some(next) => {
                            logical.push('\n');
                            logical.push_str(next);
                        }
                        None => break,
                    }
                }
            }
        }
        let body = logical.strip_prefix("export ").unwrap_or(&logical);
        let (k, v) = match dialect {
            Dialect::Properties => match body.find(['=', ':', ' ', '\t']) {
                Some(k) => {
                    let rest = body[k..].trim_start();
                    let rest = rest.strip_prefix(['=', ':']).unwrap_or(rest);
                    (&body[..k], rest.trim())
                }
                None => (body.trim(), ""),
            },
            _ => match body.find('=') {
                Some(k) => (body[..k].trim(), body[k + 1..].trim()),
                None => (body.trim(), ""),
            },
        };
        entries.push((k.to_string(), Value::Scalar(v.to_string())));
    }
    Value::Map(entries)
}

/// A .properties line that ends in an odd number of backslashes.
pub(super) fn ends_continued(l: &str) -> bool {
    l.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1
}

/// A .env assignment whose quoted value is still open at the end of `l`.
pub(super) fn open_quote(l: &str) -> bool {
    let Some(eq) = l.find('=') else {
        return false;
    };
    let v = l[eq + 1..].trim_start();
    let Some(q) = v.chars().next().filter(|c| *c == '"' || *c == '\'') else {
        return false;
    };
    let mut escaped = false;
    for c in v[1..].chars() {
        match c {
            '\\' if q == '"' && !escaped => escaped = true,
            c if c == q && !escaped => return false,
            _ => escaped = false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn y(s: &str) -> Value {
        parse(Dialect::Yaml, s).expect("parses")
    }

    #[test]
    fn sub_trees_keep_parents_values_and_order() {
        let orig = y("a: 1\nb:\n  c: [1, 2, 3]\n  d: x\n");
        assert!(sub(&y("b:\n  c: [1, 3]\n"), &orig));
        assert!(!sub(&y("b:\n  c: [3, 1]\n"), &orig));
        assert!(!sub(&y("c: [1, 2, 3]\n"), &orig));
        assert!(!sub(&y("a: 2\n"), &orig));
        assert!(!sub(&y("b:\n"), &orig));
    }

    #[test]
    fn aliases_are_copied_within_a_budget() {
        let v = y("a: &x {k: 1}\nb: *x\n");
        assert!(sub(&y("b: {k: 1}\n"), &v));
        let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for k in 1..12 {
            let r = format!("*a{}", k - 1);
            bomb.push_str(&format!("a{k}: &a{k} [{}]\n", [r.as_str(); 10].join(", ")));
        }
        assert!(parse(Dialect::Yaml, &bomb).is_none());
    }

    #[test]
    fn ini_values_are_their_lines() {
        let o = parse(Dialect::Ini, "[a]\nk =\n  x\n  # c\n  y\n  z\n").unwrap();
        let v = parse(Dialect::Ini, "[a]\nk =\n  x\n  # … 1 elided\n  z\n").unwrap();
        assert!(sub(&v, &o));
        let w = parse(Dialect::Ini, "[a]\nk =\n  z\n  x\n").unwrap();
        assert!(!sub(&w, &o));
    }

    #[test]
    fn flat_files_read_continuations() {
        let p = parse(Dialect::Properties, "a=1\\\n  2\n! c\nb : 3\n").unwrap();
        assert_eq!(
            p,
            Value::Map(vec![
                ("a".into(), Value::Scalar("12".into())),
                ("b".into(), Value::Scalar("3".into()))
            ])
        );
        let e = parse(Dialect::Env, "export A=\"x\ny\"\nB=2\n").unwrap();
        assert_eq!(
            e,
            Value::Map(vec![
                ("A".into(), Value::Scalar("\"x\ny\"".into())),
                ("B".into(), Value::Scalar("2".into()))
            ])
        );
    }

    #[test]
    fn flows_closed_at_their_key_s_column_read_leniently() {
        let s = "m:\n  target: [\n    { \"os\": \"a\" },\n    { \"os\": \"b\" }\n  ]\n  channel: [\"stable\"]\n";
        assert!(parse_as(Dialect::Yaml, s, Mode::Strict).is_none());
        assert_eq!(
            parse_mode(Dialect::Yaml, s).map(|x| x.1),
            Some(Mode::Lenient)
        );
    }

    #[test]
    fn toml_tables_and_arrays() {
        let o = parse(
            Dialect::Toml,
            "[a]\nx = [1, 2, 3]\n[[t]]\nn = 1\n[[t]]\nn = 2\n",
        )
        .unwrap();
        let v = parse(Dialect::Toml, "[a]\nx = [1, 3]\n[[t]]\nn = 2\n").unwrap();
        assert!(sub(&v, &o));
        assert!(parse(Dialect::Toml, "[a]\nx = [1,\n").is_none());
    }
}
