//! `config`: the effective per-project rules (`.caveman.toml` searched
//! upward from here, then `config.toml` in the store's home, then the
//! built-in defaults) and where each came from.

use super::io::write_stdout;
use crate::error::{Error, Result};

pub fn run(args: &[String]) -> Result<()> {
    if let Some(a) = args.first() {
        return Err(Error::usage(format!(
            "config: unexpected argument {a:?}\nusage: caveman-engine config"
        )));
    }
    let cwd = std::env::current_dir().map_err(|e| Error::fatal(format!("config: {e}")))?;
    let rules = crate::rules::load(&cwd).map_err(|e| {
        Error::fatal(format!(
            "caveman-engine: invalid rules file {e}\n  (run and the hooks leave output untouched until it is fixed)"
        ))
    })?;
    write_stdout(rules.describe().as_bytes())
        .map_err(|e| Error::fatal(format!("write stdout: {e}")))
}
