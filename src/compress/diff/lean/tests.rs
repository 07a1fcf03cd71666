//! The lean diff on small diffs of each shape: re-cut hunks still apply,
//! commit messages and mail are read, combined hunks keep every change.

use super::*;

fn view(text: &str) -> String {
    String::from_utf8(run(text, "", None).expect("a view").bytes).unwrap()
}

/// Applies the unified hunks of `patch` to `pre` (one file): each hunk's
/// context and removed lines must sit at the lines its header names.
fn apply(pre: &[String], patch: &str) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    let mut at = 0usize;
    let lines: Vec<&str> = patch.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let Some((a, b, _, _, _)) = hunk_header(lines[i]) else {
            i += 1;
            continue;
        };
        let start = if b == 0 { a } else { a - 1 };
        if start < at {
            return Err(format!("hunk at {a} overlaps"));
        }
        out.extend(pre[at..start].iter().cloned());
        at = start;
        i += 1;
        while i < lines.len() && !lines[i].starts_with("@@") {
            let l = lines[i];
            match l.as_bytes().first() {
                Some(b' ') | Some(b'-') => {
                    let rest = &l[1..];
                    if pre.get(at).map(String::as_str) != Some(rest) {
                        return Err(format!("line {} is not {:?}", at + 1, rest));
                    }
                    if let Some(kept) = l.strip_prefix(' ') {
                        out.push(kept.to_string());
                    }
                    at += 1;
                }
                Some(b'+') => out.push(l[1..].to_string()),
                _ => break,
            }
            i += 1;
        }
    }
    out.extend(pre[at..].iter().cloned());
    Ok(out)
}

/// One hunk over the whole file: every unchanged line is context.
fn whole_file_diff(pre: &[String], post_edits: &[(usize, bool)]) -> (String, Vec<String>) {
    let mut body = Vec::new();
    let mut post = Vec::new();
    for (k, l) in pre.iter().enumerate() {
        match post_edits.iter().find(|e| e.0 == k) {
            Some((_, true)) => {
                body.push(format!("-{l}"));
                body.push(format!("+{l} changed"));
                post.push(format!("{l} changed"));
            }
            Some((_, false)) => body.push(format!("-{l}")),
            None => {
                body.push(format!(" {l}"));
                post.push(l.clone());
            }
        }
    }
    let text = format!(
        "diff --git a/f b/f\nindex 1..2 100644\n--- a/f\n+++ b/f\n@@ -1,{} +1,{} @@ fn main() {{\n{}\n",
        pre.len(),
        post.len(),
        body.join("\n")
    );
    (text, post)
}

#[test]
fn a_recut_hunk_applies_and_keeps_every_change() {
    let pre: Vec<String> = (0..60)
        .map(|k| format!("line number {k} of the file"))
        .collect();
    let (diff, post) = whole_file_diff(&pre, &[(5, true), (30, false), (31, true), (58, true)]);
    let v = view(&diff);
    assert!(v.starts_with("\u{2026} caveman: "), "{v}");
    assert!(v.contains("the patch still applies"), "{v}");
    assert_eq!(apply(&pre, &v).unwrap(), post);
    for l in diff.lines().filter(|l| l.starts_with(['+', '-'])) {
        assert!(v.contains(l), "{l}");
    }
    assert!(!v.contains("index 1..2"), "{v}");
}

#[test]
fn a_later_header_names_the_function_above_it() {
    let mut pre: Vec<String> = (0..40).map(|k| format!("    body line {k};")).collect();
    pre[20] = "fn second() {".to_string();
    let (diff, _) = whole_file_diff(&pre, &[(2, true), (35, true)]);
    let v = view(&diff);
    let headers: Vec<&str> = v.lines().filter(|l| l.starts_with("@@")).collect();
    assert_eq!(headers.len(), 2, "{v}");
    assert!(headers[0].ends_with("@@ fn main() {"), "{v}");
    assert!(headers[1].ends_with("@@ fn second() {"), "{v}");
}

