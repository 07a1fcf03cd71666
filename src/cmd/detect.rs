//! `detect [--profile compat|lean] [--explain]`: prints the content type of
//! stdin (spec/detect.md under compat; the lean cascade under lean). Under
//! compat other arguments are ignored, as in the reference; under lean an
//! unknown argument is a usage error.

use super::compress::profile_value;
use super::io::{read_stdin, write_stderr_line, write_stdout};
use crate::error::{Error, Result};
use crate::profile::Profile;

const USAGE: &str = "usage: caveman-engine detect [--profile compat|lean] [--explain]";

/// The profile and `--explain` the arguments ask for.
fn parse(args: &[String]) -> Result<(Profile, bool)> {
    let mut profile = None;
    let mut explain = false;
    let mut unknown = None;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "--explain" => explain = true,
            "--profile" => {
                let v = args.get(i + 1).ok_or_else(|| Error::usage(USAGE))?;
                profile = Some(profile_value(v)?);
                i += 1;
            }
            _ if a.starts_with("--profile=") => {
                profile = Some(profile_value(&a["--profile=".len()..])?);
            }
            _ => {
                unknown.get_or_insert(a);
            }
        }
        i += 1;
    }
    let profile = match profile {
        Some(p) => p,
        None => Profile::from_env().map_err(Error::usage)?,
    };
    if let (Profile::Lean, Some(a)) = (profile, unknown) {
        return Err(Error::usage(format!(
            "detect: unknown argument {a:?}\n{USAGE}"
        )));
    }
    Ok((profile, explain))
}

pub fn run(args: &[String]) -> Result<()> {
    let (profile, explain) = parse(args)?;
    let input = read_stdin()?;
    // Lean reads the text as a terminal shows it, wrappers included.
    let clean = match profile {
        Profile::Lean => crate::compress::shared::clean::clean(&input),
        Profile::Compat => std::borrow::Cow::Borrowed(&input[..]),
    };
    let (body, layers) = crate::unwrap::unwrap_as(&clean, profile);
    // Only `--explain` prints the other rules that held.
    let d = match (profile, &clean) {
        (Profile::Lean, std::borrow::Cow::Owned(_)) => {
            crate::detect::detect_lean(&body, false, true, explain)
        }
        _ => crate::detect::detect_as(&body, profile, false, explain),
    };
    // A failure to write stdout is ignored (cli.md §4).
    let _ = write_stdout(format!("{}\n", d.ct).as_bytes());
    if explain {
        let peeled: Vec<&'static str> = layers.iter().map(|w| w.name()).collect();
        let _ = write_stderr_line(super::explain::detect(&d, &peeled).as_bytes());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn compat_ignores_other_arguments_lean_refuses_them() {
        assert_eq!(
            parse(&args(&["--profile", "compat", "extra"])).unwrap(),
            (Profile::Compat, false)
        );
        assert_eq!(
            parse(&args(&["--explain", "--profile=lean"])).unwrap(),
            (Profile::Lean, true)
        );
        let e = parse(&args(&["--profile", "lean", "--bogus"])).unwrap_err();
        assert_eq!(e.code(), 1);
        assert!(e
            .to_string()
            .starts_with("detect: unknown argument \"--bogus\""));
        let e = parse(&args(&["--profile", "fast"])).unwrap_err();
        assert_eq!(e.code(), 1);
        assert_eq!(
            e.to_string(),
            "--profile: unknown profile \"fast\" (compat or lean)"
        );
    }
}
