//! `compress [--type T] [--query Q]` (spec/cli.md §3).

use super::io::{write_stderr_line, write_stdout};
use crate::content_type::ContentType;
use crate::engine::{self, Options};
use crate::error::{Error, Result};
use crate::go::unicode::equal_fold_ascii;
use crate::profile::Profile;

/// What the flags ask for besides the engine's options.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Extra {
    pub(super) explain: bool,
    pub(super) help: bool,
    /// `--profile` was given (it wins over the environment).
    pub(super) profile_flag: bool,
    /// `--budget` was given (it wins over the environment).
    pub(super) budget_flag: bool,
    /// The command `run` ran (its ledger record names it); `None` for
    /// `compress`.
    pub(super) command: Option<String>,
    /// Why a value in the environment could not be used
    /// (`CAVEMAN_ENGINE_PROFILE=Lean`, `CAVEMAN_ENGINE_BUDGET=0`): the
    /// payload is not lost to it. The input passes through and stderr says
    /// why in one line after the report (a flag on the command line still
    /// fails at once: whoever typed it is there to read the error).
    pub(super) env_warning: Option<String>,
}

/// The usage line a bad value of one of this project's own flags prints
/// (the reference's flags keep their own messages).
const USAGE: &str = "usage: caveman-engine compress [--type T] [--query Q] [--profile compat|lean] [--budget N] [--explain]";

/// `--profile NAME`'s value.
pub(super) fn profile_value(v: &str) -> std::result::Result<Profile, Error> {
    Profile::from_name(v).ok_or_else(|| Error::usage(crate::profile::unknown("--profile", v)))
}

/// `--budget N`'s value: a positive whole number of tokens.
fn budget_value(source: &str, v: &str) -> std::result::Result<usize, Error> {
    match v.trim().parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(Error::usage(format!(
            "{source}: {v:?} is not a token budget (a whole number above 0)\n{USAGE}"
        ))),
    }
}

/// The budget `CAVEMAN_ENGINE_BUDGET` sets: unset or empty is none; the
/// error is one line naming the variable and its value.
fn budget_from_env() -> std::result::Result<Option<usize>, String> {
    const ENV: &str = "CAVEMAN_ENGINE_BUDGET";
    match std::env::var(ENV) {
        Ok(v) if !v.is_empty() => match v.trim().parse::<usize>() {
            Ok(n) if n > 0 => Ok(Some(n)),
            _ => Err(format!(
                "{ENV}: {v:?} is not a token budget (a whole number above 0)"
            )),
        },
        _ => Ok(None),
    }
}

/// Parses the flags left to right (the error is the fatal message),
/// including this project's own: `--explain`, and `--help`/`-h` in a flag
/// position (not as a flag's value).
pub(super) fn parse_all(args: &[String]) -> std::result::Result<(Options, Extra), Error> {
    let mut opts = Options::default();
    let mut extra = Extra::default();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "--type" => {
                let v = args.get(i + 1).ok_or_else(|| {
                    Error::fatal("usage: caveman-engine compress [--type <content-type>]")
                })?;
                opts.forced_type = match v.as_str() {
                    "" | "auto" => None,
                    t => Some(ContentType::from_name(t)),
                };
                i += 2;
            }
            "--query" => {
                let v = args.get(i + 1).ok_or_else(|| {
                    Error::fatal("usage: caveman-engine compress [--query <text>]")
                })?;
                opts.query = v.clone();
                i += 2;
            }
            _ if a.starts_with("--query=") => {
                opts.query = a["--query=".len()..].to_string();
                i += 1;
            }
            "--explain" => {
                extra.explain = true;
                opts.explain = true;
                i += 1;
            }
            "--profile" | "--budget" => {
                let v = args.get(i + 1).ok_or_else(|| Error::usage(USAGE))?;
                if a == "--profile" {
                    opts.profile = profile_value(v)?;
                    extra.profile_flag = true;
                } else {
                    opts.budget = Some(budget_value(a, v)?);
                    extra.budget_flag = true;
                }
                i += 2;
            }
            _ if a.starts_with("--profile=") => {
                opts.profile = profile_value(&a["--profile=".len()..])?;
                extra.profile_flag = true;
                i += 1;
            }
            _ if a.starts_with("--budget=") => {
                opts.budget = Some(budget_value("--budget", &a["--budget=".len()..])?);
                extra.budget_flag = true;
                i += 1;
            }
            "--help" | "-h" => {
                extra.help = true;
                return Ok((opts, extra));
            }
            _ => return Err(Error::fatal(format!("unknown compress flag: {a}"))),
        }
    }
    opts.toon_best_of = std::env::var("CAVE_ENGINE_TOON").is_ok_and(|v| is_best_of(&v));
    if !extra.profile_flag {
        match Profile::from_env() {
            Ok(p) => opts.profile = p,
            Err(why) => extra.env_warning = Some(why),
        }
    }
    if !extra.budget_flag {
        match budget_from_env() {
            Ok(b) => opts.budget = b,
            Err(why) => {
                extra.env_warning.get_or_insert(why);
            }
        }
    }
    Ok((opts, extra))
}

/// Go `strings.EqualFold(v, "best-of")` (simple folding: `ſ` is `s`).
fn is_best_of(v: &str) -> bool {
    equal_fold_ascii(v, "best-of")
}

