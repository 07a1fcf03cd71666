//! Chrome's `Accessibility.getFullAXTree` nodes decoded with Go's
//! `encoding/json` typed-struct semantics (a11y.md §3): members matched to
//! fields exactly first, then case-insensitively (Go's name folding, the
//! first field wins a folded tie); unknown members ignored; a later
//! duplicate overwrites (structs and slice elements are decoded into what
//! is already there, as Go does); `null` leaves strings, numbers and
//! structs as they are and empties slices; any type mismatch fails the
//! whole decoding. `any` values keep a cursor into the document and are
//! checked as Go converts them (every number must be a finite float64).

use crate::go::json::{Json, Value};
use crate::go::strconv::parse_float;

/// The decoding failed (a type mismatch or an unrepresentable number).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Mismatch;

type R<T> = Result<T, Mismatch>;

/// `{type, value}`: Chrome's `AXValue`.
#[derive(Debug, Default, Clone)]
pub(super) struct AxValue<'t> {
    pub value: Option<Json<'t>>,
}

/// `{name, value}`: Chrome's `AXProperty`.
#[derive(Debug, Default, Clone)]
pub(super) struct Property<'t> {
    pub name: String,
    pub value: AxValue<'t>,
}

/// One node, as the compressor reads it.
#[derive(Debug, Default, Clone)]
pub(super) struct Node<'t> {
    pub node_id: String,
    pub ignored: bool,
    pub role: AxValue<'t>,
    pub name: AxValue<'t>,
    pub value: AxValue<'t>,
    pub properties: Vec<Property<'t>>,
    pub child_ids: Vec<String>,
    pub backend_id: i64,
    pub backend_id_caps: i64,
    pub frame_id: String,
    pub frame_id_caps: String,
}

/// Go's `foldName`: ASCII letters upper-cased, any other rune mapped to
/// `ToUpper(ToLower(r))` (so `ſ` folds with `S`, `K` with the Kelvin sign).
fn fold(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii() {
                c.to_ascii_uppercase()
            } else {
                let l = crate::go::unicode::simple_lower(c);
                let mut u = l.to_uppercase();
                match (u.next(), u.next()) {
                    (Some(x), None) => x,
                    _ => l,
                }
            }
        })
        .collect()
}

/// The field (index into `fields`) a member key selects: the exact name,
/// else the first field whose folded name equals the key's.
fn field(fields: &[&str], key: &str) -> Option<usize> {
    fields.iter().position(|f| *f == key).or_else(|| {
        let k = fold(key);
        fields.iter().position(|f| fold(f) == k)
    })
}

fn string_into(v: Json<'_>, dst: &mut String) -> R<()> {
    match v.get() {
        Value::String(s) => {
            *dst = s.to_string();
            Ok(())
        }
        Value::Null => Ok(()),
        _ => Err(Mismatch),
    }
}

fn bool_into(v: Json<'_>, dst: &mut bool) -> R<()> {
    match v.get() {
        Value::Bool(b) => {
            *dst = b;
            Ok(())
        }
        Value::Null => Ok(()),
        _ => Err(Mismatch),
    }
}

/// A JSON number into a Go `int` (64-bit): an integer literal in range.
fn int_into(v: Json<'_>, dst: &mut i64) -> R<()> {
    match v.get() {
        Value::Number(n) => {
            *dst = n.parse::<i64>().map_err(|_| Mismatch)?;
            Ok(())
        }
        Value::Null => Ok(()),
        _ => Err(Mismatch),
    }
}

/// Checks an `any` value as Go converts it: every number a finite float64.
fn check_any(v: Json<'_>) -> R<()> {
    match v.get() {
        Value::Number(n) => parse_float(n).map(|_| ()).ok_or(Mismatch),
        Value::Array(items) => items.iter().try_for_each(check_any),
        Value::Object(members) => members.iter().try_for_each(|(_, v)| check_any(v)),
        _ => Ok(()),
    }
}

fn ax_value_into<'t>(v: Json<'t>, dst: &mut AxValue<'t>) -> R<()> {
    const FIELDS: [&str; 2] = ["type", "value"];
    match v.get() {
        Value::Null => Ok(()),
        Value::Object(members) => {
            for (k, m) in members {
                match field(&FIELDS, k) {
                    Some(0) => string_into(m, &mut String::new())?,
                    Some(_) => {
                        check_any(m)?;
                        dst.value = (!matches!(m.get(), Value::Null)).then_some(m);
                    }
                    None => {}
                }
            }
            Ok(())
        }
        _ => Err(Mismatch),
    }
}

