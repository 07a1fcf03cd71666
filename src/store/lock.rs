//! The store-wide write lock (`.lock`, `flock`), taken with a deadline so
//! that a stuck holder makes `compress` pass its input through instead of
//! hanging, and the clean-up of temporary files a crashed writer left.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

use super::record::TEMP_PREFIX;

/// How long a writer waits for the lock (the reference's SQLite busy
/// timeout).
pub(super) const WAIT: Duration = Duration::from_secs(5);

/// Temporary files older than this are a crashed writer's.
pub(super) const STALE_TEMP: Duration = Duration::from_secs(120);

/// Takes the write lock of the store in `dir`, waiting at most `WAIT`
/// (released when the file closes).
pub(super) fn acquire(dir: &Path) -> io::Result<File> {
    let f = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(dir.join(".lock"))?;
    if !f.metadata()?.is_file() {
        return Err(io::Error::other("lock file is not a regular file"));
    }
    let start = Instant::now();
    let mut pause = Duration::from_millis(2);
    loop {
        match f.try_lock() {
            Ok(()) => return Ok(f),
            Err(fs::TryLockError::WouldBlock) => {}
            Err(fs::TryLockError::Error(e)) => return Err(e),
        }
        if start.elapsed() >= WAIT {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "store locked by another process for 5s",
            ));
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

/// The temporary files in `dir` and whether each is stale.
pub(super) fn temp_files(dir: &Path) -> io::Result<Vec<(std::path::PathBuf, bool)>> {
    let now = SystemTime::now();
    let mut v = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        if !name.to_str().is_some_and(|n| n.starts_with(TEMP_PREFIX)) {
            continue;
        }
        let stale = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age >= STALE_TEMP);
        v.push((entry.path(), stale));
    }
    Ok(v)
}

/// Removes the stale temporary files; call with the lock held (every
/// writer writes under it, so none of these is being written).
pub(super) fn remove_stale_temps(dir: &Path) {
    if let Ok(temps) = temp_files(dir) {
        for (path, stale) in temps {
            if stale {
                let _ = fs::remove_file(path);
            }
        }
    }
}
