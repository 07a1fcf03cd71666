//! Property tests of the lean JSON and table views' promises: the view is
//! valid in its format; every error element (row) stays; kept members and
//! marker counts add up to the collection; every claim a marker makes
//! (`all k=v`, `k=lo..hi`, `k: v×n`) is true of what it speaks for; a
//! short list's dropped members are named.

use caveman_engine::testing::{compress_lean_as, parse_table};
use caveman_engine::ContentType;
use proptest::prelude::*;
use serde_json::Value;

/// A record of a short list: a name, a state with a default, an HTTP
/// status, a number that may exceed 2^53, sometimes an error message.
fn record() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(vec!["ok", "ok", "ok", "ok", "ok", "pending", "failed"]),
        prop::sample::select(vec![200u32, 200, 200, 200, 200, 404, 500]),
        prop::sample::select(vec![
            0u64,
            7,
            1_000,
            9_007_199_254_740_993,
            9_007_199_254_740_992,
        ]),
        0u32..1000,
        prop::sample::select(vec!["", "", "", "cache warm", "KeyError: 'price'"]),
    )
        .prop_map(|(state, code, big, ms, note)| {
            serde_json::json!({
                "state": state,
                "code": code,
                "span": big,
                "ms": ms,
                "note": note,
            })
        })
}

fn records() -> impl Strategy<Value = Vec<Value>> {
    prop::collection::vec(record(), 9..70).prop_map(|mut v| {
        for (i, r) in v.iter_mut().enumerate() {
            r["name"] = Value::String(format!("member-{i:02}"));
        }
        v
    })
}

/// The lean view of `body` as JSON (`None`: nothing cut, or a lossless
/// view that is not JSON).
fn lean_json(body: &str) -> Option<Value> {
    let out = compress_lean_as(&ContentType::Json, body.as_bytes(), "")?;
    serde_json::from_slice(&out).ok()
}

fn is_error(r: &Value) -> bool {
    r["state"] == "failed"
        || r["code"].as_u64().is_some_and(|c| c >= 400)
        || r["note"] == "KeyError: 'price'"
}

/// The text a marker claim compares: a string as it is, a number as its
/// literal.
fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Checks every claim of an invariants text against `members`.
fn check_claims(inv: &str, members: &[&Value]) -> Result<(), TestCaseError> {
    for section in inv.split("; ") {
        if let Some(rest) = section.strip_prefix("all ") {
            // `k=v` pairs; a value may hold spaces: it runs to the next `k=`.
            let mut pairs: Vec<(String, String)> = Vec::new();
            for word in rest.split(' ') {
                match (word.split_once('='), pairs.last_mut()) {
                    (Some((k, v)), _) => pairs.push((k.to_string(), v.to_string())),
                    (None, Some((_, v))) => {
                        v.push(' ');
                        v.push_str(word);
                    }
                    (None, None) => {}
                }
            }
            for (k, v) in &pairs {
                let (k, v) = (k.as_str(), v.as_str());
                if ["state", "code", "span", "ms", "note"].contains(&k) {
                    for m in members {
                        prop_assert_eq!(text(&m[k]), v, "all {}={} in {}", k, v, inv);
                    }
                }
            }
        } else if let Some((k, range)) = section.split_once('=') {
            if !["code", "span", "ms"].contains(&k) {
                continue;
            }
            let range = range.split(' ').next().unwrap();
            let (lo, hi) = range.split_once("..").expect("a range");
            let values: Vec<u128> = members
                .iter()
                .map(|m| text(&m[k]).parse().unwrap())
                .collect();
            prop_assert_eq!(
                lo.parse::<u128>().unwrap(),
                *values.iter().min().unwrap(),
                "{}",
                inv
            );
            prop_assert_eq!(
                hi.parse::<u128>().unwrap(),
                *values.iter().max().unwrap(),
                "{}",
                inv
            );
        } else if let Some((k, list)) = section.split_once(": ") {
            if k != "state" {
                continue;
            }
            for item in list.split(' ') {
                let Some((v, n)) = item.rsplit_once('×') else {
                    continue;
                };
                let held = members.iter().filter(|m| m[k] == v).count();
                prop_assert_eq!(held, n.parse::<usize>().unwrap(), "{}", inv);
            }
        }
    }
    Ok(())
}

