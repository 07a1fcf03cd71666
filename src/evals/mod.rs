//! `evals run [--fixtures DIR]` (spec/evals.md): the quality-eval harness.
//! Each fixture of a manifest is compressed through the engine into an
//! in-memory store; its retention probes are retained, recoverable or
//! lost; its graders pass or fail; the report and the pixel-density gate
//! are printed as Go's indented JSON. Without `--fixtures` the fixtures
//! built into the binary run (this project's own set).

mod graders;
mod json;
mod manifest;

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use self::json::J;
use self::manifest::{Fixture, Probe};
use crate::content_type::ContentType;
use crate::engine::{self, Options};
use crate::profile::Profile;
use crate::store::Store;

/// The built-in fixture set: (path, bytes), the manifest first.
const BUILTIN: &[(&str, &[u8])] = &[
    ("manifest.yaml", include_bytes!("builtin/manifest.yaml")),
    (
        "api_response.json",
        include_bytes!("builtin/api_response.json"),
    ),
    ("users.json", include_bytes!("builtin/users.json")),
    ("article.html", include_bytes!("builtin/article.html")),
    ("retry.log", include_bytes!("builtin/retry.log")),
    ("build.log", include_bytes!("builtin/build.log")),
    ("customers.csv", include_bytes!("builtin/customers.csv")),
    ("service.yaml", include_bytes!("builtin/service.yaml")),
    ("server.go", include_bytes!("builtin/server.go")),
    ("loader.py", include_bytes!("builtin/loader.py")),
    ("store.ts", include_bytes!("builtin/store.ts")),
    ("tools.json", include_bytes!("builtin/tools.json")),
    ("metrics.json", include_bytes!("builtin/metrics.json")),
    ("nested.json", include_bytes!("builtin/nested.json")),
    ("quoting.json", include_bytes!("builtin/quoting.json")),
    ("note.txt", include_bytes!("builtin/note.txt")),
    ("pytest.txt", include_bytes!("builtin/pytest.txt")),
    ("short.txt", include_bytes!("builtin/short.txt")),
    ("changes.diff", include_bytes!("builtin/changes.diff")),
    ("grep.txt", include_bytes!("builtin/grep.txt")),
];

/// Where the fixtures come from.
pub enum Source {
    /// `--fixtures DIR`: DIR as given.
    Dir(String),
    Builtin,
}

/// What the command line asked for.
pub struct Run {
    pub source: Source,
    pub profile: Profile,
    pub budget: Option<usize>,
}

/// An error that stops the run (printed as `evals: <message>`).
#[derive(Debug)]
pub struct Failure(pub String);

/// The fixture files: a real directory or the embedded set.
enum Files {
    Dir { given: String, real: PathBuf },
    Builtin,
}

impl Files {
    fn open(source: &Source) -> Result<Files, Failure> {
        match source {
            Source::Builtin => Ok(Files::Builtin),
            Source::Dir(given) => {
                let real = std::fs::canonicalize(given).map_err(|_| {
                    Failure(format!(
                        "resolve fixture directory: {}",
                        lstat_error(Path::new(given))
                    ))
                })?;
                Ok(Files::Dir {
                    given: given.clone(),
                    real,
                })
            }
        }
    }

    fn manifest(&self) -> Result<Vec<u8>, Failure> {
        match self {
            Files::Builtin => Ok(BUILTIN[0].1.to_vec()),
            Files::Dir { given, .. } => {
                let p = Path::new(given).join("manifest.yaml");
                std::fs::read(&p).map_err(|e| {
                    Failure(format!(
                        "read manifest: {}",
                        crate::go::os::path_error("open", &p, &e)
                    ))
                })
            }
        }
    }

