//! `manifest.yaml`: a top-level `fixtures` sequence of fixture mappings,
//! decoded with yaml.v3's rules for the fields the harness reads (a
//! scalar given to a string field becomes its text; unknown keys are
//! ignored; a wrong shape is an error).

use yaml_rust2::{Yaml, YamlLoader};

use super::Failure;

pub struct Probe {
    pub dimension: String,
    pub value: String,
}

pub struct Grader {
    pub kind: String,
    pub min: f64,
    pub max: f64,
    pub value: String,
    pub reference: Option<Yaml>,
    pub options: Option<Yaml>,
}

pub struct Fixture {
    pub name: String,
    pub file: String,
    pub kind: String,
    pub mode: String,
    pub query: String,
    pub probes: Vec<Probe>,
    pub graders: Vec<Grader>,
}

fn parse_error(m: String) -> Failure {
    Failure(format!("parse manifest: yaml: {m}"))
}

fn mismatch(v: &Yaml, into: &str) -> Failure {
    let (tag, text) = match v {
        Yaml::Integer(i) => ("!!int", i.to_string()),
        Yaml::Real(r) => ("!!float", r.clone()),
        Yaml::Boolean(b) => ("!!bool", b.to_string()),
        Yaml::String(s) => ("!!str", s.clone()),
        Yaml::Array(_) => ("!!seq", String::new()),
        Yaml::Hash(_) => ("!!map", String::new()),
        _ => ("!!null", String::new()),
    };
    let shown = if text.is_empty() {
        tag.to_string()
    } else {
        format!("{tag} `{text}`")
    };
    parse_error(format!(
        "unmarshal errors:\n  cannot unmarshal {shown} into {into}"
    ))
}

/// A scalar as a string field reads it; null is empty.
fn string(v: &Yaml, field: &str) -> Result<String, Failure> {
    Ok(match v {
        Yaml::String(s) | Yaml::Real(s) => s.clone(),
        Yaml::Integer(i) => i.to_string(),
        Yaml::Boolean(b) => b.to_string(),
        Yaml::Null | Yaml::BadValue => String::new(),
        other => return Err(mismatch(other, field)),
    })
}

fn number(v: &Yaml, field: &str) -> Result<f64, Failure> {
    match v {
        Yaml::Integer(i) => Ok(*i as f64),
        Yaml::Real(r) => r.parse().map_err(|_| mismatch(v, field)),
        Yaml::Null => Ok(0.0),
        other => Err(mismatch(other, field)),
    }
}

fn get<'a>(m: &'a yaml_rust2::yaml::Hash, k: &str) -> Option<&'a Yaml> {
    m.get(&Yaml::String(k.to_string()))
}

/// yaml.v3 refuses a TAB used as indentation; its message names the line
/// before the offending one.
fn tab_indentation(text: &str) -> Option<usize> {
    for (i, line) in text.lines().enumerate() {
        let rest = line.trim_start_matches(' ');
        if rest.starts_with('\t') && !rest.trim().is_empty() && !rest.trim_start().starts_with('#')
        {
            return Some(i);
        }
    }
    None
}

pub fn parse(bytes: &[u8]) -> Result<Vec<Fixture>, Failure> {
    let text = String::from_utf8_lossy(bytes);
    if let Some(line) = tab_indentation(&text) {
        return Err(parse_error(format!(
            "line {line}: found a tab character that violates indentation"
        )));
    }
    let docs = YamlLoader::load_from_str(&text)
        .map_err(|e| parse_error(format!("line {}: {}", e.marker().line(), e.info())))?;
    let Some(doc) = docs.into_iter().next() else {
        return Ok(Vec::new());
    };
    let top = match &doc {
        Yaml::Hash(h) => h,
        Yaml::Null => return Ok(Vec::new()),
        other => return Err(mismatch(other, "evals.Manifest")),
    };
    let list = match get(top, "fixtures") {
        None | Some(Yaml::Null) => return Ok(Vec::new()),
        Some(Yaml::Array(a)) => a,
        Some(other) => return Err(mismatch(other, "[]evals.Fixture")),
    };
    let mut out = Vec::with_capacity(list.len());
    for item in list {
        let m = match item {
            Yaml::Hash(h) => h,
            Yaml::Null => {
                out.push(fixture_of(&yaml_rust2::yaml::Hash::new())?);
                continue;
            }
            other => return Err(mismatch(other, "evals.Fixture")),
        };
        out.push(fixture_of(m)?);
    }
    Ok(out)
}

fn fixture_of(m: &yaml_rust2::yaml::Hash) -> Result<Fixture, Failure> {
    let s = |k: &str| get(m, k).map_or(Ok(String::new()), |v| string(v, "string"));
    let mut probes = Vec::new();
    match get(m, "probes") {
        None | Some(Yaml::Null) => {}
        Some(Yaml::Array(a)) => {
            for p in a {
                let pm = match p {
                    Yaml::Hash(h) => h.clone(),
                    Yaml::Null => Default::default(),
                    other => return Err(mismatch(other, "evals.Probe")),
                };
                let ps = |k: &str| get(&pm, k).map_or(Ok(String::new()), |v| string(v, "string"));
                probes.push(Probe {
                    dimension: ps("dimension")?,
                    value: ps("value")?,
                });
            }
        }
        Some(other) => return Err(mismatch(other, "[]evals.Probe")),
    }
    let mut graders = Vec::new();
    match get(m, "graders") {
        None | Some(Yaml::Null) => {}
        Some(Yaml::Array(a)) => {
            for g in a {
                let gm = match g {
                    Yaml::Hash(h) => h.clone(),
                    Yaml::Null => Default::default(),
                    other => return Err(mismatch(other, "evals.Grader")),
                };
                let gs = |k: &str| get(&gm, k).map_or(Ok(String::new()), |v| string(v, "string"));
                let gn = |k: &str| get(&gm, k).map_or(Ok(0.0), |v| number(v, "float64"));
                let options = match get(&gm, "options") {
                    None | Some(Yaml::Null) => None,
                    Some(v @ Yaml::Hash(_)) => Some(v.clone()),
                    Some(other) => return Err(mismatch(other, "map[string]interface {}")),
                };
                graders.push(Grader {
                    kind: gs("type")?,
                    min: gn("min")?,
                    max: gn("max")?,
                    value: gs("value")?,
                    reference: get(&gm, "reference").filter(|v| !v.is_null()).cloned(),
                    options,
                });
            }
        }
        Some(other) => return Err(mismatch(other, "[]evals.Grader")),
    }
    Ok(Fixture {
        name: s("name")?,
        file: s("file")?,
        kind: s("type")?,
        mode: s("mode")?,
        query: s("query")?,
        probes,
        graders,
    })
}
