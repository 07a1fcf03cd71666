//! Dependency manifests and lock files that are neither TOML nor YAML
//! (pip requirements, `go.mod`/`go.sum`, `Gemfile.lock`) and XML
//! documents (build files, app manifests): configs, whose every line is
//! a member an agent may ask for. The config compressor reads none of
//! these dialects, so they pass whole: a wrong guess as a log or a list
//! of paths would drop members by position.

use super::{share, Ctx, Hit};
use crate::content_type::ContentType;

/// A dialect's reader: the lines of a sample it explains, if it holds.
type Explain = fn(&[&str]) -> Option<usize>;

/// Member lines a manifest needs.
const MIN_MEMBERS: usize = 3;

/// A dependency manifest, a lock file or an XML document: the rule, and
/// the share of the sample's lines it explains.
pub(super) fn manifest<'b>(ctx: &Ctx<'b, '_>) -> Option<Hit<'b>> {
    let s = &ctx.sample;
    if s.non_blank < MIN_MEMBERS {
        return None;
    }
    let rules: [(&'static str, Explain); 4] = [
        (
            "pip requirements: pinned packages and pip options",
            requirements,
        ),
        (
            "a Go module file: module, go, require and replace lines",
            go_module,
        ),
        (
            "a Bundler lock file: GEM, PLATFORMS, DEPENDENCIES sections",
            gem_lock,
        ),
        ("an XML document (not HTML, not a test report)", xml),
    ];
    let lines: Vec<&str> = s
        .lines
        .iter()
        .copied()
        .filter(|l| !l.trim().is_empty())
        .collect();
    rules.iter().find_map(|(rule, f)| {
        let explained = f(&lines)?;
        let score = share(explained, s.non_blank);
        (score >= 90).then(|| Hit::new(ContentType::Config, rule, score))
    })
}

/// A package name as pip reads it: letters, digits, `.`, `_`, `-`,
/// starting with a letter or digit, with optional `[extras]`.
fn package(t: &str) -> Option<&str> {
    let end = t
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
        .unwrap_or(t.len());
    if end == 0 || !t.as_bytes()[0].is_ascii_alphanumeric() {
        return None;
    }
    let rest = &t[end..];
    match rest.strip_prefix('[') {
        Some(r) => r.find(']').map(|k| &r[k + 1..]),
        None => Some(rest),
    }
}

/// pip requirement lines: the lines explained, when at least
/// [`MIN_MEMBERS`] pin a version (`pkg==1.2`, `pkg>=1,<2`) or are pip
/// options (`-e git+…`, `-r base.txt`, `--index-url …`).
fn requirements(lines: &[&str]) -> Option<usize> {
    let (mut pinned, mut explained) = (0, 0);
    for l in lines {
        let t = l.trim();
        if t.starts_with('#') {
            explained += 1;
        } else if let Some(opt) = t.strip_prefix('-') {
            let short = matches!(opt.as_bytes(), [b'e' | b'r' | b'c', b' ', ..]);
            let long = [
                "-index-url",
                "-extra-index-url",
                "-find-links",
                "-trusted-host",
                "-requirement",
                "-constraint",
                "-editable",
                "-hash",
                "-pre",
                "-no-binary",
                "-only-binary",
                "-no-index",
            ]
            .iter()
            .any(|o| opt.starts_with(o));
            if !(short || long) {
                return None;
            }
            pinned += 1;
            explained += 1;
        } else if let Some(rest) = package(t) {
            let rest = rest.trim_start();
            let spec = ["===", "==", ">=", "<=", "~=", "!=", ">", "<"]
                .iter()
                .any(|op| rest.starts_with(op));
            if spec || rest.starts_with("@ ") {
                pinned += 1;
            } else if !(rest.is_empty() || rest.starts_with(';') || rest.starts_with('#')) {
                return None;
            }
            explained += 1;
        } else {
            return None;
        }
    }
    (pinned >= MIN_MEMBERS).then_some(explained)
}

/// A module path and version line of `go.mod`'s `require` block or of
/// `go.sum` (`example.com/a v1.2.3 h1:…=`).
fn module_version(t: &str) -> bool {
    let mut w = t.split_whitespace();
    let (Some(path), Some(version)) = (w.next(), w.next()) else {
        return false;
    };
    path.contains(['.', '/'])
        && version.starts_with('v')
        && version[1..].starts_with(|c: char| c.is_ascii_digit())
}

/// `go.mod` or `go.sum`: the lines explained, when the first line is
/// `module …` (or every line a `go.sum` hash line).
fn go_module(lines: &[&str]) -> Option<usize> {
    let first = lines.iter().find(|l| !l.trim_start().starts_with("//"))?;
    let is_sum = |l: &str| module_version(l) && l.split_whitespace().any(|w| w.starts_with("h1:"));
    if !first.starts_with("module ") {
        let sums = lines.iter().filter(|l| is_sum(l)).count();
        return (sums >= MIN_MEMBERS && sums == lines.len()).then_some(sums);
    }
    const DIRECTIVES: [&str; 8] = [
        "module ",
        "go ",
        "toolchain ",
        "require ",
        "replace ",
        "exclude ",
        "retract ",
        "godebug ",
    ];
    let mut members = 0;
    let mut explained = 0;
    for l in lines {
        let t = l.trim();
        if t.starts_with("//") || t == ")" || DIRECTIVES.iter().any(|d| t.starts_with(d)) {
            explained += 1;
        } else if module_version(t) || t.contains(" => ") {
            members += 1;
            explained += 1;
        }
    }
    (members >= MIN_MEMBERS).then_some(explained)
}

/// `Gemfile.lock`: upper-case section names alone on a line (`GEM`,
/// `PLATFORMS`, `BUNDLED WITH`), indented `remote:`/`specs:` keys and
/// `name (version)` members.
fn gem_lock(lines: &[&str]) -> Option<usize> {
    let (mut sections, mut members, mut explained) = (0, 0, 0);
    for l in lines {
        let t = l.trim();
        let indented = l.starts_with(' ');
        if !indented && !t.is_empty() && t.bytes().all(|b| b.is_ascii_uppercase() || b == b' ') {
            sections += 1;
        } else if indented && package(t).is_some_and(|r| r.is_empty() || r.starts_with(" (")) {
            members += 1;
        } else if !indented
            || !(t.ends_with(':')
                || t.starts_with("remote: ")
                || t.starts_with("revision: ")
                // `RUBY VERSION`'s `ruby 3.3.5p100`, a platform name.
                || t.split_whitespace().count() <= 2)
        {
            return None;
        }
        explained += 1;
    }
    (sections >= 2 && members >= MIN_MEMBERS).then_some(explained)
}

/// An XML document: an XML declaration or a root element first, then
/// mostly tags, attribute lines, comments and text between tags. A test
/// report (`<testsuites>`, `<testsuite>`) is left to the rules for test
/// output.
fn xml(lines: &[&str]) -> Option<usize> {
    let first = lines.first()?.trim_start();
    if !(first.starts_with("<?xml ")
        || first.starts_with('<') && first[1..].starts_with(char::is_alphabetic))
    {
        return None;
    }
    let mut explained = 0;
    let mut in_comment = false;
    let mut in_tag = false;
    for l in lines {
        let t = l.trim();
        if t.starts_with("<testsuite") || t.starts_with("<html") || t.starts_with("<!DOCTYPE html")
        {
            return None;
        }
        if in_comment {
            in_comment = !t.contains("-->");
            explained += 1;
            continue;
        }
        if t.starts_with("<!--") {
            in_comment = !t.contains("-->");
            explained += 1;
            continue;
        }
        if t.starts_with('<') {
            // A tag may spread its attributes over the next lines.
            in_tag = !t.ends_with('>');
            explained += 1;
        } else if in_tag {
            in_tag = !t.ends_with('>');
            explained += 1;
        } else if t.ends_with('>') && t.contains("</") {
            // Text, then the closing tag.
            explained += 1;
        }
    }
    (explained >= MIN_MEMBERS).then_some(explained)
}

#[cfg(test)]
mod tests {
    fn lean(s: &str) -> String {
        crate::detect::detect_as(s.as_bytes(), crate::profile::Profile::Lean, false, false)
            .ct
            .to_string()
    }

    #[test]
    fn manifests_are_configs() {
        let mut req = String::from("# pinned for the service\n");
        for k in 0..40 {
            req.push_str(&format!("pkg-{k}=={}.{}.{}\n", k % 4, k % 9, k));
        }
        req.push_str("-e git+https://example.com/acme/auth.git@3f9a1c2e#egg=auth\n");
        req.push_str("requests[socks]>=2.31,<3 ; python_version >= \"3.8\"\n");
        assert_eq!(lean(&req), "config", "{req}");

        let mut gomod = String::from("module example.com/shop\n\ngo 1.22.0\n\nrequire (\n");
        for k in 0..30 {
            gomod.push_str(&format!("\tgithub.com/acme/lib{k} v1.{k}.0\n"));
        }
        gomod.push_str("\tgolang.org/x/sys v0.20.0 // indirect\n)\n\nreplace github.com/acme/lib3 => ../lib3\n");
        assert_eq!(lean(&gomod), "config", "{gomod}");

        let mut gosum = String::new();
        for k in 0..20 {
            gosum.push_str(&format!(
                "github.com/acme/lib{k} v1.{k}.0 h1:abcDEF{k}+/xyz=\n"
            ));
            gosum.push_str(&format!(
                "github.com/acme/lib{k} v1.{k}.0/go.mod h1:Qq{k}rst=\n"
            ));
        }
        assert_eq!(lean(&gosum), "config", "{gosum}");

        let mut gem = String::from("GEM\n  remote: https://rubygems.org/\n  specs:\n");
        for k in 0..20 {
            gem.push_str(&format!("    gem-{k} (1.{k}.0)\n      dep-{k} (>= 1.0)\n"));
        }
        gem.push_str("\nPLATFORMS\n  ruby\n  x86_64-linux\n\nDEPENDENCIES\n  gem-1\n  gem-2\n\nBUNDLED WITH\n   2.5.3\n");
        assert_eq!(lean(&gem), "config", "{gem}");

        let mut xml = String::from(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<manifest xmlns:android=\"http://schemas.android.com/apk/res/android\"\n    package=\"com.acme.app\">\n\n",
        );
        for k in 0..12 {
            xml.push_str(&format!(
                "    <uses-permission android:name=\"android.permission.P{k}\" />\n"
            ));
        }
        xml.push_str("    <application android:label=\"Acme\">\n");
        for k in 0..20 {
            xml.push_str(&format!(
                "        <activity\n            android:name=\".A{k}\"\n            android:exported=\"false\" />\n"
            ));
        }
        xml.push_str("    </application>\n</manifest>\n");
        assert_eq!(lean(&xml), "config", "{xml}");
    }

    #[test]
    fn lists_and_reports_are_not_manifests() {
        // Paths (find output) and words are no packages.
        let mut find = String::new();
        for k in 0..30 {
            find.push_str(&format!("./src/module_{k}/main.rs\n"));
        }
        assert_ne!(lean(&find), "config");
        let mut junit =
            String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"30\">\n");
        for k in 0..30 {
            junit.push_str(&format!(
                "  <testcase classname=\"a.B\" name=\"t{k}\" time=\"0.01\"></testcase>\n"
            ));
        }
        junit.push_str("</testsuites>\n");
        assert_ne!(lean(&junit), "config");
    }
}
