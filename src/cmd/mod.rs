//! The command line: one module per subcommand, each turning its arguments
//! into options and calling the core. Commands return [`Result`]; the
//! binary prints the error and exits with its code in one place.

mod compress;
mod detect;
mod io;
mod retrieve;
mod stats;
mod toon;

pub use io::MAX_STDIN;

use crate::error::{Error, Result};

/// The reference's help line (spec/cli.md §1), kept for the no-argument
/// form; `registry`, `pixel` and `evals` are not part of this build.
const HELP: &str =
    "caveman-engine compress | detect | retrieve <handle> | stats | toon encode|decode";

/// Runs the command named by `args[1]` (`args[0]` is the program).
pub fn run(args: &[String]) -> Result<()> {
    let sub = args.get(1).map(String::as_str).unwrap_or("help");
    let rest = args.get(2..).unwrap_or(&[]);
    match sub {
        "compress" => compress::run(rest),
        "detect" => detect::run(),
        "retrieve" => retrieve::run(rest),
        "stats" => stats::run(),
        "toon" => toon::run(rest),
        "help" | "--help" | "-h" => {
            io::print_stderr_line(HELP);
            Ok(())
        }
        // cli.md §9: `pixel` with no verb is a usage error (exit 2).
        "pixel" if rest.is_empty() => {
            Err(Error::usage("usage: caveman-engine pixel render|simulate"))
        }
        "registry" | "pixel" | "evals" => Err(Error::fatal(format!(
            "caveman-engine: {sub} is not part of this build; see README.md"
        ))),
        other => Err(Error::usage(format!(
            "unknown caveman-engine subcommand: {other}"
        ))),
    }
}
