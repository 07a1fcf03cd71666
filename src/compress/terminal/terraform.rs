//! The lean view of a `terraform plan` (or `apply`'s plan): every
//! resource's address and action (`# aws_instance.web will be updated
//! in-place`, its `~ resource "…" "…" {` line, `forces replacement`), every
//! changed attribute, the `Plan: N to add, …` summary, the outputs' changes
//! and every warning or error block whole. What goes is what a plan
//! repeats: unchanged attributes and nested blocks, values `(known after
//! apply)`, the attributes of a resource being destroyed (its address and
//! id stay) and the `Refreshing state...` lines; each run of them becomes
//! a marker that counts its lines by what they were.

use std::sync::LazyLock;

use regex::Regex;

use crate::compress::shared::lines::{join_lines, Keep, Lines};
use crate::compress::Compressed;

/// `  # aws_instance.web will be updated in-place` (and the other actions).
static RESOURCE_COMMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*# \S+ (will be (created|updated in-place|destroyed|read during apply|replaced|imported)|must be replaced|has moved to|is tainted)",
    )
    .expect("terraform resource comment")
});

/// `  ~ resource "aws_instance" "web" {`, `-/+ resource …`, `<= data …`.
static RESOURCE_HEAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\s*([+~-]|-/\+|\+/-|<=)?\s*(resource|data) "[^"]+" "[^"]+"\s*\{$"#)
        .expect("terraform resource head")
});

/// `Plan: 2 to add, 1 to change, 0 to destroy.` (and its variants).
static PLAN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(Plan: \d+ to (add|import)|No changes\.|Apply complete!|Changes to Outputs:)")
        .expect("terraform plan summary")
});

/// `aws_vpc.main: Refreshing state... [id=vpc-…]`, data sources' reads.
static REFRESH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\S+: (Refreshing state\.\.\.|Reading\.\.\.|Read complete after \S+)")
        .expect("terraform refresh line")
});

/// Why a line of a plan goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fold {
    Kept,
    KnownAfterApply,
    Unchanged,
    Destroyed,
    Refresh,
}

/// Whether `text` reads as terraform plan output: a resource's action
/// comment over its `resource` line, and the plan's summary line.
pub(crate) fn is_plan(text: &str) -> bool {
    // Most texts hold no resource line: one search rules them out.
    let b = text.as_bytes();
    if memchr::memmem::find(b, b"resource \"").is_none()
        && memchr::memmem::find(b, b"data \"").is_none()
    {
        return false;
    }
    let mut comment = false;
    let mut head = false;
    let mut summary = false;
    for l in text.lines().take(200_000) {
        if RESOURCE_COMMENT.is_match(l) {
            comment = true;
        } else if comment && RESOURCE_HEAD.is_match(l) {
            head = true;
        } else if PLAN.is_match(l) {
            summary = true;
        }
        if head && summary {
            return true;
        }
    }
    false
}

/// The action prefix of an attribute line (`+`, `-`, `~`, `-/+`), if any.
fn action(t: &str) -> Option<&str> {
    ["-/+", "+/-", "+", "-", "~"]
        .into_iter()
        .find(|a| t.starts_with(a) && t[a.len()..].starts_with(' '))
}

