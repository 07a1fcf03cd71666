//! Per-project rules for the agent path (`run` and the hooks): a
//! `.caveman.toml` found by walking up from the working directory, over
//! `config.toml` in the store's home (`~/.caveman/config.toml`), over the
//! built-in defaults. Every value remembers where it came from, so
//! `caveman-engine config` can say so.
//!
//! ```toml
//! profile = "lean"          # run and hooks, when no flag or variable says
//! budget = 4000             # tokens, likewise
//! min_bytes = 2048          # hooks: smaller outputs pass untouched
//! never = ["cat", "git diff", "grep -c"]   # ground truth: never compressed
//! lossless = ["jq"]         # only a lossless view, else untouched
//!
//! [[command]]               # per command; the first match wins
//! match = "cargo test"
//! profile = "lean"
//! budget = 1500
//! type = "terminal"
//! ```
//!
//! A pattern's first word is the program (compared by its base name); each
//! further word must be one of the command's arguments (`grep -c` matches
//! `grep -n -c x`). `compress` itself does not read rules: its bytes stay
//! what its flags say.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::content_type::ContentType;
use crate::profile::Profile;

/// The project file's name.
pub const PROJECT_FILE: &str = ".caveman.toml";
/// The user file's name, in the store's home.
pub const USER_FILE: &str = "config.toml";
/// Hooks: outputs under this many bytes pass untouched.
pub const DEFAULT_MIN_BYTES: usize = 2048;
/// Outputs that are the ground truth an agent acts on: a file's bytes, a
/// patch about to be applied, a count. Never compressed unless a rules
/// file lists the command under `[[command]]`.
pub const DEFAULT_NEVER: [&str; 7] = [
    "cat", "head", "tail", "wc", "grep -c", "git diff", "git show",
];

/// Where a value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    BuiltIn,
    File { path: PathBuf, line: usize },
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::BuiltIn => f.write_str("built-in"),
            Origin::File { path, line } => write!(f, "{}:{line}", path.display()),
        }
    }
}

/// A value and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sourced<T> {
    pub value: T,
    pub origin: Origin,
}

/// One `[[command]]` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandRule {
    pub pattern: String,
    pub profile: Option<Profile>,
    pub budget: Option<usize>,
    pub content_type: Option<ContentType>,
    pub origin: Origin,
}

/// The effective rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    pub profile: Option<Sourced<Profile>>,
    pub budget: Option<Sourced<usize>>,
    pub min_bytes: Sourced<usize>,
    pub never: Vec<Sourced<String>>,
    pub lossless: Vec<Sourced<String>>,
    pub commands: Vec<CommandRule>,
    /// The files read, in the order they were applied.
    pub files: Vec<PathBuf>,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            profile: None,
            budget: None,
            min_bytes: Sourced {
                value: DEFAULT_MIN_BYTES,
                origin: Origin::BuiltIn,
            },
            never: DEFAULT_NEVER
                .iter()
                .map(|p| Sourced {
                    value: p.to_string(),
                    origin: Origin::BuiltIn,
                })
                .collect(),
            lossless: Vec::new(),
            commands: Vec::new(),
            files: Vec::new(),
        }
    }
}

/// A rules file that cannot be used: where, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    pub path: PathBuf,
    /// 1-based; 0 when the file could not be read at all.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.path.display(), self.message)
        } else {
            write!(f, "{}:{}: {}", self.path.display(), self.line, self.message)
        }
    }
}

/// What the rules say about one command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    /// Leave its output untouched (the `never` entry that says so).
    Never(Sourced<String>),
    /// Compress; only a lossless view may be shown when `lossless` holds.
    Compress {
        profile: Option<Sourced<Profile>>,
        budget: Option<Sourced<usize>>,
        content_type: Option<ContentType>,
        lossless: Option<Sourced<String>>,
    },
}

/// The files that apply from `cwd`: the user's, then the nearest project's.
pub fn files(cwd: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(home) = crate::ledger::home() {
        let p = home.join(USER_FILE);
        if p.is_file() {
            out.push(p);
        }
    }
    let mut dir = Some(cwd);
    while let Some(d) = dir {
        let p = d.join(PROJECT_FILE);
        if p.is_file() {
            out.push(p);
            break;
        }
        dir = d.parent();
    }
    out
}

