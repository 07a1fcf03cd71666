//! Lean JSON views read by eye (round t47): what a marker states of the
//! elements it replaces is the whole truth (every value of a listed
//! field, the basis of a distinct count), and shapes that are the content
//! (accessibility trees, short lists of names) are never sampled. Each
//! payload is synthetic, shaped like the class of real payloads it
//! stands for.

use crate::util::TestCommand;

/// The lean view of `input`.
fn lean(input: &str) -> String {
    let tc = TestCommand::new();
    let r = tc.expect(
        &["compress", "--profile", "lean", "--type", "auto"],
        input.as_bytes(),
        0,
    );
    String::from_utf8(r.stdout.clone()).expect("UTF-8 view")
}

/// The summaries (`__caveman_invariants__`) of the view's markers.
fn summaries(view: &str) -> Vec<String> {
    let mut out = Vec::new();
    for l in view.lines() {
        let l = l.trim_start_matches(',').trim_end_matches(',');
        let l = l.trim_end_matches(']').trim_end_matches('}');
        if let Some(at) = l.find("\"__caveman_invariants__\":\"") {
            let rest = &l[at + 26..];
            let end = rest.rfind('"').unwrap_or(rest.len());
            out.push(rest[..end].replace("\\\"", "\""));
        }
    }
    out
}

/// The section of the first summary about `field` (`field: …`).
fn section(view: &str, field: &str) -> String {
    let all = summaries(view).join("; ");
    all.split("; ")
        .find(|s| s.starts_with(&format!("{field}: ")))
        .unwrap_or_else(|| panic!("no section for {field}:\n{view}"))
        .to_string()
}

#[test]
fn a_value_count_list_holds_long_values_shortened() {
    // Tweets: the client of most is a long `<a href=…>` anchor.
    let long = |site: &str, name: &str| {
        format!("<a href=\\\"https://{site}.example.com/download/client\\\" rel=\\\"nofollow\\\">{name}</a>")
    };
    let sources: Vec<String> = (0..73)
        .map(|i| match i % 73 {
            5 | 40 => "twittbot".to_string(),
            9 => "Janetter".to_string(),
            11 | 22 | 33 | 44 => long("iphone", "Twitter for iPhone"),
            50..=56 => "web".to_string(),
            _ => long("omamori", "Omamori bot"),
        })
        .collect();
    let items: Vec<String> = sources
        .iter()
        .enumerate()
        .map(|(i, s)| {
            format!(
                "{{\"id\":{},\"text\":\"tweet number {i} says something new\",\"source\":\"{s}\",\"lang\":\"ja\"}}",
                1000 + i * 7
            )
        })
        .collect();
    let view = lean(&format!("{{\"statuses\":[{}]}}", items.join(",")));
    let s = section(&view, "source");
    // The most held value is there (shortened, marked with `…`), with
    // its count, and the counts add up to the 73 holders.
    assert!(
        s.contains("<a href=\"https://omamori.example.com/dow…×59"),
        "{s}"
    );
    assert!(s.contains("…×4"), "{s}");
    let total: usize = s
        .split(' ')
        .filter_map(|w| w.rsplit_once('×'))
        .filter_map(|(_, c)| c.parse::<usize>().ok())
        .sum();
    assert_eq!(total, 73, "{s}");
}

#[test]
fn a_value_list_says_what_it_could_not_write() {
    // Values that carry a credential are never written: they are counted.
    let items: Vec<String> = (0..40)
        .map(|i| {
            let auth = match i % 10 {
                3 => "Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789",
                _ => "none",
            };
            format!("{{\"seq\":{i},\"auth\":\"{auth}\",\"note\":\"row {i} of the log\"}}")
        })
        .collect();
    let view = lean(&format!("[{}]", items.join(",")));
    assert!(!view.contains("ghp_abc"), "{view}");
    let s = section(&view, "auth");
    assert_eq!(s, "auth: none×36 +1 other values (4)");
}

