//! One module per subcommand: arguments to options, then `run`. Each `run`
//! returns the process exit code; messages are printed here, at the edge.

pub mod compress;
pub mod detect;
pub mod retrieve;
pub mod stats;
pub mod toon;

use std::io::{self, Read, Write};

/// Largest accepted stdin (64 MiB).
pub const MAX_STDIN: usize = 64 << 20;

const EBADF: i32 = 9;
const EPIPE: i32 = 32;

/// Reads stdin with the cap; the error is the full fatal message.
pub fn read_stdin() -> Result<Vec<u8>, String> {
    // A redirected file says how big it is: read it into one buffer of
    // that size. A pipe does not: reserve room for the largest input
    // instead of doubling, where every copy would leave the old buffer's
    // pages with the allocator. Pages the input does not fill are never
    // touched, so the reservation costs address space, not memory.
    let room = std::fs::metadata("/dev/stdin")
        .ok()
        .filter(|m| m.is_file())
        .map_or(MAX_STDIN, |m| m.len().min(MAX_STDIN as u64) as usize);
    let mut buf = Vec::new();
    // Where address space is limited, fall back to growing.
    let _ = buf.try_reserve_exact(room + 1);
    let stdin = io::stdin();
    let mut lock = stdin.lock().take(MAX_STDIN as u64 + 1);
    match lock.read_to_end(&mut buf) {
        Ok(_) => {}
        // A closed fd 0 reads as empty input, as in the reference.
        Err(e) if e.raw_os_error() == Some(EBADF) => return Ok(Vec::new()),
        Err(e) => {
            return Err(format!(
                "read stdin: read /dev/stdin: {}",
                crate::gofmt::go_errno(&e)
            ))
        }
    }
    if buf.len() > MAX_STDIN {
        return Err(format!(
            "read stdin: cave_input_too_large: stdin exceeds {MAX_STDIN} bytes"
        ));
    }
    Ok(buf)
}

/// How a write to stdout ended.
pub enum WriteOutcome {
    Ok,
    /// The reader went away (EPIPE) or fd 1 is closed: not an error here.
    Gone,
    /// A real failure, as Go would print it.
    Failed(String),
}

/// Writes all bytes to stdout and flushes.
pub fn write_stdout(bytes: &[u8]) -> WriteOutcome {
    let stdout = io::stdout();
    let mut lock = stdout.lock();
    match lock.write_all(bytes).and_then(|_| lock.flush()) {
        Ok(()) => WriteOutcome::Ok,
        Err(e) if matches!(e.raw_os_error(), Some(EPIPE) | Some(EBADF)) => WriteOutcome::Gone,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => WriteOutcome::Gone,
        Err(e) => {
            WriteOutcome::Failed(format!("write /dev/stdout: {}", crate::gofmt::go_errno(&e)))
        }
    }
}

/// Prints a fatal message and returns exit code 1.
pub fn fatal(msg: &str) -> i32 {
    let _ = writeln!(io::stderr(), "{msg}");
    1
}
