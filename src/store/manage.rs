//! Store management (`caveman-engine store …`; the reference has none):
//! listing, removal, pruning by age or size, and full verification.
//! Removal and pruning take the write lock record by record, so they are
//! safe while other processes compress: a record is removed whole or not
//! at all, and never while a writer holds the lock.

use std::fs;
use std::io;
use std::time::{Duration, SystemTime};

use super::record::Header;
use super::{lock, GetError, Handle, Store};
use crate::go::os::errno_text as go_errno;

/// One record as `store list` shows it.
#[derive(Debug, Clone)]
pub struct Entry {
    pub handle: String,
    /// When the record was last written (RFC 3339, UTC).
    pub created_at: String,
    pub content_type: String,
    /// Bytes of the original (plus metadata).
    pub bytes: u64,
    pub tokens_before: u64,
    pub tokens_after: u64,
    /// Last use: the file's modification time (refreshed by every put).
    pub used: SystemTime,
    /// The header could not be read; the other fields are empty.
    pub damaged: Option<String>,
}

impl Entry {
    /// The entry of a record of `size` bytes last written at `used`, from
    /// its header, or damaged (empty fields) with why.
    fn of(h: &Handle, size: u64, used: SystemTime, header: Result<Header, GetError>) -> Entry {
        let mut e = Entry {
            handle: h.as_str().to_string(),
            created_at: String::new(),
            content_type: String::new(),
            bytes: size,
            tokens_before: 0,
            tokens_after: 0,
            used,
            damaged: None,
        };
        match header {
            Ok(hd) => {
                e.created_at = hd.created_at;
                e.content_type = hd.content_type;
                e.bytes = hd.original_len + hd.metadata_len;
                e.tokens_before = hd.tokens_before;
                e.tokens_after = hd.tokens_after;
            }
            Err(why) => e.damaged = Some(why.to_string()),
        }
        e
    }
}

/// What `store prune` did.
#[derive(Debug, Default)]
pub struct Pruned {
    pub removed: Vec<String>,
    pub freed_bytes: u64,
    pub kept: u64,
}

/// What `store verify` found.
#[derive(Debug, Default)]
pub struct Verified {
    pub healthy: u64,
    /// Handle and reason of each damaged record.
    pub damaged: Vec<(String, String)>,
    /// With `repair`: the damaged records removed.
    pub removed: Vec<String>,
    pub temp_files: u64,
}

impl Store {
    /// Every record, oldest use first (ties by handle).
    pub fn list(&self) -> Result<Vec<Entry>, String> {
        self.usable()?;
        if self.is_in_memory() {
            return Err("an in-memory store has no records to manage".into());
        }
        if let Some(r) = &self.remote {
            let mut out: Vec<Entry> = r
                .list()?
                .into_iter()
                .map(|o| Entry::of(&o.handle, o.size, o.modified, r.header(&o.handle, o.size)))
                .collect();
            out.sort_by(|a, b| a.used.cmp(&b.used).then_with(|| a.handle.cmp(&b.handle)));
            return Ok(out);
        }
        let mut out = Vec::new();
        for h in self.handles().map_err(|e| go_errno(&e))? {
            let path = self.record_path(&h);
            let Ok(meta) = fs::symlink_metadata(&path) else {
                continue; // removed meanwhile
            };
            let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            match self.read_header(&h) {
                Err(GetError::NotFound) => continue,
                header => out.push(Entry::of(&h, meta.len(), used, header)),
            }
        }
        out.sort_by(|a, b| a.used.cmp(&b.used).then_with(|| a.handle.cmp(&b.handle)));
        Ok(out)
    }

