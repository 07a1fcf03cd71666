//! The graders of spec/evals.md: each passes, or gives one failure string
//! in the reference's words (Go `%q` quoting, `%.4f`/`%.2f` numbers).

use yaml_rust2::Yaml;

use super::manifest::Grader;
use super::Compressed;
use crate::go::strconv::quote;

fn trim(b: &[u8]) -> String {
    String::from_utf8_lossy(crate::go::unicode::trim_space(b)).into_owned()
}

/// Go's `%v` of a decoded YAML value.
fn go_v(v: &Yaml) -> String {
    match v {
        Yaml::String(s) | Yaml::Real(s) => s.clone(),
        Yaml::Integer(i) => i.to_string(),
        Yaml::Boolean(b) => b.to_string(),
        Yaml::Array(a) => format!("[{}]", a.iter().map(go_v).collect::<Vec<_>>().join(" ")),
        Yaml::Hash(h) => {
            let mut kv: Vec<(String, String)> = h.iter().map(|(k, v)| (go_v(k), go_v(v))).collect();
            kv.sort();
            format!(
                "map[{}]",
                kv.iter()
                    .map(|(k, v)| format!("{k}:{v}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        }
        _ => "<nil>".into(),
    }
}

/// A YAML value as JSON (schemas, expected sequences).
fn to_json(v: &Yaml) -> serde_json::Value {
    use serde_json::Value as V;
    match v {
        Yaml::String(s) => V::String(s.clone()),
        Yaml::Integer(i) => V::from(*i),
        Yaml::Real(r) => r.parse::<f64>().map(V::from).unwrap_or(V::Null),
        Yaml::Boolean(b) => V::Bool(*b),
        Yaml::Array(a) => V::Array(a.iter().map(to_json).collect()),
        Yaml::Hash(h) => V::Object(h.iter().map(|(k, v)| (go_v(k), to_json(v))).collect()),
        _ => V::Null,
    }
}

fn option<'a>(g: &'a Grader, k: &str) -> Option<&'a Yaml> {
    match &g.options {
        Some(Yaml::Hash(h)) => h.get(&Yaml::String(k.to_string())),
        _ => None,
    }
}

/// Numbers compared as Go's decoder compares them: all as float64.
fn same(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as V;
    match (a, b) {
        (V::Number(x), V::Number(y)) => x.as_f64() == y.as_f64(),
        (V::Array(x), V::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (V::Object(x), V::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn toon_round_trip(c: &Compressed<'_>) -> Option<String> {
    if c.passed_through || c.method != "toon" {
        return Some("TOON round-trip requires a compressed TOON output".into());
    }
    let Ok(input) = serde_json::from_slice::<serde_json::Value>(c.input) else {
        return Some("input is not valid JSON for TOON round-trip".into());
    };
    let Ok(decoded) = crate::toon::decode(c.output) else {
        return Some("output is not decodable TOON".into());
    };
    match serde_json::from_slice::<serde_json::Value>(&decoded) {
        Ok(v) if same(&v, &input) => None,
        _ => Some("TOON output does not round-trip to the original JSON value".into()),
    }
}

/// The grader's failure, or `None` when it passes.
pub fn grade(g: &Grader, c: &Compressed<'_>) -> Option<String> {
    let contains = |needle: &str| memchr::memmem::find(c.output, needle.as_bytes()).is_some();
    match g.kind.as_str() {
        "exact_match" => {
            let expected = if !g.value.is_empty() {
                g.value.clone()
            } else {
                match &g.reference {
                    Some(Yaml::String(s)) => s.clone(),
                    Some(v) => go_v(v),
                    None => String::new(),
                }
            };
            let (got, want) = (trim(c.output), trim(expected.as_bytes()));
            (got != want).then(|| format!("output {} != expected {}", quote(&got), quote(&want)))
        }
        "ratio_threshold" => {
            if c.ratio < g.min {
                Some(format!("ratio {:.4} below min {:.4}", c.ratio, g.min))
            } else if g.max > 0.0 && c.ratio > g.max {
                Some(format!("ratio {:.4} above max {:.4}", c.ratio, g.max))
            } else {
                None
            }
        }
        "valid_json" => {
            (!crate::go::json::is_valid(c.output)).then(|| "output is not valid JSON".into())
        }
        "json_or_toon_round_trip" => {
            if crate::go::json::is_valid(c.output) {
                None
            } else if c.method == "toon" {
                toon_round_trip(c)
            } else {
                Some("output is not valid JSON and method is not TOON".into())
            }
        }
        "toon_round_trip" => toon_round_trip(c),
        "contains" => (!contains(&g.value)).then(|| format!("output missing {}", quote(&g.value))),
        "not_contains" => {
            contains(&g.value).then(|| format!("output still contains {}", quote(&g.value)))
        }
        "byte_identical" => (c.output != c.input).then(|| "output differs from input".into()),
        "compressed" => c
            .passed_through
            .then(|| "payload passed through unchanged".into()),
        "recall_keys" => {
            let items: Vec<String> = match option(g, "must_contain") {
                Some(Yaml::Array(a)) => a
                    .iter()
                    .filter_map(|x| match x {
                        Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
                        Yaml::Integer(i) => Some(i.to_string()),
                        Yaml::Boolean(b) => Some(b.to_string()),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            if items.is_empty() {
                return Some("recall_keys requires a non-empty options.must_contain list".into());
            }
            let min = match option(g, "min_recall") {
                Some(Yaml::Real(r)) => r.parse().unwrap_or(1.0),
                Some(Yaml::Integer(i)) => *i as f64,
                _ => 1.0,
            };
            let missing: Vec<&str> = items
                .iter()
                .filter(|k| !contains(k))
                .map(String::as_str)
                .collect();
            let recall = (items.len() - missing.len()) as f64 / items.len() as f64;
            (recall < min).then(|| {
                format!(
                    "recall {recall:.2} < {min:.2}, missing [{}]",
                    missing.join(" ")
                )
            })
        }
        "json_schema" => json_schema(g, c),
        "tool_sequence" => tool_sequence(g, c),
        other => Some(format!("unknown grader type: {}", other.trim())),
    }
}

fn json_schema(g: &Grader, c: &Compressed<'_>) -> Option<String> {
    let value: serde_json::Value = match serde_json::from_slice(c.output) {
        Ok(v) => v,
        Err(e) => return Some(format!("output is not JSON: {e}")),
    };
    let schema = match (option(g, "schema"), &g.reference) {
        (Some(s @ Yaml::Hash(_)), _) => to_json(s),
        (_, Some(r @ Yaml::Hash(_))) => to_json(r),
        (_, Some(Yaml::String(s))) => match serde_json::from_str(s) {
            Ok(v) => v,
            Err(_) => {
                return Some("json_schema requires options.schema or reference schema".into())
            }
        },
        _ => return Some("json_schema requires options.schema or reference schema".into()),
    };
    check_schema(&value, &schema, "$")
}

/// The schema subset of spec/evals.md; the first violation, by path.
fn check_schema(v: &serde_json::Value, s: &serde_json::Value, path: &str) -> Option<String> {
    use serde_json::Value as V;
    let obj = s.as_object()?;
    if let Some(V::String(t)) = obj.get("type") {
        let ok = match t.as_str() {
            "object" => v.is_object(),
            "array" => v.is_array(),
            "string" => v.is_string(),
            "number" => v.is_number(),
            "integer" => v.as_f64().is_some_and(|x| x.fract() == 0.0),
            "boolean" => v.is_boolean(),
            "null" => v.is_null(),
            _ => true,
        };
        if !ok {
            return Some(format!("{path} is not of type {t}"));
        }
    }
    if let Some(V::Array(options)) = obj.get("enum") {
        if !options.iter().any(|o| same(o, v)) {
            return Some(format!("{path} is not one of the enum values"));
        }
    }
    if let Some(c) = obj.get("const") {
        if !same(c, v) {
            return Some(format!("{path} does not equal the const value"));
        }
    }
    if let V::Object(m) = v {
        if let Some(V::Array(req)) = obj.get("required") {
            for r in req.iter().filter_map(V::as_str) {
                if !m.contains_key(r) {
                    return Some(format!("{path} missing required property {}", quote(r)));
                }
            }
        }
        let props = obj.get("properties").and_then(V::as_object);
        for (k, x) in m {
            match props.and_then(|p| p.get(k)) {
                Some(ps) => {
                    if let Some(e) = check_schema(x, ps, &format!("{path}.{k}")) {
                        return Some(e);
                    }
                }
                None if obj.get("additionalProperties") == Some(&V::Bool(false)) => {
                    return Some(format!("{path} has unexpected property {}", quote(k)));
                }
                None => {}
            }
        }
    }
    if let V::Array(a) = v {
        if let Some(n) = obj.get("minItems").and_then(V::as_u64) {
            if (a.len() as u64) < n {
                return Some(format!("{path} has fewer than {n} items"));
            }
        }
        if let Some(n) = obj.get("maxItems").and_then(V::as_u64) {
            if (a.len() as u64) > n {
                return Some(format!("{path} has more than {n} items"));
            }
        }
        if let Some(items) = obj.get("items") {
            for (i, x) in a.iter().enumerate() {
                if let Some(e) = check_schema(x, items, &format!("{path}[{i}]")) {
                    return Some(e);
                }
            }
        }
    }
    if let V::String(s) = v {
        let len = s.chars().count() as u64;
        if obj
            .get("minLength")
            .and_then(V::as_u64)
            .is_some_and(|n| len < n)
        {
            return Some(format!("{path} is shorter than minLength"));
        }
        if obj
            .get("maxLength")
            .and_then(V::as_u64)
            .is_some_and(|n| len > n)
        {
            return Some(format!("{path} is longer than maxLength"));
        }
        if let Some(p) = obj.get("pattern").and_then(V::as_str) {
            if regex::Regex::new(p).is_ok_and(|r| !r.is_match(s)) {
                return Some(format!("{path} does not match pattern {}", quote(p)));
            }
        }
    }
    if let Some(x) = v.as_f64() {
        if obj
            .get("minimum")
            .and_then(V::as_f64)
            .is_some_and(|m| x < m)
        {
            return Some(format!("{path} is below minimum"));
        }
        if obj
            .get("maximum")
            .and_then(V::as_f64)
            .is_some_and(|m| x > m)
        {
            return Some(format!("{path} is above maximum"));
        }
    }
    None
}

/// Tool names in a view: `name` (or `function.name`, `tool`) of each
/// element of the top-level array, of a `tools` array, or of `tool_calls`.
fn tool_names(v: &serde_json::Value) -> Vec<String> {
    use serde_json::Value as V;
    let list = match v {
        V::Array(a) => a.clone(),
        V::Object(m) => m
            .get("tools")
            .or_else(|| m.get("tool_calls"))
            .and_then(V::as_array)
            .cloned()
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    list.iter()
        .filter_map(|x| {
            x.get("name")
                .or_else(|| x.get("tool"))
                .or_else(|| x.get("function").and_then(|f| f.get("name")))
                .and_then(V::as_str)
                .map(str::to_string)
        })
        .collect()
}

fn tool_sequence(g: &Grader, c: &Compressed<'_>) -> Option<String> {
    let want: Vec<String> = match option(g, "tools")
        .or_else(|| option(g, "sequence"))
        .or(g.reference.as_ref())
    {
        Some(Yaml::Array(a)) => a.iter().map(go_v).collect(),
        _ => Vec::new(),
    };
    if want.is_empty() {
        return Some("tool_sequence requires a non-empty tools sequence".into());
    }
    let got = serde_json::from_slice(c.output)
        .map(|v| tool_names(&v))
        .unwrap_or_default();
    (got != want).then(|| {
        format!(
            "tool sequence [{}] != expected [{}]",
            got.join(" "),
            want.join(" ")
        )
    })
}