#[test]
fn a_distinct_count_states_its_basis() {
    // CI vendors: `env` is a variable name, or an object of them.
    let items: Vec<String> = (0..50)
        .map(|i| {
            let env = if i % 7 == 3 {
                format!("{{\"env\":\"VAR_{i}\",\"includes\":\"x{i}\"}}")
            } else {
                format!("\"ENV_VAR_{i}\"")
            };
            format!("{{\"name\":\"Vendor {i}\",\"constant\":\"VENDOR_{i}\",\"env\":{env}}}")
        })
        .collect();
    let view = lean(&format!("[{}]", items.join(",")));
    let s = section(&view, "env");
    assert_eq!(
        s, "env: 43 distinct among 43 strings, and 7 objects",
        "{view}"
    );
}

/// A CDP accessibility node (`Accessibility.getFullAXTree`).
fn ax_node(
    id: usize,
    parent: Option<usize>,
    role: &str,
    name: &str,
    extra: &str,
    children: &[usize],
) -> String {
    let kids: Vec<String> = children.iter().map(|c| format!("\"{c}\"")).collect();
    let parent = parent.map_or(String::new(), |p| format!(",\"parentId\":\"{p}\""));
    let name = if name.is_empty() {
        String::new()
    } else {
        format!(",\"name\":{{\"type\":\"computedString\",\"value\":\"{name}\",\"sources\":[{{\"type\":\"contents\"}}]}}")
    };
    format!(
        "{{\"nodeId\":\"{id}\",\"ignored\":false,\"role\":{{\"type\":\"role\",\"value\":\"{role}\"}}{name}{extra},\"childIds\":[{}]{parent},\"backendDOMNodeId\":{},\"frameId\":\"A94E1B7C02D34F56B8E9C1D2F3A4B5C6\"}}",
        kids.join(","),
        100 + id
    )
}

#[test]
fn an_accessibility_tree_is_an_outline_not_a_sample() {
    // A checkout page: 40 order lines, the total, form fields, and the
    // button the agent must press; ignored wrappers around them.
    let mut nodes = Vec::new();
    let lines: Vec<usize> = (100..140).collect();
    nodes.push(ax_node(1, None, "RootWebArea", "Checkout", "", &[2, 3]));
    nodes.push(ax_node(2, Some(1), "list", "Order", "", &lines));
    for &i in &lines {
        nodes.push(ax_node(
            i,
            Some(2),
            "listitem",
            &format!("Item {i} × 1 — $4.{i}"),
            "",
            &[],
        ));
    }
    nodes.push(
        "{\"nodeId\":\"3\",\"ignored\":true,\"ignoredReasons\":[{\"name\":\"uninteresting\"}],\"role\":{\"type\":\"role\",\"value\":\"none\"},\"childIds\":[\"4\",\"5\",\"6\",\"7\"],\"parentId\":\"1\",\"backendDOMNodeId\":3}".to_string(),
    );
    nodes.push(ax_node(
        4,
        Some(3),
        "StaticText",
        "Order total: $187.20",
        "",
        &[],
    ));
    nodes.push(ax_node(
        5,
        Some(3),
        "textbox",
        "Email",
        ",\"value\":{\"type\":\"string\",\"value\":\"ada@example.com\"}",
        &[],
    ));
    nodes.push(ax_node(
        6,
        Some(3),
        "combobox",
        "Shipping method",
        ",\"value\":{\"type\":\"string\",\"value\":\"Express\"}",
        &[],
    ));
    nodes.push(ax_node(
        7,
        Some(3),
        "button",
        "Continue to payment",
        "",
        &[],
    ));
    let view = lean(&format!("[{}]", nodes.join(",")));
    for want in [
        "Order total: $187.20",
        "textbox \"Email\" = \"ada@example.com\"",
        "combobox \"Shipping method\" = \"Express\"",
        "button \"Continue to payment\"",
        "Item 100 ",
        "Item 139 ",
        "Item 120 ",
    ] {
        assert!(view.contains(want), "{want} hidden:\n{view}");
    }
    // Past its header (what the raw nodes held), no raw field.
    let outline: String = view.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert!(view.starts_with("… raw "), "{view}");
    assert!(!outline.contains("frameId"), "{view}");
    assert!(!outline.contains("ignored"), "{view}");
    assert!(!view.contains("__caveman_elided__"), "{view}");
}