/// The effective rules from `cwd`.
pub fn load(cwd: &Path) -> Result<Rules, Invalid> {
    let mut rules = Rules::default();
    for path in files(cwd) {
        let text = std::fs::read_to_string(&path).map_err(|e| Invalid {
            path: path.clone(),
            line: 0,
            message: crate::go::os::errno_text(&e),
        })?;
        apply(&mut rules, &path, &text)?;
        rules.files.push(path);
    }
    Ok(rules)
}

/// The 1-based line of byte `at` in `text`.
fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// Applies one file's text over `rules` (lists add, values replace).
pub fn apply(rules: &mut Rules, path: &Path, text: &str) -> Result<(), Invalid> {
    let doc = toml_edit::Document::parse(text).map_err(|e| Invalid {
        path: path.to_path_buf(),
        line: e.span().map_or(1, |s| line_of(text, s.start)),
        message: e.message().trim().to_string(),
    })?;
    let at = |span: Option<std::ops::Range<usize>>| Origin::File {
        path: path.to_path_buf(),
        line: span.map_or(1, |s| line_of(text, s.start)),
    };
    let bad = |span: Option<std::ops::Range<usize>>, message: String| Invalid {
        path: path.to_path_buf(),
        line: span.map_or(1, |s| line_of(text, s.start)),
        message,
    };
    for (key, item) in doc.as_table().iter() {
        let span = doc
            .as_table()
            .key(key)
            .and_then(|k| k.span())
            .or_else(|| item.span());
        match key {
            "profile" => {
                let p = profile_of(item).ok_or_else(|| {
                    bad(span.clone(), "profile must be \"compat\" or \"lean\"".into())
                })?;
                rules.profile = Some(Sourced {
                    value: p,
                    origin: at(span),
                });
            }
            "budget" => {
                let b = positive(item).ok_or_else(|| {
                    bad(span.clone(), "budget must be a whole number of tokens above 0".into())
                })?;
                rules.budget = Some(Sourced {
                    value: b,
                    origin: at(span),
                });
            }
            "min_bytes" => {
                let n = item
                    .as_integer()
                    .filter(|&n| n >= 0)
                    .ok_or_else(|| bad(span.clone(), "min_bytes must be a whole number".into()))?;
                rules.min_bytes = Sourced {
                    value: n as usize,
                    origin: at(span),
                };
            }
            "never" | "lossless" => {
                let list = strings(item).ok_or_else(|| {
                    bad(span.clone(), format!("{key} must be a list of commands, e.g. [\"cat\"]"))
                })?;
                let target = if key == "never" {
                    &mut rules.never
                } else {
                    &mut rules.lossless
                };
                for s in list {
                    target.push(Sourced {
                        value: s,
                        origin: at(span.clone()),
                    });
                }
            }
            "command" => {
                let tables = item.as_array_of_tables().ok_or_else(|| {
                    bad(span.clone(), "command must be tables: [[command]] with match = \"…\"".into())
                })?;
                for t in tables.iter() {
                    let tspan = t.span();
                    let mut rule = CommandRule {
                        pattern: String::new(),
                        profile: None,
                        budget: None,
                        content_type: None,
                        origin: at(tspan.clone()),
                    };
                    for (k, v) in t.iter() {
                        let kspan = t.key(k).and_then(|k| k.span()).or_else(|| v.span());
                        match k {
                            "match" => {
                                rule.pattern = v
                                    .as_str()
                                    .filter(|s| !s.trim().is_empty())
                                    .ok_or_else(|| {
                                        bad(kspan.clone(), "match must be a command, e.g. \"cargo test\"".into())
                                    })?
                                    .trim()
                                    .to_string()
                            }
                            "profile" => {
                                rule.profile = Some(profile_of(v).ok_or_else(|| {
                                    bad(kspan.clone(), "profile must be \"compat\" or \"lean\"".into())
                                })?)
                            }
                            "budget" => {
                                rule.budget = Some(positive(v).ok_or_else(|| {
                                    bad(kspan.clone(), "budget must be a whole number of tokens above 0".into())
                                })?)
                            }
                            "type" => {
                                let name = v.as_str().unwrap_or("");
                                rule.content_type = match ContentType::from_name(name) {
                                    ContentType::Other(_) => {
                                        return Err(bad(
                                            kspan.clone(),
                                            format!("type {name:?} is not a content type"),
                                        ))
                                    }
                                    ct => Some(ct),
                                };
                            }
                            other => {
                                return Err(bad(
                                    kspan.clone(),
                                    format!(
                                        "unknown key {other:?} in [[command]] (match, profile, budget, type)"
                                    ),
                                ))
                            }
                        }
                    }
                    if rule.pattern.is_empty() {
                        return Err(bad(tspan, "[[command]] needs match = \"…\"".into()));
                    }
                    rules.commands.push(rule);
                }
            }
            other => {
                return Err(bad(
                    span,
                    format!(
                        "unknown key {other:?} (profile, budget, min_bytes, never, lossless, [[command]])"
                    ),
                ))
            }
        }
    }
    Ok(())
}

