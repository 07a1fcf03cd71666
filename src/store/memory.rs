//! The in-memory store (`CAVEMAN_MCP_EPHEMERAL=1`, or an MCP server with
//! no home directory): the file store's put/get/budget/stats semantics,
//! held by the process and gone with it.

use std::collections::BTreeMap;
use std::sync::Mutex;

use super::{Bucket, GetError, Handle, NewRecord, PutError, Stats};

struct Record {
    content_type: String,
    compressor: String,
    tokens_before: u64,
    tokens_after: u64,
    original: Vec<u8>,
    metadata: Vec<u8>,
}

/// Records by handle.
#[derive(Default)]
pub(super) struct Memory {
    records: Mutex<BTreeMap<String, Record>>,
}

impl std::fmt::Debug for Memory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Memory")
    }
}

impl Memory {
    fn records(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Record>> {
        // A panic while holding the lock leaves whole records: go on.
        self.records.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// store.md §3 on a map: idempotent, budget-checked, the upsert rules.
    pub fn put(&self, h: Handle, rec: &NewRecord<'_>, budget: u64) -> Result<Handle, PutError> {
        let mut records = self.records();
        let mut new = Record {
            content_type: rec.content_type.to_string(),
            compressor: rec.compressor.to_string(),
            tokens_before: rec.tokens_before,
            tokens_after: rec.tokens_after,
            original: rec.original.to_vec(),
            metadata: rec.metadata.to_vec(),
        };
        let mut existing = 0u64;
        if let Some(old) = records.get(h.as_str()) {
            if old.content_type == new.content_type
                && old.compressor == new.compressor
                && old.tokens_before == new.tokens_before
                && old.tokens_after == new.tokens_after
                && old.original == new.original
                && old.metadata == new.metadata
            {
                return Ok(h);
            }
            existing = (old.original.len() + old.metadata.len()) as u64;
            if new.tokens_before == 0 && old.tokens_before > 0 {
                new.content_type = old.content_type.clone();
                new.compressor = old.compressor.clone();
                new.tokens_before = old.tokens_before;
                new.tokens_after = old.tokens_after;
            }
            if !old.metadata.is_empty() {
                new.metadata = old.metadata.clone();
            }
        }
        let used: u64 = records
            .values()
            .map(|r| (r.original.len() + r.metadata.len()) as u64)
            .sum();
        let need = (new.original.len() + new.metadata.len()) as u64;
        if used.saturating_sub(existing) + need > budget {
            return Err(PutError::Budget);
        }
        records.insert(h.as_str().to_string(), new);
        Ok(h)
    }

    pub fn get(&self, h: &Handle) -> Result<(Vec<u8>, Vec<u8>), GetError> {
        self.records()
            .get(h.as_str())
            .map(|r| (r.original.clone(), r.metadata.clone()))
            .ok_or(GetError::NotFound)
    }

    pub fn stats(&self, budget: u64) -> Stats {
        let mut st = Stats {
            max_storage_bytes: budget,
            ..Stats::default()
        };
        for r in self.records().values() {
            let b: &mut Bucket = st
                .by_content_type
                .entry(r.content_type.clone())
                .or_default();
            b.count += 1;
            b.tokens_before += r.tokens_before;
            b.tokens_after += r.tokens_after;
            st.storage_bytes += (r.original.len() + r.metadata.len()) as u64;
        }
        st
    }
}
