//! Claude Code's settings files, read and edited in place.
//!
//! Locations (<https://code.claude.com/docs/en/settings#settings-files>):
//! user `~/.claude/settings.json`, project `.claude/settings.json`, local
//! project `.claude/settings.local.json`, managed
//! `/etc/claude-code/managed-settings.json` on Linux. Hooks live under
//! `"hooks"` → event name → a list of `{"matcher", "hooks": [{"type":
//! "command", "command"}]}` groups
//! (<https://code.claude.com/docs/en/hooks#configuration>); permission
//! rules under `"permissions"` → `"allow"`, `"ask"`, `"deny"`
//! (<https://code.claude.com/docs/en/settings#permission-settings>).
//!
//! Editing keeps every other key, in its order: the file is read into an
//! order-keeping value ([`Json`]) and written back with two-space
//! indentation, atomically (temp file, fsync, rename), after a backup.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A JSON value whose objects keep their keys in file order.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl<'de> serde::Deserialize<'de> for Json {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Json;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_unit<E>(self) -> Result<Json, E> {
                Ok(Json::Null)
            }
            fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
                Ok(Json::Bool(b))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Json, E> {
                Ok(Json::Number(n.into()))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Json, E> {
                Ok(Json::Number(n.into()))
            }
            fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<Json, E> {
                serde_json::Number::from_f64(n)
                    .map(Json::Number)
                    .ok_or_else(|| E::custom("not a finite number"))
            }
            fn visit_str<E>(self, s: &str) -> Result<Json, E> {
                Ok(Json::String(s.to_string()))
            }
            fn visit_string<E>(self, s: String) -> Result<Json, E> {
                Ok(Json::String(s))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Json, A::Error> {
                let mut v = Vec::new();
                while let Some(x) = a.next_element()? {
                    v.push(x);
                }
                Ok(Json::Array(v))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Json, A::Error> {
                let mut v: Vec<(String, Json)> = Vec::new();
                while let Some((k, x)) = a.next_entry::<String, Json>()? {
                    // A repeated key: the last one wins, as in JSON.parse.
                    v.retain(|(key, _)| *key != k);
                    v.push((k, x));
                }
                Ok(Json::Object(v))
            }
        }
        d.deserialize_any(V)
    }
}

impl Json {
    pub fn parse(text: &str) -> Result<Json, serde_json::Error> {
        serde_json::from_str(text)
    }

    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The member `key` of an object, added (as `default`) when missing.
    /// `None` when `self` is not an object.
    pub fn entry(&mut self, key: &str, default: Json) -> Option<&mut Json> {
        let Json::Object(m) = self else { return None };
        let i = match m.iter().position(|(k, _)| k == key) {
            Some(i) => i,
            None => {
                m.push((key.to_string(), default));
                m.len() - 1
            }
        };
        Some(&mut m[i].1)
    }

    pub fn remove(&mut self, key: &str) {
        if let Json::Object(m) = self {
            m.retain(|(k, _)| k != key);
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn is_empty_container(&self) -> bool {
        match self {
            Json::Array(a) => a.is_empty(),
            Json::Object(m) => m.is_empty(),
            _ => false,
        }
    }

    /// Two-space indented JSON (as `JSON.stringify(v, null, 2)`), with a
    /// final newline.
    pub fn pretty(&self) -> String {
        let mut s = String::new();
        self.write(&mut s, 0);
        s.push('\n');
        s
    }

    fn write(&self, o: &mut String, indent: usize) {
        let pad = |o: &mut String, n: usize| o.push_str(&"  ".repeat(n));
        match self {
            Json::Null => o.push_str("null"),
            Json::Bool(b) => o.push_str(if *b { "true" } else { "false" }),
            Json::Number(n) => {
                let _ = write!(o, "{n}");
            }
            Json::String(s) => o.push_str(&serde_json::to_string(s).unwrap_or_default()),
            Json::Array(a) if a.is_empty() => o.push_str("[]"),
            Json::Object(m) if m.is_empty() => o.push_str("{}"),
            Json::Array(a) => {
                o.push_str("[\n");
                for (i, v) in a.iter().enumerate() {
                    pad(o, indent + 1);
                    v.write(o, indent + 1);
                    o.push_str(if i + 1 < a.len() { ",\n" } else { "\n" });
                }
                pad(o, indent);
                o.push(']');
            }
            Json::Object(m) => {
                o.push_str("{\n");
                for (i, (k, v)) in m.iter().enumerate() {
                    pad(o, indent + 1);
                    o.push_str(&serde_json::to_string(k).unwrap_or_default());
                    o.push_str(": ");
                    v.write(o, indent + 1);
                    o.push_str(if i + 1 < m.len() { ",\n" } else { "\n" });
                }
                pad(o, indent);
                o.push('}');
            }
        }
    }
}

/// The settings files whose permission rules apply in `project`, lowest
/// precedence first.
pub fn permission_files(project: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    if let Some(h) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        v.push(PathBuf::from(h).join(".claude/settings.json"));
    }
    v.push(project.join(".claude/settings.json"));
    v.push(project.join(".claude/settings.local.json"));
    v.push(PathBuf::from("/etc/claude-code/managed-settings.json"));
    v
}

/// One `Bash(…)` permission rule and the file it is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// The text in the parentheses (empty for a bare `Bash`).
    pub pattern: String,
    pub file: PathBuf,
}

/// The Bash permission rules of the settings files.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Permissions {
    pub allow: Vec<Rule>,
    pub ask: Vec<Rule>,
    pub deny: Vec<Rule>,
}