#[test]
fn git_log_messages_keep_their_head() {
    let body: String = (0..30)
        .map(|k| format!("    Line {k} of a long explanation of the change, which goes on.\n"))
        .collect();
    let pre: Vec<String> = (0..30).map(|k| format!("l{k}")).collect();
    let (diff, _) = whole_file_diff(&pre, &[(15, true)]);
    let text = format!(
        "commit 77d5f394e741db0969b2d497fd7ceb3538a9fdc4\nAuthor: A <a@example.com>\nDate:   Wed Sep 10 23:05:53 2025 -0400\n\n    Fix the thing\n\n    The first sentence of the body. More words follow it here.\n{body}    \n    Signed-off-by: A <a@example.com>\n\n{diff}"
    );
    // The view when it is within compat's size (here compat's view is
    // smaller: then the message keeps its subject only).
    let v = String::from_utf8(cut(&text, "", None, false).unwrap().0.bytes).unwrap();
    assert!(
        v.lines()
            .next()
            .unwrap()
            .contains("; 1 commit header on one line (hashes cut to 10 characters);"),
        "{v}"
    );
    for want in [
        "\ncommit 77d5f394e7 | A <a@example.com> | Wed Sep 10 23:05:53 2025 -0400\n\n    Fix the thing\n",
        "    The first sentence of the body.",
        "    \u{2026} 32 lines of the message elided (caveman) \u{2026}",
    ] {
        assert!(v.contains(want), "{want}: {v}");
    }
    assert!(!v.contains("Author:") && !v.contains("Date:"), "{v}");
}

#[test]
fn format_patch_mail_is_read() {
    let pre: Vec<String> = (0..30).map(|k| format!("l{k}")).collect();
    let (diff, _) = whole_file_diff(&pre, &[(15, true)]);
    let text = format!(
        "From c86ba78e2ff5c5a3e9282a84c0cc220dd3d5f253 Mon Sep 17 00:00:00 2001\nFrom: D R <d@example.com>\nDate: Sat, 30 May 2026 07:42:57 -0400\nSubject: [PATCH] feat(extract): add support for extracting to a\n specified directory\nMessage-Id: <1234567890@example.com>\nX-Mailer: git-send-email 2.39.0\nMIME-Version: 1.0\n\nShort body.\n---\n f | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n\n{diff}-- \n2.39.0\n"
    );
    let v = view(&text);
    for want in [
        "From c86ba78e",
        "From: D R",
        "Subject: [PATCH] feat(extract)",
        " specified directory",
        "mail header lines elided",
        " 1 file changed",
        "Short body.",
    ] {
        assert!(v.contains(want), "{want}: {v}");
    }
    assert!(!v.contains("X-Mailer"), "{v}");
}

#[test]
fn combined_hunks_keep_every_change_and_make_no_claim() {
    let mut text = String::from(
        "diff --cc f.c\nindex 1,2..3\n--- a/f.c\n+++ b/f.c\n@@@ -1,20 -1,20 +1,21 @@@\n",
    );
    for k in 0..20 {
        match k {
            8 => text.push_str("- from ours\n +from theirs\n++both\n"),
            _ => text.push_str(&format!("  context line number {k}\n")),
        }
    }
    let v = view(&text);
    for want in [
        "- from ours",
        " +from theirs",
        "++both",
        "@@@ -1,20 -1,20 +1,21 @@@",
        "context lines elided (caveman)",
    ] {
        assert!(v.contains(want), "{want}: {v}");
    }
    assert!(!v.contains("still applies"), "{v}");
    assert!(v.contains("shortened with markers"), "{v}");
}

#[test]
fn colour_codes_are_cleaned_and_changes_kept() {
    let pre: Vec<String> = (0..40).map(|k| format!("l{k}")).collect();
    let (diff, post) = whole_file_diff(&pre, &[(10, true), (30, false)]);
    let colored: String = diff
        .lines()
        .map(|l| match l.as_bytes().first() {
            Some(b'+') => format!("\u{1b}[32m{l}\u{1b}[m\n"),
            Some(b'-') => format!("\u{1b}[31m{l}\u{1b}[m\n"),
            Some(b'@') => format!("\u{1b}[36m{l}\u{1b}[m\n"),
            _ => format!("{l}\n"),
        })
        .collect();
    let v = view(&colored);
    assert!(!v.contains('\u{1b}'), "{v}");
    assert_eq!(apply(&pre, &v).unwrap(), post);
}

