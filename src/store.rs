//! File-backed recovery store (spec/README.md §3, store.md semantics).
//!
//! One file per handle, named by the handle, in a 0700 directory:
//!
//! ```text
//! CCR1 <blake3 hex of everything after this line>\n
//! {"content_type":…,"compressor":…,"tokens_before":…,"tokens_after":…,
//!  "created_at":…,"original_len":…,"metadata_len":…}\n
//! <original bytes><metadata bytes>
//! ```
//!
//! Records are written to a temporary file in the same directory, fsynced,
//! then renamed into place, under an exclusive lock on `.lock` so that the
//! budget check and the write are atomic across processes. Every read
//! verifies the checksum and the lengths: a damaged record is an error,
//! never wrong bytes.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::go::os::{errno_text as go_errno, path_error as go_path_error};
use crate::go::strconv::{parse_int, quote as go_quote};

/// Default budget: 512 MiB of stored originals.
pub const DEFAULT_BUDGET: u64 = 536_870_912;

const MAGIC: &[u8] = b"CCR1 ";

/// A validated recovery handle: `ccr_` + 32 lowercase hex digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handle(String);

impl Handle {
    /// Handle of an original: first 16 bytes of its SHA-256, in hex.
    pub fn of(original: &[u8]) -> Handle {
        let digest = Sha256::digest(original);
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

/// What a record stores besides the original.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    content_type: String,
    compressor: String,
    tokens_before: u64,
    tokens_after: u64,
    created_at: String,
    original_len: u64,
    metadata_len: u64,
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
    /// The budget would be exceeded (`cave_ccr_budget_exceeded`).
    Budget,
    /// Anything else (`cave_ccr_unavailable`).
    Io(String),
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

/// Store summary (store.md §5).
#[derive(Debug, Default)]
pub struct Stats {
    pub by_content_type: std::collections::BTreeMap<String, Bucket>,
    pub storage_bytes: u64,
    pub max_storage_bytes: u64,
}

/// An opened store.
#[derive(Debug)]
pub struct Store {
    dir: PathBuf,
    budget: u64,
}

/// Environment the store is opened from (read once at the binary edge).
#[derive(Debug, Default, Clone)]
pub struct StoreEnv {
    pub ccr_dir: Option<String>,
    pub caveman_home: Option<String>,
    pub home: Option<String>,
    pub max_bytes: Option<String>,
}

impl StoreEnv {
    pub fn from_process() -> StoreEnv {
        let get = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        StoreEnv {
            ccr_dir: get("CAVEMAN_CCR_DIR"),
            caveman_home: get("CAVEMAN_HOME"),
            home: get("HOME"),
            max_bytes: std::env::var("CAVEMAN_CCR_MAX_BYTES").ok(),
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

impl Store {
    /// Opens (creating if needed) the store; the error text follows
    /// `cannot open recovery store: ` or is a home-resolution message.
    pub fn open(env: &StoreEnv) -> Result<Store, OpenError> {
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
        Ok(Store { dir, budget })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn budget(&self) -> u64 {
        self.budget
    }

    fn record_path(&self, h: &Handle) -> PathBuf {
        self.dir.join(h.as_str())
    }

    /// Takes the store-wide write lock (released when the file closes).
    fn lock(&self) -> io::Result<File> {
        let f = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(self.dir.join(".lock"))?;
        f.lock()?;
        Ok(f)
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
        v.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(v)
    }

    /// Opens a record file, refusing symlinks and non-regular files.
    fn open_record(&self, h: &Handle) -> Result<File, GetError> {
        let path = self.record_path(h);
        let f = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path)
            .map_err(|e| match e.kind() {
                io::ErrorKind::NotFound => GetError::NotFound,
                _ if e.raw_os_error() == Some(libc::ELOOP) => GetError::Damaged(format!(
                    "secure record {}: refusing non-regular file",
                    go_quote(&path.display().to_string())
                )),
                _ => GetError::Io(go_path_error("open", &path, &e)),
            })?;
        let m = f.metadata().map_err(|e| GetError::Io(go_errno(&e)))?;
        if !m.is_file() {
            return Err(GetError::Damaged(format!(
                "secure record {}: refusing non-regular file",
                go_quote(&path.display().to_string())
            )));
        }
        Ok(f)
    }

    /// Reads and verifies a whole record.
    fn read_record(&self, h: &Handle) -> Result<(Header, Vec<u8>), GetError> {
        let mut f = self.open_record(h)?;
        let mut data = Vec::new();
        f.read_to_end(&mut data)
            .map_err(|e| GetError::Io(go_errno(&e)))?;
        parse_record(h, data)
    }

    /// The verified record of `h` read as a stream rather than into memory
    /// (a 64 MiB original is not held twice): its header, whether its
    /// original equals `original`, and its metadata.
    fn existing(&self, h: &Handle, original: &[u8]) -> Result<(Header, bool, Vec<u8>), GetError> {
        let io_err = |e: io::Error| GetError::Io(go_errno(&e));
        let (header, [first, second], mut rdr) = self.open_header(h, 1 << 16)?;
        let mut hasher = blake3::Hasher::new();
        hasher.update(&second);
        let mut same = header.original_len == original.len() as u64;
        let mut at = 0usize;
        let mut left = header.original_len;
        let mut buf = vec![0u8; 1 << 16];
        while left > 0 {
            let n = buf.len().min(left as usize);
            rdr.read_exact(&mut buf[..n]).map_err(io_err)?;
            hasher.update(&buf[..n]);
            same = same && original.get(at..at + n) == Some(&buf[..n]);
            at += n;
            left -= n as u64;
        }
        let mut metadata = vec![0u8; header.metadata_len as usize];
        rdr.read_exact(&mut metadata).map_err(io_err)?;
        hasher.update(&metadata);
        if hasher.finalize().to_hex().as_bytes() != &first[MAGIC.len()..MAGIC.len() + 64] {
            return Err(damaged(h, "checksum mismatch"));
        }
        Ok((header, same, metadata))
    }

    /// Reads only the header of a record (for stats and budget checks).
    fn read_header(&self, h: &Handle) -> Result<Header, GetError> {
        self.open_header(h, 4096).map(|(header, _, _)| header)
    }

    /// Opens a record and reads its two header lines, checking them and
    /// the record's length; the reader is left at the original's start.
    fn open_header(&self, h: &Handle, buffer: usize) -> Result<OpenedRecord, GetError> {
        let io_err = |e: io::Error| GetError::Io(go_errno(&e));
        let f = self.open_record(h)?;
        let size = f.metadata().map_err(io_err)?.len();
        let mut rdr = io::BufReader::with_capacity(buffer, f);
        let mut first = Vec::new();
        io::BufRead::read_until(&mut rdr, b'\n', &mut first).map_err(io_err)?;
        let mut second = Vec::new();
        io::BufRead::read_until(&mut rdr, b'\n', &mut second).map_err(io_err)?;
        let header = parse_header_lines(h, &first, &second)?;
        let expect = ((first.len() + second.len()) as u64)
            .checked_add(header.original_len)
            .and_then(|x| x.checked_add(header.metadata_len));
        if expect != Some(size) {
            return Err(damaged(h, "length mismatch"));
        }
        Ok((header, [first, second], rdr))
    }

    /// The original bytes of a handle (store.md §4).
    pub fn get(&self, handle: &str) -> Result<Vec<u8>, GetError> {
        let h = Handle::parse(handle).ok_or(GetError::NotFound)?;
        let (header, mut data) = self.read_record(&h)?;
        let body_start = data.len() - (header.original_len + header.metadata_len) as usize;
        data.truncate(body_start + header.original_len as usize);
        data.drain(..body_start);
        Ok(data)
    }

    /// Bytes used by stored originals and metadata.
    fn used(&self) -> io::Result<u64> {
        let mut used = 0u64;
        for h in self.handles()? {
            match self.read_header(&h) {
                Ok(hd) => used += hd.original_len + hd.metadata_len,
                // A damaged record still occupies its file's bytes.
                Err(_) => {
                    used += fs::symlink_metadata(self.record_path(&h))
                        .map(|m| m.size())
                        .unwrap_or(0)
                }
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
        let io_err = |e: io::Error| PutError::Io(go_errno(&e));
        let _lock = self.lock().map_err(io_err)?;
        // Missing or damaged: (re)written below.
        let existing = self.existing(&h, rec.original).ok();
        let mut header = Header {
            content_type: rec.content_type.to_string(),
            compressor: rec.compressor.to_string(),
            tokens_before: rec.tokens_before,
            tokens_after: rec.tokens_after,
            created_at: rfc3339_nano_now(),
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
        self.write_atomically(&h, &header, rec.original, metadata)
            .map_err(io_err)?;
        Ok(h)
    }

    fn write_atomically(
        &self,
        h: &Handle,
        header: &Header,
        original: &[u8],
        metadata: &[u8],
    ) -> io::Result<()> {
        let header_json = serde_json::to_vec(header).map_err(io::Error::other)?;
        let mut hasher = blake3::Hasher::new();
        hasher.update(&header_json);
        hasher.update(b"\n");
        hasher.update(original);
        hasher.update(metadata);
        let sum = hasher.finalize();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let tmp = self.dir.join(format!(
            ".tmp-{}-{}-{}",
            h.as_str(),
            std::process::id(),
            nanos
        ));
        let result = (|| {
            let mut f = OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW)
                .open(&tmp)?;
            f.set_permissions(fs::Permissions::from_mode(0o600))?;
            let mut w = io::BufWriter::with_capacity(1 << 16, &mut f);
            w.write_all(MAGIC)?;
            w.write_all(sum.to_hex().as_bytes())?;
            w.write_all(b"\n")?;
            w.write_all(&header_json)?;
            w.write_all(b"\n")?;
            w.write_all(original)?;
            w.write_all(metadata)?;
            w.flush()?;
            drop(w);
            f.sync_all()?;
            fs::rename(&tmp, self.record_path(h))?;
            File::open(&self.dir)?.sync_all()
        })();
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        result
    }

    /// Aggregates every record (store.md §5).
    pub fn stats(&self) -> Result<Stats, String> {
        let mut st = Stats {
            max_storage_bytes: self.budget,
            ..Stats::default()
        };
        for h in self.handles().map_err(|e| go_errno(&e))? {
            let hd = self.read_header(&h).map_err(|e| e.to_string())?;
            let b = st.by_content_type.entry(hd.content_type).or_default();
            b.count += 1;
            b.tokens_before += hd.tokens_before;
            b.tokens_after += hd.tokens_after;
            st.storage_bytes += hd.original_len + hd.metadata_len;
        }
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

/// A record's header, its two header lines, and a reader at its original.
type OpenedRecord = (Header, [Vec<u8>; 2], io::BufReader<File>);

fn damaged(h: &Handle, why: &str) -> GetError {
    GetError::Damaged(format!("damaged record {}: {why}", h.as_str()))
}

fn parse_header_lines(h: &Handle, first: &[u8], second: &[u8]) -> Result<Header, GetError> {
    if first.len() != MAGIC.len() + 64 + 1 || !first.starts_with(MAGIC) || !first.ends_with(b"\n") {
        return Err(damaged(h, "bad magic"));
    }
    if !second.ends_with(b"\n") {
        return Err(damaged(h, "truncated header"));
    }
    serde_json::from_slice::<Header>(&second[..second.len() - 1])
        .map_err(|_| damaged(h, "bad header"))
}

/// Verifies a whole record read from disk.
fn parse_record(h: &Handle, data: Vec<u8>) -> Result<(Header, Vec<u8>), GetError> {
    let nl1 = data
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| damaged(h, "truncated"))?;
    let nl2 = data[nl1 + 1..]
        .iter()
        .position(|&b| b == b'\n')
        .map(|p| p + nl1 + 1)
        .ok_or_else(|| damaged(h, "truncated"))?;
    let header = parse_header_lines(h, &data[..=nl1], &data[nl1 + 1..=nl2])?;
    let body = nl2 + 1;
    if header.original_len.checked_add(header.metadata_len) != Some((data.len() - body) as u64) {
        return Err(damaged(h, "length mismatch"));
    }
    let want = &data[MAGIC.len()..MAGIC.len() + 64];
    let got = blake3::hash(&data[nl1 + 1..]);
    if got.to_hex().as_bytes() != want {
        return Err(damaged(h, "checksum mismatch"));
    }
    Ok((header, data))
}

/// Now, UTC, as Go's `time.RFC3339Nano` (trailing zeros trimmed).
fn rfc3339_nano_now() -> String {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let secs = d.as_secs() as i64;
    let nanos = d.subsec_nanos();
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = if month <= 2 { y + 1 } else { y };
    let mut s = format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    );
    if nanos > 0 {
        let frac = format!("{nanos:09}");
        s.push('.');
        s.push_str(frac.trim_end_matches('0'));
    }
    s.push('Z');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handle_of_a() {
        assert_eq!(
            Handle::of(b"a").as_str(),
            "ccr_ca978112ca1bbdcafac231b39a23dc4d"
        );
    }

    #[test]
    fn handle_validation() {
        assert!(Handle::parse("ccr_ca978112ca1bbdcafac231b39a23dc4d").is_some());
        for bad in [
            "../x",
            "/etc/passwd",
            "ccr_ca978112ca1bbdcafac231b39a23dc4",
            "ccr_CA978112CA1BBDCAFAC231B39A23DC4D",
            "ccr_ca978112ca1bbdcafac231b39a23dc4d/",
            "ccr_../../../../../../../etc/passwd0",
            "ccr_ca978112ca1bbdcafac231b39a23d\0c4",
        ] {
            assert!(Handle::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn timestamp_shape() {
        let t = rfc3339_nano_now();
        assert!(t.ends_with('Z') && t.len() >= 20, "{t}");
    }
}
