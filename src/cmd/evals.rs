//! `evals run [--fixtures DIR] [--profile P] [--budget N]` (spec/evals.md):
//! exactly `run` or `run --fixtures DIR` as the reference reads them, and
//! this project's `--profile` and `--budget`, each at most once; any other
//! shape is the usage error (exit 1).

use super::io::{write_stderr_line, write_stdout};
use crate::error::{Error, Result};
use crate::evals::{Run, Source};
use crate::profile::Profile;

const USAGE: &str = "usage: caveman-engine evals run [--fixtures DIR]";

fn parse(args: &[String]) -> Option<Run> {
    let (first, rest) = args.split_first()?;
    if first != "run" {
        return None;
    }
    let mut run = Run {
        source: Source::Builtin,
        profile: Profile::Compat,
        budget: None,
    };
    let (mut fixtures, mut profile, mut budget) = (false, false, false);
    let mut i = 0;
    while i < rest.len() {
        let v = rest.get(i + 1).filter(|v| !v.is_empty())?;
        match rest[i].as_str() {
            "--fixtures" if !fixtures => {
                fixtures = true;
                run.source = Source::Dir(v.clone());
            }
            "--profile" if !profile => {
                profile = true;
                run.profile = Profile::from_name(v)?;
            }
            "--budget" if !budget => {
                budget = true;
                run.budget = Some(v.parse().ok().filter(|&n: &usize| n > 0)?);
            }
            _ => return None,
        }
        i += 2;
    }
    Some(run)
}

pub fn run(args: &[String]) -> Result<()> {
    let Some(r) = parse(args) else {
        let _ = write_stderr_line(USAGE.as_bytes());
        return Err(Error::exit(1));
    };
    match crate::evals::run(&r) {
        Ok((out, passed)) => {
            write_stdout(&out).map_err(|e| Error::fatal(format!("write stdout: {e}")))?;
            if passed {
                Ok(())
            } else {
                Err(Error::exit(1))
            }
        }
        Err(f) => Err(Error::fatal(format!("evals: {}", f.0))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn only_the_reference_shapes_and_ours() {
        assert!(parse(&args(&["run"])).is_some());
        assert!(parse(&args(&["run", "--fixtures", "d"])).is_some());
        assert!(parse(&args(&[
            "run",
            "--fixtures",
            "d",
            "--profile",
            "lean",
            "--budget",
            "500"
        ]))
        .is_some());
        for bad in [
            vec![],
            vec!["walk"],
            vec!["run", "--fixtures"],
            vec!["run", "--fixtures", ""],
            vec!["run", "--fixtures=d"],
            vec!["run", "--fixtures", "a", "--fixtures", "b"],
            vec!["run", "extra"],
            vec!["run", "--budget", "0"],
        ] {
            assert!(parse(&args(&bad)).is_none(), "{bad:?}");
        }
    }
}