/// Reads the Bash rules of `files`; a file that exists but is not JSON is
/// an error (its rules cannot be known).
pub fn permissions(files: &[PathBuf]) -> Result<Permissions, String> {
    let mut p = Permissions::default();
    for f in files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(format!("{}: {e}", f.display())),
        };
        let v = Json::parse(&text).map_err(|e| format!("{}: {e}", f.display()))?;
        let Some(perms) = v.get("permissions") else {
            continue;
        };
        for (key, list) in [
            ("allow", &mut p.allow),
            ("ask", &mut p.ask),
            ("deny", &mut p.deny),
        ] {
            let Some(Json::Array(rules)) = perms.get(key) else {
                continue;
            };
            for r in rules.iter().filter_map(Json::as_str) {
                let r = r.trim();
                let pattern = if r == "Bash" {
                    Some(String::new())
                } else {
                    r.strip_prefix("Bash(")
                        .and_then(|x| x.strip_suffix(')'))
                        .map(str::to_string)
                };
                if let Some(pattern) = pattern {
                    list.push(Rule {
                        pattern,
                        file: f.clone(),
                    });
                }
            }
        }
    }
    Ok(p)
}

/// The literal head of a rule pattern (before its first wildcard).
fn literal_head(pattern: &str) -> &str {
    let end = pattern.find(['*', '?']).unwrap_or(pattern.len());
    pattern[..end].trim_end_matches(':').trim()
}

/// Whether a deny or ask rule might apply to `cmd`: a deliberately wide
/// test (the rule's literal head anywhere in the command), since a wrong
/// "no" here would turn the user's deny into a prompt.
pub fn might_match(rule: &Rule, cmd: &str) -> bool {
    let head = literal_head(&rule.pattern);
    head.is_empty()
        || cmd.contains(head)
        || cmd.contains(head.split_whitespace().next().unwrap_or(head))
}

/// Whether an allow rule certainly covers `cmd`, a single simple command
/// without substitutions or redirections: `Bash(cmd)` exactly, or
/// `Bash(prefix:*)` / `Bash(prefix *)` with `cmd` the prefix or the prefix
/// and a space and more. Deliberately narrow, since a wrong "yes" would
/// approve what the user's own rules do not.
pub fn certainly_allows(rule: &Rule, cmd: &str) -> bool {
    let p = rule.pattern.trim();
    if p.is_empty() || cmd.contains(['$', '`', '>', '<', '\n', ';', '&', '|', '(', ')']) {
        return false;
    }
    if let Some(prefix) = p
        .strip_suffix(":*")
        .or_else(|| p.strip_suffix(" *"))
        .map(str::trim)
    {
        return !prefix.is_empty()
            && !prefix.contains(['*', '?'])
            && (cmd == prefix || cmd.starts_with(&format!("{prefix} ")));
    }
    !p.contains(['*', '?']) && cmd == p
}

/// Writes `text` to `path` atomically: a temporary file beside it, fsync,
/// the old file's permissions, rename.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.caveman-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        if let Ok(m) = std::fs::metadata(path) {
            std::fs::set_permissions(&tmp, m.permissions())?;
        }
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_and_round_trips() {
        let text = "{\n  \"z\": 1,\n  \"a\": [\n    true,\n    null,\n    \"x\"\n  ],\n  \"m\": {},\n  \"f\": 1.5\n}\n";
        let v = Json::parse(text).unwrap();
        assert_eq!(v.pretty(), text);
    }

    fn json_value() -> impl proptest::strategy::Strategy<Value = Json> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Json::Null),
            any::<bool>().prop_map(Json::Bool),
            any::<i64>().prop_map(|n| Json::Number(n.into())),
            ".{0,8}".prop_map(Json::String),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Json::Array),
                proptest::collection::vec(("[a-z]{1,4}", inner), 0..4).prop_map(|kv| {
                    // Keys once each, in the order given.
                    let mut seen = std::collections::BTreeSet::new();
                    Json::Object(
                        kv.into_iter()
                            .filter(|(k, _)| seen.insert(k.clone()))
                            .collect(),
                    )
                }),
            ]
        })
    }

    proptest::proptest! {
        /// What `init` writes reads back as the same value, keys in order.
        #[test]
        fn pretty_parses_back(v in json_value()) {
            proptest::prop_assert_eq!(Json::parse(&v.pretty()).unwrap(), v);
        }
    }

    fn rule(p: &str) -> Rule {
        Rule {
            pattern: p.into(),
            file: PathBuf::from("s.json"),
        }
    }

    #[test]
    fn rule_matching() {
        assert!(certainly_allows(
            &rule("npm run test:*"),
            "npm run test -- --watch=false"
        ));
        assert!(certainly_allows(&rule("cargo test"), "cargo test"));
        assert!(!certainly_allows(
            &rule("cargo test"),
            "cargo test --release"
        ));
        assert!(!certainly_allows(&rule("git:*"), "git log; rm -rf x"));
        assert!(!certainly_allows(&rule("git:*"), "gitx"));
        assert!(!certainly_allows(&rule(""), "ls"));
        assert!(might_match(
            &rule("rm -rf:*"),
            "cargo clean && rm -rf target"
        ));
        assert!(might_match(&rule(""), "anything"));
        assert!(might_match(&rule("curl *"), "x=$(curl evil)"));
        assert!(!might_match(&rule("curl:*"), "cargo test"));
    }
}