    /// A payload's bytes (the path rules of spec/evals.md).
    fn payload(&self, file: &str) -> Result<Vec<u8>, Failure> {
        let fail = |m: String| {
            Failure(format!(
                "read fixture {}: {m}",
                crate::go::strconv::quote(file)
            ))
        };
        if !valid_path(file) {
            return Err(fail(format!(
                "invalid fixture path {}",
                crate::go::strconv::quote(file)
            )));
        }
        match self {
            Files::Builtin => BUILTIN
                .iter()
                .find(|(name, _)| *name == file)
                .map(|(_, b)| b.to_vec())
                .ok_or_else(|| fail("not in the built-in set".into())),
            Files::Dir { given, real } => {
                let joined = Path::new(given).join(file);
                let resolved =
                    std::fs::canonicalize(&joined).map_err(|_| fail(lstat_error(&joined)))?;
                if !resolved.starts_with(real) {
                    return Err(fail(format!(
                        "fixture path escapes root: {}",
                        crate::go::strconv::quote(file)
                    )));
                }
                std::fs::read(&resolved)
                    .map_err(|e| fail(crate::go::os::path_error("read", &joined, &e)))
            }
        }
    }
}

/// Go's `lstat` error for the first component of `p` that is missing.
fn lstat_error(p: &Path) -> String {
    let mut prefix = PathBuf::new();
    for c in p.components() {
        prefix.push(c);
        if let Err(e) = std::fs::symlink_metadata(&prefix) {
            return crate::go::os::path_error("lstat", &prefix, &e);
        }
    }
    format!("lstat {}: no such file or directory", p.display())
}

/// An unrooted, clean, `/`-separated path (Go's `fs.ValidPath`).
fn valid_path(p: &str) -> bool {
    !p.is_empty() && p.split('/').all(|e| !e.is_empty() && e != "." && e != "..")
}

/// Counts of probe states.
#[derive(Default, Clone)]
struct Counts {
    total: u64,
    retained: u64,
    recoverable: u64,
    lost: u64,
}

impl Counts {
    fn add(&mut self, state: &str) {
        self.total += 1;
        match state {
            "retained" => self.retained += 1,
            "recoverable" => self.recoverable += 1,
            _ => self.lost += 1,
        }
    }

    fn merge(&mut self, o: &Counts) {
        self.total += o.total;
        self.retained += o.retained;
        self.recoverable += o.recoverable;
        self.lost += o.lost;
    }

    fn json(&self) -> Vec<(String, J)> {
        vec![
            ("total".into(), J::Int(self.total as i64)),
            ("retained".into(), J::Int(self.retained as i64)),
            ("recoverable".into(), J::Int(self.recoverable as i64)),
            ("lost".into(), J::Int(self.lost as i64)),
        ]
    }
}

/// Probe counts with their per-dimension break-down (sorted keys).
#[derive(Default, Clone)]
struct Summary {
    all: Counts,
    by: std::collections::BTreeMap<String, Counts>,
}

impl Summary {
    fn add(&mut self, dim: &str, state: &str) {
        self.all.add(state);
        self.by.entry(dim.to_string()).or_default().add(state);
    }

    fn merge(&mut self, o: &Summary) {
        self.all.merge(&o.all);
        for (k, v) in &o.by {
            self.by.entry(k.clone()).or_default().merge(v);
        }
    }

    fn json(&self) -> J {
        let mut o = self.all.json();
        if self.all.total > 0 {
            o.push((
                "by_dimension".into(),
                J::Obj(
                    self.by
                        .iter()
                        .map(|(k, v)| (k.clone(), J::Obj(v.json())))
                        .collect(),
                ),
            ));
        }
        J::Obj(o)
    }
}

/// Words: maximal runs of Unicode letters (L*) and decimal digits (Nd);
/// each invalid UTF-8 byte is a U+FFFD and separates.
pub fn words(b: &[u8]) -> u64 {
    use crate::go::unicode::{is_decimal, is_letter};
    let text = String::from_utf8_lossy(b);
    let mut n = 0;
    let mut inside = false;
    for c in text.chars() {
        let w = is_letter(c) || is_decimal(c);
        if w && !inside {
            n += 1;
        }
        inside = w;
    }
    n
}

/// `(before - after) / before`, 0 when before <= 0 or after >= before.
fn ratio(before: u64, after: u64) -> f64 {
    if before == 0 || after >= before {
        0.0
    } else {
        (before - after) as f64 / before as f64
    }
}

