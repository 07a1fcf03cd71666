//! `caveman-engine hook claude-code`: one Claude Code hook event in (JSON
//! on stdin), the answer out in that host's format, documented in the
//! hooks reference <https://code.claude.com/docs/en/hooks>:
//!
//! * `PreToolUse` on `Bash`
//!   (<https://code.claude.com/docs/en/hooks#pretooluse-input>,
//!   <https://code.claude.com/docs/en/hooks#pretooluse-decision-control>):
//!   `hookSpecificOutput.updatedInput` carries the whole tool input with
//!   `command` rewritten to `caveman-engine run --profile lean --agent --
//!   bash -c '…'` ("replaces the entire input object").
//! * `PostToolUse` on an MCP tool (`mcp__<server>__<tool>`)
//!   (<https://code.claude.com/docs/en/hooks#posttooluse-input>,
//!   <https://code.claude.com/docs/en/hooks#posttooluse-decision-control>):
//!   `hookSpecificOutput.updatedMCPToolOutput`, "for MCP tools only:
//!   replaces the tool's output with the provided value". The reference
//!   documents no replacement of another tool's output, so none is made.
//!
//! Permissions. The host matches its permission rules against the
//! rewritten command, not the original (reported in
//! <https://github.com/anthropics/claude-code/issues/65393> and
//! <https://github.com/anthropics/claude-code/issues/89448>), so the hook
//! keeps the user's own answers: a command any deny or ask rule might name
//! is left alone (the host applies the rule); a command one of the user's
//! allow rules certainly covers gets that rule's `"allow"` restated, with
//! the rule named in `permissionDecisionReason`; any other is rewritten
//! with no decision, so the host asks about the rewritten command — which
//! it shows in full — where it would have asked about the original.
//! Commands the host may approve on its own as read-only are left alone,
//! since their rewrite would be asked about.
//!
//! Nothing here may block or break the tool call: any failure is exit 0
//! with no output, and the reason goes to the ledger.

pub mod settings;
pub mod shell;

use std::path::PathBuf;

use crate::ledger::{self, Record, Source};
use crate::rules::{self, Plan};

/// The largest event read (a PostToolUse event carries the whole output).
pub const MAX_EVENT: usize = 64 << 20;

/// Commands that only read, which the host may run without asking.
const READ_ONLY: [&str; 12] = [
    "ls", "pwd", "cat", "head", "tail", "wc", "echo", "which", "whoami", "date", "file", "stat",
];

/// What the hook decided, for the answer and `--explain`.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The JSON to print (none: let the tool call go on as it is).
    pub answer: Option<String>,
    /// The rule that decided, and why (printed by `--explain`).
    pub rule: &'static str,
    pub why: String,
}

fn pass(rule: &'static str, why: impl Into<String>) -> Decision {
    Decision {
        answer: None,
        rule,
        why: why.into(),
    }
}

/// Where the hook finds things; from the process, or set by tests.
#[derive(Debug, Clone)]
pub struct Env {
    /// The `caveman-engine` the rewrite runs.
    pub exe: String,
    /// Settings files whose permission rules apply.
    pub permission_files: Vec<PathBuf>,
    /// Directory the rules are looked up from (the event's `cwd`).
    pub cwd: PathBuf,
}

impl Env {
    /// From the process and the event's `cwd`.
    pub fn from_process(event_cwd: Option<&str>) -> Env {
        let cwd = event_cwd
            .map(PathBuf::from)
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default();
        let project = std::env::var_os("CLAUDE_PROJECT_DIR")
            .filter(|p| !p.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| cwd.clone());
        Env {
            exe: std::env::current_exe()
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_else(|_| "caveman-engine".into()),
            permission_files: settings::permission_files(&project),
            cwd,
        }
    }
}

/// Answers one Claude Code event. `Err` is an internal failure: the
/// caller prints nothing and records the reason.
pub fn claude_code(event: &[u8], env: &Env) -> Result<Decision, String> {
    let v: serde_json::Value =
        serde_json::from_slice(event).map_err(|e| format!("the event is not JSON: {e}"))?;
    let name = v["hook_event_name"].as_str().unwrap_or("");
    let tool = v["tool_name"].as_str().unwrap_or("");
    match (name, tool) {
        ("PreToolUse", "Bash") => pre_bash(&v, env),
        ("PostToolUse", t) if t.starts_with("mcp__") => post_mcp(&v, env),
        ("PostToolUse", t) => Ok(pass(
            "not-documented",
            format!(
                "the hooks reference documents no replacement of {t}'s output (MCP tools only)"
            ),
        )),
        (n, t) => Ok(pass("other-event", format!("{n} on {t:?}: nothing to do"))),
    }
}

