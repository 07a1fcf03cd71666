//! `compress [--type T] [--query Q]` (spec/cli.md §3).

use std::io::Write;

use super::{fatal, read_stdin, write_stdout, WriteOutcome};
use crate::engine::{self, Options};
use crate::store::{Store, StoreEnv};

/// Parses the flags left to right; the error is the fatal message.
pub fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut opts = Options::default();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "--type" => {
                let v = args
                    .get(i + 1)
                    .ok_or("usage: caveman-engine compress [--type <content-type>]")?;
                opts.forced_type = match v.as_str() {
                    "" | "auto" => None,
                    t => Some(t.to_string()),
                };
                i += 2;
            }
            "--query" => {
                let v = args
                    .get(i + 1)
                    .ok_or("usage: caveman-engine compress [--query <text>]")?;
                opts.query = v.clone();
                i += 2;
            }
            _ if a.starts_with("--query=") => {
                opts.query = a["--query=".len()..].to_string();
                i += 1;
            }
            _ => return Err(format!("unknown compress flag: {a}")),
        }
    }
    opts.toon_best_of = std::env::var("CAVE_ENGINE_TOON").is_ok_and(|v| is_best_of(&v));
    Ok(opts)
}

/// Go `strings.EqualFold(v, "best-of")` (simple folding: `ſ` is `s`).
fn is_best_of(v: &str) -> bool {
    let folded: String = v
        .chars()
        .map(|c| match c {
            '\u{17F}' => 's',
            '\u{212A}' => 'k',
            c => c.to_ascii_lowercase(),
        })
        .collect();
    folded == "best-of"
}

pub fn run(args: &[String]) -> i32 {
    let opts = match parse_args(args) {
        Ok(o) => o,
        Err(m) => return fatal(&m),
    };
    let input = match read_stdin() {
        Ok(b) => b,
        Err(m) => return fatal(&m),
    };
    let store = match Store::open(&StoreEnv::from_process()) {
        Ok(s) => s,
        Err(e) => return fatal(&e.to_string()),
    };
    let outcome = engine::compress(&input, &opts, &store);
    let out = outcome.output.as_deref().unwrap_or(&input);
    if let WriteOutcome::Failed(e) = write_stdout(out) {
        return fatal(&format!("compress: write stdout: {e}"));
    }
    let mut line = outcome.report.to_json();
    line.push(b'\n');
    let stderr = std::io::stderr();
    let mut lock = stderr.lock();
    if let Err(e) = lock.write_all(&line).and_then(|_| lock.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe && e.raw_os_error() != Some(9) {
            return 1;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
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
    fn best_of_folding() {
        assert!(is_best_of("BEST-OF"));
        assert!(is_best_of("be\u{17F}t-of"));
        assert!(!is_best_of("best-of "));
    }
}