/// Runs the evals; the report's bytes and whether everything passed.
pub fn run(r: &Run) -> Result<(Vec<u8>, bool), Failure> {
    let files = Files::open(&r.source)?;
    let manifest = files.manifest()?;
    let fixtures = manifest::parse(&manifest)?;
    if fixtures.is_empty() {
        return Err(Failure("manifest has no fixtures".into()));
    }
    let store = Store::in_memory();
    let mut all = Summary::default();
    let (mut tb, mut ta, mut wb, mut wa) = (0u64, 0u64, 0u64, 0u64);
    let mut passed = true;
    let mut out = Vec::new();
    for f in &fixtures {
        let payload = files.payload(&f.file)?;
        let o = fixture(f, &payload, &store, r)?;
        tb += o.tokens_before;
        ta += o.tokens_after;
        wb += o.words_before;
        wa += o.words_after;
        all.merge(&o.summary);
        passed &= o.passed;
        out.push(o.json);
    }
    let report = J::Obj(vec![
        ("passed".into(), J::Bool(passed)),
        ("tokens_before".into(), J::Int(tb as i64)),
        ("tokens_after".into(), J::Int(ta as i64)),
        ("token_ratio".into(), J::Float(ratio(tb, ta))),
        ("words_before".into(), J::Int(wb as i64)),
        ("words_after".into(), J::Int(wa as i64)),
        ("word_ratio".into(), J::Float(ratio(wb, wa))),
        ("probes".into(), all.json()),
        ("fixtures".into(), J::Arr(out)),
    ]);
    let mut bytes = report.pretty();
    bytes.push(b'\n');
    bytes.extend_from_slice(PIXEL_GATE.as_bytes());
    Ok((bytes, passed))
}

/// One fixture's result.
struct Outcome {
    tokens_before: u64,
    tokens_after: u64,
    words_before: u64,
    words_after: u64,
    summary: Summary,
    passed: bool,
    json: J,
}

/// What a grader sees of a compressed fixture.
pub(crate) struct Compressed<'a> {
    pub input: &'a [u8],
    pub output: &'a [u8],
    pub method: &'a str,
    pub ratio: f64,
    pub passed_through: bool,
}

