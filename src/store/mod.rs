//! File-backed recovery store (spec/README.md §3, store.md semantics).
//!
//! One file per handle, named by the handle, in a 0700 directory owned by
//! the user (format and verification: `record`). Records are written to
//! a temporary file, fsynced, then renamed into place, under an exclusive
//! lock on `.lock` (`lock`) so that the budget check and the write are
//! atomic across processes. Every read verifies the lengths, the checksum
//! and that the content's SHA-256 is its handle: a damaged or misplaced
//! record is an error, never wrong bytes. `manage` lists, removes,
//! prunes and verifies records.

mod lock;
mod manage;
mod memory;
mod object;
mod record;
mod spool;
#[cfg(test)]
mod tests;

use std::fs;
use std::io::{self, Read};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::go::os::{errno_text as go_errno, path_error as go_path_error};
use crate::go::strconv::{parse_int, quote as go_quote};
pub use manage::{Entry, Pruned, Verified};
use record::{damaged, Header};
pub use spool::{Spool, SpoolRecord};

/// Default budget: 512 MiB of stored originals.
pub const DEFAULT_BUDGET: u64 = 536_870_912;

/// A validated recovery handle: `ccr_` + 32 lowercase hex digits.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Handle(String);

impl Handle {
    /// Handle of an original: first 16 bytes of its SHA-256, in hex.
    pub fn of(original: &[u8]) -> Handle {
        Handle::from_digest(&Sha256::digest(original))
    }

    /// The handle a SHA-256 digest gives.
    fn from_digest(digest: &[u8]) -> Handle {
        let mut s = String::with_capacity(36);
        s.push_str("ccr_");
        for b in &digest[..16] {
            s.push_str(&format!("{b:02x}"));
        }
        Handle(s)
    }

    /// Validates user input; anything else is simply not a handle.
    pub fn parse(s: &str) -> Option<Handle> {
        let hex = s.strip_prefix("ccr_")?;
        if hex.len() == 32 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            Some(Handle(s.to_string()))
        } else {
            None
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The handle of one original, computed when first asked for and kept:
/// the engine stores the original under it, and a compressor that sizes
/// the retrieve line its view will carry may ask first. Threads that ask
/// while another computes it wait for that answer.
#[derive(Debug)]
pub(crate) struct HandleOf<'a> {
    original: &'a [u8],
    handle: std::sync::OnceLock<Handle>,
}

impl<'a> HandleOf<'a> {
    pub(crate) fn new(original: &'a [u8]) -> HandleOf<'a> {
        HandleOf {
            original,
            handle: std::sync::OnceLock::new(),
        }
    }

    /// [`Handle::of`] the original, hashed on the first call only.
    pub(crate) fn get(&self) -> &Handle {
        self.handle.get_or_init(|| Handle::of(self.original))
    }
}

/// A record to put.
pub struct NewRecord<'a> {
    pub content_type: &'a str,
    pub compressor: &'a str,
    pub tokens_before: u64,
    pub tokens_after: u64,
    pub original: &'a [u8],
    pub metadata: &'a [u8],
}

/// Why a put failed.
#[derive(Debug)]
pub enum PutError {
    /// The budget would be exceeded, or the disk is full
    /// (`cave_ccr_budget_exceeded`).
    Budget,
    /// Anything else (`cave_ccr_unavailable`).
    Io(String),
}

impl PutError {
    /// A failed write: a full disk, a quota or a file-size limit
    /// (`ulimit -f`) counts as the budget refusal (store.md §3 step 5),
    /// anything else as unavailable.
    pub fn from_io(e: &io::Error) -> PutError {
        match e.raw_os_error() {
            Some(libc::ENOSPC | libc::EDQUOT | libc::EFBIG) => PutError::Budget,
            _ => PutError::Io(go_errno(e)),
        }
    }
}

impl std::fmt::Display for PutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PutError::Budget => f.write_str("ccr put: ccr: storage budget exceeded"),
            PutError::Io(e) => write!(f, "ccr put: {e}"),
        }
    }
}

/// Why a get failed.
#[derive(Debug)]
pub enum GetError {
    NotFound,
    Damaged(String),
    Io(String),
}

impl std::fmt::Display for GetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GetError::NotFound => f.write_str("ccr: recovery handle not found"),
            GetError::Damaged(e) => write!(f, "ccr get: {e}"),
            GetError::Io(e) => write!(f, "ccr get: {e}"),
        }
    }
}

/// One content type's totals.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Bucket {
    pub count: u64,
    pub tokens_before: u64,
    pub tokens_after: u64,
}