/// Whether `text` names `name`: whole, or inside a numbered run a marker
/// states by its ends (`member-10..member-64` names `member-37`).
fn named(text: &str, name: &str) -> bool {
    if text.contains(name) {
        return true;
    }
    let split = |n: &str| -> Option<(String, u64)> {
        let digits = n.len() - n.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (p, d) = n.split_at(n.len() - digits);
        Some((p.to_string(), d.parse().ok()?))
    };
    let Some((prefix, k)) = split(name) else {
        return false;
    };
    text.split([',', ' ', '"', ';'])
        .filter_map(|w| w.split_once(".."))
        .any(|(a, b)| match (split(a), split(b)) {
            (Some((pa, x)), Some((pb, y))) => pa == prefix && pb == prefix && x <= k && k <= y,
            _ => false,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn lean_json_keeps_errors_counts_and_true_claims(recs in records(), wrap in any::<bool>()) {
        let arr = serde_json::to_string(&recs).unwrap();
        let body = if wrap { format!("{{\"page\":1,\"items\":{arr}}}") } else { arr };
        let Some(view) = lean_json(&body) else { return Ok(()) };
        let arr = if wrap { &view["items"] } else { &view };
        let items = arr.as_array().expect("the array stays an array");
        // Kept elements and marker counts add up.
        let mut kept = Vec::new();
        let mut count = 0;
        let mut invariants = Vec::new();
        for it in items {
            match it.get("__caveman_elided__") {
                Some(n) => {
                    count += n.as_u64().unwrap() as usize;
                    if let Some(s) = it.get("__caveman_invariants__") {
                        invariants.push(s.as_str().unwrap().to_string());
                    }
                }
                None => {
                    count += 1;
                    kept.push(it);
                }
            }
        }
        prop_assert_eq!(count, recs.len());
        // Every kept element is an original one; every error one is kept.
        for k in &kept {
            prop_assert!(recs.contains(k), "{} is not an original element", k);
        }
        for r in recs.iter().filter(|r| is_error(r)) {
            prop_assert!(kept.contains(&r), "error element dropped: {}", r);
        }
        // A short list's dropped members are named.
        let text_view = serde_json::to_string(&view).unwrap();
        for r in &recs {
            let name = r["name"].as_str().unwrap();
            prop_assert!(named(&text_view, name), "{} unnamed", name);
        }
        // The first marker speaks for every element.
        let all: Vec<&Value> = recs.iter().collect();
        if let Some(first) = invariants.first() {
            check_claims(first, &all)?;
        }
    }
}

/// A pod table as CSV: a name, a status with a default, a restart count,
/// memory with a unit.
fn pods() -> impl Strategy<Value = Vec<(String, u32, u32)>> {
    prop::collection::vec(
        (
            prop::sample::select(vec![
                "Running", "Running", "Running", "Running", "Pending", "Failed",
            ]),
            prop::sample::select(vec![0u32, 0, 0, 0, 1, 37]),
            1u32..2000,
        )
            .prop_map(|(s, r, m)| (s.to_string(), r, m)),
        16..90,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn lean_tables_account_for_every_row_and_claim_only_what_holds(rows in pods()) {
        let mut csv = String::from("NAME,STATUS,RESTARTS,MEMORY\n");
        for (i, (s, r, m)) in rows.iter().enumerate() {
            csv.push_str(&format!("pod-{i:03},{s},{r},{m}Mi\n"));
        }
        let Some(out) = compress_lean_as(&ContentType::Tabular, csv.as_bytes(), "") else { return Ok(()) };
        let t = parse_table(&out).expect("the view is a table");
        prop_assert_eq!(t.rows.row(0).len(), 4);
        let lines: Vec<&str> = csv.lines().skip(1).collect();
        let mut at = 0;
        let mut memory_max = None;
        for k in 1..t.rows.len() {
            let cells: Vec<&str> = t.rows.row(k).iter().collect();
            prop_assert_eq!(cells.len(), 4);
            if let Some(rest) = cells[0].strip_prefix("\u{2026} ") {
                // The whole table's line states what holds for every row.
                let whole = rest.starts_with("whole table (caveman): ");
                let n: usize = if whole { 0 } else { rest.split(' ').next().unwrap().parse().unwrap() };
                let run = if whole { &rows[..] } else { &rows[at..at + n] };
                if let Some((_, claims)) = rest.split_once("(caveman): ") {
                    let claims = claims.strip_suffix(" \u{2026}").unwrap_or(claims);
                    let claims = claims.strip_suffix("; \u{2026}").unwrap_or(claims);
                    for section in claims.split("; ") {
                        if let Some(c) = section.strip_prefix("all ") {
                            for pair in c.split(' ') {
                                if let Some(("STATUS", v)) = pair.split_once('=') {
                                    prop_assert!(run.iter().all(|r| r.0 == v), "{}", claims);
                                }
                            }
                        }
                        if let Some(range) = section.strip_prefix("MEMORY=") {
                            let range = range.split(' ').next().unwrap();
                            let (lo, hi) = range.split_once("..").unwrap();
                            let scope: Vec<u32> = if claims.contains("total rows") {
                                rows.iter().map(|r| r.2).collect()
                            } else {
                                run.iter().map(|r| r.2).collect()
                            };
                            prop_assert_eq!(lo, format!("{}Mi", scope.iter().min().unwrap()));
                            prop_assert_eq!(hi, format!("{}Mi", scope.iter().max().unwrap()));
                        }
                    }
                }
                at += n;
            } else {
                prop_assert_eq!(cells.join(","), lines[at]);
                let m = rows[at].2;
                memory_max = memory_max.max(Some(m));
                at += 1;
            }
        }
        prop_assert_eq!(at, rows.len());
        // Failed pods and the heaviest pod stay.
        let failed: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].0 == "Failed").collect();
        let view = String::from_utf8(out).unwrap();
        for i in failed {
            prop_assert!(view.contains(lines[i]), "{} dropped", lines[i]);
        }
        prop_assert_eq!(memory_max, rows.iter().map(|r| r.2).max());
    }
}

/// One step of a marker's leaf path: a member, every element of a list
/// (`[]`), or the cell at a position (`#i`).
#[derive(Debug)]
enum Step<'p> {
    Key(&'p str),
    Each,
    At(usize),
}

fn steps(path: &str) -> Vec<Step<'_>> {
    let mut out = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("[]") {
            out.push(Step::Each);
            rest = r;
        } else if let Some(r) = rest.strip_prefix('#') {
            let end = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
            out.push(Step::At(r[..end].parse().expect("a position")));
            rest = &r[end..];
        } else {
            let r = rest.strip_prefix('.').unwrap_or(rest);
            let end = r.find(['.', '[', '#']).unwrap_or(r.len());
            out.push(Step::Key(&r[..end]));
            rest = &r[end..];
        }
    }
    out
}

