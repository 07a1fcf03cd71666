//! The command line: one module per subcommand, each turning its arguments
//! into options and calling the core. Commands return [`Result`]; the
//! binary prints the error and exits with its code in one place. Help,
//! completions and the man page come from one description ([`cli`]).

mod agent;
mod cli;
mod compress;
mod config;
mod detect;
mod evals;
mod explain;
mod gain;
mod hook;
mod init;
mod io;
mod large;
mod pixel;
mod pixel_simulate;
mod registry;
mod retrieve;
mod run;
mod stats;
mod store;
mod toon;

pub use io::MAX_STDIN;

use crate::error::{Error, Result};

/// The reference's help line (spec/cli.md §1), printed on stderr by the
/// bare command, byte for byte; `--help` prints the real usage.
const HELP_LINE: &str = "caveman-engine compress | detect | retrieve <handle> | stats | registry | toon encode|decode | pixel render|simulate | evals run [--fixtures DIR]";

/// Opens the recovery store from the environment. The refusal messages
/// are the reference's (scripts match them); when a person reads stderr
/// on a terminal, a second line says what the store is and how to fix it.
fn open_store() -> Result<crate::store::Store> {
    open_store_or_why().map_err(Error::fatal)
}

/// The store, or the message saying why it cannot be opened (with a hint
/// on a terminal when the fix is a `chmod`).
fn open_store_or_why() -> std::result::Result<crate::store::Store, String> {
    use crate::store::{Store, StoreEnv};
    Store::open(&StoreEnv::from_process()).map_err(|e| {
        let mut msg = e.to_string();
        if stderr_is_tty() && msg.ends_with("is group/world writable") {
            msg.push_str(
                "\n  hint: that directory holds caveman's recovery store (plain files, no \
                 SQLite); make it private with `chmod go-w` on it, or set CAVEMAN_CCR_DIR \
                 to a directory only you can write",
            );
        }
        msg
    })
}

fn stderr_is_tty() -> bool {
    // SAFETY: isatty has no preconditions.
    unsafe { libc::isatty(2) == 1 }
}

/// Whether `arg` asks for help.
fn is_help(arg: &str) -> bool {
    arg == "--help" || arg == "-h"
}

fn print(text: &str) -> Result<()> {
    io::write_stdout(text.as_bytes()).map_err(|e| Error::fatal(format!("write stdout: {e}")))
}

/// Help for `path` (a command and its subcommand) on stdout.
fn help(path: &[&str]) -> Result<()> {
    match cli::help(path) {
        Some(text) => print(&text),
        None => Err(Error::unknown_command(format!(
            "unknown caveman-engine subcommand: {}",
            path.join(" ")
        ))),
    }
}

fn version(verbose: bool) -> Result<()> {
    let mut text = format!("caveman-engine {}\n", env!("CARGO_PKG_VERSION"));
    if verbose {
        text.push_str(&format!(
            "o200k_base vocabulary: blake3 {}\nstore format: CCR1 (one file per handle)\n",
            crate::tokens::vocab::checksum()
        ));
    }
    print(&text)
}

/// Runs the command named by `args[1]` (`args[0]` is the program).
pub fn run(args: &[String]) -> Result<()> {
    let Some(sub) = args.get(1).map(String::as_str) else {
        io::print_stderr_line(HELP_LINE);
        return Ok(());
    };
    let rest = args.get(2..).unwrap_or(&[]);
    // `CMD --help` / `CMD -h` prints help without reading stdin. For
    // `compress` a flag's value may itself be `--help` (`--query --help`),
    // so compress looks for it among its flags.
    let first_is_help = rest.first().is_some_and(|a| is_help(a));
    let any_help = rest.iter().any(|a| is_help(a));
    // Under lean, arguments compat ignores (cli.md §1) are usage errors.
    let strict = crate::profile::Profile::from_env().is_ok_and(|p| p.is_lean());
    let extra = |max: usize| -> Result<()> {
        match rest.get(max) {
            Some(a) if strict => Err(Error::usage(format!(
                "{sub}: unexpected argument {a:?}\nusage: {}",
                cli::usage(sub)
            ))),
            _ => Ok(()),
        }
    };
    match sub {
        "compress" => compress::run(rest),
        "detect" if rest.iter().any(|a| is_help(a)) => help(&["detect"]),
        "detect" => detect::run(rest),
        "retrieve" if first_is_help => help(&[sub]),
        "stats" | "toon" | "man" | "version" | "registry" if any_help => help(&[sub]),
        "retrieve" => extra(2).and_then(|_| retrieve::run(rest)),
        "stats" => extra(0).and_then(|_| stats::run()),
        "toon" => extra(1).and_then(|_| toon::run(rest)),
        "store" => match rest.first().map(String::as_str) {
            None => help(&["store"]),
            Some(a) if is_help(a) => help(&["store"]),
            Some(verb) if rest.get(1).is_some_and(|a| is_help(a)) => help(&["store", verb]),
            Some(_) => store::run(rest),
        },
        "mcp" => match crate::mcp::main(rest) {
            0 => Ok(()),
            code => Err(Error::exit(code)),
        },
        "help" | "--help" | "-h" => {
            let path: Vec<&str> = rest.iter().map(String::as_str).collect();
            help(&path)
        }
        "version" | "--version" | "-V" => {
            version(rest.iter().any(|a| a == "--verbose" || a == "-v"))
        }
        "completions" => match rest.first().map(String::as_str) {
            Some(a) if is_help(a) => help(&["completions"]),
            Some(shell) => match cli::completions(shell) {
                Some(script) => io::write_stdout(&script)
                    .map_err(|e| Error::fatal(format!("write stdout: {e}"))),
                None => Err(Error::usage(format!(
                    "completions: unknown shell {shell:?} (bash, zsh or fish)"
                ))),
            },
            None => Err(Error::usage(
                "usage: caveman-engine completions bash|zsh|fish",
            )),
        },
        "man" => io::write_stdout(&cli::man_page())
            .map_err(|e| Error::fatal(format!("write stdout: {e}"))),
        "pixel" => pixel::run(rest),
        "registry" => extra(0).and_then(|_| registry::run()),
        "run" => run::run(rest),
        // A hook must never exit 2 (that blocks the tool call): its own
        // arguments, help included, are handled inside.
        "hook" => hook::run(rest),
        "init" => init::run(rest),
        "gain" | "config" if any_help => help(&[sub]),
        "gain" => gain::run(rest),
        "config" => config::run(rest),
        "evals" if any_help => help(&["evals", "run"]),
        "evals" => evals::run(rest),
        other => Err(Error::unknown_command(format!(
            "unknown caveman-engine subcommand: {other}"
        ))),
    }
}
