//! `--explain`: a short account on stderr, after the report, of what the
//! engine decided and why. Every fact comes from the decision itself (the
//! detection cascade's answer, the compressor's decline or trace, the
//! engine's pass-through reason); nothing is re-derived here.

use crate::content_type::ContentType;
use crate::engine::{Account, Outcome, PassThrough};
use crate::report::StoreFailure;

fn detected(ct: &ContentType, account: &Account) -> String {
    let mut s = if account.forced {
        format!("explain: type {ct}: forced with --type")
    } else {
        format!("explain: detected {ct}: {}", account.rule)
    };
    if !account.peeled.is_empty() {
        s.push_str(&format!(" (after peeling: {})", account.peeled.join(", ")));
    }
    if !account.others.is_empty() {
        let others: Vec<String> = account
            .others
            .iter()
            .map(|(name, score)| format!("{name} {score}%"))
            .collect();
        s.push_str(&format!(
            "; other rules that held (share of lines explained): {}",
            others.join(", ")
        ));
    }
    s
}

/// The lines `compress --explain` adds after the report.
pub fn compress(outcome: &Outcome) -> Vec<String> {
    let r = &outcome.report;
    let ct = &r.content_type;
    let mut lines = vec![detected(ct, &outcome.account)];
    match &outcome.pass_through {
        Some(why) => {
            let reason = match why {
                PassThrough::Unregistered => format!("no compressor is registered for {ct}"),
                PassThrough::Declined(d) => format!("the {ct} compressor declined: {d}"),
                PassThrough::Unchanged => "the compressor's view was the input itself".into(),
                PassThrough::NotSmaller { after } => format!(
                    "the view had {after} tokens, not fewer than the input's {}",
                    r.tokens_before
                ),
                PassThrough::StoreRefused(StoreFailure::BudgetExceeded) => {
                    "the recovery store is over its budget (CAVEMAN_CCR_MAX_BYTES), so no lossy \
                     view without a stored original; see `caveman-engine store prune`"
                        .into()
                }
                PassThrough::StoreRefused(StoreFailure::InputTooLarge) => {
                    "the input is larger than the 64 MiB limit; under --profile lean it passes \
                     through untouched"
                        .into()
                }
                PassThrough::StoreRefused(StoreFailure::Unavailable) => {
                    "the recovery store could not take the original (locked, unwritable or \
                     refused), so no lossy view"
                        .into()
                }
            };
            if let Some(t) = &outcome.account.trace {
                lines.push(trace_line(t, "the view it made"));
            }
            lines.push(format!("explain: passed through unchanged: {reason}"));
        }
        None => {
            if let Some(t) = &outcome.account.trace {
                lines.push(trace_line(t, "kept"));
            }
            if let Some(tr) = &r.transformed {
                lines.push(format!(
                    "explain: {} -> {} tokens (method {}); original stored as {}: \
                     `caveman-engine retrieve {}` gives it back",
                    r.tokens_before,
                    r.tokens_after,
                    tr.method.as_str(),
                    tr.recovery_handle.as_str(),
                    tr.recovery_handle.as_str()
                ));
            }
        }
    }
    lines
}

fn trace_line(t: &crate::compress::Trace, what: &str) -> String {
    let kept: usize = t.kept.iter().map(|k| k.1).sum();
    let reasons: Vec<String> = t.kept.iter().map(|(r, n)| format!("{n} {r}")).collect();
    format!(
        "explain: {what} {kept} units ({}); dropped {} into markers",
        if reasons.is_empty() {
            "none".to_string()
        } else {
            reasons.join(", ")
        },
        t.dropped
    )
}

/// The line `detect --explain` adds on stderr.
pub fn detect(d: &crate::detect::Detected<'_>, peeled: &[&'static str]) -> String {
    detected(
        &d.ct,
        &Account {
            peeled: peeled.to_vec(),
            rule: d.rule,
            others: d.others.clone(),
            ..Account::default()
        },
    )
}
