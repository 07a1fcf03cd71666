//! Property tests of the JSON-shaped `--type` compressors: toolschema,
//! toolschema-annotations and a11y.

use caveman_engine::testing::{compress_as, metadata_as};
use caveman_engine::ContentType;
use proptest::prelude::*;
use serde_json::{json, Value};

fn tool() -> impl Strategy<Value = Value> {
    (
        "[a-z_]{1,12}",
        prop::sample::select(vec![
            "Short description.",
            "  Search the order database by customer, status or date range. Results are paginated and sorted by creation time. The date must be ISO 8601. This tool is great for dashboards. It was added in version 2. Use it often.  ",
        ]),
        prop::collection::vec("[a-z]{1,8}", 0..4),
        any::<bool>(),
    )
        .prop_map(|(name, desc, props, wrapped)| {
            let properties: serde_json::Map<String, Value> = props
                .iter()
                .map(|p| {
                    (
                        p.clone(),
                        json!({"type": "string", "title": "T", "examples": ["x"], "description": desc}),
                    )
                })
                .collect();
            let schema = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Args", "type": "object", "properties": properties, "required": props, "deprecated": false});
            if wrapped {
                json!({"type": "function", "function": {"name": name, "description": desc, "parameters": schema}})
            } else {
                json!({"name": name, "title": "Tool", "description": desc, "input_schema": schema})
            }
        })
}

fn names(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(n)) = m.get("name") {
                out.push(n.clone());
            }
            m.values().for_each(|x| names(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| names(x, out)),
        _ => {}
    }
}

fn required(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::Object(m) => {
            if let Some(r) = m.get("required") {
                out.push(r.clone());
            }
            m.values().for_each(|x| required(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| required(x, out)),
        _ => {}
    }
}

/// Every object of `b` is the object at the same place in `a` with whole
/// members removed (values otherwise equal, recursively).
fn members_removed(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => y
            .iter()
            .all(|(k, v)| x.get(k).is_some_and(|w| members_removed(w, v))),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| members_removed(p, q))
        }
        _ => a == b,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// toolschema: valid JSON, every tool name and required list kept,
    /// deterministic.
    #[test]
    fn toolschema_keeps_names_and_required(tools in prop::collection::vec(tool(), 1..6), wrap in any::<bool>()) {
        let doc = if wrap { json!({"tools": tools}) } else { Value::Array(tools) };
        let text = serde_json::to_string_pretty(&doc).unwrap();
        let out = compress_as(&ContentType::Toolschema, text.as_bytes(), "").expect("JSON input");
        prop_assert_eq!(compress_as(&ContentType::Toolschema, text.as_bytes(), ""), Some(out.clone()));
        let v: Value = serde_json::from_slice(&out).expect("output is JSON");
        let (mut a, mut b) = (Vec::new(), Vec::new());
        names(&doc, &mut a);
        names(&v, &mut b);
        prop_assert_eq!(a, b);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        required(&doc, &mut a);
        required(&v, &mut b);
        prop_assert_eq!(a, b);
    }

    /// toolschema-annotations: the input with whole members removed, still
    /// JSON; a second pass changes nothing.
    #[test]
    fn annotations_remove_whole_members(tools in prop::collection::vec(tool(), 1..6), pretty in any::<bool>()) {
        let doc = Value::Array(tools);
        let text = if pretty { serde_json::to_string_pretty(&doc).unwrap() } else { doc.to_string() };
        let out = compress_as(&ContentType::ToolschemaAnnotations, text.as_bytes(), "").expect("valid JSON");
        let v: Value = serde_json::from_slice(&out).expect("output is JSON");
        prop_assert!(members_removed(&doc, &v));
        prop_assert_eq!(compress_as(&ContentType::ToolschemaAnnotations, &out, ""), Some(out));
    }
}

/// a11y: the uid map is stored as metadata, for the printed uids.
#[test]
fn a11y_metadata_names_printed_uids() {
    let tree = json!([
        {"nodeId": "1", "role": {"type": "role", "value": "RootWebArea"}, "name": {"type": "computedString", "value": "Page"}, "childIds": ["2", "3"], "backendDOMNodeId": 1},
        {"nodeId": "2", "role": {"type": "role", "value": "button"}, "name": {"type": "computedString", "value": "Go"}, "backendDOMNodeId": 5, "frameId": "F1"},
        {"nodeId": "3", "role": {"type": "role", "value": "StaticText"}, "backendDOMNodeId": 6}
    ]);
    let body = tree.to_string();
    let out = compress_as(&ContentType::A11y, body.as_bytes(), "").unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "page \"Page\"\n  [u5] button \"Go\"\n  text"
    );
    let meta = metadata_as(&ContentType::A11y, body.as_bytes(), "").unwrap();
    assert_eq!(
        String::from_utf8(meta).unwrap(),
        r#"{"uids":{"u5":{"backendDOMNodeId":5,"frameId":"F1","nodeId":"2"}}}"#
    );
}
