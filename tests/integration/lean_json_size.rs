//! Lean JSON views are never larger than compat's (issue 40 rule 8) and
//! say what they dropped: a distance matrix (rows wrapping long lists)
//! is cut row-wise when keeping every row costs more than compat's
//! view; an accessibility tree's outline opens with a marker line
//! stating the raw nodes' fields, ranges and categories. Payloads are
//! synthetic, shaped like the Distance Matrix API's answer and Chrome
//! DevTools' `Accessibility.getFullAXTree`.

use crate::util::TestCommand;

/// The view and the report's `tokens_after` under `profile`.
fn compress(profile: &str, input: &str) -> (String, usize) {
    let tc = TestCommand::new();
    let r = tc.run(&["compress", "--profile", profile], input.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr_str());
    let after = r.report()["tokens_after"].as_u64().expect("tokens_after") as usize;
    (String::from_utf8(r.stdout).expect("UTF-8 view"), after)
}

/// A distance matrix of `n` cities to `n` cities.
fn distance_matrix(n: usize) -> String {
    let cities: Vec<String> = (0..n).map(|i| format!("\"City {i}, ST, USA\"")).collect();
    let rows: Vec<String> = (0..n)
        .map(|i| {
            let elements: Vec<String> = (0..n)
                .map(|j| {
                    let m = if i == j {
                        0
                    } else {
                        (i * 7919 + j * 104_729) % 4_800_000 + 1000
                    };
                    let s = m / 30;
                    format!(
                        "{{\"distance\":{{\"text\":\"{} km\",\"value\":{m}}},\"duration\":{{\"text\":\"{} hours {} mins\",\"value\":{s}}},\"status\":\"OK\"}}",
                        m / 1000,
                        s / 3600,
                        s % 3600 / 60
                    )
                })
                .collect();
            format!("{{\"elements\":[{}]}}", elements.join(","))
        })
        .collect();
    format!(
        "{{\"destination_addresses\":[{c}],\"origin_addresses\":[{c}],\"rows\":[{}],\"status\":\"OK\"}}",
        rows.join(","),
        c = cities.join(",")
    )
}

#[test]
fn a_distance_matrix_is_never_larger_than_compats_view() {
    let body = distance_matrix(10);
    let (view, lean) = compress("lean", &body);
    let (_, compat) = compress("compat", &body);
    assert!(lean <= compat, "lean {lean} > compat {compat}:\n{view}");
    // Its markers still state the rows and the ranges of their elements.
    assert!(
        view.contains("10 total elements; fields: elements"),
        "{view}"
    );
    assert!(view.contains("all elements[].status=OK"), "{view}");
    assert!(view.contains("elements[].distance.value=0.."), "{view}");
    let v: serde_json::Value = serde_json::from_str(view.lines().next().unwrap_or(""))
        .or_else(|_| serde_json::from_str(&view))
        .expect("the view is JSON");
    assert!(v["rows"].is_array(), "{view}");
}

/// A CDP accessibility node.
fn ax_node(id: usize, parent: usize, role: (&str, &str), name: &str, children: &[usize]) -> String {
    let kids: Vec<String> = children.iter().map(|c| format!("\"{c}\"")).collect();
    let name = if name.is_empty() {
        String::new()
    } else {
        format!(",\"name\":{{\"type\":\"computedString\",\"value\":\"{name}\"}}")
    };
    format!(
        "{{\"nodeId\":\"{id}\",\"ignored\":false,\"role\":{{\"type\":\"{}\",\"value\":\"{}\"}}{name},\"childIds\":[{}],\"parentId\":\"{parent}\",\"backendDOMNodeId\":{},\"frameId\":\"F00D\"}}",
        role.0,
        role.1,
        kids.join(","),
        100 + 3 * id
    )
}

#[test]
fn an_accessibility_outline_states_the_raw_nodes_fields() {
    let items: Vec<usize> = (3..13).collect();
    let mut nodes = vec![
        "{\"nodeId\":\"1\",\"ignored\":false,\"role\":{\"type\":\"role\",\"value\":\"RootWebArea\"},\"name\":{\"type\":\"computedString\",\"value\":\"Shop\"},\"childIds\":[\"2\"],\"backendDOMNodeId\":100,\"frameId\":\"F00D\"}".to_string(),
        ax_node(2, 1, ("role", "list"), "Cart", &items),
    ];
    for &i in &items {
        nodes.push(ax_node(
            i,
            2,
            ("role", "listitem"),
            &format!("Item {i}"),
            &[],
        ));
    }
    nodes.push(ax_node(13, 1, ("internalRole", "generic"), "", &[]));
    let body = format!("{{\"nodes\":[{}]}}", nodes.join(","));
    let (view, _) = compress("lean", &body);
    let header = view.lines().next().unwrap_or("");
    assert_eq!(
        header,
        "… raw nodes outlined below, their fields elided (caveman): 13 total elements; \
         fields: nodeId, ignored, role, name×12, childIds, backendDOMNodeId, frameId, parentId×12; \
         all ignored=false frameId=F00D; backendDOMNodeId=100..139; role.type: role×12 internalRole×1; \
         role.value: listitem×10 RootWebArea×1 list×1 generic×1; name.type: computedString×12; \
         parentId: 2×10 1×2",
        "{view}"
    );
    // The outline follows, without the raw fields.
    let outline: Vec<&str> = view.lines().skip(1).collect();
    assert!(
        outline.iter().any(|l| l.contains("listitem \"Item 12\"")),
        "{view}"
    );
    assert!(!outline.iter().any(|l| l.contains("frameId")), "{view}");
}