/// Store summary (store.md §5), over the healthy records.
#[derive(Debug, Default)]
pub struct Stats {
    pub by_content_type: std::collections::BTreeMap<String, Bucket>,
    pub storage_bytes: u64,
    pub max_storage_bytes: u64,
    /// Records whose header cannot be read or does not add up.
    pub damaged: u64,
    /// Temporary files a crashed writer left (removed by the next write
    /// once stale).
    pub temp_files: u64,
}

/// An opened store.
#[derive(Debug)]
pub struct Store {
    dir: PathBuf,
    budget: u64,
    /// Why the directory may not be used (another user owns it, or others
    /// can write to it): puts fail, reads are refused.
    refused: Option<String>,
    /// Set for an in-memory store: records live here, not in `dir`.
    memory: Option<memory::Memory>,
    /// Set for an object store (`CAVEMAN_CCR_URL`): records live there.
    remote: Option<object::Remote>,
}

/// Environment the store is opened from (read once at the binary edge).
#[derive(Debug, Default, Clone)]
pub struct StoreEnv {
    pub ccr_dir: Option<String>,
    pub caveman_home: Option<String>,
    pub home: Option<String>,
    pub max_bytes: Option<String>,
    /// `CAVEMAN_CCR_URL`: an object store (`s3://bucket/prefix`) instead
    /// of a directory.
    pub url: Option<String>,
    /// `CAVEMAN_CCR_TIMEOUT_MS`: how long an object-store put may take.
    pub timeout_ms: Option<String>,
}

impl StoreEnv {
    pub fn from_process() -> StoreEnv {
        let get = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        StoreEnv {
            ccr_dir: get("CAVEMAN_CCR_DIR"),
            caveman_home: get("CAVEMAN_HOME"),
            home: get("HOME"),
            max_bytes: std::env::var("CAVEMAN_CCR_MAX_BYTES").ok(),
            url: get("CAVEMAN_CCR_URL"),
            timeout_ms: get("CAVEMAN_CCR_TIMEOUT_MS"),
        }
    }
}

/// Go's `os.MkdirAll` with its error texts.
fn mkdir_all(path: &Path, mode: u32) -> Result<(), String> {
    match fs::metadata(path) {
        Ok(m) if m.is_dir() => return Ok(()),
        Ok(_) => return Err(format!("mkdir {}: not a directory", path.display())),
        Err(_) => {}
    }
    if let Some(parent) = path.parent() {
        let p = parent.as_os_str();
        if !p.is_empty() && p != "/" {
            mkdir_all(parent, mode)?;
        }
    }
    match fs::DirBuilder::new().mode(mode).create(path) {
        Ok(()) => Ok(()),
        Err(e) => match fs::symlink_metadata(path) {
            Ok(m) if m.is_dir() => Ok(()),
            _ => Err(go_path_error("mkdir", path, &e)),
        },
    }
}

/// Refuses a directory that others can write to (no sticky bit).
fn check_not_shared(dir: &Path) -> Result<(), String> {
    let m = fs::metadata(dir).map_err(|e| {
        format!(
            "resolve sqlite parent {}: {}",
            go_quote(&dir.display().to_string()),
            go_errno(&e)
        )
    })?;
    if !m.is_dir() {
        return Err(format!(
            "sqlite parent {} must be a directory",
            go_quote(&dir.display().to_string())
        ));
    }
    let mode = m.permissions().mode();
    if mode & 0o022 != 0 && mode & 0o1000 == 0 {
        return Err(format!(
            "sqlite parent {} is group/world writable",
            go_quote(&dir.display().to_string())
        ));
    }
    Ok(())
}

/// The store directory itself must be the user's alone: owned by the
/// effective user and not writable by group or others, sticky or not
/// (anyone who can write there could plant records).
fn check_private(dir: &Path) -> Result<(), String> {
    let m = fs::metadata(dir).map_err(|e| go_path_error("stat", dir, &e))?;
    let shown = go_quote(&dir.display().to_string());
    // SAFETY: geteuid has no preconditions and cannot fail.
    let euid = unsafe { libc::geteuid() };
    if m.uid() != euid {
        return Err(format!(
            "recovery store directory {shown} is owned by uid {}, not by you (uid {euid}); \
             set CAVEMAN_CCR_DIR to a directory of your own",
            m.uid()
        ));
    }
    if m.permissions().mode() & 0o022 != 0 {
        return Err(format!(
            "recovery store directory {shown} is writable by group or others; \
             run `chmod go-w {shown}` or set CAVEMAN_CCR_DIR to a private directory"
        ));
    }
    Ok(())
}

