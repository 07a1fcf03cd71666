//! The lean config view: which dialect the text is (YAML, TOML, INI,
//! .env, .properties), its line tree, the plan of what folds, and the
//! check that the view parses in the same dialect as a sub-tree of the
//! original. A view that fails the check is made again with comments
//! folded only; if that fails too, the input passes through.

use super::check::{self, Mode, Value};
use super::plan::{self, Rules};
use super::tree::Tree;
use super::{ini, toml_tree, yaml};
use crate::compress::shared::lines::{join_lines, Lines};
use crate::compress::{Compressed, Decline};
use crate::detect::ConfigKind;

/// Larger configs pass through: the check parses the text twice over.
const MAX_BYTES: usize = 8 << 20;
/// A view that saves less than this share of the tokens (in percent) is
/// not worth a marker a reader has to follow: the config passes whole.
const MIN_SAVED_PCT: usize = 5;

/// The dialect of a config text, `hint` (what detection named) tried
/// first; `None` when the text is none of them. Detection may call this
/// to name INI, .env and .properties apart.
pub(crate) fn dialect(text: &str, hint: Option<ConfigKind>) -> Option<ConfigKind> {
    sniff(text, hint).map(|x| x.0)
}

/// The dialect and, when it was parsed on the way, the value and how it
/// was read.
fn sniff(text: &str, hint: Option<ConfigKind>) -> Option<(ConfigKind, Option<(Value, Mode)>)> {
    let yaml = || {
        check::parse_mode(ConfigKind::Yaml, text).filter(|(v, _)| {
            matches!(v, Value::Seq(docs) if docs.iter().any(|d| !matches!(d, Value::Scalar(_))))
        })
    };
    let yaml_first = hint == Some(ConfigKind::Yaml);
    if yaml_first {
        if let Some(v) = yaml() {
            return Some((ConfigKind::Yaml, Some(v)));
        }
    }
    if let Some(v) = check::parse(ConfigKind::Toml, text) {
        if !matches!(&v, Value::Map(m) if m.is_empty()) {
            return Some((ConfigKind::Toml, Some((v, Mode::Strict))));
        }
    }
    if !yaml_first {
        if let Some(v) = yaml() {
            return Some((ConfigKind::Yaml, Some(v)));
        }
    }
    if ini::looks_ini(text) {
        Some((ConfigKind::Ini, None))
    } else if ini::looks_env(text) {
        Some((ConfigKind::Env, None))
    } else if ini::looks_properties(text) {
        Some((ConfigKind::Properties, None))
    } else {
        None
    }
}

fn scan<'a>(kind: ConfigKind, lines: Vec<&'a str>) -> Option<Tree<'a>> {
    match kind {
        ConfigKind::Yaml => yaml::scan(lines),
        ConfigKind::Toml => toml_tree::scan(lines),
        ConfigKind::Ini => ini::scan_ini(lines),
        ConfigKind::Env | ConfigKind::Properties => ini::scan_flat(lines, kind),
    }
}

pub(super) fn run(
    text: &str,
    hint: Option<ConfigKind>,
    query: &str,
) -> Result<Compressed, Decline> {
    if text.len() > MAX_BYTES {
        return Err(Decline("a config over 8 MiB passes through"));
    }
    let (kind, parsed) = sniff(text, hint).ok_or(Decline(
        "not YAML, TOML, INI, .env or .properties that parses",
    ))?;
    let (original, mode) = match parsed {
        Some(v) => v,
        None => check::parse_mode(kind, text).ok_or(Decline("the config does not parse"))?,
    };
    let doc = Lines::split(text);
    let lines: Vec<&str> = doc
        .iter()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let tree =
        scan(kind, lines).ok_or(Decline("a config shape the lean reader does not follow"))?;
    let query: Vec<String> = query
        .split_whitespace()
        .filter(|w| w.chars().count() >= 2)
        .map(str::to_lowercase)
        .collect();
    for lists in [true, false] {
        let rules = Rules {
            lists,
            query: query.clone(),
            repeats: kind == ConfigKind::Yaml,
        };
        let plan = plan::plan(&tree, &rules);
        if plan.groups.is_empty() {
            if lists {
                continue;
            }
            return Err(Decline(
                "nothing folds: every line is a key, a value or a short comment",
            ));
        }
        let (pieces, trace) = plan::render(&tree, &plan);
        let out = join_lines(&doc, &pieces);
        let holds = std::str::from_utf8(&out)
            .ok()
            .and_then(|v| check::parse_as(kind, v, mode))
            .is_some_and(|v| check::sub(&v, &original));
        if holds {
            let (before, after) = (
                crate::tokens::count(text.as_bytes()),
                crate::tokens::count(&out),
            );
            if after * 100 > before * (100 - MIN_SAVED_PCT) {
                return Err(Decline("the view saves under 5 %: the config passes whole"));
            }
            return Ok(Compressed::traced(out, trace));
        }
    }
    Err(Decline(
        "the view would not parse as a sub-tree of the original",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialects_are_told_apart() {
        assert_eq!(dialect("a: 1\nb:\n  - x\n", None), Some(ConfigKind::Yaml));
        assert_eq!(dialect("[a]\nb = \"x\"\n", None), Some(ConfigKind::Toml));
        assert_eq!(dialect("[a]\nb = x y\n", None), Some(ConfigKind::Ini));
        assert_eq!(dialect("A=hello world\nB=2\n", None), Some(ConfigKind::Env));
        assert_eq!(
            dialect("a.b=x y\nc.d = z\n", None),
            Some(ConfigKind::Properties)
        );
        assert_eq!(dialect("just prose here\nand more of it\n", None), None);
        assert_eq!(
            dialect("a: 1\n", Some(ConfigKind::Toml)),
            Some(ConfigKind::Yaml)
        );
    }

    #[test]
    fn the_view_is_checked_and_small_configs_pass() {
        assert!(run("a: 1\nb: 2\n", None, "").is_err());
        let src = "# a comment that is long enough to be folded into a marker line\n# and one more line of it, and a third one: three lines of remarks\n# about the one key below, which is all this file holds\na: 1\n";
        let v = run(src, None, "").unwrap();
        assert_eq!(
            String::from_utf8(v.bytes).unwrap(),
            "# \u{2026} 3 comment lines elided (caveman) \u{2026}\na: 1\n"
        );
    }
}
