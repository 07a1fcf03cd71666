//! Lean JSON keeps the answer of a list of records (issue 40, items 4, 5
//! and 6): the members whose status is not the default are named, the
//! largest consumers stay as rows, every member of a list of long records
//! is named, and what a marker says of the records it hides is true of
//! exactly those. Payloads are generated in the shapes real tools print
//! (a CI server's job list, a metrics export, a database's parameters).

use crate::util::TestCommand;
use serde_json::Value;

/// The lean view of `input`, parsed (the view is JSON).
fn lean(input: &str) -> (String, Value) {
    let tc = TestCommand::new();
    let r = tc.expect(
        &["compress", "--profile", "lean", "--type", "auto"],
        input.as_bytes(),
        0,
    );
    let view = String::from_utf8(r.stdout.clone()).expect("UTF-8 view");
    let v: Value = serde_json::from_str(&view).unwrap_or_else(|e| panic!("{e}:\n{view}"));
    (view, v)
}

/// Walks a view array against the original array: each kept element is
/// the original's next one, each marker hides the next `N`; returns, per
/// marker, its text and the original elements it hides.
fn markers<'a>(view: &Value, original: &'a [Value]) -> Vec<(String, Vec<&'a Value>)> {
    let mut out = Vec::new();
    let mut at = 0;
    for x in view.as_array().expect("a view array") {
        match x.get("__caveman_elided__").and_then(Value::as_u64) {
            Some(n) => {
                let n = n as usize;
                let text = x["__caveman_invariants__"].as_str().unwrap_or("");
                out.push((text.to_string(), original[at..at + n].iter().collect()));
                at += n;
            }
            None => {
                assert_eq!(x, &original[at], "kept element {at} is not the original's");
                at += 1;
            }
        }
    }
    assert_eq!(at, original.len(), "the view accounts for every element");
    out
}

/// Checks a marker's statements about `field` against the records it
/// hides (`of these N, …`): `all field=v`, `field=v×k`, `field=v: name =
/// a, b`; returns whether it made them.
fn check_claims(text: &str, hidden: &[&Value], field: &str, id: &str) -> bool {
    let value_of = |x: &Value| x[field].as_str().unwrap_or("").to_string();
    let Some(at) = text.find("of these ") else {
        return false;
    };
    let (n, claims) = text[at + 9..].split_once(", ").expect("a scope");
    assert_eq!(n.parse::<usize>().unwrap(), hidden.len(), "{text}");
    for part in claims.split("; ") {
        if let Some(v) = part.strip_prefix(&format!("all {field}=")) {
            assert!(
                hidden.iter().all(|x| value_of(x) == v),
                "false claim {part:?}"
            );
        } else if let Some(rest) = part.strip_prefix(&format!("{field}=")) {
            if let Some((v, names)) = rest.split_once(&format!(": {id} = ")) {
                let expect: Vec<&str> = hidden
                    .iter()
                    .filter(|x| value_of(x) == v)
                    .map(|x| x[id].as_str().unwrap())
                    .collect();
                assert_eq!(names.split(", ").collect::<Vec<_>>(), expect, "{part:?}");
            } else if let Some((v, k)) = rest.split_once('×') {
                let count = hidden.iter().filter(|x| value_of(x) == v).count();
                assert_eq!(k.parse::<usize>().unwrap(), count, "false count {part:?}");
            }
        }
    }
    true
}

/// A CI server's job list (`/api/json`): name, url, colour.
fn job_list() -> (String, Vec<Value>) {
    let jobs: Vec<Value> = (0..320)
        .map(|i| {
            let color = match i {
                _ if i % 7 == 3 => "red",
                _ if i % 31 == 4 => "disabled",
                _ if i % 53 == 6 => "yellow",
                _ => "blue",
            };
            let name = format!("project-{}-{i}", ["core", "web", "cli", "docs"][i % 4]);
            serde_json::json!({
                "name": name,
                "url": format!("https://ci.example.org/job/{name}/"),
                "color": color,
            })
        })
        .collect();
    let input = serde_json::json!({
        "mode": "EXCLUSIVE",
        "nodeDescription": "the master node",
        "jobs": jobs,
        "useSecurity": true,
    });
    (serde_json::to_string_pretty(&input).unwrap(), jobs)
}