fn profile_of(item: &toml_edit::Item) -> Option<Profile> {
    item.as_str().and_then(Profile::from_name)
}

fn positive(item: &toml_edit::Item) -> Option<usize> {
    item.as_integer().filter(|&n| n > 0).map(|n| n as usize)
}

fn strings(item: &toml_edit::Item) -> Option<Vec<String>> {
    let arr = item.as_array()?;
    arr.iter()
        .map(|v| {
            v.as_str()
                .filter(|s| !s.trim().is_empty())
                .map(|s| s.trim().to_string())
        })
        .collect()
}

/// The words of a simple command, leading `VAR=value` assignments dropped.
pub fn words(command: &str) -> Vec<&str> {
    command
        .split_whitespace()
        .skip_while(|w| {
            w.split_once('=').is_some_and(|(k, _)| {
                !k.is_empty() && k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            })
        })
        .collect()
}

/// Whether `pattern` names the simple command `words`.
pub fn matches(pattern: &str, words: &[&str]) -> bool {
    let mut p = pattern.split_whitespace();
    let (Some(prog), Some(first)) = (p.next(), words.first()) else {
        return false;
    };
    let base = first.rsplit('/').next().unwrap_or(first);
    if base != prog && *first != prog {
        return false;
    }
    p.all(|w| words[1..].contains(&w))
}

impl Rules {
    /// What the rules say about the simple command `words`.
    pub fn plan(&self, words: &[&str]) -> Plan {
        let rule = self
            .commands
            .iter()
            .rev()
            .find(|r| matches(&r.pattern, words));
        // A [[command]] rule names the command on purpose: it wins over
        // the built-in `never` list (a file's own `never` still wins).
        let never =
            self.never.iter().rev().find(|n| {
                matches(&n.value, words) && (rule.is_none() || n.origin != Origin::BuiltIn)
            });
        if let Some(n) = never {
            return Plan::Never(n.clone());
        }
        let lossless = self
            .lossless
            .iter()
            .rev()
            .find(|n| matches(&n.value, words))
            .cloned();
        match rule {
            Some(r) => Plan::Compress {
                profile: r
                    .profile
                    .map(|p| Sourced {
                        value: p,
                        origin: r.origin.clone(),
                    })
                    .or_else(|| self.profile.clone()),
                budget: r
                    .budget
                    .map(|b| Sourced {
                        value: b,
                        origin: r.origin.clone(),
                    })
                    .or_else(|| self.budget.clone()),
                content_type: r.content_type.clone(),
                lossless,
            },
            None => Plan::Compress {
                profile: self.profile.clone(),
                budget: self.budget.clone(),
                content_type: None,
                lossless,
            },
        }
    }

