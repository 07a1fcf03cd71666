//! The annotation stripper (content type `toolschema-annotations`, method
//! `toolschema-annotations`; `--type` only; spec/toolschema.md §B): inside
//! the schema fields of tool envelopes the members `$schema`, `title`,
//! `examples` and `deprecated` are deleted as byte spans, and every other
//! byte is copied through (indentation, key order, number spellings).

use std::ops::Range;

use super::{Compressed, Decline, Input};
use crate::go::json;
use crate::go::json::raw::{skip_ws, string_end, value_end};

/// Members deleted from schema objects.
const DROPPED: [&str; 4] = ["$schema", "title", "examples", "deprecated"];
/// Schema keys whose value maps names to schemas.
const NAME_MAPS: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
/// Schema keys whose value is a schema (or an array of them).
const SUBSCHEMAS: [&str; 15] = [
    "items",
    "prefixItems",
    "additionalItems",
    "unevaluatedItems",
    "additionalProperties",
    "unevaluatedProperties",
    "propertyNames",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "allOf",
    "anyOf",
    "oneOf",
];
const SCHEMA_KEYS: [&str; 3] = ["input_schema", "inputSchema", "parameters"];

pub(super) fn run(input: &Input<'_>) -> Result<Compressed, Decline> {
    let b = input.body;
    if !json::is_valid(b) {
        return Err(Decline("not valid JSON"));
    }
    let mut cuts: Vec<Range<usize>> = Vec::new();
    let mut w = Walker { b, cuts: &mut cuts };
    let start = skip_ws(b, 0);
    w.catalog(start, 0).ok_or(Decline("nested too deeply"))?;
    if cuts.is_empty() {
        return Ok(Compressed::new(b.to_vec()));
    }
    cuts.sort_by_key(|r| r.start);
    let mut out = Vec::with_capacity(b.len());
    let mut at = 0;
    for c in cuts {
        if c.start > at {
            out.extend_from_slice(&b[at..c.start]);
        }
        at = at.max(c.end);
    }
    out.extend_from_slice(&b[at..]);
    if !json::is_valid(&out) {
        return Err(Decline("the edited bytes are not JSON"));
    }
    Ok(Compressed::new(out))
}

/// One member of an object: its key (decoded) and spans.
struct Member {
    key: String,
    key_start: usize,
    value: Range<usize>,
}

/// A walk over valid JSON recording the spans to delete.
struct Walker<'a, 'c> {
    b: &'a [u8],
    cuts: &'c mut Vec<Range<usize>>,
}

/// Deepest nesting walked (what `json.Valid` accepts).
const MAX_DEPTH: usize = json::MAX_DEPTH + 1;

impl Walker<'_, '_> {
    /// The members of the object starting at `i`, and its closing brace.
    fn members(&self, i: usize) -> (Vec<Member>, usize) {
        let mut out = Vec::new();
        let mut j = skip_ws(self.b, i + 1);
        if self.b[j] == b'}' {
            return (out, j);
        }
        loop {
            let key_start = j;
            let key_end = string_end(self.b, j);
            let key = unescape(&self.b[key_start + 1..key_end - 1]);
            let colon = skip_ws(self.b, key_end);
            let v = skip_ws(self.b, colon + 1);
            let v_end = value_end(self.b, v);
            out.push(Member {
                key,
                key_start,
                value: v..v_end,
            });
            let next = skip_ws(self.b, v_end);
            if self.b[next] == b'}' {
                return (out, next);
            }
            j = skip_ws(self.b, next + 1);
        }
    }

    /// A catalog position: an array of envelopes (arrays nest), or one.
    fn catalog(&mut self, i: usize, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH || i >= self.b.len() {
            return Some(());
        }
        match self.b[i] {
            b'[' => self.each_item(i, depth, Self::catalog),
            b'{' => {
                for m in self.members(i).0 {
                    if SCHEMA_KEYS.contains(&m.key.as_str()) {
                        self.schema(m.value.start, depth + 1)?;
                    } else if m.key == "function" {
                        self.catalog(m.value.start, depth + 1)?;
                    }
                }
                Some(())
            }
            _ => Some(()),
        }
    }

