//! `hook claude-code [--explain]`: answers one Claude Code hook event on
//! stdin (the logic is `crate::hook`). It never blocks or breaks the tool
//! call: whatever happens, it exits 0; a failure prints nothing and goes
//! to the ledger. `--explain` says on stderr which rule decided.

use std::io::Read;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::error::Result;
use crate::hook;

pub fn run(args: &[String]) -> Result<()> {
    let host = args.first().map(String::as_str).unwrap_or("");
    if host == "--help" || host == "-h" {
        return super::help(&["hook"]);
    }
    let explain = args.iter().any(|a| a == "--explain");
    if host != "claude-code" {
        // Exit 0 even so: a hook that exits 2 blocks the tool call.
        super::io::print_stderr_line(&format!(
            "caveman-engine hook: unknown host {host:?} (claude-code); the tool call goes on untouched"
        ));
        return Ok(());
    }
    let mut event = Vec::new();
    let read = std::io::stdin()
        .lock()
        .take(hook::MAX_EVENT as u64 + 1)
        .read_to_end(&mut event);
    let result = match read {
        Err(e) => Err(format!("read stdin: {e}")),
        Ok(_) if event.len() > hook::MAX_EVENT => {
            Err(format!("the event is over {} bytes", hook::MAX_EVENT))
        }
        Ok(_) => catch_unwind(AssertUnwindSafe(|| {
            let env = hook::Env::from_process(hook::event_cwd(&event).as_deref());
            hook::claude_code(&event, &env)
        }))
        .unwrap_or_else(|_| Err("internal error (a bug: please report it with the event)".into())),
    };
    match result {
        Ok(d) => {
            if let Some(answer) = &d.answer {
                let mut line = answer.clone().into_bytes();
                line.push(b'\n');
                if super::io::write_stdout(&line).is_err() {
                    hook::record_failure("write stdout failed");
                }
            }
            if explain {
                super::io::print_stderr_line(&format!("explain: {}: {}", d.rule, d.why));
            }
        }
        Err(why) => {
            hook::record_failure(&why);
            if explain {
                super::io::print_stderr_line(&format!("explain: failure: {why}"));
            }
        }
    }
    Ok(())
}
