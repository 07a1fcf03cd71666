//! `caveman-mcp`: the MCP stdio server (spec/mcp.md). A thin entry point:
//! it runs `caveman-engine mcp` with its arguments (the `caveman-engine`
//! beside this program, else the one on PATH), so the engine ships once.
//! Signals, stdio and the exit status are the engine's own (`exec`).

use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(|d| d.join("caveman-engine")))
        .filter(|p| p.is_file());
    let engine = beside.unwrap_or_else(|| PathBuf::from("caveman-engine"));
    let err = Command::new(&engine)
        .arg("mcp")
        .args(std::env::args_os().skip(1))
        .exec();
    eprintln!(
        "caveman-mcp: cannot run {} ({err}); install caveman-engine beside caveman-mcp or on PATH",
        engine.display()
    );
    std::process::exit(127);
}
