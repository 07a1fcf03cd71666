//! The header of a view that renders a JSON array as an outline (a
//! DevTools accessibility tree as its indented role/name lines): the
//! outline drops the raw members' fields, so one marker line says what
//! they were, in the summary grammar of the lean JSON markers (total,
//! fields, constants, ranges, categories; [`Stats`]). An agent that
//! queries the raw JSON learns its paths, kinds and ranges from it.

use super::select::{fields_of, leaves, Pools};
use crate::compress::shared::stats::{Mode, Stats};
use crate::go::json::{Json, Value};

/// Bytes of summary the header holds at most (sections past it are shed
/// and counted: `(+N more)`): about 250 tokens, against an outline of
/// trees whose raw JSON runs to tens of thousands.
const ROOM: usize = 900;
/// Leaf paths tracked.
const MAX_FIELDS: usize = 1024;

/// The header line of an outline of the array `items`, found at `path`
/// (`$` for the root): `… raw nodes outlined below, their fields elided
/// (caveman): N total elements; fields: …; …`.
pub(crate) fn header(path: &str, items: &[Json<'_>]) -> String {
    let mut st = Stats::new(MAX_FIELDS);
    let mut pools = Pools::default();
    let mut at = String::new();
    for it in items {
        pools.add(*it, &mut at, 0);
    }
    for (i, it) in items.iter().enumerate() {
        st.unit();
        at.clear();
        leaves(*it, i, &mut at, 0, false, &pools, &mut st);
    }
    let first: Vec<String> = fields_of(items).into_iter().collect();
    let (text, _) = st.render_after(
        format!("{} total elements", items.len()),
        &first,
        ROOM,
        // Many-valued strings (ids, names) are the outline's own.
        |f| if f.many { Mode::Skip } else { Mode::Normal },
    );
    let what = if path == "$" { "elements" } else { path };
    format!("… raw {what} outlined below, their fields elided (caveman): {text}")
}

/// The array an outline renders and its path: the root array, or the
/// root's `nodes`.
pub(crate) fn outlined(root: Json<'_>) -> Option<(&'static str, Vec<Json<'_>>)> {
    match root.get() {
        Value::Array(items) => Some(("$", items.iter().collect())),
        Value::Object(m) => match m.iter().find(|(k, _)| *k == "nodes")?.1.get() {
            Value::Array(items) => Some(("nodes", items.iter().collect())),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::json as gojson;

    #[test]
    fn header_states_the_raw_fields() {
        let nodes: Vec<String> = (0..10)
            .map(|i| {
                let role = if i % 2 == 0 { "role" } else { "internalRole" };
                format!(
                    "{{\"nodeId\":\"{i}\",\"role\":{{\"type\":\"{role}\",\"value\":\"r{i}\"}},\"backendDOMNodeId\":{},\"frameId\":\"F1\"}}",
                    100 + i * 3
                )
            })
            .collect();
        let body = format!("{{\"nodes\":[{}]}}", nodes.join(","));
        let t = gojson::decode_exact(body.as_bytes(), super::super::INPUT_ORDER).unwrap();
        let (path, items) = outlined(t.root()).unwrap();
        assert_eq!(
            header(path, &items),
            "… raw nodes outlined below, their fields elided (caveman): 10 total elements; \
             fields: nodeId, role, backendDOMNodeId, frameId; all frameId=F1; \
             backendDOMNodeId=100..127; role.type: role×5 internalRole×5"
        );
    }
}
