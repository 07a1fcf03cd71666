//! `init claude-code [--user|--project] [--mcp] [--uninstall]`: merges the
//! hook entries into Claude Code's settings file (and, with `--mcp`, the
//! MCP server into the project's `.mcp.json`), keeping every other key and
//! hook, idempotently, after a backup, and says what it changed. `init`
//! alone names the hosts it can and cannot set up.
//!
//! Settings files: <https://code.claude.com/docs/en/settings#settings-files>;
//! hook configuration: <https://code.claude.com/docs/en/hooks#configuration>;
//! MCP scopes (`.mcp.json` for a project):
//! <https://code.claude.com/docs/en/mcp#mcp-installation-scopes>.

use std::path::{Path, PathBuf};

use super::io::write_stdout;
use crate::error::{Error, Result};
use crate::hook::settings::{write_atomically, Json};
use crate::hook::shell;

const USAGE: &str =
    "usage: caveman-engine init claude-code [--user|--project] [--mcp] [--uninstall]";

const HOSTS: &str = "caveman-engine init can set up:
  claude-code   hooks (PreToolUse on Bash, PostToolUse on MCP tools) in ~/.claude/settings.json
                or .claude/settings.json (--project); the MCP server in .mcp.json (--project --mcp)
It cannot set up other hosts (Cursor, Codex, Gemini CLI, Windsurf, Cline, Zed, …): their hook
formats differ and are not implemented. Add the MCP server to them by hand: command `caveman-mcp`,
args [\"--profile\", \"lean\"], transport stdio.
";

/// The name the hook entries are recognised by.
const HOOK_ARGS: &str = "hook claude-code";

fn is_ours(cmd: &str) -> bool {
    cmd.contains("caveman-engine") && cmd.contains(HOOK_ARGS)
}

/// One change, as printed.
struct Change(String);

/// Adds (or updates) our hook under `event` with `matcher`; returns the
/// change, if any.
fn add_hook(doc: &mut Json, event: &str, matcher: &str, command: &str) -> Result<Option<Change>> {
    let not_object =
        || Error::fatal("init: the settings' \"hooks\" is not an object; nothing changed");
    let hooks = doc
        .entry("hooks", Json::Object(Vec::new()))
        .ok_or_else(not_object)?;
    let groups = hooks
        .entry(event, Json::Array(Vec::new()))
        .ok_or_else(not_object)?;
    let Json::Array(groups) = groups else {
        return Err(Error::fatal(format!(
            "init: hooks.{event} is not a list; nothing changed"
        )));
    };
    for g in groups.iter_mut() {
        if g.get("matcher").and_then(Json::as_str) != Some(matcher) {
            continue;
        }
        let Some(Json::Array(list)) = g.entry("hooks", Json::Array(Vec::new())) else {
            continue;
        };
        for h in list.iter_mut() {
            let Some(cmd) = h.get("command").and_then(Json::as_str).map(str::to_string) else {
                continue;
            };
            if is_ours(&cmd) {
                if cmd == command {
                    return Ok(None);
                }
                if let Some(c) = h.entry("command", Json::Null) {
                    *c = Json::String(command.to_string());
                }
                return Ok(Some(Change(format!(
                    "~ hooks.{event} ({matcher}): {cmd} → {command}"
                ))));
            }
        }
    }
    groups.push(Json::Object(vec![
        ("matcher".into(), Json::String(matcher.into())),
        (
            "hooks".into(),
            Json::Array(vec![Json::Object(vec![
                ("type".into(), Json::String("command".into())),
                ("command".into(), Json::String(command.into())),
            ])]),
        ),
    ]));
    Ok(Some(Change(format!(
        "+ hooks.{event} ({matcher}): {command}"
    ))))
}

/// Removes our hooks from every event; empty groups and lists we leave
/// behind go too.
fn remove_hooks(doc: &mut Json) -> Vec<Change> {
    let mut changes = Vec::new();
    let Some(Json::Object(events)) = doc.entry("hooks", Json::Object(Vec::new())) else {
        return changes;
    };
    for (event, groups) in events.iter_mut() {
        let Json::Array(groups) = groups else {
            continue;
        };
        for g in groups.iter_mut() {
            let matcher = g
                .get("matcher")
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_string();
            if let Some(Json::Array(list)) = g.entry("hooks", Json::Array(Vec::new())) {
                list.retain(|h| {
                    let ours = h.get("command").and_then(Json::as_str).is_some_and(is_ours);
                    if ours {
                        changes.push(Change(format!(
                            "- hooks.{event} ({matcher}): {}",
                            h.get("command").and_then(Json::as_str).unwrap_or("")
                        )));
                    }
                    !ours
                });
            }
        }
        groups.retain(|g| !g.get("hooks").is_some_and(Json::is_empty_container));
    }
    events.retain(|(_, g)| !g.is_empty_container());
    if doc.get("hooks").is_some_and(Json::is_empty_container) {
        doc.remove("hooks");
    }
    changes
}

/// Reads `path` as settings JSON (a missing file is `{}`); refuses a file
/// that is not plain JSON or that we may not write.
fn read_settings(path: &Path) -> Result<(Json, Option<String>)> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok((Json::Object(Vec::new()), None))
        }
        Err(e) => {
            return Err(Error::fatal(format!(
                "init: read {}: {}; nothing changed",
                path.display(),
                crate::go::os::errno_text(&e)
            )))
        }
    };
    let doc = if text.trim().is_empty() {
        Json::Object(Vec::new())
    } else {
        Json::parse(&text).map_err(|e| {
            Error::fatal(format!(
                "init: {} is not plain JSON ({e}; comments are not JSON); nothing changed",
                path.display()
            ))
        })?
    };
    if !matches!(doc, Json::Object(_)) {
        return Err(Error::fatal(format!(
            "init: {} is not a JSON object; nothing changed",
            path.display()
        )));
    }
    Ok((doc, Some(text)))
}

