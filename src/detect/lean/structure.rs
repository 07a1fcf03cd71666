//! Payloads with a structure of their own: NDJSON, diffs and patches
//! (unified, combined, `git format-patch` mail, quilt/DEP-3), HTML
//! documents, `git log`.

use std::sync::LazyLock;

use crate::rx::Regex;

use super::{Ctx, Hit, Sample};
use crate::content_type::ContentType;
use crate::go::json as gojson;

/// NDJSON: every non-blank line (2 at least) is a JSON object or array.
pub(super) fn ndjson<'b>(ctx: &Ctx<'b, '_>) -> Option<Hit<'b>> {
    let s = &ctx.sample;
    if s.non_blank < 2 {
        return None;
    }
    let all = s.non_blank_lines().all(|l| {
        let t = l.trim();
        (t.starts_with('{') || t.starts_with('[')) && gojson::is_valid(t.as_bytes())
    });
    all.then(|| {
        Hit::new(
            ContentType::Json,
            "NDJSON: every line is one JSON object or array",
            100,
        )
    })
}

/// A hunk header, unified (`@@ -a,b +c,d @@`) or combined (`@@@ -a -b +c @@@`).
static HUNK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u)^@@@? -\d+(,\d+)? (-\d+(,\d+)? )*\+\d+(,\d+)? @@@?").expect("hunk pattern")
});

/// A line that starts a file's part of a patch.
fn file_header(l: &str, next: &str) -> bool {
    l.starts_with("diff --git ")
        || l.starts_with("diff --cc ")
        || l.starts_with("diff --combined ")
        || (l.starts_with("diff -") && l.len() > 6)
        || (l.starts_with("--- ") && next.starts_with("+++ "))
        || (l.starts_with("Index: ") && next.starts_with("====="))
}

/// A line a patch holds besides its hunks' lines.
fn patch_line(l: &str) -> bool {
    l.is_empty()
        || HUNK.is_match(l.as_bytes())
        || matches!(l.as_bytes()[0], b'+' | b'-' | b' ' | b'\\')
        || [
            "diff ",
            "index ",
            "Index: ",
            "=====",
            "new file mode",
            "deleted file mode",
            "old mode",
            "new mode",
            "similarity index",
            "dissimilarity index",
            "rename ",
            "copy ",
            "Binary files",
            "Only in ",
            "Files ",
            "GIT binary patch",
        ]
        .iter()
        .any(|p| l.starts_with(p))
}

/// A diff or a patch: a file header or a real hunk header, and from the
/// first header on, most lines are patch lines. What comes before the
/// first header (a `git show` commit, a `format-patch` mail's headers,
/// message and diffstat, a DEP-3 or quilt description) is the patch's
/// preamble; Markdown `---` rules and diffs quoted in prose are not
/// enough.
pub(super) fn diff<'b>(ctx: &Ctx<'b, '_>) -> Option<Hit<'b>> {
    let lines = &ctx.sample.lines;
    let next = |i: usize| lines.get(i + 1).copied().unwrap_or("");
    let start = (0..lines.len())
        .find(|&i| file_header(lines[i], next(i)) || HUNK.is_match(lines[i].as_bytes()))?;
    let body = &lines[start..];
    let hunks = body.iter().filter(|l| HUNK.is_match(l.as_bytes())).count();
    let files = (start..lines.len())
        .filter(|&i| file_header(lines[i], next(i)))
        .count();
    let binary = body.iter().any(|l| {
        l.starts_with("Binary files")
            || l.starts_with("GIT binary patch")
            || l.starts_with("Only in ")
    });
    if hunks == 0 && !(files > 0 && binary) {
        return None;
    }
    let patchy = body.iter().filter(|l| patch_line(l)).count();
    // Mail signatures (`-- ` then a version line) end format-patch mail.
    let tail = body
        .iter()
        .rev()
        .take_while(|l| !l.starts_with("-- "))
        .count();
    let tail = if tail < body.len() && tail <= 3 {
        tail
    } else {
        0
    };
    if patchy * 10 < (body.len() - tail) * 7 {
        return None;
    }
    // A long preamble must read as a patch's: mail or commit headers.
    if start * 2 > lines.len() && !patch_preamble(&lines[..start]) {
        return None;
    }
    Some(Hit::new(
        ContentType::Diff,
        "a diff or patch: file or hunk headers, and from the first on most lines are diff lines",
        100,
    ))
}

