//! The agent path of `run`: the per-project rules resolved into `run`'s
//! options (one place), and `run --agent`, the form the Claude Code hook
//! rewrites a Bash command into: small or already-compressed output and
//! commands the rules never compress pass untouched; a smaller view ends
//! with one line naming the handle and how to get the whole output back;
//! no JSON report (the agent reads stdout and stderr as one text).

use super::compress::Extra;
use super::io::write_stdout;
use crate::engine::{self, Options};
use crate::error::{Error, Result};
use crate::ledger::{self, Record, Source};
use crate::rules::{self, Plan};

/// The flag the hook's rewrite adds to `run`.
pub(super) const AGENT_FLAG: &str = "--agent";

/// `run`'s flags without `--agent`, and whether it was there.
pub(super) fn split_flags(flags: &[String]) -> (bool, Vec<String>) {
    let agent = flags.iter().any(|f| f == AGENT_FLAG);
    let rest = flags.iter().filter(|f| *f != AGENT_FLAG).cloned().collect();
    (agent, rest)
}

/// What `run` does with the output, from the rules.
pub(super) enum RunPlan {
    /// Compress (only losslessly when `lossless_only`); under `--agent`
    /// outputs under `min_bytes` pass untouched.
    Compress {
        lossless_only: bool,
        min_bytes: usize,
    },
    /// Print it untouched (a `never` entry, an invalid rules file: why).
    #[allow(dead_code)]
    Untouched(String),
}

/// Resolves the rules for `cmd` into `opts`: a flag wins, then the
/// environment, then the rules file. An invalid rules file is said on
/// stderr and the output passes through untouched.
pub(super) fn apply_rules(
    opts: &mut Options,
    extra: &mut Extra,
    cmd: &[String],
    agent: bool,
) -> RunPlan {
    let shown = command_text(cmd);
    extra.command = Some(shown.clone());
    let cwd = std::env::current_dir().unwrap_or_default();
    let rules = match rules::load(&cwd) {
        Ok(r) => r,
        Err(e) => {
            let why = format!("invalid rules file {e}");
            super::io::print_stderr_line(&format!(
                "caveman-engine: {why}; the output passes through (`caveman-engine config` checks it)"
            ));
            return RunPlan::Untouched(why);
        }
    };
    let words = rules::words(first_simple(&shown));
    let set = |var: &str| std::env::var(var).is_ok_and(|v| !v.is_empty());
    let plan = match rules.plan(&words) {
        // The built-in ground-truth list is for the agent's path: a person
        // who runs `run -- cat big.log` asked for a view.
        Plan::Never(n) if !agent && n.origin == rules::Origin::BuiltIn => Plan::Compress {
            profile: rules.profile.clone(),
            budget: rules.budget.clone(),
            content_type: None,
            lossless: None,
        },
        p => p,
    };
    match plan {
        Plan::Never(n) => RunPlan::Untouched(format!("never compressed ({})", n.origin)),
        Plan::Compress {
            profile,
            budget,
            content_type,
            lossless,
        } => {
            if let Some(p) = profile.filter(|_| !extra.profile_flag && !set(crate::profile::ENV)) {
                opts.profile = p.value;
            }
            if let Some(b) = budget.filter(|_| !extra.budget_flag && !set("CAVEMAN_ENGINE_BUDGET"))
            {
                opts.budget = Some(b.value);
            }
            if opts.forced_type.is_none() {
                opts.forced_type = content_type;
            }
            RunPlan::Compress {
                lossless_only: lossless.is_some(),
                min_bytes: rules.min_bytes.value,
            }
        }
    }
}

/// The command as the rules and the ledger see it: the script of
/// `bash -c SCRIPT` (the hook's rewrite), else the words joined.
fn command_text(cmd: &[String]) -> String {
    match cmd {
        [sh, c, script, ..] if (sh.ends_with("bash") || sh.ends_with("sh")) && c == "-c" => {
            script.trim().to_string()
        }
        _ => cmd.join(" "),
    }
}

/// The first simple command of a script (up to `;`, `&`, `|` or a newline).
fn first_simple(script: &str) -> &str {
    let end = script.find([';', '&', '|', '\n']).unwrap_or(script.len());
    &script[..end]
}

/// Prints `run`'s output under `plan`: `run --agent`'s form when `agent`,
/// else `compress`'s (view and report).
pub(super) fn publish(
    output: &[u8],
    opts: &Options,
    extra: &Extra,
    plan: &RunPlan,
    agent: bool,
) -> Result<()> {
    let untouched = || -> Result<()> {
        let tokens = crate::tokens::count(output);
        ledger::append(&Record {
            time: ledger::now(),
            source: Some(if agent { Source::Hook } else { Source::Run }),
            profile: opts.profile.as_str().to_string(),
            content_type: String::new(),
            command: extra.command.clone().unwrap_or_default(),
            tokens_before: tokens as u64,
            tokens_after: tokens as u64,
            ..Record::default()
        });
        write_stdout(output).map_err(|e| Error::fatal(format!("run: write stdout: {e}")))
    };
    // A bad value in the environment: the output as it was, and why.
    if extra.env_warning.is_some() {
        return super::compress::publish(output, opts, extra);
    }
    let (lossless_only, min_bytes) = match plan {
        RunPlan::Untouched(_) => return untouched(),
        RunPlan::Compress {
            lossless_only,
            min_bytes,
        } => (*lossless_only, *min_bytes),
    };
    if !agent && !lossless_only {
        return super::compress::publish(output, opts, extra);
    }
    if agent && (output.len() < min_bytes || crate::hook::already_compressed(output)) {
        return untouched();
    }
    let store = match super::open_store_or_why() {
        Ok(s) => s,
        Err(why) => crate::store::Store::unusable(why),
    };
    let mut outcome = engine::compress(output, opts, &store);
    if lossless_only
        && outcome
            .report
            .transformed
            .as_ref()
            .is_some_and(|t| !t.lossless_to_model)
    {
        // The rules allow only a lossless view: the output as it was.
        let r = &mut outcome.report;
        outcome.output = None;
        r.tokens_after = r.tokens_before;
        r.ratio = 0.0;
        r.transformed = None;
    }
    ledger::append(&Record::of_report(
        if agent { Source::Hook } else { Source::Run },
        &outcome.report,
        extra.command.as_deref().unwrap_or(""),
    ));
    let r = &outcome.report;
    let wr =
        |b: &[u8]| write_stdout(b).map_err(|e| Error::fatal(format!("run: write stdout: {e}")));
    match (&outcome.output, &r.transformed) {
        (Some(view), Some(t)) => {
            wr(view)?;
            if agent {
                let mut tail = String::new();
                if !view.ends_with(b"\n") {
                    tail.push('\n');
                }
                tail.push_str(&crate::hook::trailer(
                    r.tokens_before,
                    r.tokens_after,
                    r.content_type.as_str(),
                    t.recovery_handle.as_str(),
                ));
                wr(tail.as_bytes())?;
            }
        }
        _ => wr(output)?,
    }
    if !agent {
        super::io::write_stderr_line(&r.to_json())
            .map_err(|e| Error::fatal(format!("run: write report: {e}")))?;
    }
    Ok(())
}