fn property_into<'t>(v: Json<'t>, dst: &mut Property<'t>) -> R<()> {
    const FIELDS: [&str; 2] = ["name", "value"];
    match v.get() {
        Value::Null => Ok(()),
        Value::Object(members) => {
            for (k, m) in members {
                match field(&FIELDS, k) {
                    Some(0) => string_into(m, &mut dst.name)?,
                    Some(_) => ax_value_into(m, &mut dst.value)?,
                    None => {}
                }
            }
            Ok(())
        }
        _ => Err(Mismatch),
    }
}

/// A JSON array into a Go slice: existing elements are decoded into, the
/// slice is cut to the array's length; `null` empties it.
fn slice_into<'t, T: Default>(
    v: Json<'t>,
    dst: &mut Vec<T>,
    item: impl Fn(Json<'t>, &mut T) -> R<()>,
) -> R<()> {
    match v.get() {
        Value::Null => {
            dst.clear();
            Ok(())
        }
        Value::Array(items) => {
            let n = items.len();
            for (i, it) in items.iter().enumerate() {
                if i >= dst.len() {
                    dst.push(T::default());
                }
                item(it, &mut dst[i])?;
            }
            dst.truncate(n);
            Ok(())
        }
        _ => Err(Mismatch),
    }
}

fn node_into<'t>(v: Json<'t>, n: &mut Node<'t>) -> R<()> {
    const FIELDS: [&str; 12] = [
        "nodeId",
        "parentId",
        "ignored",
        "role",
        "name",
        "value",
        "properties",
        "childIds",
        "backendDOMNodeId",
        "backendDOMNodeID",
        "frameId",
        "frameID",
    ];
    match v.get() {
        Value::Null => Ok(()),
        Value::Object(members) => {
            for (k, m) in members {
                match field(&FIELDS, k) {
                    Some(0) => string_into(m, &mut n.node_id)?,
                    Some(1) => string_into(m, &mut String::new())?,
                    Some(2) => bool_into(m, &mut n.ignored)?,
                    Some(3) => ax_value_into(m, &mut n.role)?,
                    Some(4) => ax_value_into(m, &mut n.name)?,
                    Some(5) => ax_value_into(m, &mut n.value)?,
                    Some(6) => slice_into(m, &mut n.properties, property_into)?,
                    Some(7) => slice_into(m, &mut n.child_ids, string_into)?,
                    Some(8) => int_into(m, &mut n.backend_id)?,
                    Some(9) => int_into(m, &mut n.backend_id_caps)?,
                    Some(10) => string_into(m, &mut n.frame_id)?,
                    Some(11) => string_into(m, &mut n.frame_id_caps)?,
                    _ => {}
                }
            }
            Ok(())
        }
        _ => Err(Mismatch),
    }
}

/// The input as a bare array of nodes.
pub(super) fn bare<'t>(root: Json<'t>) -> R<Vec<Node<'t>>> {
    let mut nodes = Vec::new();
    slice_into(root, &mut nodes, node_into)?;
    Ok(nodes)
}

/// The input as `{"nodes": [...]}`.
pub(super) fn envelope<'t>(root: Json<'t>) -> R<Vec<Node<'t>>> {
    let mut nodes = Vec::new();
    match root.get() {
        Value::Null => {}
        Value::Object(members) => {
            for (k, m) in members {
                if field(&["nodes"], k).is_some() {
                    slice_into(m, &mut nodes, node_into)?;
                }
            }
        }
        _ => return Err(Mismatch),
    }
    Ok(nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_name_folding() {
        assert_eq!(field(&["nodeId"], "NODEID"), Some(0));
        assert_eq!(
            field(
                &["backendDOMNodeId", "backendDOMNodeID"],
                "backenddomnodeid"
            ),
            Some(0)
        );
        assert_eq!(
            field(
                &["backendDOMNodeId", "backendDOMNodeID"],
                "backendDOMNodeID"
            ),
            Some(1)
        );
        assert_eq!(field(&["nodes"], "node\u{17F}"), Some(0));
        assert_eq!(field(&["nodes"], "nodez"), None);
    }
}