/// Writes `doc` to `path` after a backup of `old`; refuses a read-only file.
fn save(path: &Path, doc: &Json, old: Option<&str>) -> Result<Option<PathBuf>> {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap_or_default();
    // Read-only to its owner's intent (no write bit: even root is told
    // no), or to us.
    let no_write_bit = std::fs::metadata(path)
        .is_ok_and(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o222 == 0);
    // SAFETY: access(2) reads a NUL-terminated path and has no other effect.
    if old.is_some() && (no_write_bit || unsafe { libc::access(c.as_ptr(), libc::W_OK) } != 0) {
        return Err(Error::fatal(format!(
            "init: {} is read-only; nothing changed (make it writable, or add the entries by hand)",
            path.display()
        )));
    }
    let fail = |what: &str, p: &Path, e: std::io::Error| {
        Error::fatal(format!(
            "init: {what} {}: {}; nothing changed",
            p.display(),
            crate::go::os::errno_text(&e)
        ))
    };
    let backup = match old {
        Some(text) => {
            let mut b = path.as_os_str().to_owned();
            b.push(".caveman-backup");
            let b = PathBuf::from(b);
            write_atomically(&b, text).map_err(|e| fail("write backup", &b, e))?;
            Some(b)
        }
        None => None,
    };
    write_atomically(path, &doc.pretty()).map_err(|e| fail("write", path, e))?;
    Ok(backup)
}

/// Adds or removes the MCP server entry in `.mcp.json`.
fn mcp_entry(doc: &mut Json, command: &str, args: &[&str], uninstall: bool) -> Option<Change> {
    let servers = doc.entry("mcpServers", Json::Object(Vec::new()))?;
    if uninstall {
        let had = servers.get("caveman").is_some();
        servers.remove("caveman");
        if servers.is_empty_container() {
            doc.remove("mcpServers");
        }
        return had.then(|| Change("- mcpServers.caveman".into()));
    }
    let want = Json::Object(vec![
        ("command".into(), Json::String(command.into())),
        (
            "args".into(),
            Json::Array(args.iter().map(|a| Json::String(a.to_string())).collect()),
        ),
    ]);
    if servers.get("caveman") == Some(&want) {
        return None;
    }
    let existed = servers.get("caveman").is_some();
    *servers.entry("caveman", Json::Null)? = want;
    Some(Change(format!(
        "{} mcpServers.caveman: {command} {}",
        if existed { "~" } else { "+" },
        args.join(" ")
    )))
}

fn edit(path: &Path, f: impl FnOnce(&mut Json) -> Result<Vec<Change>>) -> Result<String> {
    let (mut doc, old) = read_settings(path)?;
    let changes = f(&mut doc)?;
    let mut out = format!("{}\n", path.display());
    if changes.is_empty() {
        out.push_str("  nothing to change\n");
        return Ok(out);
    }
    let backup = save(path, &doc, old.as_deref())?;
    for c in &changes {
        out.push_str(&format!("  {}\n", c.0));
    }
    match backup {
        Some(b) => out.push_str(&format!("  backup of the previous file: {}\n", b.display())),
        None => out.push_str("  (a new file)\n"),
    }
    Ok(out)
}