/// The lean view of a plan (its lines without the trailing LF, and how
/// they end), `None` when `body` is not one or nothing goes.
pub(crate) fn view(
    body: &str,
    trailing_lf: bool,
    cr: &'static str,
    budget: Option<usize>,
) -> Option<Compressed> {
    if !is_plan(body) {
        return None;
    }
    let doc = Lines::of_body(body, trailing_lf, cr);
    let n = doc.len();
    let mut fold = vec![Fold::Kept; n];
    let mut keep = Keep::new(n);
    // Inside a resource block: whether it is being destroyed, and the
    // nested blocks that are unchanged (their whole subtree goes).
    let mut in_resource: Option<bool> = None;
    let mut depth_unchanged: Option<usize> = None;
    let mut depth = 0usize;
    let mut openers: Vec<bool> = Vec::new();
    for (i, line) in doc.iter().enumerate() {
        let t = line.trim();
        let Some(destroy) = in_resource else {
            if RESOURCE_HEAD.is_match(line) {
                let a = action(t);
                in_resource = Some(a == Some("-"));
                depth = 0;
                openers.clear();
                depth_unchanged = None;
                keep.set(i, "heading: resource and action");
            } else if REFRESH.is_match(line) {
                fold[i] = Fold::Refresh;
            } else if crate::compress::shared::signal::is_error(line) {
                keep.set(i, "error line");
            } else if PLAN.is_match(line) {
                keep.set(i, "summary line");
            } else if RESOURCE_COMMENT.is_match(line) {
                keep.set(i, "heading: resource and action");
            } else if t.starts_with('\u{2502}') || t.starts_with('\u{2577}') {
                keep.set(i, "warning or error block");
            } else {
                keep.set(i, "structure");
            }
            continue;
        };
        let closes = t.starts_with(['}', ']', ')']);
        let opens = t.ends_with(['{', '[', '(']);
        if closes && depth == 0 {
            // The resource's own closing brace.
            in_resource = None;
            keep.set(i, "heading: resource and action");
            continue;
        }
        let a = action(t);
        let why = if depth_unchanged.is_some() {
            Fold::Unchanged
        } else if closes {
            if openers.last().copied().unwrap_or(true) {
                Fold::Kept
            } else {
                Fold::Unchanged
            }
        } else if t.ends_with("# forces replacement")
            || t.starts_with("# (")
            || t.is_empty()
            // The resource's id names it (and what a replacement ends).
            || (depth == 0
                && t.trim_start_matches(['-', '+', '~', '/', ' ']).starts_with("id ")
                && (!t.ends_with("(known after apply)") || t.contains("->")))
        {
            Fold::Kept
        } else if destroy {
            Fold::Destroyed
        } else if t.ends_with("(known after apply)") {
            Fold::KnownAfterApply
        } else if a.is_none() {
            Fold::Unchanged
        } else {
            Fold::Kept
        };
        if closes {
            openers.pop();
            depth = depth.saturating_sub(1);
            if depth_unchanged.is_some_and(|d| depth < d) {
                depth_unchanged = None;
            }
        }
        if opens {
            depth += 1;
            openers.push(why == Fold::Kept);
            if why == Fold::Unchanged && depth_unchanged.is_none() {
                depth_unchanged = Some(depth);
            }
        }
        fold[i] = why;
        if why == Fold::Kept {
            keep.set(i, "changed attribute");
        }
    }
    keep.fit_text(
        budget,
        |i| doc.line(i),
        "      \u{2026} 99 lines elided (caveman): 99 known after apply \u{2026}",
        "",
    );
    let fitted = budget.is_some();
    let (pieces, _, trace) = keep.collapse(|run| {
        // A marker for one line costs as much as the line.
        if run.len() < 2 && !fitted {
            return None;
        }
        let mut counts = [0usize; 5];
        for i in run.clone() {
            counts[fold[i] as usize] += 1;
        }
        let names = [
            "other",
            "known after apply",
            "unchanged",
            "attributes of the destroyed resource",
            "refreshed resources' states",
        ];
        let what: Vec<String> = names
            .iter()
            .zip(counts)
            .filter(|(_, c)| *c > 0)
            .map(|(n, c)| format!("{c} {n}"))
            .collect();
        let first = doc.line(run.start);
        let indent = &first[..first.len() - first.trim_start().len()];
        Some((
            format!(
                "{indent}\u{2026} {} lines elided (caveman): {} \u{2026}",
                run.len(),
                what.join(", ")
            ),
            0,
        ))
    });
    if trace.dropped == 0 {
        return None;
    }
    Some(Compressed::traced(join_lines(&doc, &pieces), trace))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_keeps_addresses_actions_changes_and_the_summary() {
        let plan = "Terraform will perform the following actions:\n\n  # aws_instance.web will be updated in-place\n  ~ resource \"aws_instance\" \"web\" {\n        id            = \"i-1\"\n      ~ instance_type = \"t3.micro\" -> \"t3.large\"\n      ~ public_ip     = \"3.80.1.2\" -> (known after apply)\n      ~ private_dns   = \"ip-10\" -> (known after apply)\n        tags          = {\n            \"Name\" = \"web\"\n        }\n        # (30 unchanged attributes hidden)\n    }\n\nPlan: 0 to add, 1 to change, 0 to destroy.\n";
        let body = plan.strip_suffix('\n').unwrap();
        let out = String::from_utf8(view(body, true, "", None).unwrap().bytes).unwrap();
        assert_eq!(
            out,
            "Terraform will perform the following actions:\n\n  # aws_instance.web will be updated in-place\n  ~ resource \"aws_instance\" \"web\" {\n        id            = \"i-1\"\n      ~ instance_type = \"t3.micro\" -> \"t3.large\"\n      \u{2026} 5 lines elided (caveman): 2 known after apply, 3 unchanged \u{2026}\n        # (30 unchanged attributes hidden)\n    }\n\nPlan: 0 to add, 1 to change, 0 to destroy.\n"
        );
    }
}