#[test]
fn a_budget_never_keeps_a_change_without_its_headers() {
    let mut text = String::new();
    for f in 0..6 {
        let pre: Vec<String> = (0..30)
            .map(|k| format!("file {f} line {k} with some words"))
            .collect();
        let (d, _) = whole_file_diff(&pre, &[(3, true), (20, true)]);
        text.push_str(
            &d.replace("a/f", &format!("a/f{f}"))
                .replace("b/f", &format!("b/f{f}")),
        );
    }
    let out = run(&text, "", Some(150)).unwrap();
    let v = String::from_utf8(out.bytes).unwrap();
    let mut file = false;
    let mut hunk = false;
    for l in v.lines() {
        if l.starts_with("diff ") {
            file = true;
            hunk = false;
        } else if l.starts_with("@@") {
            assert!(file, "{v}");
            hunk = true;
        } else if l.starts_with(['+', '-']) && !l.starts_with("---") && !l.starts_with("+++") {
            assert!(file && hunk, "{l}: {v}");
        } else if l.contains("lines elided (caveman)") {
            hunk = false;
        }
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn recut_views_apply_to_the_pre_image(
            n in 14usize..120,
            edits in proptest::collection::btree_map(0usize..120, any::<bool>(), 1..12),
        ) {
            let pre: Vec<String> = (0..n).map(|k| format!("line {k} {}", "x".repeat(k % 7))).collect();
            let edits: Vec<(usize, bool)> = edits.into_iter().filter(|e| e.0 < n).collect();
            prop_assume!(!edits.is_empty());
            let (diff, post) = whole_file_diff(&pre, &edits);
            let v = match run(&diff, "", None) {
                Ok(c) => String::from_utf8(c.bytes).unwrap(),
                Err(_) => diff.clone(),
            };
            let applied = apply(&pre, &v);
            prop_assert_eq!(applied, Ok(post), "{}", v);
            for l in diff.lines().filter(|l| l.starts_with(['+', '-'])) {
                prop_assert!(v.contains(l));
            }
        }
    }
}

/// Issue 40 rule 8: a `git log -p` whose messages would make the view
/// larger than compat's keeps each commit's subject, the bodies in
/// markers, every change still there.
#[test]
fn messages_over_compats_size_keep_their_subjects() {
    let pre: Vec<String> = (0..30).map(|k| format!("l{k}")).collect();
    let (diff, _) = whole_file_diff(&pre, &[(15, true)]);
    let body: String = (0..12)
        .map(|k| format!("    Reason {k}: the old code did one thing and the new one another.\n"))
        .collect();
    let mut text = String::new();
    for c in 0..3 {
        text.push_str(&format!(
            "commit {c}7d5f394e741db0969b2d497fd7ceb3538a9fdc4\nAuthor: A <a@example.com>\nDate:   Wed Sep 10 23:05:53 2025 -0400\n\n    Fix thing {c}\n\n{body}\n{diff}"
        ));
    }
    let v = view(&text);
    let count = crate::tokens::count;
    let compat = count(&super::super::compress(&text).unwrap().bytes);
    let rich = count(&cut(&text, "", None, false).unwrap().0.bytes);
    assert!(rich > compat.saturating_sub(crate::engine::NOTE_RESERVE));
    assert!(count(v.as_bytes()) < rich, "{v}");
    for c in 0..3 {
        assert!(v.contains(&format!("\n    Fix thing {c}\n    \u{2026} 13 lines of the message elided (caveman) \u{2026}\n")), "{v}");
    }
    assert!(!v.contains("Reason 0"), "{v}");
    let added = v
        .lines()
        .filter(|l| l.starts_with('+') && !l.starts_with("+++"));
    assert_eq!(added.count(), 3, "{v}");
}