fn pre_bash(v: &serde_json::Value, env: &Env) -> Result<Decision, String> {
    let input = v["tool_input"]
        .as_object()
        .ok_or("PreToolUse without tool_input")?;
    let cmd = input
        .get("command")
        .and_then(|c| c.as_str())
        .ok_or("Bash tool_input without command")?;
    let background = input
        .get("run_in_background")
        .and_then(|b| b.as_bool())
        .unwrap_or(false);
    let line = match shell::must_not_rewrite(cmd, background) {
        Ok(l) => l,
        Err(l) => return Ok(pass(l.rule, l.why)),
    };
    // Per-project rules: an invalid file leaves everything untouched.
    let rules = match rules::load(&env.cwd) {
        Ok(r) => r,
        Err(e) => return Ok(pass("rules-invalid", format!("invalid rules file {e}"))),
    };
    for c in &line.commands {
        let words = shell::words_of(c);
        let w: Vec<&str> = words.iter().map(String::as_str).collect();
        if let Plan::Never(n) = rules.plan(&w) {
            return Ok(pass(
                "never",
                format!("`{}` is never compressed ({})", n.value, n.origin),
            ));
        }
    }
    // Permissions: the user's rules decide, never this hook.
    let perms = match settings::permissions(&env.permission_files) {
        Ok(p) => p,
        Err(e) => {
            return Ok(pass(
                "permission-unknown",
                format!("cannot read the permission rules ({e})"),
            ))
        }
    };
    if let Some(r) = perms
        .deny
        .iter()
        .chain(&perms.ask)
        .find(|r| settings::might_match(r, cmd))
    {
        return Ok(pass(
            "permission-rule",
            format!(
                "the rule Bash({}) in {} may apply; the host applies it to the command as written",
                r.pattern,
                r.file.display()
            ),
        ));
    }
    let mode = v["permission_mode"].as_str().unwrap_or("default");
    let allow = perms
        .allow
        .iter()
        .find(|r| settings::certainly_allows(r, cmd.trim()));
    let decision = match (mode, allow) {
        ("bypassPermissions", _) => None,
        (_, Some(r)) => Some(format!(
            "your rule Bash({}) in {} allows `{}`; caveman-engine only compresses its output",
            r.pattern,
            r.file.display(),
            cmd.trim()
        )),
        ("default" | "acceptEdits", None) => {
            let first = line
                .commands
                .first()
                .map(|c| shell::words_of(c))
                .and_then(|w| w.first().cloned())
                .unwrap_or_default();
            if line.commands.len() == 1 && READ_ONLY.contains(&first.as_str()) {
                return Ok(pass(
                    "permission-read-only",
                    format!("the host may run `{first}` without asking; its rewrite would be asked about"),
                ));
            }
            None
        }
        (m, None) => {
            return Ok(pass(
                "permission-mode",
                format!("in permission mode {m:?} with no allow rule of yours for it, the rewrite could change what the host decides"),
            ))
        }
    };
    let rewritten = format!(
        "{} run --profile lean --agent -- bash -c {}",
        shell::word(&env.exe),
        shell::quote(cmd)
    );
    let mut updated = input.clone();
    updated.insert("command".into(), rewritten.clone().into());
    let mut out = serde_json::Map::new();
    out.insert("hookEventName".into(), "PreToolUse".into());
    if let Some(reason) = &decision {
        out.insert("permissionDecision".into(), "allow".into());
        out.insert("permissionDecisionReason".into(), reason.clone().into());
    }
    out.insert("updatedInput".into(), updated.into());
    let answer = serde_json::json!({ "hookSpecificOutput": out }).to_string();
    Ok(Decision {
        answer: Some(answer),
        rule: if decision.is_some() {
            "rewrite-allowed"
        } else {
            "rewrite"
        },
        why: match decision {
            Some(r) => format!("runs as `{rewritten}`; {r}"),
            None => format!("runs as `{rewritten}`; the host decides on it as usual"),
        },
    })
}

/// One text replaced by its view.
struct Compressed {
    text: String,
}