    /// Removes one record under the write lock; `Ok(false)` when there is
    /// none.
    pub fn remove(&self, handle: &str) -> Result<bool, String> {
        self.usable()?;
        if self.is_in_memory() {
            return Err("an in-memory store has no records to manage".into());
        }
        let Some(h) = Handle::parse(handle) else {
            return Ok(false);
        };
        if let Some(r) = &self.remote {
            return r.remove(&h);
        }
        let _lock = lock::acquire(&self.dir).map_err(|e| go_errno(&e))?;
        match fs::remove_file(self.record_path(&h)) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(go_errno(&e)),
        }
    }

    /// Removes records last used longer than `older_than` ago, then the
    /// least recently used ones until at most `max_bytes` remain. Each
    /// removal is re-checked under the lock (a record used meanwhile is
    /// kept).
    pub fn prune(
        &self,
        older_than: Option<Duration>,
        max_bytes: Option<u64>,
    ) -> Result<Pruned, String> {
        let entries = self.list()?;
        let now = SystemTime::now();
        let mut done = Pruned::default();
        // Damaged records hold nothing retrievable: always removed, and
        // never counted against `max_bytes`.
        let (damaged, entries): (Vec<_>, Vec<_>) =
            entries.into_iter().partition(|e| e.damaged.is_some());
        for e in &damaged {
            let h = Handle::parse(&e.handle).expect("listed handles are valid");
            if self.remove_damaged(&h)? {
                done.removed.push(e.handle.clone());
            }
        }
        let mut total: u64 = entries.iter().map(|e| e.bytes).sum();
        for e in &entries {
            let too_old = older_than
                .is_some_and(|limit| now.duration_since(e.used).is_ok_and(|age| age > limit));
            let too_big = max_bytes.is_some_and(|m| total > m);
            if !(too_old || too_big) {
                done.kept += 1;
                continue;
            }
            let h = Handle::parse(&e.handle).expect("listed handles are valid");
            if let Some(r) = &self.remote {
                if r.remove(&h)? {
                    total -= e.bytes;
                    done.freed_bytes += e.bytes;
                    done.removed.push(e.handle.clone());
                }
                continue;
            }
            let _lock = lock::acquire(&self.dir).map_err(|e| go_errno(&e))?;
            // Used since it was listed: keep it.
            let path = self.record_path(&h);
            let now_used = fs::symlink_metadata(&path).and_then(|m| m.modified()).ok();
            if now_used != Some(e.used) {
                done.kept += 1;
                continue;
            }
            match fs::remove_file(&path) {
                Ok(()) => {
                    total -= e.bytes;
                    done.freed_bytes += e.bytes;
                    done.removed.push(e.handle.clone());
                }
                Err(err) if err.kind() == io::ErrorKind::NotFound => {}
                Err(err) => return Err(go_errno(&err)),
            }
        }
        Ok(done)
    }

    /// Reads every record through all of its checks; with `repair`, removes
    /// each damaged one (re-checked under the write lock, so a record a
    /// writer has just replaced is kept).
    pub fn verify(&self, repair: bool) -> Result<Verified, String> {
        self.usable()?;
        if self.is_in_memory() {
            return Err("an in-memory store has no records to manage".into());
        }
        let mut v = Verified::default();
        let handles = match &self.remote {
            Some(r) => r.list()?.into_iter().map(|o| o.handle).collect(),
            None => self.handles().map_err(|e| go_errno(&e))?,
        };
        for h in handles {
            match self.verified(&h) {
                Ok(()) => v.healthy += 1,
                Err(GetError::NotFound) => {}
                Err(why) => {
                    if repair && self.remove_damaged(&h)? {
                        v.removed.push(h.as_str().to_string());
                    }
                    v.damaged.push((h.as_str().to_string(), why.to_string()));
                }
            }
        }
        if self.remote.is_none() {
            v.temp_files = lock::temp_files(&self.dir).map_or(0, |t| t.len() as u64);
        }
        Ok(v)
    }

    /// Reads a record through every check.
    fn verified(&self, h: &Handle) -> Result<(), GetError> {
        match &self.remote {
            Some(r) => r.get(h).map(|_| ()),
            None => self.read_verified(h).map(|_| ()),
        }
    }

    /// Removes the record of `h` if it is still damaged, under the lock.
    fn remove_damaged(&self, h: &Handle) -> Result<bool, String> {
        if let Some(r) = &self.remote {
            return match r.get(h) {
                Ok(_) | Err(GetError::NotFound) => Ok(false),
                Err(GetError::Io(e)) => Err(e),
                Err(_) => r.remove(h),
            };
        }
        let _lock = lock::acquire(&self.dir).map_err(|e| go_errno(&e))?;
        match self.read_verified(h) {
            Ok(_) | Err(GetError::NotFound) => return Ok(false),
            Err(_) => {}
        }
        match fs::remove_file(self.record_path(h)) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(go_errno(&e)),
        }
    }
}