/// The scalars found at `path` inside `v`.
fn found<'v>(v: &'v Value, path: &[Step<'_>], out: &mut Vec<&'v Value>) {
    match path.split_first() {
        None => {
            if !v.is_array() && !v.is_object() {
                out.push(v);
            }
        }
        Some((Step::Key(k), rest)) => {
            if let Some(x) = v.get(*k) {
                found(x, rest, out);
            }
        }
        Some((Step::Each, rest)) => {
            for x in v.as_array().into_iter().flatten() {
                found(x, rest, out);
            }
        }
        Some((Step::At(i), rest)) => {
            if let Some(x) = v.as_array().and_then(|a| a.get(*i)) {
                found(x, rest, out);
            }
        }
    }
}

/// Checks every `all p=v`, `p=lo..hi` and `p: v×n` claim of a marker's
/// summary against every element it speaks for, at any leaf path (`a.b`,
/// `a[].b`, `a[]#i`, `a[][]`).
fn check_paths(inv: &str, members: &[Value]) -> Result<(), TestCaseError> {
    let at = |path: &str| {
        let s = steps(path);
        let mut out = Vec::new();
        for m in members {
            found(m, &s, &mut out);
        }
        out.into_iter().map(text).collect::<Vec<String>>()
    };
    for section in inv.split("; ") {
        if let Some(rest) = section.strip_prefix("all ") {
            for pair in rest.split(' ') {
                let Some((k, v)) = pair.split_once('=') else {
                    continue;
                };
                let values = at(k);
                prop_assert!(
                    !values.is_empty(),
                    "all {}={}: no value there in {}",
                    k,
                    v,
                    inv
                );
                prop_assert!(
                    values.iter().all(|x| x == v),
                    "all {}={} but {:?} in {}",
                    k,
                    v,
                    values,
                    inv
                );
            }
        } else if let Some((k, range)) = section.split_once('=') {
            let range = range.split(' ').next().unwrap();
            let Some((lo, hi)) = range.split_once("..") else {
                continue;
            };
            let values: Vec<f64> = at(k).iter().filter_map(|x| x.parse().ok()).collect();
            prop_assert!(
                !values.is_empty(),
                "{}: no number there in {}",
                section,
                inv
            );
            let min = values.iter().copied().fold(f64::INFINITY, f64::min);
            let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            prop_assert_eq!(lo.parse::<f64>().unwrap(), min, "{} in {}", section, inv);
            prop_assert_eq!(hi.parse::<f64>().unwrap(), max, "{} in {}", section, inv);
        } else if let Some((k, list)) = section.split_once(": ") {
            if k == "fields" || list.ends_with("distinct") {
                continue;
            }
            let values = at(k);
            for item in list.split(' ') {
                let Some((v, n)) = item.rsplit_once('×') else {
                    continue;
                };
                let Ok(n) = n.parse::<usize>() else { continue };
                let held = values.iter().filter(|x| *x == v).count();
                prop_assert_eq!(held, n, "{} in {}", section, inv);
            }
        }
    }
    Ok(())
}

