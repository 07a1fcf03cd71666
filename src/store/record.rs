//! One record file: its format, how it is opened (never following a
//! symlink, never blocking on a FIFO), its header checks (declared
//! lengths against the file's size before any body byte is read), the
//! streaming verification (BLAKE3 checksum and the SHA-256 content address
//! in one pass), and the atomic write.
//!
//! ```text
//! CCR1 <blake3 hex of everything after this line>\n
//! {"content_type":…,"compressor":…,"tokens_before":…,"tokens_after":…,
//!  "created_at":…,"original_len":…,"metadata_len":…}\n
//! <original bytes><metadata bytes>
//! ```

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, Read, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;

use sha2::{Digest, Sha256};

use super::{GetError, Handle};
use crate::go::os::{errno_text as go_errno, path_error as go_path_error};
use crate::go::strconv::quote as go_quote;

pub(super) const MAGIC: &[u8] = b"CCR1 ";

/// No metadata, and no original but a spooled one, is larger than the
/// largest input held in memory (64 MiB).
pub(super) const MAX_PART: u64 = 64 << 20;

/// No original is larger than this (one streamed past the 64 MiB stdin
/// limit, `store::spool`): a record declaring more is damaged, and is
/// refused unread.
pub(super) const MAX_ORIGINAL: u64 = 4 << 30;

/// Longest header line read (the JSON header is ~250 bytes; this bounds
/// what a damaged record can make a reader buffer).
const MAX_HEADER_LINE: u64 = 1 << 20;

/// Temporary files are named `.tmp-<handle>-<pid>-<nanos>`.
pub(super) const TEMP_PREFIX: &str = ".tmp-";

/// What a record stores besides the original.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Header {
    pub content_type: String,
    pub compressor: String,
    pub tokens_before: u64,
    pub tokens_after: u64,
    pub created_at: String,
    pub original_len: u64,
    pub metadata_len: u64,
}

pub(super) fn damaged(h: &Handle, why: &str) -> GetError {
    GetError::Damaged(format!("damaged record {}: {why}", h.as_str()))
}

fn io_err(e: io::Error) -> GetError {
    GetError::Io(go_errno(&e))
}

/// Opens a file of the store directory for reading without following a
/// symlink or blocking (a FIFO opens at once), and refuses anything that
/// is not a regular file before a byte is read.
pub(super) fn open_regular(path: &Path) -> Result<File, GetError> {
    let refused = || {
        GetError::Damaged(format!(
            "secure record {}: refusing non-regular file",
            go_quote(&path.display().to_string())
        ))
    };
    let f = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => GetError::NotFound,
            _ if e.raw_os_error() == Some(libc::ELOOP) => refused(),
            _ => GetError::Io(go_path_error("open", path, &e)),
        })?;
    let m = f.metadata().map_err(io_err)?;
    if !m.is_file() {
        return Err(refused());
    }
    Ok(f)
}

/// A record's first line: the magic and a 64-digit checksum.
fn check_magic(first: &[u8], h: &Handle) -> Result<(), GetError> {
    if first.len() != MAGIC.len() + 64 + 1 || !first.starts_with(MAGIC) {
        return Err(damaged(h, "bad magic"));
    }
    Ok(())
}

/// A record's header line (newline included), after a first line that
/// passed [`check_magic`], checked against the whole size: JSON fields,
/// part sizes under [`MAX_ORIGINAL`] and [`MAX_PART`], and the lines plus
/// the parts adding up to `size` exactly. (A spooled record pads its JSON
/// with spaces, which JSON allows.)
fn check_header(first: &[u8], second: &[u8], size: u64, h: &Handle) -> Result<Header, GetError> {
    let header: Header = serde_json::from_slice(&second[..second.len() - 1])
        .map_err(|_| damaged(h, "bad header"))?;
    if header.original_len > MAX_ORIGINAL || header.metadata_len > MAX_PART {
        return Err(damaged(h, "declared length too large"));
    }
    let expect = (first.len() + second.len()) as u64 + header.original_len + header.metadata_len;
    if expect != size {
        return Err(damaged(h, "length mismatch"));
    }
    Ok(header)
}

/// The checksum of a record's first line: BLAKE3 of everything after it.
fn checksum(header_json: &[u8], original: &[u8], metadata: &[u8]) -> blake3::Hash {
    let mut hasher = blake3::Hasher::new();
    hasher.update(header_json);
    hasher.update(b"\n");
    hasher.update(original);
    hasher.update(metadata);
    hasher.finalize()
}

/// An opened record whose header has been read and checked.
pub(super) struct Opened {
    pub header: Header,
    /// The first line's checksum (64 hex digits).
    pub checksum: [u8; 64],
    /// The header line, newline included (hashed before the body).
    pub header_line: Vec<u8>,
    /// Positioned at the original's first byte.
    pub reader: io::BufReader<File>,
}

fn read_line(r: &mut impl BufRead, h: &Handle) -> Result<Vec<u8>, GetError> {
    let mut line = Vec::new();
    r.take(MAX_HEADER_LINE)
        .read_until(b'\n', &mut line)
        .map_err(io_err)?;
    if !line.ends_with(b"\n") {
        return Err(damaged(h, "truncated header"));
    }
    Ok(line)
}

/// Opens `path` as the record of `h` and checks its header: magic, JSON
/// fields, part sizes under [`MAX_PART`], and header plus parts adding up
/// to the file's size exactly.
pub(super) fn open(path: &Path, h: &Handle, buffer: usize) -> Result<Opened, GetError> {
    let f = open_regular(path)?;
    let size = f.metadata().map_err(io_err)?.len();
    let mut reader = io::BufReader::with_capacity(buffer, f);
    let first = read_line(&mut reader, h)?;
    check_magic(&first, h)?;
    let second = read_line(&mut reader, h)?;
    let header = check_header(&first, &second, size, h)?;
    let mut checksum = [0u8; 64];
    checksum.copy_from_slice(&first[MAGIC.len()..MAGIC.len() + 64]);
    Ok(Opened {
        header,
        checksum,
        header_line: second,
        reader,
    })
}

