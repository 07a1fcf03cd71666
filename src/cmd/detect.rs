//! `detect [--explain]`: prints the content type of stdin
//! (spec/detect.md); other arguments are ignored, as in the reference.

use super::io::{read_stdin, write_stderr_line, write_stdout};
use crate::error::Result;

pub fn run(args: &[String]) -> Result<()> {
    let input = read_stdin()?;
    let (body, layers) = crate::unwrap::unwrap(&input);
    let word = crate::detect::detect_unwrapped(&body);
    // A failure to write stdout is ignored (cli.md §4).
    let _ = write_stdout(format!("{word}\n").as_bytes());
    if args.iter().any(|a| a == "--explain") {
        let peeled: Vec<&'static str> = layers.iter().map(|w| w.name()).collect();
        let _ = write_stderr_line(super::explain::detect(&word, &peeled).as_bytes());
    }
    Ok(())
}