impl Store {
    /// Opens (creating if needed) the store; the error text follows
    /// `cannot open recovery store: ` or is a home-resolution message.
    pub fn open(env: &StoreEnv) -> Result<Store, OpenError> {
        if let Some(url) = &env.url {
            let remote =
                object::Remote::open(url, env.timeout_ms.as_deref()).map_err(OpenError::Store)?;
            return Ok(Store {
                dir: PathBuf::from(remote.url()),
                budget: DEFAULT_BUDGET,
                refused: None,
                memory: None,
                remote: Some(remote),
            });
        }
        let dir = match &env.ccr_dir {
            Some(d) => PathBuf::from(d),
            None => {
                let home = match &env.caveman_home {
                    Some(h) => PathBuf::from(h),
                    None => match &env.home {
                        Some(h) => PathBuf::from(h).join(".caveman"),
                        None => {
                            return Err(OpenError::Home(
                                "cannot resolve home directory: $HOME is not defined".into(),
                            ))
                        }
                    },
                };
                mkdir_all(&home, 0o700)
                    .map_err(|e| OpenError::Home(format!("cannot create ~/.caveman: {e}")))?;
                home.join("ccr")
            }
        };
        let budget = match env.max_bytes.as_deref().map(str::trim) {
            None | Some("") => DEFAULT_BUDGET,
            Some(s) => match parse_int(s) {
                Some(n) if n > 0 => n as u64,
                _ => {
                    return Err(OpenError::Store(
                        "CAVEMAN_CCR_MAX_BYTES must be a positive integer".into(),
                    ))
                }
            },
        };
        let dir = if dir.is_absolute() {
            dir
        } else {
            std::env::current_dir()
                .map_err(|e| OpenError::Store(go_errno(&e)))?
                .join(dir)
        };
        let parent = dir.parent().unwrap_or(Path::new("/")).to_path_buf();
        if env.ccr_dir.is_some() {
            mkdir_all(&parent, 0o700).map_err(OpenError::Store)?;
        }
        let parent = fs::canonicalize(&parent).map_err(|e| {
            OpenError::Store(format!(
                "resolve sqlite parent {}: {}",
                go_quote(&parent.display().to_string()),
                go_errno(&e)
            ))
        })?;
        check_not_shared(&parent).map_err(OpenError::Store)?;
        let name = dir.file_name().map(|n| n.to_owned()).unwrap_or_default();
        let dir = parent.join(name);
        match fs::symlink_metadata(&dir) {
            Ok(m) if m.file_type().is_symlink() || !m.is_dir() => {
                return Err(OpenError::Store(format!(
                    "secure store {}: refusing non-directory",
                    go_quote(&dir.display().to_string())
                )))
            }
            Ok(_) => {}
            Err(_) => match fs::DirBuilder::new().mode(0o700).create(&dir) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(OpenError::Store(go_path_error("mkdir", &dir, &e))),
            },
        }
        check_not_shared(&dir).map_err(OpenError::Store)?;
        let refused = check_private(&dir).err();
        Ok(Store {
            dir,
            budget,
            refused,
            memory: None,
            remote: None,
        })
    }

    /// A store that could not be opened, for `why`: every put fails with
    /// `why` (so `compress` passes its input through with the error in the
    /// report instead of losing it), every read is refused.
    pub fn unusable(why: String) -> Store {
        Store {
            dir: PathBuf::new(),
            budget: DEFAULT_BUDGET,
            refused: Some(why),
            memory: None,
            remote: None,
        }
    }

    /// A store held in memory, gone with the process (the MCP server's
    /// ephemeral store), with the default budget.
    pub fn in_memory() -> Store {
        Store {
            dir: PathBuf::new(),
            budget: DEFAULT_BUDGET,
            refused: None,
            memory: Some(memory::Memory::default()),
            remote: None,
        }
    }

    /// True for an object store (`CAVEMAN_CCR_URL`).
    pub fn is_remote(&self) -> bool {
        self.remote.is_some()
    }

    /// Why the last put to an object store failed, in one line (`None`
    /// for a directory: its refusals are the reference's, said at open).
    pub fn put_failure(&self) -> Option<String> {
        self.remote.as_ref().and_then(|r| r.put_failure())
    }

    /// True for [`Store::in_memory`].
    pub fn is_in_memory(&self) -> bool {
        self.memory.is_some()
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// Fails when the directory may not be used, or for management
    /// commands on an in-memory store.
    fn usable(&self) -> Result<(), String> {
        match &self.refused {
            Some(why) => Err(why.clone()),
            None => Ok(()),
        }
    }

    fn record_path(&self, h: &Handle) -> PathBuf {
        self.dir.join(h.as_str())
    }

    /// Handles of every record, in byte order.
    fn handles(&self) -> io::Result<Vec<Handle>> {
        let mut v = Vec::new();
        for entry in fs::read_dir(&self.dir)? {
            let entry = entry?;
            if let Some(h) = entry.file_name().to_str().and_then(Handle::parse) {
                v.push(h);
            }
        }
        v.sort();
        Ok(v)
    }

    /// The header of a record, checked against the file's size.
    fn read_header(&self, h: &Handle) -> Result<Header, GetError> {
        record::open(&self.record_path(h), h, 4096).map(|o| o.header)
    }

    /// The original and metadata of a record, fully verified.
    fn read_verified(&self, h: &Handle) -> Result<(Header, Vec<u8>, Vec<u8>), GetError> {
        let opened = record::open(&self.record_path(h), h, 1 << 16)?;
        let header = opened.header.clone();
        let (original, metadata) = record::read_verified(opened, h)?;
        Ok((header, original, metadata))
    }

    /// The original bytes of a handle (store.md §4), streamed through the
    /// checks once.
    pub fn get(&self, handle: &str) -> Result<Vec<u8>, GetError> {
        self.entry(handle).map(|(original, _)| original)
    }

    /// The metadata stored beside an original (empty when none).
    pub fn metadata(&self, handle: &str) -> Result<Vec<u8>, GetError> {
        self.entry(handle).map(|(_, metadata)| metadata)
    }

    /// The original and metadata of a handle, from memory or verified from
    /// its record.
    fn entry(&self, handle: &str) -> Result<(Vec<u8>, Vec<u8>), GetError> {
        self.usable().map_err(GetError::Io)?;
        let h = Handle::parse(handle).ok_or(GetError::NotFound)?;
        if let Some(m) = &self.memory {
            return m.get(&h);
        }
        if let Some(r) = &self.remote {
            return r
                .get(&h)
                .map(|(_, original, metadata)| (original, metadata));
        }
        self.read_verified(&h)
            .map(|(_, original, metadata)| (original, metadata))
    }

    /// The existing record of `h`, read as a stream (a 64 MiB original is
    /// not held twice): its header, whether its original equals
    /// `original`, and its metadata.
    fn existing(&self, h: &Handle, original: &[u8]) -> Result<(Header, bool, Vec<u8>), GetError> {
        let mut o = record::open(&self.record_path(h), h, 1 << 16)?;
        let io_err = |e: io::Error| GetError::Io(go_errno(&e));
        let mut hasher = blake3::Hasher::new();
        hasher.update(&o.header_line);
        let mut same = o.header.original_len == original.len() as u64;
        let mut at = 0usize;
        let mut left = o.header.original_len;
        let mut buf = vec![0u8; 1 << 16];
        while left > 0 {
            let n = buf.len().min(left as usize);
            o.reader.read_exact(&mut buf[..n]).map_err(io_err)?;
            hasher.update(&buf[..n]);
            same = same && original.get(at..at + n) == Some(&buf[..n]);
            at += n;
            left -= n as u64;
        }
        let mut metadata = vec![0u8; o.header.metadata_len as usize];
        o.reader.read_exact(&mut metadata).map_err(io_err)?;
        hasher.update(&metadata);
        if hasher.finalize().to_hex().as_bytes() != o.checksum {
            return Err(damaged(h, "checksum mismatch"));
        }
        Ok((o.header, same, metadata))
    }

    /// Bytes used by stored originals and metadata; a damaged record
    /// counts its file's size.
    fn used(&self) -> io::Result<u64> {
        let mut used = 0u64;
        for h in self.handles()? {
            // A damaged record (a sparse file of any apparent size, a
            // truncated write) holds nothing retrievable: it does not count
            // (`store verify --repair` and `store prune` remove it).
            if let Ok(hd) = self.read_header(&h) {
                used += hd.original_len + hd.metadata_len;
            }
        }
        Ok(used)
    }

    /// Sum of the record files' sizes: an upper bound of [`Store::used`]
    /// that needs no reads.
    fn used_upper_bound(&self) -> io::Result<u64> {
        let mut total = 0u64;
        for entry in fs::read_dir(&self.dir)? {
            let entry = entry?;
            if entry.file_name().to_str().and_then(Handle::parse).is_some() {
                total += entry.metadata().map(|m| m.len()).unwrap_or(0);
            }
        }
        Ok(total)
    }

    /// Stores an original (store.md §3); idempotent, never evicts.
    pub fn put(&self, rec: &NewRecord<'_>) -> Result<Handle, PutError> {
        self.put_as(Handle::of(rec.original), rec)
    }

    /// [`put`](Store::put) with the handle already computed: it must be
    /// `Handle::of(rec.original)` (checked in debug builds).
    pub(crate) fn put_as(&self, h: Handle, rec: &NewRecord<'_>) -> Result<Handle, PutError> {
        debug_assert_eq!(h, Handle::of(rec.original));
        self.usable().map_err(PutError::Io)?;
        if let Some(m) = &self.memory {
            return m.put(h, rec, self.budget);
        }
        if let Some(r) = &self.remote {
            return r.put(h, rec, record::rfc3339_nano_now());
        }
        let io_err = |e: io::Error| PutError::Io(go_errno(&e));
        let _lock = lock::acquire(&self.dir).map_err(io_err)?;
        lock::remove_stale_temps(&self.dir);
        // Missing or damaged: (re)written below.
        let existing = self.existing(&h, rec.original).ok();
        let mut header = Header {
            content_type: rec.content_type.to_string(),
            compressor: rec.compressor.to_string(),
            tokens_before: rec.tokens_before,
            tokens_after: rec.tokens_after,
            created_at: record::rfc3339_nano_now(),
            original_len: rec.original.len() as u64,
            metadata_len: rec.metadata.len() as u64,
        };
        let mut metadata = rec.metadata;
        let mut existing_bytes = 0u64;
        if let Some((old, same_original, old_meta)) = &existing {
            let old_meta = old_meta.as_slice();
            if old.content_type == header.content_type
                && old.compressor == header.compressor
                && old.tokens_before == header.tokens_before
                && old.tokens_after == header.tokens_after
                && *same_original
                && old_meta == rec.metadata
            {
                // Nothing to write; the record was used just now, so
                // `store prune --older-than` must see it as fresh.
                let _ = fs::File::options()
                    .write(true)
                    .open(self.record_path(&h))
                    .and_then(|f| f.set_modified(std::time::SystemTime::now()));
                return Ok(h);
            }
            existing_bytes = old.original_len + old.metadata_len;
            if header.tokens_before == 0 && old.tokens_before > 0 {
                header.content_type = old.content_type.clone();
                header.compressor = old.compressor.clone();
                header.tokens_before = old.tokens_before;
                header.tokens_after = old.tokens_after;
            }
            if !old_meta.is_empty() {
                metadata = old_meta;
                header.metadata_len = old.metadata_len;
            }
        }
        let need = rec.original.len() as u64 + metadata.len() as u64;
        let upper = self.used_upper_bound().map_err(io_err)?;
        if upper + need > self.budget {
            let used = self.used().map_err(io_err)?;
            if used.saturating_sub(existing_bytes) + need > self.budget {
                return Err(PutError::Budget);
            }
        }
        record::write_atomically(&self.dir, &h, &header, rec.original, metadata)
            .map_err(|e| PutError::from_io(&e))?;
        Ok(h)
    }

    /// Aggregates every healthy record (store.md §5); damaged records and
    /// leftover temporary files are counted, not fatal.
    pub fn stats(&self) -> Result<Stats, String> {
        self.usable()?;
        if let Some(m) = &self.memory {
            return Ok(m.stats(self.budget));
        }
        let mut st = Stats::default();
        let mut add = |header: Result<Header, GetError>| match header {
            Ok(hd) => {
                let b = st.by_content_type.entry(hd.content_type).or_default();
                b.count += 1;
                b.tokens_before += hd.tokens_before;
                b.tokens_after += hd.tokens_after;
                st.storage_bytes += hd.original_len + hd.metadata_len;
            }
            Err(_) => st.damaged += 1,
        };
        if let Some(r) = &self.remote {
            // A bucket has no byte budget (a lifecycle rule bounds it): 0.
            for o in r.list()? {
                add(r.header(&o.handle, o.size));
            }
            return Ok(st);
        }
        for h in self.handles().map_err(|e| go_errno(&e))? {
            add(self.read_header(&h));
        }
        st.max_storage_bytes = self.budget;
        st.temp_files = lock::temp_files(&self.dir).map_or(0, |t| t.len() as u64);
        Ok(st)
    }
}

/// Why the store could not be opened.
#[derive(Debug)]
pub enum OpenError {
    /// Printed as is (`cannot resolve home directory: …`, `cannot create ~/.caveman: …`).
    Home(String),
    /// Printed after `cannot open recovery store: `.
    Store(String),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Home(m) => f.write_str(m),
            OpenError::Store(m) => write!(f, "cannot open recovery store: {m}"),
        }
    }
}