pub fn run(args: &[String]) -> Result<()> {
    let Some(host) = args.first() else {
        return write_stdout(HOSTS.as_bytes())
            .map_err(|e| Error::fatal(format!("write stdout: {e}")));
    };
    if host == "--help" || host == "-h" {
        return super::help(&["init"]);
    }
    if host == "--list" {
        return write_stdout(HOSTS.as_bytes())
            .map_err(|e| Error::fatal(format!("write stdout: {e}")));
    }
    if host != "claude-code" {
        return Err(Error::unknown_command(format!(
            "init: caveman-engine cannot set up {host:?}\n{HOSTS}"
        )));
    }
    let (mut project, mut mcp, mut uninstall) = (false, false, false);
    for a in &args[1..] {
        match a.as_str() {
            "--project" => project = true,
            "--user" => project = false,
            "--mcp" => mcp = true,
            "--uninstall" => uninstall = true,
            _ => {
                return Err(Error::usage(format!(
                    "init: unknown argument {a:?}\n{USAGE}"
                )))
            }
        }
    }
    let exe = std::env::current_exe()
        .map_err(|e| Error::fatal(format!("init: where is this program? {e}")))?;
    let command = format!("{} {HOOK_ARGS}", shell::word(&exe.to_string_lossy()));
    let base = if project {
        std::env::current_dir().map_err(|e| Error::fatal(format!("init: {e}")))?
    } else {
        PathBuf::from(
            std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .ok_or_else(|| Error::fatal("init: $HOME is not defined; use --project"))?,
        )
    };
    let settings = base.join(".claude/settings.json");
    let mut out = edit(&settings, |doc| {
        if uninstall {
            return Ok(remove_hooks(doc));
        }
        let mut changes = Vec::new();
        // Matchers: https://code.claude.com/docs/en/hooks#matcher-patterns
        // (`mcp__.*` is every MCP tool).
        changes.extend(add_hook(doc, "PreToolUse", "Bash", &command)?);
        changes.extend(add_hook(doc, "PostToolUse", "mcp__.*", &command)?);
        Ok(changes)
    })?;
    if mcp {
        let beside = exe.with_file_name("caveman-mcp");
        let (server, server_args): (String, Vec<&str>) = if beside.is_file() {
            (
                beside.to_string_lossy().into_owned(),
                vec!["--profile", "lean"],
            )
        } else {
            (
                exe.to_string_lossy().into_owned(),
                vec!["mcp", "--profile", "lean"],
            )
        };
        if project {
            out.push_str(&edit(&base.join(".mcp.json"), |doc| {
                Ok(mcp_entry(doc, &server, &server_args, uninstall)
                    .into_iter()
                    .collect())
            })?);
        } else {
            // User-scope servers live in ~/.claude.json, which Claude Code
            // itself rewrites: its own command is the safe way in.
            out.push_str(&format!(
                "the MCP server is not written for --user; run:\n  claude mcp {} --scope user caveman{}\n",
                if uninstall { "remove" } else { "add" },
                if uninstall {
                    String::new()
                } else {
                    format!(" -- {} {}", shell::word(&server), server_args.join(" "))
                }
            ));
        }
    }
    if !uninstall {
        out.push_str(
            "Restart Claude Code (or open /hooks) to load the hooks. `caveman-engine gain` shows what they saved.\n",
        );
    }
    write_stdout(out.as_bytes()).map_err(|e| Error::fatal(format!("write stdout: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_keeps_others_and_is_idempotent() {
        let text = r#"{"model":"x","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"my-guard"}]}]},"z":[1]}"#;
        let mut doc = Json::parse(text).unwrap();
        let cmd = "/bin/caveman-engine hook claude-code";
        assert!(add_hook(&mut doc, "PreToolUse", "Bash", cmd)
            .unwrap()
            .is_some());
        assert!(add_hook(&mut doc, "PreToolUse", "Bash", cmd)
            .unwrap()
            .is_none());
        let pretty = doc.pretty();
        assert!(pretty.contains("my-guard") && pretty.find("\"model\"") < pretty.find("\"z\""));
        let removed = remove_hooks(&mut doc);
        assert_eq!(removed.len(), 1);
        assert_eq!(doc, Json::parse(text).unwrap());
    }
}
