//! Property tests of the promises, through the library API.

use caveman_engine::engine::{self, Options};
use caveman_engine::store::{Store, StoreEnv};
use caveman_engine::testing::{self, Parsed};
use caveman_engine::{detect, toon, ContentType};
use proptest::prelude::*;
use serde_json::Value;

use crate::util::TempDir;

/// Records with a few fields drawn from small pools, so runs repeat and
/// collapse, with occasional error words and odd values.
fn record() -> impl Strategy<Value = String> {
    (
        0u32..5000,
        prop::sample::select(vec!["ok", "ok", "ok", "ok", "late", "failed", "queued"]),
        prop::sample::select(vec!["eu-west-1", "us-east-1", "ap-south-1"]),
        prop::option::of(0i64..100_000),
        prop::sample::select(vec!["", "a<b>&c", "ü\u{2028}x", "line\nbreak", "q\"uote"]),
    )
        .prop_map(|(id, state, region, ms, note)| {
            let mut o = serde_json::Map::new();
            o.insert("id".into(), format!("id-{id:05}").into());
            o.insert("state".into(), state.into());
            o.insert("region".into(), region.into());
            if let Some(ms) = ms {
                o.insert("ms".into(), ms.into());
            }
            o.insert("note".into(), note.into());
            serde_json::to_string(&Value::Object(o)).unwrap()
        })
}

fn json_payload() -> impl Strategy<Value = String> {
    (prop::collection::vec(record(), 0..60), any::<bool>()).prop_map(|(recs, wrap)| {
        let arr = format!("[{}]", recs.join(",\n  "));
        if wrap {
            format!("{{\"page\": 1, \"items\": {arr}, \"error\": {{\"list\": {arr}}}}}")
        } else {
            arr
        }
    })
}

fn csv_payload() -> impl Strategy<Value = (String, usize)> {
    (
        2usize..6,
        prop::collection::vec((0u32..1000, 0u8..20, any::<bool>()), 0..80),
    )
        .prop_map(|(cols, rows)| {
            let mut s = String::new();
            let header: Vec<String> = (0..cols).map(|c| format!("col{c}")).collect();
            s.push_str(&header.join(","));
            s.push('\n');
            for (n, k, fail) in rows {
                let mut cells: Vec<String> = vec![format!("r{n:04}")];
                for c in 1..cols {
                    cells.push(match (c, fail) {
                        (1, true) => "FAILED".to_string(),
                        (1, false) => "ok".to_string(),
                        _ => format!("{}", (k as u32 * 7 + c as u32) % 50),
                    });
                }
                s.push_str(&cells.join(","));
                s.push('\n');
            }
            (s, cols)
        })
}

/// Every marker object in a JSON value, with the array it sits in.
fn markers<'v>(v: &'v Value, out: &mut Vec<(&'v Value, &'v Vec<Value>)>) {
    match v {
        Value::Array(items) => {
            for it in items {
                if it.get("__caveman_elided__").is_some() {
                    out.push((it, items));
                } else {
                    markers(it, out);
                }
            }
        }
        Value::Object(m) => m.values().for_each(|x| markers(x, out)),
        _ => {}
    }
}

