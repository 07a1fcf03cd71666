//! `toon encode|decode` (spec/cli.md §7, toon.md).

use super::{fatal, read_stdin, write_stdout, WriteOutcome};

const USAGE: &str = "usage: caveman-engine toon encode|decode";

pub fn run(args: &[String]) -> i32 {
    let Some(verb) = args.first() else {
        return fatal(USAGE);
    };
    let input = match read_stdin() {
        Ok(b) => b,
        Err(m) => return fatal(&m),
    };
    let out = match verb.as_str() {
        "encode" => match crate::toon::encode(&input) {
            Ok(b) => b,
            Err(e) => return fatal(&format!("toon encode: {e}")),
        },
        "decode" => match crate::toon::decode(&input) {
            Ok(b) => b,
            Err(e) => return fatal(&format!("toon decode: {e}")),
        },
        _ => return fatal(USAGE),
    };
    match write_stdout(&out) {
        WriteOutcome::Failed(e) => fatal(&format!("write stdout: {e}")),
        _ => 0,
    }
}
