//! `detect`: prints the content type of stdin (spec/detect.md).

use super::io::{read_stdin, write_stdout};
use crate::error::Result;

pub fn run() -> Result<()> {
    let input = read_stdin()?;
    let word = crate::detect::detect(&input);
    // A failure to write stdout is ignored (cli.md §4).
    let _ = write_stdout(format!("{word}\n").as_bytes());
    Ok(())
}