#[test]
fn a_job_list_names_every_failing_job() {
    let (input, jobs) = job_list();
    let (view, _) = lean(&input);
    for j in &jobs {
        if j["color"] != "blue" {
            let name = j["name"].as_str().unwrap();
            assert!(
                view.contains(name),
                "{} job {name} unnamed:\n{view}",
                j["color"]
            );
        }
    }
    assert!(view.len() * 4 < input.len(), "{view}");
}

#[test]
fn a_job_list_marker_claims_only_what_its_hidden_jobs_share() {
    let (input, jobs) = job_list();
    let (_, v) = lean(&input);
    let ms = markers(&v["jobs"], &jobs);
    assert!(ms.len() > 1);
    for (text, hidden) in &ms {
        assert!(
            check_claims(text, hidden, "color", "name"),
            "marker {text:?} does not say what its jobs share"
        );
    }
}

#[test]
fn a_metrics_export_keeps_its_largest_consumers() {
    // A metrics export: one record per container, each metric a list of
    // one sample; the largest memory users in the middle.
    let sample = |v: u64| serde_json::json!([{"start": "2024-11-08T15:49:00Z", "end": "2024-11-08T15:49:00Z", "value": v}]);
    let records: Vec<Value> = (0..90u64)
        .map(|i| {
            let (name, memory) = match i {
                41 => ("big-alpha".to_string(), 867_954_688),
                47 => ("big-bravo".to_string(), 851_070_976),
                55 => ("big-charlie".to_string(), 562_098_176),
                _ => (
                    format!("system.slice/unit-{i}.service"),
                    1_000_000 + i * 37_813,
                ),
            };
            let mut metrics = serde_json::json!({
                "cpu/usage": sample(10_000 + i * 7),
                "memory/usage": sample(memory),
                "memory/rss": sample(memory / 3),
                "uptime": sample(82_563_146 + i),
            });
            if i == 41 {
                // The machine's own record is larger: its filesystems.
                for fs in 0..12 {
                    metrics[format!("filesystem/usage-{fs}")] = sample(697_700_352 + fs);
                }
            }
            serde_json::json!({
                "metrics": metrics,
                "labels": {"container_name": name, "host_id": format!("172.17.4.{}", 200 + i % 3)},
            })
        })
        .collect();
    let input = serde_json::to_string_pretty(&records).unwrap();
    let (view, _) = lean(&input);
    // The two largest stay as rows (the first is larger than the rows
    // kept for their values).
    for name in ["big-alpha", "big-bravo"] {
        assert!(view.contains(name), "{name} hidden:\n{view}");
    }
}

#[test]
fn a_parameter_list_names_every_parameter() {
    // A database's parameters (`describe-db-parameters`): long records
    // identified by `ParameterName`.
    let params: Vec<Value> = (0..260)
        .map(|i| {
            serde_json::json!({
                "ParameterName": format!("{}_{}_{i}", ["innodb", "max", "log", "sql"][i % 4], ["buffer", "timeout", "size", "mode", "limit"][i % 5]),
                "ParameterValue": if i % 9 == 0 { Value::from(format!("{}", i * 16)) } else { Value::Null },
                "Description": format!("Controls setting number {i} of the engine: how much of the resource the server may use before it waits, flushes or rejects work."),
                "Source": if i % 9 == 0 { "user" } else { "engine-default" },
                "ApplyType": if i % 3 == 0 { "static" } else { "dynamic" },
                "DataType": "integer",
                "AllowedValues": format!("0-{}", 1 << (i % 20)),
                "IsModifiable": i % 5 != 0,
                "ApplyMethod": "pending-reboot",
            })
        })
        .collect();
    let input =
        serde_json::to_string_pretty(&serde_json::json!({"Parameters": params, "Marker": ""}))
            .unwrap();
    let (view, v) = lean(&input);
    for p in &params {
        let name = p["ParameterName"].as_str().unwrap();
        assert!(view.contains(name), "{name} unnamed:\n{view}");
    }
    assert!(!markers(&v["Parameters"], &params).is_empty());
    assert!(view.len() * 3 < input.len(), "{view}");
}
