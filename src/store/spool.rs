//! A record written while its original streams in: inputs past the 64 MiB
//! stdin limit are never held in memory. The original goes straight into a
//! temporary file of the store directory, after room left for the record's
//! two header lines; its SHA-256 (the handle) is taken on the way. Once the
//! view is known, [`Spool::commit`] writes the header lines into that room
//! (the JSON header padded with spaces, which JSON allows), checksums the
//! record by reading it back, fsyncs and renames it into place under the
//! store's lock — the same record format, checks and atomicity as
//! [`super::record::write_atomically`]. Until then the spool can give the
//! original back ([`Spool::copy_to`]) so that a refused put still passes
//! the input through.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::{FileExt, OpenOptionsExt, PermissionsExt};
use std::path::PathBuf;

use sha2::{Digest, Sha256};

use super::record::{self, Header, MAGIC, TEMP_PREFIX};
use super::{lock, Handle, PutError, Store};
use crate::go::os::errno_text as go_errno;

/// Room for the first line (`CCR1 ` + 64 hex digits + LF).
const FIRST_LINE: u64 = MAGIC.len() as u64 + 65;
/// Room for the JSON header line (~250 bytes in practice).
const HEADER_ROOM: u64 = 1024;

/// An original being written into the store.
pub struct Spool {
    file: File,
    path: PathBuf,
    dir: PathBuf,
    sha: Sha256,
    len: u64,
}

/// What the record says about its original besides the bytes.
pub struct SpoolRecord<'a> {
    pub content_type: &'a str,
    pub compressor: &'a str,
    pub tokens_before: u64,
    pub tokens_after: u64,
}

impl Store {
    /// A spool in the store directory; refused for a store that cannot be
    /// written, an in-memory store and an object store (whose puts hold
    /// the record in memory: they keep the 64 MiB limit).
    pub fn spool(&self) -> Result<Spool, PutError> {
        self.usable().map_err(PutError::Io)?;
        if self.memory.is_some() || self.remote.is_some() {
            return Err(PutError::Io(
                "only a store directory takes originals over 64 MiB".into(),
            ));
        }
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let path = self
            .dir
            .join(format!("{TEMP_PREFIX}spool-{}-{nanos}", std::process::id()));
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path)
            .map_err(|e| PutError::from_io(&e))?;
        file.set_permissions(fs::Permissions::from_mode(0o600))
            .and_then(|_| file.seek(SeekFrom::Start(FIRST_LINE + HEADER_ROOM)))
            .map_err(|e| PutError::from_io(&e))?;
        Ok(Spool {
            file,
            path,
            dir: self.dir.clone(),
            sha: Sha256::new(),
            len: 0,
        })
    }
}

impl Spool {
    /// Appends the next bytes of the original.
    pub fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.file.write_all(bytes)?;
        self.sha.update(bytes);
        self.len += bytes.len() as u64;
        Ok(())
    }

    /// The original's length so far.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether nothing was written yet.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The handle of the original written so far.
    pub fn handle(&self) -> Handle {
        Handle::from_digest(&self.sha.clone().finalize())
    }

    /// Writes the original spooled so far to `out` (a refused put passes
    /// it through).
    pub fn copy_to(&mut self, out: &mut dyn Write) -> io::Result<u64> {
        self.file.seek(SeekFrom::Start(FIRST_LINE + HEADER_ROOM))?;
        io::copy(&mut (&self.file).take(self.len), out)
    }

    /// Makes the spool the record of its handle, within the store's budget
    /// (`Err(PutError::Budget)` past it, or on a full disk). An existing
    /// record of the same handle is kept.
    pub fn commit(&mut self, store: &Store, rec: &SpoolRecord<'_>) -> Result<Handle, PutError> {
        let h = self.handle();
        let io_err = |e: io::Error| PutError::Io(go_errno(&e));
        if self.len > record::MAX_ORIGINAL {
            return Err(PutError::Budget);
        }
        let _lock = lock::acquire(&self.dir).map_err(io_err)?;
        let path = self.dir.join(h.as_str());
        if record::open(&path, &h, 1 << 16)
            .and_then(|o| record::verify(o, &h))
            .is_ok()
        {
            let _ = fs::File::options()
                .write(true)
                .open(&path)
                .and_then(|f| f.set_modified(std::time::SystemTime::now()));
            return Ok(h);
        }
        if store.used().map_err(io_err)? + self.len > store.budget {
            return Err(PutError::Budget);
        }
        let header = Header {
            content_type: rec.content_type.to_string(),
            compressor: rec.compressor.to_string(),
            tokens_before: rec.tokens_before,
            tokens_after: rec.tokens_after,
            created_at: record::rfc3339_nano_now(),
            original_len: self.len,
            metadata_len: 0,
        };
        let mut line = serde_json::to_vec(&header).map_err(|e| PutError::Io(e.to_string()))?;
        if line.len() as u64 >= HEADER_ROOM {
            return Err(PutError::Io("record header too long".into()));
        }
        line.resize(HEADER_ROOM as usize - 1, b' ');
        line.push(b'\n');
        let written = (|| {
            let mut blake = blake3::Hasher::new();
            blake.update(&line);
            self.file.seek(SeekFrom::Start(FIRST_LINE + HEADER_ROOM))?;
            let mut buf = vec![0u8; 1 << 20];
            let mut left = self.len;
            while left > 0 {
                let n = buf.len().min(left as usize);
                self.file.read_exact(&mut buf[..n])?;
                blake.update(&buf[..n]);
                left -= n as u64;
            }
            let mut first = MAGIC.to_vec();
            first.extend_from_slice(blake.finalize().to_hex().as_bytes());
            first.push(b'\n');
            self.file.write_all_at(&first, 0)?;
            self.file.write_all_at(&line, FIRST_LINE)?;
            self.file.sync_all()?;
            fs::rename(&self.path, &path)?;
            File::open(&self.dir)?.sync_all()
        })();
        written.map(|_| h).map_err(|e| PutError::from_io(&e))
    }
}

impl Drop for Spool {
    /// A spool that did not become a record leaves nothing behind (after a
    /// commit the path names nothing).
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}