    /// The effective rules as `caveman-engine config` prints them.
    pub fn describe(&self) -> String {
        let mut o = String::new();
        if self.files.is_empty() {
            o.push_str("# no rules file: built-in defaults only\n");
        }
        for f in &self.files {
            o.push_str(&format!("# read {}\n", f.display()));
        }
        match &self.profile {
            Some(p) => o.push_str(&format!(
                "profile = {:?}    # {}\n",
                p.value.as_str(),
                p.origin
            )),
            None => {
                o.push_str("# profile: from --profile or CAVEMAN_ENGINE_PROFILE, else compat\n")
            }
        }
        match &self.budget {
            Some(b) => o.push_str(&format!("budget = {}    # {}\n", b.value, b.origin)),
            None => o.push_str("# budget: none\n"),
        }
        o.push_str(&format!(
            "min_bytes = {}    # {}\n",
            self.min_bytes.value, self.min_bytes.origin
        ));
        for (name, list) in [("never", &self.never), ("lossless", &self.lossless)] {
            if list.is_empty() {
                o.push_str(&format!("{name} = []\n"));
                continue;
            }
            o.push_str(&format!("{name} = [\n"));
            for n in list {
                o.push_str(&format!("  {:?},    # {}\n", n.value, n.origin));
            }
            o.push_str("]\n");
        }
        for r in &self.commands {
            o.push_str(&format!(
                "\n[[command]]    # {}\nmatch = {:?}\n",
                r.origin, r.pattern
            ));
            if let Some(p) = r.profile {
                o.push_str(&format!("profile = {:?}\n", p.as_str()));
            }
            if let Some(b) = r.budget {
                o.push_str(&format!("budget = {b}\n"));
            }
            if let Some(t) = &r.content_type {
                o.push_str(&format!("type = {:?}\n", t.as_str()));
            }
        }
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Result<Rules, Invalid> {
        let mut r = Rules::default();
        apply(&mut r, Path::new("/p/.caveman.toml"), text).map(|_| r)
    }

    #[test]
    fn errors_name_the_line() {
        let e = parsed("profile = \"lean\"\n\nprofil = 3\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(
            e.to_string()
                .starts_with("/p/.caveman.toml:3: unknown key \"profil\""),
            "{e}"
        );
        let e = parsed("budget = 0\n").unwrap_err();
        assert_eq!(
            (e.line, e.message.as_str()),
            (1, "budget must be a whole number of tokens above 0")
        );
        let e = parsed("a = [\n").unwrap_err();
        assert!(e.line >= 1, "{e}");
        let e = parsed("[[command]]\nmatch = \"x\"\ntype = \"nope\"\n").unwrap_err();
        assert_eq!(e.line, 3);
        let e = parsed("[[command]]\nprofile = \"lean\"\n").unwrap_err();
        assert!(e.message.contains("needs match"), "{e}");
    }

    #[test]
    fn plans() {
        let r = parsed(
            "profile = \"lean\"\nnever = [\"kubectl get secret\"]\nlossless = [\"jq\"]\n\
             [[command]]\nmatch = \"cargo test\"\nbudget = 1500\ntype = \"terminal\"\n\
             [[command]]\nmatch = \"cat\"\n",
        )
        .unwrap();
        match r.plan(&words("cargo test --release")) {
            Plan::Compress {
                profile,
                budget,
                content_type,
                lossless,
            } => {
                assert_eq!(profile.unwrap().value, Profile::Lean);
                let b = budget.unwrap();
                assert_eq!(b.value, 1500);
                assert_eq!(b.origin.to_string(), "/p/.caveman.toml:4");
                assert_eq!(content_type, Some(ContentType::Terminal));
                assert!(lossless.is_none());
            }
            p => panic!("{p:?}"),
        }
        assert!(
            matches!(r.plan(&words("RUST_LOG=1 /usr/bin/git diff HEAD")), Plan::Never(n) if n.origin == Origin::BuiltIn)
        );
        assert!(matches!(
            r.plan(&words("kubectl get secret x")),
            Plan::Never(_)
        ));
        assert!(matches!(r.plan(&words("grep -n -c x f")), Plan::Never(_)));
        // A [[command]] naming a built-in never entry wins over it.
        assert!(matches!(
            r.plan(&words("cat big.log")),
            Plan::Compress { .. }
        ));
        assert!(matches!(
            r.plan(&words("jq . x.json")),
            Plan::Compress {
                lossless: Some(_),
                ..
            }
        ));
        assert!(matches!(
            r.plan(&words("grep x f")),
            Plan::Compress { lossless: None, .. }
        ));
    }
}