#[test]
fn a_list_of_names_is_kept_whole() {
    // License ids, file extensions: short distinct strings.
    let ids: Vec<String> = (0..300)
        .map(|i| format!("\"LIC-{}.{}-only\"", i / 3, i % 3))
        .collect();
    let view = lean(&format!("[{}]", ids.join(",")));
    for id in &ids {
        assert!(view.contains(id.trim_matches('"')), "{id} cut:\n{view}");
    }
    assert!(!view.contains("__caveman_elided__"), "{view}");
    // Classifiers: a short list of longer strings inside a record.
    let classifiers: Vec<String> = (0..12)
        .map(|i| format!("\"Programming Language :: Python :: 3.{i} :: Implementation\""))
        .collect();
    let body: Vec<String> = (0..40)
        .map(|i| format!("{{\"filename\":\"pkg-{i}.tar.gz\",\"size\":{}}}", 1000 + i))
        .collect();
    let view = lean(&format!(
        "{{\"info\":{{\"name\":\"pkg\",\"classifiers\":[{}]}},\"urls\":[{}]}}",
        classifiers.join(","),
        body.join(",")
    ));
    for c in &classifiers {
        assert!(view.contains(c.as_str()), "{c} cut:\n{view}");
    }
}

#[test]
fn a_map_keyed_by_package_lists_its_keys_with_versions() {
    let members: Vec<String> = (0..60)
        .map(|i| {
            format!(
                "\"node_modules/pkg-{i}\":{{\"version\":\"1.{i}.0\",\"resolved\":\"https://registry.example.org/pkg-{i}/-/pkg-{i}-1.{i}.0.tgz\",\"integrity\":\"sha512-{}\",\"license\":\"MIT\",\"dev\":true}}",
                "q".repeat(60)
            )
        })
        .collect();
    let view = lean(&format!(
        "{{\"name\":\"app\",\"lockfileVersion\":3,\"packages\":{{{}}}}}",
        members.join(",")
    ));
    assert!(view.contains("keys@version: "), "{view}");
    for i in 0..60 {
        assert!(
            view.contains(&format!("node_modules/pkg-{i}@1.{i}.0"))
                || view.contains(&format!(
                    "\"node_modules/pkg-{i}\":{{\"version\":\"1.{i}.0\""
                )),
            "pkg-{i} unnamed:\n{view}"
        );
    }
}

#[test]
fn records_with_bare_ids_are_listed_with_what_they_are() {
    // GitHub events: the id says nothing; type, actor and repo do.
    let events: Vec<String> = (0..30)
        .map(|i| {
            let kind = ["PushEvent", "WatchEvent", "ForkEvent"][i % 3];
            format!(
                "{{\"id\":\"{}\",\"type\":\"{kind}\",\"actor\":{{\"id\":{},\"login\":\"user{i}\"}},\"repo\":{{\"id\":{},\"name\":\"org{i}/repo{i}\"}},\"payload\":{{\"size\":{}}},\"public\":true}}",
                1652857700 + i,
                4000 + i,
                9000 + i,
                i % 4
            )
        })
        .collect();
    let view = lean(&format!("[{}]", events.join(",")));
    assert!(view.contains("id type actor repo: "), "{view}");
    for i in 0..30 {
        let kind = ["PushEvent", "WatchEvent", "ForkEvent"][i % 3];
        assert!(
            view.contains(&format!("{} {kind} user{i} org{i}/repo{i}", 1652857700 + i))
                || view.contains(&format!("\"login\":\"user{i}\"")),
            "event {i} lost:\n{view}"
        );
    }
}