/// Geometries in the shape of TopoJSON: a kind, an id, and ragged arcs
/// (lists of rings of different lengths); sometimes a list of rows of one
/// width (a table inside each element).
fn geometries() -> impl Strategy<Value = Vec<Value>> {
    let ring = prop::collection::vec(-60i64..60, 1..7);
    let geometry = (
        prop::sample::select(vec!["Polygon", "Polygon", "MultiPolygon", "Point"]),
        prop::collection::vec(ring, 0..4),
        prop::collection::vec((0u32..9, 100u32..200), 0..3),
    )
        .prop_map(|(kind, arcs, rows)| {
            let rows: Vec<Value> = rows
                .into_iter()
                .map(|(a, b)| serde_json::json!([a, b]))
                .collect();
            serde_json::json!({"type": kind, "arcs": arcs, "rows": rows})
        });
    prop::collection::vec(geometry, 9..60).prop_map(|mut v| {
        for (i, g) in v.iter_mut().enumerate() {
            g["id"] = Value::from(1000 + i as u64);
        }
        v
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Every claim of a lean JSON marker holds over the elements it covers,
    /// positions in pooled lists of different lengths included.
    #[test]
    fn lean_json_claims_hold_over_pooled_ragged_lists(geoms in geometries(), ragged_top in any::<bool>()) {
        let body = if ragged_top {
            // The collection itself: lists of lists of different lengths.
            let arcs: Vec<&Value> = geoms.iter().map(|g| &g["arcs"]).collect();
            serde_json::to_string(&arcs).unwrap()
        } else {
            serde_json::to_string(&geoms).unwrap()
        };
        let original: Vec<Value> = serde_json::from_str(&body).unwrap();
        let Some(view) = lean_json(&body) else { return Ok(()) };
        let items = view.as_array().expect("the array stays an array");
        let summary = items
            .iter()
            .find_map(|it| it.get("__caveman_invariants__").and_then(Value::as_str));
        if let Some(inv) = summary {
            check_paths(inv, &original)?;
        }
    }
}