pub fn run(args: &[String]) -> Result<()> {
    let (opts, extra) = parse_all(args)?;
    if extra.help {
        return super::help(&["compress"]);
    }
    let input = match super::io::read_stdin_capped()? {
        super::io::Stdin::Whole(input) => input,
        // Without a budget compat keeps the reference's cap (exit 1); a
        // budget or lean streams it, losing nothing.
        super::io::Stdin::TooLarge(head) => {
            let compat = opts.profile == Profile::Compat;
            return super::large::publish(
                head,
                &mut std::io::stdin().lock(),
                &opts,
                &extra,
                compat,
            );
        }
    };
    publish(&input, &opts, &extra)
}

/// Compresses `input` and prints the view, the report and the account.
pub(super) fn publish(input: &[u8], opts: &Options, extra: &Extra) -> Result<()> {
    if let Some(why) = &extra.env_warning {
        return pass_through(input, opts, why);
    }
    // A store that cannot be opened loses nothing: the engine's put fails,
    // the input passes through with `cave_ccr_unavailable` in the report,
    // and a terminal is told why. An object store (`CAVEMAN_CCR_URL`, this
    // project's own) says why it refused whoever reads stderr, once.
    let remote = std::env::var_os("CAVEMAN_CCR_URL").is_some_and(|v| !v.is_empty());
    let (store, refusal) = match super::open_store_or_why() {
        Ok(store) => (store, None),
        Err(why) => (crate::store::Store::unusable(why.clone()), Some(why)),
    };
    let outcome = engine::compress(input, opts, &store);
    crate::ledger::append(&crate::ledger::Record::of_report(
        match extra.command {
            Some(_) => crate::ledger::Source::Run,
            None => crate::ledger::Source::Compress,
        },
        &outcome.report,
        extra.command.as_deref().unwrap_or(""),
    ));
    let out = outcome.output.as_deref().unwrap_or(input);
    write_stdout(out).map_err(|e| Error::fatal(format!("compress: write stdout: {e}")))?;
    write_stderr_line(&outcome.report.to_json())
        .map_err(|e| Error::fatal(format!("compress: write report: {e}")))?;
    if extra.explain {
        for line in super::explain::compress(&outcome) {
            let _ = write_stderr_line(line.as_bytes());
        }
    }
    let why = refusal.or_else(|| store.put_failure());
    if let Some(why) = why.filter(|_| remote || super::stderr_is_tty()) {
        let note = format!("caveman-engine: {why}; the input passed through");
        let _ = write_stderr_line(note.as_bytes());
    }
    Ok(())
}

/// `input` unchanged on stdout, its report (the type detection names, the
/// exact count), then `why` on stderr: for options the environment set
/// that cannot be used.
fn pass_through(input: &[u8], opts: &Options, why: &str) -> Result<()> {
    let (body, _) = crate::unwrap::unwrap_as(input, opts.profile);
    let content_type = match &opts.forced_type {
        Some(t) => t.clone(),
        None => crate::detect::detect_as(&body, opts.profile, false, false).ct,
    };
    let tokens = crate::tokens::count(input);
    let report = crate::report::Report {
        content_type,
        tokens_before: tokens,
        tokens_after: tokens,
        ratio: 0.0,
        transformed: None,
        error: None,
        profile: opts.profile,
        budget: opts.budget,
        over_budget: false,
    };
    write_stdout(input).map_err(|e| Error::fatal(format!("compress: write stdout: {e}")))?;
    write_stderr_line(&report.to_json())
        .map_err(|e| Error::fatal(format!("compress: write report: {e}")))?;
    let note = format!("caveman-engine: {why}; the input passed through");
    let _ = write_stderr_line(note.as_bytes());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn parse_args(a: &[String]) -> std::result::Result<Options, String> {
        parse_all(a).map(|(o, _)| o).map_err(|e| e.to_string())
    }

    #[test]
    fn flag_errors() {
        assert_eq!(
            parse_args(&args(&["--bogus", "--type"])).unwrap_err(),
            "unknown compress flag: --bogus"
        );
        assert_eq!(
            parse_args(&args(&["--type"])).unwrap_err(),
            "usage: caveman-engine compress [--type <content-type>]"
        );
        assert_eq!(
            parse_args(&args(&["--query"])).unwrap_err(),
            "usage: caveman-engine compress [--query <text>]"
        );
        assert_eq!(
            parse_args(&args(&["--type=json"])).unwrap_err(),
            "unknown compress flag: --type=json"
        );
    }

    #[test]
    fn flag_values() {
        let o = parse_args(&args(&[
            "--type", "json", "--type", "auto", "--query", "--type",
        ]))
        .unwrap();
        assert_eq!(o.forced_type, None);
        assert_eq!(o.query, "--type");
        let o = parse_args(&args(&["--query=a b"])).unwrap();
        assert_eq!(o.query, "a b");
    }

    #[test]
    fn explain_and_help_flags() {
        let (_, e) = parse_all(&args(&["--explain", "--type", "json"])).unwrap();
        assert!(e.explain && !e.help);
        let (o, e) = parse_all(&args(&["--query", "--help"])).unwrap();
        assert_eq!(o.query, "--help");
        assert!(!e.help);
        let (_, e) = parse_all(&args(&["--type", "json", "-h", "--bogus"])).unwrap();
        assert!(e.help);
    }

    #[test]
    fn best_of_folding() {
        assert!(is_best_of("BEST-OF"));
        assert!(is_best_of("be\u{17F}t-of"));
        assert!(!is_best_of("best-of "));
    }
}