fn post_mcp(v: &serde_json::Value, env: &Env) -> Result<Decision, String> {
    let tool = v["tool_name"].as_str().unwrap_or("");
    let rules = match rules::load(&env.cwd) {
        Ok(r) => r,
        Err(e) => return Ok(pass("rules-invalid", format!("invalid rules file {e}"))),
    };
    if let Plan::Never(n) = rules.plan(&[tool]) {
        return Ok(pass(
            "never",
            format!("`{}` is never compressed ({})", n.value, n.origin),
        ));
    }
    let min = rules.min_bytes.value;
    let lossless_only = matches!(
        rules.plan(&[tool]),
        Plan::Compress {
            lossless: Some(_),
            ..
        }
    );
    let response = &v["tool_response"];
    let store = match crate::store::Store::open(&crate::store::StoreEnv::from_process()) {
        Ok(s) => s,
        Err(e) => return Err(format!("the store cannot be opened: {e}")),
    };
    let mut total = (0usize, 0usize);
    let mut compress = |text: &str| -> Option<Compressed> {
        if text.len() < min || already_compressed(text.as_bytes()) {
            return None;
        }
        let opts = crate::engine::Options {
            profile: crate::profile::Profile::Lean,
            ..Default::default()
        };
        let outcome = crate::engine::compress(text.as_bytes(), &opts, &store);
        let r = &outcome.report;
        ledger::append(&Record::of_report(Source::Hook, r, tool));
        let t = r.transformed.as_ref()?;
        if lossless_only && !t.lossless_to_model {
            return None;
        }
        let view = String::from_utf8(outcome.output.clone()?).ok()?;
        let mut text = view;
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&trailer(
            r.tokens_before,
            r.tokens_after,
            r.content_type.as_str(),
            t.recovery_handle.as_str(),
        ));
        total.0 += r.tokens_before;
        total.1 += r.tokens_after;
        Some(Compressed { text })
    };
    // The output keeps its shape: a string stays a string; content blocks
    // stay content blocks, each text block's text replaced by its view.
    let replaced: Option<serde_json::Value> = match response {
        serde_json::Value::String(s) => compress(s).map(|c| c.text.into()),
        serde_json::Value::Array(blocks) => replace_blocks(blocks, &mut compress).map(Into::into),
        serde_json::Value::Object(o) => match o.get("content") {
            Some(serde_json::Value::Array(blocks)) => {
                replace_blocks(blocks, &mut compress).map(|b| {
                    let mut o = o.clone();
                    o.insert("content".into(), b.into());
                    serde_json::Value::Object(o)
                })
            }
            _ => {
                return Ok(pass(
                    "shape",
                    "the output is neither text nor content blocks: left as it is",
                ))
            }
        },
        _ => return Ok(pass("shape", "the output is not text: left as it is")),
    };
    let Some(replaced) = replaced else {
        return Ok(pass(
            "small-or-unchanged",
            format!("no text block of {min} bytes or more got a smaller view"),
        ));
    };
    let answer = serde_json::json!({
        "hookSpecificOutput": {
            "hookEventName": "PostToolUse",
            "updatedMCPToolOutput": replaced,
        }
    })
    .to_string();
    Ok(Decision {
        answer: Some(answer),
        rule: "replace",
        why: format!("{} → {} tokens, the originals stored", total.0, total.1),
    })
}

/// Content blocks with each large `text` block replaced by its view;
/// `None` when none was replaced.
fn replace_blocks(
    blocks: &[serde_json::Value],
    compress: &mut impl FnMut(&str) -> Option<Compressed>,
) -> Option<Vec<serde_json::Value>> {
    let mut any = false;
    let out = blocks
        .iter()
        .map(|b| {
            let text = (b["type"] == "text").then(|| b["text"].as_str()).flatten();
            match text.and_then(&mut *compress) {
                Some(c) => {
                    any = true;
                    let mut b = b.clone();
                    b["text"] = c.text.into();
                    b
                }
                None => b.clone(),
            }
        })
        .collect();
    any.then_some(out)
}

/// Records a hook failure in the ledger.
pub fn record_failure(why: &str) {
    ledger::append(&Record {
        time: ledger::now(),
        source: Some(Source::Hook),
        note: why.to_string(),
        ..Record::default()
    });
}

/// The project directory an event names (its `cwd`).
pub fn event_cwd(event: &[u8]) -> Option<String> {
    let v: serde_json::Value = serde_json::from_slice(event).ok()?;
    v["cwd"].as_str().map(str::to_string)
}

/// Whether `bytes` is already a caveman view (its markers or a handle).
pub fn already_compressed(bytes: &[u8]) -> bool {
    const SIGNS: [&[u8]; 4] = [
        b"elided (caveman)",
        b"\"__caveman_elided__\"",
        b"\xe2\x80\xa6 caveman: ",
        b"caveman-engine retrieve ccr_",
    ];
    SIGNS
        .iter()
        .any(|s| memchr::memmem::find(bytes, s).is_some())
}

/// The line an agent's view ends with: the counts, the handle and how to
/// get the whole output back.
pub fn trailer(before: usize, after: usize, ct: &str, handle: &str) -> String {
    format!(
        "\u{2026} caveman: {before} \u{2192} {after} tokens ({ct}); the whole output: `caveman-engine retrieve {handle}` (add a query to narrow it) \u{2026}\n"
    )
}