/// A patch's preamble: mail headers (`From <sha>`, `Subject: [PATCH`),
/// a commit (`commit <sha>`, `Author:`), or DEP-3 fields.
fn patch_preamble(pre: &[&str]) -> bool {
    pre.iter().take(30).any(|l| {
        (l.starts_with("From ") && l.len() > 45)
            || l.starts_with("Subject: ")
            || GIT_COMMIT.is_match(l.as_bytes())
            || l.starts_with("Description:")
            || l.starts_with("Origin:")
            || l.starts_with("Forwarded:")
    })
}

/// An HTML document: a doctype or `<html>` start, or mostly markup.
pub(super) fn html<'b>(ctx: &Ctx<'b, '_>) -> Option<Hit<'b>> {
    looks_html(ctx.text).then(|| {
        Hit::new(
            ContentType::Html,
            "an HTML document: a doctype or <html> start, or mostly markup lines",
            100,
        )
    })
}

fn looks_html(s: &str) -> bool {
    let t = s.trim_start_matches('\u{feff}').trim_start();
    let head = &t.as_bytes()[..t.len().min(256)];
    let lower = head.to_ascii_lowercase();
    if lower.starts_with(b"<!doctype html") || lower.starts_with(b"<html") {
        return true;
    }
    if !lower.starts_with(b"<") {
        return false;
    }
    // Starts with a tag and is mostly markup lines (not Markdown with a
    // few inline tags).
    let sample = Sample::of(s);
    let tags = sample.count(|l| l.trim_start().starts_with('<'));
    tags * 2 >= sample.non_blank
        && !lower.starts_with(b"<?xml")
        && [
            "<body", "<div", "<p>", "<p ", "<head", "<article", "<main", "<table", "<a href",
            "<br", "<li", "<span", "<h1", "<h2", "<section", "<form", "<img",
        ]
        .iter()
        .any(|p| crate::go::unicode::contains_lower(t, p))
}

static GIT_COMMIT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u)^(\* |\| )*commit [0-9a-f]{7,64}( \(.*\))?$").expect("commit pattern")
});

/// `git log`: commit lines, each with its Author and Date lines.
pub(super) fn git_log<'b>(ctx: &Ctx<'b, '_>) -> Option<Hit<'b>> {
    let s = &ctx.sample;
    let commits = s.count(|l| GIT_COMMIT.is_match(l.as_bytes()));
    let authors = s.count(|l| {
        let l = l.trim_start_matches(['*', '|', ' ']);
        l.starts_with("Author: ") || l.starts_with("Date: ") || l.starts_with("Date:   ")
    });
    (commits >= 1 && authors >= commits).then(|| {
        Hit::new(
            ContentType::Log,
            "git log: commit, Author and Date lines",
            100,
        )
    })
}

/// A JUnit XML report (`<testsuites>`/`<testsuite>` of `<testcase>`
/// elements, as surefire, gotestsum, pytest and jest write them): test
/// output, read by the log compressor's report view
/// ([`crate::compress::junit`]), whatever its testcases' names look like.
pub(super) fn junit_report<'b>(ctx: &Ctx<'b, '_>) -> Option<Hit<'b>> {
    crate::compress::junit::is_report(ctx.text).then(|| {
        Hit::new(
            ContentType::Log,
            "a JUnit XML test report: a <testsuites>/<testsuite> root of <testcase> elements",
            100,
        )
    })
}

/// terraform plan output: a resource's action comment over its
/// `resource` line, and the plan's summary. Named terminal output (the
/// terminal view reads it by its own rules).
pub(super) fn terraform_plan<'b>(ctx: &Ctx<'b, '_>) -> Option<Hit<'b>> {
    crate::compress::terminal::terraform::is_plan(ctx.text).then(|| {
        Hit::new(
            ContentType::Terminal,
            "terraform plan: resource action comments and a Plan: summary",
            100,
        )
    })
}
