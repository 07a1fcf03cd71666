//! `caveman-engine pixel simulate [--model M] [--density L] <request.json>`
//! (pixel-simulate.md §1): reads a request body from a file, prices its
//! pixel transform with [`crate::pixel::simulate`], prints the counters.

use std::io::Read;

use super::io;
use crate::error::{Error, Result};
use crate::go::os::path_error;
use crate::pixel::simulate::{self, Level, Request};

/// The usage line of every argument error.
const USAGE: &str = "usage: caveman-engine pixel simulate [--model MODEL] [--density conservative|balanced|max] <request.json>";

/// The parsed command line.
struct Args {
    model: Option<String>,
    density: Option<String>,
    file: String,
}

/// Runs `pixel simulate` with the arguments after the verb.
pub fn run(args: &[String]) -> Result<()> {
    let Some(args) = parse(args)? else {
        super::pixel::print_usage();
        return Ok(());
    };
    let density = match args.density.as_deref().filter(|d| !d.is_empty()) {
        Some(d) => Level::from_flag(d).ok_or_else(|| {
            Error::fatal(format!(
                "--density must be one of conservative|balanced|max (got {})",
                crate::go::strconv::quote(d)
            ))
        })?,
        None => Level::from_env_value(env("CAVE_PIXEL_DENSITY").as_deref()),
    };
    let body = read(&args.file)?;
    let profiles = env("CAVE_PIXEL_GPT_PROFILES");
    let outcome = simulate::simulate(&Request {
        body: &body,
        model: args.model.as_deref(),
        density,
        gpt_profiles: profiles.as_deref(),
    })
    .map_err(|e| match e {
        simulate::Error::Parse(m) => Error::fatal(format!("pixel simulate parse: {m}")),
        simulate::Error::Sniff => Error::fatal(format!("pixel simulate: {e}")),
    })?;
    io::write_stdout(&outcome.info.to_json()).map_err(Error::fatal)?;
    match outcome.error {
        Some(e) => Err(Error::fatal(format!("pixel simulate transform: {e}"))),
        None => Ok(()),
    }
}

/// The arguments, left to right; `None` for `--help`.
fn parse(args: &[String]) -> Result<Option<Args>> {
    let usage = || Error::fatal(USAGE);
    let (mut model, mut density, mut file) = (None, None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--model" => model = Some(it.next().ok_or_else(usage)?.clone()),
            "--density" => density = Some(it.next().ok_or_else(usage)?.clone()),
            "--help" | "-h" => return Ok(None),
            s if s.starts_with('-') => {
                return Err(Error::fatal(format!("unknown pixel simulate flag: {s}")))
            }
            _ if file.is_some() => return Err(usage()),
            _ => file = Some(a.clone()),
        }
    }
    let file = file.ok_or_else(usage)?;
    Ok(Some(Args {
        model,
        density,
        file,
    }))
}

/// An environment variable as text (`None` when unset).
fn env(name: &str) -> Option<String> {
    std::env::var_os(name).map(|v| v.to_string_lossy().into_owned())
}

/// The whole request file, or Go's error for it.
fn read(path: &str) -> Result<Vec<u8>> {
    let p = std::path::Path::new(path);
    let fail = |op: &str, e: std::io::Error| {
        Error::fatal(format!("pixel simulate read: {}", path_error(op, p, &e)))
    };
    let mut f = std::fs::File::open(p).map_err(|e| fail("open", e))?;
    let mut body = Vec::new();
    f.read_to_end(&mut body).map_err(|e| fail("read", e))?;
    Ok(body)
}
