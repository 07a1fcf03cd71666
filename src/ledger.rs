//! The savings ledger: one line per compress, `run`, hook and MCP call
//! (tokens before and after, the handle) and per retrieve (the tokens it
//! gave back), appended to `ledger.jsonl` in the store's home
//! (`$CAVEMAN_HOME`, else `~/.caveman`). `gain` reads it. Nothing leaves
//! the machine; `CAVEMAN_LEDGER=off` turns it off.
//!
//! Safe under concurrent writers and `kill -9` without a lock: the file is
//! opened with `O_APPEND` and each record is one `write(2)` of at most
//! [`MAX_RECORD`] bytes (Linux serialises appends to a regular file, so
//! records never interleave). A write cut short (a killed process, a full
//! disk) leaves a line without its newline or with a wrong checksum: every
//! record ends with `"sum"`, the first 4 bytes of the BLAKE3 of what
//! precedes it, and begins with [`PREFIX`], so a reader skips a torn line
//! and finds the next record even when a later append was glued to it.
//!
//! Appending never fails its caller: an error is dropped (the payload
//! matters, the tally does not).

use std::fs;
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use crate::go::json::write_json_str;

/// The file name in the home directory.
pub const FILE: &str = "ledger.jsonl";
/// The environment variable that turns the ledger off (`off`).
pub const ENV: &str = "CAVEMAN_LEDGER";
/// Every record starts with this (format version 1).
pub const PREFIX: &[u8] = b"{\"v\":1,";
/// Longest record: well under a page, so one `write(2)` is never split by
/// the kernel at a page boundary it would stop at for a signal.
pub const MAX_RECORD: usize = 1024;
/// Longest command or note kept in a record (bytes, cut at a character).
const MAX_TEXT: usize = 200;

/// What made a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `caveman-engine compress`.
    Compress,
    /// `caveman-engine run -- CMD`.
    Run,
    /// A hook: a rewritten command's run, or a replaced tool output.
    Hook,
    /// The MCP server's `caveman_compress`.
    Mcp,
    /// A retrieve (CLI or MCP): the tokens it returned.
    Retrieve,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Compress => "compress",
            Source::Run => "run",
            Source::Hook => "hook",
            Source::Mcp => "mcp",
            Source::Retrieve => "retrieve",
        }
    }

    fn from_name(s: &str) -> Option<Source> {
        [
            Source::Compress,
            Source::Run,
            Source::Hook,
            Source::Mcp,
            Source::Retrieve,
        ]
        .into_iter()
        .find(|x| x.as_str() == s)
    }
}

/// One record.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Record {
    /// Seconds since the Unix epoch.
    pub time: u64,
    pub source: Option<Source>,
    /// `compat` or `lean` (empty for a retrieve or a note).
    pub profile: String,
    /// The content type (empty for a retrieve or a note).
    pub content_type: String,
    /// The command (`run`, a rewritten command) or tool (an MCP output).
    pub command: String,
    pub tokens_before: u64,
    pub tokens_after: u64,
    /// The recovery handle, when the view was stored.
    pub handle: String,
    /// Tokens a retrieve returned.
    pub retrieved: u64,
    /// Why a hook left its event alone after a failure (no tokens).
    pub note: String,
}

impl Record {
    /// A compress-like record from a report.
    pub fn of_report(source: Source, report: &crate::report::Report, command: &str) -> Record {
        Record {
            time: now(),
            source: Some(source),
            profile: report.profile.as_str().to_string(),
            content_type: report.content_type.as_str().to_string(),
            command: command.to_string(),
            tokens_before: report.tokens_before as u64,
            tokens_after: report.tokens_after as u64,
            handle: report
                .transformed
                .as_ref()
                .map(|t| t.recovery_handle.as_str().to_string())
                .unwrap_or_default(),
            ..Record::default()
        }
    }

    /// The line written for this record, newline included.
    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(256);
        v.extend_from_slice(PREFIX);
        v.extend_from_slice(format!("\"t\":{}", self.time).as_bytes());
        let src = self.source.map_or("", Source::as_str);
        let text = |v: &mut Vec<u8>, key: &str, value: &str| {
            if !value.is_empty() {
                v.extend_from_slice(format!(",\"{key}\":").as_bytes());
                write_json_str(v, cut(value, MAX_TEXT).as_bytes());
            }
        };
        text(&mut v, "src", src);
        text(&mut v, "profile", &self.profile);
        text(&mut v, "type", &self.content_type);
        text(&mut v, "cmd", &self.command);
        if self.source != Some(Source::Retrieve) && self.note.is_empty() {
            v.extend_from_slice(
                format!(
                    ",\"before\":{},\"after\":{}",
                    self.tokens_before, self.tokens_after
                )
                .as_bytes(),
            );
        }
        text(&mut v, "handle", &self.handle);
        if self.source == Some(Source::Retrieve) {
            v.extend_from_slice(format!(",\"returned\":{}", self.retrieved).as_bytes());
        }
        text(&mut v, "note", &self.note);
        let sum = checksum(&v);
        v.extend_from_slice(format!(",\"sum\":\"{sum}\"}}\n").as_bytes());
        v
    }
}