/// Reads the rest of an opened record in one streaming pass, verifying
/// the checksum and that the original's SHA-256 is the handle. Returns
/// the original and the metadata.
pub(super) fn read_verified(mut o: Opened, h: &Handle) -> Result<(Vec<u8>, Vec<u8>), GetError> {
    let mut blake = blake3::Hasher::new();
    blake.update(&o.header_line);
    let mut sha = Sha256::new();
    let mut original = vec![0u8; o.header.original_len as usize];
    for chunk in original.chunks_mut(1 << 16) {
        o.reader.read_exact(chunk).map_err(io_err)?;
        blake.update(chunk);
        sha.update(chunk);
    }
    let mut metadata = vec![0u8; o.header.metadata_len as usize];
    o.reader.read_exact(&mut metadata).map_err(io_err)?;
    blake.update(&metadata);
    if blake.finalize().to_hex().as_bytes() != o.checksum {
        return Err(damaged(h, "checksum mismatch"));
    }
    if Handle::from_digest(&sha.finalize()) != *h {
        return Err(damaged(h, "content does not match its handle"));
    }
    Ok((original, metadata))
}

/// Reads the rest of an opened record as [`read_verified`] does, keeping
/// nothing (a spooled original may be gigabytes).
pub(super) fn verify(mut o: Opened, h: &Handle) -> Result<(), GetError> {
    let mut blake = blake3::Hasher::new();
    blake.update(&o.header_line);
    let mut sha = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut left = o.header.original_len;
    while left > 0 {
        let n = buf.len().min(left as usize);
        o.reader.read_exact(&mut buf[..n]).map_err(io_err)?;
        blake.update(&buf[..n]);
        sha.update(&buf[..n]);
        left -= n as u64;
    }
    let mut metadata = vec![0u8; o.header.metadata_len as usize];
    o.reader.read_exact(&mut metadata).map_err(io_err)?;
    blake.update(&metadata);
    if blake.finalize().to_hex().as_bytes() != o.checksum {
        return Err(damaged(h, "checksum mismatch"));
    }
    if Handle::from_digest(&sha.finalize()) != *h {
        return Err(damaged(h, "content does not match its handle"));
    }
    Ok(())
}

/// Writes a record to a temporary file in `dir`, fsyncs it, renames it
/// into place and fsyncs the directory. On failure the temporary file is
/// removed: a crash leaves no record or a whole one.
pub(super) fn write_atomically(
    dir: &Path,
    h: &Handle,
    header: &Header,
    original: &[u8],
    metadata: &[u8],
) -> io::Result<()> {
    let header_json = serde_json::to_vec(header).map_err(io::Error::other)?;
    let sum = checksum(&header_json, original, metadata);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let tmp = dir.join(format!(
        "{TEMP_PREFIX}{}-{}-{}",
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
        fs::rename(&tmp, dir.join(h.as_str()))?;
        File::open(dir)?.sync_all()
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Now, UTC, as Go's `time.RFC3339Nano` (trailing zeros trimmed).
pub(super) fn rfc3339_nano_now() -> String {
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

/// A whole record as bytes (the object store's object): the same format
/// as a record file.
pub(super) fn encode(header: &Header, original: &[u8], metadata: &[u8]) -> Vec<u8> {
    let header_json = serde_json::to_vec(header).expect("a header serialises");
    let sum = checksum(&header_json, original, metadata);
    let mut out =
        Vec::with_capacity(MAGIC.len() + 66 + header_json.len() + original.len() + metadata.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(sum.to_hex().as_bytes());
    out.push(b'\n');
    out.extend_from_slice(&header_json);
    out.push(b'\n');
    out.extend_from_slice(original);
    out.extend_from_slice(metadata);
    out
}

/// The header of a record whose first bytes are `head` and whose whole
/// size is `size`, with the checks of [`open`].
pub(super) fn decode_header(
    head: &[u8],
    size: u64,
    h: &Handle,
) -> Result<(Header, usize), GetError> {
    let line = |from: usize| -> Result<usize, GetError> {
        head[from..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|p| from + p + 1)
            .ok_or_else(|| damaged(h, "truncated header"))
    };
    let first_end = line(0)?;
    check_magic(&head[..first_end], h)?;
    let second_end = line(first_end)?;
    let header = check_header(&head[..first_end], &head[first_end..second_end], size, h)?;
    Ok((header, second_end))
}

/// A whole record's bytes checked as [`open`] and [`read_verified`] check
/// a file: lengths, checksum, and the original's SHA-256 against `h`.
pub(super) fn decode_verified(
    bytes: &[u8],
    h: &Handle,
) -> Result<(Header, Vec<u8>, Vec<u8>), GetError> {
    let (header, body) = decode_header(bytes, bytes.len() as u64, h)?;
    let first_end = MAGIC.len() + 65;
    let mut blake = blake3::Hasher::new();
    blake.update(&bytes[first_end..]);
    if blake.finalize().to_hex().as_bytes() != &bytes[MAGIC.len()..MAGIC.len() + 64] {
        return Err(damaged(h, "checksum mismatch"));
    }
    let split = body + header.original_len as usize;
    let original = &bytes[body..split];
    if Handle::of(original) != *h {
        return Err(damaged(h, "content does not match its handle"));
    }
    Ok((header, original.to_vec(), bytes[split..].to_vec()))
}
