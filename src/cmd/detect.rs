//! `detect`: prints the content type of stdin (spec/detect.md).

use super::{fatal, read_stdin, write_stdout};

pub fn run() -> i32 {
    let input = match read_stdin() {
        Ok(b) => b,
        Err(m) => return fatal(&m),
    };
    let word = crate::detect::detect(&input);
    // A failure to write stdout is ignored (cli.md §4).
    let _ = write_stdout(format!("{word}\n").as_bytes());
    0
}
