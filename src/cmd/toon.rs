//! `toon encode|decode` (spec/cli.md §7, toon.md).

use super::io::{read_stdin, write_stdout};
use crate::error::{Error, Result};

const USAGE: &str = "usage: caveman-engine toon encode|decode";

pub fn run(args: &[String]) -> Result<()> {
    let Some(verb) = args.first() else {
        return Err(Error::fatal(USAGE));
    };
    // Stdin is read before the verb is checked (cli.md §7).
    let input = read_stdin()?;
    let out =
        match verb.as_str() {
            "encode" => crate::toon::encode(&input)
                .map_err(|e| Error::fatal(format!("toon encode: {e}")))?,
            "decode" => crate::toon::decode(&input)
                .map_err(|e| Error::fatal(format!("toon decode: {e}")))?,
            _ => return Err(Error::fatal(USAGE)),
        };
    write_stdout(&out).map_err(|e| Error::fatal(format!("write stdout: {e}")))
}