fn has_error_word(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|w| matches!(w, "error" | "errors" | "failed" | "failure" | "timeout"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn json_output_parses_and_keeps_what_it_must(payload in json_payload(), query in prop::sample::select(vec!["", "failed late", "eu"])) {
        let Some(out) = testing::compress_json(payload.as_bytes(), query) else { return Ok(()); };
        let v: Value = serde_json::from_slice(&out).expect("output is JSON");
        let input: Value = serde_json::from_str(&payload).unwrap();
        // Same bytes every time.
        prop_assert_eq!(testing::compress_json(payload.as_bytes(), query).unwrap(), out.clone());
        // Every element carrying an error word survives.
        let originals: Vec<&Value> = match &input {
            Value::Array(a) => a.iter().collect(),
            Value::Object(m) => m["items"].as_array().unwrap().iter().collect(),
            _ => vec![],
        };
        let text = String::from_utf8(out.clone()).unwrap();
        for el in originals {
            let canon = serde_json::to_string(el).unwrap();
            if has_error_word(&canon) {
                let id = el["id"].as_str().unwrap();
                prop_assert!(text.contains(id), "lost {canon}");
            }
        }
        // The preserved subtree is verbatim, object keys all survive.
        if let Value::Object(m) = &input {
            prop_assert_eq!(&v["error"], &m["error"]);
            prop_assert_eq!(v.as_object().unwrap().len(), m.len());
        }
        // Markers: counts add up and constants are true of what they replaced.
        let mut ms = Vec::new();
        markers(&v, &mut ms);
        for (marker, _) in &ms {
            prop_assert!(marker["__caveman_elided__"].as_u64().unwrap() >= 1);
        }
        let Some(arr) = (match &v { Value::Array(a) => Some(a), Value::Object(m) => m["items"].as_array(), _ => None }) else { return Ok(()); };
        let orig = match &input { Value::Array(a) => a, Value::Object(m) => m["items"].as_array().unwrap(), _ => unreachable!() };
        let mut i = 0;
        for el in arr {
            match el.get("__caveman_elided__") {
                Some(n) => {
                    let n = n.as_u64().unwrap() as usize;
                    let replaced = &orig[i..i + n];
                    if let Some(summary) = el.get("__caveman_invariants__").and_then(Value::as_str) {
                        if let Some(all) = summary.split("; ").find(|s| s.starts_with("all ")) {
                            for fact in all[4..].split(' ') {
                                if let Some((k, val)) = fact.split_once('=') {
                                    for r in replaced {
                                        let got = match &r[k] { Value::String(s) => s.clone(), other => other.to_string() };
                                        prop_assert_eq!(&got, val, "constant {}={} false in {}", k, val, r);
                                    }
                                }
                            }
                        }
                    }
                    i += n;
                }
                None => i += 1,
            }
        }
        prop_assert_eq!(i, orig.len());
        // A second pass leaves every array that holds a marker exactly as it was.
        if let Some(again) = testing::compress_json(&out, query) {
            let w: Value = serde_json::from_slice(&again).unwrap();
            let mut before = Vec::new();
            markers(&v, &mut before);
            let mut after = Vec::new();
            markers(&w, &mut after);
            for ((_, a), (_, b)) in before.iter().zip(after.iter()) {
                prop_assert_eq!(a, b);
            }
        }
    }

    #[test]
    fn table_output_keeps_shape_and_signal((payload, cols) in csv_payload(), query in prop::sample::select(vec!["", "FAILED r0001"])) {
        let Some(out) = testing::compress_table(payload.as_bytes(), query) else { return Ok(()); };
        let t = testing::parse_table(&out).expect("output is a table");
        prop_assert!(t.rows.iter().all(|r| r.len() == cols));
        prop_assert!(out.len() < payload.len());
        // Compressing again changes nothing.
        prop_assert!(testing::compress_table(&out, query).is_none());
        // Failure rows and each numeric column's first min and max survive.
        let text = String::from_utf8(out.clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let input = testing::parse_table(payload.as_bytes()).unwrap();
        for row in input.rows.iter().skip(1) {
            let line = row.join(",");
            if line.contains("FAILED") {
                prop_assert!(lines.contains(&line.as_str()), "lost failure row {}", line);
            }
        }
        for c in 2..cols {
            let vals: Vec<(f64, String)> = input.rows.iter().skip(1).map(|r| (r.get(c).unwrap().parse::<f64>().unwrap(), r.join(","))).collect();
            if vals.is_empty() { continue; }
            let min = vals.iter().fold(&vals[0], |a, b| if b.0 < a.0 { b } else { a });
            let max = vals.iter().fold(&vals[0], |a, b| if b.0 > a.0 { b } else { a });
            prop_assert!(lines.contains(&min.1.as_str()));
            prop_assert!(lines.contains(&max.1.as_str()));
        }
        prop_assert_eq!(testing::compress_table(payload.as_bytes(), query).unwrap(), out);
    }

    #[test]
    fn toon_round_trips(payload in json_payload()) {
        if let Ok(t) = toon::encode(payload.as_bytes()) {
            let back = toon::decode(&t).expect("encoded TOON decodes");
            let a: Value = serde_json::from_slice(&back).unwrap();
            let b: Value = serde_json::from_str(&payload).unwrap();
            prop_assert_eq!(a, b);
        }
    }

    #[test]
    fn toon_decode_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = toon::decode(&bytes);
    }

    /// `compress` reuses what detection parsed; the answer and the bytes
    /// must be those of detecting and compressing from scratch.
    #[test]
    fn shared_parse_changes_nothing(
        json in json_payload(),
        (csv, _) in csv_payload(),
        pad in prop::sample::select(vec!["", " \n", "\u{a0}", "\x0b", "\u{3000}", "\t\r\n"]),
        tail in prop::sample::select(vec!["", "\n", "\u{a0}", " \x0c", "\u{2028}"]),
        junk in prop::collection::vec(prop::sample::select(vec![b'{', b'}', b'[', b']', b'"', b',', b':', b'1', b' ', b'\n', b'|', b',', 0xff]), 0..40),
    ) {
        for body in [format!("{pad}{json}{tail}").into_bytes(), format!("{pad}{csv}{tail}").into_bytes(), junk.clone()] {
            let (word, parsed) = testing::detect_parsed(&body);
            prop_assert_eq!(&word, &detect::detect(&body));
            match parsed {
                Parsed::Json(v) => {
                    prop_assert_eq!(testing::compress_json_decoded(&body, v.root(), ""), testing::compress_json(&body, ""));
                }
                Parsed::Table(t) => {
                    prop_assert_eq!(testing::compress_table_parsed(&body, &t, ""), testing::compress_table(&body, ""));
                }
                Parsed::Config(_) => prop_assert_eq!(&word, &ContentType::Config),
                Parsed::Code(_) => prop_assert!(false, "compat detection names no language"),
                Parsed::Unsure => prop_assert!(false, "compat detection is never unsure"),
                Parsed::Nothing => prop_assert!(word != ContentType::Json && word != ContentType::Tabular),
            }
        }
    }

    /// The same, near valid JSON: one byte of a payload replaced.
    #[test]
    fn decode_accepts_what_valid_accepts_near_json(payload in json_payload(), at in any::<prop::sample::Index>(), b in prop::sample::select(vec![b'{', b'}', b'[', b']', b'"', b',', b':', b'1', b'e', b' ', b'\\', 0xff, 0x01])) {
        let mut bytes = payload.into_bytes();
        if !bytes.is_empty() {
            let i = at.index(bytes.len());
            bytes[i] = b;
        }
        prop_assert_eq!(
            testing::json_decode_exact(&bytes),
            testing::json_valid(&bytes)
        );
    }

    /// Detection's JSON decode accepts exactly what `json.Valid` accepts.
    #[test]
    fn decode_accepts_what_valid_accepts(bytes in prop::collection::vec(prop::sample::select(vec![b'{', b'}', b'[', b']', b'"', b',', b':', b'1', b'0', b'-', b'.', b'e', b't', b'r', b'u', b'n', b'l', b' ', b'\n', b'\\', 0xff, 0xc3, 0xa9, 0x01]), 0..80)) {
        prop_assert_eq!(
            testing::json_decode_exact(&bytes),
            testing::json_valid(&bytes)
        );
    }

    #[test]
    fn detect_and_compress_never_panic(bytes in prop::collection::vec(prop::sample::select(vec![b'{', b'}', b'[', b']', b'"', b',', b':', b'1', b'a', b' ', b'\n', b'\t', b'|', b'-', b'\r', 0xff, 0xc3, 0xa9]), 0..300)) {
        let word = detect::detect(&bytes);
        prop_assert!(detect::TYPES.contains(&word));
        let _ = testing::compress_json(&bytes, "");
        let _ = testing::compress_table(&bytes, "q");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    #[test]
    fn retrieve_returns_what_compress_stored(payload in json_payload(), csv in csv_payload()) {
        let dir = TempDir::new("prop-store");
        let env = StoreEnv { ccr_dir: Some(dir.path().join("ccr").display().to_string()), ..StoreEnv::default() };
        let store = Store::open(&env).unwrap();
        for input in [payload.as_bytes(), csv.0.as_bytes()] {
            let out = engine::compress(input, &Options::default(), &store);
            match (&out.output, &out.report.transformed) {
                (Some(bytes), Some(t)) => {
                    prop_assert!(out.report.tokens_after < out.report.tokens_before);
                    prop_assert_eq!(store.get(t.recovery_handle.as_str()).unwrap(), input.to_vec());
                    prop_assert!(bytes.as_slice() != input);
                }
                (None, None) => prop_assert_eq!(out.report.tokens_after, out.report.tokens_before),
                _ => prop_assert!(false, "output and handle must come together"),
            }
        }
    }
}

/// The generators must exercise compression, not only the early returns.
#[test]
fn generators_produce_compressible_inputs() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut json_hits, mut csv_hits) = (0, 0);
    for _ in 0..100 {
        let p = json_payload().new_tree(&mut runner).unwrap().current();
        if testing::compress_json(p.as_bytes(), "").is_some() {
            json_hits += 1;
        }
        let (c, _) = csv_payload().new_tree(&mut runner).unwrap().current();
        if testing::compress_table(c.as_bytes(), "").is_some() {
            csv_hits += 1;
        }
    }
    assert!(
        json_hits >= 20,
        "only {json_hits} of 100 JSON payloads compressed"
    );
    assert!(csv_hits >= 20, "only {csv_hits} of 100 tables compressed");
}

