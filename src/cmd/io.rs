//! Standard streams as the reference uses them: bounded stdin (64 MiB), a
//! closed fd read as empty input, stdout written whole, a reader that went
//! away not treated as an error, and Go's texts for write failures.

use std::io::{self, Read, Write};

use crate::error::{Error, Result};
use crate::go::os::errno_text;

/// Largest accepted stdin (64 MiB).
pub const MAX_STDIN: usize = 64 << 20;

/// Reads stdin with the cap (cli.md §2).
pub fn read_stdin() -> Result<Vec<u8>> {
    match read_stdin_capped()? {
        Stdin::Whole(buf) => Ok(buf),
        Stdin::TooLarge(_) => Err(too_large()),
    }
}

/// The reference's refusal of an input past [`MAX_STDIN`].
pub fn too_large() -> Error {
    Error::fatal(format!(
        "read stdin: cave_input_too_large: stdin exceeds {MAX_STDIN} bytes"
    ))
}

/// Standard input, whole, or the first [`MAX_STDIN`] + 1 bytes of one too
/// large to hold (the rest still unread).
pub enum Stdin {
    Whole(Vec<u8>),
    TooLarge(Vec<u8>),
}

/// Reads stdin up to one byte past [`MAX_STDIN`].
pub fn read_stdin_capped() -> Result<Stdin> {
    // A redirected file says how big it is: read it into one buffer of
    // that size. A pipe does not: reserve room for the largest input
    // instead of doubling, where every copy would leave the old buffer's
    // pages with the allocator. Pages the input does not fill are never
    // touched, so the reservation costs address space, not memory.
    // Under a limited address space (`ulimit -v`) the reservation would
    // take what the work needs: grow instead.
    let pipe_room = if crate::par::address_space_limited() {
        0
    } else {
        MAX_STDIN
    };
    let room = std::fs::metadata("/dev/stdin")
        .ok()
        .filter(|m| m.is_file())
        .map_or(pipe_room, |m| m.len().min(MAX_STDIN as u64) as usize);
    let mut buf = Vec::new();
    // Where address space is limited, fall back to growing.
    let _ = buf.try_reserve_exact(room + 1);
    let stdin = io::stdin();
    let mut lock = stdin.lock().take(MAX_STDIN as u64 + 1);
    match lock.read_to_end(&mut buf) {
        Ok(_) => {}
        // A closed fd 0 reads as empty input, as in the reference.
        Err(e) if is_closed(&e) => return Ok(Stdin::Whole(Vec::new())),
        Err(e) => {
            return Err(Error::fatal(format!(
                "read stdin: read /dev/stdin: {}",
                errno_text(&e)
            )))
        }
    }
    if buf.len() > MAX_STDIN {
        return Ok(Stdin::TooLarge(buf));
    }
    Ok(Stdin::Whole(buf))
}

/// The descriptor is not open (EBADF): the reference's runtime reopens a
/// closed standard stream on `/dev/null`.
fn is_closed(e: &io::Error) -> bool {
    e.raw_os_error() == Some(libc::EBADF)
}

/// Writes all bytes to stdout and flushes. `Ok` when written, and when the
/// reader went away or fd 1 is closed (not an error here); otherwise the
/// failure as Go prints it (`write /dev/stdout: no space left on device`).
pub fn write_stdout(bytes: &[u8]) -> std::result::Result<(), String> {
    let stdout = io::stdout();
    let mut lock = stdout.lock();
    match lock.write_all(bytes).and_then(|_| lock.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe || is_closed(&e) => Ok(()),
        Err(e) => Err(format!("write /dev/stdout: {}", errno_text(&e))),
    }
}

/// Writes `line` and a newline to stderr, as one write. The error, when a
/// caller needs it, is Go's text (`write /dev/stderr: …`); a closed or
/// vanished stderr is not an error.
pub fn write_stderr_line(line: &[u8]) -> std::result::Result<(), String> {
    let mut buf = Vec::with_capacity(line.len() + 1);
    buf.extend_from_slice(line);
    buf.push(b'\n');
    let stderr = io::stderr();
    let mut lock = stderr.lock();
    match lock.write_all(&buf).and_then(|_| lock.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe || is_closed(&e) => Ok(()),
        Err(e) => Err(format!("write /dev/stderr: {}", errno_text(&e))),
    }
}

/// Prints a line on stderr, ignoring failures (help text, messages).
pub fn print_stderr_line(line: &str) {
    let _ = write_stderr_line(line.as_bytes());
}
