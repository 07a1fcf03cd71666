//! Schema stripping (pixel-simulate.md §12): a JSON schema without its
//! prose (descriptions, titles, examples, defaults, long formats), as the
//! proxy sends tool definitions once their documentation is imaged. Only
//! its token count is used, in the OpenAI text estimate; the result is
//! written as Go's `json.Marshal` writes the decoded value.

use crate::go::json::lazy::{marshal_any, Kind, Lazy};
use crate::go::json::write_json_str;

/// Nodes deeper than this are kept as they are.
const MAX_DEPTH: usize = 20;
/// A `format` string longer than this is prose.
const FORMAT_MAX: usize = 32;

/// Members dropped wherever they appear.
const DROPPED: [&str; 7] = [
    "description",
    "title",
    "examples",
    "default",
    "$schema",
    "$id",
    "$comment",
];
/// Members whose value is kept verbatim.
const VERBATIM: [&str; 18] = [
    "required",
    "enum",
    "const",
    "type",
    "$ref",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "multipleOf",
    "uniqueItems",
    "pattern",
];
/// Members holding a map of named schemas.
const SCHEMA_MAPS: [&str; 4] = ["properties", "patternProperties", "definitions", "$defs"];
/// Members holding a list of schemas.
const SCHEMA_LISTS: [&str; 3] = ["oneOf", "anyOf", "allOf"];
/// Members holding a schema or a boolean.
const SUBSCHEMAS: [&str; 10] = [
    "items",
    "additionalProperties",
    "not",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "if",
    "then",
    "else",
];

/// Writes `Strip(v, depth)` as Go JSON.
pub fn write_stripped(out: &mut Vec<u8>, v: Lazy<'_>, depth: usize) {
    if v.kind() != Kind::Object || depth > MAX_DEPTH {
        marshal_any(out, v);
        return;
    }
    out.push(b'{');
    let mut first = true;
    for (k, value) in v.map() {
        let key = k.as_ref();
        if DROPPED.contains(&key)
            || (key == "format" && value.str().is_some_and(|s| s.len() > FORMAT_MAX))
        {
            continue;
        }
        if !first {
            out.push(b',');
        }
        first = false;
        write_json_str(out, key.as_bytes());
        out.push(b':');
        if VERBATIM.contains(&key) {
            marshal_any(out, value);
        } else if SCHEMA_MAPS.contains(&key) && value.kind() == Kind::Object {
            out.push(b'{');
            for (n, (name, schema)) in value.map().into_iter().enumerate() {
                if n > 0 {
                    out.push(b',');
                }
                write_json_str(out, name.as_bytes());
                out.push(b':');
                write_stripped(out, schema, depth + 1);
            }
            out.push(b'}');
        } else if SCHEMA_LISTS.contains(&key) && value.kind() == Kind::Array {
            out.push(b'[');
            for (n, schema) in value.items().enumerate() {
                if n > 0 {
                    out.push(b',');
                }
                write_stripped(out, schema, depth + 1);
            }
            out.push(b']');
        } else if SUBSCHEMAS.contains(&key) && value.kind() == Kind::Bool {
            marshal_any(out, value);
        } else {
            // Sub-schemas and any other object are stripped; other values
            // stay.
            write_stripped(out, value, depth + 1);
        }
    }
    out.push(b'}');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip(s: &str) -> String {
        let mut out = Vec::new();
        write_stripped(&mut out, Lazy::new(s.as_bytes()), 0);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn drops_prose_keeps_structure() {
        assert_eq!(
            strip(
                r#"{"type":"object","description":"d","title":"t","properties":{"description":{"type":"string","description":"x","format":"date"},"n":{"type":"integer","minimum":1,"examples":[1]}},"required":["n"],"additionalProperties":false}"#
            ),
            r#"{"additionalProperties":false,"properties":{"description":{"format":"date","type":"string"},"n":{"minimum":1,"type":"integer"}},"required":["n"],"type":"object"}"#
        );
        assert_eq!(
            strip(
                r#"{"format":"a-very-long-format-name-that-is-prose-really","anyOf":[{"title":"x"},true],"items":{"default":1}}"#
            ),
            r#"{"anyOf":[{},true],"items":{}}"#
        );
        assert_eq!(strip("[1]"), "[1]");
    }

    #[test]
    fn deep_nodes_stay() {
        let mut s = String::new();
        for _ in 0..22 {
            s.push_str(r#"{"description":"d","x":"#);
        }
        s.push('1');
        s.push_str(&"}".repeat(22));
        let out = strip(&s);
        // 22 levels: depths 0..=20 lose their description, 21 keeps it.
        assert_eq!(out.matches("description").count(), 1);
    }
}