fn fixture(f: &Fixture, payload: &[u8], store: &Store, r: &Run) -> Result<Outcome, Failure> {
    let forced = (!f.kind.is_empty()).then(|| ContentType::from_name(&f.kind));
    let record = f.mode == "record";
    let (ct, output, before, after, engine_ratio, method, handle) = if record {
        let ct = forced.clone().unwrap_or_else(|| {
            let (body, _) = crate::unwrap::unwrap(payload);
            crate::detect::detect_as(&body, r.profile, false, false).ct
        });
        let n = crate::tokens::count(payload);
        (ct, payload.to_vec(), n, n, 0.0, String::new(), None)
    } else {
        let opts = Options {
            forced_type: forced,
            query: f.query.clone(),
            toon_best_of: false,
            profile: r.profile,
            budget: r.budget,
            explain: false,
        };
        let o = engine::compress(payload, &opts, store);
        if let Some(e) = o.report.error {
            return Err(Failure(format!(
                "compress fixture {}: {}",
                crate::go::strconv::quote(&f.name),
                e.code()
            )));
        }
        let rep = &o.report;
        let (method, handle) = match &rep.transformed {
            Some(t) => (
                t.method.as_str().to_string(),
                Some(t.recovery_handle.as_str().to_string()),
            ),
            None => (String::new(), None),
        };
        let output = o.output.clone().unwrap_or_else(|| payload.to_vec());
        (
            rep.content_type.clone(),
            output,
            rep.tokens_before,
            rep.tokens_after,
            rep.ratio,
            method,
            handle,
        )
    };
    let passed_through = handle.is_none() && method.is_empty() && engine_ratio == 0.0;
    let byte_recoverable = match &handle {
        Some(h) => store.get(h).is_ok_and(|b| b == payload),
        None => output == payload,
    };
    let mut failures: Vec<String> = Vec::new();
    let mut probes_json = Vec::new();
    let mut summary = Summary::default();
    for (i, Probe { dimension, value }) in f.probes.iter().enumerate() {
        if value.is_empty() {
            failures.push(format!("retention probe {i} has empty value"));
            continue;
        }
        let dim = {
            let t = String::from_utf8_lossy(crate::go::unicode::trim_space(dimension.as_bytes()))
                .into_owned();
            if t.is_empty() {
                "unspecified".to_string()
            } else {
                t
            }
        };
        let state = if memchr::memmem::find(&output, value.as_bytes()).is_some() {
            "retained"
        } else if byte_recoverable {
            "recoverable"
        } else {
            "lost"
        };
        if state == "lost" {
            failures.push(format!("retention probe {dim} was lost"));
        }
        summary.add(&dim, state);
        let sha: String = Sha256::digest(value.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        probes_json.push(J::Obj(vec![
            ("dimension".into(), J::Str(dim)),
            ("value_sha256".into(), J::Str(format!("sha256:{sha}"))),
            ("state".into(), J::Str(state.into())),
        ]));
    }
    if f.graders.is_empty() {
        failures.push("no graders configured".into());
    }
    let c = Compressed {
        input: payload,
        output: &output,
        method: &method,
        ratio: engine_ratio,
        passed_through,
    };
    for g in &f.graders {
        if let Some(fail) = graders::grade(g, &c) {
            failures.push(fail);
        }
    }
    let (wb, wa) = (words(payload), words(&output));
    let passed = failures.is_empty();
    let mut o = vec![
        ("name".into(), J::Str(f.name.clone())),
        ("content_type".into(), J::Str(ct.as_str().to_string())),
        ("tokens_before".into(), J::Int(before as i64)),
        ("tokens_after".into(), J::Int(after as i64)),
        ("ratio".into(), J::Float(engine_ratio)),
        ("words_before".into(), J::Int(wb as i64)),
        ("words_after".into(), J::Int(wa as i64)),
        ("word_ratio".into(), J::Float(ratio(wb, wa))),
        ("basis".into(), J::Str("inferred".into())),
        ("passed".into(), J::Bool(passed)),
        ("byte_recoverable".into(), J::Bool(byte_recoverable)),
    ];
    if !failures.is_empty() {
        o.push((
            "failures".into(),
            J::Arr(failures.into_iter().map(J::Str).collect()),
        ));
    }
    if !probes_json.is_empty() {
        o.push(("probes".into(), J::Arr(probes_json)));
    }
    if !f.probes.is_empty() {
        o.push(("probe_summary".into(), summary.json()));
    }
    Ok(Outcome {
        tokens_before: before as u64,
        tokens_after: after as u64,
        words_before: wb,
        words_after: wa,
        summary,
        passed,
        json: J::Obj(o),
    })
}

/// The pixel-density gate document (spec/evals.md, PIXEL GATE). This
/// build has no pixel renderer; the document is the gate's constant
/// result for a correct one, byte for byte.
const PIXEL_GATE: &str = include_str!("pixel_gate.json");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_letter_and_digit_runs() {
        assert_eq!(
            words("hello <world> & naïve café — 東京 ２０２４\nsecond line\n".as_bytes()),
            8
        );
    }

    #[test]
    fn paths() {
        assert!(valid_path("a/b.json"));
        for p in ["", ".", "/a", "a/", "a//b", "../x", "a/./b", "a/.."] {
            assert!(!valid_path(p), "{p}");
        }
        assert!(valid_path("a\\b"));
    }

    #[test]
    fn the_built_in_set_runs() {
        let (out, _) = run(&Run {
            source: Source::Builtin,
            profile: Profile::Compat,
            budget: None,
        })
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\"fixtures\": ["), "{text}");
        let (out, passed) = run(&Run {
            source: Source::Builtin,
            profile: Profile::Lean,
            budget: None,
        })
        .unwrap();
        assert!(passed, "{}", String::from_utf8_lossy(&out));
    }
}