/// A credential in one of the formats summaries screen, built from
/// `seed`.
fn credential(kind: usize, seed: u32) -> String {
    let hex = format!("{seed:08X}{seed:08X}");
    match kind % 6 {
        0 => format!("AKIA{}", &hex[..16]),
        1 => format!("ghp_{}abcdefghijklmnopqrstuvwxyz{seed:010}", "X"),
        2 => format!("sk_live_{}", hex.to_lowercase()),
        3 => format!("xoxb-{seed}-abcdefghij"),
        4 => format!("eyJhbGciOi{seed}.eyJzdWIiOi{seed}.sig"),
        _ => format!("postgres://app:pw{seed}@db/x"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// No summary states a credential: a secret-shaped value appears in
    /// the output only inside an element shown whole.
    #[test]
    fn summaries_never_state_a_credential(
        kind in 0usize..6,
        n in 12usize..80,
        constant in any::<bool>(),
        few in any::<bool>(),
    ) {
        let items: Vec<Value> = (0..n)
            .map(|i| {
                let seed = if constant { 7 } else if few { (i % 3) as u32 } else { i as u32 };
                serde_json::json!({"id": i, "state": "ok", "dsn": credential(kind, seed)})
            })
            .collect();
        let body = serde_json::to_vec(&Value::Array(items)).unwrap();
        let Some(out) = testing::compress_json(&body, "") else { return Ok(()); };
        let shown: Value = serde_json::from_slice(&out).unwrap();
        let shown_secrets: Vec<String> = shown
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|e| e.get("dsn").and_then(Value::as_str).map(str::to_string))
            .collect();
        let text = String::from_utf8(out).unwrap();
        for seed in 0..n as u32 {
            let secret = credential(kind, seed);
            if text.contains(&secret) {
                prop_assert!(shown_secrets.contains(&secret), "{secret} stated in a summary: {text}");
            }
        }
    }
}