    /// Each item of the array at `i`, walked by `f`.
    fn each_item(
        &mut self,
        i: usize,
        depth: usize,
        f: fn(&mut Self, usize, usize) -> Option<()>,
    ) -> Option<()> {
        let mut j = skip_ws(self.b, i + 1);
        if self.b[j] == b']' {
            return Some(());
        }
        loop {
            let end = value_end(self.b, j);
            f(self, j, depth + 1)?;
            let next = skip_ws(self.b, end);
            if self.b[next] == b']' {
                return Some(());
            }
            j = skip_ws(self.b, next + 1);
        }
    }

    /// A schema position: an object walked with the drop set, an array of
    /// schemas, or nothing.
    fn schema(&mut self, i: usize, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.b[i] {
            b'[' => self.each_item(i, depth, Self::schema),
            b'{' => {
                let (members, close) = self.members(i);
                let mut kept_before = false;
                for (k, m) in members.iter().enumerate() {
                    if DROPPED.contains(&m.key.as_str()) {
                        let cut = if kept_before {
                            members[k - 1].value.end..m.value.end
                        } else {
                            m.key_start..members.get(k + 1).map_or(close, |n| n.key_start)
                        };
                        self.cuts.push(cut);
                        continue;
                    }
                    kept_before = true;
                    if NAME_MAPS.contains(&m.key.as_str()) {
                        self.name_map(m.value.start, depth + 1)?;
                    } else if SUBSCHEMAS.contains(&m.key.as_str()) {
                        self.schema(m.value.start, depth + 1)?;
                    }
                }
                Some(())
            }
            _ => Some(()),
        }
    }

    /// An object of names to schemas; its own members are never dropped.
    fn name_map(&mut self, i: usize, depth: usize) -> Option<()> {
        if self.b[i] != b'{' {
            return Some(());
        }
        for m in self.members(i).0 {
            self.schema(m.value.start, depth + 1)?;
        }
        Some(())
    }
}

/// A key's text with its escapes resolved (lone surrogates and bad bytes
/// as U+FFFD; such keys never equal the ASCII names compared here).
fn unescape(raw: &[u8]) -> String {
    if !raw.contains(&b'\\') {
        return String::from_utf8_lossy(raw).into_owned();
    }
    let mut quoted = Vec::with_capacity(raw.len() + 2);
    quoted.push(b'"');
    quoted.extend_from_slice(raw);
    quoted.push(b'"');
    match json::decode_go(&quoted) {
        Ok(t) => match t.root().get() {
            json::Value::String(s) => s.to_string(),
            _ => String::new(),
        },
        Err(_) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip(s: &str) -> String {
        let input = Input::plain(s.as_bytes(), "");
        String::from_utf8(run(&input).unwrap().bytes).unwrap()
    }

    #[test]
    fn member_deletion_rules() {
        let wrap = |schema: &str| format!("{{\"name\":\"t\",\"input_schema\":{schema}}}");
        assert_eq!(strip(&wrap(r#"{"a":1, "title":"x"}"#)), wrap(r#"{"a":1}"#));
        assert_eq!(
            strip(&wrap("{\n  \"title\": \"x\",\n  \"type\": \"object\"\n}")),
            wrap("{\n  \"type\": \"object\"\n}")
        );
        assert_eq!(strip(&wrap(r#"{ "title": "x" }"#)), wrap("{ }"));
        assert_eq!(
            strip(&wrap(
                r#"{"ti\u0074le":1,"properties":{"title":{"title":"T","type":"string"}}}"#
            )),
            wrap(r#"{"properties":{"title":{"type":"string"}}}"#)
        );
        // A `tools` wrapper is an envelope member like any other: untouched.
        let wrapped = format!("{{\"tools\":[{}]}}", wrap(r#"{"title":"x"}"#));
        assert_eq!(strip(&wrapped), wrapped);
    }
}