/// `s` cut to at most `max` bytes at a character boundary.
fn cut(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// The first 4 bytes of the BLAKE3 of `bytes`, in hex.
fn checksum(bytes: &[u8]) -> String {
    let h = blake3::hash(bytes);
    h.as_bytes()[..4]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Seconds since the Unix epoch (0 if the clock is before it).
pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Whether the environment turns the ledger off.
pub fn disabled() -> bool {
    std::env::var(ENV).is_ok_and(|v| v.trim().eq_ignore_ascii_case("off"))
}

/// The store's home: `$CAVEMAN_HOME`, else `$HOME/.caveman`.
pub fn home() -> Option<PathBuf> {
    let get = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    get("CAVEMAN_HOME")
        .map(PathBuf::from)
        .or_else(|| get("HOME").map(|h| PathBuf::from(h).join(".caveman")))
}

/// The ledger's path, or `None` when it is off or there is no home.
pub fn path() -> Option<PathBuf> {
    if disabled() {
        return None;
    }
    home().map(|h| h.join(FILE))
}

/// Appends `rec` (silently does nothing when off or on any error).
pub fn append(rec: &Record) {
    if let Some(p) = path() {
        let _ = append_to(&p, rec);
    }
}

/// Appends `rec` to the ledger at `path`: one `write(2)` with `O_APPEND`,
/// the file created 0600 (its directory 0700), never through a symlink.
pub fn append_to(path: &Path, rec: &Record) -> std::io::Result<()> {
    let line = rec.encode();
    debug_assert!(line.len() <= MAX_RECORD);
    if let Some(dir) = path.parent() {
        if !dir.as_os_str().is_empty() && !dir.is_dir() {
            fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(dir)?;
        }
    }
    let mut f = fs::OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)?;
    // One call: a short write is what a torn record looks like to readers.
    let n = f.write(&line)?;
    if n != line.len() {
        return Err(std::io::Error::from(std::io::ErrorKind::WriteZero));
    }
    Ok(())
}

/// A retrieve that returned `tokens` tokens of `handle`.
pub fn retrieved(handle: &str, tokens: usize) {
    append(&Record {
        time: now(),
        source: Some(Source::Retrieve),
        handle: handle.to_string(),
        retrieved: tokens as u64,
        ..Record::default()
    });
}

/// What a read of the ledger found.
#[derive(Debug, Default)]
pub struct Read {
    pub records: Vec<Record>,
    /// The last line had no newline: a write cut short (skipped).
    pub torn_tail: bool,
    /// Other lines (or parts of lines) that were not a whole record.
    pub damaged: usize,
}

/// Reads every whole record of `bytes`.
pub fn parse(bytes: &[u8]) -> Read {
    let mut out = Read::default();
    let mut rest = bytes;
    while !rest.is_empty() {
        let (line, next, whole) = match memchr::memchr(b'\n', rest) {
            Some(i) => (&rest[..i], &rest[i + 1..], true),
            None => (rest, &[][..], false),
        };
        rest = next;
        if !whole {
            out.torn_tail = true;
            break;
        }
        if line.is_empty() {
            continue;
        }
        match decode(line) {
            Some(r) => out.records.push(r),
            None => {
                // A torn record with a later one glued on: the later one
                // starts at the last PREFIX in the line.
                let start = memchr::memmem::rfind(line, PREFIX).filter(|&i| i > 0);
                match start.and_then(|i| decode(&line[i..])) {
                    Some(r) => {
                        out.damaged += 1;
                        out.records.push(r);
                    }
                    None => out.damaged += 1,
                }
            }
        }
    }
    out
}

/// Reads the ledger file at `path` (a missing file has no records).
pub fn read(path: &Path) -> std::io::Result<Read> {
    match fs::read(path) {
        Ok(b) => Ok(parse(&b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Read::default()),
        Err(e) => Err(e),
    }
}

/// One line to a record, when it is whole and its checksum holds.
fn decode(line: &[u8]) -> Option<Record> {
    if !line.starts_with(PREFIX) {
        return None;
    }
    let at = memchr::memmem::rfind(line, b",\"sum\":\"")?;
    let sum = line.get(at + 8..at + 16)?;
    if line.get(at + 16..)? != b"\"}" || sum != checksum(&line[..at]).as_bytes() {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(line).ok()?;
    let o = v.as_object()?;
    let s = |k: &str| o.get(k).and_then(|x| x.as_str()).unwrap_or("").to_string();
    let n = |k: &str| o.get(k).and_then(|x| x.as_u64()).unwrap_or(0);
    Some(Record {
        time: n("t"),
        source: Source::from_name(&s("src")),
        profile: s("profile"),
        content_type: s("type"),
        command: s("cmd"),
        tokens_before: n("before"),
        tokens_after: n("after"),
        handle: s("handle"),
        retrieved: n("returned"),
        note: s("note"),
    })
}

/// `(year, month, day)` of a day count since 1970-01-01 (Howard Hinnant's
/// civil-from-days).
pub fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if month <= 2 { y + 1 } else { y }, month, day)
}

/// The UTC date of a time, `YYYY-MM-DD`.
pub fn date(time: u64) -> String {
    let (y, m, d) = civil((time / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(cmd: &str) -> Record {
        Record {
            time: 1_764_633_600,
            source: Some(Source::Run),
            profile: "lean".into(),
            content_type: "log".into(),
            command: cmd.into(),
            tokens_before: 100,
            tokens_after: 10,
            handle: "ccr_00112233445566778899aabbccddeeff".into(),
            ..Record::default()
        }
    }

    #[test]
    fn round_trip() {
        for r in [
            rec("cargo test"),
            rec("quote \" and \\ and \u{1F600}"),
            Record {
                time: 5,
                source: Some(Source::Retrieve),
                handle: "ccr_00112233445566778899aabbccddeeff".into(),
                retrieved: 77,
                ..Record::default()
            },
            Record {
                time: 6,
                source: Some(Source::Hook),
                note: "bad event".into(),
                ..Record::default()
            },
        ] {
            let line = r.encode();
            assert!(line.len() <= MAX_RECORD);
            let read = parse(&line);
            assert_eq!(read.records, vec![r]);
            assert!(!read.torn_tail && read.damaged == 0);
        }
    }

    #[test]
    fn long_text_is_cut_to_fit() {
        let r = rec(&"é".repeat(5000));
        let line = r.encode();
        assert!(line.len() <= MAX_RECORD, "{}", line.len());
        assert_eq!(parse(&line).records.len(), 1);
    }

    #[test]
    fn torn_tail_and_glued_records() {
        let a = rec("a").encode();
        let b = rec("b").encode();
        // A torn tail: skipped, said.
        let mut bytes = a.clone();
        bytes.extend_from_slice(&b[..b.len() / 2]);
        let r = parse(&bytes);
        assert_eq!(r.records.len(), 1);
        assert!(r.torn_tail);
        // A torn record with the next append glued on: the next is kept.
        let mut bytes = a[..a.len() / 2].to_vec();
        bytes.extend_from_slice(&b);
        let r = parse(&bytes);
        assert_eq!(r.records.len(), 1);
        assert_eq!(r.records[0].command, "b");
        assert_eq!(r.damaged, 1);
        // A flipped byte fails the checksum.
        let mut bad = a.clone();
        bad[20] ^= 1;
        let r = parse(&bad);
        assert!(r.records.is_empty());
        assert_eq!(r.damaged, 1);
    }

    proptest::proptest! {
        /// Any record reads back as written (its texts cut to fit), and
        /// any prefix of a run of records gives back the whole ones before
        /// the cut and says the tail is torn.
        #[test]
        fn encode_parse_and_any_cut(
            cmds in proptest::collection::vec(".{0,300}", 1..6),
            n in 0u64..u64::MAX / 2,
            cut_at in 0usize..4000,
        ) {
            let recs: Vec<Record> = cmds
                .iter()
                .map(|c| Record { command: c.clone(), tokens_before: n, ..rec("") })
                .collect();
            let mut bytes = Vec::new();
            let mut ends = Vec::new();
            for r in &recs {
                let line = r.encode();
                proptest::prop_assert!(line.len() <= MAX_RECORD);
                bytes.extend_from_slice(&line);
                ends.push(bytes.len());
            }
            let read = parse(&bytes);
            proptest::prop_assert_eq!(read.records.len(), recs.len());
            for (got, want) in read.records.iter().zip(&recs) {
                proptest::prop_assert_eq!(&got.command, cut(&want.command, MAX_TEXT));
                proptest::prop_assert_eq!(got.tokens_before, n);
            }
            let cut_at = cut_at.min(bytes.len());
            let read = parse(&bytes[..cut_at]);
            let whole = ends.iter().filter(|&&e| e <= cut_at).count();
            proptest::prop_assert_eq!(read.records.len(), whole);
            proptest::prop_assert_eq!(read.torn_tail, !ends.contains(&cut_at) && cut_at > 0);
            proptest::prop_assert_eq!(read.damaged, 0);
        }
    }

    #[test]
    fn dates() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(951_782_400), "2000-02-29");
        assert_eq!(date(1_764_633_600), "2025-12-02");
    }
}
